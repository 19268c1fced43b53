//! Dominator tree (Cooper, Harvey and Kennedy's iterative algorithm over reverse post-order).

use crate::function::{Block, Function};
use cranelift_entity::SecondaryMap;

pub struct DomTree {
    idom: SecondaryMap<Block, Option<Block>>,
    rpo_index: SecondaryMap<Block, u32>,
    reachable: SecondaryMap<Block, bool>,
    rpo: Vec<Block>,
}

impl DomTree {
    pub fn compute(func: &Function) -> DomTree {
        let rpo = func.reverse_postorder();
        let mut rpo_index: SecondaryMap<Block, u32> = SecondaryMap::new();
        let mut reachable: SecondaryMap<Block, bool> = SecondaryMap::new();
        for (i, &b) in rpo.iter().enumerate() {
            rpo_index[b] = i as u32;
            reachable[b] = true;
        }
        let preds = func.predecessors();
        let mut idom: SecondaryMap<Block, Option<Block>> = SecondaryMap::new();
        let entry = func.entry();
        idom[entry] = Some(entry);
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new_idom: Option<Block> = None;
                for &p in &preds[b] {
                    if !reachable[p] || idom[p].is_none() {
                        continue;
                    }
                    new_idom = Some(match new_idom {
                        None => p,
                        Some(cur) => intersect(&idom, &rpo_index, p, cur),
                    });
                }
                if new_idom.is_some() && idom[b] != new_idom {
                    idom[b] = new_idom;
                    changed = true;
                }
            }
        }
        DomTree {
            idom,
            rpo_index,
            reachable,
            rpo,
        }
    }

    pub fn is_reachable(&self, b: Block) -> bool {
        self.reachable.get(b).copied().unwrap_or(false)
    }

    /// Immediate dominator (`None` for the entry and unreachable blocks).
    pub fn idom(&self, b: Block) -> Option<Block> {
        let d = self.idom[b]?;
        if d == b {
            None
        } else {
            Some(d)
        }
    }

    /// Whether `a` dominates `b` (every block dominates itself).
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        if !self.is_reachable(b) {
            return true;
        }
        let mut cur = b;
        loop {
            if cur == a {
                return true;
            }
            match self.idom(cur) {
                Some(d) => cur = d,
                None => return false,
            }
        }
    }

    pub fn rpo(&self) -> &[Block] {
        &self.rpo
    }

    pub fn rpo_index(&self, b: Block) -> u32 {
        self.rpo_index[b]
    }
}

fn intersect(
    idom: &SecondaryMap<Block, Option<Block>>,
    rpo: &SecondaryMap<Block, u32>,
    mut a: Block,
    mut b: Block,
) -> Block {
    while a != b {
        while rpo[a] > rpo[b] {
            a = idom[a].unwrap_or(a);
        }
        while rpo[b] > rpo[a] {
            b = idom[b].unwrap_or(b);
        }
    }
    a
}

/// The preheader of the loop with header `h` and blocks `body`: the header's only predecessor
/// outside the loop, if it ends with a jump (to the header). `preds` is `f.predecessors()`.
pub fn preheader(
    f: &Function,
    preds: &SecondaryMap<Block, crate::Preds>,
    h: Block,
    body: &rustc_hash::FxHashSet<Block>,
) -> Option<Block> {
    let mut outside = preds[h].iter().copied().filter(|p| !body.contains(p));
    let (Some(pre), None) = (outside.next(), outside.next()) else {
        return None;
    };
    let t = f.terminator(pre)?;
    matches!(&f.insts[t], crate::InstData::Jump { dest, .. } if *dest == h).then_some(pre)
}

/// Whether any block reachable from the entry can reach itself again: some edge goes back to
/// a block at or before its source in reverse post-order. Cheaper than a dominator tree; most
/// functions have no loop.
pub fn has_cycle(f: &Function) -> bool {
    let rpo = f.reverse_postorder();
    let mut index: SecondaryMap<Block, u32> = SecondaryMap::with_default(u32::MAX);
    for (i, &b) in rpo.iter().enumerate() {
        index[b] = i as u32;
    }
    rpo.iter()
        .any(|&b| f.successors(b).iter().any(|&s| index[s] <= index[b]))
}

/// The natural loops of `f`: each loop header with the blocks of its body (the header, the
/// blocks that branch back to it and every block that reaches one of those without passing
/// the header), innermost loops first.
pub fn natural_loops(f: &Function) -> Vec<(Block, rustc_hash::FxHashSet<Block>)> {
    if !has_cycle(f) {
        return Vec::new();
    }
    let dom = DomTree::compute(f);
    let preds = f.predecessors();
    let mut out = Vec::new();
    for &h in &f.layout {
        if !dom.is_reachable(h) {
            continue;
        }
        let latches: Vec<Block> = preds[h]
            .iter()
            .copied()
            .filter(|p| dom.dominates(h, *p))
            .collect();
        if latches.is_empty() {
            continue;
        }
        let mut body: rustc_hash::FxHashSet<Block> = [h].into_iter().collect();
        let mut work = latches;
        while let Some(b) = work.pop() {
            if body.insert(b) {
                work.extend(preds[b].iter().copied());
            }
        }
        out.push((h, body));
    }
    out.sort_by_key(|(_, body)| body.len());
    out
}
