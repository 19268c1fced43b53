//! Two-lane (`f64x2`) versions of simple counted loops over float arrays.
//!
//! A loop qualifies when it is a header that only tests a counter and one body block that
//! only reads and writes `Float64` arrays (at one linear index, or two of a matrix) at indices
//! affine in the counters, computes with `+ - * /`, negation, `abs` and `sqrt` (each lane
//! rounds exactly as the scalar operation does), and jumps back. The loop carries nothing but
//! counters (no sum or other value carried from trip to trip: adding in pairs would round
//! differently from adding in order), and an array it writes is read only at the index the
//! same trip writes.
//!
//! Edges from outside enter such a loop through a test of its trip count: loops of fewer
//! than `MIN_TRIPS` trips run as they are. Longer ones are checked at run time: every write
//! steps by one element per trip, every index stays in range for all the loop's trips (per
//! dimension), and no written array shares memory with another array the loop touches. If
//! any check fails, the scalar loop runs (and raises where Julia does). Otherwise each step
//! runs two trips at once — each operation on both lanes; a read stepping by one element
//! loads both at once, any other (an argument broadcast along a dimension steps by none)
//! loads each lane — then a last trip of an odd count runs one lane wide, and control leaves
//! through the loop's exit with the counters the scalar loop would have. As no trip reads what
//! another writes, the values are those of running the trips in turn; the interpreter runs
//! the scalar loop, and both give the same numbers.

use super::*;

/// A loop that qualifies: its two blocks and how its counters run.
pub(super) struct Shape {
    pub(super) header: Block,
    body: Block,
    /// Each header parameter's change per trip.
    steps: Vec<i64>,
    /// The header parameter the exit test reads (it steps by one), its bound (defined before
    /// the loop), and whether the loop runs while the counter is below the bound (`true`) or
    /// at most the bound (`false`).
    test: (usize, Value, bool),
}

/// A loop that runs two trips at a time (see the module documentation).
pub(super) struct VecLoop {
    shape: Shape,
    /// The blocks edges from outside the loop enter instead of the header (their parameters
    /// are the header's): `gate` goes to `entry` if the loop is long enough to check (an edge
    /// that can hold code makes that test itself), `entry` checks whether the loop can run two
    /// trips at a time and does.
    gate: cir::Block,
    entry: cir::Block,
}

/// The operations a two-lane loop body may compute with.
fn lane_op(op: Prim) -> Option<usize> {
    use Prim::*;
    match op {
        AddFloat | SubFloat | MulFloat | DivFloat => Some(2),
        NegFloat | AbsFloat | Sqrt => Some(1),
        _ => None,
    }
}

/// The array, indices and whether it writes, of an element read or write.
fn array_access(data: &InstData) -> Option<(Value, &[Value], bool)> {
    match data {
        InstData::Prim {
            op: Prim::ArrayRef,
            args,
        } => Some((*args.first()?, &args[1..], false)),
        InstData::Prim {
            op: Prim::ArraySet,
            args,
        } if args.len() >= 3 => Some((args[0], &args[2..], true)),
        _ => None,
    }
}

/// The loops of `f` that qualify (`loops`: its natural loops, by header). `tracks` says which
/// arrays native code keeps the object of (`Gen::tracks_array`); `used`, which values some
/// instruction reads.
pub(super) fn plan(
    f: &Function,
    loops: &[(Block, FxHashSet<Block>)],
    used: &FxHashSet<Value>,
    tracks: impl Fn(Value) -> bool,
) -> Vec<Shape> {
    let mut out = Vec::new();
    for (h, body) in loops {
        if let Some(p) = qualify(f, *h, body, used, &tracks) {
            out.push(p);
        }
    }
    out
}

fn qualify(
    f: &Function,
    h: Block,
    body: &FxHashSet<Block>,
    used: &FxHashSet<Value>,
    tracks: &impl Fn(Value) -> bool,
) -> Option<Shape> {
    if body.len() != 2 || h == f.entry() {
        return None;
    }
    let b = *body.iter().find(|&&x| x != h)?;
    let params = &f.blocks[h].params;
    if params.iter().any(|p| f.types[*p] != Type::Int64) {
        return None;
    }
    let in_loop = |v: Value| match f.values[v] {
        ir::ValueDef::Param(blk, _) => blk == h || blk == b,
        ir::ValueDef::Inst(i) => f.blocks[h].insts.contains(&i) || f.blocks[b].insts.contains(&i),
    };
    let param_index = |v: Value| params.iter().position(|p| *p == v);
    // The header: one comparison of a counter with a bound, then the branch.
    let [c, br] = f.blocks[h].insts.as_slice() else {
        return None;
    };
    let InstData::Prim { op, args } = &f.insts[*c] else {
        return None;
    };
    let InstData::Branch {
        cond,
        then_dest,
        then_args,
        else_dest,
        else_args,
    } = &f.insts[*br]
    else {
        return None;
    };
    if Some(*cond) != f.result(*c) || then_dest == else_dest {
        return None;
    }
    let stay_if_true = *then_dest == b;
    let (inside_args, outside) = if stay_if_true {
        (then_args, *else_dest)
    } else {
        (else_args, *then_dest)
    };
    if (*then_dest != b && *else_dest != b) || !inside_args.is_empty() || body.contains(&outside) {
        return None;
    }
    let &[x, y] = args.as_slice() else {
        return None;
    };
    // `(counter, bound)` and whether the loop runs while `counter < bound` (else `≤`).
    let (iv, bound, strict) = match (op, stay_if_true) {
        (Prim::SltInt, true) => (x, y, true),
        (Prim::SltInt, false) => (y, x, false),
        (Prim::SleInt, true) => (x, y, false),
        (Prim::SleInt, false) => (y, x, true),
        _ => return None,
    };
    let j = param_index(iv)?;
    if in_loop(bound) || f.types[bound] != Type::Int64 {
        return None;
    }
    // The body: lane operations, reads and writes, integer index arithmetic, constants; the
    // jump back gives each counter its next value.
    let insts = &f.blocks[b].insts;
    let (last, rest) = insts.split_last()?;
    let InstData::Jump { dest, args: next } = &f.insts[*last] else {
        return None;
    };
    if *dest != h || next.len() != params.len() {
        return None;
    }
    let mut steps = Vec::with_capacity(params.len());
    for (k, (&p, &n)) in params.iter().zip(next).enumerate() {
        let step = if n == p {
            0
        } else {
            let InstData::Prim { op, args } = &f.insts[f.def_inst(n)?] else {
                return None;
            };
            let konst = |v: Value| match f.const_value(v) {
                Some(Const::Int(k)) => Some(*k),
                _ => None,
            };
            match (op, args.as_slice()) {
                (Prim::AddInt, &[a, s]) if a == p => konst(s)?,
                (Prim::AddInt, &[s, a]) if a == p => konst(s)?,
                (Prim::SubInt, &[a, s]) if a == p => konst(s)?.checked_neg()?,
                _ => return None,
            }
        };
        if k == j && step != 1 {
            return None;
        }
        steps.push(step);
    }
    // A `Float64` array from before the loop, read or written at one index (linear) or at
    // two (of a matrix).
    let access = |a: Value, ks: &[Value]| {
        let rank = match &f.types[a] {
            Type::Array(e, n) if **e == Type::Float64 => *n as usize,
            _ => return false,
        };
        (ks.len() == 1 || ks.len() == rank && rank == 2) && !in_loop(a) && tracks(a)
    };
    let mut stores: FxHashMap<Value, &[Value]> = FxHashMap::default();
    let mut loads: Vec<(Value, &[Value])> = Vec::new();
    let mut indices = Vec::new();
    for &i in rest {
        let r = f.result(i);
        match &f.insts[i] {
            InstData::Const(Const::Int(_) | Const::F64(_)) => {}
            InstData::Prim { op, args } => match (op, args.as_slice()) {
                (Prim::AddInt | Prim::SubInt | Prim::MulInt, [_, _]) => {}
                (Prim::ArrayRef | Prim::ArraySet, _) => {
                    let (a, ks, store) = array_access(&f.insts[i])?;
                    if !access(a, ks)
                        || store
                            && (r.is_some_and(|r| used.contains(&r))
                                || stores.insert(a, ks).is_some())
                    {
                        return None;
                    }
                    if !store {
                        loads.push((a, ks));
                    }
                    indices.extend_from_slice(ks);
                }
                (op, args) => {
                    if lane_op(*op) != Some(args.len())
                        || r.is_none_or(|r| f.types[r] != Type::Float64)
                        || args.iter().any(|a| f.types[*a] != Type::Float64)
                    {
                        return None;
                    }
                }
            },
            _ => return None,
        }
    }
    if stores.is_empty() {
        return None;
    }
    // An array both read and written is read only where the same trip writes it.
    if loads
        .iter()
        .any(|(a, ks)| stores.get(a).is_some_and(|s| s != ks))
    {
        return None;
    }
    // Indices change by the same amount every trip (checked to be one element at run time).
    let mut degree = FxHashMap::default();
    for k in indices {
        if affine_degree(f, k, params, &in_loop, &mut degree)? > 1 {
            return None;
        }
    }
    Some(Shape {
        header: h,
        body: b,
        steps,
        test: (j, bound, strict),
    })
}

/// The degree of integer `v` in the trip number (0: the same every trip, 1: affine), or
/// `None` if it is not built from counters, constants and values from before the loop by
/// `+`, `-` and `*`.
fn affine_degree(
    f: &Function,
    v: Value,
    params: &[Value],
    in_loop: &impl Fn(Value) -> bool,
    memo: &mut FxHashMap<Value, u32>,
) -> Option<u32> {
    if let Some(d) = memo.get(&v) {
        return Some(*d);
    }
    let d = if params.contains(&v) {
        1
    } else if !in_loop(v) || f.const_value(v).is_some() {
        0
    } else {
        let InstData::Prim { op, args } = &f.insts[f.def_inst(v)?] else {
            return None;
        };
        let &[a, b] = args.as_slice() else {
            return None;
        };
        let (da, db) = (
            affine_degree(f, a, params, in_loop, memo)?,
            affine_degree(f, b, params, in_loop, memo)?,
        );
        match op {
            Prim::AddInt | Prim::SubInt => da.max(db),
            Prim::MulInt => da + db,
            _ => return None,
        }
    };
    memo.insert(v, d);
    Some(d)
}

impl VecLoop {
    pub(super) fn new(shape: Shape, gate: cir::Block, entry: cir::Block) -> VecLoop {
        VecLoop { shape, gate, entry }
    }
}

/// The fewest trips a loop takes two at a time: shorter loops run one trip at a time, as the
/// run-time checks (a few dozen instructions per entry into the loop) would cost about what
/// pairing their trips saves.
const MIN_TRIPS: i64 = 16;

/// Lane operation `op` on `xs` (two-lane or scalar: the instructions are the same).
fn lane_inst(b: &mut FunctionBuilder, op: Prim, xs: &[cir::Value]) -> cir::Value {
    let ins = b.ins();
    match (op, xs) {
        (Prim::AddFloat, [x, y]) => ins.fadd(*x, *y),
        (Prim::SubFloat, [x, y]) => ins.fsub(*x, *y),
        (Prim::MulFloat, [x, y]) => ins.fmul(*x, *y),
        (Prim::DivFloat, [x, y]) => ins.fdiv(*x, *y),
        (Prim::NegFloat, [x]) => ins.fneg(*x),
        (Prim::AbsFloat, [x]) => ins.fabs(*x),
        (Prim::Sqrt, [x]) => ins.sqrt(*x),
        _ => unreachable!("a lane operation with its operand count"),
    }
}

/// How a trip reads its arrays: one trip (scalar loads), or two trips with both lanes loaded
/// at once (the read steps by one element) or each on its own.
#[derive(Clone, Copy)]
enum Read {
    One,
    Both,
    Each,
}

/// Flags of the two-lane loads and stores: in range (checked before the loop), not known to be 16-byte
/// aligned (so x86 code never folds them into an instruction that needs alignment).
fn lane_flags() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

impl Gen<'_, '_> {
    /// Where an edge into `d` from the block being lowered goes: the gate of the loop `d`
    /// heads when the edge comes from outside it.
    pub(super) fn target(&self, d: Block) -> cir::Block {
        match self.vec_loops.get(&d) {
            Some(l) if self.cur != l.shape.header && self.cur != l.shape.body => l.gate,
            _ => self.blocks[&d],
        }
    }

    /// Ends the block being lowered with its edge into `d`, passing `args`: into a loop that
    /// can run two trips at a time, from outside it, a test of the trip count chooses between
    /// the two-lane entry and the loop itself.
    pub(super) fn jump_to(&mut self, d: Block, args: &[BlockArg]) {
        let (entry, test) = match self.vec_loops.get(&d) {
            Some(l) if self.cur != l.shape.header && self.cur != l.shape.body => {
                (l.entry, l.shape.test)
            }
            _ => {
                let cb = self.blocks[&d];
                self.b.ins().jump(cb, args);
                return;
            }
        };
        let p0: Vec<cir::Value> = args
            .iter()
            .map(|a| match a {
                BlockArg::Value(v) => *v,
                _ => unreachable!("a loop counter passed as a value"),
            })
            .collect();
        let worth = self.long_enough(test, &p0);
        let header = self.blocks[&d];
        self.b.ins().brif(worth, entry, args, header, args);
    }

    /// The number of trips of the loop with exit test `test` (see [`Shape`]) entered with
    /// counters `p0` (wrapped when the bound is far below the counter; `long_enough` sorts
    /// those out).
    fn trip_count(
        &mut self,
        (j, bound, strict): (usize, Value, bool),
        p0: &[cir::Value],
    ) -> cir::Value {
        let hi = self.vals[&bound];
        let diff = self.b.ins().isub(hi, p0[j]);
        if strict {
            diff
        } else {
            self.b.ins().iadd_imm_s(diff, 1)
        }
    }

    /// Whether the loop with exit test `test` (see [`Shape`]), entered with counters `p0`, is
    /// worth checking the loop for two trips at a time: `MIN_TRIPS` or more (and at most
    /// 2^40, which keeps the index arithmetic of the checks from wrapping).
    fn long_enough(&mut self, test: (usize, Value, bool), p0: &[cir::Value]) -> cir::Value {
        let trips = self.trip_count(test, p0);
        let from_min = self.b.ins().iadd_imm_s(trips, -MIN_TRIPS);
        self.b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, from_min, 1 << 40)
    }

    /// Emits the two-lane entry of every qualifying loop (after the rest of the function, so
    /// every value from before the loop has its Cranelift value).
    pub(super) fn emit_vector_loops(&mut self) {
        let mut headers: Vec<Block> = self.vec_loops.keys().copied().collect();
        headers.sort();
        for h in headers {
            let l = self.vec_loops.remove(&h).unwrap_or_else(|| unreachable!());
            self.emit_vector_loop(&l);
            self.vec_loops.insert(h, l);
        }
    }

    fn emit_vector_loop(&mut self, v: &VecLoop) {
        let (f, l) = (self.f, &v.shape);
        let header = self.blocks[&l.header];
        let to_header = |g: &mut Self, ps: &[cir::Value]| {
            let args: Vec<BlockArg> = ps.iter().map(|v| BlockArg::Value(*v)).collect();
            g.b.ins().jump(header, &args);
        };
        // The gate: the trip count's test.
        self.b.switch_to_block(v.gate);
        let p0: Vec<cir::Value> = self.b.block_params(v.gate).to_vec();
        let args: Vec<BlockArg> = p0.iter().map(|v| BlockArg::Value(*v)).collect();
        let worth = self.long_enough(l.test, &p0);
        self.b.ins().brif(worth, v.entry, &args, header, &args);
        self.b.switch_to_block(v.entry);
        let p0: Vec<cir::Value> = self.b.block_params(v.entry).to_vec();
        let insts = f.blocks[l.body].insts.clone();
        let params = f.blocks[l.header].params.clone();
        let in_body = |v: Value| f.def_inst(v).is_some_and(|d| insts.contains(&d));
        // Every value from before the loop is at hand (its definition dominates the loop's
        // entries); should one not be, the scalar loop runs.
        let mut operands = vec![l.test.1];
        for &i in &insts {
            f.insts[i].for_each_arg(|a| operands.push(a));
        }
        let missing = operands.iter().any(|&v| {
            !params.contains(&v)
                && !in_body(v)
                && f.const_value(v).is_none()
                && !self.vals.contains_key(&v)
                && !self.arr_obj.contains_key(&v)
        });
        if missing {
            to_header(self, &p0);
            return;
        }
        let (j, bound, strict) = l.test;
        let hi = self.vals[&bound];
        let trips = self.trip_count(l.test, &p0);
        let p0_args: Vec<BlockArg> = p0.iter().map(|v| BlockArg::Value(*v)).collect();
        // The counters after one trip.
        let p1: Vec<cir::Value> = p0
            .iter()
            .zip(&l.steps)
            .map(|(v, s)| self.b.ins().iadd_imm_s(*v, *s))
            .collect();
        // Each array's storage (data pointer, length, end), fetched once; the written ones.
        let mut storage: FxHashMap<Value, (cir::Value, cir::Value, cir::Value)> =
            FxHashMap::default();
        let mut arrays: Vec<Value> = Vec::new();
        let mut stored: Vec<Value> = Vec::new();
        let fl = MemFlagsData::trusted();
        let mut ok = self.b.ins().iconst(ct::I8, 1);
        let last = self.b.ins().iadd_imm_s(trips, -1);
        // The checks: each access's indices stay in range over the loop's trips (else the
        // scalar loop runs, and raises where it should) ... Each access: its element offset on the first trip
        // and its step per trip, in elements; writes step by one element.
        let mut at0 = FxHashMap::default();
        let mut at1 = FxHashMap::default();
        let mut accesses: FxHashMap<Inst, (cir::Value, cir::Value)> = FxHashMap::default();
        let mut unit = self.b.ins().iconst(ct::I8, 1);
        for &i in &insts {
            let Some((a, ks, store)) = array_access(&f.insts[i]) else {
                continue;
            };
            let o = self.arr_obj[&a];
            let (ptr, len, _) = *storage.entry(a).or_insert_with(|| {
                let ptr = self
                    .b
                    .ins()
                    .load(ct::I64, fl, o, runtime::value::ArrayView::PTR);
                let len = self
                    .b
                    .ins()
                    .load(ct::I64, fl, o, runtime::value::ArrayView::LEN);
                let bytes = self.b.ins().ishl_imm_u(len, 3);
                arrays.push(a);
                (ptr, len, self.b.ins().iadd(ptr, bytes))
            });
            if store {
                stored.push(a);
            }
            let extents = if ks.len() == 1 {
                vec![len]
            } else {
                [runtime::value::ArrayView::D1, runtime::value::ArrayView::D2]
                    .iter()
                    .map(|off| self.b.ins().load(ct::I64, fl, o, *off))
                    .collect()
            };
            let mut offset = self.b.ins().iconst(ct::I64, 0);
            let mut step = self.b.ins().iconst(ct::I64, 0);
            let mut scale = self.b.ins().iconst(ct::I64, 1);
            for (&k, &n) in ks.iter().zip(&extents) {
                let k0 = self.affine_at(k, &params, &insts, &p0, &mut at0);
                let k1 = self.affine_at(k, &params, &insts, &p1, &mut at1);
                let d = self.b.ins().isub(k1, k0);
                // |d| ≤ 2^20, so `d * last` cannot wrap.
                let shifted = self.b.ins().iadd_imm_s(d, 1 << 20);
                let small =
                    self.b
                        .ins()
                        .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, shifted, 1 << 21);
                let dl = self.b.ins().imul(d, last);
                let kl = self.b.ins().iadd(k0, dl);
                // 1 ≤ k ≤ n at both ends (an affine index lies between them).
                let mut within = small;
                for x in [k0, kl] {
                    let x1 = self.b.ins().iadd_imm_s(x, -1);
                    let fits = self.b.ins().icmp(IntCC::UnsignedLessThan, x1, n);
                    within = self.b.ins().band(within, fits);
                }
                ok = self.b.ins().band(ok, within);
                let k0m1 = self.b.ins().iadd_imm_s(k0, -1);
                let o1 = self.b.ins().imul(k0m1, scale);
                offset = self.b.ins().iadd(offset, o1);
                let s1 = self.b.ins().imul(d, scale);
                step = self.b.ins().iadd(step, s1);
                scale = self.b.ins().imul(scale, n);
            }
            let is_unit = self.b.ins().icmp_imm_s(IntCC::Equal, step, 1);
            if store {
                ok = self.b.ins().band(ok, is_unit);
            } else {
                unit = self.b.ins().band(unit, is_unit);
            }
            let bytes = self.b.ins().ishl_imm_u(offset, 3);
            let base = self.b.ins().iadd(ptr, bytes);
            accesses.insert(i, (base, step));
        }
        // ... and no written array shares memory with another array of the loop.
        for &s in &stored {
            for &a in &arrays {
                if a != s {
                    let ((sp, _, se), (ap, _, ae)) = (storage[&s], storage[&a]);
                    let before = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, se, ap);
                    let after = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, ae, sp);
                    let apart = self.b.ins().bor(before, after);
                    ok = self.b.ins().band(ok, apart);
                }
            }
        }
        // Operands that are the same in every trip, in both lanes (and in one, for the last
        // trip of an odd count).
        let mut lanes: FxHashMap<Value, cir::Value> = FxHashMap::default();
        let mut ones: FxHashMap<Value, cir::Value> = FxHashMap::default();
        for &i in &insts {
            let InstData::Prim { op, args } = &f.insts[i] else {
                continue;
            };
            let floats: &[Value] = match op {
                Prim::ArraySet => &args[1..2],
                op if lane_op(*op).is_some() => args,
                _ => &[],
            };
            for &a in floats {
                let computed = in_body(a) && f.const_value(a).is_none();
                if computed || lanes.contains_key(&a) {
                    continue;
                }
                let x = match f.const_value(a) {
                    Some(Const::F64(c)) => self.b.ins().f64const(*c),
                    _ => self.vals[&a],
                };
                let v = self.b.ins().splat(ct::F64X2, x);
                lanes.insert(a, v);
                ones.insert(a, x);
            }
        }
        // Two loops of two trips at a time: one where every read steps by one element (a
        // load of both lanes at once), one that reads each lane on its own (an argument
        // broadcast along a dimension steps by none); both leave through `vx`.
        let vx = self.b.create_block();
        let tx = self.b.append_block_param(vx, ct::I64);
        let heads = [self.b.create_block(), self.b.create_block()];
        let zero = [BlockArg::Value(self.b.ins().iconst(ct::I64, 0))];
        let fast = self.b.create_block();
        self.b.ins().brif(ok, fast, &[], header, &p0_args);
        self.b.switch_to_block(fast);
        self.b.ins().brif(unit, heads[0], &zero, heads[1], &zero);
        for (gather, vh) in [false, true].into_iter().zip(heads) {
            let mut lanes = lanes.clone();
            let t = self.b.append_block_param(vh, ct::I64);
            let vb = self.b.create_block();
            // Two trips remain while the counter (after `t` trips) and the next are in range.
            self.b.switch_to_block(vh);
            let iv = self.b.ins().iadd(p0[j], t);
            let next = self.b.ins().iadd_imm_s(iv, 1);
            let cc = if strict {
                IntCC::SignedLessThan
            } else {
                IntCC::SignedLessThanOrEqual
            };
            let first = self.b.ins().icmp(cc, iv, hi);
            let second = self.b.ins().icmp(cc, next, hi);
            let both = self.b.ins().band(first, second);
            self.b.ins().brif(both, vb, &[], vx, &[BlockArg::Value(t)]);
            self.b.switch_to_block(vb);
            let read = if gather { Read::Each } else { Read::Both };
            self.trips(&insts, &accesses, &mut lanes, t, read);
            let t2 = self.b.ins().iadd_imm_s(t, 2);
            self.b.ins().jump(vh, &[BlockArg::Value(t2)]);
        }
        // After the trips taken two at a time, the last trip of an odd count, one lane wide;
        // then the loop's exit with the counters after all trips. (The vector loop never goes
        // back into the scalar one: values the scalar loop keeps in registers would otherwise
        // have to live through the vector loop too.)
        self.b.switch_to_block(vx);
        let odd = self.b.ins().icmp(IntCC::SignedLessThan, tx, trips);
        let one = self.b.create_block();
        let done = self.b.create_block();
        self.b.ins().brif(odd, one, &[], done, &[]);
        self.b.switch_to_block(one);
        self.trips(&insts, &accesses, &mut ones, tx, Read::One);
        self.b.ins().jump(done, &[]);
        self.b.switch_to_block(done);
        let ps: Vec<cir::Value> = p0
            .iter()
            .zip(&l.steps)
            .map(|(v, s)| {
                let d = self.b.ins().imul_imm_s(trips, *s);
                self.b.ins().iadd(*v, d)
            })
            .collect();
        self.leave(l, &params, &ps);
    }

    /// The header's exit edge, taken with the header's parameters `params` holding `ps`.
    fn leave(&mut self, l: &Shape, params: &[Value], ps: &[cir::Value]) {
        let f = self.f;
        let br = *f.blocks[l.header]
            .insts
            .last()
            .unwrap_or_else(|| unreachable!());
        let InstData::Branch {
            then_dest,
            then_args,
            else_dest,
            else_args,
            ..
        } = &f.insts[br]
        else {
            unreachable!("a qualifying loop's header ends with a branch")
        };
        let (dest, args) = if *then_dest == l.body {
            (*else_dest, else_args)
        } else {
            (*then_dest, then_args)
        };
        let saved: Vec<Option<cir::Value>> = params
            .iter()
            .zip(ps)
            .map(|(p, v)| self.vals.insert(*p, *v))
            .collect();
        let cur = std::mem::replace(&mut self.cur, l.header);
        self.edge(dest, args);
        self.cur = cur;
        for (p, old) in params.iter().zip(saved) {
            match old {
                Some(v) => self.vals.insert(*p, v),
                None => self.vals.remove(p),
            };
        }
    }

    /// The body `insts` from trip `t` on, `width` trips at once (one or two); `accesses`
    /// holds each read's and write's address on the first trip and step per trip (in
    /// elements), `vals` the values so far (two-lane ones for two trips). Two trips' reads
    /// load both lanes at once where `Read::Both`, each lane on its own where `Read::Each`.
    fn trips(
        &mut self,
        insts: &[Inst],
        accesses: &FxHashMap<Inst, (cir::Value, cir::Value)>,
        vals: &mut FxHashMap<Value, cir::Value>,
        t: cir::Value,
        read: Read,
    ) {
        let f = self.f;
        let off = self.b.ins().ishl_imm_u(t, 3);
        for &i in insts {
            let InstData::Prim { op, args } = &f.insts[i] else {
                continue;
            };
            let v = match op {
                Prim::ArrayRef => {
                    let (base, step) = accesses[&i];
                    let at = |g: &mut Self, trip: cir::Value| {
                        let k = g.b.ins().imul(step, trip);
                        let bytes = g.b.ins().ishl_imm_u(k, 3);
                        let a = g.b.ins().iadd(base, bytes);
                        g.b.ins().load(ct::F64, lane_flags(), a, 0)
                    };
                    match read {
                        Read::One => at(self, t),
                        Read::Each => {
                            let next = self.b.ins().iadd_imm_s(t, 1);
                            let (x0, x1) = (at(self, t), at(self, next));
                            let v = self.b.ins().scalar_to_vector(ct::F64X2, x0);
                            self.b.ins().insertlane(v, x1, 1)
                        }
                        Read::Both => {
                            let addr = self.b.ins().iadd(base, off);
                            self.b.ins().load(ct::F64X2, lane_flags(), addr, 0)
                        }
                    }
                }
                Prim::ArraySet => {
                    let addr = self.b.ins().iadd(accesses[&i].0, off);
                    self.b.ins().store(lane_flags(), vals[&args[1]], addr, 0);
                    continue;
                }
                op if lane_op(*op).is_some() => {
                    let xs: Vec<cir::Value> = args.iter().map(|a| vals[a]).collect();
                    lane_inst(&mut self.b, *op, &xs)
                }
                // Integer index arithmetic: the addresses come from the trip count.
                _ => continue,
            };
            if let Some(r) = f.result(i) {
                vals.insert(r, v);
            }
        }
    }

    /// Integer `v` of the loop body evaluated with the header's parameters `params` set to
    /// `at` (emitted in the current block; `memo` holds what is computed already).
    fn affine_at(
        &mut self,
        v: Value,
        params: &[Value],
        body: &[Inst],
        at: &[cir::Value],
        memo: &mut FxHashMap<Value, cir::Value>,
    ) -> cir::Value {
        if let Some(x) = memo.get(&v) {
            return *x;
        }
        let f = self.f;
        let x = if let Some(k) = params.iter().position(|p| *p == v) {
            at[k]
        } else if let Some(Const::Int(c)) = f.const_value(v) {
            self.b.ins().iconst(ct::I64, *c)
        } else if let Some(d) = f.def_inst(v).filter(|d| body.contains(d)) {
            let InstData::Prim { op, args } = &f.insts[d] else {
                unreachable!("an index made by integer arithmetic")
            };
            let (a, b) = (args[0], args[1]);
            let a = self.affine_at(a, params, body, at, memo);
            let b = self.affine_at(b, params, body, at, memo);
            match op {
                Prim::AddInt => self.b.ins().iadd(a, b),
                Prim::SubInt => self.b.ins().isub(a, b),
                Prim::MulInt => self.b.ins().imul(a, b),
                _ => unreachable!("an index made by integer arithmetic"),
            }
        } else {
            // From before the loop.
            self.vals[&v]
        };
        memo.insert(v, x);
        x
    }
}
