//! The IR data model: a function is blocks of instructions in SSA form with block parameters.
//! Instruction and value data live in entity maps apart from the layout (each block's list of
//! instructions), so passes insert and delete without renumbering.

use crate::prim::Prim;
use crate::types::Type;
use cranelift_entity::packed_option::PackedOption;
use cranelift_entity::{entity_impl, PrimaryMap, SecondaryMap};
use std::sync::Arc;
use syntax::{Span, Symbol};

/// An SSA value: an instruction result or a block parameter. Printed `v3`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(u32);
entity_impl!(Value, "v");

/// A basic block. Printed `block2`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(u32);
entity_impl!(Block, "block");

/// An instruction.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Inst(u32);
entity_impl!(Inst, "inst");

/// A local variable slot of the lowered phase (removed by SSA construction). Printed `s1`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slot(u32);
entity_impl!(Slot, "s");

/// A compile-time constant.
#[derive(Clone, Debug)]
pub enum Const {
    Int(i64),
    F64(f64),
    F32(f32),
    Bool(bool),
    Nothing,
    Str(Arc<str>),
    /// A quoted symbol (`:a`).
    Sym(Symbol),
    /// A type as a value.
    Type(Type),
    /// A generic function as a value.
    Func(Symbol),
    /// The only value of a field-less type such as `NoTangent`, `NoFData`, `NoRData`.
    Singleton(Type),
    /// The contents of a variable that is not yet assigned (never read: a definedness flag
    /// guards every read).
    Undef,
}

impl PartialEq for Const {
    fn eq(&self, other: &Const) -> bool {
        match (self, other) {
            (Const::Int(a), Const::Int(b)) => a == b,
            (Const::F64(a), Const::F64(b)) => a.to_bits() == b.to_bits(),
            (Const::F32(a), Const::F32(b)) => a.to_bits() == b.to_bits(),
            (Const::Bool(a), Const::Bool(b)) => a == b,
            (Const::Nothing, Const::Nothing) => true,
            (Const::Str(a), Const::Str(b)) => a == b,
            (Const::Sym(a), Const::Sym(b)) => a == b,
            (Const::Type(a), Const::Type(b)) => a == b,
            (Const::Func(a), Const::Func(b)) => a == b,
            (Const::Singleton(a), Const::Singleton(b)) => a == b,
            (Const::Undef, Const::Undef) => true,
            _ => false,
        }
    }
}

impl Const {
    /// The type of the constant's value.
    pub fn ty(&self) -> Type {
        match self {
            Const::Int(_) => Type::Int64,
            Const::F64(_) => Type::Float64,
            Const::F32(_) => Type::Float32,
            Const::Bool(_) => Type::Bool,
            Const::Nothing => Type::Nothing,
            Const::Str(_) => Type::String,
            Const::Sym(_) => Type::Symbol,
            Const::Type(t) => Type::type_of_type(t.clone()),
            Const::Func(f) => Type::Function(*f),
            Const::Singleton(t) => t.clone(),
            Const::Undef => Type::Bottom,
        }
    }

    /// The constant for a singleton type (a type whose only value is known).
    pub fn of_singleton(t: &Type) -> Option<Const> {
        match t {
            Type::Nothing => Some(Const::Nothing),
            Type::Function(f) => Some(Const::Func(*f)),
            Type::Type(inner) => Some(Const::Type((**inner).clone())),
            Type::NoTangent | Type::NoFData | Type::NoRData => Some(Const::Singleton(t.clone())),
            _ => None,
        }
    }
}

/// How `GetField`/`SetField` name their field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FieldRef {
    /// 0-based position (after inference, or for tuples).
    Index(u32),
    /// By name (before inference, or when the object's type is not known statically).
    Name(Symbol),
}

/// The target of a static call: method `method` of generic function `func`, specialised on
/// the concrete argument types `sig` (including the function itself at position 0).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Callee {
    pub func: Symbol,
    pub method: u32,
    pub sig: Arc<[Type]>,
}

/// The predecessors of a block (most blocks have one or two).
pub type Preds = smallvec::SmallVec<[Block; 2]>;

/// The successor blocks of a terminator with the arguments passed to each (at most two).
pub type Successors<'a> = smallvec::SmallVec<[(Block, &'a [Value]); 2]>;

/// An instruction. The set is closed and small so that later stages (interpreter, AD, JIT)
/// handle every kind with an exhaustive `match`.
#[derive(Clone, Debug, PartialEq)]
pub enum InstData {
    Const(Const),
    /// A primitive operation.
    Prim {
        op: Prim,
        args: Vec<Value>,
    },
    /// A call resolved at compile time to a method instance. `args[0]` is the function.
    Invoke {
        callee: Callee,
        args: Vec<Value>,
    },
    /// A call dispatched at run time on the argument values. `args[0]` is the function.
    Call {
        args: Vec<Value>,
    },
    /// Construction of a struct or named tuple of the given concrete type.
    New {
        ty: Type,
        args: Vec<Value>,
    },
    /// Construction of a tuple.
    Tuple {
        args: Vec<Value>,
    },
    GetField {
        obj: Value,
        field: FieldRef,
    },
    SetField {
        obj: Value,
        field: FieldRef,
        val: Value,
    },
    /// `val::ty`: throws a `TypeError` unless `val isa ty`; the result is `val` narrowed.
    TypeAssert {
        val: Value,
        ty: Type,
    },
    GetGlobal(Symbol),
    SetGlobal(Symbol, Value),
    /// A static parameter of the method (`T` of `where T`); lowered phase only.
    StaticParam(u32),
    /// Lowered phase only: read or write a local variable.
    GetSlot(Slot),
    SetSlot(Slot, Value),
    // Terminators.
    Jump {
        dest: Block,
        args: Vec<Value>,
    },
    Branch {
        cond: Value,
        then_dest: Block,
        then_args: Vec<Value>,
        else_dest: Block,
        else_args: Vec<Value>,
    },
    Return(Value),
    Unreachable,
}

impl InstData {
    pub fn is_terminator(&self) -> bool {
        match self {
            InstData::Jump { .. }
            | InstData::Branch { .. }
            | InstData::Return(_)
            | InstData::Unreachable => true,
            InstData::Const(_)
            | InstData::Prim { .. }
            | InstData::Invoke { .. }
            | InstData::Call { .. }
            | InstData::New { .. }
            | InstData::Tuple { .. }
            | InstData::GetField { .. }
            | InstData::SetField { .. }
            | InstData::TypeAssert { .. }
            | InstData::GetGlobal(_)
            | InstData::SetGlobal(..)
            | InstData::StaticParam(_)
            | InstData::GetSlot(_)
            | InstData::SetSlot(..) => false,
        }
    }

    /// Whether the instruction produces a value.
    pub fn has_result(&self) -> bool {
        match self {
            InstData::SetField { .. }
            | InstData::SetGlobal(..)
            | InstData::SetSlot(..)
            | InstData::Jump { .. }
            | InstData::Branch { .. }
            | InstData::Return(_)
            | InstData::Unreachable => false,
            InstData::Const(_)
            | InstData::Prim { .. }
            | InstData::Invoke { .. }
            | InstData::Call { .. }
            | InstData::New { .. }
            | InstData::Tuple { .. }
            | InstData::GetField { .. }
            | InstData::TypeAssert { .. }
            | InstData::GetGlobal(_)
            | InstData::StaticParam(_)
            | InstData::GetSlot(_) => true,
        }
    }

    /// All value operands, in order (branch arguments included); no heap allocation for up to
    /// four (native code's helpers call this per execution).
    pub fn args(&self) -> smallvec::SmallVec<[Value; 4]> {
        let mut v = smallvec::SmallVec::new();
        self.for_each_arg(|a| v.push(a));
        v
    }

    pub fn for_each_arg(&self, mut f: impl FnMut(Value)) {
        match self {
            InstData::Const(_)
            | InstData::GetGlobal(_)
            | InstData::StaticParam(_)
            | InstData::GetSlot(_)
            | InstData::Unreachable => {}
            InstData::Prim { args, .. }
            | InstData::Invoke { args, .. }
            | InstData::Call { args }
            | InstData::New { args, .. }
            | InstData::Tuple { args }
            | InstData::Jump { args, .. } => args.iter().for_each(|a| f(*a)),
            InstData::GetField { obj, .. } => f(*obj),
            InstData::SetField { obj, val, .. } => {
                f(*obj);
                f(*val)
            }
            InstData::TypeAssert { val, .. } => f(*val),
            InstData::SetGlobal(_, v) | InstData::SetSlot(_, v) | InstData::Return(v) => f(*v),
            InstData::Branch {
                cond,
                then_args,
                else_args,
                ..
            } => {
                f(*cond);
                then_args.iter().for_each(|a| f(*a));
                else_args.iter().for_each(|a| f(*a));
            }
        }
    }

    pub fn map_args(&mut self, mut f: impl FnMut(Value) -> Value) {
        match self {
            InstData::Const(_)
            | InstData::GetGlobal(_)
            | InstData::StaticParam(_)
            | InstData::GetSlot(_)
            | InstData::Unreachable => {}
            InstData::Prim { args, .. }
            | InstData::Invoke { args, .. }
            | InstData::Call { args }
            | InstData::New { args, .. }
            | InstData::Tuple { args }
            | InstData::Jump { args, .. } => args.iter_mut().for_each(|a| *a = f(*a)),
            InstData::GetField { obj, .. } => *obj = f(*obj),
            InstData::SetField { obj, val, .. } => {
                *obj = f(*obj);
                *val = f(*val);
            }
            InstData::TypeAssert { val, .. } => *val = f(*val),
            InstData::SetGlobal(_, v) | InstData::SetSlot(_, v) | InstData::Return(v) => *v = f(*v),
            InstData::Branch {
                cond,
                then_args,
                else_args,
                ..
            } => {
                *cond = f(*cond);
                then_args.iter_mut().for_each(|a| *a = f(*a));
                else_args.iter_mut().for_each(|a| *a = f(*a));
            }
        }
    }

    /// Successor blocks with the arguments passed along each edge.
    pub fn successors(&self) -> Successors<'_> {
        match self {
            InstData::Jump { dest, args } => smallvec::smallvec![(*dest, args.as_slice())],
            InstData::Branch {
                then_dest,
                then_args,
                else_dest,
                else_args,
                ..
            } => smallvec::smallvec![
                (*then_dest, then_args.as_slice()),
                (*else_dest, else_args.as_slice()),
            ],
            InstData::Return(_)
            | InstData::Unreachable
            | InstData::Const(_)
            | InstData::Prim { .. }
            | InstData::Invoke { .. }
            | InstData::Call { .. }
            | InstData::New { .. }
            | InstData::Tuple { .. }
            | InstData::GetField { .. }
            | InstData::SetField { .. }
            | InstData::TypeAssert { .. }
            | InstData::GetGlobal(_)
            | InstData::SetGlobal(..)
            | InstData::StaticParam(_)
            | InstData::GetSlot(_)
            | InstData::SetSlot(..) => Successors::new(),
        }
    }

    pub fn map_successors(&mut self, mut f: impl FnMut(Block) -> Block) {
        match self {
            InstData::Jump { dest, .. } => *dest = f(*dest),
            InstData::Branch {
                then_dest,
                else_dest,
                ..
            } => {
                *then_dest = f(*then_dest);
                *else_dest = f(*else_dest);
            }
            InstData::Return(_)
            | InstData::Unreachable
            | InstData::Const(_)
            | InstData::Prim { .. }
            | InstData::Invoke { .. }
            | InstData::Call { .. }
            | InstData::New { .. }
            | InstData::Tuple { .. }
            | InstData::GetField { .. }
            | InstData::SetField { .. }
            | InstData::TypeAssert { .. }
            | InstData::GetGlobal(_)
            | InstData::SetGlobal(..)
            | InstData::StaticParam(_)
            | InstData::GetSlot(_)
            | InstData::SetSlot(..) => {}
        }
    }

    /// Whether the instruction may write memory (or do anything a later read could observe):
    /// a writing primitive, a call, a field, global or slot assignment.
    pub fn may_write(&self) -> bool {
        match self {
            InstData::Prim { op, .. } => op.effects().writes,
            InstData::Invoke { .. }
            | InstData::Call { .. }
            | InstData::SetField { .. }
            | InstData::SetGlobal(..)
            | InstData::SetSlot(..) => true,
            InstData::Const(_)
            | InstData::New { .. }
            | InstData::Tuple { .. }
            | InstData::GetField { .. }
            | InstData::TypeAssert { .. }
            | InstData::GetGlobal(_)
            | InstData::StaticParam(_)
            | InstData::GetSlot(_)
            | InstData::Jump { .. }
            | InstData::Branch { .. }
            | InstData::Return(_)
            | InstData::Unreachable => false,
        }
    }

    /// Whether removing the instruction (when its result is unused) preserves behaviour.
    pub fn is_pure(&self) -> bool {
        match self {
            InstData::Const(_)
            | InstData::Tuple { .. }
            | InstData::StaticParam(_)
            | InstData::GetSlot(_) => true,
            InstData::New { .. } => true,
            InstData::GetField { field, .. } => matches!(field, FieldRef::Index(_)),
            InstData::Prim { op, .. } => op.is_removable(),
            InstData::GetGlobal(_) => false,
            InstData::Invoke { .. }
            | InstData::Call { .. }
            | InstData::SetField { .. }
            | InstData::TypeAssert { .. }
            | InstData::SetGlobal(..)
            | InstData::SetSlot(..)
            | InstData::Jump { .. }
            | InstData::Branch { .. }
            | InstData::Return(_)
            | InstData::Unreachable => false,
        }
    }
}

/// Follows a chain of replacements `v -> alias[v] -> ...` to its end.
pub fn resolve_alias(alias: &rustc_hash::FxHashMap<Value, Value>, mut v: Value) -> Value {
    let mut guard = 0;
    while let Some(&a) = alias.get(&v) {
        if a == v || guard > 10_000 {
            break;
        }
        v = a;
        guard += 1;
    }
    v
}

/// Where a value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueDef {
    Inst(Inst),
    Param(Block, u32),
}

#[derive(Clone, Debug, Default)]
pub struct BlockData {
    pub params: Vec<Value>,
    pub insts: Vec<Inst>,
}

#[derive(Clone, Debug)]
pub struct SlotData {
    pub name: Symbol,
    /// The type of the values stored in the slot (`Any` when untyped); SSA construction gives
    /// the block parameters it creates this type.
    pub ty: Type,
}

/// A call site whose callee was inlined: instructions copied from the callee point to it, so
/// that errors can still report the caller's line.
#[derive(Clone, Debug)]
pub struct InlineSite {
    /// The call's source.
    pub call: Span,
    /// The site this call itself was inlined at, if any.
    pub parent: Option<u32>,
    /// The inlined callee (for backtraces).
    pub func: String,
}

/// The stage a function is in. Each phase has its own invariants (see the verifier).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// Straight from the AST: slots allowed, untyped, calls unresolved.
    Lowered,
    /// SSA (no slots), still untyped.
    Ssa,
    /// Every value typed, static calls resolved.
    Typed,
    /// After the optimisation passes.
    Optimised,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Lowered => "lowered",
            Phase::Ssa => "ssa",
            Phase::Typed => "typed",
            Phase::Optimised => "optimised",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Function {
    /// The name shown in dumps and backtraces, e.g. `f(Float64, Int64)`.
    pub name: String,
    pub phase: Phase,
    pub blocks: PrimaryMap<Block, BlockData>,
    /// Block order; the first is the entry block, whose parameters are the arguments.
    pub layout: Vec<Block>,
    pub insts: PrimaryMap<Inst, InstData>,
    pub results: SecondaryMap<Inst, PackedOption<Value>>,
    pub values: PrimaryMap<Value, ValueDef>,
    pub types: SecondaryMap<Value, Type>,
    /// Source of each instruction (for errors and backtraces).
    pub locs: SecondaryMap<Inst, Span>,
    pub slots: PrimaryMap<Slot, SlotData>,
    /// Source names of values that hold a named variable (for dumps).
    pub names: SecondaryMap<Value, Option<Symbol>>,
    pub ret_type: Type,
    pub inline_sites: Vec<InlineSite>,
    /// For instructions copied by the inliner: 1 + index into `inline_sites` (0: not inlined).
    pub inlined_at: SecondaryMap<Inst, u32>,
    /// A process-unique id given to finished (optimised) code, 0 before; backends key caches
    /// on it. See [`Function::assign_id`].
    pub id: u64,
    /// "No signed zeros" (LLVM's `nsz`): float additions may treat `+0.0` as an exact
    /// identity, so `0.0 + x` folds to `x` even though IEEE gives `+0.0` for `x = -0.0`. Set on
    /// pullbacks, where floats are cotangents and the sign of a zero carries no meaning.
    /// Printed as `[phase, nsz]`.
    pub nsz: bool,
}

impl Function {
    pub fn new(name: impl Into<String>, phase: Phase) -> Function {
        Function {
            name: name.into(),
            phase,
            blocks: PrimaryMap::new(),
            layout: Vec::new(),
            insts: PrimaryMap::new(),
            results: SecondaryMap::new(),
            values: PrimaryMap::new(),
            types: SecondaryMap::new(),
            locs: SecondaryMap::new(),
            slots: PrimaryMap::new(),
            names: SecondaryMap::new(),
            ret_type: Type::Any,
            inline_sites: Vec::new(),
            inlined_at: SecondaryMap::new(),
            id: 0,
            nsz: false,
        }
    }

    /// Gives the function a fresh process-unique id.
    pub fn assign_id(&mut self) {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        self.id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    pub fn entry(&self) -> Block {
        self.layout[0]
    }

    pub fn params(&self) -> &[Value] {
        &self.blocks[self.entry()].params
    }

    /// Creates a block and appends it to the layout.
    pub fn add_block(&mut self) -> Block {
        let b = self.blocks.push(BlockData::default());
        self.layout.push(b);
        b
    }

    pub fn add_block_param(&mut self, b: Block, ty: Type) -> Value {
        let idx = self.blocks[b].params.len() as u32;
        let v = self.values.push(ValueDef::Param(b, idx));
        self.types[v] = ty;
        self.blocks[b].params.push(v);
        v
    }

    /// Creates an instruction (not yet placed in a block) with its result value if it has one.
    pub fn make_inst(&mut self, data: InstData, ty: Type, loc: Span) -> (Inst, Option<Value>) {
        let has_result = data.has_result();
        let inst = self.insts.push(data);
        self.locs[inst] = loc;
        let v = if has_result {
            let v = self.values.push(ValueDef::Inst(inst));
            self.types[v] = ty;
            self.results[inst] = v.into();
            Some(v)
        } else {
            None
        };
        (inst, v)
    }

    /// Appends an instruction to block `b`.
    pub fn append(&mut self, b: Block, data: InstData, ty: Type, loc: Span) -> Option<Value> {
        let (inst, v) = self.make_inst(data, ty, loc);
        self.blocks[b].insts.push(inst);
        v
    }

    pub fn result(&self, inst: Inst) -> Option<Value> {
        self.results[inst].expand()
    }

    pub fn terminator(&self, b: Block) -> Option<Inst> {
        let last = *self.blocks[b].insts.last()?;
        if self.insts[last].is_terminator() {
            Some(last)
        } else {
            None
        }
    }

    pub fn is_terminated(&self, b: Block) -> bool {
        self.terminator(b).is_some()
    }

    pub fn successors(&self, b: Block) -> smallvec::SmallVec<[Block; 2]> {
        match self.terminator(b) {
            Some(t) => self.insts[t].successors().iter().map(|s| s.0).collect(),
            None => smallvec::SmallVec::new(),
        }
    }

    /// Predecessors of every block (with multiplicity: a branch to the same block twice
    /// counts twice).
    pub fn predecessors(&self) -> SecondaryMap<Block, Preds> {
        let mut preds: SecondaryMap<Block, Preds> = SecondaryMap::with_capacity(self.blocks.len());
        for &b in &self.layout {
            for s in self.successors(b) {
                preds[s].push(b);
            }
        }
        preds
    }

    /// The constant defining `v`, if any.
    pub fn const_value(&self, v: Value) -> Option<&Const> {
        match self.values[v] {
            ValueDef::Inst(i) => match &self.insts[i] {
                InstData::Const(c) => Some(c),
                _ => None,
            },
            ValueDef::Param(..) => None,
        }
    }

    /// `(result, state, k, T)` if `i` is `Core.rule_stack(state, k, T)` with a constant stack
    /// number `k` (`T` is the operand giving the stack's type).
    pub fn constant_rule_stack(&self, i: Inst) -> Option<(Value, Value, i64, Value)> {
        let InstData::Prim {
            op: Prim::RuleStack,
            args,
        } = &self.insts[i]
        else {
            return None;
        };
        let (Some(r), [st, k, ty]) = (self.result(i), args.as_slice()) else {
            return None;
        };
        let Some(Const::Int(k)) = self.const_value(*k) else {
            return None;
        };
        Some((r, *st, *k, *ty))
    }

    pub fn def_inst(&self, v: Value) -> Option<Inst> {
        match self.values[v] {
            ValueDef::Inst(i) => Some(i),
            ValueDef::Param(..) => None,
        }
    }

    /// Whether `v` is the result of a `Const` instruction.
    pub fn is_constant(&self, v: Value) -> bool {
        self.def_inst(v)
            .is_some_and(|i| matches!(self.insts[i], InstData::Const(_)))
    }

    /// Rewrites every operand through `f`.
    pub fn map_all_args(&mut self, mut f: impl FnMut(Value) -> Value) {
        for b in self.layout.clone() {
            for &i in &self.blocks[b].insts {
                self.insts[i].map_args(&mut f);
            }
        }
    }

    /// Blocks in reverse post-order from the entry (unreachable blocks omitted).
    pub fn reverse_postorder(&self) -> Vec<Block> {
        let mut visited: SecondaryMap<Block, bool> = SecondaryMap::new();
        let mut order = Vec::new();
        let mut stack: Vec<(Block, usize)> = vec![(self.entry(), 0)];
        visited[self.entry()] = true;
        while let Some((b, i)) = stack.pop() {
            let succs = self.successors(b);
            if i < succs.len() {
                stack.push((b, i + 1));
                let s = succs[i];
                if !visited[s] {
                    visited[s] = true;
                    stack.push((s, 0));
                }
            } else {
                order.push(b);
            }
        }
        order.reverse();
        order
    }

    /// The chain of (function name, span) for an instruction, innermost first: its own span,
    /// then the call sites it was inlined through, ending in this function.
    pub fn source_chain(&self, i: Inst) -> Vec<(String, Span)> {
        let mut out = Vec::new();
        let mut site = self.inlined_at[i];
        let mut span = self.locs[i];
        let mut guard = 0;
        while site != 0 && guard < 1000 {
            let s = &self.inline_sites[site as usize - 1];
            out.push((s.func.clone(), span));
            span = s.call;
            site = s.parent.map_or(0, |p| p + 1);
            guard += 1;
        }
        out.push((self.name.clone(), span));
        out
    }

    /// Removes the parameters of block `b` for which `remove[k]` holds, together with the
    /// matching argument on every incoming edge (`preds`: `b`'s predecessors).
    pub fn remove_block_params(&mut self, b: Block, remove: &[bool], preds: &[Block]) {
        let params = std::mem::take(&mut self.blocks[b].params);
        let kept: Vec<Value> = params
            .iter()
            .zip(remove)
            .filter(|(_, r)| !**r)
            .map(|(p, _)| *p)
            .collect();
        for (k, &p) in kept.iter().enumerate() {
            self.values[p] = ValueDef::Param(b, k as u32);
        }
        self.blocks[b].params = kept;
        let filter = |args: &mut Vec<Value>| {
            let mut k = 0;
            args.retain(|_| {
                let keep = !remove.get(k).copied().unwrap_or(false);
                k += 1;
                keep
            });
        };
        let mut seen: Vec<Block> = Vec::new();
        for &p in preds {
            if seen.contains(&p) {
                continue;
            }
            seen.push(p);
            let Some(t) = self.terminator(p) else {
                continue;
            };
            match &mut self.insts[t] {
                InstData::Jump { dest, args } if *dest == b => filter(args),
                InstData::Branch {
                    then_dest,
                    then_args,
                    else_dest,
                    else_args,
                    ..
                } => {
                    if *then_dest == b {
                        filter(then_args);
                    }
                    if *else_dest == b {
                        filter(else_args);
                    }
                }
                _ => {}
            }
        }
    }

    /// The instructions that do work: all but constants (which cost nothing where they are
    /// used).
    pub fn work_count(&self) -> usize {
        self.work_in(self.layout.iter())
    }

    /// The instructions that do work in these blocks.
    pub fn work_in<'b>(&self, blocks: impl Iterator<Item = &'b Block>) -> usize {
        blocks
            .flat_map(|b| &self.blocks[*b].insts)
            .filter(|&&i| !matches!(self.insts[i], InstData::Const(_)))
            .count()
    }

    /// The instructions that do work on the way to a return: those of [`Function::work_count`]
    /// outside the cold blocks (all of them in a function that never returns), the size the
    /// inliner weighs a callee by.
    pub fn hot_work_count(&self) -> usize {
        let mut cold = self.cold_blocks();
        if cold.contains(&self.entry()) {
            cold.clear();
        }
        self.work_in(self.layout.iter().filter(|b| !cold.contains(b)))
    }

    /// The instructions of the layout reading each value, in layout order, each once per
    /// value.
    pub fn users(&self) -> rustc_hash::FxHashMap<Value, Vec<Inst>> {
        let mut users: rustc_hash::FxHashMap<Value, Vec<Inst>> = Default::default();
        for &b in &self.layout {
            for &i in &self.blocks[b].insts {
                self.insts[i].for_each_arg(|a| {
                    let u = users.entry(a).or_default();
                    if u.last() != Some(&i) {
                        u.push(i);
                    }
                });
            }
        }
        users
    }

    /// The blocks from which the function cannot return: every path from them ends in
    /// `unreachable` (after a throw), so they run only on the way to an error.
    pub fn cold_blocks(&self) -> rustc_hash::FxHashSet<Block> {
        // The blocks that cannot reach a return (a loop whose exits all raise is cold too):
        // everything but what a backward walk from the returning blocks finds.
        let preds = self.predecessors();
        let mut warm: SecondaryMap<Block, bool> = SecondaryMap::with_capacity(self.blocks.len());
        let mut work: Vec<Block> = self
            .layout
            .iter()
            .copied()
            .filter(|&b| {
                self.terminator(b)
                    .is_none_or(|t| matches!(self.insts[t], InstData::Return(_)))
            })
            .collect();
        for &b in &work {
            warm[b] = true;
        }
        while let Some(b) = work.pop() {
            for &p in &preds[b] {
                if !warm[p] {
                    warm[p] = true;
                    work.push(p);
                }
            }
        }
        self.layout.iter().copied().filter(|&b| !warm[b]).collect()
    }
}

#[cfg(test)]
mod tests {
    use expect_test::{expect, Expect};

    /// The function's cold blocks and the work counts, in order.
    fn check(src: &str, expect: Expect) {
        let fs = crate::read::read_functions(src, &crate::TypeEnv::new())
            .unwrap_or_else(|e| panic!("{e:?}"));
        let f = &fs[0];
        let cold = f.cold_blocks();
        let names: Vec<String> = f
            .layout
            .iter()
            .filter(|b| cold.contains(b))
            .map(|b| b.to_string())
            .collect();
        let out = format!(
            "cold: {}\nwork {}, on the way to a return {}\n",
            names.join(" "),
            f.work_count(),
            f.hot_work_count()
        );
        expect.assert_eq(&out);
    }

    #[test]
    fn an_error_path_with_a_loop_is_cold() {
        check(
            r#"
function f(Int64) -> Int64 [optimised]
block0(v0: typeof(f), v1: Int64):
    v2: Int64 = const 0
    v3: Bool = prim slt_int(v1, v2)
    br v3, block2(v1), block1
block1:
    return v1
block2(v4: Int64):
    v5: Int64 = const 1
    v6: Int64 = prim add_int(v4, v5)
    v7: Bool = prim slt_int(v6, v2)
    br v7, block2(v6), block3
block3:
    v8: String = const "negative"
    v9: Union{} = prim throw_error(v8)
    unreachable
end
"#,
            expect![[r#"
                cold: block2 block3
                work 8, on the way to a return 3
            "#]],
        );
    }

    #[test]
    fn a_function_that_never_returns_is_weighed_whole() {
        check(
            r#"
function g(Int64) -> Union{} [optimised]
block0(v0: typeof(g), v1: Int64):
    v2: String = const "always"
    v3: Union{} = prim throw_error(v2)
    unreachable
end
"#,
            expect![[r#"
                cold: block0
                work 2, on the way to a return 2
            "#]],
        );
    }
}
