//! Liveness of chosen values: which of them are live on entry to each block.

use crate::{Block, Function, Value};
use rustc_hash::FxHashMap;

/// Which of `candidates` (each with its bit) are live on entry to each block of `order` (the
/// blocks to consider, in reverse postorder). A branch's arguments count as uses in its own
/// block; a block's parameters are not live before it. So a value an edge passes, or one in
/// use before the edge, is dead once the edge is taken exactly when its destination does not
/// have it live.
pub fn live_in(
    f: &Function,
    order: &[Block],
    candidates: &FxHashMap<Value, usize>,
) -> FxHashMap<Block, LiveSet> {
    let words = candidates.len().div_ceil(64);
    let bit = |v: &Value| candidates.get(v).copied();
    // Per block: the candidates it uses (SSA: none before its definition) and the ones it
    // defines.
    let mut gen = FxHashMap::default();
    let mut kill = FxHashMap::default();
    for &b in order {
        let (mut g, mut k) = (LiveSet::new(words), LiveSet::new(words));
        for p in &f.blocks[b].params {
            if let Some(j) = bit(p) {
                k.insert(j);
            }
        }
        for &i in &f.blocks[b].insts {
            f.insts[i].for_each_arg(|a| {
                if let Some(j) = bit(&a) {
                    g.insert(j);
                }
            });
            if let Some(j) = f.result(i).as_ref().and_then(bit) {
                k.insert(j);
            }
        }
        // A value defined and used in one block is not live on its entry.
        for (g, k) in g.0.iter_mut().zip(&k.0) {
            *g &= !k;
        }
        gen.insert(b, g);
        kill.insert(b, k);
    }
    let mut live: FxHashMap<Block, LiveSet> = order.iter().map(|&b| (b, gen[&b].clone())).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for &b in order.iter().rev() {
            let mut out = LiveSet::new(words);
            for s in f.successors(b) {
                if let Some(l) = live.get(&s) {
                    for (o, w) in out.0.iter_mut().zip(&l.0) {
                        *o |= w;
                    }
                }
            }
            let (g, k) = (&gen[&b], &kill[&b]);
            let new = LiveSet((0..words).map(|w| g.0[w] | (out.0[w] & !k.0[w])).collect());
            if live[&b] != new {
                live.insert(b, new);
                changed = true;
            }
        }
    }
    live
}

/// A set of candidate values, by their bits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveSet(Vec<u64>);

impl LiveSet {
    fn new(words: usize) -> LiveSet {
        LiveSet(vec![0; words])
    }
    fn insert(&mut self, j: usize) {
        self.0[j / 64] |= 1 << (j % 64);
    }
    /// Whether the candidate with bit `j` is in the set.
    pub fn contains(&self, j: usize) -> bool {
        self.0.get(j / 64).is_some_and(|w| w & (1 << (j % 64)) != 0)
    }
}
