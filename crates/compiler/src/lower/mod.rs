//! Lowering: AST to lowered IR (phase `Lowered`), one function per method body or top-level
//! statement. Local variables become slots, following Julia's scope rules inside functions:
//! `for`, `while` and `let` open scopes, assignment to a name bound in an enclosing local scope
//! updates it, and any other assignment makes a new local in the current scope.
//!
//! Operators are calls of generic functions; `Core.name(args)` is a primitive; `for` loops use
//! the prelude's iteration protocol `iterate_start(it)`, `iterate_done(it, st)`,
//! `iterate_next(it, st) -> (x, st)`.
//!
//! The lowerer's state and its IR-building helpers are here; `scope` (variables), `expr`
//! (expressions and calls), `control` (conditionals, loops, short-circuits), `assign`
//! (assignment forms), `sugar` (comprehensions, broadcasting, macros), `lambda` (anonymous
//! functions and closures), `methods` (entry points, method definitions, keyword arguments)
//! and `types` (struct and abstract type definitions) lower the rest.

mod assign;
mod control;
mod expr;
mod lambda;
mod methods;
mod scope;
mod sugar;
mod types;

pub use methods::{lower_constructor, lower_function, lower_toplevel, LoweredToplevel};
use types::{call_ast, core_call, ident, mk};
pub use types::{define_abstract, define_struct};

use crate::closure::{self, ClosureDef};
use crate::error::{CompileError, ErrorKind};
use crate::typeexpr::{is_module, TypeExprCtx};
use ir::{
    Block, Const, FieldRef, Function, Head, InstData, Phase, Prim, Slot, SlotData, Type, TypeEnv,
    TypePat, TypeVar, Value,
};
use rustc_hash::FxHashMap;
use std::sync::Arc;
use syntax::ast::*;
use syntax::{sym, Span, Symbol};

/// A method ready to be added to a method table.
#[derive(Clone, Debug)]
pub struct LoweredMethod {
    /// The generic function (or, for constructors, the type name) it belongs to.
    pub table: Symbol,
    /// Argument patterns, the callee itself first.
    pub sig: Vec<TypePat>,
    /// The last parameter collects the remaining arguments into a tuple; its pattern in `sig`
    /// is the pattern of each element.
    pub vararg: bool,
    /// `xs::Vararg{T, N}`: the pattern the number of collected arguments must match (binding
    /// a variable `N`).
    pub vararg_count: Option<TypePat>,
    pub tvars: Vec<TypeVar>,
    pub arg_names: Vec<Symbol>,
    pub body: Function,
    pub span: Span,
    /// Closure types (and their methods) for the anonymous functions in the body.
    pub closures: Vec<ClosureDef>,
}

struct Scope {
    vars: FxHashMap<Symbol, Slot>,
    /// A hard scope (`let`, a function body); loops open soft ones.
    hard: bool,
}

struct LoopTargets {
    brk: Block,
    cont: Block,
}

pub struct Lowerer<'a> {
    f: Function,
    cur: Block,
    scopes: Vec<Scope>,
    loops: Vec<LoopTargets>,
    sparams: Vec<Symbol>,
    toplevel: bool,
    global_decls: Vec<Symbol>,
    slot_types: FxHashMap<Slot, Expr>,
    ret_type: Option<Expr>,
    /// Inside a constructor: the type `new` builds.
    new_type: Option<Expr>,
    src: &'a str,
    /// The program's types (closure types are named there).
    env: &'a TypeEnv,
    /// Index expressions being lowered, for `end` (object, position, number of indices).
    index_ctx: Vec<(Value, IndexPos, usize)>,
    tmp_counter: u32,
    /// Variables captured by a closure and reassigned (see `closure::boxed_names`): their
    /// slots hold a `Core.Box`.
    boxed_names: rustc_hash::FxHashSet<Symbol>,
    boxed_slots: rustc_hash::FxHashSet<Slot>,
    /// Closures made for the anonymous functions lowered so far.
    closures: Vec<ClosureDef>,
    /// The methods of the body's local functions, by the span of their first (see
    /// `lambda::local_functions_as_closures`).
    local_methods: lambda::LocalMethods,
    /// Each local function's closure type once its first method is lowered, with the
    /// variables it captures, by the span of its first method.
    local_types: rustc_hash::FxHashMap<Span, (Symbol, Vec<Symbol>)>,
    /// In a top-level statement: names its loops made local by assignment (see
    /// [`LoweredToplevel::soft_scope_locals`]).
    soft_scope_locals: Vec<(Symbol, Span)>,
}

/// The type of `Core.Box`, the cell of a captured variable that is reassigned.
pub fn box_type() -> Type {
    Type::Struct(sym("Core.Box"), Vec::new().into())
}

/// Where an index stands among an indexing expression's indices, for `begin`/`end` in it.
#[derive(Clone, Copy)]
enum IndexPos {
    /// The 0-based position, known from the syntax.
    At(usize),
    /// After a splatted index: the 1-based dimension, computed at run time from the lengths
    /// of the splatted pieces before it.
    Computed(Value),
}

fn func_const(name: &str) -> InstData {
    InstData::Const(Const::Func(sym(name)))
}

impl<'a> Lowerer<'a> {
    fn new(name: String, src: &'a str, env: &'a TypeEnv, toplevel: bool) -> Lowerer<'a> {
        let mut f = Function::new(name, Phase::Lowered);
        let entry = f.add_block();
        Lowerer {
            f,
            cur: entry,
            scopes: vec![Scope {
                vars: FxHashMap::default(),
                hard: !toplevel,
            }],
            loops: vec![],
            sparams: vec![],
            toplevel,
            global_decls: vec![],
            slot_types: FxHashMap::default(),
            ret_type: None,
            new_type: None,
            src,
            env,
            index_ctx: vec![],
            tmp_counter: 0,
            boxed_names: Default::default(),
            boxed_slots: Default::default(),
            closures: vec![],
            local_methods: Default::default(),
            local_types: Default::default(),
            soft_scope_locals: vec![],
        }
    }

    fn emit(&mut self, data: InstData, span: Span) -> Value {
        match self.f.append(self.cur, data, Type::Any, span) {
            Some(v) => v,
            None => unreachable!("emit of an instruction without a result"),
        }
    }

    fn emit_stmt(&mut self, data: InstData, span: Span) {
        let _ = self.f.append(self.cur, data, Type::Any, span);
    }

    fn konst(&mut self, c: Const, span: Span) -> Value {
        self.emit(InstData::Const(c), span)
    }

    fn nothing(&mut self, span: Span) -> Value {
        self.konst(Const::Nothing, span)
    }

    /// Calls the generic function `name`.
    fn call(&mut self, name: &str, args: Vec<Value>, span: Span) -> Value {
        let f = self.emit(func_const(name), span);
        let mut all = vec![f];
        all.extend(args);
        self.emit(InstData::Call { args: all }, span)
    }

    fn prim(&mut self, op: Prim, args: Vec<Value>, span: Span) -> Value {
        self.emit(InstData::Prim { op, args }, span)
    }

    /// Ends the current block with a terminator and continues in a fresh (unreachable) block.
    fn terminate(&mut self, data: InstData, span: Span) {
        self.emit_stmt(data, span);
        self.cur = self.f.add_block();
    }

    fn jump(&mut self, dest: Block, span: Span) {
        self.emit_stmt(InstData::Jump { dest, args: vec![] }, span);
    }

    fn branch(&mut self, cond: Value, t: Block, e: Block, span: Span) {
        self.emit_stmt(
            InstData::Branch {
                cond,
                then_dest: t,
                then_args: vec![],
                else_dest: e,
                else_args: vec![],
            },
            span,
        );
    }

    fn new_slot(&mut self, name: Symbol) -> Slot {
        self.f.slots.push(SlotData {
            name,
            ty: Type::Any,
        })
    }

    fn temp_slot(&mut self, what: &str) -> Slot {
        self.tmp_counter += 1;
        let n = sym(&format!("#{what}{}", self.tmp_counter));
        self.new_slot(n)
    }

    /// Writes a variable (into its box, for a boxed one).
    fn set_slot(&mut self, s: Slot, v: Value, span: Span) {
        if self.boxed_slots.contains(&s) {
            let b = self.emit(InstData::GetSlot(s), span);
            self.emit_stmt(
                InstData::SetField {
                    obj: b,
                    field: FieldRef::Name(closure::box_field()),
                    val: v,
                },
                span,
            );
            return;
        }
        self.emit_stmt(InstData::SetSlot(s, v), span);
    }

    /// Reads a variable (from its box, for a boxed one).
    fn get_slot(&mut self, s: Slot, span: Span) -> Value {
        let v = self.emit(InstData::GetSlot(s), span);
        if self.boxed_slots.contains(&s) {
            return self.emit(
                InstData::GetField {
                    obj: v,
                    field: FieldRef::Name(closure::box_field()),
                },
                span,
            );
        }
        v
    }

    fn source_text(&self, span: Span) -> String {
        self.src
            .get(span.lo as usize..span.hi as usize)
            .unwrap_or("")
            .to_string()
    }

    fn finish(mut self, last: Value, sp: Span) -> Result<Function, CompileError> {
        if !self.f.is_terminated(self.cur) {
            self.ret(last, sp)?;
        }
        // Close every block left open (unreachable continuations).
        for b in self.f.layout.clone() {
            if !self.f.is_terminated(b) {
                self.f.append(b, InstData::Unreachable, Type::Any, sp);
            }
        }
        Ok(self.f)
    }
}

/// The members of a literal `Union{A, B, ...}`.
pub(super) fn union_members(t: &Expr) -> Option<&[Expr]> {
    match &t.kind {
        ExprKind::Curly { base, params }
            if base.ident().is_some_and(|b| b.as_str() == "Union") && !params.is_empty() =>
        {
            Some(params)
        }
        _ => None,
    }
}
