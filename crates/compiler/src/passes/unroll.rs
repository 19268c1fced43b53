//! Full unrolling of loops with a small constant trip count (`for i in 1:3`, or a loop over
//! an array whose size constant propagation found), so that the indices in their bodies
//! become constants: the loops over the elements of a small array disappear, and with them
//! the array (scalar replacement).
//!
//! A loop qualifies when its header has one predecessor outside it and one latch, an
//! integer parameter entering as a constant and stepped by a constant (`add_int`), and a
//! branch whose condition constant folding evaluates from that parameter alone; its only way
//! out, other than towards an error (cold blocks), is the header's branch. The loop's blocks
//! (and the cold blocks only it reaches) are copied once per trip: trip `k`'s latch jumps to
//! trip `k + 1`'s header, each header jumps straight into its body, and a last copy of the
//! header leaves the loop. Values defined in the header that are used after the loop are the
//! last copy's.

use super::Pass;
use crate::{CompileError, Compiler};
use ir::{Block, Const, Function, Inst, InstData, Prim, Type, Value};
use rustc_hash::{FxHashMap, FxHashSet};

pub struct Unroll;

/// Loops running more trips than this stay loops.
pub const MAX_TRIPS: i64 = 16;
/// At most this many instructions are copied into one function.
const MAX_COPIED: usize = 800;

impl Pass for Unroll {
    fn name(&self) -> &'static str {
        "unroll"
    }

    fn run(&self, _c: &mut Compiler, f: &mut Function) -> Result<bool, CompileError> {
        let mut budget = MAX_COPIED;
        let mut changed = false;
        // Innermost loops first. Copying a loop changes the blocks of the loops around it, so
        // a round unrolls only loops apart from those it already unrolled (their blocks, the
        // dominator tree and the cold blocks stay as computed); the next round sees the rest.
        loop {
            let loops = ir::dominators::natural_loops(f);
            if loops.is_empty() {
                break;
            }
            let cold = f.cold_blocks();
            let dom = ir::dominators::DomTree::compute(f);
            let mut touched: FxHashSet<Block> = FxHashSet::default();
            for (h, body) in &loops {
                if body.iter().any(|b| touched.contains(b)) {
                    continue;
                }
                if let Some(plan) = plan(f, *h, body, &cold, &dom) {
                    if plan.cost > budget {
                        continue;
                    }
                    budget -= plan.cost;
                    touched.extend(plan.region.iter().copied());
                    unroll(f, &plan);
                }
            }
            if touched.is_empty() {
                break;
            }
            changed = true;
        }
        Ok(changed)
    }
}

struct Plan {
    header: Block,
    latch: Block,
    /// The loop's blocks and the cold blocks only it reaches, in layout order.
    region: Vec<Block>,
    /// The header's way into the body and out of the loop.
    into: (Block, Vec<Value>),
    out: (Block, Vec<Value>),
    trips: usize,
    cost: usize,
}

fn plan(
    f: &Function,
    h: Block,
    body: &FxHashSet<Block>,
    cold: &FxHashSet<Block>,
    dom: &ir::dominators::DomTree,
) -> Option<Plan> {
    let preds = f.predecessors();
    let (mut outside, mut inside) = (Vec::new(), Vec::new());
    for &p in &preds[h] {
        if body.contains(&p) {
            inside.push(p);
        } else {
            outside.push(p);
        }
    }
    let ([pre], [latch]) = (outside.as_slice(), inside.as_slice()) else {
        return None;
    };
    let InstData::Branch {
        cond,
        then_dest,
        then_args,
        else_dest,
        else_args,
    } = &f.insts[f.terminator(h)?]
    else {
        return None;
    };
    let (into, out, exit_when) = match (body.contains(then_dest), body.contains(else_dest)) {
        (true, false) => (
            (*then_dest, then_args.clone()),
            (*else_dest, else_args.clone()),
            false,
        ),
        (false, true) => (
            (*else_dest, else_args.clone()),
            (*then_dest, then_args.clone()),
            true,
        ),
        _ => return None,
    };
    // The induction parameter: a constant on entry, stepped by a constant.
    let edge_args = |from: Block| -> Option<Vec<Value>> {
        let t = f.terminator(from)?;
        let mut edges = f.insts[t].successors().into_iter().filter(|(d, _)| *d == h);
        let (Some((_, args)), None) = (edges.next(), edges.next()) else {
            return None;
        };
        Some(args.to_vec())
    };
    let (entry_args, back_args) = (edge_args(*pre)?, edge_args(*latch)?);
    let params = &f.blocks[h].params;
    let int_const = |v: Value| match f.const_value(v) {
        Some(Const::Int(k)) => Some(*k),
        _ => None,
    };
    let mut induction = None;
    for (k, &p) in params.iter().enumerate() {
        let Some(start) = int_const(entry_args[k]) else {
            continue;
        };
        let Some(InstData::Prim {
            op: Prim::AddInt,
            args,
        }) = f.def_inst(back_args[k]).map(|i| &f.insts[i])
        else {
            continue;
        };
        let step = match args.as_slice() {
            [a, s] if *a == p => int_const(*s),
            [s, a] if *a == p => int_const(*s),
            _ => None,
        };
        if let Some(step) = step {
            induction = Some((p, start, step));
            break;
        }
    }
    let (p, start, step) = induction?;
    // Simulate the header's test.
    let mut cur = start;
    let mut trips = None;
    for t in 0..=MAX_TRIPS {
        let mut memo = FxHashMap::default();
        let Some(Const::Bool(c)) = eval(f, h, *cond, p, cur, &mut memo, 0) else {
            return None;
        };
        if c == exit_when {
            trips = Some(t as usize);
            break;
        }
        cur = cur.checked_add(step)?;
    }
    let trips = trips?;
    // The only ways out: the header's exit, or towards an error.
    let mut region: FxHashSet<Block> = body.clone();
    let mut work: Vec<Block> = Vec::new();
    for &b in body {
        for s in f.successors(b) {
            if body.contains(&s) || (b == h && s == out.0) {
                continue;
            }
            if !cold.contains(&s) {
                return None;
            }
            work.push(s);
        }
    }
    // Cold blocks only the loop reaches are copied with it (they may use its values).
    while let Some(b) = work.pop() {
        if dom.dominates(h, b) && region.insert(b) {
            work.extend(f.successors(b));
        }
    }
    let region: Vec<Block> = f
        .layout
        .iter()
        .copied()
        .filter(|b| region.contains(b))
        .collect();
    let size = f.work_in(region.iter());
    Some(Plan {
        header: h,
        latch: *latch,
        region,
        into,
        out,
        trips,
        cost: size * trips.max(1),
    })
}

/// The constant `v` has when the header parameter `p` is `cur`: from constants and the
/// header's own foldable primitives.
fn eval(
    f: &Function,
    h: Block,
    v: Value,
    p: Value,
    cur: i64,
    memo: &mut FxHashMap<Value, Option<Const>>,
    depth: u32,
) -> Option<Const> {
    if v == p {
        return Some(Const::Int(cur));
    }
    if let Some(k) = f.const_value(v) {
        return Some(k.clone());
    }
    if depth > 16 {
        return None;
    }
    if let Some(k) = memo.get(&v) {
        return k.clone();
    }
    let i = f.def_inst(v)?;
    if !f.blocks[h].insts.contains(&i) {
        return None;
    }
    let InstData::Prim { op, args } = &f.insts[i] else {
        return None;
    };
    let cs: Option<Vec<Const>> = args
        .iter()
        .map(|a| eval(f, h, *a, p, cur, memo, depth + 1))
        .collect();
    let r = ir::fold::fold_prim(*op, &cs?);
    memo.insert(v, r.clone());
    r
}

fn unroll(f: &mut Function, plan: &Plan) {
    let h = plan.header;
    let n = plan.trips;
    // Copies 1..=n (copy 0 is the loop itself); the last is the header alone.
    let mut bmaps: Vec<FxHashMap<Block, Block>> = vec![FxHashMap::default()];
    let mut vmaps: Vec<FxHashMap<Value, Value>> = vec![FxHashMap::default()];
    let mut new_insts: Vec<Vec<Inst>> = vec![Vec::new()];
    let mut layout_new: Vec<Block> = Vec::new();
    for k in 1..=n {
        let blocks: Vec<Block> = if k == n { vec![h] } else { plan.region.clone() };
        let mut bmap = FxHashMap::default();
        let mut vmap = FxHashMap::default();
        let mut insts = Vec::new();
        for &b in &blocks {
            let nb = f.blocks.push(Default::default());
            layout_new.push(nb);
            bmap.insert(b, nb);
            for p in f.blocks[b].params.clone() {
                let np = f.add_block_param(nb, f.types[p].clone());
                f.names[np] = f.names[p];
                vmap.insert(p, np);
            }
        }
        for &b in &blocks {
            let nb = bmap[&b];
            for i in f.blocks[b].insts.clone() {
                let ty = f.result(i).map(|r| f.types[r].clone()).unwrap_or(Type::Any);
                let (ni, nv) = f.make_inst(f.insts[i].clone(), ty, f.locs[i]);
                f.inlined_at[ni] = f.inlined_at[i];
                if let (Some(r), Some(nv)) = (f.result(i), nv) {
                    f.names[nv] = f.names[r];
                    vmap.insert(r, nv);
                }
                f.blocks[nb].insts.push(ni);
                insts.push(ni);
            }
        }
        bmaps.push(bmap);
        vmaps.push(vmap);
        new_insts.push(insts);
    }
    // Operands and edges of the copies.
    for k in 1..=n {
        for &ni in &new_insts[k] {
            let vmap = &vmaps[k];
            f.insts[ni].map_args(|a| vmap.get(&a).copied().unwrap_or(a));
            let (bmap, next) = (&bmaps[k], bmaps.get(k + 1));
            f.insts[ni].map_successors(|s| {
                if s == h {
                    next.map_or(s, |m| m[&h])
                } else {
                    bmap.get(&s).copied().unwrap_or(s)
                }
            });
        }
    }
    // The loop itself is trip 0: its latch goes on to trip 1.
    if n >= 1 {
        let t = f.terminator(plan.latch).unwrap_or_else(|| unreachable!());
        let h1 = bmaps[1][&h];
        f.insts[t].map_successors(|s| if s == h { h1 } else { s });
    }
    // Each header goes straight into its body; the last leaves the loop.
    for k in 0..=n {
        let hk = if k == 0 { h } else { bmaps[k][&h] };
        let vmap = &vmaps[k];
        let m = |v: &Value| vmap.get(v).copied().unwrap_or(*v);
        let (dest, args) = if k == n {
            (plan.out.0, plan.out.1.iter().map(m).collect())
        } else {
            let d = if k == 0 {
                plan.into.0
            } else {
                bmaps[k][&plan.into.0]
            };
            (d, plan.into.1.iter().map(m).collect())
        };
        let t = f.terminator(hk).unwrap_or_else(|| unreachable!());
        f.insts[t] = InstData::Jump { dest, args };
    }
    // After the loop, the header's values are the last copy's.
    if n >= 1 {
        let region: FxHashSet<Block> = plan.region.iter().copied().collect();
        let last = &vmaps[n];
        let copies: FxHashSet<Block> = layout_new.iter().copied().collect();
        for b in f.layout.clone() {
            if region.contains(&b) || copies.contains(&b) {
                continue;
            }
            for &i in &f.blocks[b].insts {
                f.insts[i].map_args(|a| last.get(&a).copied().unwrap_or(a));
            }
        }
    }
    // Layout: the copies after the loop's last block.
    let at = f
        .layout
        .iter()
        .rposition(|b| plan.region.contains(b))
        .map_or(f.layout.len(), |p| p + 1);
    f.layout.splice(at..at, layout_new);
}
