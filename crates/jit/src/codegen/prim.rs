//! Emission of primitives: native scalar arithmetic, array access with its checks, rule
//! stacks, and the helpers the rest call.

use super::*;

impl Gen<'_, '_> {
    /// A primitive: native code where the operands are registers, fast paths for arrays of
    /// unboxed elements, else `eval_inst`.
    pub(super) fn prim(
        &mut self,
        i: Inst,
        op: Prim,
        args: &[Value],
    ) -> Result<Option<cir::Value>, String> {
        let f = self.f;
        let res = f.result(i);
        let rr = res.map(|r| self.rep(r));
        let reps: Vec<Rep> = args.iter().map(|a| self.rep(*a)).collect();
        let all_native = reps.iter().all(|r| is_reg(*r));
        let x = |g: &Self, k: usize| g.vals[&args[k]];
        // The second of a sine/cosine pair: computed with the first.
        if let Some(v) = res.and_then(|r| self.vals.get(&r)) {
            return Ok(Some(*v));
        }
        if let Some(&(s, c)) = self.trig_pairs.get(&i) {
            let a = x(self, 0);
            let buf = self.at(self.trig_buf);
            self.call("mc_sincos_f64", &[a, buf]);
            let sv = self.b.ins().stack_load(ct::I64, ct::F64, self.trig_buf, 0);
            let cv = self.b.ins().stack_load(ct::I64, ct::F64, self.trig_buf, 8);
            self.vals.insert(s, sv);
            self.vals.insert(c, cv);
            return Ok(Some(if op == Prim::Sin { sv } else { cv }));
        }
        if all_native && rr.is_some_and(is_reg) {
            if let Some(v) = self.native_prim(op, args, &reps) {
                return Ok(Some(v));
            }
        }
        use Prim::*;
        match op {
            // Integer division in registers; a zero divisor (and, for `div`, `typemin ÷ -1`)
            // raises `DivideError` on a cold path through the interpreter.
            SdivInt | SremInt
                if all_native && reps == [Rep::I64, Rep::I64] && rr == Some(Rep::I64) =>
            {
                let (xv, yv) = (x(self, 0), x(self, 1));
                let mut bad = self.b.ins().icmp_imm_s(IntCC::Equal, yv, 0);
                if op == SdivInt {
                    let m1 = self.b.ins().icmp_imm_s(IntCC::Equal, yv, -1);
                    let mn = self.b.ins().icmp_imm_s(IntCC::Equal, xv, i64::MIN);
                    let over = self.b.ins().band(m1, mn);
                    bad = self.b.ins().bor(bad, over);
                }
                self.raise_if(i, bad);
                // `srem` of `typemin` by -1 is 0 in Cranelift, as in Julia.
                let v = if op == SdivInt {
                    self.b.ins().sdiv(xv, yv)
                } else {
                    self.b.ins().srem(xv, yv)
                };
                return Ok(Some(v));
            }
            Sitofp if reps.len() == 2 && reps[1] == Rep::I64 => {
                if let Some(t @ (Rep::F64 | Rep::F32)) = rr {
                    let a1 = x(self, 1);
                    let v = self.b.ins().fcvt_from_sint(cl_type(t), a1);
                    return Ok(Some(v));
                }
            }
            Bitcast if reps.len() == 2 => match (rr, reps[1]) {
                (Some(Rep::I64), Rep::F64) => {
                    let a1 = x(self, 1);
                    return Ok(Some(self.b.ins().bitcast(ct::I64, MemFlagsData::new(), a1)));
                }
                (Some(Rep::F64), Rep::I64) => {
                    let a1 = x(self, 1);
                    return Ok(Some(self.b.ins().bitcast(ct::F64, MemFlagsData::new(), a1)));
                }
                _ => {}
            },
            Fpconvert if reps.len() == 2 => match (rr, reps[1]) {
                (Some(Rep::F64), Rep::F32) => {
                    let a1 = x(self, 1);
                    return Ok(Some(self.b.ins().fpromote(ct::F64, a1)));
                }
                (Some(Rep::F32), Rep::F64) => {
                    let a1 = x(self, 1);
                    return Ok(Some(self.b.ins().fdemote(ct::F32, a1)));
                }
                (Some(a), b) if a == b && is_reg(a) => return Ok(Some(x(self, 1))),
                _ => {}
            },
            RuleStack if self.rule_group.contains_key(&i) => {
                let r = res.ok_or("rule_stack without a result")?;
                let j = self.rule_group[&i];
                let objs = self
                    .rule_objs
                    .ok_or("grouped rule stacks without a buffer")?;
                // The first of the group fetches them all.
                if j == 0 {
                    let ctx = self.ctx();
                    let meta = self.b.ins().iconst(ct::I64, self.meta);
                    let st = self.slot_addr(args[0]);
                    let frame = self.at(self.frame_ss);
                    let out = self.at(objs);
                    let failed = self
                        .call("mc_rule_stacks", &[ctx, meta, st, frame, out])
                        .unwrap_or_else(|| unreachable!());
                    self.check(failed);
                }
                if self.tracks_array(r) {
                    let o = self
                        .b
                        .ins()
                        .stack_load(ct::I64, ct::I64, objs, (8 * j) as i32);
                    self.arr_obj.insert(r, o);
                }
                return Ok(None);
            }
            RuleStack if reps.len() == 3 && reps[0] == Rep::Boxed && reps[1] == Rep::I64 => {
                let r = res.ok_or("rule_stack without a result")?;
                let st = self.slot_addr(args[0]);
                let k = x(self, 1);
                let ty = self.value_ptr(args[2], 0);
                let out = self.slot_addr(r);
                let ctx = self.ctx();
                let meta = self.b.ins().iconst(ct::I64, self.meta);
                let inst = self.b.ins().iconst(ct::I32, i.as_u32() as i64);
                let o = self
                    .call("mc_rule_stack", &[ctx, meta, inst, st, k, ty, out])
                    .unwrap_or_else(|| unreachable!());
                let failed = self.b.ins().icmp_imm_s(IntCC::Equal, o, 0);
                self.check(failed);
                // The stack's object comes with it: no `mc_array_obj` call for it.
                if self.tracks_array(r) {
                    self.arr_obj.insert(r, o);
                }
                return Ok(None);
            }
            ArrayLen if self.arr_obj.contains_key(&args[0]) => {
                let o = self.arr_obj[&args[0]];
                let fl = self.view_flags(args[0]);
                let v = self
                    .b
                    .ins()
                    .load(ct::I64, fl, o, runtime::value::ArrayView::LEN);
                return Ok(Some(v));
            }
            // `size(A, d)` with a constant d, of an array of up to three dimensions: the view's
            // extents.
            ArraySize
                if self.arr_obj.contains_key(&args[0])
                    && matches!(f.types[args[0]], Type::Array(_, 1..=3))
                    && matches!(f.const_value(args[1]), Some(Const::Int(d)) if *d >= 1) =>
            {
                let Some(Const::Int(d)) = f.const_value(args[1]) else {
                    unreachable!()
                };
                let nd = match f.types[args[0]] {
                    Type::Array(_, n) => n,
                    _ => unreachable!(),
                };
                let o = self.arr_obj[&args[0]];
                let fl = self.view_flags(args[0]);
                let v = match (*d, nd) {
                    (1, _) => self
                        .b
                        .ins()
                        .load(ct::I64, fl, o, runtime::value::ArrayView::D1),
                    (2, 2) => self
                        .b
                        .ins()
                        .load(ct::I64, fl, o, runtime::value::ArrayView::D2),
                    (2, 3) => self
                        .b
                        .ins()
                        .load(ct::I64, fl, o, runtime::value::ArrayView::E2),
                    (3, 3) => self
                        .b
                        .ins()
                        .load(ct::I64, fl, o, runtime::value::ArrayView::E3),
                    _ => self.b.ins().iconst(ct::I64, 1),
                };
                return Ok(Some(v));
            }
            // `size(A, d)` with a run-time d: the extent chosen; d < 1 raises on a cold path.
            ArraySize
                if self.arr_obj.contains_key(&args[0])
                    && matches!(f.types[args[0]], Type::Array(_, 1 | 2))
                    && reps == [Rep::Boxed, Rep::I64] =>
            {
                let two = matches!(f.types[args[0]], Type::Array(_, 2));
                let d = x(self, 1);
                let bad = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, d, 1);
                self.raise_if(i, bad);
                let o = self.arr_obj[&args[0]];
                let fl = self.view_flags(args[0]);
                let one = self.b.ins().iconst(ct::I64, 1);
                let d1 = self
                    .b
                    .ins()
                    .load(ct::I64, fl, o, runtime::value::ArrayView::D1);
                let d2 = if two {
                    self.b
                        .ins()
                        .load(ct::I64, fl, o, runtime::value::ArrayView::D2)
                } else {
                    one
                };
                let is1 = self.b.ins().icmp_imm_s(IntCC::Equal, d, 1);
                let is2 = self.b.ins().icmp_imm_s(IntCC::Equal, d, 2);
                let rest = self.b.ins().select(is2, d2, one);
                return Ok(Some(self.b.ins().select(is1, d1, rest)));
            }
            // The length of a tuple of known type; an element at a run-time index (bounds
            // errors on the evaluated path).
            TupleLen if matches!(f.types[args[0]], Type::Tuple(_)) && rr == Some(Rep::I64) => {
                let Type::Tuple(ts) = &f.types[args[0]] else {
                    unreachable!()
                };
                return Ok(Some(self.b.ins().iconst(ct::I64, ts.len() as i64)));
            }
            TupleGetIndex
                if reps == [Rep::Boxed, Rep::I64]
                    && matches!(f.types[args[0]], Type::Tuple(_))
                    && !self.fused.contains_key(&args[0])
                    && !self.packed.contains_key(&args[0])
                    && rr.is_some_and(|r| r != Rep::Unit) =>
            {
                let r = res.ok_or("tuple_getindex without a result")?;
                let t = self.slot_addr(args[0]);
                let k = x(self, 1);
                let k0 = self.b.ins().iadd_imm_s(k, -1);
                return self.field_read(i, t, k0, r);
            }
            // An element of a vector of boxed values (arrays of arrays, the pullback's saved
            // arrays): cloned out in place; out of bounds or unassigned takes the evaluated
            // path, which raises.
            ArrayRef
                if reps == [Rep::Boxed, Rep::I64]
                    && rr == Some(Rep::Boxed)
                    && boxed_storage(&f.types[args[0]], self.env.types) =>
            {
                let r = res.ok_or("arrayref without a result")?;
                let a = self.slot_addr(args[0]);
                let k = x(self, 1);
                let out = self.slot_addr(r);
                self.call_or_fallback(i, "mc_array_get_value", &[a, k, out]);
                return Ok(None);
            }
            // An element of a vector of boxed values set in place; out of bounds takes the
            // evaluated path, which raises.
            ArraySet
                if reps == [Rep::Boxed, Rep::Boxed, Rep::I64]
                    && boxed_storage(&f.types[args[0]], self.env.types) =>
            {
                let a = self.slot_addr(args[0]);
                let v = self.slot_addr(args[1]);
                let k = x(self, 2);
                self.call_or_fallback(i, "mc_array_set_value", &[a, v, k]);
                self.array_result(res, args[0]);
                return Ok(None);
            }
            // A whole-array copy: straight to the runtime (a failure takes the evaluated path,
            // which raises).
            ArrayCopy if reps == [Rep::Boxed] && rr == Some(Rep::Boxed) => {
                let r = res.ok_or("array_copy without a result")?;
                let a = self.slot_addr(args[0]);
                let out = self.slot_addr(r);
                self.call_or_fallback(i, "mc_array_copy", &[a, out]);
                return Ok(None);
            }
            // Reverse mode's zero fdata arrays and its accumulation into fdata (scalar operands
            // boxed for the call), matrix products
            // (new, or added into an array), triangular solves, Cholesky factors, triangle
            // copies and row exchanges: the runtime's primitive called directly (failures take
            // the evaluated path, which raises; none writes anything before it can fail).
            ArrayZeroLike | ArrayAccumulate | ArrayAxpy | ArrayAddScalar | ArrayMulAdd
            | ArrayMatmul | ArrayGemmAdd | ArrayTrsolve | ArrayCholesky | ArrayTricopy
            | ArrayRowswap
                if reps.iter().all(|r| *r != Rep::Unit) && rr == Some(Rep::Boxed) =>
            {
                let r = res.ok_or("an array primitive without a result")?;
                self.direct(i, op, args, r, "mc_prim_direct");
                return Ok(None);
            }
            // The AD runtime's primitives on values alone (fdata of globals, reverse data of
            // values typed only at run time): called without the machine, so the threads of
            // a threaded loop do not queue for it (a failure takes the evaluated path).
            op if op.ad_runtime_on_values() && rr == Some(Rep::Boxed) => {
                let r = res.ok_or("an AD runtime primitive without a result")?;
                self.direct(i, op, args, r, "mc_ad_direct");
                return Ok(None);
            }
            // Whether a threaded loop's share runs (a thread-local read).
            InThreadedLoop if rr == Some(Rep::Bool) => {
                let v = self
                    .call("mc_in_threaded_loop", &[])
                    .ok_or("mc_in_threaded_loop without a result")?;
                return Ok(Some(v));
            }
            // The running share's random number generator (a thread-local read).
            TaskRng if rr == Some(Rep::Boxed) && reps == [Rep::Boxed] => {
                let r = res.ok_or("task_rng without a result")?;
                let d = self.value_ptr(args[0], 0);
                let out = self.slot_addr(r);
                self.call("mc_task_rng", &[d, out]);
                return Ok(None);
            }
            // The child state of a rule call site, when it exists already.
            RuleChild if reps == [Rep::Boxed, Rep::I64] && rr == Some(Rep::Boxed) => {
                let r = res.ok_or("rule_child without a result")?;
                let st = self.slot_addr(args[0]);
                let k = x(self, 1);
                let out = self.slot_addr(r);
                self.call_or_fallback(i, "mc_rule_child", &[st, k, out]);
                return Ok(None);
            }
            ArrayRef
                if (2..=4).contains(&args.len())
                    && self.arr_obj.contains_key(&args[0])
                    && reps[1..].iter().all(|r| *r == Rep::I64)
                    && matches!(rr, Some(Rep::F64 | Rep::I64)) =>
            {
                let r = rr.unwrap_or(Rep::F64);
                let o = self.arr_obj[&args[0]];
                let idx: Vec<cir::Value> = (1..args.len()).map(|k| x(self, k)).collect();
                let fl = self.view_flags(args[0]);
                let addr = self.checked_elem(i, o, &idx, fl);
                let v = self
                    .b
                    .ins()
                    .load(cl_type(r), MemFlagsData::trusted(), addr, 0);
                return Ok(Some(v));
            }
            ArraySet
                if (3..=5).contains(&args.len())
                    && self.arr_obj.contains_key(&args[0])
                    && reps[2..].iter().all(|r| *r == Rep::I64)
                    && elem_rep(&f.types[args[0]]) == Some(reps[1]) =>
            {
                let o = self.arr_obj[&args[0]];
                let idx: Vec<cir::Value> = (2..args.len()).map(|k| x(self, k)).collect();
                let fl = self.view_flags(args[0]);
                let addr = self.checked_elem(i, o, &idx, fl);
                let v = x(self, 1);
                self.b.ins().store(MemFlagsData::trusted(), v, addr, 0);
                self.array_result(res, args[0]);
                return Ok(None);
            }
            ArrayLen if reps.len() == 1 && reps[0] == Rep::Boxed => {
                let p = self.slot_addr(args[0]);
                return Ok(self.call("mc_arraylen", &[p]));
            }
            ArrayPush if reps[0] == Rep::Boxed && self.fused.contains_key(&args[1]) => {
                let p = self.fused[&args[1]].clone();
                let tup = f
                    .def_inst(args[1])
                    .ok_or("a fused tuple without a definition")?;
                let elems = f.insts[tup].args();
                let vals: Vec<cir::Value> = elems.iter().map(|e| self.vals[e]).collect();
                let join = self.b.create_block();
                if let Some(o) = self.arr_obj.get(&args[0]).copied() {
                    let helper = self.stack_push(
                        o,
                        p.size,
                        |g, addr| {
                            for (v, off) in vals.iter().zip(&p.offsets) {
                                g.b.ins()
                                    .store(MemFlagsData::trusted(), *v, addr, *off as i32);
                            }
                        },
                        join,
                    );
                    self.b.switch_to_block(helper);
                }
                for (v, off) in vals.iter().zip(&p.offsets) {
                    self.b
                        .ins()
                        .stack_store(ct::I64, *v, self.pack_buf, *off as i32);
                }
                let a = self.slot_addr(args[0]);
                let size = self.b.ins().iconst(ct::I64, p.size as i64);
                let buf = self.at(self.pack_buf);
                let st = self.call_preserving("mc_push_bytes", &[a, buf, size]);
                // A vector of isbits tuples always stores bytes: it fails only for want of
                // memory.
                let fail = self.out_of_memory_exit();
                self.b.ins().brif(st, fail, &[], join, &[]);
                self.b.switch_to_block(join);
                self.array_result(res, args[0]);
                return Ok(None);
            }
            ArrayPush
                if reps[0] == Rep::Boxed
                    && matches!(reps[1], Rep::F64 | Rep::I64)
                    && elem_rep(&f.types[args[0]]) == Some(reps[1]) =>
            {
                let xv = x(self, 1);
                let join = self.b.create_block();
                if let Some(o) = self.arr_obj.get(&args[0]).copied() {
                    let helper = self.stack_push(
                        o,
                        8,
                        |g, addr| {
                            g.b.ins().store(MemFlagsData::trusted(), xv, addr, 0);
                        },
                        join,
                    );
                    self.b.switch_to_block(helper);
                }
                let helper = if reps[1] == Rep::F64 {
                    "mc_push_f64"
                } else {
                    "mc_push_i64"
                };
                let a = self.slot_addr(args[0]);
                let st = self.call_preserving(helper, &[a, xv]);
                // A vector of floats or integers stores them unboxed: it fails only for want
                // of memory, or because it shares its memory; the generic path raises.
                let fail = self.b.create_block();
                self.b.set_cold_block(fail);
                self.b.ins().brif(st, fail, &[], join, &[]);
                self.b.switch_to_block(fail);
                self.generic_raising(i);
                self.b.switch_to_block(join);
                self.array_result(res, args[0]);
                return Ok(None);
            }
            ArrayPop if res.is_some_and(|r| self.packed.contains_key(&r)) => {
                let r = res.unwrap_or_else(|| unreachable!());
                let (p, buf) = self.packed[&r].clone();
                let Type::Tuple(ts) = f.types[r].clone() else {
                    return Err("a packed value that is not a tuple".into());
                };
                // Every vector of register tuples has its object fetched (`track_array`).
                let o = *self
                    .arr_obj
                    .get(&args[0])
                    .ok_or("a popped tuple whose vector has no array object")?;
                let join = self.b.create_block();
                {
                    let helper = self.stack_pop(
                        o,
                        p.size,
                        |g, addr| {
                            for (t, off) in ts.iter().zip(&p.offsets) {
                                let ty = cl_type(rep(t));
                                let fl = MemFlagsData::trusted();
                                let v = g.b.ins().load(ty, fl, addr, *off as i32);
                                g.b.ins().store(fl, v, buf, *off as i32);
                            }
                            vec![]
                        },
                        join,
                    );
                    // An empty vector: raise the error, never rejoining (no spills).
                    self.b.switch_to_block(helper);
                    self.generic_raising(i);
                    self.b.switch_to_block(join);
                    return Ok(None);
                }
            }
            ArrayPop
                if self.arr_obj.contains_key(&args[0])
                    && matches!(rr, Some(Rep::F64 | Rep::I64))
                    && elem_rep(&f.types[args[0]]) == rr =>
            {
                let r = rr.unwrap_or(Rep::F64);
                let join = self.b.create_block();
                let jv = self.b.append_block_param(join, cl_type(r));
                let o = self.arr_obj[&args[0]];
                {
                    let helper = self.stack_pop(
                        o,
                        8,
                        |g, addr| {
                            vec![g.b.ins().load(cl_type(r), MemFlagsData::trusted(), addr, 0)]
                        },
                        join,
                    );
                    // An empty vector: raise the error, never rejoining (no spills).
                    self.b.switch_to_block(helper);
                    self.generic_raising(i);
                    self.b.switch_to_block(join);
                    return Ok(Some(jv));
                }
            }
            // A new vector or matrix of unboxed numbers: straight to the runtime, without the
            // interpreter's operand handling (errors take the evaluated path, which raises).
            ArrayNew
                if rr == Some(Rep::Boxed)
                    && matches!(reps.len(), 2 | 3)
                    && reps[1..].iter().all(|r| *r == Rep::I64) =>
            {
                let r = res.ok_or("array_new without a result")?;
                let code = match &f.types[r] {
                    Type::Array(e, rank) if *rank as usize == reps.len() - 1 => {
                        abi::NEW_ARRAY_ELEMS.iter().position(|t| t == &**e)
                    }
                    _ => None,
                };
                if let Some(code) = code {
                    let ctx = self.ctx();
                    let code = self.b.ins().iconst(ct::I64, code as i64);
                    let rank = self.b.ins().iconst(ct::I64, (reps.len() - 1) as i64);
                    let d1 = x(self, 1);
                    let d2 = if reps.len() == 3 {
                        x(self, 2)
                    } else {
                        self.b.ins().iconst(ct::I64, 1)
                    };
                    let out = self.slot_addr(r);
                    self.call_or_fallback(i, "mc_array_new", &[ctx, code, rank, d1, d2, out]);
                    return Ok(None);
                }
            }
            // Reverse mode's save of a boxed field that may be `#undef`.
            GetFieldRaw
                if reps[0] == Rep::Boxed && reps[1] == Rep::I64 && rr == Some(Rep::Boxed) =>
            {
                let r = res.ok_or("getfield_raw without a result")?;
                let o = self.slot_addr(args[0]);
                let k = x(self, 1);
                let k0 = self.b.ins().iadd_imm_s(k, -1);
                let out = self.slot_addr(r);
                self.call_or_fallback(i, "mc_getfield_raw", &[o, k0, out]);
                return Ok(None);
            }
            // Vectors of boxed values (the reverse pass's stacks of saved aggregates).
            ArrayPush
                if reps[0] == Rep::Boxed && boxed_storage(&f.types[args[0]], self.env.types) =>
            {
                let a = self.slot_addr(args[0]);
                let xp = self.value_ptr(args[1], 0);
                // A value nothing reads after the push (what a forwards pass saves, mostly)
                // moves onto the vector.
                let helper = if self.dead_after(i, args[1]) {
                    "mc_push_value_move"
                } else {
                    "mc_push_value"
                };
                self.call_or_fallback(i, helper, &[a, xp]);
                self.array_result(res, args[0]);
                return Ok(None);
            }
            // A tuple whose fields alone are read: its fields into their slots (see `lower`).
            ArrayPop
                if res.is_some_and(|r| self.slot_fields.contains_key(&r))
                    && self.field_slots.contains_key(&i) =>
            {
                let r = res.unwrap_or_else(|| unreachable!());
                let n = fields_of(&f.types[r]).map_or(0, |ts| ts.len());
                let a = self.slot_addr(args[0]);
                let off = (self.field_slots[&i] * VALUE_SIZE) as i32;
                let dst = self.b.ins().stack_addr(ct::I64, self.frame_ss, off);
                let nf = self.b.ins().iconst(ct::I64, n as i64);
                let st = self
                    .call("mc_pop_fields", &[a, dst, nf])
                    .unwrap_or_else(|| unreachable!());
                // Else the generic pop (or its error) into the tuple's own slot, then its
                // fields.
                self.fallback_unless_ok_then(i, st, |g| {
                    let src = g.slot_addr(r);
                    let dst = g.b.ins().stack_addr(ct::I64, g.frame_ss, off);
                    let nf = g.b.ins().iconst(ct::I64, n as i64);
                    g.call("mc_untuple", &[dst, src, nf]);
                });
                return Ok(None);
            }
            ArrayPop
                if reps[0] == Rep::Boxed
                    && rr == Some(Rep::Boxed)
                    && boxed_storage(&f.types[args[0]], self.env.types) =>
            {
                let r = res.unwrap_or_else(|| unreachable!());
                let a = self.slot_addr(args[0]);
                let out = self.slot_addr(r);
                self.call_or_fallback(i, "mc_pop_value", &[a, out]);
                return Ok(None);
            }
            _ => {}
        }
        Ok(self.generic(i))
    }

    /// The result of a write that returns its array: the array itself (copied only if used).
    pub(super) fn array_result(&mut self, res: Option<Value>, arr: Value) {
        if let Some(r) = res.filter(|r| self.used.contains(r)) {
            let src = self.slot_addr(arr);
            let dst = self.slot_addr(r);
            self.call("mc_clone", &[dst, src]);
            if let Some(o) = self.arr_obj.get(&arr).copied() {
                self.arr_obj.insert(r, o);
            }
        }
    }

    /// Pushes inline onto the vector with object `o` when its capacity allows: `write` stores
    /// the `size`-byte element at the address it is given, then the fast path jumps to `join`.
    /// Returns the (cold) block to emit the out-of-line push in, which must end at `join`.
    pub(super) fn stack_push(
        &mut self,
        o: cir::Value,
        size: u32,
        write: impl FnOnce(&mut Self, cir::Value),
        join: cir::Block,
    ) -> cir::Block {
        use runtime::value::ArrayView as AV;
        let fl = MemFlagsData::trusted();
        let len = self.b.ins().load(ct::I64, fl, o, AV::LEN);
        let cap = self.b.ins().load(ct::I64, fl, o, AV::CAP);
        let ok = self.b.ins().icmp(IntCC::UnsignedLessThan, len, cap);
        let fast = self.b.create_block();
        let helper = self.b.create_block();
        self.b.set_cold_block(helper);
        // The cold block as the branch's first target: Cranelift's lowering order (a
        // reverse postorder visiting first targets first) then places it after the loop's
        // hot blocks, so that the calls in it do not end live ranges inside the loop.
        let full = self.b.ins().icmp_imm_s(IntCC::Equal, ok, 0);
        self.b.ins().brif(full, helper, &[], fast, &[]);
        self.b.switch_to_block(fast);
        let ptr = self.b.ins().load(ct::I64, fl, o, AV::PTR);
        let off = self.b.ins().imul_imm_s(len, size as i64);
        let addr = self.b.ins().iadd(ptr, off);
        write(self, addr);
        let n1 = self.b.ins().iadd_imm_s(len, 1);
        self.b.ins().store(fl, n1, o, AV::LEN);
        self.b.ins().store(fl, n1, o, AV::D1);
        self.b.ins().jump(join, &[]);
        helper
    }

    /// Pops inline from a non-empty vector with object `o`: `read` loads the `size`-byte
    /// element at the address it is given and returns `join`'s arguments. Returns the (cold)
    /// block for the out-of-line pop, which must end at `join`.
    pub(super) fn stack_pop(
        &mut self,
        o: cir::Value,
        size: u32,
        read: impl FnOnce(&mut Self, cir::Value) -> Vec<cir::Value>,
        join: cir::Block,
    ) -> cir::Block {
        use runtime::value::ArrayView as AV;
        let fl = MemFlagsData::trusted();
        let len = self.b.ins().load(ct::I64, fl, o, AV::LEN);
        let cap = self.b.ins().load(ct::I64, fl, o, AV::CAP);
        let fast = self.b.create_block();
        let helper = self.b.create_block();
        self.b.set_cold_block(helper);
        // The cold block first (see `stack_push`). Out of line when empty (`len - 1` wraps)
        // or when the view shows no capacity (a shared array, which cannot shrink).
        let n = self.b.ins().iadd_imm_s(len, -1);
        let out_of_line = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, n, cap);
        self.b.ins().brif(out_of_line, helper, &[], fast, &[]);
        self.b.switch_to_block(fast);
        let ptr = self.b.ins().load(ct::I64, fl, o, AV::PTR);
        let off = self.b.ins().imul_imm_s(n, size as i64);
        let addr = self.b.ins().iadd(ptr, off);
        let vals = read(self, addr);
        self.b.ins().store(fl, n, o, AV::LEN);
        self.b.ins().store(fl, n, o, AV::D1);
        let args: Vec<BlockArg> = vals.into_iter().map(BlockArg::Value).collect();
        self.b.ins().jump(join, &args);
        helper
    }

    /// Flags for loads from the view of array `arr`: read-only unless its storage may change.
    pub(super) fn view_flags(&self, arr: Value) -> MemFlagsData {
        if self.stability.fixed(arr) {
            MemFlagsData::trusted().with_readonly().with_can_move()
        } else {
            MemFlagsData::trusted()
        }
    }

    /// Fetches the array object of `v` if it is an array of `Float64`, `Int64` or tuples of
    /// register values (the element storages native code reads and writes in place).
    /// Whether native code keeps the array object of `v` at hand for inline element access:
    /// arrays of unboxed floats, integers or packed tuples.
    pub(super) fn tracks_array(&self, v: Value) -> bool {
        let t = &self.f.types[v];
        let packed_elems = match t {
            Type::Array(e, 1) => packed_layout(e, self.env.types).is_some(),
            _ => false,
        };
        self.rep(v) == Rep::Boxed
            && (matches!(elem_rep(t), Some(Rep::F64 | Rep::I64)) || packed_elems)
    }

    pub(super) fn track_array(&mut self, v: Value) {
        if self.tracks_array(v) {
            let s = self.slot_addr(v);
            let o = self
                .call("mc_array_obj", &[s])
                .unwrap_or_else(|| unreachable!());
            self.arr_obj.insert(v, o);
        }
    }

    /// The address of element `idx` of the array object `o`, continuing on the in-bounds path;
    /// out of bounds, instruction `i` runs in the interpreter to raise the error and the code
    /// leaves through the error exit (never rejoining, so values in registers need not survive
    /// the call). Accesses proved in range have no check.
    pub(super) fn checked_elem(
        &mut self,
        i: Inst,
        o: cir::Value,
        idx: &[cir::Value],
        fl: MemFlagsData,
    ) -> cir::Value {
        if self.inbounds.contains(&i) {
            let k = self.linear_index(o, idx, fl);
            return self.elem_addr(o, k, fl);
        }
        let (k, ok) = self.inline_index(o, idx, fl);
        let bad = self.b.ins().icmp_imm_s(IntCC::Equal, ok, 0);
        self.raise_if(i, bad);
        self.elem_addr(o, k, fl)
    }

    /// Where `bad` holds, instruction `i` runs in the interpreter (in a cold block) to raise
    /// its error and the code leaves through the error exit; code continues on the other path.
    pub(super) fn raise_if(&mut self, i: Inst, bad: cir::Value) {
        let slow = self.b.create_block();
        self.b.set_cold_block(slow);
        let fast = self.b.create_block();
        // The cold block first (see `stack_push`).
        self.b.ins().brif(bad, slow, &[], fast, &[]);
        self.b.switch_to_block(slow);
        self.generic_raising(i);
        self.b.switch_to_block(fast);
    }

    /// The 0-based linear index of `idx` (1-based, one to three) into the array with object
    /// `obj`, known to be in bounds.
    pub(super) fn linear_index(
        &mut self,
        obj: cir::Value,
        idx: &[cir::Value],
        flags: MemFlagsData,
    ) -> cir::Value {
        let i1 = self.b.ins().iadd_imm_s(idx[0], -1);
        if idx.len() == 1 {
            return i1;
        }
        let mut j1 = self.b.ins().iadd_imm_s(idx[1], -1);
        if let Some(&k) = idx.get(2) {
            // Three indices: the last runs over the third and later dimensions.
            let k1 = self.b.ins().iadd_imm_s(k, -1);
            let e2 = self
                .b
                .ins()
                .load(ct::I64, flags, obj, runtime::value::ArrayView::E2);
            let page = self.b.ins().imul(k1, e2);
            j1 = self.b.ins().iadd(j1, page);
        }
        let d1 = self
            .b
            .ins()
            .load(ct::I64, flags, obj, runtime::value::ArrayView::D1);
        let col = self.b.ins().imul(j1, d1);
        self.b.ins().iadd(i1, col)
    }

    /// The 0-based linear index of `idx` (1-based, one to three) into the array with object
    /// `obj`, and whether it is in bounds.
    pub(super) fn inline_index(
        &mut self,
        obj: cir::Value,
        idx: &[cir::Value],
        flags: MemFlagsData,
    ) -> (cir::Value, cir::Value) {
        use runtime::value::ArrayView;
        let i1 = self.b.ins().iadd_imm_s(idx[0], -1);
        if idx.len() == 1 {
            let len = self.b.ins().load(ct::I64, flags, obj, ArrayView::LEN);
            let ok = self.b.ins().icmp(IntCC::UnsignedLessThan, i1, len);
            (i1, ok)
        } else {
            let mut j1 = self.b.ins().iadd_imm_s(idx[1], -1);
            let d1 = self.b.ins().load(ct::I64, flags, obj, ArrayView::D1);
            let d2 = self.b.ins().load(ct::I64, flags, obj, ArrayView::D2);
            let oki = self.b.ins().icmp(IntCC::UnsignedLessThan, i1, d1);
            let mut okj = self.b.ins().icmp(IntCC::UnsignedLessThan, j1, d2);
            if let Some(&k) = idx.get(2) {
                // Three indices: j within the second dimension, k within the product of the
                // others.
                let k1 = self.b.ins().iadd_imm_s(k, -1);
                let e2 = self.b.ins().load(ct::I64, flags, obj, ArrayView::E2);
                let e3 = self.b.ins().load(ct::I64, flags, obj, ArrayView::E3);
                okj = self.b.ins().icmp(IntCC::UnsignedLessThan, j1, e2);
                let okk = self.b.ins().icmp(IntCC::UnsignedLessThan, k1, e3);
                okj = self.b.ins().band(okj, okk);
                let page = self.b.ins().imul(k1, e2);
                j1 = self.b.ins().iadd(j1, page);
            }
            let ok = self.b.ins().band(oki, okj);
            let col = self.b.ins().imul(j1, d1);
            let k = self.b.ins().iadd(i1, col);
            (k, ok)
        }
    }

    /// The address of element `k` (0-based) of the array with object `obj`.
    pub(super) fn elem_addr(
        &mut self,
        obj: cir::Value,
        k: cir::Value,
        flags: MemFlagsData,
    ) -> cir::Value {
        let ptr = self
            .b
            .ins()
            .load(ct::I64, flags, obj, runtime::value::ArrayView::PTR);
        let off = self.b.ins().ishl_imm_u(k, 3);
        self.b.ins().iadd(ptr, off)
    }

    /// Scalar primitives on register operands (`None`: not handled natively).
    pub(super) fn native_prim(
        &mut self,
        op: Prim,
        args: &[Value],
        reps: &[Rep],
    ) -> Option<cir::Value> {
        use Prim::*;
        let mut a: Vec<cir::Value> = args.iter().map(|v| self.vals[v]).collect();
        // A constant operand of a commutative float operation goes second, where x86 code
        // reads it from the constant pool instead of materialising it in a register (in a
        // loop: every iteration). `x * c` and `c * x` are the same float.
        if matches!(op, AddFloat | MulFloat)
            && self.f.const_value(args[0]).is_some()
            && self.f.const_value(args[1]).is_none()
        {
            a.swap(0, 1);
        }
        let ins = self.b.ins();
        let v = match (op, a.as_slice()) {
            (AddInt, [x, y]) => ins.iadd(*x, *y),
            (SubInt, [x, y]) => ins.isub(*x, *y),
            (MulInt, [x, y]) => ins.imul(*x, *y),
            (AndInt | AndBool, [x, y]) => ins.band(*x, *y),
            (OrInt | OrBool, [x, y]) => ins.bor(*x, *y),
            (XorInt | XorBool, [x, y]) => ins.bxor(*x, *y),
            (ShlInt, [x, n]) => ins.ishl(*x, *n),
            (AshrInt, [x, n]) => ins.sshr(*x, *n),
            (LshrInt, [x, n]) => ins.ushr(*x, *n),
            (NegInt, [x]) => ins.ineg(*x),
            (NotInt, [x]) => ins.bnot(*x),
            (NotBool, [x]) => ins.bxor_imm_s(*x, 1),
            (EqInt, [x, y]) => ins.icmp(IntCC::Equal, *x, *y),
            (NeInt, [x, y]) => ins.icmp(IntCC::NotEqual, *x, *y),
            (SltInt, [x, y]) => ins.icmp(IntCC::SignedLessThan, *x, *y),
            (SleInt, [x, y]) => ins.icmp(IntCC::SignedLessThanOrEqual, *x, *y),
            (BoolToInt, [x]) => ins.uextend(ct::I64, *x),
            (AddFloat, [x, y]) => ins.fadd(*x, *y),
            (SubFloat, [x, y]) => ins.fsub(*x, *y),
            (MulFloat, [x, y]) => ins.fmul(*x, *y),
            (DivFloat, [x, y]) => ins.fdiv(*x, *y),
            (NegFloat, [x]) => ins.fneg(*x),
            (AbsFloat, [x]) => ins.fabs(*x),
            (SelectFloat, [c, x, y]) => ins.select(*c, *x, *y),
            (Copysign, [x, y]) => ins.fcopysign(*x, *y),
            (Sqrt, [x]) => ins.sqrt(*x),
            (Floor, [x]) => ins.floor(*x),
            (Ceil, [x]) => ins.ceil(*x),
            (Trunc, [x]) => ins.trunc(*x),
            (Round, [x]) => ins.nearest(*x),
            (EqFloat, [x, y]) => ins.fcmp(FloatCC::Equal, *x, *y),
            (NeFloat, [x, y]) => ins.fcmp(FloatCC::NotEqual, *x, *y),
            (LtFloat, [x, y]) => ins.fcmp(FloatCC::LessThan, *x, *y),
            (LeFloat, [x, y]) => ins.fcmp(FloatCC::LessThanOrEqual, *x, *y),
            (Fma, [x, y, z]) => {
                let name = if reps[0] == Rep::F64 {
                    "mc_fma_f64"
                } else {
                    "mc_fma_f32"
                };
                return self.call(name, &[*x, *y, *z]);
            }
            (PowiFloat, [x, n]) if reps[1] == Rep::I64 => {
                let name = if reps[0] == Rep::F64 {
                    "mc_powi_f64"
                } else {
                    "mc_powi_f32"
                };
                return self.call(name, &[*x, *n]);
            }
            (Polygamma, [m, x]) if reps[0] == Rep::I64 => {
                let name = if reps[1] == Rep::F64 {
                    "mc_polygamma_f64"
                } else {
                    "mc_polygamma_f32"
                };
                return self.call(name, &[*m, *x]);
            }
            _ => {
                let float = |r: &Rep| matches!(r, Rep::F64 | Rep::F32);
                if reps.iter().all(float)
                    && (ir::fold::cmath::unary(op).is_some() && a.len() == 1
                        || ir::fold::cmath::binary(op).is_some() && a.len() == 2)
                {
                    let sfx = if reps[0] == Rep::F64 { "f64" } else { "f32" };
                    let name = format!("mc_{}_{sfx}", op.name());
                    return self.call(&name, &a);
                }
                return None;
            }
        };
        Some(v)
    }
}
