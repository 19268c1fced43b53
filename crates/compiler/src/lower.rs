//! Lowering: AST to lowered IR (phase `Lowered`), one function per method body or top-level
//! statement. Local variables become slots, following Julia's scope rules inside functions:
//! `for`, `while` and `let` open scopes, assignment to a name bound in an enclosing local scope
//! updates it, and any other assignment makes a new local in the current scope.
//!
//! Operators are calls of generic functions; `Core.name(args)` is a primitive; `for` loops use
//! the prelude's iteration protocol `iterate_start(it)`, `iterate_done(it, st)`,
//! `iterate_next(it, st) -> (x, st)`.

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
    /// Index expressions being lowered, for `end` (object, dimension, number of indices).
    index_ctx: Vec<(Value, usize, usize)>,
    tmp_counter: u32,
    /// Variables captured by a closure and reassigned (see `closure::boxed_names`): their
    /// slots hold a `Core.Box`.
    boxed_names: rustc_hash::FxHashSet<Symbol>,
    boxed_slots: rustc_hash::FxHashSet<Slot>,
    /// Closures made for the anonymous functions lowered so far.
    closures: Vec<ClosureDef>,
    /// In a top-level statement: names its loops made local by assignment (see
    /// [`LoweredToplevel::soft_scope_locals`]).
    soft_scope_locals: Vec<(Symbol, Span)>,
}

/// Numbers closure types, process-wide (their names must not collide across sessions that
/// share nothing, which is harmless, or within one, which would be wrong).
static CLOSURE_COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);

/// The type of `Core.Box`, the cell of a captured variable that is reassigned.
pub fn box_type() -> Type {
    Type::Struct(sym("Core.Box"), Vec::new().into())
}

fn func_const(name: &str) -> InstData {
    InstData::Const(Const::Func(sym(name)))
}

impl<'a> Lowerer<'a> {
    fn new(name: String, src: &'a str, toplevel: bool) -> Lowerer<'a> {
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
            index_ctx: vec![],
            tmp_counter: 0,
            boxed_names: Default::default(),
            boxed_slots: Default::default(),
            closures: vec![],
            soft_scope_locals: vec![],
        }
    }

    // ----- emission -----

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

    /// A condition: must be a `Bool` (a `TypeError` otherwise).
    fn cond(&mut self, e: &Expr) -> Result<Value, CompileError> {
        let v = self.expr(e)?;
        Ok(self.emit(
            InstData::TypeAssert {
                val: v,
                ty: Type::Bool,
            },
            e.span,
        ))
    }

    // ----- names -----

    fn lookup_local(&self, name: Symbol) -> Option<Slot> {
        for s in self.scopes.iter().rev() {
            if let Some(&slot) = s.vars.get(&name) {
                return Some(slot);
            }
        }
        None
    }

    /// A new local in the current scope; a boxed one gets its (empty) box here, so each
    /// entry into the scope (each loop iteration) makes a fresh variable.
    fn declare_local(&mut self, name: Symbol) -> Slot {
        let s = self.new_slot(name);
        if let Some(scope) = self.scopes.last_mut() {
            scope.vars.insert(name, s);
        }
        if self.boxed_names.contains(&name) {
            let sp = Span::DUMMY;
            let t = self.konst(Const::Type(box_type()), sp);
            let nothing = self.nothing(sp);
            let b = self.call("#new", vec![t, nothing], sp);
            self.emit_stmt(InstData::SetSlot(s, b), sp);
            self.boxed_slots.insert(s);
        }
        s
    }

    /// Resolves a scope block before lowering it, as Julia does: every name its own
    /// statements assign (or declare `local`) is a local of the block from its first line —
    /// unless it is a local of an enclosing block (then it is that variable, wherever in the
    /// enclosing block it is assigned), declared `global`, or the block is the global scope.
    /// So `println(k); k += 1` in a function reads the local `k` (an `UndefVarError`), never a
    /// global `k`. Each entry into the block (each loop iteration) starts its locals
    /// unassigned.
    fn predeclare(&mut self, stmts: &[Expr]) {
        let names = closure::scope_names(stmts);
        for g in names.globals {
            if !self.global_decls.contains(&g) {
                self.global_decls.push(g);
            }
        }
        if self.toplevel && self.scopes.len() == 1 {
            return;
        }
        let explicit = closure::explicit_locals(stmts);
        // Soft scopes (loops) of a top-level statement, not inside a `let`.
        let soft_toplevel = self.toplevel && self.scopes.iter().skip(1).all(|s| !s.hard);
        for (n, span) in names.locals.into_iter().zip(names.local_spans) {
            if self.global_decls.contains(&n) {
                continue;
            }
            let here = self.scopes.last().is_some_and(|s| s.vars.contains_key(&n));
            if here || (self.lookup_local(n).is_some() && !explicit.contains(&n)) {
                continue;
            }
            if soft_toplevel && !explicit.contains(&n) {
                self.soft_scope_locals.push((n, span));
            }
            let s = self.declare_local(n);
            if !self.boxed_slots.contains(&s) {
                let sp = Span::DUMMY;
                let undef = self.konst(Const::Undef, sp);
                self.emit_stmt(InstData::SetSlot(s, undef), sp);
            }
        }
    }

    /// `[body for x in itr if cond]` (and a generator `(body for x in itr)`, which is
    /// collected the same way: every consumer in the prelude reads it once, in order) is
    /// `map(x -> body, filter(x -> cond, collect(itr)))`.
    fn comprehension(
        &mut self,
        body: &Expr,
        iters: &[(Expr, Expr)],
        cond: Option<&Expr>,
        generator: bool,
        sp: Span,
    ) -> Result<Value, CompileError> {
        let [(var, itr)] = iters else {
            return Err(CompileError::unsupported(
                sp,
                if generator {
                    "generators over several iterators"
                } else {
                    "comprehensions over several iterators"
                },
            ));
        };
        // `#c -> let var = #c; e end`, so that `var` may be a tuple of names.
        let arg = sym("#c");
        let lambda = |e: &Expr| {
            let bind = mk(
                ExprKind::Assign {
                    lhs: Box::new(var.clone()),
                    rhs: Box::new(ident(arg, var.span)),
                },
                var.span,
            );
            let l = Lambda {
                params: vec![Param {
                    name: Some(arg),
                    ty: None,
                    default: None,
                    vararg: false,
                    destructure: None,
                    span: var.span,
                }],
                body: mk(
                    ExprKind::Let {
                        bindings: vec![bind],
                        body: vec![e.clone()],
                    },
                    e.span,
                ),
                span: e.span,
            };
            mk(ExprKind::Lambda(Box::new(l)), e.span)
        };
        let mut source = itr.clone();
        if let Some(c) = cond {
            let collected = call_ast(ident(sym("collect"), itr.span), vec![itr.clone()], itr.span);
            source = call_ast(
                ident(sym("filter"), c.span),
                vec![lambda(c), collected],
                c.span,
            );
        }
        let m = call_ast(ident(sym("map"), sp), vec![lambda(body), source], sp);
        self.expr(&m)
    }

    /// A fused dotted expression: `broadcast(fused, args...)`, or with a destination
    /// `broadcast!(fused, dest, args...)`, where `fused` applies the whole expression to one
    /// element of each argument (see `broadcast`).
    fn broadcast(
        &mut self,
        e: &Expr,
        dest: Option<&Expr>,
        sp: Span,
    ) -> Result<Value, CompileError> {
        let (body, leaves) = crate::broadcast::fuse(e);
        if leaves.len() > crate::broadcast::MAX_ARGS {
            return Err(CompileError::unsupported(
                sp,
                &format!(
                    "a fused broadcast over more than {} arrays or scalars",
                    crate::broadcast::MAX_ARGS
                ),
            ));
        }
        if leaves.is_empty() && dest.is_none() {
            return self.expr(&body);
        }
        let params: Vec<Param> = (0..leaves.len())
            .map(|k| Param {
                name: Some(crate::broadcast::arg_name(k)),
                ty: None,
                default: None,
                vararg: false,
                destructure: None,
                span: sp,
            })
            .collect();
        let fused = mk(
            ExprKind::Lambda(Box::new(Lambda {
                params,
                body,
                span: sp,
            })),
            sp,
        );
        let mut args = vec![fused];
        let name = match dest {
            Some(d) => {
                args.push(d.clone());
                "broadcast!"
            }
            None => "broadcast",
        };
        args.extend(leaves);
        self.expr(&call_ast(ident(sym(name), sp), args, sp))
    }

    /// `y[I...] .= rhs` (and `.op=`), as Julia's `broadcast!` into `dotview(y, I...)` (a view
    /// of `y`, the expression's value). `y` and the indices are evaluated once.
    fn indexed_dot_assign(
        &mut self,
        op: Symbol,
        lhs: &Expr,
        rhs: &Expr,
        sp: Span,
    ) -> Result<Value, CompileError> {
        let ExprKind::Index { obj, indices } = &lhs.kind else {
            return Err(CompileError::invalid(
                lhs.span,
                "expected an indexed target",
            ));
        };
        let (o, idx) = self.index_operands(obj, indices)?;
        let mut args = vec![o];
        args.extend(idx);
        let view = self.call("_dotview", args.clone(), lhs.span);
        // The selection is a variable the fused broadcast writes into (and, for `.op=`,
        // reads).
        self.tmp_counter += 1;
        let name = sym(&format!("#dotview{}", self.tmp_counter));
        let s = self.declare_local(name);
        self.set_slot(s, view, lhs.span);
        let dest = ident(name, lhs.span);
        let rhs = if op.as_str() == ".=" {
            rhs.clone()
        } else {
            call_ast(ident(op, sp), vec![dest.clone(), rhs.clone()], sp)
        };
        self.broadcast(&rhs, Some(&dest), sp)?;
        Ok(self.get_slot(s, sp))
    }

    /// An anonymous function: a closure type with one field per captured variable, a call
    /// method whose body reads the captures from the object, and here the construction of the
    /// object (see `closure`).
    fn lambda(
        &mut self,
        params: &[Param],
        body: &[&Expr],
        sp: Span,
    ) -> Result<Value, CompileError> {
        let mut caps: Vec<(Symbol, Value, bool)> = Vec::new();
        for n in closure::free_names(params, body) {
            if self.global_decls.contains(&n) {
                continue;
            }
            if let Some(s) = self.lookup_local(n) {
                // The box itself, for a boxed variable: the closure shares it.
                let v = self.emit(InstData::GetSlot(s), sp);
                caps.push((n, v, self.boxed_slots.contains(&s)));
            } else if self.sparams.contains(&n) {
                let v = self.read_name(n, sp)?;
                caps.push((n, v, false));
            }
        }
        let id = CLOSURE_COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let base = self
            .f
            .name
            .split('(')
            .next()
            .unwrap_or("")
            .trim_start_matches('#');
        let name = sym(&format!("#{base}#{id}"));
        let tparams: Vec<TypeVarDecl> = (0..caps.len())
            .map(|k| TypeVarDecl {
                name: sym(&format!("T{}", k + 1)),
                upper: None,
                span: sp,
            })
            .collect();
        let ty = StructDef {
            name,
            name_span: sp,
            params: tparams.clone(),
            supertype: Some(ident(sym("Function"), sp)),
            fields: caps
                .iter()
                .zip(&tparams)
                .map(|((n, ..), t)| FieldDecl {
                    name: *n,
                    ty: Some(ident(t.name, sp)),
                    span: sp,
                })
                .collect(),
            mutable: false,
            constructors: vec![],
            span: sp,
        };
        let boxed: FxHashMap<Symbol, bool> = caps.iter().map(|(n, _, b)| (*n, *b)).collect();
        let read_capture = |n: Symbol, at: Span| {
            boxed.get(&n).map(|is_boxed| {
                let field = |obj: Expr, name: Symbol| {
                    mk(
                        ExprKind::Field {
                            obj: Box::new(obj),
                            name,
                        },
                        at,
                    )
                };
                let f = field(ident(closure::self_name(), at), n);
                if *is_boxed {
                    field(f, closure::box_field())
                } else {
                    f
                }
            })
        };
        let mut bound: Vec<Symbol> = params.iter().filter_map(|p| p.name).collect();
        let new_body: Vec<Expr> = body
            .iter()
            .map(|b| closure::rewrite(b, &read_capture, &mut bound))
            .collect();
        let self_ty = if tparams.is_empty() {
            ident(name, sp)
        } else {
            mk(
                ExprKind::Curly {
                    base: Box::new(ident(name, sp)),
                    params: tparams.iter().map(|t| ident(t.name, sp)).collect(),
                },
                sp,
            )
        };
        let method = FunctionDef {
            name: FnName::Type(mk(
                ExprKind::TypeAssert {
                    expr: Box::new(ident(closure::self_name(), sp)),
                    ty: Box::new(self_ty),
                },
                sp,
            )),
            name_span: sp,
            params: params.to_vec(),
            kwparams: vec![],
            where_vars: tparams,
            ret_type: None,
            body: new_body,
            declaration_only: false,
            span: sp,
        };
        self.closures.push(ClosureDef { ty, method });
        let ctor = self.emit(InstData::GetGlobal(name), sp);
        let mut args = vec![ctor];
        args.extend(caps.iter().map(|(_, v, _)| *v));
        Ok(self.emit(InstData::Call { args }, sp))
    }

    fn read_name(&mut self, name: Symbol, span: Span) -> Result<Value, CompileError> {
        if let Some(s) = self.lookup_local(name) {
            return Ok(self.get_slot(s, span));
        }
        if let Some(i) = self.sparams.iter().position(|p| *p == name) {
            return Ok(self.emit(InstData::StaticParam(i as u32), span));
        }
        if name.as_str() == "Core" {
            return Err(CompileError::invalid(
                span,
                "`Core` can only be used as `Core.name(...)`",
            ));
        }
        Ok(self.emit(InstData::GetGlobal(name), span))
    }

    fn assign_name(&mut self, name: Symbol, v: Value, span: Span) -> Result<(), CompileError> {
        if self.global_decls.contains(&name) {
            self.emit_stmt(InstData::SetGlobal(name, v), span);
            return Ok(());
        }
        if let Some(s) = self.lookup_local(name) {
            let v = self.convert_for_slot(s, v, span)?;
            self.set_slot(s, v, span);
            return Ok(());
        }
        if self.toplevel && self.scopes.len() == 1 {
            self.emit_stmt(InstData::SetGlobal(name, v), span);
            return Ok(());
        }
        let s = self.declare_local(name);
        self.set_slot(s, v, span);
        Ok(())
    }

    fn convert_for_slot(&mut self, s: Slot, v: Value, span: Span) -> Result<Value, CompileError> {
        match self.slot_types.get(&s).cloned() {
            Some(te) => self.convert_to(&te, v, span),
            None => Ok(v),
        }
    }

    /// `typeassert(convert(T, v), T)`
    fn convert_to(&mut self, ty: &Expr, v: Value, span: Span) -> Result<Value, CompileError> {
        let t = self.type_value(ty)?;
        let c = self.call("convert", vec![t, v], span);
        Ok(self.call("#typeassert", vec![c, t], span))
    }

    /// A type expression evaluated as a value.
    fn type_value(&mut self, e: &Expr) -> Result<Value, CompileError> {
        match &e.kind {
            ExprKind::Curly { base, params } => {
                let b = self.type_value(base)?;
                let mut args = vec![b];
                for p in params {
                    let v = match &p.kind {
                        ExprKind::Int(n) => self.konst(Const::Type(Type::Val(*n)), p.span),
                        ExprKind::Bool(b) => self.konst(Const::Type(Type::ValBool(*b)), p.span),
                        ExprKind::SubtypeBound(_) => {
                            return Err(CompileError::unsupported(
                                p.span,
                                "`<:` in a type used as a value",
                            ))
                        }
                        _ => self.type_value(p)?,
                    };
                    args.push(v);
                }
                Ok(self.prim(Prim::ApplyType, args, e.span))
            }
            _ => self.expr(e),
        }
    }

    fn source_text(&self, span: Span) -> String {
        self.src
            .get(span.lo as usize..span.hi as usize)
            .unwrap_or("")
            .to_string()
    }

    // ----- expressions -----

    fn block(&mut self, stmts: &[Expr]) -> Result<Value, CompileError> {
        let mut last = None;
        for s in stmts {
            last = Some(self.expr(s)?);
        }
        Ok(match last {
            Some(v) => v,
            None => {
                let sp = stmts.first().map(|s| s.span).unwrap_or_default();
                self.nothing(sp)
            }
        })
    }

    fn scoped_block(&mut self, stmts: &[Expr]) -> Result<Value, CompileError> {
        self.scopes.push(Scope {
            vars: FxHashMap::default(),
            hard: false,
        });
        self.predeclare(stmts);
        let r = self.block(stmts);
        self.scopes.pop();
        r
    }

    pub fn expr(&mut self, e: &Expr) -> Result<Value, CompileError> {
        // Deeply nested expressions (a chain `1 + 1 + ...` of many thousand terms) grow the
        // stack on demand.
        stacker::maybe_grow(64 * 1024, 4 << 20, || self.expr_here(e))
    }

    fn expr_here(&mut self, e: &Expr) -> Result<Value, CompileError> {
        let sp = e.span;
        if crate::broadcast::is_dotted(e) {
            return self.broadcast(e, None, sp);
        }
        match &e.kind {
            ExprKind::Int(i) => Ok(self.konst(Const::Int(*i), sp)),
            ExprKind::Float(x) => Ok(self.konst(Const::F64(*x), sp)),
            ExprKind::Float32(x) => Ok(self.konst(Const::F32(*x), sp)),
            ExprKind::Bool(b) => Ok(self.konst(Const::Bool(*b), sp)),
            ExprKind::Nothing => Ok(self.nothing(sp)),
            ExprKind::Str(segs) => self.string(segs, sp),
            ExprKind::Ident(name) => self.read_name(*name, sp),
            ExprKind::End => match self.index_ctx.last().copied() {
                Some((obj, dim, n)) => {
                    if n == 1 {
                        Ok(self.call("lastindex", vec![obj], sp))
                    } else {
                        let d = self.konst(Const::Int(dim as i64 + 1), sp);
                        Ok(self.call("size", vec![obj, d], sp))
                    }
                }
                None => Err(CompileError::invalid(
                    sp,
                    "`end` outside an index expression",
                )),
            },
            ExprKind::Colon => {
                let c = self.emit(InstData::GetGlobal(sym("Colon")), sp);
                Ok(self.emit(InstData::Call { args: vec![c] }, sp))
            }
            ExprKind::Call {
                func,
                args,
                kwargs,
                do_block,
            } => {
                // The arguments are borrowed, never cloned: a chain `1 + 1 + ... + 1` nests
                // calls thousands deep.
                let lambda = do_block
                    .as_ref()
                    .map(|d| mk(ExprKind::Lambda(d.clone()), d.span));
                let mut all: Vec<&Expr> = Vec::new();
                // `f(args...) do x ... end` is `f(x -> ..., args...)`.
                all.extend(lambda.as_ref());
                all.extend(args.iter());
                if !kwargs.is_empty() {
                    // `f(args...; k = v)` is `#kwcall((k = v,), f, args...)`: the keyword
                    // arguments travel as a named tuple to the method `f`'s definition made
                    // for them (see `keyword_methods`).
                    let mut names: Vec<Symbol> = Vec::new();
                    for k in kwargs {
                        if let Some(t) = &k.ty {
                            return Err(CompileError::invalid(
                                t.span,
                                "a keyword argument of a call has no type",
                            ));
                        }
                        if names.contains(&k.name) {
                            return Err(CompileError::invalid(
                                k.span,
                                format!("keyword argument `{}` repeated", k.name),
                            ));
                        }
                        names.push(k.name);
                    }
                    let nt = mk(
                        ExprKind::NamedTuple(
                            kwargs.iter().map(|k| (k.name, k.value.clone())).collect(),
                        ),
                        kwargs[0].span,
                    );
                    let mut full: Vec<&Expr> = vec![&nt, func];
                    full.extend(all);
                    let kf = self.emit(func_const("#kwcall"), sp);
                    return self.call_with(kf, &full, sp);
                }
                self.call_expr(func, &all, sp)
            }
            ExprKind::DotCall { .. } => self.broadcast(e, None, sp),
            ExprKind::And(a, b) => self.short_circuit(a, b, true, sp),
            ExprKind::Or(a, b) => self.short_circuit(a, b, false, sp),
            ExprKind::Comparison { first, rest } => self.comparison(first, rest, sp),
            ExprKind::Ternary { cond, then, else_ } => {
                self.if_expr(cond, |l| l.expr(then), |l| l.expr(else_), sp)
            }
            ExprKind::Assign { lhs, rhs } => {
                let v = self.expr(rhs)?;
                self.assign(lhs, v, sp)?;
                Ok(v)
            }
            ExprKind::OpAssign { op, lhs, rhs } => self.op_assign(*op, lhs, rhs, sp),
            ExprKind::DotAssign { op, lhs, rhs } if matches!(lhs.kind, ExprKind::Index { .. }) => {
                self.indexed_dot_assign(*op, lhs, rhs, sp)
            }
            ExprKind::DotAssign { op, lhs, rhs } => {
                // `x .op= y` is `x .= x .op y`.
                let rhs = if op.as_str() == ".=" {
                    (**rhs).clone()
                } else {
                    call_ast(ident(*op, sp), vec![(**lhs).clone(), (**rhs).clone()], sp)
                };
                self.broadcast(&rhs, Some(lhs), sp)
            }
            ExprKind::Tuple(elems) => {
                let mut vs = Vec::new();
                for el in elems {
                    if let ExprKind::Splat(_) = el.kind {
                        return Err(CompileError::unsupported(el.span, "splatting into a tuple"));
                    }
                    vs.push(self.expr(el)?);
                }
                Ok(self.emit(InstData::Tuple { args: vs }, sp))
            }
            ExprKind::NamedTuple(fields) => {
                let mut vs = Vec::new();
                let mut names = Vec::new();
                for (n, v) in fields {
                    if names.contains(n) {
                        return Err(CompileError::invalid(
                            sp,
                            format!("field name `{n}` repeated in a named tuple"),
                        ));
                    }
                    names.push(*n);
                    vs.push(self.expr(v)?);
                }
                // Element types are filled in by inference.
                let ty = Type::NamedTuple(names.into(), vec![Type::Any; vs.len()].into());
                Ok(self.emit(InstData::New { ty, args: vs }, sp))
            }
            ExprKind::Vect(elems) => {
                let vs = self.args(elems)?;
                Ok(self.call("vect", vs, sp))
            }
            ExprKind::Matrix(rows) => self.matrix(None, rows, sp),
            ExprKind::TypedMatrix(t, rows) => self.matrix(Some(t), rows, sp),
            ExprKind::Index { obj, indices } => self.index_call("getindex", obj, indices, sp),
            ExprKind::Field { obj, name } => {
                if let Some(m) = obj.ident() {
                    if m.as_str() == "Core" {
                        return Ok(self.emit(InstData::GetGlobal(*name), sp));
                    }
                    if is_module(m) && self.lookup_local(m).is_none() {
                        return self.read_name(*name, sp);
                    }
                }
                let o = self.expr(obj)?;
                Ok(self.emit(
                    InstData::GetField {
                        obj: o,
                        field: FieldRef::Name(*name),
                    },
                    sp,
                ))
            }
            ExprKind::Curly { .. } => self.type_value(e),
            ExprKind::SubtypeBound(_) => Err(CompileError::invalid(
                sp,
                "`<:T` is only valid inside `{...}` of a type",
            )),
            ExprKind::TypeAssert { expr, ty } => {
                let v = self.expr(expr)?;
                let t = self.type_value(ty)?;
                Ok(self.call("#typeassert", vec![v, t], sp))
            }
            ExprKind::Where { .. } => Err(CompileError::invalid(
                sp,
                "`where` outside a method signature",
            )),
            ExprKind::Splat(_) => Err(CompileError::invalid(
                sp,
                "`...` is only valid in a call or a signature",
            )),
            ExprKind::Lambda(l) => self.lambda(&l.params, &[&l.body], sp),
            ExprKind::Function(def) if matches!(def.name, FnName::Anonymous) => {
                let body: Vec<&Expr> = def.body.iter().collect();
                self.lambda(&def.params, &body, sp)
            }
            ExprKind::Block(stmts) => self.block(stmts),
            ExprKind::If { cond, then, else_ } => self.if_expr(
                cond,
                |l| l.block(then),
                |l| match else_ {
                    Some(e) => l.expr(e),
                    None => Ok(l.nothing(sp)),
                },
                sp,
            ),
            ExprKind::While { cond, body } => self.while_loop(cond, body, sp),
            ExprKind::For { iters, body } => {
                let exit = self.f.add_block();
                self.for_loop(iters, body, exit, sp)?;
                self.jump(exit, sp);
                self.cur = exit;
                Ok(self.nothing(sp))
            }
            ExprKind::Break => self.loop_exit(true, sp),
            ExprKind::Continue => self.loop_exit(false, sp),
            ExprKind::Return(v) => {
                if self.toplevel {
                    return Err(CompileError::invalid(sp, "`return` outside a function"));
                }
                let val = match v {
                    Some(v) => self.expr(v)?,
                    None => self.nothing(sp),
                };
                self.ret(val, sp)?;
                Ok(self.nothing(sp))
            }
            ExprKind::Let { bindings, body } => {
                // Bindings are made in order, each right-hand side evaluated before its own
                // variable exists but after the earlier ones: `let a = a + 1, b = a` reads
                // the outer `a`, then gives `b` the new one.
                self.scopes.push(Scope {
                    vars: FxHashMap::default(),
                    hard: true,
                });
                let r = (|| -> Result<Value, CompileError> {
                    for b in bindings {
                        match &b.kind {
                            ExprKind::Assign { lhs, rhs } => {
                                let v = self.expr(rhs)?;
                                self.declare_and_assign(lhs, Some(v))?;
                            }
                            ExprKind::Ident(_) | ExprKind::TypeAssert { .. } => {
                                self.declare_and_assign(b, None)?;
                            }
                            _ => {
                                return Err(CompileError::invalid(
                                    b.span,
                                    "expected `name` or `name = value` in `let`",
                                ))
                            }
                        }
                    }
                    self.predeclare(body);
                    self.block(body)
                })();
                self.scopes.pop();
                r
            }
            ExprKind::Local(decls) => {
                for d in decls {
                    match &d.kind {
                        ExprKind::Assign { lhs, rhs } => {
                            let v = self.expr(rhs)?;
                            self.declare_and_assign(lhs, Some(v))?;
                        }
                        _ => self.declare_and_assign(d, None)?,
                    }
                }
                Ok(self.nothing(sp))
            }
            ExprKind::Global(decls) => {
                for d in decls {
                    let name = match &d.kind {
                        ExprKind::Ident(n) => Some(*n),
                        ExprKind::Assign { lhs, .. } | ExprKind::OpAssign { lhs, .. } => {
                            lhs.ident()
                        }
                        _ => None,
                    };
                    let Some(name) = name else {
                        return Err(CompileError::invalid(
                            d.span,
                            "expected a name after `global`",
                        ));
                    };
                    self.global_decls.push(name);
                    if !matches!(d.kind, ExprKind::Ident(_)) {
                        self.expr(d)?;
                    }
                }
                Ok(self.nothing(sp))
            }
            ExprKind::Const(inner) => {
                if !self.toplevel || self.scopes.len() > 1 {
                    return Err(CompileError::invalid(
                        sp,
                        "`const` is only allowed at top level",
                    ));
                }
                self.expr(inner)
            }
            ExprKind::Function(_) => Err(CompileError::unsupported(
                sp,
                "defining a function inside a function (closures)",
            )),
            ExprKind::Struct(_) | ExprKind::AbstractType { .. } => Err(CompileError::invalid(
                sp,
                "type definitions are only allowed at top level",
            )),
            ExprKind::Macro { name, args } => self.macro_call(*name, args, sp),
            ExprKind::Comprehension {
                body,
                iters,
                cond,
                generator,
            } => self.comprehension(body, iters, cond.as_deref(), *generator, sp),
            ExprKind::Using(_) => Ok(self.nothing(sp)),
            ExprKind::Error => Err(CompileError::new(ErrorKind::Syntax, sp, "syntax error")),
        }
    }

    /// The local `name` of the innermost scope: the one its resolution made (see
    /// `predeclare`), or a new one.
    fn local_here(&mut self, name: Symbol) -> Slot {
        match self.scopes.last().and_then(|s| s.vars.get(&name)).copied() {
            Some(s) => s,
            None => self.declare_local(name),
        }
    }

    fn declare_and_assign(&mut self, lhs: &Expr, v: Option<Value>) -> Result<(), CompileError> {
        match &lhs.kind {
            ExprKind::Ident(n) => {
                let s = self.local_here(*n);
                match v {
                    Some(v) => self.set_slot(s, v, lhs.span),
                    None if !self.boxed_slots.contains(&s) => {
                        // A declaration without a value: unassigned at each entry.
                        let undef = self.konst(Const::Undef, lhs.span);
                        self.emit_stmt(InstData::SetSlot(s, undef), lhs.span);
                    }
                    None => {}
                }
                Ok(())
            }
            ExprKind::TypeAssert { expr, ty } if expr.ident().is_some() => {
                let n = expr.ident().unwrap_or_else(|| sym("_"));
                let s = self.local_here(n);
                self.slot_types.insert(s, (**ty).clone());
                if let Some(v) = v {
                    let v = self.convert_for_slot(s, v, lhs.span)?;
                    self.set_slot(s, v, lhs.span);
                }
                Ok(())
            }
            ExprKind::Tuple(_) => {
                let Some(v) = v else {
                    return Err(CompileError::invalid(lhs.span, "expected names"));
                };
                if let ExprKind::Tuple(elems) = &lhs.kind {
                    for (i, el) in elems.iter().enumerate() {
                        let k = self.konst(Const::Int(i as i64 + 1), el.span);
                        let x = self.call("getindex", vec![v, k], el.span);
                        self.declare_and_assign(el, Some(x))?;
                    }
                }
                Ok(())
            }
            _ => Err(CompileError::invalid(lhs.span, "expected a variable name")),
        }
    }

    fn ret(&mut self, v: Value, sp: Span) -> Result<(), CompileError> {
        let v = match self.ret_type.clone() {
            Some(t) => self.convert_to(&t, v, sp)?,
            None => v,
        };
        self.terminate(InstData::Return(v), sp);
        Ok(())
    }

    fn args<'e>(
        &mut self,
        es: impl IntoIterator<Item = &'e Expr>,
    ) -> Result<Vec<Value>, CompileError> {
        let mut vs = Vec::new();
        for e in es {
            if let ExprKind::Splat(_) = e.kind {
                return Err(CompileError::unsupported(e.span, "splatting `f(xs...)`"));
            }
            vs.push(self.expr(e)?);
        }
        Ok(vs)
    }

    fn string(&mut self, segs: &[StrSeg], sp: Span) -> Result<Value, CompileError> {
        if let [StrSeg::Lit(s)] = segs {
            return Ok(self.konst(Const::Str(Arc::from(s.as_str())), sp));
        }
        if segs.is_empty() {
            return Ok(self.konst(Const::Str(Arc::from("")), sp));
        }
        let mut vs = Vec::new();
        for s in segs {
            vs.push(match s {
                StrSeg::Lit(l) => self.konst(Const::Str(Arc::from(l.as_str())), sp),
                StrSeg::Expr(e) => self.expr(e)?,
            });
        }
        Ok(self.call("string", vs, sp))
    }

    fn call_expr(&mut self, func: &Expr, args: &[&Expr], sp: Span) -> Result<Value, CompileError> {
        // `Core.name(args)` is a primitive.
        if let ExprKind::Field { obj, name } = &func.kind {
            if obj.ident().is_some_and(|m| m.as_str() == "Core")
                && self.lookup_local(sym("Core")).is_none()
            {
                if name.as_str() == "kw_error" {
                    let f = self.emit(func_const("#kw_error"), sp);
                    return self.call_with(f, args, sp);
                }
                let vs = self.args(args.iter().copied())?;
                return match Prim::from_name(name.as_str()) {
                    Some(op) => Ok(self.prim(op, vs, sp)),
                    None => match name.as_str() {
                        "typeassert" => Ok(self.call("#typeassert", vs, sp)),
                        "new" => Ok(self.call("#new", vs, sp)),
                        "return_type" => Ok(self.call("#return_type", vs, sp)),
                        "kw_has" => Ok(self.call("#kw_has", vs, sp)),
                        "kw_extra" => Ok(self.call("#kw_extra", vs, sp)),
                        _ => Err(CompileError::invalid(
                            func.span,
                            format!("`Core.{name}` is not a primitive"),
                        )),
                    },
                };
            }
        }
        if let Some(name) = func.ident() {
            if name.as_str() == "new" && self.lookup_local(name).is_none() {
                let Some(t) = self.new_type.clone() else {
                    return Err(CompileError::invalid(
                        func.span,
                        "`new` is only available inside a constructor",
                    ));
                };
                let tv = self.type_value(&t)?;
                let mut vs = vec![tv];
                vs.extend(self.args(args.iter().copied())?);
                return Ok(self.call("#new", vs, sp));
            }
            if name.as_str() == "throw" && self.lookup_local(name).is_none() && args.len() == 1 {
                let v = self.expr(args[0])?;
                let r = self.prim(Prim::ThrowValue, vec![v], sp);
                self.terminate(InstData::Unreachable, sp);
                return Ok(r);
            }
        }
        // `x^k` with a literal k in -2..=3 is Julia's `literal_pow`: x*x for k = 2, inv(x)
        // for k = -1, and so on (so `2^-1 == 0.5`).
        if func.ident().is_some_and(|f| f.as_str() == "^") && self.lookup_local(sym("^")).is_none()
        {
            if let (2, Some(ExprKind::Int(k))) = (args.len(), args.get(1).map(|a| &a.kind)) {
                if (-2..=3).contains(k) {
                    let x = self.expr(args[0])?;
                    return Ok(match k {
                        0 => self.call("one", vec![x], sp),
                        1 => x,
                        2 => self.call("*", vec![x, x], sp),
                        3 => {
                            let x2 = self.call("*", vec![x, x], sp);
                            self.call("*", vec![x2, x], sp)
                        }
                        -1 => self.call("inv", vec![x], sp),
                        _ => {
                            let i = self.call("inv", vec![x], sp);
                            self.call("*", vec![i, i], sp)
                        }
                    });
                }
            }
        }
        let f = self.expr(func)?;
        self.call_with(f, args, sp)
    }

    /// The call of function value `f` on `args` (which may splat).
    fn call_with(&mut self, f: Value, args: &[&Expr], sp: Span) -> Result<Value, CompileError> {
        if args.iter().any(|a| matches!(a.kind, ExprKind::Splat(_))) {
            // `f(a, xs..., b)` is `#apply(f, (a,), xs, (b,))`: inference flattens tuples of
            // known length into a plain call; anything else is flattened at run time.
            let mut pieces = vec![f];
            for a in args {
                let v = match &a.kind {
                    ExprKind::Splat(inner) => self.expr(inner)?,
                    _ => {
                        let v = self.expr(a)?;
                        self.emit(InstData::Tuple { args: vec![v] }, a.span)
                    }
                };
                pieces.push(v);
            }
            return Ok(self.call("#apply", pieces, sp));
        }
        let mut all = vec![f];
        all.extend(self.args(args.iter().copied())?);
        Ok(self.emit(InstData::Call { args: all }, sp))
    }

    fn short_circuit(
        &mut self,
        a: &Expr,
        b: &Expr,
        is_and: bool,
        sp: Span,
    ) -> Result<Value, CompileError> {
        let tmp = self.temp_slot(if is_and { "and" } else { "or" });
        let ca = self.cond(a)?;
        let rhs = self.f.add_block();
        let short = self.f.add_block();
        let join = self.f.add_block();
        if is_and {
            self.branch(ca, rhs, short, sp);
        } else {
            self.branch(ca, short, rhs, sp);
        }
        self.cur = rhs;
        let vb = self.expr(b)?;
        self.set_slot(tmp, vb, sp);
        self.jump(join, sp);
        self.cur = short;
        let c = self.konst(Const::Bool(!is_and), sp);
        self.set_slot(tmp, c, sp);
        self.jump(join, sp);
        self.cur = join;
        Ok(self.get_slot(tmp, sp))
    }

    fn comparison(
        &mut self,
        first: &Expr,
        rest: &[(Symbol, Span, Expr)],
        sp: Span,
    ) -> Result<Value, CompileError> {
        // a < b <= c  is  (a < b) && (b <= c), each operand evaluated once.
        let tmp = self.temp_slot("cmp");
        let join = self.f.add_block();
        let mut lhs = self.expr(first)?;
        for (k, (op, osp, rhs_e)) in rest.iter().enumerate() {
            let rhs = self.expr(rhs_e)?;
            let r = self.call(op.as_str(), vec![lhs, rhs], *osp);
            if k + 1 == rest.len() {
                self.set_slot(tmp, r, sp);
                self.jump(join, sp);
            } else {
                let c = self.emit(
                    InstData::TypeAssert {
                        val: r,
                        ty: Type::Bool,
                    },
                    *osp,
                );
                let next = self.f.add_block();
                let fail = self.f.add_block();
                self.branch(c, next, fail, sp);
                self.cur = fail;
                let fv = self.konst(Const::Bool(false), sp);
                self.set_slot(tmp, fv, sp);
                self.jump(join, sp);
                self.cur = next;
            }
            lhs = rhs;
        }
        self.cur = join;
        Ok(self.get_slot(tmp, sp))
    }

    /// `break` (to the loop's exit) or `continue` (to its next iteration).
    fn loop_exit(&mut self, is_break: bool, sp: Span) -> Result<Value, CompileError> {
        let what = if is_break { "break" } else { "continue" };
        let Some(t) = self.loops.last() else {
            return Err(CompileError::invalid(
                sp,
                format!("`{what}` outside a loop"),
            ));
        };
        let dest = if is_break { t.brk } else { t.cont };
        self.terminate(InstData::Jump { dest, args: vec![] }, sp);
        Ok(self.nothing(sp))
    }

    fn if_expr<T, E>(
        &mut self,
        cond: &Expr,
        then: T,
        else_: E,
        sp: Span,
    ) -> Result<Value, CompileError>
    where
        T: FnOnce(&mut Self) -> Result<Value, CompileError>,
        E: FnOnce(&mut Self) -> Result<Value, CompileError>,
    {
        let tmp = self.temp_slot("if");
        let c = self.cond(cond)?;
        let tb = self.f.add_block();
        let eb = self.f.add_block();
        let join = self.f.add_block();
        self.branch(c, tb, eb, sp);
        self.cur = tb;
        let tv = then(self)?;
        self.set_slot(tmp, tv, sp);
        self.jump(join, sp);
        self.cur = eb;
        let ev = else_(self)?;
        self.set_slot(tmp, ev, sp);
        self.jump(join, sp);
        self.cur = join;
        Ok(self.get_slot(tmp, sp))
    }

    fn while_loop(&mut self, cond: &Expr, body: &[Expr], sp: Span) -> Result<Value, CompileError> {
        let header = self.f.add_block();
        let bodyb = self.f.add_block();
        let exit = self.f.add_block();
        self.jump(header, sp);
        self.cur = header;
        let c = self.cond(cond)?;
        self.branch(c, bodyb, exit, sp);
        self.cur = bodyb;
        self.loops.push(LoopTargets {
            brk: exit,
            cont: header,
        });
        let r = self.scoped_block(body);
        self.loops.pop();
        r?;
        self.jump(header, sp);
        self.cur = exit;
        Ok(self.nothing(sp))
    }

    /// `for a in A, b in B ... end`: nested loops; `break` leaves all of them.
    fn for_loop(
        &mut self,
        iters: &[(Expr, Expr)],
        body: &[Expr],
        exit: Block,
        sp: Span,
    ) -> Result<(), CompileError> {
        let (var, iter_e) = &iters[0];
        let it = self.expr(iter_e)?;
        let st_slot = self.temp_slot("st");
        let st0 = self.call("iterate_start", vec![it], iter_e.span);
        self.set_slot(st_slot, st0, iter_e.span);
        let header = self.f.add_block();
        let bodyb = self.f.add_block();
        let latch = self.f.add_block();
        let done_b = self.f.add_block();
        self.jump(header, sp);
        self.cur = header;
        let st = self.get_slot(st_slot, sp);
        let done = self.call("iterate_done", vec![it, st], iter_e.span);
        let done = self.emit(
            InstData::TypeAssert {
                val: done,
                ty: Type::Bool,
            },
            iter_e.span,
        );
        self.branch(done, done_b, bodyb, sp);
        self.cur = bodyb;
        self.scopes.push(Scope {
            vars: FxHashMap::default(),
            hard: false,
        });
        let r = (|| -> Result<(), CompileError> {
            let st = self.get_slot(st_slot, sp);
            let pair = self.call("iterate_next", vec![it, st], iter_e.span);
            let x = self.emit(
                InstData::GetField {
                    obj: pair,
                    field: FieldRef::Index(0),
                },
                iter_e.span,
            );
            let st2 = self.emit(
                InstData::GetField {
                    obj: pair,
                    field: FieldRef::Index(1),
                },
                iter_e.span,
            );
            self.set_slot(st_slot, st2, iter_e.span);
            self.bind_loop_var(var, x)?;
            if iters.len() > 1 {
                // The inner loop's exhaustion continues the outer loop.
                self.for_loop(&iters[1..], body, exit, sp)?;
                self.jump(latch, sp);
            } else {
                self.loops.push(LoopTargets {
                    brk: exit,
                    cont: latch,
                });
                self.predeclare(body);
                let r = self.block(body);
                self.loops.pop();
                r?;
                self.jump(latch, sp);
            }
            Ok(())
        })();
        self.scopes.pop();
        r?;
        self.cur = latch;
        self.jump(header, sp);
        self.cur = done_b;
        Ok(())
    }

    /// Loop variables are new locals of the loop scope, even when an outer local has the same
    /// name (as in Julia, without `outer`); a tuple destructures.
    fn bind_loop_var(&mut self, var: &Expr, x: Value) -> Result<(), CompileError> {
        match &var.kind {
            ExprKind::Ident(n) => {
                let s = self.declare_local(*n);
                self.set_slot(s, x, var.span);
                Ok(())
            }
            ExprKind::Tuple(elems) => {
                for (i, el) in elems.iter().enumerate() {
                    let k = self.konst(Const::Int(i as i64 + 1), el.span);
                    let xi = self.call("getindex", vec![x, k], el.span);
                    self.bind_loop_var(el, xi)?;
                }
                Ok(())
            }
            _ => Err(CompileError::invalid(
                var.span,
                "expected a loop variable name or a tuple of names",
            )),
        }
    }

    fn assign(&mut self, lhs: &Expr, v: Value, sp: Span) -> Result<(), CompileError> {
        match &lhs.kind {
            ExprKind::Ident(n) => self.assign_name(*n, v, sp),
            ExprKind::TypeAssert { expr, ty } if expr.ident().is_some() => {
                let n = expr.ident().unwrap_or_else(|| sym("_"));
                let s = match self.scopes.last().and_then(|s| s.vars.get(&n)).copied() {
                    Some(s) => s,
                    None => {
                        if self.toplevel && self.scopes.len() == 1 {
                            return Err(CompileError::unsupported(
                                lhs.span,
                                "type declarations on global variables",
                            ));
                        }
                        self.declare_local(n)
                    }
                };
                self.slot_types.insert(s, (**ty).clone());
                let v = self.convert_for_slot(s, v, sp)?;
                self.set_slot(s, v, sp);
                Ok(())
            }
            ExprKind::Tuple(elems) => {
                for (i, el) in elems.iter().enumerate() {
                    let k = self.konst(Const::Int(i as i64 + 1), el.span);
                    let x = self.call("getindex", vec![v, k], el.span);
                    self.assign(el, x, sp)?;
                }
                Ok(())
            }
            ExprKind::Index { obj, indices } => {
                let (o, idx) = self.index_operands(obj, indices)?;
                let mut args = vec![o, v];
                args.extend(idx);
                self.call("setindex!", args, sp);
                Ok(())
            }
            ExprKind::Field { obj, name } => {
                let o = self.expr(obj)?;
                self.emit_stmt(
                    InstData::SetField {
                        obj: o,
                        field: FieldRef::Name(*name),
                        val: v,
                    },
                    sp,
                );
                Ok(())
            }
            _ => Err(CompileError::invalid(lhs.span, "invalid assignment target")),
        }
    }

    fn op_assign(
        &mut self,
        op: Symbol,
        lhs: &Expr,
        rhs: &Expr,
        sp: Span,
    ) -> Result<Value, CompileError> {
        match &lhs.kind {
            ExprKind::Index { obj, indices } => {
                // Evaluate the array and the indices once.
                let (o, idx) = self.index_operands(obj, indices)?;
                let mut gargs = vec![o];
                gargs.extend(idx.iter().copied());
                let old = self.call("getindex", gargs, lhs.span);
                let r = self.expr(rhs)?;
                let new = self.call(op.as_str(), vec![old, r], sp);
                let mut sargs = vec![o, new];
                sargs.extend(idx);
                self.call("setindex!", sargs, sp);
                Ok(new)
            }
            ExprKind::Field { obj, name } => {
                let o = self.expr(obj)?;
                let old = self.emit(
                    InstData::GetField {
                        obj: o,
                        field: FieldRef::Name(*name),
                    },
                    lhs.span,
                );
                let r = self.expr(rhs)?;
                let new = self.call(op.as_str(), vec![old, r], sp);
                self.emit_stmt(
                    InstData::SetField {
                        obj: o,
                        field: FieldRef::Name(*name),
                        val: new,
                    },
                    sp,
                );
                Ok(new)
            }
            ExprKind::Ident(_) => {
                let old = self.expr(lhs)?;
                let r = self.expr(rhs)?;
                let new = self.call(op.as_str(), vec![old, r], sp);
                self.assign(lhs, new, sp)?;
                Ok(new)
            }
            _ => Err(CompileError::invalid(
                lhs.span,
                "invalid target of an updating operator",
            )),
        }
    }

    fn matrix(
        &mut self,
        ty: Option<&Expr>,
        rows: &[Vec<Expr>],
        sp: Span,
    ) -> Result<Value, CompileError> {
        // As Julia lowers them: `[a b c]` is `hcat(a, b, c)`, `[a; b; c]` is `vcat(a, b, c)`
        // and `[a b; c d e]` is `hvcat((2, 3), a, b, c, d, e)` (`typed_*` with an element
        // type, `T[a b]`).
        let mut vs = Vec::new();
        if let Some(t) = ty {
            vs.push(self.type_value(t)?);
        }
        let typed = |name: &str| {
            if ty.is_some() {
                format!("typed_{name}")
            } else {
                name.to_string()
            }
        };
        if rows.len() == 1 {
            vs.extend(self.args(&rows[0])?);
            return Ok(self.call(&typed("hcat"), vs, sp));
        }
        if rows.iter().all(|r| r.len() == 1) {
            for r in rows {
                vs.extend(self.args(r)?);
            }
            return Ok(self.call(&typed("vcat"), vs, sp));
        }
        let counts: Vec<Value> = rows
            .iter()
            .map(|r| self.konst(Const::Int(r.len() as i64), sp))
            .collect();
        vs.push(self.emit(InstData::Tuple { args: counts }, sp));
        for r in rows {
            vs.extend(self.args(r)?);
        }
        Ok(self.call(&typed("hvcat"), vs, sp))
    }

    /// The array and the indices of `obj[indices...]`, each evaluated once, with `end` in an
    /// index meaning `lastindex(obj, k)`.
    fn index_operands(
        &mut self,
        obj: &Expr,
        indices: &[Expr],
    ) -> Result<(Value, Vec<Value>), CompileError> {
        let o = self.expr(obj)?;
        let n = indices.len();
        let mut idx = Vec::with_capacity(n);
        for (k, i) in indices.iter().enumerate() {
            self.index_ctx.push((o, k, n));
            let v = self.expr(i);
            self.index_ctx.pop();
            idx.push(v?);
        }
        Ok((o, idx))
    }

    /// `f(obj, indices...)` for `obj[indices...]` (`getindex`, or `view` for `@view`).
    fn index_call(
        &mut self,
        f: &str,
        obj: &Expr,
        indices: &[Expr],
        sp: Span,
    ) -> Result<Value, CompileError> {
        let (o, idx) = self.index_operands(obj, indices)?;
        let mut args = vec![o];
        args.extend(idx);
        Ok(self.call(f, args, sp))
    }

    fn macro_call(&mut self, name: Symbol, args: &[Expr], sp: Span) -> Result<Value, CompileError> {
        match name.as_str() {
            "view" | "#maybeview" => match args {
                [Expr {
                    kind: ExprKind::Index { obj, indices },
                    ..
                }] => {
                    let f = if name.as_str() == "view" {
                        "view"
                    } else {
                        "_maybeview"
                    };
                    self.index_call(f, obj, indices, sp)
                }
                _ => Err(CompileError::invalid(
                    sp,
                    "Invalid use of @view macro: argument must be a reference expression A[...].",
                )),
            },
            "views" => match args {
                [e] => {
                    let mut e = e.clone();
                    crate::views::viewify(&mut e);
                    self.expr(&e)
                }
                _ => Err(CompileError::invalid(sp, "`@views` takes one expression")),
            },
            "assert" => {
                if args.is_empty() || args.len() > 2 {
                    return Err(CompileError::invalid(
                        sp,
                        "`@assert` takes a condition and an optional message",
                    ));
                }
                let c = self.cond(&args[0])?;
                let ok = self.f.add_block();
                let fail = self.f.add_block();
                self.branch(c, ok, fail, sp);
                self.cur = fail;
                let msg = match args.get(1) {
                    Some(m) => {
                        let v = self.expr(m)?;
                        self.call("string", vec![v], m.span)
                    }
                    None => {
                        let text = self.source_text(args[0].span);
                        self.konst(Const::Str(Arc::from(text.as_str())), sp)
                    }
                };
                self.prim(Prim::ThrowAssert, vec![msg], sp);
                self.emit_stmt(InstData::Unreachable, sp);
                self.cur = ok;
                Ok(self.nothing(sp))
            }
            "." => match args {
                [e] => self.expr(&crate::broadcast::dotify(e)),
                _ => Err(CompileError::invalid(sp, "`@.` takes one expression")),
            },
            "inbounds" | "inline" | "noinline" | "fastmath" | "simd" => match args {
                [e] => self.expr(e),
                _ => Err(CompileError::invalid(
                    sp,
                    format!("`@{name}` takes one expression"),
                )),
            },
            _ => Err(CompileError::unsupported(
                sp,
                &format!("the macro `@{name}`"),
            )),
        }
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

// ---------------------------------------------------------------------------------------------
// Entry points.

/// Lowers one top-level statement into a thunk (a function of no arguments besides itself).
/// Also returns the closures of the anonymous functions in it, and the names its loops make
/// local by assignment (with where each is first assigned): Julia warns when such a name is
/// also a global, since in a file the assignment does not update the global.
pub fn lower_toplevel(stmt: &Expr, src: &str) -> Result<LoweredToplevel, CompileError> {
    let mut l = Lowerer::new("top-level".into(), src, true);
    l.boxed_names = closure::boxed_names(&[], std::slice::from_ref(stmt));
    let self_v = l.f.add_block_param(l.cur, Type::Any);
    l.f.names[self_v] = Some(sym("#self"));
    let v = l.expr(stmt)?;
    let closures = std::mem::take(&mut l.closures);
    let soft_scope_locals = std::mem::take(&mut l.soft_scope_locals);
    Ok(LoweredToplevel {
        thunk: l.finish(v, stmt.span)?,
        closures,
        soft_scope_locals,
    })
}

/// A lowered top-level statement.
pub struct LoweredToplevel {
    pub thunk: Function,
    pub closures: Vec<ClosureDef>,
    /// Names assigned in a top-level loop that became locals of the loop, with the place of
    /// the first assignment.
    pub soft_scope_locals: Vec<(Symbol, Span)>,
}

/// Lowers a function definition into methods (several when there are default arguments).
pub fn lower_function(
    def: &FunctionDef,
    src: &str,
    env: &TypeEnv,
) -> Result<Vec<LoweredMethod>, CompileError> {
    lower_method_def(def, src, env, None)
}

/// Lowers a constructor: inside it, `new(...)` builds `new_type`.
pub fn lower_constructor(
    def: &FunctionDef,
    new_type: Expr,
    src: &str,
    env: &TypeEnv,
) -> Result<Vec<LoweredMethod>, CompileError> {
    lower_method_def(def, src, env, Some(new_type))
}

fn lower_method_def(
    def: &FunctionDef,
    src: &str,
    env: &TypeEnv,
    new_type: Option<Expr>,
) -> Result<Vec<LoweredMethod>, CompileError> {
    if !def.kwparams.is_empty() {
        return keyword_methods(def, src, env, new_type);
    }
    let where_names: Vec<Symbol> = def.where_vars.iter().map(|v| v.name).collect();
    let tctx = TypeExprCtx {
        env,
        vars: &where_names,
    };
    let mut tvars = Vec::new();
    for v in &def.where_vars {
        let upper = match &v.upper {
            Some(u) => tctx.eval(u)?,
            None => TypePat::any(),
        };
        tvars.push(TypeVar {
            name: v.name,
            upper,
        });
    }
    let mut self_name = None;
    let (table, self_pat, display) = match &def.name {
        FnName::Name(n) => {
            // A method named after a type is a constructor of that type.
            if let Some(t) = crate::typeexpr::builtin_type(n.as_str()) {
                let key = crate::typeexpr::constructor_table_name(&t).unwrap_or(*n);
                (key, TypePat::Ty(Type::type_of_type(t)), n.to_string())
            } else if let Some(sd) = env.struct_def(*n) {
                let t = if sd.params.is_empty() {
                    Type::Struct(*n, vec![].into())
                } else {
                    Type::UnionAll(*n)
                };
                (*n, TypePat::Ty(Type::type_of_type(t)), n.to_string())
            } else {
                (*n, TypePat::Ty(Type::Function(*n)), n.to_string())
            }
        }
        // `(p::T)(...)` or `(::T)(...)`: a method of callable objects of struct type `T`
        // (closures are such objects); `p` names the object in the body.
        FnName::Type(Expr {
            kind: ExprKind::TypeAssert { expr, ty },
            ..
        }) => {
            self_name = expr.ident().filter(|n| n.as_str() != "_");
            let pat = tctx.eval(ty)?;
            let table = match &pat {
                TypePat::Ty(Type::Struct(n, _)) | TypePat::App(Head::Struct(n), _) => *n,
                _ => {
                    return Err(CompileError::unsupported(
                        ty.span,
                        "callable objects of types other than structs",
                    ))
                }
            };
            let display = format!(
                "(::{})",
                src.get(ty.span.lo as usize..ty.span.hi as usize)
                    .unwrap_or("?")
            );
            (table, pat, display)
        }
        FnName::Type(te) => {
            let pat = tctx.eval(te)?;
            let key = match &pat {
                TypePat::Ty(t) => crate::typeexpr::constructor_table_name(t),
                TypePat::App(Head::Struct(n), _) | TypePat::App(Head::Abstract(n), _) => Some(*n),
                TypePat::App(Head::Array, _) => Some(sym("Array")),
                _ => None,
            };
            let Some(key) = key else {
                return Err(CompileError::unsupported(
                    te.span,
                    "this kind of callable-object method",
                ));
            };
            (key, TypePat::App(Head::Type, vec![pat]), key.to_string())
        }
        FnName::Anonymous => {
            return Err(CompileError::unsupported(def.span, "anonymous functions"))
        }
    };
    if def.declaration_only {
        return Ok(vec![]);
    }
    // Parameter patterns.
    let mut pats = Vec::new();
    let mut names = Vec::new();
    let mut vararg = false;
    for (i, p) in def.params.iter().enumerate() {
        if p.destructure.is_some() {
            return Err(CompileError::unsupported(
                p.span,
                "destructuring parameters",
            ));
        }
        if p.vararg {
            if i + 1 != def.params.len() {
                return Err(CompileError::invalid(
                    p.span,
                    "only the last parameter can be `...`",
                ));
            }
            if p.default.is_some() {
                return Err(CompileError::invalid(
                    p.span,
                    "a `...` parameter cannot have a default",
                ));
            }
            vararg = true;
        }
        pats.push(match &p.ty {
            Some(t) => tctx.eval(t)?,
            None => TypePat::any(),
        });
        names.push(p.name.unwrap_or_else(|| sym(&format!("#unused{i}"))));
    }
    // Default arguments: f(a, b = 1) also defines f(a) = f(a, 1).
    let first_default = def.params.iter().position(|p| p.default.is_some());
    if let Some(fd) = first_default {
        if def.params[fd..]
            .iter()
            .any(|p| p.default.is_none() && !p.vararg)
        {
            return Err(CompileError::invalid(
                def.params[fd].span,
                "parameters after one with a default need defaults too",
            ));
        }
    }
    let mut all_params = names.clone();
    all_params.extend(self_name);
    let boxed = closure::boxed_names(&all_params, &def.body);
    let mut methods = Vec::new();
    let mut counts: Vec<usize> = Vec::new();
    if let Some(fd) = first_default {
        counts.extend(fd..def.params.len());
    }
    for &k in &counts {
        // Method with the first k parameters, forwarding to the full one.
        let mut l = Lowerer::new(display.clone(), src, false);
        l.sparams = where_names.clone();
        l.boxed_names = boxed.clone();
        let entry = l.cur;
        let self_v = l.f.add_block_param(entry, Type::Any);
        let mut params = Vec::new();
        for name in names.iter().take(k) {
            let v = l.f.add_block_param(entry, Type::Any);
            l.f.names[v] = Some(*name);
            let s = l.declare_local(*name);
            l.set_slot(s, v, def.span);
            params.push(v);
        }
        let mut args = vec![self_v];
        args.extend(params);
        for p in &def.params[k..] {
            if let Some(d) = &p.default {
                let v = l.expr(d)?;
                args.push(v);
            }
        }
        let r = l.emit(InstData::Call { args }, def.span);
        let closures = std::mem::take(&mut l.closures);
        let f = l.finish(r, def.span)?;
        let mut sig = vec![self_pat.clone()];
        sig.extend(pats.iter().take(k).cloned());
        methods.push(LoweredMethod {
            table,
            sig,
            vararg: false,
            tvars: tvars.clone(),
            arg_names: names[..k].to_vec(),
            body: f,
            span: def.span,
            closures,
        });
    }
    // The full method.
    let mut l = Lowerer::new(display.clone(), src, false);
    l.sparams = where_names.clone();
    l.boxed_names = boxed;
    l.ret_type = def.ret_type.clone();
    l.new_type = new_type;
    let entry = l.cur;
    let self_v = l.f.add_block_param(entry, Type::Any);
    if let Some(n) = self_name {
        l.f.names[self_v] = Some(n);
        let s = l.declare_local(n);
        l.set_slot(s, self_v, def.name_span);
    }
    for (i, name) in names.iter().enumerate() {
        let v = l.f.add_block_param(entry, Type::Any);
        l.f.names[v] = Some(*name);
        let s = l.declare_local(*name);
        l.set_slot(s, v, def.params[i].span);
    }
    l.predeclare(&def.body);
    let v = l.block(&def.body)?;
    let closures = std::mem::take(&mut l.closures);
    let f = l.finish(v, def.span)?;
    let mut sig = vec![self_pat];
    sig.extend(pats);
    methods.push(LoweredMethod {
        table,
        sig,
        vararg,
        tvars,
        arg_names: names,
        body: f,
        span: def.span,
        closures,
    });
    Ok(methods)
}

/// A definition with keyword parameters, `f(ps...; k1 = d1, k2::T = d2) = body`, becomes
/// three, as in Julia:
/// - `#f#kw(k1, k2::T, ps...) = body`: the body, every parameter positional (hidden);
/// - `f(ps...)`: evaluates the defaults in order (each sees the parameters and the keywords
///   before it) and calls `#f#kw`;
/// - `#kwcall(kw, ::typeof(f), ps...)`, which a call with keyword arguments invokes (see
///   `Lowerer::expr`): each keyword comes from the named tuple `kw` when it has that field
///   (`Core.kw_has`, decided by inference from `kw`'s type) and from its default otherwise;
///   a keyword the method does not declare is a `MethodError` (`Core.kw_extra`,
///   `Core.kw_error`).
fn keyword_methods(
    def: &FunctionDef,
    src: &str,
    env: &TypeEnv,
    new_type: Option<Expr>,
) -> Result<Vec<LoweredMethod>, CompileError> {
    let sp = def.span;
    let fname = match &def.name {
        FnName::Name(n)
            if new_type.is_none()
                && crate::typeexpr::builtin_type(n.as_str()).is_none()
                && env.struct_def(*n).is_none() =>
        {
            *n
        }
        _ => {
            return Err(CompileError::unsupported(
                def.kwparams[0].span,
                "keyword arguments of constructors and callable objects",
            ))
        }
    };
    for k in &def.kwparams {
        if k.vararg {
            return Err(CompileError::unsupported(
                k.span,
                "`kws...` keyword parameters",
            ));
        }
    }
    let core = |name: &str, args: Vec<Expr>| {
        let f = mk(
            ExprKind::Field {
                obj: Box::new(ident(sym("Core"), sp)),
                name: sym(name),
            },
            sp,
        );
        call_ast(f, args, sp)
    };
    let str_lit = |s: &str| mk(ExprKind::Str(vec![StrSeg::Lit(s.to_string())]), sp);
    let body_name = sym(&format!("#{fname}#kw"));
    // Positional parameters, every one named, and the arguments that pass them on (a `...`
    // parameter is splatted).
    let params: Vec<Param> = def
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| Param {
            name: Some(p.name.unwrap_or_else(|| sym(&format!("#p{i}")))),
            ..p.clone()
        })
        .collect();
    let pass: Vec<Expr> = params
        .iter()
        .map(|p| {
            let v = ident(p.name.unwrap_or_else(|| unreachable!()), p.span);
            if p.vararg {
                mk(ExprKind::Splat(Box::new(v)), p.span)
            } else {
                v
            }
        })
        .collect();
    let kw_names: Vec<Symbol> = def
        .kwparams
        .iter()
        .map(|k| k.name.unwrap_or_else(|| sym("_")))
        .collect();
    // `k = value` for each keyword, `value` given the keyword's default.
    let bind = |value: &dyn Fn(&Param, Expr) -> Expr| -> Vec<Expr> {
        def.kwparams
            .iter()
            .zip(&kw_names)
            .map(|(k, n)| {
                let default = match &k.default {
                    Some(d) => d.clone(),
                    None => call_ast(
                        ident(sym("error"), k.span),
                        vec![str_lit(&format!(
                            "UndefKeywordError: keyword argument `{n}` not assigned"
                        ))],
                        k.span,
                    ),
                };
                let mut v = value(k, default);
                if let Some(t) = &k.ty {
                    v = mk(
                        ExprKind::TypeAssert {
                            expr: Box::new(v),
                            ty: Box::new(t.clone()),
                        },
                        k.span,
                    );
                }
                mk(
                    ExprKind::Assign {
                        lhs: Box::new(ident(*n, k.span)),
                        rhs: Box::new(v),
                    },
                    k.span,
                )
            })
            .collect()
    };
    let call_body = {
        let mut args: Vec<Expr> = kw_names.iter().map(|n| ident(*n, sp)).collect();
        args.extend(pass.iter().cloned());
        call_ast(ident(body_name, sp), args, sp)
    };
    // The body.
    let mut body_params: Vec<Param> = def
        .kwparams
        .iter()
        .map(|k| Param {
            default: None,
            ..k.clone()
        })
        .collect();
    body_params.extend(params.iter().map(|p| Param {
        default: None,
        ..p.clone()
    }));
    let body_def = FunctionDef {
        name: FnName::Name(body_name),
        params: body_params,
        kwparams: vec![],
        body: def.body.clone(),
        ..def.clone()
    };
    // The positional method.
    let mut pos_body = bind(&|_, d| d);
    pos_body.push(call_body.clone());
    let pos_def = FunctionDef {
        params: params.clone(),
        kwparams: vec![],
        ret_type: None,
        body: pos_body,
        ..def.clone()
    };
    // The method for calls with keyword arguments.
    let kw = ident(sym("#kw"), sp);
    let mut kw_body = bind(&|k, d| {
        let n = k.name.unwrap_or_else(|| sym("_"));
        let field = mk(
            ExprKind::Field {
                obj: Box::new(kw.clone()),
                name: n,
            },
            k.span,
        );
        mk(
            ExprKind::Ternary {
                cond: Box::new(core("kw_has", vec![kw.clone(), str_lit(n.as_str())])),
                then: Box::new(field),
                else_: Box::new(d),
            },
            k.span,
        )
    });
    let mut extra_args = vec![kw.clone()];
    extra_args.extend(kw_names.iter().map(|n| str_lit(n.as_str())));
    let mut err_args = vec![kw.clone(), ident(sym("#f"), sp)];
    err_args.extend(pass.iter().cloned());
    kw_body.push(mk(
        ExprKind::And(
            Box::new(core("kw_extra", extra_args)),
            Box::new(core("kw_error", err_args)),
        ),
        sp,
    ));
    kw_body.push(call_body);
    let mut kw_params = vec![
        Param {
            name: Some(sym("#kw")),
            ty: None,
            default: None,
            vararg: false,
            destructure: None,
            span: sp,
        },
        Param {
            name: Some(sym("#f")),
            ty: Some(call_ast(
                ident(sym("typeof"), sp),
                vec![ident(fname, sp)],
                sp,
            )),
            default: None,
            vararg: false,
            destructure: None,
            span: sp,
        },
    ];
    kw_params.extend(params);
    let kw_def = FunctionDef {
        name: FnName::Name(sym("#kwcall")),
        params: kw_params,
        kwparams: vec![],
        ret_type: None,
        body: kw_body,
        ..def.clone()
    };
    let mut out = lower_method_def(&body_def, src, env, None)?;
    out.extend(lower_method_def(&pos_def, src, env, None)?);
    out.extend(lower_method_def(&kw_def, src, env, None)?);
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Struct and abstract type definitions.

fn mk(kind: ExprKind, span: Span) -> Expr {
    Expr::new(kind, span)
}

fn ident(name: Symbol, span: Span) -> Expr {
    mk(ExprKind::Ident(name), span)
}

fn call_ast(f: Expr, args: Vec<Expr>, span: Span) -> Expr {
    mk(
        ExprKind::Call {
            func: Box::new(f),
            args,
            kwargs: vec![],
            do_block: None,
        },
        span,
    )
}

/// Evaluates a struct definition: adds the type to `env` and returns its constructors.
pub fn define_struct(
    def: &StructDef,
    src: &str,
    env: &mut TypeEnv,
) -> Result<Vec<LoweredMethod>, CompileError> {
    let pnames: Vec<Symbol> = def.params.iter().map(|p| p.name).collect();
    let sp = def.span;
    if crate::typeexpr::builtin_type(def.name.as_str()).is_some()
        || crate::typeexpr::builtin_unionall(def.name.as_str())
    {
        return Err(CompileError::invalid(
            def.name_span,
            format!("cannot redefine the built-in type `{}`", def.name),
        ));
    }
    if let Some(old) = env.struct_def(def.name) {
        // Julia allows an identical redefinition only.
        if old.fields.len() != def.fields.len() || old.mutable != def.mutable {
            return Err(CompileError::invalid(
                def.name_span,
                format!("invalid redefinition of constant `{}`", def.name),
            ));
        }
    }
    let (params, supertype, fields) = {
        let tctx = TypeExprCtx { env, vars: &pnames };
        let mut params = Vec::new();
        for p in &def.params {
            let upper = match &p.upper {
                Some(u) => tctx.eval(u)?,
                None => TypePat::any(),
            };
            params.push(TypeVar {
                name: p.name,
                upper,
            });
        }
        let supertype = match &def.supertype {
            Some(s) => {
                let pat = tctx.eval(s)?;
                match &pat {
                    TypePat::Ty(Type::Abstract(..))
                    | TypePat::App(Head::Abstract(_), _)
                    | TypePat::Ty(Type::Any) => pat,
                    _ => {
                        return Err(CompileError::invalid(
                            s.span,
                            "a struct can only subtype an abstract type",
                        ))
                    }
                }
            }
            None => TypePat::any(),
        };
        let mut fields = Vec::new();
        for f in &def.fields {
            if fields.iter().any(|(n, _)| *n == f.name) {
                return Err(CompileError::invalid(
                    f.span,
                    format!("duplicate field name `{}`", f.name),
                ));
            }
            let t = match &f.ty {
                Some(t) => tctx.eval(t)?,
                None => TypePat::any(),
            };
            fields.push((f.name, t));
        }
        (params, supertype, fields)
    };
    env.add_struct(ir::StructDef {
        name: def.name,
        params,
        fields,
        mutable: def.mutable,
        supertype,
    });
    let name_e = ident(def.name, def.name_span);
    let param_exprs: Vec<Expr> = pnames.iter().map(|p| ident(*p, sp)).collect();
    let applied = if pnames.is_empty() {
        name_e.clone()
    } else {
        mk(
            ExprKind::Curly {
                base: Box::new(name_e.clone()),
                params: param_exprs.clone(),
            },
            sp,
        )
    };
    let mut methods = Vec::new();
    if !def.constructors.is_empty() {
        for c in &def.constructors {
            methods.extend(lower_constructor(c, applied.clone(), src, env)?);
        }
        return Ok(methods);
    }
    let where_vars: Vec<TypeVarDecl> = def.params.clone();
    let field_params: Vec<Param> = def
        .fields
        .iter()
        .map(|f| Param {
            name: Some(f.name),
            ty: None,
            default: None,
            vararg: false,
            destructure: None,
            span: f.span,
        })
        .collect();
    // new(convert(FT, f), ...) for typed fields.
    let new_args: Vec<Expr> = def
        .fields
        .iter()
        .map(|f| match &f.ty {
            Some(t) => call_ast(
                ident(sym("convert"), f.span),
                vec![t.clone(), ident(f.name, f.span)],
                f.span,
            ),
            None => ident(f.name, f.span),
        })
        .collect();
    let body = vec![call_ast(ident(sym("new"), sp), new_args, sp)];
    let full = FunctionDef {
        name: if pnames.is_empty() {
            FnName::Name(def.name)
        } else {
            FnName::Type(applied.clone())
        },
        name_span: def.name_span,
        params: field_params.clone(),
        kwparams: vec![],
        where_vars: where_vars.clone(),
        ret_type: None,
        body,
        declaration_only: false,
        span: sp,
    };
    methods.extend(lower_constructor(&full, applied.clone(), src, env)?);
    if !pnames.is_empty() {
        // Point(x::T, y::T) where T = Point{T}(x, y), when every parameter is a field's type.
        let determined = pnames.iter().all(|p| {
            def.fields
                .iter()
                .any(|f| f.ty.as_ref().is_some_and(|t| t.ident() == Some(*p)))
        });
        if determined {
            let typed_params: Vec<Param> = def
                .fields
                .iter()
                .map(|f| Param {
                    name: Some(f.name),
                    ty: f.ty.clone(),
                    default: None,
                    vararg: false,
                    destructure: None,
                    span: f.span,
                })
                .collect();
            let fwd = call_ast(
                applied.clone(),
                def.fields.iter().map(|f| ident(f.name, f.span)).collect(),
                sp,
            );
            let outer = FunctionDef {
                name: FnName::Name(def.name),
                name_span: def.name_span,
                params: typed_params,
                kwparams: vec![],
                where_vars,
                ret_type: None,
                body: vec![fwd],
                declaration_only: false,
                span: sp,
            };
            methods.extend(lower_function(&outer, src, env)?);
        }
    }
    Ok(methods)
}

/// Evaluates an abstract type definition into `env`.
pub fn define_abstract(
    name: Symbol,
    params: &[TypeVarDecl],
    supertype: Option<&Expr>,
    span: Span,
    env: &mut TypeEnv,
) -> Result<(), CompileError> {
    if crate::typeexpr::builtin_type(name.as_str()).is_some() {
        return Err(CompileError::invalid(
            span,
            format!("cannot redefine the built-in type `{name}`"),
        ));
    }
    let pnames: Vec<Symbol> = params.iter().map(|p| p.name).collect();
    let tctx = TypeExprCtx { env, vars: &pnames };
    let mut tvs = Vec::new();
    for p in params {
        let upper = match &p.upper {
            Some(u) => tctx.eval(u)?,
            None => TypePat::any(),
        };
        tvs.push(TypeVar {
            name: p.name,
            upper,
        });
    }
    let st = match supertype {
        Some(s) => tctx.eval(s)?,
        None => TypePat::any(),
    };
    env.add_abstract(ir::AbstractDef {
        name,
        params: tvs,
        supertype: st,
    });
    Ok(())
}
