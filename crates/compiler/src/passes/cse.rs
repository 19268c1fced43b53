//! Common-subexpression elimination and redundant memory accesses.
//!
//! Three rewrites, each preserving what the program computes and what it leaves in memory:
//! - **Pure expressions** (effect-free primitives, tuples, immutable structs, field reads of
//!   immutable values, type assertions) computed twice with the same operands are computed
//!   once: the later one is replaced by the earlier when the earlier's block dominates it.
//!   Constant operands compare by value, so `x * 2.0` matches another `x * 2.0`. Primitives that
//!   allocate (`array_new`) or build mutable structs keep their identity and are never merged.
//! - **Memory reads** (`arrayref`, `arraylen`, field reads of mutable objects, globals) are
//!   merged within one block, and into a block whose only predecessor is the block holding
//!   the earlier read (past a branch whose other side raises a domain error, say), and only
//!   while nothing that may write memory runs between them; a read of `A[i]` right after
//!   `A[i] = v` is `v` (store-to-load forwarding).
//! - **Dead stores**: `A[i] = v` followed in the same block by `A[i] = w`, with nothing in
//!   between that reads memory, writes it, throws or calls, is dropped.
//!
//! Reverse-mode pullbacks gain most: a partial such as `2x` of `x^2` appears once per use and
//! the cotangent of an array element read twice is accumulated in two read-add-write steps.

use super::Pass;
use crate::{CompileError, Compiler};
use ir::dominators::DomTree;
use ir::{Block, Const, FieldRef, Function, Inst, InstData, Prim, Type, Value};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

pub struct Cse;

impl Pass for Cse {
    fn name(&self) -> &'static str {
        "cse"
    }

    fn run(&self, c: &mut Compiler, f: &mut Function) -> Result<bool, CompileError> {
        Ok(cse(f, &c.env))
    }
}

/// A constant, compared by value (floats by their bits).
#[derive(Clone, PartialEq, Eq, Hash)]
enum ConstKey {
    Int(i64),
    F64(u64),
    F32(u32),
    Bool(bool),
    Nothing,
    Str(Arc<str>),
    Sym(syntax::Symbol),
    Type(Type),
    Func(syntax::Symbol),
    Singleton(Type),
}

impl ConstKey {
    fn of(c: &Const) -> Option<ConstKey> {
        Some(match c {
            Const::Int(x) => ConstKey::Int(*x),
            Const::F64(x) => ConstKey::F64(x.to_bits()),
            Const::F32(x) => ConstKey::F32(x.to_bits()),
            Const::Bool(x) => ConstKey::Bool(*x),
            Const::Nothing => ConstKey::Nothing,
            Const::Str(s) => ConstKey::Str(s.clone()),
            Const::Sym(s) => ConstKey::Sym(*s),
            Const::Type(t) => ConstKey::Type(t.clone()),
            Const::Func(s) => ConstKey::Func(*s),
            Const::Singleton(t) => ConstKey::Singleton(t.clone()),
            Const::Undef => return None,
        })
    }
}

/// An operand: a value, or a constant by value.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Operand {
    Val(Value),
    Const(ConstKey),
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum Op {
    Prim(Prim),
    Tuple,
    New(Type),
    GetField(FieldRef),
    TypeAssert(Type),
    GetGlobal(syntax::Symbol),
}

/// What an instruction computes: the operation, its operands and its result type.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    op: Op,
    args: Vec<Operand>,
    ty: Type,
}

/// How an instruction may be merged with an equal one.
enum Kind {
    /// Same result wherever it is computed (given dominance).
    Pure(Key),
    /// Same result while memory does not change.
    Read(Key),
    /// Neither.
    Other,
}

/// Whether nothing about `inst` can observe or change memory or leave the block early: what
/// may sit between two stores to one element for the first to be dead.
fn transparent(d: &InstData) -> bool {
    match d {
        InstData::Prim { op, .. } => {
            let e = op.effects();
            !e.reads && !e.writes && !e.throws
        }
        InstData::Const(_) | InstData::Tuple { .. } => true,
        InstData::New { .. }
        | InstData::GetField { .. }
        | InstData::TypeAssert { .. }
        | InstData::Invoke { .. }
        | InstData::Call { .. }
        | InstData::SetField { .. }
        | InstData::GetGlobal(_)
        | InstData::SetGlobal(..)
        | InstData::StaticParam(_)
        | InstData::GetSlot(_)
        | InstData::SetSlot(..)
        | InstData::Jump { .. }
        | InstData::Branch { .. }
        | InstData::Return(_)
        | InstData::Unreachable => false,
    }
}

struct State<'a> {
    f: &'a Function,
    alias: FxHashMap<Value, Value>,
}

impl State<'_> {
    fn operand(&self, v: Value) -> Operand {
        let v = ir::resolve_alias(&self.alias, v);
        match self.f.const_value(v).and_then(ConstKey::of) {
            Some(c) => Operand::Const(c),
            None => Operand::Val(v),
        }
    }

    fn operands(&self, vs: &[Value]) -> Vec<Operand> {
        vs.iter().map(|&v| self.operand(v)).collect()
    }

    fn kind(&self, i: Inst, env: &ir::TypeEnv) -> Kind {
        let f = self.f;
        let Some(r) = f.result(i) else {
            return Kind::Other;
        };
        let ty = f.types[r].clone();
        let key = |op: Op, args: Vec<Operand>| Key {
            op,
            args,
            ty: ty.clone(),
        };
        match &f.insts[i] {
            // Constants stay where they are (Cranelift materialises them at their uses); as
            // operands they compare by value.
            InstData::Const(_) => Kind::Other,
            InstData::Prim { op, args } => {
                let e = op.effects();
                if e.writes || matches!(op, Prim::ArrayNew) {
                    Kind::Other
                } else if !e.reads {
                    Kind::Pure(key(Op::Prim(*op), self.operands(args)))
                } else if matches!(
                    op,
                    Prim::ArrayRef | Prim::ArrayRefRaw | Prim::ArrayLen | Prim::ArraySize
                ) {
                    Kind::Read(key(Op::Prim(*op), self.operands(args)))
                } else {
                    // Reads that allocate (copies) or format.
                    Kind::Other
                }
            }
            InstData::Tuple { args } => Kind::Pure(key(Op::Tuple, self.operands(args))),
            InstData::New { ty: t, args } if !env.is_mutable(t) => {
                Kind::Pure(key(Op::New(t.clone()), self.operands(args)))
            }
            InstData::GetField { obj, field } => {
                let k = key(Op::GetField(*field), vec![self.operand(*obj)]);
                let ot = &f.types[*obj];
                let immutable = matches!(
                    ot,
                    Type::Tuple(_)
                        | Type::NamedTuple(..)
                        | Type::Tangent(_)
                        | Type::FData(_)
                        | Type::RData(_)
                ) || matches!(ot, Type::Struct(..) if !env.is_mutable(ot));
                if immutable {
                    Kind::Pure(k)
                } else {
                    Kind::Read(k)
                }
            }
            InstData::TypeAssert { val, ty: t } => {
                Kind::Pure(key(Op::TypeAssert(t.clone()), vec![self.operand(*val)]))
            }
            InstData::GetGlobal(g) => Kind::Read(key(Op::GetGlobal(*g), vec![])),
            InstData::New { .. }
            | InstData::Invoke { .. }
            | InstData::Call { .. }
            | InstData::SetField { .. }
            | InstData::SetGlobal(..)
            | InstData::StaticParam(_)
            | InstData::GetSlot(_)
            | InstData::SetSlot(..)
            | InstData::Jump { .. }
            | InstData::Branch { .. }
            | InstData::Return(_)
            | InstData::Unreachable => Kind::Other,
        }
    }
}

/// Runs the three rewrites on `f`; returns whether anything changed.
pub fn cse(f: &mut Function, env: &ir::TypeEnv) -> bool {
    let dom = DomTree::compute(f);
    let mut st = State {
        f,
        alias: FxHashMap::default(),
    };
    let mut def_block: FxHashMap<Value, Block> = FxHashMap::default();
    let mut pure: FxHashMap<Key, Vec<Value>> = FxHashMap::default();
    let mut removed: FxHashSet<Inst> = FxHashSet::default();
    let mut used: FxHashSet<Value> = FxHashSet::default();
    for &b in &st.f.layout {
        for &i in &st.f.blocks[b].insts {
            st.f.insts[i].for_each_arg(|a| {
                used.insert(a);
            });
        }
    }
    let preds = st.f.predecessors();
    // The reads known at the end of each block, for its successors that have no other
    // predecessor (nothing runs between the end of the one and the start of the other).
    let mut reads_at_end: FxHashMap<Block, FxHashMap<Key, Value>> = FxHashMap::default();
    for &b in dom.rpo() {
        let mut reads: FxHashMap<Key, Value> = match preds[b].as_slice() {
            [p] => reads_at_end.get(p).cloned().unwrap_or_default(),
            _ => FxHashMap::default(),
        };
        // The last store to each element since anything that could observe it.
        let mut stores: FxHashMap<Vec<Operand>, Inst> = FxHashMap::default();
        for &i in &st.f.blocks[b].insts {
            let d = &st.f.insts[i];
            if let InstData::Prim {
                op: Prim::ArraySet,
                args,
            } = d
            {
                // A store to an element stored to since the window opened makes that store
                // dead; any store then starts a new window.
                let mut place = vec![st.operand(args[0])];
                place.extend(st.operands(&args[2..]));
                if let Some(&prev) = stores.get(&place) {
                    if st.f.result(prev).is_none_or(|pr| !used.contains(&pr)) {
                        removed.insert(prev);
                    }
                }
                stores.clear();
                stores.insert(place, i);
            } else if !transparent(d) {
                stores.clear();
            }
            match st.kind(i, env) {
                Kind::Pure(k) => {
                    let r = st.f.result(i).expect("keyed instructions have results");
                    let found = pure.get(&k).and_then(|cs| {
                        cs.iter()
                            .copied()
                            .find(|c| def_block.get(c).is_some_and(|&cb| dom.dominates(cb, b)))
                    });
                    match found {
                        Some(c) => {
                            st.alias.insert(r, c);
                            removed.insert(i);
                        }
                        None => {
                            def_block.insert(r, b);
                            pure.entry(k).or_default().push(r);
                        }
                    }
                }
                Kind::Read(k) => {
                    let r = st.f.result(i).expect("keyed instructions have results");
                    match reads.get(&k) {
                        Some(&c) => {
                            st.alias.insert(r, c);
                            removed.insert(i);
                        }
                        None => {
                            reads.insert(k, r);
                        }
                    }
                }
                Kind::Other => {
                    if d.may_write() {
                        reads.clear();
                    }
                    if let InstData::Prim {
                        op: Prim::ArraySet,
                        args,
                    } = d
                    {
                        let (arr, val) = (args[0], args[1]);
                        let mut place = vec![st.operand(arr)];
                        place.extend(st.operands(&args[2..]));
                        // The element now holds `val`: a read of it gives `val` back.
                        let elem = match &st.f.types[arr] {
                            Type::Array(e, _) => Some((**e).clone()),
                            _ => None,
                        };
                        let val = ir::resolve_alias(&st.alias, val);
                        if elem.as_ref() == Some(&st.f.types[val]) {
                            let k = Key {
                                op: Op::Prim(Prim::ArrayRef),
                                args: place,
                                ty: elem.expect("checked above"),
                            };
                            reads.insert(k, val);
                        }
                    }
                }
            }
        }
        let single_pred_successor = st.f.successors(b).iter().any(|s| preds[*s].len() == 1);
        if single_pred_successor && !reads.is_empty() {
            reads_at_end.insert(b, reads);
        }
    }
    let changed = !removed.is_empty();
    let alias = std::mem::take(&mut st.alias);
    for b in f.layout.clone() {
        f.blocks[b].insts.retain(|i| !removed.contains(i));
    }
    crate::passes::simplify::apply_aliases(f, &alias);
    changed
}
