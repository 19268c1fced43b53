//! Constant propagation, dead-code elimination, CFG simplification, and returned tuples built
//! last.

use super::Pass;
use crate::{CompileError, Compiler};
use ir::{Block, Const, FieldRef, Function, Inst, InstData, Type, Value, ValueDef};
use rustc_hash::{FxHashMap, FxHashSet};

/// Replaces every use of a key by its value (following chains).
pub(crate) fn apply_aliases(f: &mut Function, alias: &FxHashMap<Value, Value>) {
    if alias.is_empty() {
        return;
    }
    f.map_all_args(|v| ir::resolve_alias(alias, v));
}

/// Folds primitives on constants, branches on constants, type assertions that always hold,
/// field reads of tuples and structs built in the same function (also run-time element reads at
/// a constant index in range), and values of singleton type.
pub struct ConstProp;

impl Pass for ConstProp {
    fn name(&self) -> &'static str {
        "constprop"
    }

    fn run(&self, c: &mut Compiler, f: &mut Function) -> Result<bool, CompileError> {
        let mut changed = false;
        for _round in 0..8 {
            let mut alias: FxHashMap<Value, Value> = FxHashMap::default();
            let mut round_changed = false;
            // Negations moved or absorbed in place: their users are rewritten next round.
            let mut moved = false;
            // Values with a use (indexed by value number).
            let mut used = vec![false; f.values.len()];
            for &b in &f.layout {
                for &i in &f.blocks[b].insts {
                    f.insts[i].for_each_arg(|a| used[a.as_u32() as usize] = true);
                }
            }
            for b in f.layout.clone() {
                let mut new_insts: Vec<Inst> = Vec::with_capacity(f.blocks[b].insts.len());
                for i in f.blocks[b].insts.clone() {
                    let res = f.result(i);
                    // Only these kinds fold; the others are checked for a singleton result.
                    let folds = matches!(
                        f.insts[i],
                        InstData::Prim { .. }
                            | InstData::TypeAssert { .. }
                            | InstData::GetField { .. }
                            | InstData::Branch { .. }
                    );
                    let data = if folds {
                        f.insts[i].clone()
                    } else {
                        InstData::Unreachable
                    };
                    match &data {
                        InstData::Prim { op, args } => {
                            // An element of a tuple built here, at a constant index in range:
                            // the element (the read cannot throw, so it goes).
                            if let (ir::Prim::TupleGetIndex, Some(r)) = (op, res) {
                                if let Some(v) = tuple_element(f, args).filter(|v| f.types[*v] == f.types[r]) {
                                    alias.insert(r, v);
                                    round_changed = true;
                                    continue;
                                }
                            }
                            let consts: Option<Vec<Const>> = args
                                .iter()
                                .all(|a| f.const_value(*a).is_some())
                                .then(|| {
                                    args.iter()
                                        .filter_map(|a| f.const_value(*a).cloned())
                                        .collect()
                                });
                            if let Some(cs) = consts {
                                if let Some(k) = ir::fold::fold_prim(*op, &cs) {
                                    if res.is_some_and(|r| f.types[r] == k.ty()) {
                                        f.insts[i] = InstData::Const(k);
                                        round_changed = true;
                                    }
                                }
                            }
                            if let (Some(r), Some(x)) = (res, identity_operand(f, *op, args)) {
                                if f.types[x] == f.types[r] {
                                    alias.insert(r, x);
                                    round_changed = true;
                                    continue;
                                }
                            }
                            if let Some(d) = without_negation(f, *op, args) {
                                f.insts[i] = d;
                                round_changed = true;
                                moved = true;
                            } else if let Some((inner, iargs)) =
                                negation_outward(f, *op, args)
                            {
                                // `-a * b` becomes `-(a * b)`: the negation moves towards its
                                // uses, where an addition or subtraction absorbs it.
                                let ty = res.map(|r| f.types[r].clone()).unwrap_or(Type::Float64);
                                let (ni, nv) = f.make_inst(
                                    InstData::Prim {
                                        op: inner,
                                        args: iargs,
                                    },
                                    ty,
                                    f.locs[i],
                                );
                                if let Some(nv) = nv {
                                    new_insts.push(ni);
                                    f.insts[i] = InstData::Prim {
                                        op: ir::Prim::NegFloat,
                                        args: vec![nv],
                                    };
                                    round_changed = true;
                                    moved = true;
                                }
                            }
                            // The length of a tuple is its type's.
                            if let (ir::Prim::TupleLen, Some(r), [t]) = (op, res, args.as_slice()) {
                                if let (Type::Tuple(ts), Type::Int64) = (&f.types[*t], &f.types[r]) {
                                    f.insts[i] = InstData::Const(Const::Int(ts.len() as i64));
                                    round_changed = true;
                                }
                            }
                            // Type computations whose result inference already knows exactly
                            // (`Type{T}`, from the same rule the run time applies) cannot throw.
                            if let (ir::Prim::ApplyType | ir::Prim::PromoteType, Some(r)) = (op, res) {
                                if let Type::Type(t) = &f.types[r] {
                                    if t.is_concrete() {
                                        f.insts[i] = InstData::Const(Const::Type((**t).clone()));
                                        round_changed = true;
                                    }
                                }
                            }
                        }
                        InstData::TypeAssert { val, ty }
                            // An assertion that always holds is dropped.
                            if c.env.subtype(&f.types[*val], ty) => {
                                if let Some(r) = res {
                                    if f.types[*val] == f.types[r] {
                                        alias.insert(r, *val);
                                        round_changed = true;
                                        continue;
                                    }
                                }
                            }
                        InstData::GetField {
                            obj,
                            field: FieldRef::Index(k),
                        } => {
                            if let Some(di) = f.def_inst(*obj) {
                                let src = match &f.insts[di] {
                                    InstData::Tuple { args } => args.get(*k as usize).copied(),
                                    InstData::New { ty, args } if !c.env.is_mutable(ty) => {
                                        args.get(*k as usize).copied()
                                    }
                                    _ => None,
                                };
                                if let (Some(v), Some(r)) = (src, res) {
                                    if f.types[v] == f.types[r] {
                                        alias.insert(r, v);
                                        round_changed = true;
                                    }
                                }
                            }
                        }
                        InstData::Branch {
                            cond,
                            then_dest,
                            then_args,
                            else_dest,
                            else_args,
                        } => {
                            if let Some(Const::Bool(k)) = f.const_value(*cond) {
                                f.insts[i] = if *k {
                                    InstData::Jump {
                                        dest: *then_dest,
                                        args: then_args.clone(),
                                    }
                                } else {
                                    InstData::Jump {
                                        dest: *else_dest,
                                        args: else_args.clone(),
                                    }
                                };
                                round_changed = true;
                            }
                        }
                        _ => {}
                    }
                    // A value of singleton type is that constant.
                    if let Some(r) =
                        res.filter(|r| used[r.as_u32() as usize] && !alias.contains_key(r))
                    {
                        if !matches!(f.insts[i], InstData::Const(_)) {
                            if let Some(k) = Const::of_singleton(&f.types[r]) {
                                let (ci, cv) =
                                    f.make_inst(InstData::Const(k), f.types[r].clone(), f.locs[i]);
                                new_insts.push(i);
                                new_insts.push(ci);
                                if let Some(cv) = cv {
                                    alias.insert(r, cv);
                                }
                                round_changed = true;
                                continue;
                            }
                        }
                    }
                    new_insts.push(i);
                }
                f.blocks[b].insts = new_insts;
            }
            // Singleton constants are found again each round; only aliases make progress.
            apply_aliases(f, &alias);
            if !round_changed {
                break;
            }
            changed = true;
            if alias.is_empty() && !moved {
                break;
            }
        }
        Ok(changed)
    }
}

/// The element `Core.tuple_getindex(t, k)` reads when `t` is built in `f` and `k` is a constant
/// in range.
fn tuple_element(f: &Function, args: &[Value]) -> Option<Value> {
    let [t, k] = args else { return None };
    match (&f.insts[f.def_inst(*t)?], f.const_value(*k)?) {
        (InstData::Tuple { args: elems }, Const::Int(k)) => {
            elems.get(usize::try_from(*k - 1).ok()?).copied()
        }
        _ => None,
    }
}

/// The operand `x` when `op(args)` is exactly `x`: `x + (-0.0)`, `x - 0.0`, `x * 1.0`,
/// `x + 0`, `x * 1` (either side where the operation commutes), and `x + 0.0` when the function
/// ignores the sign of zero ([`Function::nsz`]).
fn identity_operand(f: &Function, op: ir::Prim, args: &[Value]) -> Option<Value> {
    use ir::Prim::*;
    let [a, b] = args else { return None };
    let float = |v: Value| match f.const_value(v) {
        Some(Const::F64(x)) => Some(*x),
        Some(Const::F32(x)) => Some(f64::from(*x)),
        _ => None,
    };
    let int = |v: Value| match f.const_value(v) {
        Some(Const::Int(x)) => Some(*x),
        _ => None,
    };
    let zero_add = |x: f64| x == 0.0 && (x.is_sign_negative() || f.nsz);
    let pick = |is_unit: &dyn Fn(Value) -> bool, commutes: bool| {
        if is_unit(*b) {
            Some(*a)
        } else if commutes && is_unit(*a) {
            Some(*b)
        } else {
            None
        }
    };
    match op {
        AddFloat => pick(&|v| float(v).is_some_and(zero_add), true),
        SubFloat => pick(
            &|v| float(v).is_some_and(|x| x == 0.0 && x.is_sign_positive()),
            false,
        ),
        MulFloat => pick(&|v| float(v) == Some(1.0), true),
        AddInt => pick(&|v| int(v) == Some(0), true),
        SubInt => pick(&|v| int(v) == Some(0), false),
        MulInt => pick(&|v| int(v) == Some(1), true),
        _ => None,
    }
}

/// `op(args)` without a negated operand, where that is the same float: `-a + b` is `b - a`,
/// `a + -b` is `a - b`, `a - -b` is `a + b` (IEEE subtraction is addition of the negation),
/// `-a * -b` is `a * b`;
/// and `-0.0 - b` (`0.0 - b` in `nsz` functions) is `-b`.
fn without_negation(f: &Function, op: ir::Prim, args: &[Value]) -> Option<InstData> {
    use ir::Prim::*;
    let [a, b] = args else { return None };
    let negated = |v: Value| match f.def_inst(v).map(|i| &f.insts[i]) {
        Some(InstData::Prim { op: NegFloat, args }) => args.first().copied(),
        _ => None,
    };
    // `-0.0 - b`, and `0.0 - b` where the sign of zero is ignored, is `-b`.
    let zero_minus = match f.const_value(*a) {
        Some(Const::F64(z)) => *z == 0.0 && (z.is_sign_negative() || f.nsz),
        Some(Const::F32(z)) => *z == 0.0 && (z.is_sign_negative() || f.nsz),
        _ => false,
    };
    if op == SubFloat && zero_minus && f.const_value(*b).is_none() {
        return Some(InstData::Prim {
            op: NegFloat,
            args: vec![*b],
        });
    }
    let (op, args) = match (op, negated(*a), negated(*b)) {
        (MulFloat, Some(na), Some(nb)) => (MulFloat, vec![na, nb]),
        (AddFloat, _, Some(nb)) => (SubFloat, vec![*a, nb]),
        (AddFloat, Some(na), None) => (SubFloat, vec![*b, na]),
        (SubFloat, _, Some(nb)) => (AddFloat, vec![*a, nb]),
        _ => return None,
    };
    // Operands of the same float type (a `neg_float` keeps its operand's type).
    (f.types[args[0]] == f.types[args[1]]).then_some(InstData::Prim { op, args })
}

/// For `op(args)` with a negated operand, `(op', args')` such that `op(args)`
/// is exactly `-(op'(args'))`: `-a * b` and `a * -b` are `-(a * b)` (the sign of a product
/// is the product of the signs); `-a - b` is `-(a + b)` except for the sign of a zero result,
/// so only in `nsz` functions. Moving negations outwards lets the additions and
/// subtractions they reach absorb them ([`without_negation`]).
fn negation_outward(f: &Function, op: ir::Prim, args: &[Value]) -> Option<(ir::Prim, Vec<Value>)> {
    use ir::Prim::*;
    let [a, b] = args else { return None };
    let negated = |v: Value| match f.def_inst(v).map(|i| &f.insts[i]) {
        Some(InstData::Prim { op: NegFloat, args }) => args.first().copied(),
        _ => None,
    };
    let (op, args) = match (op, negated(*a), negated(*b)) {
        (MulFloat, Some(na), None) => (MulFloat, vec![na, *b]),
        (MulFloat, None, Some(nb)) => (MulFloat, vec![*a, nb]),
        // Not where zeros' signs matter: `-0.0 - -0.0` is `0.0`, `-(0.0 + -0.0)` is `-0.0`.
        (SubFloat, Some(na), None) if f.nsz => (AddFloat, vec![na, *b]),
        _ => return None,
    };
    (f.types[args[0]] == f.types[args[1]]).then_some((op, args))
}

/// Removes instructions whose results are unused and that have no effect.
pub struct Dce;

impl Pass for Dce {
    fn name(&self) -> &'static str {
        "dce"
    }

    /// Liveness is computed in full before anything is removed.
    fn idempotent(&self) -> bool {
        true
    }

    fn run(&self, c: &mut Compiler, f: &mut Function) -> Result<bool, CompileError> {
        // Removable: pure instructions, and reads of constant and bound globals (defined, so
        // they cannot raise `UndefVarError`).
        let pure = |i: Inst| match &f.insts[i] {
            InstData::GetGlobal(name) => {
                c.globals.get(name).is_some_and(crate::GlobalInfo::is_fixed)
            }
            d => d.is_pure(),
        };
        // Live values, indexed by value number.
        let mut live = vec![false; f.values.len()];
        let mut work: Vec<Value> = Vec::new();
        let mut mark = |a: Value, work: &mut Vec<Value>| {
            if !std::mem::replace(&mut live[a.as_u32() as usize], true) {
                work.push(a);
            }
        };
        // Roots: operands of effectful instructions and terminators.
        for &b in &f.layout {
            for &i in &f.blocks[b].insts {
                if !pure(i) || f.result(i).is_none() {
                    f.insts[i].for_each_arg(|a| mark(a, &mut work));
                }
            }
        }
        // Operands of live values are live; a live block parameter keeps its incoming args.
        // (Predecessors are computed when the first such parameter is met.)
        let mut preds = None;
        while let Some(v) = work.pop() {
            match f.values[v] {
                ValueDef::Inst(i) => f.insts[i].for_each_arg(|a| mark(a, &mut work)),
                ValueDef::Param(b, k) => {
                    let preds = preds.get_or_insert_with(|| f.predecessors());
                    for &p in &preds[b] {
                        if let Some(t) = f.terminator(p) {
                            for (dest, args) in f.insts[t].successors() {
                                if dest == b {
                                    if let Some(&a) = args.get(k as usize) {
                                        mark(a, &mut work);
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        let live = |v: Value| live[v.as_u32() as usize];
        let mut changed = false;
        for b in f.layout.clone() {
            let before = f.blocks[b].insts.len();
            let insts = std::mem::take(&mut f.blocks[b].insts);
            let kept: Vec<Inst> = insts
                .into_iter()
                .filter(|&i| !(pure(i) && f.result(i).is_some_and(|r| !live(r))))
                .collect();
            changed |= kept.len() != before;
            f.blocks[b].insts = kept;
        }
        // Dead block parameters (not live) are removed with their arguments.
        changed |= remove_params(f, |p| !live(p));
        Ok(changed)
    }
}

/// Removes the block parameters for which `dead` holds, and their incoming arguments.
fn remove_params(f: &mut Function, dead: impl Fn(Value) -> bool) -> bool {
    let entry = f.entry();
    let mut changed = false;
    let mut preds = None;
    for b in f.layout.clone() {
        if b == entry || f.blocks[b].params.is_empty() {
            continue;
        }
        let remove: Vec<bool> = f.blocks[b].params.iter().map(|p| dead(*p)).collect();
        if remove.iter().any(|r| *r) {
            let preds = preds.get_or_insert_with(|| f.predecessors());
            f.remove_block_params(b, &remove, &preds[b]);
            changed = true;
        }
    }
    changed
}

/// CFG simplification: drops unreachable blocks, replaces parameters that always receive the
/// same value, merges a block into its only predecessor, threads jumps through empty blocks,
/// and turns branches whose two ways agree into jumps.
/// Moves a tuple that a block returns, and that nothing else reads, to just before the
/// `return`: a forwards pass builds its `(y, fdata)` result and then saves values for its
/// pullback, and native code builds a tuple straight into the caller's result only when
/// nothing runs between the two. Building a tuple has no effect, so where it happens within
/// its block does not change what the function does.
pub struct SinkReturnedTuples;

impl Pass for SinkReturnedTuples {
    fn name(&self) -> &'static str {
        "sink-returned-tuples"
    }

    fn idempotent(&self) -> bool {
        true
    }

    fn run(&self, _: &mut Compiler, f: &mut Function) -> Result<bool, CompileError> {
        let mut uses: FxHashMap<Value, u32> = FxHashMap::default();
        for &b in &f.layout {
            for &i in &f.blocks[b].insts {
                f.insts[i].for_each_arg(|a| *uses.entry(a).or_default() += 1);
            }
        }
        let mut changed = false;
        for k in 0..f.layout.len() {
            let b = f.layout[k];
            let insts = &f.blocks[b].insts;
            let Some((&ret, body)) = insts.split_last() else {
                continue;
            };
            let InstData::Return(v) = f.insts[ret] else {
                continue;
            };
            if uses.get(&v) != Some(&1) {
                continue;
            }
            let Some(at) = body.iter().position(|&i| {
                f.result(i) == Some(v) && matches!(f.insts[i], InstData::Tuple { .. })
            }) else {
                continue;
            };
            let last = body.len();
            if at + 1 == last {
                continue;
            }
            f.blocks[b].insts[at..last].rotate_left(1);
            changed = true;
        }
        Ok(changed)
    }
}

pub struct SimplifyCfg;

impl Pass for SimplifyCfg {
    fn name(&self) -> &'static str {
        "simplify-cfg"
    }

    /// Rounds repeat until one changes nothing (up to a bound no real function reaches).
    fn idempotent(&self) -> bool {
        true
    }

    fn run(&self, _c: &mut Compiler, f: &mut Function) -> Result<bool, CompileError> {
        // One block: nothing is unreachable, it has no parameters to simplify (the entry's are
        // the arguments), no jump to thread and nothing to merge into it.
        if f.layout.len() == 1 {
            return Ok(same_way_branches(f));
        }
        let mut changed = false;
        for _ in 0..16 {
            let mut round = false;
            // Unreachable blocks.
            let reach: FxHashSet<Block> = f.reverse_postorder().into_iter().collect();
            let before = f.layout.len();
            f.layout.retain(|b| reach.contains(b));
            round |= f.layout.len() != before;
            round |= trivial_params(f);
            round |= thread_jumps(f);
            round |= same_way_branches(f);
            round |= merge_blocks(f);
            if !round {
                break;
            }
            changed = true;
        }
        Ok(changed)
    }
}

/// A parameter whose incoming values are all one value (or itself) is replaced by it; one
/// whose incoming values are all one constant, also through other parameters (see
/// `const_params`), by that constant made in its block.
fn trivial_params(f: &mut Function) -> bool {
    let incoming = incoming_values(f);
    let mut alias: FxHashMap<Value, Value> = FxHashMap::default();
    for (&p, (_, ins)) in &incoming {
        let Some(&u) = ins.first() else { continue };
        // The replacement must have a type at least as precise.
        if ins.iter().all(|a| *a == u)
            && (f.types[u] == f.types[p] || matches!(f.types[p], Type::Any))
        {
            alias.insert(p, u);
        }
    }
    let mut consts: Vec<(Block, Value, Const)> = const_params(f, &incoming)
        .into_iter()
        .filter(|(_, p, _)| !alias.contains_key(p))
        .collect();
    consts.sort_by_key(|(_, p, _)| *p);
    for (b, p, c) in consts {
        let loc = f.blocks[b]
            .insts
            .first()
            .map(|i| f.locs[*i])
            .unwrap_or_default();
        let (ci, cv) = f.make_inst(InstData::Const(c), f.types[p].clone(), loc);
        f.blocks[b].insts.insert(0, ci);
        if let Some(cv) = cv {
            alias.insert(p, cv);
        }
    }
    if alias.is_empty() {
        return false;
    }
    apply_aliases(f, &alias);
    remove_params(f, |p| alias.contains_key(&p));
    true
}

/// Each parameter of a block other than the entry: its block and the values its incoming
/// edges pass (not itself).
fn incoming_values(f: &Function) -> FxHashMap<Value, (Block, Vec<Value>)> {
    let preds = f.predecessors();
    let entry = f.entry();
    let mut incoming = FxHashMap::default();
    for &b in &f.layout {
        if b == entry {
            continue;
        }
        for (k, &p) in f.blocks[b].params.iter().enumerate() {
            let mut ins = Vec::new();
            for &pred in &preds[b] {
                let Some(t) = f.terminator(pred) else {
                    continue;
                };
                for (dest, args) in f.insts[t].successors() {
                    if dest == b && args[k] != p {
                        ins.push(args[k]);
                    }
                }
            }
            incoming.insert(p, (b, ins));
        }
    }
    incoming
}

/// Parameters whose incoming values are all one constant of their type once other parameters
/// are seen through: equal constants on every edge, or a loop-carried value that is the same
/// constant on every edge (`p = φ(0.0, q)`, `q = φ(0.0, p)`, as a pullback's zero cotangent
/// of a variable the loop never reads). An optimistic fixed point: every parameter starts
/// unknown and is lowered to a constant, or to "varies", by its incoming values.
fn const_params(
    f: &Function,
    incoming: &FxHashMap<Value, (Block, Vec<Value>)>,
) -> Vec<(Block, Value, Const)> {
    // `None`: varies; absent: not known yet.
    let mut state: FxHashMap<Value, Option<Const>> = FxHashMap::default();
    loop {
        let mut changed = false;
        for (&p, (_, ins)) in incoming {
            if matches!(state.get(&p), Some(None)) {
                continue;
            }
            let mut acc: Option<Option<Const>> = None;
            for &a in ins {
                let va: Option<Const> = if incoming.contains_key(&a) {
                    match state.get(&a) {
                        None => continue,
                        Some(v) => v.clone(),
                    }
                } else {
                    f.const_value(a)
                        .filter(|_| f.types[a] == f.types[p])
                        .cloned()
                };
                acc = match (acc, va) {
                    (None, v) => Some(v),
                    (Some(Some(x)), Some(y)) if x == y => Some(Some(x)),
                    _ => Some(None),
                };
            }
            if let Some(v) = acc {
                if state.get(&p) != Some(&v) {
                    state.insert(p, v);
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    state
        .into_iter()
        .filter_map(|(p, v)| Some((incoming[&p].0, p, v?)))
        .collect()
}

/// A block with no parameters whose only instruction is `jump C(args)` is bypassed.
fn thread_jumps(f: &mut Function) -> bool {
    let entry = f.entry();
    let mut target: FxHashMap<Block, (Block, Vec<Value>)> = FxHashMap::default();
    for &b in &f.layout {
        if b == entry || !f.blocks[b].params.is_empty() || f.blocks[b].insts.len() != 1 {
            continue;
        }
        if let InstData::Jump { dest, args } = &f.insts[f.blocks[b].insts[0]] {
            if *dest != b {
                target.insert(b, (*dest, args.clone()));
            }
        }
    }
    if target.is_empty() {
        return false;
    }
    let mut changed = false;
    for b in f.layout.clone() {
        let Some(t) = f.terminator(b) else { continue };
        match &mut f.insts[t] {
            InstData::Jump { dest, args } => {
                if let Some((d, a)) = target.get(dest) {
                    if args.is_empty() && *d != *dest {
                        *dest = *d;
                        *args = a.clone();
                        changed = true;
                    }
                }
            }
            InstData::Branch {
                then_dest,
                then_args,
                else_dest,
                else_args,
                ..
            } => {
                if let Some((d, a)) = target.get(then_dest) {
                    if then_args.is_empty() {
                        *then_dest = *d;
                        *then_args = a.clone();
                        changed = true;
                    }
                }
                if let Some((d, a)) = target.get(else_dest) {
                    if else_args.is_empty() {
                        *else_dest = *d;
                        *else_args = a.clone();
                        changed = true;
                    }
                }
            }
            _ => {}
        }
    }
    changed
}

/// A branch whose two ways go to one block with the same arguments becomes a jump.
fn same_way_branches(f: &mut Function) -> bool {
    let mut changed = false;
    for b in f.layout.clone() {
        let Some(t) = f.terminator(b) else { continue };
        if let InstData::Branch {
            then_dest,
            then_args,
            else_dest,
            else_args,
            ..
        } = &f.insts[t]
        {
            if then_dest == else_dest && then_args == else_args {
                f.insts[t] = InstData::Jump {
                    dest: *then_dest,
                    args: then_args.clone(),
                };
                changed = true;
            }
        }
    }
    changed
}

/// Merges B into A when A ends with `jump B` and is B's only predecessor; chains of such
/// blocks merge in one sweep, and B's parameters become the jump's arguments everywhere.
fn merge_blocks(f: &mut Function) -> bool {
    let entry = f.entry();
    let mut preds = f.predecessors();
    let mut alias: FxHashMap<Value, Value> = FxHashMap::default();
    let mut gone: FxHashSet<Block> = FxHashSet::default();
    for a in f.layout.clone() {
        if gone.contains(&a) {
            continue;
        }
        while let Some(t) = f.terminator(a) {
            let InstData::Jump { dest: b, args } = &f.insts[t] else {
                break;
            };
            let b = *b;
            if b == a || b == entry || preds[b].len() != 1 {
                break;
            }
            for (p, v) in f.blocks[b].params.iter().zip(args.iter()) {
                alias.insert(*p, *v);
            }
            f.blocks[a].insts.pop();
            let moved = std::mem::take(&mut f.blocks[b].insts);
            f.blocks[a].insts.extend(moved);
            f.blocks[b].params.clear();
            gone.insert(b);
            // B's successors now have A for a predecessor.
            for s in f.successors(a) {
                for p in preds[s].iter_mut().filter(|p| **p == b) {
                    *p = a;
                }
            }
        }
    }
    if gone.is_empty() {
        return false;
    }
    f.layout.retain(|x| !gone.contains(x));
    apply_aliases(f, &alias);
    true
}
