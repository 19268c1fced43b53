//! Facts from branch conditions: where only the true way of `x == c` (or the false way of
//! `x != c`) leads, for an integer `x` and a constant `c`, `x` is `c`.
//!
//! The same holds for another query `arraysize(a, d)` repeating `x = arraysize(a, d)` where
//! nothing between the two can resize an array.
//!
//! Typical source: a size check (`size(a, 1) == size(b, 1) || throw(DimensionMismatch(...))`)
//! against an array whose size is known: after it, the other array's size is known too, and
//! loops over it have a constant trip count.

use super::Pass;
use crate::{CompileError, Compiler};
use ir::{Block, Const, Function, Inst, InstData, Prim, Value};
use rustc_hash::FxHashMap;

pub struct BranchFacts;

impl Pass for BranchFacts {
    fn name(&self) -> &'static str {
        "branch-facts"
    }

    fn run(&self, _c: &mut Compiler, f: &mut Function) -> Result<bool, CompileError> {
        // (block where the fact holds, the value, the constant it equals)
        let mut facts: Vec<(Block, Value, Value)> = Vec::new();
        let mut preds = None;
        for &b in &f.layout {
            let Some(t) = f.terminator(b) else { continue };
            let InstData::Branch {
                cond,
                then_dest,
                else_dest,
                ..
            } = &f.insts[t]
            else {
                continue;
            };
            if then_dest == else_dest {
                continue;
            }
            let Some(InstData::Prim { op, args }) = f.def_inst(*cond).map(|i| &f.insts[i]) else {
                continue;
            };
            let dest = match op {
                Prim::EqInt => *then_dest,
                Prim::NeInt => *else_dest,
                _ => continue,
            };
            let is_int = |v: Value| matches!(f.const_value(v), Some(Const::Int(_)));
            let (x, k) = match args.as_slice() {
                [x, k] if is_int(*k) && !is_int(*x) => (*x, *k),
                [k, x] if is_int(*k) && !is_int(*x) => (*x, *k),
                _ => continue,
            };
            if f.types[x] != f.types[k] {
                continue;
            }
            let preds = preds.get_or_insert_with(|| f.predecessors());
            if preds[dest].len() == 1 {
                facts.push((dest, x, k));
            }
        }
        if facts.is_empty() {
            return Ok(false);
        }
        let dom = ir::dominators::DomTree::compute(f);
        let preds = f.predecessors();
        // The facts of each block, applied to the blocks it dominates by a walk down the
        // dominator tree (each fact is in force below its block only).
        let mut at: FxHashMap<Block, Vec<(Value, Value)>> = FxHashMap::default();
        for (b, x, k) in facts {
            at.entry(b).or_default().push((x, k));
        }
        let mut children: FxHashMap<Block, Vec<Block>> = FxHashMap::default();
        for &b in dom.rpo() {
            if let Some(p) = dom.idom(b) {
                children.entry(p).or_default().push(b);
            }
        }
        // value → (the constant it equals, the size query it answers, if it is one)
        let mut known: FxHashMap<Value, Value> = FxHashMap::default();
        let mut queries: Vec<(Inst, [Value; 2], Value)> = Vec::new();
        let mut same: Vec<(Inst, Value)> = Vec::new();
        let mut changed = false;
        // (block, where the facts in force before it end in `undo` and `queries`; entering if
        // `None`): leaving a block restores what was known before it.
        let mut undo: Vec<(Value, Option<Value>)> = Vec::new();
        let mut stack: Vec<(Block, Option<(usize, usize)>)> = vec![(f.entry(), None)];
        while let Some((b, leaving)) = stack.pop() {
            if let Some((u, q)) = leaving {
                for (x, prev) in undo.drain(u..).rev() {
                    match prev {
                        Some(k) => known.insert(x, k),
                        None => known.remove(&x),
                    };
                }
                queries.truncate(q);
                continue;
            }
            let before = (undo.len(), queries.len());
            for &(x, k) in at.get(&b).map(Vec::as_slice).unwrap_or(&[]) {
                undo.push((x, known.insert(x, k)));
                if let Some((xd, q)) = size_query(f, x) {
                    queries.push((xd, q, k));
                }
            }
            for (pos, &i) in f.blocks[b].insts.iter().enumerate() {
                f.insts[i].map_args(|a| match known.get(&a) {
                    Some(&k) => {
                        changed = true;
                        k
                    }
                    None => a,
                });
                if let InstData::Prim {
                    op: Prim::ArraySize,
                    args,
                } = &f.insts[i]
                {
                    let hit = queries.iter().find(|(xd, q, _)| {
                        args[0] == q[0]
                            && f.const_value(args[1]) == f.const_value(q[1])
                            && unresized_between(f, &preds, *xd, b, pos)
                    });
                    if let Some(&(_, _, k)) = hit {
                        same.push((i, k));
                    }
                }
            }
            stack.push((b, Some(before)));
            for &c in children.get(&b).map(Vec::as_slice).unwrap_or(&[]) {
                stack.push((c, None));
            }
        }
        for (i, k) in same {
            if let Some(c) = f.const_value(k).cloned() {
                f.insts[i] = InstData::Const(c);
                changed = true;
            }
        }
        Ok(changed)
    }
}

/// The instruction computing `x = arraysize(a, d)` and its operands `[a, d]`, `d` a constant.
fn size_query(f: &Function, x: Value) -> Option<(Inst, [Value; 2])> {
    let i = f.def_inst(x)?;
    let InstData::Prim {
        op: Prim::ArraySize,
        args,
    } = &f.insts[i]
    else {
        return None;
    };
    f.const_value(args[1])?;
    Some((i, [args[0], args[1]]))
}

/// Whether nothing that can resize an array runs after the instruction `def` and before the
/// instruction at `pos` in block `b`, on any path between them that does not run `def` again.
/// (`def` dominates `b`.)
pub(crate) fn unresized_between(
    f: &Function,
    preds: &cranelift_entity::SecondaryMap<Block, ir::Preds>,
    def: Inst,
    b: Block,
    pos: usize,
) -> bool {
    let resizes = |insts: &[Inst]| insts.iter().any(|i| ir::bounds::resizes(&f.insts[*i]));
    let at = &f.blocks[b].insts;
    if let Some(d) = at.iter().position(|i| *i == def) {
        return d < pos && !resizes(&at[d + 1..pos]);
    }
    if resizes(&at[..pos]) {
        return false;
    }
    let mut seen: rustc_hash::FxHashSet<Block> = rustc_hash::FxHashSet::default();
    let mut work: Vec<Block> = preds[b].to_vec();
    while let Some(p) = work.pop() {
        if !seen.insert(p) {
            continue;
        }
        let insts = &f.blocks[p].insts;
        if let Some(d) = insts.iter().position(|i| *i == def) {
            if resizes(&insts[d + 1..]) {
                return false;
            }
            continue;
        }
        // A path through `b` again would run its instructions after `pos`.
        if p == b || resizes(insts) {
            return false;
        }
        work.extend(preds[p].iter().copied());
    }
    true
}
