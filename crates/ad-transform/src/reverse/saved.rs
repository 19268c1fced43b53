//! What the pullback reads from the forwards pass: the values each block saves (pushed on
//! the block's communication stack, made again when constant, or computed again when cheap),
//! the call-invariant values saved once per call, the values made outside a loop that its
//! reverse reads (saved once by their block, taken when the pullback enters the loop), the
//! induction variables of counted loops, and the rule state's layout (its stacks).

use crate::emit::Emit;
use ir::{Block, Const, FieldRef, Function, Inst, InstData, Prim, Type, Value};
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::RefCell;
use std::rc::Rc;

/// Values the reverse pass reads from one forward block, pushed as one tuple.
#[derive(Default)]
pub(super) struct Saved {
    pub(super) vals: Vec<Value>,
    pub(super) index: FxHashMap<Value, usize>,
    /// Values fixed for the whole call (the forwards pass's arguments and their fdata): saved
    /// once per call instead of in every block execution (see `INVARIANT`).
    pub(super) shared: Option<Rc<Invariants>>,
    /// The counted loops the block is in: their induction variables are recomputed, not saved.
    pub(super) loops: Vec<Block>,
    /// The induction variables the block's reverse reads (see `IV`).
    pub(super) ivs: Vec<Value>,
    /// Values of blocks that run once per call (or per iteration of an enclosing loop) which
    /// this block, in a loop without that block, reads: saved once by their own block, with
    /// the loop whose pullback reads them on entry (see `ONCE`).
    pub(super) once: Vec<(Value, Block)>,
}

/// An induction variable of a counted loop: a header parameter that enters as `init` and grows
/// by `step` along the back edge (or such a parameter plus a constant `offset`). While the
/// pullback runs the loop's blocks, the loop's counter holds the iteration's count, so the
/// variable is `init + step * count + offset` there: recomputed instead of saved once per
/// iteration.
#[derive(Clone)]
pub(super) struct IvSpec {
    pub(super) header: Block,
    pub(super) init: IvInit,
    pub(super) step: i64,
    /// Added to the variable (a value computed from it by adding a constant).
    pub(super) offset: i64,
}

#[derive(Clone, Copy)]
pub(super) enum IvInit {
    Const(i64),
    /// A call-invariant value of the forwards pass (saved once per call).
    Invariant(Value),
}

/// The call-invariant values of a forwards pass and those of them the pullback needs.
pub(super) struct Invariants {
    pub(super) values: RefCell<FxHashSet<Value>>,
    pub(super) saved: RefCell<Saved>,
    /// The induction variables of counted loops (forwards-pass values).
    pub(super) ivs: RefCell<FxHashMap<Value, IvSpec>>,
    /// The forwards-pass values defined by blocks that run at most once per call or per
    /// iteration of their innermost counted loop, with their block.
    pub(super) once_def: RefCell<FxHashMap<Value, Block>>,
    /// The counted loops each such block is in.
    pub(super) once_loops: RefCell<FxHashMap<Block, Vec<Block>>>,
    /// For such a block, the values of it that blocks in loops read, in the order its once
    /// stack holds them.
    pub(super) once_vals: RefCell<FxHashMap<Block, Vec<Value>>>,
}

/// Saved-value indices from this one on refer to the call-invariant values (index − INVARIANT
/// among them), pushed once when the forwards pass starts and popped first by the pullback.
pub(super) const INVARIANT: usize = 1 << 40;

/// Saved-value indices from this one on refer to the block's recomputed induction variables.
pub(super) const IV: usize = 1 << 41;

/// Saved-value indices from this one on refer to values of blocks that run once per call or
/// per iteration of their innermost counted loop (index − ONCE among the reading block's
/// `once`). Such a block pushes each of them on a stack of its own when it ends; a block in a
/// counted loop L the defining block is not in reads the value the pullback took from the top
/// of that stack when it entered L's pullback, and the defining block's own pullback pops it.
/// That top is the value the reading block saw: the defining block dominates L's header and
/// does not run inside L, and everything pushed on the stack after it (later iterations of an
/// enclosing loop, later calls on the same rule state) has been pulled back, and popped,
/// before L's pullback is entered.
pub(super) const ONCE: usize = 1 << 42;

impl Saved {
    /// Whether the pullback of this block has `v` without it being saved: a call-invariant
    /// value or an induction variable of a counted loop the block is in.
    pub(super) fn recomputable(&self, v: Value) -> bool {
        let Some(sh) = &self.shared else {
            return false;
        };
        sh.values.borrow().contains(&v)
            || sh
                .ivs
                .borrow()
                .get(&v)
                .is_some_and(|s| self.loops.contains(&s.header))
    }

    pub(super) fn add(&mut self, v: Value) -> usize {
        if let Some(sh) = &self.shared {
            if sh.values.borrow().contains(&v) {
                return INVARIANT + sh.saved.borrow_mut().add(v);
            }
            let iv = sh.ivs.borrow().get(&v).cloned();
            if let Some(spec) = iv.filter(|s| self.loops.contains(&s.header)) {
                if let IvInit::Invariant(init) = spec.init {
                    sh.saved.borrow_mut().add(init);
                }
                let j = match self.ivs.iter().position(|x| *x == v) {
                    Some(j) => j,
                    None => {
                        self.ivs.push(v);
                        self.ivs.len() - 1
                    }
                };
                return IV + j;
            }
            let once = sh.once_def.borrow().get(&v).copied();
            // The outermost loop of this block that the defining block is not in.
            let reader = once.and_then(|d| {
                let dl = sh.once_loops.borrow();
                let dl = dl.get(&d)?;
                self.loops.iter().find(|h| !dl.contains(h)).map(|h| (d, *h))
            });
            if let Some((d, lr)) = reader {
                let mut vals = sh.once_vals.borrow_mut();
                let list = vals.entry(d).or_default();
                if !list.contains(&v) {
                    list.push(v);
                }
                let j = match self.once.iter().position(|x| *x == (v, lr)) {
                    Some(j) => j,
                    None => {
                        self.once.push((v, lr));
                        self.once.len() - 1
                    }
                };
                return ONCE + j;
            }
        }
        if let Some(&i) = self.index.get(&v) {
            return i;
        }
        self.vals.push(v);
        self.index.insert(v, self.vals.len() - 1);
        self.vals.len() - 1
    }
}

/// The value a once-value's slot holds before the pullback enters its loop (never read; see
/// `ONCE`): an empty array or a zero, so that every path defines the slot. `None` for types
/// without a cheap one, whose values are saved by the blocks that read them instead.
pub(super) fn once_stand_in(e: &mut Emit, t: &Type) -> Option<Value> {
    Some(match t {
        Type::Float64 => e.konst(Const::F64(0.0)),
        Type::Float32 => e.konst(Const::F32(0.0)),
        Type::Int64 => e.konst(Const::Int(0)),
        Type::Bool => e.konst(Const::Bool(false)),
        Type::Array(_, n) => {
            let tv = e.konst(Const::Type(t.clone()));
            let mut args = vec![tv];
            for _ in 0..*n {
                args.push(e.konst(Const::Int(0)));
            }
            e.prim(Prim::ArrayNew, args, t.clone())
        }
        _ => return None,
    })
}

/// Whether a value of type `t` can be a once-value (see [`once_stand_in`]).
pub(super) fn once_readable(t: &Type) -> bool {
    matches!(
        t,
        Type::Float64 | Type::Float32 | Type::Int64 | Type::Bool | Type::Array(..)
    )
}

/// The values saved for a block in the pullback: its own (popped from its comms stack) and the
/// call-invariant ones (popped at the pullback's entry).
pub(super) struct SavedVals<'a> {
    pub(super) own: &'a [Value],
    pub(super) invariant: &'a [Value],
    pub(super) ivs: &'a [Value],
    pub(super) once: &'a [Value],
}

impl std::ops::Index<usize> for SavedVals<'_> {
    type Output = Value;
    fn index(&self, k: usize) -> &Value {
        if k >= ONCE {
            &self.once[k - ONCE]
        } else if k >= IV {
            &self.ivs[k - IV]
        } else if k >= INVARIANT {
            &self.invariant[k - INVARIANT]
        } else {
            &self.own[k]
        }
    }
}

/// How the pullback gets back a value the forwards pass saved for it.
#[derive(Clone)]
pub(super) enum Recipe {
    /// Pushed on the block's comms stack in the forwards pass and popped in the pullback.
    Pushed,
    /// A constant: made again.
    Const(Const),
    /// Computed again in the pullback by these forwards-pass instructions (in order; the last
    /// defines the value), whose other operands are constants, call-invariant values and the
    /// block's induction variables (see `recompute_plan`).
    Recompute(Vec<Inst>),
}

/// For each saved value: a constant is made again, everything else is pushed.
pub(super) fn const_recipes(fwd: &Function, vals: &[Value]) -> Vec<Recipe> {
    vals.iter()
        .map(|v| match fwd.def_inst(*v).map(|i| &fwd.insts[i]) {
            Some(InstData::Const(c)) => Recipe::Const(c.clone()),
            _ => Recipe::Pushed,
        })
        .collect()
}

/// Primitives cheap enough to compute again in the pullback rather than save.
pub(super) fn cheap(op: Prim) -> bool {
    use Prim::*;
    matches!(
        op,
        AddInt | SubInt | MulInt | NegInt | AddFloat | SubFloat | MulFloat | NegFloat | Sitofp
    )
}

/// Whether forwards-pass instruction `d` may change a primal array or object (writes to the
/// rule state's own stacks do not).
pub(super) fn writes_primal(fwd: &Function, d: &InstData) -> bool {
    let on_stack = |a: Value| {
        fwd.def_inst(a).is_some_and(|i| {
            matches!(
                fwd.insts[i],
                InstData::Prim {
                    op: Prim::RuleStack,
                    ..
                }
            )
        })
    };
    match d {
        InstData::Prim { op, args } => {
            let own_state = matches!(op, Prim::RuleStack | Prim::RuleChild | Prim::AdCheck)
                || (matches!(op, Prim::ArrayPush | Prim::ArrayPop) && on_stack(args[0]));
            !own_state && op.effects().writes
        }
        d => d.may_write(),
    }
}

/// The instructions that compute `v` again in the pullback of forwards block `fb`, if that is
/// cheap: cheap arithmetic on constants, `leaf` values (call-invariant values and the block's
/// induction variables, which the pullback has at hand), fields of `immutable` aggregates
/// that are themselves leaves or recomputed (a weight matrix read from a struct argument, or
/// its fdata), and reads of primal arrays that are leaves. Such a read gives in the pullback
/// what it gave in the forwards pass: the pullback of every block run after `fb` has undone
/// that block's writes before `fb`'s is entered, so memory is as `fb` left it — and nothing in
/// `fb` writes after the read. A field of an immutable value is the same wherever it is read.
pub(super) fn recompute_plan(
    fwd: &Function,
    fb: Block,
    v: Value,
    leaf: &dyn Fn(Value) -> bool,
    primal: &dyn Fn(Value) -> bool,
    immutable: &dyn Fn(&Type) -> bool,
) -> Option<Vec<Inst>> {
    struct Planner<'a> {
        fwd: &'a Function,
        leaf: &'a dyn Fn(Value) -> bool,
        primal: &'a dyn Fn(Value) -> bool,
        immutable: &'a dyn Fn(&Type) -> bool,
        pos: FxHashMap<Inst, usize>,
        last_write: Option<usize>,
        plan: Vec<Inst>,
        work: usize,
        reads: usize,
    }
    impl Planner<'_> {
        const MAX_INSTS: usize = 12;
        const MAX_READS: usize = 4;
        fn visit(&mut self, v: Value) -> Option<()> {
            if (self.leaf)(v) {
                return Some(());
            }
            let fwd = self.fwd;
            let i = fwd.def_inst(v)?;
            if self.plan.contains(&i) {
                return Some(());
            }
            match &fwd.insts[i] {
                InstData::Const(Const::Undef) => return None,
                InstData::Const(_) => {}
                InstData::Prim { op, args } => {
                    let at = *self.pos.get(&i)?;
                    self.work += 1;
                    if self.work > Self::MAX_INSTS {
                        return None;
                    }
                    if *op == Prim::ArrayRef {
                        self.reads += 1;
                        let arr = args[0];
                        let scalar_elems = matches!(
                            &fwd.types[arr],
                            Type::Array(e, _)
                                if matches!(**e, Type::Float64 | Type::Float32 | Type::Int64)
                        );
                        let ok = self.reads <= Self::MAX_READS
                            && scalar_elems
                            && (self.leaf)(arr)
                            && (self.primal)(arr)
                            && self.last_write.is_none_or(|w| w < at);
                        if !ok {
                            return None;
                        }
                        for a in &args[1..] {
                            self.visit(*a)?;
                        }
                    } else if cheap(*op) {
                        for a in args {
                            self.visit(*a)?;
                        }
                    } else {
                        return None;
                    }
                }
                InstData::GetField {
                    obj,
                    field: FieldRef::Index(_),
                } if (self.immutable)(&fwd.types[*obj]) => {
                    self.work += 1;
                    if self.work > Self::MAX_INSTS {
                        return None;
                    }
                    self.visit(*obj)?;
                }
                // Not recomputed: calls, memory, aggregates, control flow.
                InstData::Invoke { .. }
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
                | InstData::SetSlot(..)
                | InstData::Jump { .. }
                | InstData::Branch { .. }
                | InstData::Return(_)
                | InstData::Unreachable => return None,
            }
            self.plan.push(i);
            Some(())
        }
    }
    let insts = &fwd.blocks[fb].insts;
    let mut p = Planner {
        fwd,
        leaf,
        primal,
        immutable,
        pos: insts.iter().enumerate().map(|(k, i)| (*i, k)).collect(),
        last_write: insts
            .iter()
            .rposition(|i| writes_primal(fwd, &fwd.insts[*i])),
        plan: Vec::new(),
        work: 0,
        reads: 0,
    };
    p.visit(v)?;
    Some(p.plan)
}

/// One rule-state stack holding some of a group of saved values (see [`push_saved`]).
#[derive(Clone)]
pub(super) struct SavedStack {
    /// The stack's index in the rule state.
    pub(super) k: u32,
    /// The types of the values it holds (one value as itself, several as one tuple).
    pub(super) tys: Vec<Type>,
    /// Their positions among the group's values, in saving order.
    pub(super) at: Vec<usize>,
}

impl SavedStack {
    /// The type of the stack's elements.
    pub(super) fn elem(&self) -> Type {
        saved_element(&self.tys)
    }
}

/// Whether values of type `t` travel in registers, so that a tuple of them is pushed as bytes
/// without being built (native code packs such tuples).
fn register_type(t: &Type) -> bool {
    matches!(t, Type::Float64 | Type::Float32 | Type::Int64 | Type::Bool)
}

/// Pushes `vals` onto new stacks of the rule state (registered in `state_types`): the values
/// of register types together (one as itself, several as one tuple, which native code packs
/// into bytes without building it), every other value on a stack of its own, so that saving
/// an array or a struct builds no tuple around it.
pub(super) fn push_saved(
    e: &mut Emit,
    state: Value,
    state_types: &mut Vec<Type>,
    vals: Vec<Value>,
) -> Vec<SavedStack> {
    let (regs, boxed): (Vec<usize>, Vec<usize>) =
        (0..vals.len()).partition(|&j| register_type(&e.f.types[vals[j]]));
    let groups = (!regs.is_empty())
        .then_some(regs)
        .into_iter()
        .chain(boxed.into_iter().map(|j| vec![j]));
    groups
        .map(|at| {
            let k = state_types.len() as u32;
            let tys: Vec<Type> = at.iter().map(|&j| e.f.types[vals[j]].clone()).collect();
            let elem = saved_element(&tys);
            state_types.push(Type::vector(elem.clone()));
            let x = match at.as_slice() {
                [j] => vals[*j],
                _ => {
                    let args = at.iter().map(|&j| vals[j]).collect();
                    e.val(InstData::Tuple { args }, elem.clone())
                }
            };
            let stack = rule_stack(e, state, k, Type::vector(elem.clone()));
            e.prim(Prim::ArrayPush, vec![stack, x], Type::vector(elem));
            SavedStack { k, tys, at }
        })
        .collect()
}

/// The element type of a stack of saved values of types `tys` (see [`push_saved`]).
pub(super) fn saved_element(tys: &[Type]) -> Type {
    match tys {
        [t] => t.clone(),
        _ => Type::tuple(tys.to_vec()),
    }
}

/// The pullback's saved values in saving order: constants made again, values with a plan
/// computed again by `recompute`, the rest popped from the state stacks `popped` (as
/// [`push_saved`] returns them).
pub(super) fn pop_saved(
    e: &mut Emit,
    state: Value,
    popped: &[SavedStack],
    recipes: &[Recipe],
    recompute: &mut dyn FnMut(&mut Emit, &[Inst]) -> Value,
) -> Vec<Value> {
    let n = popped.iter().map(|s| s.at.len()).sum();
    let mut fields: Vec<Option<Value>> = vec![None; n];
    for s in popped {
        let elem = s.elem();
        let stack = rule_stack(e, state, s.k, Type::vector(elem.clone()));
        let x = e.prim(Prim::ArrayPop, vec![stack], elem);
        if let [j] = s.at.as_slice() {
            fields[*j] = Some(x);
        } else {
            for (f, (&j, t)) in s.at.iter().zip(&s.tys).enumerate() {
                fields[j] = Some(e.field(x, f as u32, t.clone()));
            }
        }
    }
    let mut popped = fields.into_iter();
    recipes
        .iter()
        .map(|c| match c {
            Recipe::Const(c) => e.konst(c.clone()),
            Recipe::Recompute(plan) => recompute(e, plan),
            Recipe::Pushed => popped
                .next()
                .flatten()
                .unwrap_or_else(|| unreachable!("one field per saved value")),
        })
        .collect()
}

/// Fetches each stack of the rule state once, at entry, instead of in every block that uses
/// it: a state's stacks keep their identity for the whole call and `rule_stack` creates a
/// missing one, so fetching them early is exact, and loops then push to and pop from values
/// already at hand.
pub(super) fn hoist_rule_stacks(f: &mut Function) {
    let entry = f.entry();
    let Some(&state) = f.blocks[entry].params.first() else {
        return;
    };
    let mut canon: FxHashMap<(i64, Type), Value> = FxHashMap::default();
    let mut alias: FxHashMap<Value, Value> = FxHashMap::default();
    let mut hoisted: Vec<Inst> = Vec::new();
    let mut dropped: FxHashSet<Inst> = Default::default();
    for b in f.layout.clone() {
        for &i in &f.blocks[b].insts {
            let Some((r, st, k, ty)) = f.constant_rule_stack(i) else {
                continue;
            };
            let (Some(Const::Type(t)), true) = (f.const_value(ty), st == state) else {
                continue;
            };
            let (Some(ki), Some(ti)) = (f.def_inst(f.insts[i].args()[1]), f.def_inst(ty)) else {
                continue;
            };
            match canon.get(&(k, t.clone())) {
                Some(c) => {
                    alias.insert(r, *c);
                }
                None => {
                    canon.insert((k, t.clone()), r);
                    hoisted.extend([ki, ti, i]);
                }
            }
            dropped.insert(i);
        }
    }
    if canon.is_empty() {
        return;
    }
    let moved: FxHashSet<Inst> = hoisted.iter().copied().collect();
    for b in f.layout.clone() {
        f.blocks[b]
            .insts
            .retain(|i| !dropped.contains(i) && !moved.contains(i));
    }
    let rest = std::mem::take(&mut f.blocks[entry].insts);
    f.blocks[entry].insts = hoisted.into_iter().chain(rest).collect();
    f.map_all_args(|v| ir::function::resolve_alias(&alias, v));
}

/// The type of rule states (a prelude mutable struct).
pub fn rule_state_type() -> Type {
    Type::structure("RuleState", vec![])
}

/// `Core.rule_stack(state, k, vt)`: stack `k` of a rule state, of vector type `vt`.
pub(crate) fn rule_stack(e: &mut Emit, state: Value, k: u32, vt: Type) -> Value {
    let kv = e.konst(Const::Int(k as i64));
    let tv = e.konst(Const::Type(vt.clone()));
    e.prim(Prim::RuleStack, vec![state, kv, tv], vt)
}
