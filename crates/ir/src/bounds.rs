//! Bounds facts: which array reads and writes are provably in range (so native code may skip
//! their checks), and which arrays can change size while a function runs.
//!
//! An access `A[i]` is in range when `1 ≤ i` and `i ≤ n`, `n` the extent of `A` that the
//! index addresses. The analysis derives, for an integer value at a block, a constant lower
//! bound and an upper bound `s + k` where `s` is a constant or an array extent (`arraylen`,
//! `arraysize`, or a dimension `array_new` was given), from:
//! - definitions: constants, extents (≥ 0), `x ± c` for a constant `c`, and block parameters
//!   (the join of what their edges pass);
//! - induction variables: a loop header's parameter that enters with lower bound `L` and comes
//!   back as itself plus a constant `1 ≤ s ≤ 16` is `≥ L` (an increment that cannot wrap: the
//!   parameter has an upper bound where it is incremented); one that enters with upper bound
//!   `U` and comes back as itself minus such a constant (where it has a lower bound) is `≤ U`
//!   (the pullbacks' reversed loops);
//! - guards: a block reached only along one way of `slt_int`/`sle_int` knows that comparison
//!   (`i ≤ stop` inside `for i in 1:stop`). A join feeding `stop` prunes the incoming values that
//!   contradict the guard (Julia's `max(stop, 0)` for an empty range never reaches the body).
//!
//! Every add of a constant is checked not to wrap: it needs the bound on the side it moves
//! towards, and bounds are kept within ±2^40 of an extent (extents are below 2^61).
//! Extents of vectors are facts only when no vector of the function can be resized
//! ([`changing_arrays`]); matrices never change shape. An access repeating an earlier access
//! of the same block (same array, same indices, nothing in between that can resize arrays) is
//! in range too: the earlier one was checked (a pullback's `x̄[i] += ...` reads then writes).

use crate::dominators::DomTree;
use crate::function::{Block, Const, Function, Inst, InstData, Value, ValueDef};
use crate::prim::Prim;
use crate::types::Type;
use rustc_hash::{FxHashMap, FxHashSet};

/// Which arrays keep their storage (element buffer and extents) while `f` uses them.
///
/// An array keeps it from where it is defined through all its uses unless something that can
/// resize an array (a call, a primitive that resizes or runs user code) runs on some path
/// from one of them to another: then its extents read at one use need not hold at the next.
/// "Uses" are those of the array and of the values that are it again (`arrayset`'s result and
/// the like, see [`array_root`]); each new definition starts afresh (an array made in a loop
/// is a new array each trip). Reverse mode's rule-state stacks always change, and their
/// pushes and pops resize nothing else (they never alias user arrays).
pub struct Stability<'a> {
    f: &'a Function,
    stacks: FxHashSet<Value>,
    /// The instructions that may resize a user array: by block, their positions (1-based).
    resizers: FxHashMap<Block, Vec<u32>>,
    /// Each array's definition and uses, by the array they are (its root): block, position
    /// (0 for a block parameter, else the instruction's 1-based position) and whether it is
    /// the definition.
    touches: FxHashMap<Value, Vec<(Block, u32, bool)>>,
    order: Vec<Block>,
    preds: cranelift_entity::SecondaryMap<Block, crate::Preds>,
    /// Answers so far, by root.
    known: std::cell::RefCell<FxHashMap<Value, bool>>,
}

/// The array `v` is, looking through instructions that return their array argument
/// (`arrayset`, `array_push`, `array_resize`, type assertions of an array).
pub fn array_root(f: &Function, mut v: Value) -> Value {
    for _ in 0..DEPTH {
        let Some(i) = f.def_inst(v) else {
            break;
        };
        match &f.insts[i] {
            InstData::Prim {
                op: Prim::ArraySet | Prim::ArrayPush | Prim::ArrayResize,
                args,
            } => v = args[0],
            // (An assertion that a value of another type is an array makes a new one.)
            InstData::TypeAssert { val, .. } if matches!(f.types[*val], Type::Array(..)) => {
                v = *val
            }
            _ => break,
        }
    }
    v
}

impl<'a> Stability<'a> {
    pub fn new(f: &'a Function, order: &[Block]) -> Stability<'a> {
        let mut stacks = FxHashSet::default();
        for b in order {
            for i in &f.blocks[*b].insts {
                if let InstData::Prim {
                    op: Prim::RuleStack,
                    ..
                } = &f.insts[*i]
                {
                    stacks.extend(f.result(*i));
                }
            }
        }
        let mut resizers: FxHashMap<Block, Vec<u32>> = FxHashMap::default();
        for &b in order {
            for (k, i) in f.blocks[b].insts.iter().enumerate() {
                let d = &f.insts[*i];
                let stack_op = match d {
                    InstData::Prim { op, args } if op.effects().resizes => {
                        let e = op.effects();
                        !e.runs_user_code && args.first().is_some_and(|a| stacks.contains(a))
                    }
                    _ => false,
                };
                if stack_op {
                    // `push!` and `resize!` return the stack itself; `pop!` returns an
                    // element (a saved array is not a stack).
                    if !matches!(
                        d,
                        InstData::Prim {
                            op: Prim::ArrayPop,
                            ..
                        }
                    ) {
                        stacks.extend(
                            f.result(*i)
                                .filter(|r| matches!(f.types[*r], Type::Array(..))),
                        );
                    }
                } else if resizes(d) {
                    resizers.entry(b).or_default().push(k as u32 + 1);
                }
            }
        }
        let mut touches: FxHashMap<Value, Vec<(Block, u32, bool)>> = FxHashMap::default();
        if !resizers.is_empty() {
            let is_array = |v: Value| matches!(f.types[v], Type::Array(..));
            for &b in order {
                for &p in &f.blocks[b].params {
                    if is_array(p) {
                        touches.entry(p).or_default().push((b, 0, true));
                    }
                }
                for (k, &i) in f.blocks[b].insts.iter().enumerate() {
                    let pos = k as u32 + 1;
                    f.insts[i].for_each_arg(|a| {
                        if is_array(a) {
                            let r = array_root(f, a);
                            touches.entry(r).or_default().push((b, pos, false));
                        }
                    });
                    if let Some(r) = f.result(i).filter(|r| is_array(*r)) {
                        if array_root(f, r) == r {
                            touches.entry(r).or_default().push((b, pos, true));
                        }
                    }
                }
            }
        }
        Stability {
            f,
            stacks,
            resizers,
            touches,
            order: order.to_vec(),
            preds: f.predecessors(),
            known: Default::default(),
        }
    }

    /// Whether array `v` keeps its storage and extents wherever it is used.
    pub fn fixed(&self, v: Value) -> bool {
        let r = array_root(self.f, v);
        if self.stacks.contains(&r) {
            return false;
        }
        if self.resizers.is_empty() {
            return true;
        }
        if let Some(k) = self.known.borrow().get(&r) {
            return *k;
        }
        let k = self.no_resize_between_uses(r);
        self.known.borrow_mut().insert(r, k);
        k
    }

    /// Whether no resizer lies on a path from a use of root `r` to another (see [`Stability`]).
    /// A forward data flow of two facts at each point: "a use of the current array came
    /// before" and "a resizer came after such a use".
    fn no_resize_between_uses(&self, r: Value) -> bool {
        let Some(ts) = self.touches.get(&r) else {
            return true;
        };
        let mut by_block: FxHashMap<Block, Vec<(u32, bool)>> = FxHashMap::default();
        for &(b, pos, def) in ts {
            by_block.entry(b).or_default().push((pos, def));
        }
        let (none, no_resizers) = (Vec::new(), Vec::new());
        let mut out: FxHashMap<Block, (bool, bool)> = FxHashMap::default();
        loop {
            let mut changed = false;
            for &b in &self.order {
                let (mut used, mut resized) = self.preds[b]
                    .iter()
                    .filter_map(|p| out.get(p))
                    .fold((false, false), |(u, z), (pu, pz)| (u || *pu, z || *pz));
                let uses = by_block.get(&b).unwrap_or(&none);
                let rs = self.resizers.get(&b).unwrap_or(&no_resizers);
                if used || !uses.is_empty() {
                    // Events in order; at one instruction: its uses, then what it does, then
                    // what it defines.
                    let (mut ui, mut ri) = (0, 0);
                    while ui < uses.len() || ri < rs.len() {
                        let upos = uses.get(ui).map_or(u32::MAX, |u| u.0);
                        let rpos = rs.get(ri).copied().unwrap_or(u32::MAX);
                        if upos <= rpos && !uses[ui].1 {
                            if resized {
                                return false;
                            }
                            used = true;
                            ui += 1;
                        } else if rpos <= upos {
                            resized |= used;
                            ri += 1;
                        } else {
                            // A definition: a new array.
                            used = true;
                            resized = false;
                            ui += 1;
                        }
                    }
                }
                let o = (used, resized);
                if out.get(&b) != Some(&o) {
                    out.insert(b, o);
                    changed = true;
                }
            }
            if !changed {
                return true;
            }
        }
    }
}

/// The `arrayref`, `arrayref_raw` and `arrayset` instructions of `f` whose indices are
/// provably in range, given which arrays of `f` are stable (`Stability::new(f, ...)`).
pub fn inbounds_accesses(f: &Function, stability: &Stability) -> FxHashSet<Inst> {
    let order = f.reverse_postorder();
    let facts = Facts::new(f, &order, stability);
    let mut out = FxHashSet::default();
    for &b in &order {
        // (array, indices) already checked in this block.
        let mut checked: Vec<(Value, Vec<Value>)> = Vec::new();
        for &i in &f.blocks[b].insts {
            let (arr, idx) = match &f.insts[i] {
                InstData::Prim {
                    op: Prim::ArrayRef | Prim::ArrayRefRaw,
                    args,
                } if args.len() >= 2 => (args[0], &args[1..]),
                InstData::Prim {
                    op: Prim::ArraySet,
                    args,
                } if args.len() >= 3 => (args[0], &args[2..]),
                d => {
                    if resizes(d) {
                        checked.clear();
                    }
                    continue;
                }
            };
            let key = (facts.array(arr), idx.to_vec());
            if checked.contains(&key) || facts.in_range(arr, idx, b) {
                out.insert(i);
            }
            checked.push(key);
        }
    }
    out
}

/// Whether the instruction may change some array's length (a field or global assignment may
/// replace an array, never resize one).
/// Whether `d` may change the size of some array: a call, or a primitive that resizes arrays
/// or runs user code.
pub fn resizes(d: &InstData) -> bool {
    match d {
        InstData::Invoke { .. } | InstData::Call { .. } => true,
        InstData::Prim { op, .. } => op.effects().resizes || op.effects().runs_user_code,
        InstData::Const(_)
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
        | InstData::Unreachable => false,
    }
}

/// The base of an upper bound.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Base {
    /// Zero.
    Zero,
    /// Extent `d` (1-based; 0 = the whole length) of an array.
    Extent(Value, u8),
}

/// `value ≤ base + k`.
type Upper = (Base, i64);

/// Bounds stay this close to their base, so adding constants never wraps.
const SLACK: i64 = 1 << 40;
/// Recursion depth of one query.
const DEPTH: u32 = 24;
/// Steps (bound computations) one query may take: a query reaching it proves nothing (the
/// access keeps its check), so the analysis is linear in the number of accesses whatever the
/// shape of the function.
const STEPS: u32 = 4096;

/// `(x, c)` if `v` is `x + c` or `x - c` for a small Int64 constant `c`.
pub fn plus_const(f: &Function, v: Value) -> Option<(Value, i64)> {
    let i = f.def_inst(v)?;
    let InstData::Prim { op, args } = &f.insts[i] else {
        return None;
    };
    let int = |v: Value| match f.const_value(v) {
        Some(Const::Int(c)) if c.abs() <= SLACK => Some(*c),
        _ => None,
    };
    match (op, args.as_slice()) {
        (Prim::AddInt, [x, y]) => match (int(*x), int(*y)) {
            (_, Some(c)) => Some((*x, c)),
            (Some(c), None) => Some((*y, c)),
            _ => None,
        },
        (Prim::SubInt, [x, y]) => int(*y).map(|c| (*x, -c)),
        _ => None,
    }
}

struct Facts<'a> {
    f: &'a Function,
    dom: DomTree,
    preds: cranelift_entity::SecondaryMap<Block, crate::Preds>,
    /// Back edges (latch, header).
    back: FxHashSet<(Block, Block)>,
    /// Which arrays keep their extents.
    stability: &'a Stability<'a>,
    /// Lower bounds of loop headers' parameters (induction variables).
    iv_lower: FxHashMap<Value, Option<i64>>,
    /// The extent an access is being checked against (preferred among guards).
    want: std::cell::Cell<Option<Base>>,
    /// Steps left to the current query (see `STEPS`).
    steps: std::cell::Cell<u32>,
}

impl<'a> Facts<'a> {
    fn new(f: &'a Function, order: &[Block], stability: &'a Stability<'a>) -> Facts<'a> {
        let dom = DomTree::compute(f);
        let preds = f.predecessors();
        let mut back = FxHashSet::default();
        for &h in order {
            for &p in &preds[h] {
                if dom.is_reachable(p) && dom.dominates(h, p) {
                    back.insert((p, h));
                }
            }
        }
        let mut facts = Facts {
            f,
            dom,
            preds,
            back,
            stability,
            iv_lower: FxHashMap::default(),
            want: std::cell::Cell::new(None),
            steps: std::cell::Cell::new(STEPS),
        };
        // Outer loops first: an inner induction variable may start at an outer one.
        for &h in order {
            if !facts.is_header(h) {
                continue;
            }
            for &p in &f.blocks[h].params {
                let lo = facts.induction_lower(p, h);
                facts.iv_lower.insert(p, lo);
            }
        }
        facts
    }

    fn is_header(&self, b: Block) -> bool {
        self.preds[b].iter().any(|p| self.back.contains(&(*p, b)))
    }

    /// The edges into `b`: (predecessor, the value passed for parameter `k`). A branch with
    /// both ways to `b` gives two edges.
    fn incoming(&self, b: Block, k: u32) -> Vec<(Block, Value)> {
        let mut out = Vec::new();
        let mut seen = FxHashSet::default();
        for &p in &self.preds[b] {
            if !seen.insert(p) {
                continue;
            }
            let Some(t) = self.f.terminator(p) else {
                continue;
            };
            for (dest, args) in self.f.insts[t].successors() {
                if dest == b {
                    if let Some(a) = args.get(k as usize) {
                        out.push((p, *a));
                    }
                }
            }
        }
        out
    }

    /// `L` if parameter `p` of header `h` enters with lower bound `L` and every back edge
    /// passes `p` or `p + s` (`1 ≤ s ≤ 16`) computed where `p` has an upper bound.
    fn induction_lower(&mut self, p: Value, h: Block) -> Option<i64> {
        let ValueDef::Param(_, k) = self.f.values[p] else {
            return None;
        };
        let edges = self.incoming(h, k);
        let mut lo: Option<i64> = None;
        for &(pred, a) in &edges {
            if self.back.contains(&(pred, h)) {
                continue;
            }
            self.begin();
            let l = self.lower(a, pred, DEPTH)?;
            lo = Some(lo.map_or(l, |m: i64| m.min(l)));
        }
        let lo = lo?;
        // The induction hypothesis: `p ≥ lo` on every earlier trip.
        self.iv_lower.insert(p, Some(lo));
        for &(pred, a) in &edges {
            if !self.back.contains(&(pred, h)) || a == p {
                continue;
            }
            let (x, c) = self.plus_const(a)?;
            if x != p || !(1..=16).contains(&c) {
                return None;
            }
            let step_at = self.f.def_inst(a).and_then(|i| self.block_of_inst(i))?;
            self.begin();
            self.upper(p, step_at, Some(lo), DEPTH)?;
        }
        Some(lo)
    }

    /// An upper bound of parameter `p` (number `k`) of header `h` that counts down: the join of
    /// the bounds it enters with, if every back edge passes `p` or `p - s` (`1 ≤ s ≤ 16`)
    /// computed where `p` has a lower bound (no wrap).
    fn induction_upper(
        &self,
        p: Value,
        h: Block,
        k: u32,
        floor: Option<i64>,
        depth: u32,
    ) -> Option<Upper> {
        let mut acc: Option<Upper> = None;
        for (pred, a) in self.incoming(h, k) {
            if self.back.contains(&(pred, h)) {
                if a == p {
                    continue;
                }
                let (x, c) = self.plus_const(a)?;
                if x != p || !(-16..=-1).contains(&c) {
                    return None;
                }
                let step_at = self.f.def_inst(a).and_then(|i| self.block_of_inst(i))?;
                self.lower(p, step_at, depth)?.checked_add(c)?;
                continue;
            }
            let u = self.upper(a, pred, floor, depth)?;
            acc = Some(match acc {
                None => u,
                Some(prev) => join(prev, u)?,
            });
        }
        acc
    }

    fn block_of_inst(&self, i: Inst) -> Option<Block> {
        self.f
            .layout
            .iter()
            .copied()
            .find(|b| self.f.blocks[*b].insts.contains(&i))
    }

    fn plus_const(&self, v: Value) -> Option<(Value, i64)> {
        plus_const(self.f, v)
    }

    /// The array `v` is (see [`array_root`]).
    fn array(&self, v: Value) -> Value {
        array_root(self.f, v)
    }

    /// Whether the extents of array `a` stay as they are while the function runs.
    fn fixed_shape(&self, a: Value) -> bool {
        match &self.f.types[a] {
            Type::Array(_, 1) => self.stability.fixed(a),
            Type::Array(..) => true,
            _ => false,
        }
    }

    /// The extent `v` is, if it is one: `arraylen` (a vector's dimension 1, otherwise 0 for the
    /// whole length) or `arraysize(A, d)`.
    fn extent(&self, v: Value) -> Option<(Value, u8)> {
        let i = self.f.def_inst(v)?;
        let InstData::Prim { op, args } = &self.f.insts[i] else {
            return None;
        };
        let (a, d) = match (op, args.as_slice()) {
            (Prim::ArrayLen, [a]) => {
                let a = self.array(*a);
                (a, u8::from(matches!(self.f.types[a], Type::Array(_, 1))))
            }
            (Prim::ArraySize, [a, d]) => {
                let a = self.array(*a);
                let nd = match self.f.types[a] {
                    Type::Array(_, nd) => nd,
                    _ => return None,
                };
                match self.f.const_value(*d) {
                    Some(Const::Int(d)) if (1..=nd as i64).contains(d) => (a, *d as u8),
                    _ => return None,
                }
            }
            _ => return None,
        };
        self.fixed_shape(a).then_some((a, d))
    }

    /// Whether `1 ≤ idx[j] ≤` the extent each index addresses, at block `b`.
    fn in_range(&self, arr: Value, idx: &[Value], b: Block) -> bool {
        let a = self.array(arr);
        let Type::Array(_, nd) = self.f.types[a] else {
            return false;
        };
        if !self.fixed_shape(a) || (idx.len() != 1 && idx.len() != nd as usize) {
            return false;
        }
        idx.iter().enumerate().all(|(j, &i)| {
            let dim = if idx.len() == 1 {
                u8::from(nd == 1)
            } else {
                j as u8 + 1
            };
            self.begin();
            let Some(lo) = self.lower(i, b, DEPTH) else {
                return false;
            };
            if lo < 1 {
                return false;
            }
            self.want.set(Some(Base::Extent(a, dim)));
            self.begin();
            let Some((base, k)) = self.upper(i, b, Some(lo), DEPTH) else {
                return false;
            };
            self.extent_is(a, dim, base, k)
        })
    }

    /// Whether `base + k ≤` extent `dim` of array `a`.
    fn extent_is(&self, a: Value, dim: u8, base: Base, k: i64) -> bool {
        if base == Base::Extent(a, dim) && k <= 0 {
            return true;
        }
        let Some(i) = self.f.def_inst(a) else {
            return false;
        };
        let args = match &self.f.insts[i] {
            // An array made here: its dimensions are the values `array_new` was given.
            InstData::Prim {
                op: Prim::ArrayNew,
                args,
            } => args,
            // A copy (or zero-filled likeness) of an array that keeps its shape has its extents.
            InstData::Prim {
                op: Prim::ArrayCopy | Prim::ArrayZeroLike,
                args,
            } if args.len() == 1 => {
                let src = self.array(args[0]);
                return src != a
                    && self.fixed_shape(src)
                    && self.f.types[src] == self.f.types[a]
                    && self.extent_is(src, dim, base, k);
            }
            _ => return false,
        };
        let Some(&n) = (match dim {
            0 if args.len() == 2 => args.get(1),
            0 => None,
            d => args.get(d as usize),
        }) else {
            return false;
        };
        match (self.f.const_value(n), self.extent(n)) {
            (Some(Const::Int(c)), _) => base == Base::Zero && k <= *c,
            (_, Some((b2, d2))) => base == Base::Extent(b2, d2) && k <= 0,
            _ => false,
        }
    }

    /// A constant lower bound of Int64 value `v` at block `at`.
    /// Starts a query: its steps are counted from here.
    fn begin(&self) {
        self.steps.set(STEPS);
    }

    /// Takes a step of the current query; false once its budget is spent.
    fn step(&self) -> bool {
        let s = self.steps.get();
        self.steps.set(s.saturating_sub(1));
        s > 0
    }

    fn lower(&self, v: Value, at: Block, depth: u32) -> Option<i64> {
        if !self.step() {
            return None;
        }
        let depth = depth.checked_sub(1)?;
        let from_def = self.lower_def(v, at, depth);
        let from_guards = self.guards(v, at, depth).filter_map(|g| match g {
            Guard::Above(lo) => Some(lo),
            Guard::Below(..) => None,
        });
        from_def.into_iter().chain(from_guards).max()
    }

    fn lower_def(&self, v: Value, at: Block, depth: u32) -> Option<i64> {
        match self.f.values[v] {
            ValueDef::Param(b, k) => {
                if let Some(lo) = self.iv_lower.get(&v) {
                    return *lo;
                }
                if self.is_header(b) {
                    return None;
                }
                let mut lo: Option<i64> = None;
                for (pred, a) in self.incoming(b, k) {
                    let l = self.lower(a, pred, depth)?;
                    lo = Some(lo.map_or(l, |m| m.min(l)));
                }
                lo
            }
            ValueDef::Inst(i) => {
                if let Some(Const::Int(c)) = self.f.const_value(v) {
                    return Some(*c);
                }
                if let InstData::Prim {
                    op: Prim::ArrayLen | Prim::ArraySize,
                    ..
                } = &self.f.insts[i]
                {
                    return Some(0);
                }
                let (x, c) = self.plus_const(v)?;
                let lo = self.lower(x, at, depth)?;
                if c > 0 {
                    // No wrap: `x` is bounded above.
                    self.upper(x, at, Some(lo), depth)?;
                }
                lo.checked_add(c)
            }
        }
    }

    /// An upper bound of Int64 value `v` at block `at`, knowing `v ≥ floor`.
    fn upper(&self, v: Value, at: Block, floor: Option<i64>, depth: u32) -> Option<Upper> {
        if !self.step() {
            return None;
        }
        let depth = depth.checked_sub(1)?;
        if let Some(u) = self.upper_def(v, at, floor, depth) {
            return Some(u);
        }
        // Of several guards, the one bounding by the extent being checked (a pullback checks
        // its trip count against each vector it indexes).
        let mut found = None;
        for g in self.guards(v, at, depth) {
            if let Guard::Below(u) = g {
                if Some(u.0) == self.want.get() {
                    return Some(u);
                }
                found = found.or(Some(u));
            }
        }
        found
    }

    fn upper_def(&self, v: Value, at: Block, floor: Option<i64>, depth: u32) -> Option<Upper> {
        match self.f.values[v] {
            ValueDef::Param(b, k) => {
                if self.is_header(b) {
                    return self.induction_upper(v, b, k, floor, depth);
                }
                let mut acc: Option<Upper> = None;
                for (pred, a) in self.incoming(b, k) {
                    let u = self.upper(a, pred, floor, depth)?;
                    // An edge passing a constant below the floor is never the one taken.
                    if let (Some(fl), (Base::Zero, c)) = (floor, u) {
                        if c < fl {
                            continue;
                        }
                    }
                    acc = Some(match acc {
                        None => u,
                        Some(prev) => join(prev, u)?,
                    });
                }
                acc
            }
            ValueDef::Inst(_) => {
                if let Some(Const::Int(c)) = self.f.const_value(v) {
                    return (c.abs() <= SLACK).then_some((Base::Zero, *c));
                }
                if let Some((a, d)) = self.extent(v) {
                    return Some((Base::Extent(a, d), 0));
                }
                let (x, c) = self.plus_const(v)?;
                if c < 0 {
                    // No wrap: `x` is bounded below.
                    self.lower(x, at, depth)?.checked_add(c)?;
                }
                let (base, k) = self.upper(x, at, floor.and_then(|f| f.checked_sub(c)), depth)?;
                let k = k + c;
                (k.abs() <= SLACK).then_some((base, k))
            }
        }
    }

    /// What the branches guarding block `at` say about `v`: walking up the dominator tree,
    /// each block entered from a single predecessor along one way of a comparison.
    fn guards(&self, v: Value, at: Block, depth: u32) -> impl Iterator<Item = Guard> + '_ {
        let mut out = Vec::new();
        let mut d = at;
        // Up the dominator tree to the entry (its own immediate dominator).
        while depth > 0 && self.dom.is_reachable(d) {
            if let [p] = self.preds[d][..] {
                if let Some(g) = self.guard_on_edge(v, p, d, depth) {
                    out.push(g);
                }
            }
            match self.dom.idom(d) {
                Some(up) if up != d => d = up,
                _ => break,
            }
        }
        out.into_iter()
    }

    fn guard_on_edge(&self, v: Value, p: Block, d: Block, depth: u32) -> Option<Guard> {
        let t = self.f.terminator(p)?;
        let InstData::Branch {
            cond,
            then_dest,
            else_dest,
            ..
        } = &self.f.insts[t]
        else {
            return None;
        };
        if then_dest == else_dest {
            return None;
        }
        let taken = *then_dest == d;
        let ci = self.f.def_inst(*cond)?;
        let InstData::Prim { op, args } = &self.f.insts[ci] else {
            return None;
        };
        let [l, r] = args[..] else { return None };
        // Normalise to `a ≤ b + off`.
        let (a, b, off) = match (op, taken) {
            (Prim::SltInt, true) => (l, r, -1),
            (Prim::SltInt, false) => (r, l, 0),
            (Prim::SleInt, true) => (l, r, 0),
            (Prim::SleInt, false) => (r, l, -1),
            _ => return None,
        };
        if a == v && b != v {
            let floor = self.lower(v, p, depth).map(|lo| lo - off);
            let (base, k) = self.upper(b, p, floor, depth)?;
            Some(Guard::Below((base, k + off)))
        } else if b == v && a != v {
            // `v ≥ a - off`.
            let lo = self.lower(a, p, depth)?;
            lo.checked_sub(off).map(Guard::Above)
        } else {
            None
        }
    }
}

enum Guard {
    Above(i64),
    Below(Upper),
}

/// The least upper bound of two bounds, if they share a base (extents are ≥ 0, so a constant
/// `c` is below `extent + c`).
fn join(a: Upper, b: Upper) -> Option<Upper> {
    match (a, b) {
        ((x, j), (y, k)) if x == y => Some((x, j.max(k))),
        ((Base::Zero, c), (e, k)) | ((e, k), (Base::Zero, c)) => Some((e, k.max(c))),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{expect, Expect};

    /// Lists each array access of the (single) function and whether it is proved in range.
    fn check(src: &str, expect: Expect) {
        let fs = crate::read::read_functions(src, &crate::TypeEnv::new())
            .unwrap_or_else(|e| panic!("{e:?}"));
        let f = &fs[0];
        let ok = inbounds_accesses(f, &Stability::new(f, &f.reverse_postorder()));
        let mut out = String::new();
        for &b in &f.layout {
            for &i in &f.blocks[b].insts {
                if let InstData::Prim {
                    op: op @ (Prim::ArrayRef | Prim::ArrayRefRaw | Prim::ArraySet),
                    args,
                } = &f.insts[i]
                {
                    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
                    let verdict = if ok.contains(&i) {
                        "in range"
                    } else {
                        "checked"
                    };
                    out += &format!("{}({}): {verdict}\n", op.name(), args.join(", "));
                }
            }
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn in_range_for_eachindex() {
        check(
            r"
function program_b(Vector{Float64}) -> Float64 [optimised]
block0(v0: typeof(program_b), v1: Vector{Float64}):
    v2: Float64 = const 0.0
    v35: Int64 = prim arraylen(v1)
    v36: Int64 = const 0
    v37: Bool = prim slt_int(v35, v36)
    br v37, block9(v36), block9(v35)
block9(v34: Int64):
    v40: Int64 = const 1
    jump block2(v2, v40)
block1:
    return v30
block2(v30: Float64, v31: Int64):
    v43: Bool = prim slt_int(v34, v31)
    br v43, block1, block15
block15:
    v45: Int64 = const 1
    v46: Int64 = prim add_int(v31, v45)
    v49: Float64 = prim arrayref(v1, v31)
    v52: Float64 = const 5.0
    v53: Float64 = prim mul_float(v52, v49)
    v55: Float64 = prim add_float(v30, v53)
    jump block2(v55, v46)
end
",
            expect![[r#"
                arrayref(v1, v31): in range
            "#]],
        );
    }

    /// `derivative(t -> (pop!(x); t * t), 1.0)` in the loop body: user code run by a primitive
    /// may shrink the array, so the read after it keeps its check.
    #[test]
    fn user_code_in_the_loop_keeps_checks() {
        check(
            r"
function shrink(Vector{Float64}) -> Float64 [optimised]
block0(v0: typeof(shrink), v1: Vector{Float64}):
    v2: Float64 = const 0.0
    v35: Int64 = prim arraylen(v1)
    v36: Int64 = const 0
    v37: Bool = prim slt_int(v35, v36)
    br v37, block9(v36), block9(v35)
block9(v34: Int64):
    v40: Int64 = const 1
    jump block2(v2, v40)
block1:
    return v30
block2(v30: Float64, v31: Int64):
    v43: Bool = prim slt_int(v34, v31)
    br v43, block1, block15
block15:
    v45: Int64 = const 1
    v46: Int64 = prim add_int(v31, v45)
    v61: Float64 = const 1.0
    v62: Any = prim dual_apply(v1, v1, v61, v61)
    v49: Float64 = prim arrayref(v1, v31)
    v55: Float64 = prim add_float(v30, v49)
    jump block2(v55, v46)
end
",
            expect![[r#"
                arrayref(v1, v31): checked
            "#]],
        );
    }

    #[test]
    fn rosenbrock_reads_i_and_i_plus_1() {
        check(
            r"
function rosenbrock(Vector{Float64}) -> Float64 [optimised]
block0(v0: typeof(rosenbrock), v1: Vector{Float64}):
    v2: Float64 = const 0.0
    v4: Int64 = const 1
    v64: Int64 = prim arraylen(v1)
    v9: Int64 = const 1
    v66: Int64 = prim sub_int(v64, v9)
    v69: Bool = prim sle_int(v4, v66)
    br v69, block14(v66), block13
block13:
    v71: Int64 = const 0
    jump block14(v71)
block14(v68: Int64):
    jump block2(v2, v4)
block1:
    return v60
block2(v60: Float64, v61: Int64):
    v77: Bool = prim slt_int(v68, v61)
    br v77, block1, block20
block20:
    v79: Int64 = const 1
    v80: Int64 = prim add_int(v61, v79)
    v31: Int64 = const 1
    v83: Int64 = prim add_int(v61, v31)
    v85: Float64 = prim arrayref(v1, v83)
    v87: Float64 = prim arrayref(v1, v61)
    v89: Float64 = prim mul_float(v87, v87)
    v91: Float64 = prim sub_float(v85, v89)
    v93: Float64 = prim mul_float(v91, v91)
    v96: Float64 = const 100.0
    v97: Float64 = prim mul_float(v96, v93)
    v99: Float64 = prim arrayref(v1, v61)
    v102: Float64 = const 1.0
    v103: Float64 = prim sub_float(v102, v99)
    v105: Float64 = prim mul_float(v103, v103)
    v107: Float64 = prim add_float(v97, v105)
    v109: Float64 = prim add_float(v60, v107)
    jump block2(v109, v80)
end
",
            expect![[r#"
                arrayref(v1, v83): in range
                arrayref(v1, v61): in range
                arrayref(v1, v61): in range
            "#]],
        );
    }

    #[test]
    fn one_past_the_end_stays_checked() {
        check(
            r"
function off_by_one(Vector{Float64}) -> Float64 [optimised]
block0(v0: typeof(off_by_one), v1: Vector{Float64}):
    v2: Float64 = const 0.0
    v4: Int64 = const 1
    v37: Int64 = prim arraylen(v1)
    v40: Bool = prim sle_int(v4, v37)
    br v40, block12(v37), block11
block11:
    v42: Int64 = const 0
    jump block12(v42)
block12(v39: Int64):
    jump block2(v2, v4)
block1:
    return v33
block2(v33: Float64, v34: Int64):
    v48: Bool = prim slt_int(v39, v34)
    br v48, block1, block18
block18:
    v50: Int64 = const 1
    v51: Int64 = prim add_int(v34, v50)
    v24: Int64 = const 1
    v54: Int64 = prim add_int(v34, v24)
    v56: Float64 = prim arrayref(v1, v54)
    v58: Float64 = prim add_float(v33, v56)
    jump block2(v58, v51)
end
",
            expect![[r#"
                arrayref(v1, v54): checked
            "#]],
        );
    }

    #[test]
    fn index_from_zero_stays_checked() {
        check(
            r"
function from_zero(Vector{Float64}) -> Float64 [optimised]
block0(v0: typeof(from_zero), v1: Vector{Float64}):
    v2: Float64 = const 0.0
    v4: Int64 = const 0
    v46: Int64 = prim arraylen(v1)
    v9: Int64 = const 1
    v48: Int64 = prim sub_int(v46, v9)
    v51: Bool = prim sle_int(v4, v48)
    br v51, block14(v48), block13
block13:
    v53: Int64 = const -1
    jump block14(v53)
block14(v50: Int64):
    jump block2(v2, v4)
block1:
    return v42
block2(v42: Float64, v43: Int64):
    v59: Bool = prim slt_int(v50, v43)
    br v59, block1, block20
block20:
    v61: Int64 = const 1
    v62: Int64 = prim add_int(v43, v61)
    v28: Int64 = const 1
    v65: Int64 = prim add_int(v43, v28)
    v67: Float64 = prim arrayref(v1, v65)
    v69: Float64 = prim arrayref(v1, v43)
    v71: Float64 = prim mul_float(v67, v69)
    v73: Float64 = prim add_float(v42, v71)
    jump block2(v73, v62)
end
",
            expect![[r#"
                arrayref(v1, v65): in range
                arrayref(v1, v43): checked
            "#]],
        );
    }

    /// One explicit step of the heat equation, `v = copy(u); for i in 2:length(u)-1; v[i] =
    /// u[i-1] + u[i+1]; end`, then a call (`sum(v)`, or `sum(u)` right after taking the length).
    fn heat_step(call_before_the_loop: bool) -> String {
        let (before, after) = if call_before_the_loop {
            ("    v21: Float64 = call(v2, v1)\n", "    return v21\n")
        } else {
            ("", "    v20: Float64 = call(v2, v3)\n    return v20\n")
        };
        format!(
            "
function step(Vector{{Float64}}) -> Float64 [optimised]
block0(v0: typeof(step), v1: Vector{{Float64}}):
    v2: typeof(sum) = const fn sum
    v3: Vector{{Float64}} = prim array_copy(v1)
    v4: Int64 = const 2
    v5: Int64 = prim arraylen(v1)
    v6: Int64 = const 1
    v7: Int64 = prim sub_int(v5, v6)
    v8: Bool = prim sle_int(v4, v7)
{before}    br v8, block2(v7), block1
block1:
    v9: Int64 = const 1
    jump block2(v9)
block2(v10: Int64):
    jump block3(v4)
block3(v11: Int64):
    v12: Bool = prim slt_int(v10, v11)
    br v12, block5, block4
block4:
    v13: Int64 = const 1
    v14: Int64 = prim add_int(v11, v13)
    v15: Int64 = prim sub_int(v11, v13)
    v16: Float64 = prim arrayref(v1, v15)
    v17: Float64 = prim arrayref(v1, v14)
    v18: Float64 = prim add_float(v16, v17)
    v19: Vector{{Float64}} = prim arrayset(v3, v18, v11)
    jump block3(v14)
block5:
{after}end
"
        )
    }

    /// The call after the loop cannot change what the loop reads, and the copy has `u`'s
    /// length.
    #[test]
    fn a_call_after_the_loop_and_a_copy() {
        check(
            &heat_step(false),
            expect![[r#"
                arrayref(v1, v15): in range
                arrayref(v1, v14): in range
                arrayset(v3, v18, v11): in range
            "#]],
        );
    }

    /// A call between taking the length and the loop may `pop!` from `u`: the loop's reads
    /// keep their checks, and the copy's write too.
    #[test]
    fn a_call_between_the_length_and_the_loop() {
        check(
            &heat_step(true),
            expect![[r#"
                arrayref(v1, v15): checked
                arrayref(v1, v14): checked
                arrayset(v3, v18, v11): checked
            "#]],
        );
    }

    #[test]
    fn a_growing_vector_stays_checked() {
        check(
            r"
function grows(Vector{Float64}) -> Float64 [optimised]
block0(v0: typeof(grows), v1: Vector{Float64}):
    v2: Float64 = const 0.0
    v36: Int64 = prim arraylen(v1)
    v37: Int64 = const 0
    v38: Bool = prim slt_int(v36, v37)
    br v38, block9(v37), block9(v36)
block9(v35: Int64):
    v41: Int64 = const 1
    jump block2(v2, v41)
block1:
    return v31
block2(v31: Float64, v32: Int64):
    v44: Bool = prim slt_int(v35, v32)
    br v44, block1, block15
block15:
    v46: Int64 = const 1
    v47: Int64 = prim add_int(v32, v46)
    v50: Float64 = prim arrayref(v1, v32)
    v52: Float64 = prim add_float(v31, v50)
    v26: Float64 = const 1.0
    v54: Vector{Float64} = prim array_push(v1, v26)
    jump block2(v52, v47)
end
",
            expect![[r#"
                arrayref(v1, v32): checked
            "#]],
        );
    }

    #[test]
    fn matrix_extents_and_array_new() {
        check(
            r"
function mat(Matrix{Float64}) -> Matrix{Float64} [optimised]
block0(v0: typeof(mat), v1: Matrix{Float64}):
    v4: Int64 = const 1
    v72: Int64 = prim arraysize(v1, v4)
    v76: UndefInitializer = global undef
    v77: Type{Matrix{Float64}} = const type Matrix{Float64}
    v78: Matrix{Float64} = prim array_new(v77, v72, v72)
    v79: Float64 = const 0.0
    v80: Int64 = const 1
    v81: Int64 = prim arraylen(v78)
    v82: Bool = prim sle_int(v80, v81)
    br v82, block17(v81), block16
block16:
    v83: Int64 = const 0
    jump block17(v83)
block17(v74: Int64):
    jump block18(v80)
block18(v75: Int64):
    v84: Bool = prim slt_int(v74, v75)
    br v84, block14, block19
block19:
    v85: Int64 = const 1
    v86: Int64 = prim add_int(v75, v85)
    v87: Matrix{Float64} = prim arrayset(v78, v79, v75)
    jump block18(v86)
block14:
    v11: Int64 = const 1
    v90: Bool = prim sle_int(v11, v72)
    br v90, block24(v72), block23
block23:
    v92: Int64 = const 0
    jump block24(v92)
block24(v89: Int64):
    v126: Int64 = const 1
    v105: Bool = prim sle_int(v126, v72)
    jump block2(v11)
block1:
    return v78
block2(v63: Int64):
    v98: Bool = prim slt_int(v89, v63)
    br v98, block1, block30
block30:
    v100: Int64 = const 1
    v101: Int64 = prim add_int(v63, v100)
    v26: Int64 = const 1
    br v105, block34(v72), block33
block33:
    v107: Int64 = const 0
    jump block34(v107)
block34(v104: Int64):
    jump block7(v26)
block7(v67: Int64):
    v113: Bool = prim slt_int(v104, v67)
    br v113, block2(v101), block40
block40:
    v115: Int64 = const 1
    v116: Int64 = prim add_int(v67, v115)
    v119: Float64 = prim arrayref(v1, v67, v63)
    v121: Float64 = prim arrayref(v1, v63, v67)
    v123: Float64 = prim add_float(v119, v121)
    v125: Matrix{Float64} = prim arrayset(v78, v123, v67, v63)
    jump block7(v116)
end
",
            expect![[r#"
                arrayset(v78, v79, v75): in range
                arrayref(v1, v67, v63): checked
                arrayref(v1, v63, v67): checked
                arrayset(v78, v123, v67, v63): in range
            "#]],
        );
    }

    #[test]
    fn while_loop_guard() {
        check(
            r"
function whileloop(Vector{Float64}) -> Float64 [optimised]
block0(v0: typeof(whileloop), v1: Vector{Float64}):
    v2: Int64 = const 1
    v3: Float64 = const 0.0
    jump block1(v2, v3)
block1(v25: Int64, v27: Float64):
    v29: Int64 = prim arraylen(v1)
    v31: Bool = prim sle_int(v25, v29)
    br v31, block10, block3
block10:
    v33: Float64 = prim arrayref(v1, v25)
    v35: Float64 = prim add_float(v27, v33)
    v19: Int64 = const 2
    v37: Int64 = prim add_int(v25, v19)
    jump block1(v37, v35)
block3:
    return v27
end
",
            expect![[r#"
                arrayref(v1, v25): in range
            "#]],
        );
    }

    #[test]
    fn pullback_write_after_read() {
        check(
            r"
function rvs program_b(Vector{Float64}) -> Tuple{NoRData, NoRData} [optimised, nsz]
block0(v0: RuleState, v1: Float64):
    v2: Int64 = const 1
    v3: Type{Vector{Tuple{Vector{Float64}}}} = const type Vector{Tuple{Vector{Float64}}}
    v4: Vector{Tuple{Vector{Float64}}} = prim rule_stack(v0, v2, v3)
    v16: Int64 = const 0
    v17: Type{Vector{Int64}} = const type Vector{Int64}
    v18: Vector{Int64} = prim rule_stack(v0, v16, v17)
    v5: Tuple{Vector{Float64}} = prim array_pop(v4)
    v6: Vector{Float64} = getfield v5.0
    v25: Int64 = prim array_pop(v18)
    v76: Float64 = const 5.0
    v55: Float64 = prim mul_float(v1, v76)
    jump block4(v25)
block2:
    v19: Int64 = prim array_pop(v18)
    v63: NoRData = const singleton NoRData
    v64: NoRData = const singleton NoRData
    v65: Tuple{NoRData, NoRData} = tuple(v63, v64)
    return v65
block4(v67: Int64):
    v27: Int64 = const 0
    v28: Bool = prim slt_int(v27, v67)
    br v28, block10, block2
block10:
    v29: Int64 = const 1
    v30: Int64 = prim sub_int(v67, v29)
    v41: Int64 = const 1
    v44: Int64 = prim add_int(v41, v30)
    v60: Float64 = prim arrayref(v6, v44)
    v61: Float64 = prim add_float(v60, v55)
    v62: Vector{Float64} = prim arrayset(v6, v61, v44)
    jump block4(v30)
end
",
            expect![[r#"
                arrayref(v6, v44): checked
                arrayset(v6, v61, v44): in range
            "#]],
        );
    }
    #[test]
    fn reversed_loop_after_hoisted_checks() {
        // `tests/filetests/hoist_range_checks.ir` after the pass: the counter enters as `v2`,
        // checked against `length(v1) - 1`, and counts down, so `v3 + 1` is in range.
        check(
            r"
function rvs_shift(Vector{Float64}, Int64) -> Int64 [typed, nsz]
block0(v0: Nothing, v1: Vector{Float64}, v2: Int64):
    v14: Int64 = prim arraylen(v1)
    v15: Int64 = const 1
    v16: Int64 = prim sub_int(v14, v15)
    v17: Bool = prim sle_int(v2, v16)
    br v17, block5, block4
block1(v3: Int64):
    v4: Int64 = const 0
    v5: Bool = prim slt_int(v4, v3)
    br v5, block2, block3(v3)
block2:
    v6: Int64 = const 1
    v7: Int64 = prim add_int(v3, v6)
    v8: Float64 = prim arrayref(v1, v7)
    v9: Float64 = const 1.0
    v10: Float64 = prim add_float(v8, v9)
    v11: Vector{Float64} = prim arrayset(v1, v10, v7)
    v12: Int64 = prim sub_int(v3, v6)
    jump block1(v12)
block3(v13: Int64):
    return v13
block4:
    v18: Int64 = const 0
    v19: Bool = prim slt_int(v18, v2)
    br v19, block6, block3(v2)
block5:
    jump block1(v2)
block6:
    v26: Float64 = prim arrayref(v1, v2)
    unreachable
end
",
            expect![[r#"
                arrayref(v1, v7): in range
                arrayset(v1, v10, v7): in range
                arrayref(v1, v2): checked
            "#]],
        );
    }

    #[test]
    fn reversed_loop_without_a_check_stays_checked() {
        // The same loop entered straight from the entry: nothing bounds the counter above.
        check(
            r"
function rvs_shift(Vector{Float64}, Int64) -> Int64 [typed, nsz]
block0(v0: Nothing, v1: Vector{Float64}, v2: Int64):
    jump block1(v2)
block1(v3: Int64):
    v4: Int64 = const 0
    v5: Bool = prim slt_int(v4, v3)
    br v5, block2, block3(v3)
block2:
    v6: Int64 = const 1
    v7: Int64 = prim add_int(v3, v6)
    v8: Float64 = prim arrayref(v1, v7)
    v12: Int64 = prim sub_int(v3, v6)
    jump block1(v12)
block3(v13: Int64):
    return v13
end
",
            expect![[r#"
                arrayref(v1, v7): checked
            "#]],
        );
    }
    #[test]
    fn popped_array_is_not_a_stack() {
        // Program B's pullback: the fdata `v5` is popped from a rule-state stack (an element,
        // whose length stays fixed), and the hoisted check bounds the counter by its length.
        check(
            r"
function rvs program_b(Vector{Float64}) -> Tuple{NoRData, NoRData} [optimised, nsz]
block0(v0: RuleState, v1: Float64):
    v2: Int64 = const 1
    v3: Type{Vector{Vector{Float64}}} = const type Vector{Vector{Float64}}
    v4: Vector{Vector{Float64}} = prim rule_stack(v0, v2, v3)
    v15: Int64 = const 0
    v16: Type{Vector{Int64}} = const type Vector{Int64}
    v17: Vector{Int64} = prim rule_stack(v0, v15, v16)
    v5: Vector{Float64} = prim array_pop(v4)
    v24: Int64 = prim array_pop(v17)
    v75: Float64 = const 5.0
    v54: Float64 = prim mul_float(v1, v75)
    v76: Int64 = prim arraylen(v5)
    v77: Int64 = const 0
    v78: Int64 = prim sub_int(v76, v77)
    v79: Bool = prim sle_int(v24, v78)
    br v79, block13, block12
block2:
    v18: Int64 = prim array_pop(v17)
    v62: NoRData = const singleton NoRData
    v63: NoRData = const singleton NoRData
    v64: Tuple{NoRData, NoRData} = tuple(v62, v63)
    return v64
block4(v66: Int64):
    v26: Int64 = const 0
    v27: Bool = prim slt_int(v26, v66)
    br v27, block10, block2
block10:
    v28: Int64 = const 1
    v29: Int64 = prim sub_int(v66, v28)
    v39: Int64 = const 1
    v42: Int64 = prim add_int(v39, v29)
    v59: Float64 = prim arrayref(v5, v42)
    v60: Float64 = prim add_float(v59, v54)
    v61: Vector{Float64} = prim arrayset(v5, v60, v42)
    jump block4(v29)
block12:
    v80: Int64 = const 0
    v81: Bool = prim slt_int(v80, v24)
    br v81, block14, block2
block13:
    jump block4(v24)
block14:
    v87: Int64 = const 1
    v88: Float64 = prim arrayref(v5, v87)
    unreachable
end
",
            expect![[r#"
                arrayref(v5, v42): in range
                arrayset(v5, v60, v42): in range
                arrayref(v5, v87): checked
            "#]],
        );
    }
}
