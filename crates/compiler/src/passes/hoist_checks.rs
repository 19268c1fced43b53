//! Range checks hoisted out of pullbacks' loops, so that native code can skip the checks of
//! each iteration.
//!
//! A pullback replays a forwards-pass loop backwards: its header counts a parameter `p` down
//! from the forwards pass's trip count `n` (`p > 0` enters the body, the back edge passes
//! `p - s`), and the body reads and writes float vectors at `p + k`. Before the loop, this pass
//! checks `n ≤ length(A) - k` for each such vector `A` (its largest `k`): past the checks,
//! `ir::bounds` knows `p ≤ n ≤ length(A) - k`, so every access is in range. When a check fails
//! and the loop would run (`n ≥ 1`), the pass performs the access of the first iteration,
//! `A[n + k]`, which raises the `BoundsError` that iteration would have raised; when the loop
//! would not run, it goes to the loop's exit as the header would.
//!
//! Conditions, so that the first iteration really performs the hoisted access: the access's
//! block dominates every back edge, no block of the body but the header leaves the loop, and
//! the header does nothing but compare `0 < p` (and make constants); and, so that the exit can
//! be entered around the loop, no block outside the loop uses a value of the header (other
//! than through the exit's arguments). The one difference from
//! the loop as written: when the first iteration would raise another error before reaching
//! the access, the `BoundsError` comes first. Pullbacks only (functions marked `nsz`), whose
//! indices replay the forwards pass's, which were in range: a failing check means the
//! arguments' fdata do not match their primals.

use super::Pass;
use crate::{CompileError, Compiler};
use ir::bounds::plus_const;
use ir::dominators::{natural_loops, DomTree};
use ir::{Block, Const, Function, InstData, Prim, Type, Value, ValueDef};
use rustc_hash::FxHashSet;

pub struct HoistRangeChecks;

impl Pass for HoistRangeChecks {
    fn name(&self) -> &'static str {
        "hoist-range-checks"
    }

    fn run(&self, _: &mut Compiler, f: &mut Function) -> Result<bool, CompileError> {
        if !f.nsz {
            return Ok(false);
        }
        let mut done: FxHashSet<Block> = FxHashSet::default();
        let mut changed = false;
        // One loop at a time: inserting checks changes the blocks around the loops.
        'again: loop {
            for (h, body) in natural_loops(f) {
                if done.insert(h) {
                    if let Some(plan) = plan(f, h, &body) {
                        insert(f, plan);
                        changed = true;
                        continue 'again;
                    }
                }
            }
            return Ok(changed);
        }
    }
}

/// What to insert before one loop.
struct Plan {
    /// The block jumping into the header from outside the loop.
    pre: Block,
    /// The value the counter enters with.
    n: Value,
    /// Each vector with the largest offset it is accessed at, in order of first access.
    checks: Vec<(Value, i64, Type)>,
    /// The header's exit: its target and arguments, header parameters and constants of the
    /// header replaced by what they are on entry.
    exit: (Block, Vec<Value>),
    loc: syntax::Span,
}

fn plan(f: &Function, h: Block, body: &FxHashSet<Block>) -> Option<Plan> {
    let preds = f.predecessors();
    let pre = ir::dominators::preheader(f, &preds, h, body)?;
    let InstData::Jump {
        args: entry_args, ..
    } = &f.insts[f.terminator(pre)?]
    else {
        return None;
    };
    // The header: constants, `0 < p`, and a branch into the body or out of the loop.
    let hb = &f.blocks[h];
    let (&term, rest) = hb.insts.split_last()?;
    let InstData::Branch {
        cond,
        then_dest,
        then_args,
        else_dest,
        else_args,
    } = &f.insts[term]
    else {
        return None;
    };
    if !body.contains(then_dest) || body.contains(else_dest) || !then_args.is_empty() {
        return None;
    }
    let mut p = None;
    for &i in rest {
        match &f.insts[i] {
            InstData::Const(_) => {}
            InstData::Prim {
                op: Prim::SltInt,
                args,
            } if f.result(i) == Some(*cond)
                && matches!(f.const_value(args[0]), Some(Const::Int(0))) =>
            {
                p = Some(args[1]);
            }
            _ => return None,
        }
    }
    let p = p?;
    let pk = hb.params.iter().position(|x| *x == p)?;
    let n = *entry_args.get(pk)?;
    // Back edges pass `p - s`; nothing but the header leaves the loop.
    let latches: Vec<Block> = preds[h]
        .iter()
        .copied()
        .filter(|b| body.contains(b))
        .collect();
    for &l in &latches {
        let InstData::Jump { args, .. } = &f.insts[f.terminator(l)?] else {
            return None;
        };
        match plus_const(f, *args.get(pk)?) {
            Some((x, c)) if x == p && (-16..=-1).contains(&c) => {}
            _ => return None,
        }
    }
    for &b in body {
        if b != h && f.successors(b).iter().any(|s| !body.contains(s)) {
            return None;
        }
    }
    // Outside the loop, nothing may use the header's values: the exit gets a second way in
    // (the loop not running), which the header no longer dominates.
    let in_header: FxHashSet<Value> = hb
        .params
        .iter()
        .copied()
        .chain(hb.insts.iter().filter_map(|i| f.result(*i)))
        .collect();
    for &b in &f.layout {
        if body.contains(&b) {
            continue;
        }
        for &i in &f.blocks[b].insts {
            let mut uses = false;
            f.insts[i].for_each_arg(|a| uses |= in_header.contains(&a));
            if uses {
                return None;
            }
        }
    }
    // The exit's arguments on entry.
    let on_entry = |v: Value| -> Option<Value> {
        match f.values[v] {
            ValueDef::Param(b, k) if b == h => entry_args.get(k as usize).copied(),
            ValueDef::Inst(i) if hb.insts.contains(&i) => None,
            _ => Some(v),
        }
    };
    let mut exit_args = Vec::new();
    for &a in else_args {
        exit_args.push(on_entry(a)?);
    }
    // Float vectors defined outside the loop, accessed at `p + k` (`k ≥ 0`) in blocks that
    // run on every trip.
    let dom = DomTree::compute(f);
    let mut checks: Vec<(Value, i64, Type)> = Vec::new();
    let mut order: Vec<Block> = body.iter().copied().collect();
    order.sort_by_key(|b| dom.rpo_index(*b));
    for b in order {
        if b == h || !latches.iter().all(|l| dom.dominates(b, *l)) {
            continue;
        }
        for &i in &f.blocks[b].insts {
            let (arr, idx) = match &f.insts[i] {
                InstData::Prim {
                    op: Prim::ArrayRef,
                    args,
                } if args.len() == 2 => (args[0], args[1]),
                InstData::Prim {
                    op: Prim::ArraySet,
                    args,
                } if args.len() == 3 => (args[0], args[2]),
                _ => continue,
            };
            let elem = match &f.types[arr] {
                Type::Array(e, 1) if matches!(**e, Type::Float64 | Type::Float32) => (**e).clone(),
                _ => continue,
            };
            let defined_outside = match f.values[arr] {
                ValueDef::Param(pb, _) => !body.contains(&pb),
                ValueDef::Inst(di) => !body.iter().any(|bb| f.blocks[*bb].insts.contains(&di)),
            };
            if !defined_outside {
                continue;
            }
            let Some(k) = offset_from(f, idx, p) else {
                continue;
            };
            if k < 0 {
                continue;
            }
            match checks.iter_mut().find(|(a, _, _)| *a == arr) {
                Some(c) => c.1 = c.1.max(k),
                None => checks.push((arr, k, elem)),
            }
        }
    }
    if checks.is_empty() {
        return None;
    }
    Some(Plan {
        pre,
        n,
        checks,
        exit: (*else_dest, exit_args),
        loc: f.locs[term],
    })
}

/// `k` if `v` is `p + k` through constant additions and subtractions.
fn offset_from(f: &Function, mut v: Value, p: Value) -> Option<i64> {
    let mut k: i64 = 0;
    for _ in 0..8 {
        if v == p {
            return Some(k);
        }
        let (x, c) = plus_const(f, v)?;
        k = k.checked_add(c)?;
        v = x;
    }
    None
}

/// Appends instructions at `loc` to blocks of `f`.
struct Emit<'a> {
    f: &'a mut Function,
    loc: syntax::Span,
}

impl Emit<'_> {
    fn prim(&mut self, b: Block, op: Prim, args: Vec<Value>, ty: Type) -> Value {
        let r = self.f.append(b, InstData::Prim { op, args }, ty, self.loc);
        r.unwrap_or_else(|| unreachable!("a primitive with a result"))
    }

    fn int(&mut self, b: Block, c: i64) -> Value {
        let r = self
            .f
            .append(b, InstData::Const(Const::Int(c)), Type::Int64, self.loc);
        r.unwrap_or_else(|| unreachable!("a constant has a result"))
    }

    fn branch(&mut self, b: Block, cond: Value, then_dest: Block, else_dest: (Block, Vec<Value>)) {
        let data = InstData::Branch {
            cond,
            then_dest,
            then_args: vec![],
            else_dest: else_dest.0,
            else_args: else_dest.1,
        };
        self.f.append(b, data, Type::Nothing, self.loc);
    }

    /// `n ≤ length(arr) - k`, computed in block `b`.
    fn within(&mut self, b: Block, n: Value, arr: Value, k: i64) -> Value {
        let len = self.prim(b, Prim::ArrayLen, vec![arr], Type::Int64);
        let lim = self.plus(b, len, -k);
        self.prim(b, Prim::SleInt, vec![n, lim], Type::Bool)
    }

    /// `x + k`, computed in block `b` (`x` itself for 0).
    fn plus(&mut self, b: Block, x: Value, k: i64) -> Value {
        if k == 0 {
            return x;
        }
        let kv = self.int(b, k);
        self.prim(b, Prim::AddInt, vec![x, kv], Type::Int64)
    }
}

fn insert(f: &mut Function, plan: Plan) {
    let Plan {
        pre,
        n,
        checks,
        exit,
        loc,
    } = plan;
    let term = f.blocks[pre].insts.pop().unwrap_or_else(|| unreachable!());
    let mut e = Emit { f, loc };
    // `n ≤ length(A) - k` for each vector, in a chain of blocks each entered from the last.
    // A failing check's block: the loop's first trip (if it runs) raises the error of its
    // first out-of-range access, reading only that vector (the others may be empty or too
    // short in ways their own checks report); if it does not run, on to the exit.
    let mut cur = pre;
    for (arr, k, elem) in &checks {
        let ok = e.within(cur, n, *arr, *k);
        let next = e.f.add_block();
        let bad = e.f.add_block();
        e.branch(cur, ok, next, (bad, vec![]));
        let zero = e.int(bad, 0);
        let runs = e.prim(bad, Prim::SltInt, vec![zero, n], Type::Bool);
        let raise = e.f.add_block();
        e.branch(bad, runs, raise, exit.clone());
        let idx = e.plus(raise, n, *k);
        e.prim(raise, Prim::ArrayRef, vec![*arr, idx], elem.clone());
        e.f.append(raise, InstData::Unreachable, Type::Nothing, loc);
        cur = next;
    }
    e.f.blocks[cur].insts.push(term);
}
