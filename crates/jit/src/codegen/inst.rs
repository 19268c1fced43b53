//! Emission of each instruction kind, of block edges and of returns.

use super::*;

impl Gen<'_, '_> {
    /// The instruction through `eval_inst`: its result, if a register value.
    pub(super) fn generic(&mut self, i: Inst) -> Option<cir::Value> {
        // An instruction of type `Union{}` (a `throw`) never returns: what follows it is dead,
        // emitted into a block nothing reaches.
        if self
            .f
            .result(i)
            .is_some_and(|r| self.f.types[r] == Type::Bottom)
        {
            self.generic_raising(i);
            let dead = self.b.create_block();
            self.b.switch_to_block(dead);
            return None;
        }
        let (st, rr) = self.eval_call(i);
        self.check(st);
        let r = rr.filter(|r| is_reg(*r))?;
        Some(self.b.ins().stack_load(ct::I64, cl_type(r), self.fout, 0))
    }

    /// A static call: straight into the callee's native code once the call site's cell holds
    /// its entry (the arguments passed as an array of bitwise copies of the caller's values,
    /// which the callee only reads; the result assigned to its slot), else through
    /// `eval_inst`, resolving the cell on the first such call. Its result, if a register value.
    pub(super) fn invoke(&mut self, i: Inst, args: &[Value]) -> Option<cir::Value> {
        let res = self.f.result(i);
        let rr = res.map(|r| self.rep(r));
        let reg = rr.filter(|r| is_reg(*r));
        let cell = self.b.ins().iconst(ct::I64, self.call_cells[&i]);
        let e = self.b.ins().load(ct::I64, MemFlagsData::trusted(), cell, 0);
        let direct = self.b.ins().icmp_imm_u(IntCC::UnsignedGreaterThan, e, 1);
        let direct_blk = self.b.create_block();
        let slow = self.b.create_block();
        let resolve = self.b.create_block();
        let long_way = self.b.create_block();
        let failed = self.b.create_block();
        for blk in [resolve, failed] {
            self.b.set_cold_block(blk);
        }
        let join = self.b.create_block();
        let jv = reg.map(|r| self.b.append_block_param(join, cl_type(r)));
        self.b.ins().brif(direct, direct_blk, &[], slow, &[]);
        // The long way (and the first call, which resolves the cell).
        self.b.switch_to_block(slow);
        let unresolved = self.b.ins().icmp_imm_u(IntCC::Equal, e, 0);
        self.b.ins().brif(unresolved, resolve, &[], long_way, &[]);
        self.b.switch_to_block(resolve);
        let ctx = self.ctx();
        let meta = self.b.ins().iconst(ct::I64, self.meta);
        let inst = self.b.ins().iconst(ct::I32, i.as_u32() as i64);
        self.call("mc_resolve_call", &[ctx, meta, inst, cell]);
        self.b.ins().jump(long_way, &[]);
        self.b.switch_to_block(long_way);
        let v = self.generic(i);
        // The tuple the long way built, spread into the field slots its readers read.
        if let Some(r) = res.filter(|r| self.slot_fields.contains_key(r)) {
            let n = fields_of(&self.f.types[r]).map_or(0, |ts| ts.len());
            let src = self.slot_addr(r);
            let off = (self.slot_fields[&r] * VALUE_SIZE) as i32;
            let dst = self.b.ins().stack_addr(ct::I64, self.frame_ss, off);
            let nf = self.b.ins().iconst(ct::I64, n as i64);
            self.call("mc_untuple", &[dst, src, nf]);
        }
        let out: Vec<BlockArg> = v.map(BlockArg::Value).into_iter().collect();
        self.b.ins().jump(join, &out);
        // Directly.
        self.b.switch_to_block(direct_blk);
        let ctx = self.ctx();
        let st = self
            .call("mc_enter_call", &[ctx])
            .unwrap_or_else(|| unreachable!());
        let entered = self.b.create_block();
        self.b.ins().brif(st, long_way, &[], entered, &[]);
        self.b.switch_to_block(entered);
        let n = args.len() as u32;
        let bufp = self.operand_copies(args);
        // A tuple returned field by field: its fields' slots, singletons set beforehand
        // unless only its fields are read (see `slot_fields`).
        let fields = res.and_then(|r| fields_of(&self.f.types[r]).map(|ts| (r, ts.to_vec())));
        let in_slots = res.is_some_and(|r| self.slot_fields.contains_key(&r));
        let ret = match (&fields, res, rr) {
            (Some((_, ts)), ..) => {
                let base = self.field_slots[&i];
                for (k, t) in ts.iter().enumerate() {
                    if rep(t) == Rep::Unit && !in_slots {
                        let dst = self.b.ins().stack_addr(
                            ct::I64,
                            self.frame_ss,
                            ((base + k as u32) * VALUE_SIZE) as i32,
                        );
                        self.const_into(self.unit_index[t], dst);
                    }
                }
                self.b
                    .ins()
                    .stack_addr(ct::I64, self.frame_ss, (base * VALUE_SIZE) as i32)
            }
            (None, Some(r), Some(Rep::Boxed)) => self.slot_addr(r),
            _ => self.scratch_addr(n),
        };
        let sig = match self.entry_sig {
            Some(s) => s,
            None => {
                let s = self.b.import_signature(entry_signature(&*self.env.module));
                self.entry_sig = Some(s);
                s
            }
        };
        let ctx = self.ctx();
        let call = self.b.ins().call_indirect(sig, e, &[ctx, bufp, ret]);
        let status = self.b.inst_results(call)[0];
        let ctx = self.ctx();
        self.call("mc_leave_call", &[ctx]);
        let ok = self.b.create_block();
        self.b.ins().brif(status, failed, &[], ok, &[]);
        self.b.switch_to_block(failed);
        let ctx = self.ctx();
        let meta = self.b.ins().iconst(ct::I64, self.meta);
        let inst = self.b.ins().iconst(ct::I32, i.as_u32() as i64);
        self.call("mc_call_failed", &[ctx, meta, inst]);
        self.b.ins().jump(self.err, &[]);
        self.b.switch_to_block(ok);
        match &fields {
            Some((r, ts)) if !in_slots => {
                let dst = self.slot_addr(*r);
                let nf = self.b.ins().iconst(ct::I64, ts.len() as i64);
                self.call("mc_tuple_take", &[dst, ret, nf]);
            }
            _ => {}
        }
        let out: Vec<BlockArg> = match reg {
            Some(r) => vec![BlockArg::Value(self.unbox(r, ret))],
            None => vec![],
        };
        self.b.ins().jump(join, &out);
        self.b.switch_to_block(join);
        jv
    }

    /// Field `k` (0-based, a run-time value) of the tuple or struct at `obj` as the result `r`
    /// of instruction `i`: a scalar by its bits (the register value returned), anything else
    /// cloned into `r`'s slot; the generic path where the fast one does not apply.
    pub(super) fn field_read(
        &mut self,
        i: Inst,
        obj: cir::Value,
        k: cir::Value,
        r: Value,
    ) -> Result<Option<cir::Value>, String> {
        let rr = self.rep(r);
        if is_reg(rr) {
            let out = self.at(self.fout);
            let st = self
                .call("mc_getfield_bits", &[obj, k, out])
                .unwrap_or_else(|| unreachable!());
            let v = self.reg_unless_ok(i, st, rr, |g| {
                g.b.ins().stack_load(ct::I64, cl_type(rr), g.fout, 0)
            })?;
            return Ok(Some(v));
        }
        let out = self.slot_addr(r);
        self.call_or_fallback(i, "mc_getfield", &[obj, k, out]);
        Ok(None)
    }

    /// The address of a new stack buffer holding bitwise copies of `args`' values, one after
    /// another (register values boxed first): an argument array for code that only reads it
    /// while the originals live (a direct call, a primitive called directly).
    pub(super) fn operand_copies(&mut self, args: &[Value]) -> cir::Value {
        let n = args.len() as u32;
        let buf = self.b.create_sized_stack_slot(StackSlotData::new(
            StackSlotKind::ExplicitSlot,
            n.max(1) * VALUE_SIZE,
            4,
        ));
        for (k, a) in args.iter().enumerate() {
            let p = self.value_ptr(*a, k as u32);
            for w in 0..VALUE_SIZE / 8 {
                let x = self
                    .b
                    .ins()
                    .load(ct::I64, MemFlagsData::trusted(), p, (8 * w) as i32);
                self.b
                    .ins()
                    .stack_store(ct::I64, x, buf, (k as u32 * VALUE_SIZE + 8 * w) as i32);
            }
        }
        self.at(buf)
    }

    /// The instruction through `eval_inst` where it can only raise (an access out of bounds,
    /// a pop from an empty vector): leaves through the error exit, never rejoining (so values
    /// in registers need not survive the call); `eval_inst` returning normally is an internal
    /// error.
    pub(super) fn generic_raising(&mut self, i: Inst) {
        let (st, _) = self.eval_call(i);
        let fail = self.unreachable_exit();
        self.b.ins().brif(st, self.err, &[], fail, &[]);
    }

    /// Whether storing `val` into field `k` of `obj` needs no conversion: `obj` is a mutable
    /// struct whose field `k` is declared with a type `val`'s type is under.
    fn stores_as_is(&self, obj: Value, k: u32, val: Value) -> bool {
        let env = &self.env.types;
        let t = &self.f.types[obj];
        matches!(t, Type::Struct(..))
            && env.is_mutable(t)
            && env
                .field_types(t)
                .and_then(|fts| fts.get(k as usize).cloned())
                .is_some_and(|ft| env.subtype(&self.f.types[val], &ft))
    }

    /// Stores the operands of `i` in `argv` as words: register values themselves, any other
    /// by address (see `abi::mc_eval`).
    pub(super) fn store_operands(&mut self, i: Inst) {
        let args = self.f.insts[i].args();
        for (k, a) in args.iter().enumerate() {
            let w = match self.rep(*a) {
                Rep::Boxed | Rep::Unit => self.value_ptr(*a, 0),
                _ => self.vals[a],
            };
            self.b
                .ins()
                .stack_store(ct::I64, w, self.argv, (8 * k) as i32);
        }
    }

    /// Calls `mc_eval` on instruction `i` (operands as words in `argv`: register values
    /// themselves, others by address); its status, and the representation of its result. A
    /// register result is left in the `fout` slot, any other in its frame slot.
    pub(super) fn eval_call(&mut self, i: Inst) -> (cir::Value, Option<Rep>) {
        self.store_operands(i);
        let res = self.f.result(i);
        let rr = res.map(|r| self.rep(r));
        let out = match (res, rr) {
            (Some(r), Some(Rep::Boxed)) if self.borrowed_fields.contains(&r) => {
                self.scratch_addr(0)
            }
            (Some(r), Some(Rep::Boxed)) => self.slot_addr(r),
            (Some(_), Some(Rep::Unit)) => self.scratch_addr(0),
            (Some(_), Some(_)) => self.at(self.fout),
            _ => self.b.ins().iconst(ct::I64, 0),
        };
        let ctx = self.ctx();
        let meta = self.b.ins().iconst(ct::I64, self.meta);
        let inst = self.b.ins().iconst(ct::I32, i.as_u32() as i64);
        let argv = self.at(self.argv);
        let st = self
            .call("mc_eval", &[ctx, meta, inst, argv, out])
            .unwrap_or_else(|| unreachable!());
        (st, rr)
    }

    pub(super) fn inst(&mut self, i: Inst) -> Result<(), String> {
        let f = self.f;
        let res = f.result(i);
        match &f.insts[i] {
            InstData::Const(c) => {
                let r = res.ok_or("a constant without a result")?;
                let v = match (c, self.rep(r)) {
                    (Const::Int(x), Rep::I64) => self.b.ins().iconst(ct::I64, *x),
                    (Const::F64(x), Rep::F64) => self.b.ins().f64const(*x),
                    (Const::F32(x), Rep::F32) => self.b.ins().f32const(*x),
                    (Const::Bool(x), Rep::Bool) => self.b.ins().iconst(ct::I8, *x as i64),
                    // Read in place where used (`slot_addr`, `value_ptr`).
                    (_, Rep::Unit | Rep::Boxed) => return Ok(()),
                    (c, r) => return Err(format!("constant {c:?} of representation {r:?}")),
                };
                self.vals.insert(r, v);
            }
            InstData::Prim { op, args } => {
                if let Some(v) = self.prim(i, *op, args)? {
                    if let Some(r) = res {
                        self.vals.insert(r, v);
                    }
                }
            }
            InstData::Tuple { .. } if res.is_some_and(|r| self.fused.contains_key(&r)) => {}
            // A field of a tuple a direct call or a pop left in its field slots.
            InstData::GetField {
                obj,
                field: ir::FieldRef::Index(k),
            } if self.slot_fields.contains_key(obj) => {
                let r = res.ok_or("a field read without a result")?;
                let off = ((self.slot_fields[obj] + *k) * VALUE_SIZE) as i32;
                match self.rep(r) {
                    Rep::Unit => {}
                    // A spread pop's field read is the field's slot itself.
                    Rep::Boxed if self.slots.get(&r) == Some(&(self.slot_fields[obj] + *k)) => {}
                    Rep::Boxed => {
                        let src = self.b.ins().stack_addr(ct::I64, self.frame_ss, off);
                        let dst = self.slot_addr(r);
                        self.call("mc_clone", &[dst, src]);
                    }
                    rr => {
                        let src = self.b.ins().stack_addr(ct::I64, self.frame_ss, off);
                        let v = self.unbox(rr, src);
                        self.vals.insert(r, v);
                    }
                }
            }
            InstData::GetField {
                obj,
                field: ir::FieldRef::Index(k),
            } if self.packed.contains_key(obj) => {
                let (p, addr) = self.packed[obj].clone();
                let r = res.ok_or("a field read without a result")?;
                let off = p.offsets[*k as usize] as i32;
                let ty = cl_type(self.rep(r));
                let v = self.b.ins().load(ty, MemFlagsData::trusted(), addr, off);
                self.vals.insert(r, v);
            }
            // A constant tuple is read in place where used, as other boxed constants.
            InstData::Tuple { .. } if self.const_index.contains_key(&i) => {}
            // A constant global's value, read in place in `Meta::consts`.
            InstData::GetGlobal(_) if self.const_index.contains_key(&i) => {}
            // A field-less immutable struct, one constant value.
            InstData::New { .. } if self.const_index.contains_key(&i) => {}
            // Its fields go straight into the caller's values at the return.
            InstData::Tuple { .. }
                if self.ret_fields.is_some()
                    && res.is_some_and(|r| self.returned_only.contains(&r)) => {}
            InstData::Tuple { .. } if res.is_some_and(|r| self.rep(r) == Rep::Boxed) => {
                let r = res.unwrap_or_else(|| unreachable!());
                self.store_operands(i);
                // A tuple only returned is built in the caller's return slot.
                let out = if self.returned_only.contains(&r) {
                    self.b.ins().stack_load(ct::I64, ct::I64, self.regs, 16)
                } else {
                    self.slot_addr(r)
                };
                let meta = self.b.ins().iconst(ct::I64, self.meta);
                let inst = self.b.ins().iconst(ct::I32, i.as_u32() as i64);
                let argv = self.at(self.argv);
                self.call("mc_tuple", &[meta, inst, argv, out]);
            }
            // An immutable struct (or immutable tangent, fdata or rdata of one) whose values
            // need no conversion to their fields' types.
            InstData::New { ty, args }
                if res.is_some_and(|r| self.rep(r) == Rep::Boxed)
                    && matches!(
                        ty,
                        Type::Struct(..) | Type::Tangent(_) | Type::FData(_) | Type::RData(_)
                    )
                    && !self.env.types.is_mutable(ty)
                    && self.env.types.field_types(ty).is_some_and(|fts| {
                        fts.len() == args.len()
                            && args
                                .iter()
                                .zip(&fts)
                                .all(|(a, ft)| self.env.types.subtype(&f.types[*a], ft))
                    }) =>
            {
                let r = res.unwrap_or_else(|| unreachable!());
                self.store_operands(i);
                let out = self.slot_addr(r);
                let meta = self.b.ins().iconst(ct::I64, self.meta);
                let inst = self.b.ins().iconst(ct::I32, i.as_u32() as i64);
                let argv = self.at(self.argv);
                self.call("mc_new_struct", &[meta, inst, argv, out]);
            }
            InstData::GetField {
                obj,
                field: ir::FieldRef::Index(k),
            } if self.rep(*obj) == Rep::Boxed
                && res.is_some_and(|r| self.rep(r) != Rep::Unit)
                && super::has_fields(&f.types[*obj]) =>
            {
                let r = res.unwrap_or_else(|| unreachable!());
                let o = self.slot_addr(*obj);
                let kv = self.b.ins().iconst(ct::I64, *k as i64);
                if self.borrowed_fields.contains(&r) {
                    // Never assigned: an unassigned field takes the raising path, whose
                    // result (if any) goes to scratch (see `eval_call`).
                    let out = self.slot_addr(r);
                    let st = self
                        .call("mc_getfield_borrow", &[o, kv, out])
                        .unwrap_or_else(|| unreachable!());
                    self.raise_if(i, st);
                } else if let Some(v) = self.field_read(i, o, kv, r)? {
                    self.vals.insert(r, v);
                }
            }
            InstData::SetField {
                obj,
                field: ir::FieldRef::Index(k),
                val,
            } if self.rep(*obj) == Rep::Boxed && self.stores_as_is(*obj, *k, *val) => {
                let o = self.slot_addr(*obj);
                let kv = self.b.ins().iconst(ct::I64, *k as i64);
                let st = match self.rep(*val) {
                    Rep::Boxed | Rep::Unit => {
                        let x = self.value_ptr(*val, 0);
                        self.call("mc_setfield", &[o, kv, x])
                    }
                    r => {
                        // A scalar goes by its bits, as a 64-bit word.
                        let x = self.vals[val];
                        let (bits, kind) = match r {
                            Rep::I64 => (x, 0),
                            Rep::F64 => (self.b.ins().bitcast(ct::I64, MemFlagsData::new(), x), 1),
                            Rep::F32 => {
                                let w = self.b.ins().bitcast(ct::I32, MemFlagsData::new(), x);
                                (self.b.ins().uextend(ct::I64, w), 2)
                            }
                            _ => (self.b.ins().uextend(ct::I64, x), 3),
                        };
                        let kind = self.b.ins().iconst(ct::I64, kind);
                        self.call("mc_setfield_bits", &[o, kv, bits, kind])
                    }
                }
                .unwrap_or_else(|| unreachable!());
                self.fallback_unless_ok(i, st);
            }
            InstData::Invoke { args, .. } if self.call_cells.contains_key(&i) => {
                if let (Some(v), Some(r)) = (self.invoke(i, args), res) {
                    self.vals.insert(r, v);
                }
            }
            // A value narrowed to an array type (reverse mode narrows fdata the AD runtime
            // returns): checked and cloned; a mismatch takes the evaluated path, which raises.
            InstData::TypeAssert { val, ty }
                if matches!(ty, Type::Array(..))
                    && self.rep(*val) == Rep::Boxed
                    && res.is_some_and(|r| self.rep(r) == Rep::Boxed) =>
            {
                let r = res.unwrap_or_else(|| unreachable!());
                let meta = self.b.ins().iconst(ct::I64, self.meta);
                let inst = self.b.ins().iconst(ct::I32, i.as_u32() as i64);
                let v = self.slot_addr(*val);
                let out = self.slot_addr(r);
                self.call_or_fallback(i, "mc_typeassert", &[meta, inst, v, out]);
            }
            InstData::Invoke { .. }
            | InstData::Call { .. }
            | InstData::New { .. }
            | InstData::Tuple { .. }
            | InstData::GetField { .. }
            | InstData::SetField { .. }
            | InstData::TypeAssert { .. }
            | InstData::GetGlobal(_)
            | InstData::SetGlobal(..)
            | InstData::StaticParam(_)
            | InstData::GetSlot(_)
            | InstData::SetSlot(..) => {
                if let (Some(v), Some(r)) = (self.generic(i), res) {
                    self.vals.insert(r, v);
                }
            }
            InstData::Jump { dest, args } => {
                self.edge(*dest, args);
            }
            InstData::Branch {
                cond,
                then_dest,
                then_args,
                else_dest,
                else_args,
            } => {
                let c = self.vals[cond];
                // Cranelift lays blocks out in a reverse postorder that visits a branch's first
                // target first, which places that target's blocks after the second's. A loop
                // whose exit is the second target would have the exit path (with its calls)
                // laid out inside the loop, ending live ranges there and spilling values that
                // live across the loop: the exit goes first.
                let b = self.cur;
                let exits = self.loops.iter().any(|body| {
                    body.contains(&b) && body.contains(then_dest) && !body.contains(else_dest)
                });
                let (c, first, second) = if exits {
                    let nc = self.b.ins().icmp_imm_s(IntCC::Equal, c, 0);
                    (nc, (*else_dest, else_args), (*then_dest, then_args))
                } else {
                    (c, (*then_dest, then_args), (*else_dest, else_args))
                };
                // An edge that only passes register values branches straight to its block;
                // one with code of its own (frame slot copies, boxing) gets a block for it.
                // (Not a loop's exit that passes values: there, a block of its own for the
                // moves gave the register allocator a better allocation of the loop — the
                // naive matrix multiply's inner loop ran 15% slower without it.)
                let direct = |g: &Self, (d, a): (Block, &Vec<Value>)| {
                    let leaves = g.loops.iter().any(|l| l.contains(&b) && !l.contains(&d));
                    g.register_args(d, a)
                        .filter(|args| args.is_empty() || !leaves)
                        .map(|args| (g.target(d), args))
                };
                let same = first.0 == second.0;
                let (t, t_args) = match direct(self, first).filter(|_| !same) {
                    Some(x) => (x, true),
                    None => ((self.b.create_block(), Vec::new()), false),
                };
                let (e, e_args) = match direct(self, second).filter(|_| !same) {
                    Some(x) => (x, true),
                    None => ((self.b.create_block(), Vec::new()), false),
                };
                self.b.ins().brif(c, t.0, &t.1, e.0, &e.1);
                if !t_args {
                    self.b.switch_to_block(t.0);
                    self.edge(first.0, first.1);
                }
                if !e_args {
                    self.b.switch_to_block(e.0);
                    self.edge(second.0, second.1);
                }
            }
            InstData::Return(v) if self.ret_fields.is_some() => {
                self.return_fields(*v);
                let z = self.b.ins().iconst(ct::I32, abi::OK as i64);
                self.b.ins().jump(self.exit, &[BlockArg::Value(z)]);
            }
            InstData::Return(v) => {
                let ret = self.b.ins().stack_load(ct::I64, ct::I64, self.regs, 16);
                match self.rep(*v) {
                    // Built in place (see `returned_only`).
                    Rep::Boxed if self.returned_only.contains(v) => {}
                    // Nothing reads the frame's slot after the return: its value moves.
                    Rep::Boxed if self.own_slots.contains(v) => {
                        let s = self.slot_addr(*v);
                        self.call("mc_move", &[ret, s]);
                    }
                    Rep::Boxed => {
                        let s = self.slot_addr(*v);
                        self.call("mc_clone", &[ret, s]);
                    }
                    Rep::Unit => self.materialize(*v, ret),
                    r => {
                        let x = self.vals[v];
                        self.box_into(r, ret, x);
                    }
                }
                let z = self.b.ins().iconst(ct::I32, abi::OK as i64);
                self.b.ins().jump(self.exit, &[BlockArg::Value(z)]);
            }
            InstData::Unreachable => {
                let fail = self.unreachable_exit();
                self.b.ins().jump(fail, &[]);
            }
        }
        Ok(())
    }

    /// A control-flow edge to `dest` with `args`: boxed arguments are copied into the
    /// parameters' slots (through scratch when a source is itself overwritten), register
    /// arguments are passed as block arguments.
    /// The block arguments of an edge to `dest` when they are all register values (or
    /// singletons, which pass nothing), so that the edge needs no code of its own.
    pub(super) fn register_args(&self, dest: Block, args: &[Value]) -> Option<Vec<BlockArg>> {
        let params = &self.f.blocks[dest].params;
        let mut out = Vec::new();
        for (p, a) in params.iter().zip(args) {
            match (self.rep(*p), self.rep(*a)) {
                (Rep::Unit, _) => {}
                // The same frame slot on both sides: nothing to copy.
                (Rep::Boxed, Rep::Boxed) if p == a => {}
                (Rep::Boxed, _) => return None,
                // An undefined value (read only behind a definedness check) into a register.
                _ if self.f.types[*a] == Type::Bottom => return None,
                _ => out.push(BlockArg::Value(self.vals[a])),
            }
        }
        Some(out)
    }

    /// Whether the edge to `dest` with `args` may move `a` into its parameter instead of
    /// cloning it: `a` sits alone in a slot the frame owns, the edge passes it once, and
    /// nothing after the edge reads it (`dest` does not have it live).
    fn edge_moves(&self, dest: Block, args: &[Value], a: Value) -> bool {
        let Some(&j) = self.move_bits.get(&a) else {
            return false;
        };
        self.own_slots.contains(&a)
            && args.iter().filter(|x| **x == a).count() == 1
            && self.live_in.get(&dest).is_some_and(|l| !l.contains(j))
    }

    /// Whether `x`, an operand of instruction `i` of the block being lowered, sits alone in a
    /// slot the frame owns and nothing reads it after `i` (no later instruction of the block,
    /// no successor that has it live): `i` may then move it out of its slot.
    pub(super) fn dead_after(&self, i: Inst, x: Value) -> bool {
        let Some(&j) = self.move_bits.get(&x) else {
            return false;
        };
        let f = self.f;
        let insts = &f.blocks[self.cur].insts;
        let Some(pos) = insts.iter().position(|&k| k == i) else {
            return false;
        };
        let mut reads = 0;
        f.insts[i].for_each_arg(|a| reads += usize::from(a == x));
        let mut later = false;
        for &k in &insts[pos + 1..] {
            f.insts[k].for_each_arg(|a| later |= a == x);
        }
        let live_after = f
            .successors(self.cur)
            .iter()
            .any(|s| self.live_in.get(s).is_none_or(|l| l.contains(j)));
        self.own_slots.contains(&x) && reads == 1 && !later && !live_after
    }

    pub(super) fn edge(&mut self, dest: Block, args: &[Value]) {
        let params = self.f.blocks[dest].params.clone();
        let mut copies = Vec::new();
        let mut boxes = Vec::new();
        let mut units = Vec::new();
        let mut native = Vec::new();
        for (p, a) in params.iter().zip(args) {
            match (self.rep(*p), self.rep(*a)) {
                (Rep::Boxed, Rep::Boxed) => {
                    if p != a {
                        copies.push((*p, *a));
                    }
                }
                // A singleton into a union-typed parameter.
                (Rep::Boxed, Rep::Unit) => units.push((*p, *a)),
                // A register value into a union-typed parameter.
                (Rep::Boxed, r) => boxes.push((*p, r, self.vals[a])),
                (Rep::Unit, _) => {}
                // An undefined value (a variable not assigned on this path, read only behind a
                // definedness check): any bits of the parameter's register type.
                (r, _) if self.f.types[*a] == Type::Bottom => {
                    let zero = match r {
                        Rep::F64 => self.b.ins().f64const(0.0),
                        Rep::F32 => self.b.ins().f32const(0.0),
                        r => self.b.ins().iconst(cl_type(r), 0),
                    };
                    native.push(BlockArg::Value(zero));
                }
                _ => native.push(BlockArg::Value(self.vals[a])),
            }
        }
        let dests: FxHashSet<Value> = copies.iter().map(|(p, _)| *p).collect();
        let overlap = copies.iter().any(|(_, a)| dests.contains(a));
        if overlap {
            for (k, (_, a)) in copies.iter().enumerate() {
                let s = self.scratch_addr(k as u32);
                let src = self.slot_addr(*a);
                self.call("mc_clone", &[s, src]);
            }
            for (k, (p, _)) in copies.iter().enumerate() {
                let s = self.scratch_addr(k as u32);
                let dst = self.slot_addr(*p);
                self.call("mc_clone", &[dst, s]);
            }
        } else {
            for (p, a) in &copies {
                let src = self.slot_addr(*a);
                let dst = self.slot_addr(*p);
                let helper = if self.edge_moves(dest, args, *a) {
                    "mc_move"
                } else {
                    "mc_clone"
                };
                self.call(helper, &[dst, src]);
            }
        }
        for (p, r, x) in boxes {
            let dst = self.slot_addr(p);
            self.box_into(r, dst, x);
        }
        for (p, a) in units {
            let dst = self.slot_addr(p);
            self.materialize(a, dst);
        }
        self.jump_to(dest, &native);
    }

    /// Returns tuple `v` field by field into the caller's values (see [`returned_fields`]):
    /// a tuple built right before the return is never built, its operands are returned.
    pub(super) fn return_fields(&mut self, v: Value) {
        let written = self.ret_fields.clone().unwrap_or_default();
        let ret = self.b.ins().stack_load(ct::I64, ct::I64, self.regs, 16);
        let f = self.f;
        let operands = match f.values[v] {
            ir::ValueDef::Inst(i) if self.returned_only.contains(&v) => match &f.insts[i] {
                InstData::Tuple { args } if args.len() == written.len() => Some(args),
                _ => None,
            },
            _ => None,
        };
        for (k, _) in written.iter().enumerate().filter(|(_, w)| **w) {
            let dst = self.b.ins().iadd_imm_s(ret, (k as u32 * VALUE_SIZE) as i64);
            match operands.map(|args| (args[k], args)) {
                Some((a, args)) => match self.rep(a) {
                    // Nothing reads the frame's slot after the return: a value the tuple
                    // holds once moves.
                    Rep::Boxed
                        if self.own_slots.contains(&a)
                            && args.iter().filter(|x| **x == a).count() == 1 =>
                    {
                        let src = self.slot_addr(a);
                        self.call("mc_move", &[dst, src]);
                    }
                    Rep::Boxed => {
                        let src = self.slot_addr(a);
                        self.call("mc_clone", &[dst, src]);
                    }
                    Rep::Unit => self.materialize(a, dst),
                    r => {
                        let x = self.vals[&a];
                        self.box_into(r, dst, x);
                    }
                },
                None => {
                    let src = self.slot_addr(v);
                    let kv = self.b.ins().iconst(ct::I64, k as i64);
                    let st = self
                        .call("mc_getfield", &[src, kv, dst])
                        .unwrap_or_else(|| unreachable!());
                    // A tuple of the function's return type has every field.
                    let fail = self.unreachable_exit();
                    let cont = self.b.create_block();
                    self.b.ins().brif(st, fail, &[], cont, &[]);
                    self.b.switch_to_block(cont);
                }
            }
        }
    }

    /// Writes the value of singleton-typed `v` into the initialised slot at `dst`.
    pub(super) fn materialize(&mut self, v: Value, dst: cir::Value) {
        self.const_into(self.unit_index[&self.f.types[v]], dst);
    }

    /// Assigns boxed constant `k` (see [`boxed_consts`]) to the initialised slot at `dst`.
    pub(super) fn const_into(&mut self, k: usize, dst: cir::Value) {
        let meta = self.b.ins().iconst(ct::I64, self.meta);
        let k = self.b.ins().iconst(ct::I64, k as i64);
        self.call("mc_const", &[meta, k, dst]);
    }
}
