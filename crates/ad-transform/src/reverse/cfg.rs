//! The control flow a reverse-mode rule is built on: which blocks are live (reach a return),
//! the counted loops, and the block-stack protocol by which the pullback retraces the edges
//! the forwards pass took.

use super::saved::rule_stack;
use crate::emit::Emit;
use ir::{Block, Const, Function, InstData, Prim, Type, Value};
use rustc_hash::{FxHashMap, FxHashSet};
use syntax::Span;

/// The control-flow facts of a primal function that both passes of its rule follow.
pub(super) struct Cfg {
    /// The reachable blocks in layout order (the first is the entry).
    pub(super) layout: Vec<Block>,
    /// Each block's position in `layout`.
    pub(super) pos: FxHashMap<Block, usize>,
    /// Incoming edges of each block: (predecessor, successor slot).
    pub(super) incoming: FxHashMap<Block, Vec<Edge>>,
    /// The blocks that return, in layout order.
    pub(super) returns: Vec<Block>,
    /// Blocks that reach a `return`. The others (error paths) need no derivative: the
    /// forwards pass runs their primal code as it is, and the pullback never visits them.
    live: FxHashSet<Block>,
    /// Counted loops by header: a header entered again along exactly one back edge counts
    /// its iterations in a register instead of pushing the back edge's id on the block stack
    /// each time; the count is pushed once when the loop exits (see `CountedLoop`).
    pub(super) loops: FxHashMap<Block, CountedLoop>,
    /// Blocks on a cycle other than through a counted loop's back edge: the others run at most
    /// once per call, or per iteration of the innermost counted loop they are in.
    cyclic: FxHashSet<Block>,
}

impl Cfg {
    pub(super) fn new(primal: &Function) -> Cfg {
        // Only reachable blocks (the last folding pass may have left unreachable ones).
        let reachable: FxHashSet<Block> = primal.reverse_postorder().into_iter().collect();
        let layout: Vec<Block> = primal
            .layout
            .iter()
            .copied()
            .filter(|b| reachable.contains(b))
            .collect();
        let pos: FxHashMap<Block, usize> =
            layout.iter().enumerate().map(|(i, b)| (*b, i)).collect();
        let mut incoming: FxHashMap<Block, Vec<Edge>> = FxHashMap::default();
        for &b in &layout {
            if let Some(t) = primal.terminator(b) {
                for (k, (d, _)) in primal.insts[t].successors().iter().enumerate() {
                    incoming.entry(*d).or_default().push((b, k));
                }
            }
        }
        let returns: Vec<Block> = layout
            .iter()
            .copied()
            .filter(|b| {
                primal
                    .terminator(*b)
                    .is_some_and(|t| matches!(primal.insts[t], InstData::Return(_)))
            })
            .collect();
        let mut live: FxHashSet<Block> = returns.iter().copied().collect();
        let mut work: Vec<Block> = returns.clone();
        while let Some(b) = work.pop() {
            for (q, _) in incoming.get(&b).cloned().unwrap_or_default() {
                if live.insert(q) {
                    work.push(q);
                }
            }
        }
        let loops = counted_loops(primal, &layout, &incoming, &live);
        let cyclic = on_cycles(primal, &layout, &incoming, &loops);
        Cfg {
            layout,
            pos,
            incoming,
            returns,
            live,
            loops,
            cyclic,
        }
    }

    /// Whether `b` runs at most once per call, or per iteration of the innermost counted loop
    /// it is in (it is on no cycle of the CFG but through counted loops' back edges).
    pub(super) fn runs_once(&self, b: Block) -> bool {
        !self.cyclic.contains(&b)
    }

    pub(super) fn entry(&self) -> Block {
        self.layout[0]
    }

    /// Whether `b` is on an error path (cannot reach a `return`).
    pub(super) fn doomed(&self, b: Block) -> bool {
        !self.live.contains(&b)
    }

    /// The id the block stack records for edge (q, k).
    pub(super) fn edge_id(&self, q: Block, k: usize) -> i64 {
        (self.pos[&q] * 2 + k) as i64
    }

    /// The counted loops `b` is in, outermost first.
    pub(super) fn loops_of(&self, b: Block) -> Vec<Block> {
        let mut hs: Vec<Block> = self
            .loops
            .iter()
            .filter(|(_, l)| l.body.contains(&b))
            .map(|(h, _)| *h)
            .collect();
        hs.sort_by_key(|h| std::cmp::Reverse(self.loops[h].body.len()));
        hs
    }

    /// The loops an edge from `q` into `d` leaves, outermost first (their counts are pushed in
    /// this order).
    pub(super) fn exited(&self, q: Block, d: Block) -> Vec<Block> {
        let inner = self.loops_of(d);
        self.loops_of(q)
            .into_iter()
            .filter(|h| !inner.contains(h))
            .collect()
    }

    /// Whether taking edge (q, k) into `d` pushes its id on the block stack.
    pub(super) fn pushes_id(&self, q: Block, k: usize, d: Block) -> bool {
        if self.doomed(d) || self.incoming[&d].len() < 2 {
            return false;
        }
        match self.loops.get(&d) {
            Some(l) => l.back != (q, k) && l.enters.len() > 1,
            None => true,
        }
    }

    /// Whether edge (q, k) into `d` pushes anything on the block stack.
    pub(super) fn edge_pushes(&self, q: Block, k: usize, d: Block) -> bool {
        !self.doomed(d) && (self.pushes_id(q, k, d) || !self.exited(q, d).is_empty())
    }

    /// The arguments edge (q, k) passes (primal values).
    pub(super) fn edge_args(&self, primal: &Function, q: Block, k: usize) -> Vec<Value> {
        let t = primal.terminator(q).unwrap_or_else(|| unreachable!());
        primal.insts[t].successors()[k].1.to_vec()
    }
}

/// An edge of the CFG: the predecessor and the index of the successor among its successors.
pub(super) type Edge = (Block, usize);

/// A loop whose header is entered again along exactly one back edge (from a block the header
/// dominates). The forwards pass passes the header an iteration count (0 on entry, one more
/// along the back edge) and pushes it on the block stack wherever control leaves the loop (an
/// exit edge or a return inside it); the pullback pops it there into a counter and, at the
/// header, goes round the back edge while the counter is positive (decrementing it), else to
/// an entry edge. So each iteration costs no block-stack traffic, and while the pullback runs
/// an iteration's blocks the counter equals that iteration's count (see `IvSpec`).
pub(super) struct CountedLoop {
    pub(super) back: Edge,
    pub(super) enters: Vec<Edge>,
    /// The header and every block that reaches the back edge without passing the header.
    body: FxHashSet<Block>,
}

fn counted_loops(
    f: &Function,
    layout: &[Block],
    incoming: &FxHashMap<Block, Vec<Edge>>,
    live: &FxHashSet<Block>,
) -> FxHashMap<Block, CountedLoop> {
    let dom = ir::dominators::DomTree::compute(f);
    let mut out = FxHashMap::default();
    for &h in layout.iter().skip(1) {
        if !live.contains(&h) {
            continue;
        }
        let edges = incoming.get(&h).cloned().unwrap_or_default();
        let (back, enters): (Vec<Edge>, Vec<Edge>) =
            edges.into_iter().partition(|(q, _)| dom.dominates(h, *q));
        if back.len() != 1 || enters.is_empty() {
            continue;
        }
        let mut body: FxHashSet<Block> = [h].into_iter().collect();
        let mut work = vec![back[0].0];
        while let Some(b) = work.pop() {
            if body.insert(b) {
                work.extend(incoming.get(&b).into_iter().flatten().map(|(q, _)| *q));
            }
        }
        out.insert(
            h,
            CountedLoop {
                back: back[0],
                enters,
                body,
            },
        );
    }
    out
}

pub(super) fn pop_block_stack(f: &mut Function, blk: Block, state: Value, loc: Span) -> Value {
    let mut e = Emit { f, block: blk, loc };
    let bs = rule_stack(&mut e, state, 0, Type::vector(Type::Int64));
    e.prim(Prim::ArrayPop, vec![bs], Type::Int64)
}

/// Branches on `id` to the target whose key equals it (the last target is the default), with
/// `before` emitted on each target's edge block.
pub(super) fn dispatch<T: Copy>(
    f: &mut Function,
    from: Block,
    id: Value,
    loc: Span,
    targets: Vec<(i64, Block, T)>,
    before: &mut dyn FnMut(&mut Function, Block, T),
) {
    let mut cur = from;
    let n = targets.len();
    for (j, (key, dest, data)) in targets.into_iter().enumerate() {
        let edge = f.add_block();
        before(f, edge, data);
        Emit {
            f,
            block: edge,
            loc,
        }
        .jump(dest, vec![]);
        if j + 1 == n {
            Emit { f, block: cur, loc }.jump(edge, vec![]);
        } else {
            let next = f.add_block();
            let mut e = Emit { f, block: cur, loc };
            let k = e.konst(Const::Int(key));
            let c = e.prim(Prim::EqInt, vec![id, k], Type::Bool);
            e.inst(
                InstData::Branch {
                    cond: c,
                    then_dest: edge,
                    then_args: vec![],
                    else_dest: next,
                    else_args: vec![],
                },
                Type::Any,
            );
            cur = next;
        }
    }
}

/// The blocks on a cycle of the CFG without the counted loops' back edges: those in a
/// strongly connected component of more than one block or with an edge to themselves
/// (Kosaraju: finishing order on the CFG, then components on the reversed CFG).
fn on_cycles(
    primal: &Function,
    layout: &[Block],
    incoming: &FxHashMap<Block, Vec<Edge>>,
    loops: &FxHashMap<Block, CountedLoop>,
) -> FxHashSet<Block> {
    let back = |q: Block, k: usize, d: Block| loops.get(&d).is_some_and(|l| l.back == (q, k));
    let succs = |b: Block| -> Vec<Block> {
        primal
            .terminator(b)
            .map(|t| {
                primal.insts[t]
                    .successors()
                    .iter()
                    .enumerate()
                    .filter(|(k, (d, _))| !back(b, *k, *d))
                    .map(|(_, (d, _))| *d)
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut seen: FxHashSet<Block> = FxHashSet::default();
    let mut finished: Vec<Block> = Vec::new();
    for &root in layout {
        if !seen.insert(root) {
            continue;
        }
        let mut stack: Vec<(Block, Vec<Block>)> = vec![(root, succs(root))];
        while let Some((b, rest)) = stack.last_mut() {
            match rest.pop() {
                Some(s) => {
                    if seen.insert(s) {
                        let next = succs(s);
                        stack.push((s, next));
                    }
                }
                None => {
                    finished.push(*b);
                    stack.pop();
                }
            }
        }
    }
    let mut component: FxHashMap<Block, usize> = FxHashMap::default();
    let mut sizes: Vec<usize> = Vec::new();
    for &root in finished.iter().rev() {
        if component.contains_key(&root) {
            continue;
        }
        let c = sizes.len();
        sizes.push(0);
        let mut work = vec![root];
        component.insert(root, c);
        while let Some(b) = work.pop() {
            sizes[c] += 1;
            for (q, k) in incoming.get(&b).into_iter().flatten() {
                if !back(*q, *k, b) && !component.contains_key(q) {
                    component.insert(*q, c);
                    work.push(*q);
                }
            }
        }
    }
    layout
        .iter()
        .copied()
        .filter(|b| sizes[component[b]] > 1 || succs(*b).contains(b))
        .collect()
}
