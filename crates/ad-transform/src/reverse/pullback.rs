//! The pullback of a reverse-mode rule: visits the primal blocks in reverse, popping what the
//! forwards pass saved and following the block stack back along the edges it took. Each
//! value with reverse data has an accumulator (a typed slot that SSA construction turns into
//! registers), reset once propagated, so loops accumulate per iteration.

use super::cfg::{dispatch, pop_block_stack, Cfg, Edge};
use super::forwards::ForwardsPass;
use super::pullback_inst::emit_pullback;
use super::rdata::{add_rdata, rdata_as, rdata_compatible, zero_rdata};
use super::saved::{once_stand_in, pop_saved, rule_stack, IvInit, SavedVals};
use super::Ctx;
use crate::emit::Emit;
use crate::AdError;
use ir::{Block, Const, Function, InstData, Phase, Prim, Slot, SlotData, Type, Value};
use rustc_hash::FxHashMap;
use syntax::{sym, Span};

/// Derives the pullback of the rule whose forwards pass is `fw`.
pub(super) fn derive(cx: &Ctx, cfg: &Cfg, fw: &ForwardsPass) -> Result<Function, AdError> {
    let mut f = Function::new(format!("rvs {}", cx.p.name), Phase::Lowered);
    // Cotangent arithmetic: zero is the identity of accumulation whatever its sign.
    f.nsz = true;
    let pb = Pullback::new(cx, cfg, fw, &mut f);
    pb.enter(&mut f);
    for &b in &cfg.layout {
        pb.block(&mut f, b)?;
    }
    pb.finish(&mut f);
    compiler::ssa::construct_ssa(&mut f);
    f.phase = Phase::Typed;
    Ok(f)
}

/// The pullback's frame: what its blocks share.
struct Pullback<'a> {
    cx: &'a Ctx<'a>,
    cfg: &'a Cfg,
    fw: &'a ForwardsPass,
    entry: Block,
    /// The rule state and the returned value's cotangent (the parameters).
    state: Value,
    dy: Value,
    /// The call-invariant saved values, popped at entry.
    invariant: Vec<Value>,
    /// The values of blocks that run once per call (or loop iteration) which loops without
    /// them read, by forwards-pass value and reading loop: a slot set from the top of the
    /// value's stack when the pullback enters that loop (see `saved::ONCE`).
    once: FxHashMap<(Value, Block), Slot>,
    /// Each primal block's pullback block, and the block that returns the cotangents.
    rblocks: FxHashMap<Block, Block>,
    final_b: Block,
    /// Each value's accumulator.
    acc: FxHashMap<Value, Slot>,
    /// Each counted loop's counter (0 outside the loop).
    counters: FxHashMap<Block, Slot>,
    entry_loc: Span,
}

impl<'a> Pullback<'a> {
    fn new(cx: &'a Ctx<'a>, cfg: &'a Cfg, fw: &'a ForwardsPass, f: &mut Function) -> Pullback<'a> {
        let primal = cx.p;
        let entry = f.add_block();
        let state = f.add_block_param(entry, super::saved::rule_state_type());
        let ret_val =
            cfg.returns
                .first()
                .and_then(|b| match primal.insts[primal.terminator(*b)?] {
                    InstData::Return(v) => Some(v),
                    _ => None,
                });
        let dy = f.add_block_param(entry, ret_val.map(|v| cx.rt(v)).unwrap_or(Type::NoRData));
        let entry_loc = primal.locs[primal.blocks[cfg.entry()].insts[0]];
        let invariant = pop_saved(
            &mut Emit {
                f,
                block: entry,
                loc: entry_loc,
            },
            state,
            &fw.inv_stack,
            &fw.inv_recipes,
            &mut |_, _| unreachable!("call-invariant values are pushed or constant"),
        );
        let rblocks: FxHashMap<Block, Block> =
            cfg.layout.iter().map(|b| (*b, f.add_block())).collect();
        let final_b = f.add_block();
        let acc = accumulators(cx, cfg, f);
        let mut e = Emit {
            f,
            block: entry,
            loc: entry_loc,
        };
        let mut accs: Vec<(Value, Slot)> = acc.iter().map(|(v, s)| (*v, *s)).collect();
        accs.sort();
        for (v, s) in accs {
            let z = zero_rdata(&cx.rt(v), &mut e, cx.env);
            e.inst(InstData::SetSlot(s, z), Type::Any);
        }
        let counters: FxHashMap<Block, Slot> = cfg
            .loops
            .keys()
            .map(|h| {
                let s = e.f.slots.push(SlotData {
                    name: sym(&format!("count{h}")),
                    ty: Type::Int64,
                });
                (*h, s)
            })
            .collect();
        let mut hs: Vec<Block> = counters.keys().copied().collect();
        hs.sort();
        for h in hs {
            let z = e.konst(Const::Int(0));
            e.inst(InstData::SetSlot(counters[&h], z), Type::Any);
        }
        // The once-values' slots start with stand-ins (read only after being set).
        let mut reads: Vec<(Value, Block)> = fw
            .blocks
            .values()
            .flat_map(|s| s.saved.once.iter().copied())
            .collect();
        reads.sort();
        reads.dedup();
        let mut once = FxHashMap::default();
        for (v, lr) in reads {
            let ty = fw.f.types[v].clone();
            let s = e.f.slots.push(SlotData {
                name: sym(&format!("once{v}")),
                ty: ty.clone(),
            });
            let z = once_stand_in(&mut e, &ty)
                .unwrap_or_else(|| unreachable!("once-values have stand-ins"));
            e.inst(InstData::SetSlot(s, z), Type::Any);
            once.insert((v, lr), s);
        }
        Pullback {
            cx,
            cfg,
            fw,
            entry,
            state,
            dy,
            invariant,
            once,
            rblocks,
            final_b,
            acc,
            counters,
            entry_loc,
        }
    }

    /// Pops the counts of the loops `hs` (pushed in this order) into their counters, and
    /// takes the once-values those loops read from the tops of their stacks.
    fn pop_counts(&self, f: &mut Function, blk: Block, loc: Span, hs: Vec<Block>) {
        for h in hs.into_iter().rev() {
            let c = pop_block_stack(f, blk, self.state, loc);
            f.append(blk, InstData::SetSlot(self.counters[&h], c), Type::Any, loc);
            let mut reads: Vec<(&(Value, Block), &Slot)> =
                self.once.iter().filter(|((_, lr), _)| *lr == h).collect();
            reads.sort_by_key(|(r, _)| **r);
            for ((v, _), s) in reads {
                let top = self.once_top(f, blk, loc, *v);
                f.append(blk, InstData::SetSlot(*s, top), Type::Any, loc);
            }
        }
    }

    /// The top of the stack of once-value `v` (see `saved::ONCE`).
    fn once_top(&self, f: &mut Function, blk: Block, loc: Span, v: Value) -> Value {
        let d = self.fw.invariants.once_def.borrow()[&v];
        let j = self.fw.invariants.once_vals.borrow()[&d]
            .iter()
            .position(|x| *x == v)
            .unwrap_or_else(|| unreachable!("a read once-value is on its block's stack"));
        let s = &self.fw.once_stacks[&d][j];
        let elem = s.elem();
        let mut e = Emit { f, block: blk, loc };
        let stack = rule_stack(&mut e, self.state, s.k, Type::vector(elem.clone()));
        let n = e.prim(Prim::ArrayLen, vec![stack], Type::Int64);
        e.prim(Prim::ArrayRef, vec![stack, n], elem)
    }

    /// The value returned by return block `b`.
    fn returned(&self, b: Block) -> Value {
        let primal = self.cx.p;
        match primal.insts[primal.terminator(b).unwrap_or_else(|| unreachable!())] {
            InstData::Return(v) => v,
            _ => unreachable!("a return block ends in a return"),
        }
    }

    /// Entering from return block `rb` (in `blk`): the returned value's cotangent and the
    /// counts of the loops the return left.
    fn enter_from(&self, f: &mut Function, blk: Block, rb: Block) {
        let v = self.returned(rb);
        if let Some(&s) = self.acc.get(&v) {
            let t = self.cx.rt(v);
            let mut e = Emit {
                f,
                block: blk,
                loc: self.entry_loc,
            };
            let old = e.val(InstData::GetSlot(s), t.clone());
            let new = add_rdata(old, self.dy, &t, &mut e, self.cx.env);
            e.inst(InstData::SetSlot(s, new), Type::Any);
        }
        self.pop_counts(f, blk, self.entry_loc, self.cfg.loops_of(rb));
    }

    /// The pullback's entry: to the block of the return that ran.
    fn enter(&self, f: &mut Function) {
        let (entry, loc) = (self.entry, self.entry_loc);
        match self.cfg.returns.as_slice() {
            [] => {
                f.append(entry, InstData::Unreachable, Type::Any, loc);
            }
            [rb] => {
                self.enter_from(f, entry, *rb);
                Emit {
                    f,
                    block: entry,
                    loc,
                }
                .jump(self.rblocks[rb], vec![]);
            }
            returns => {
                let targets: Vec<(i64, Block, Option<Block>)> = returns
                    .iter()
                    .map(|rb| (self.cfg.pos[rb] as i64, self.rblocks[rb], Some(*rb)))
                    .collect();
                let popped = pop_block_stack(f, entry, self.state, loc);
                dispatch(f, entry, popped, loc, targets, &mut |f, blk, r| {
                    if let Some(rb) = r {
                        self.enter_from(f, blk, rb);
                    }
                });
            }
        }
    }

    /// The pullback of primal block `b`: its saved values, its instructions' pullbacks in
    /// reverse, then on to the predecessor it was entered from.
    fn block(&self, f: &mut Function, b: Block) -> Result<(), AdError> {
        let primal = self.cx.p;
        let rb = self.rblocks[&b];
        if self.cfg.doomed(b) {
            let loc = primal.locs[primal.blocks[b].insts[0]];
            f.append(rb, InstData::Unreachable, Type::Any, loc);
            return Ok(());
        }
        let loc = primal.locs[*primal.blocks[b]
            .insts
            .last()
            .unwrap_or_else(|| unreachable!())];
        let ivs = self.induction_variables(f, b, rb, loc);
        self.pop_once_stacks(f, b, rb, loc);
        let once: Vec<Value> = self.fw.blocks[&b]
            .saved
            .once
            .iter()
            .map(|r| {
                let ty = self.fw.f.types[r.0].clone();
                f.append(rb, InstData::GetSlot(self.once[r]), ty, loc)
                    .unwrap_or_else(|| unreachable!("a slot read has a result"))
            })
            .collect();
        let own = self.restore_saved(f, b, rb, loc, &ivs);
        let saved = SavedVals {
            own: &own,
            invariant: &self.invariant,
            ivs: &ivs,
            once: &once,
        };
        for r in self.fw.blocks[&b].revs.iter().rev() {
            let mut e = Emit { f, block: rb, loc };
            emit_pullback(&mut e, r, &self.acc, &saved, self.cx, self.state);
        }
        self.leave(f, b, rb, loc)
    }

    /// The pullback of a block with once stacks pops them (see `saved::ONCE`).
    fn pop_once_stacks(&self, f: &mut Function, b: Block, rb: Block, loc: Span) {
        let mut e = Emit { f, block: rb, loc };
        for s in self.fw.once_stacks.get(&b).into_iter().flatten() {
            let elem = s.elem();
            let stack = rule_stack(&mut e, self.state, s.k, Type::vector(elem.clone()));
            e.prim(Prim::ArrayPop, vec![stack], elem);
        }
    }

    /// The induction variables block `b` reads, from their loops' counters.
    fn induction_variables(&self, f: &mut Function, b: Block, rb: Block, loc: Span) -> Vec<Value> {
        let mut e = Emit { f, block: rb, loc };
        let specs = self.fw.invariants.ivs.borrow();
        let inv_index = &self.fw.invariants.saved.borrow().index;
        self.fw.blocks[&b]
            .saved
            .ivs
            .iter()
            .map(|v| {
                let spec = &specs[v];
                let n = e.val(InstData::GetSlot(self.counters[&spec.header]), Type::Int64);
                let init = match spec.init {
                    IvInit::Const(k) => e.konst(Const::Int(k)),
                    IvInit::Invariant(fi) => self.invariant[inv_index[&fi]],
                };
                let step = e.konst(Const::Int(spec.step));
                let d = e.prim(Prim::MulInt, vec![n, step], Type::Int64);
                let v = e.prim(Prim::AddInt, vec![init, d], Type::Int64);
                let offset = e.konst(Const::Int(spec.offset));
                e.prim(Prim::AddInt, vec![v, offset], Type::Int64)
            })
            .collect()
    }

    /// Block `b`'s saved values: popped, made again or computed again.
    fn restore_saved(
        &self,
        f: &mut Function,
        b: Block,
        rb: Block,
        loc: Span,
        ivs: &[Value],
    ) -> Vec<Value> {
        let saves = &self.fw.blocks[&b];
        let fwd = &self.fw.f;
        let mut e = Emit { f, block: rb, loc };
        let inv_index = &self.fw.invariants.saved.borrow().index;
        let leaf = |u: Value| -> Option<Value> {
            match inv_index.get(&u) {
                Some(&k) => Some(self.invariant[k]),
                None => saves.saved.ivs.iter().position(|x| *x == u).map(|j| ivs[j]),
            }
        };
        pop_saved(
            &mut e,
            self.state,
            &saves.comms,
            &saves.recipes,
            &mut |e, plan| {
                let mut made: FxHashMap<Value, Value> = FxHashMap::default();
                let mut last = None;
                for &i in plan {
                    let mut d = fwd.insts[i].clone();
                    d.map_args(|a| {
                        made.get(&a)
                            .copied()
                            .or_else(|| leaf(a))
                            .unwrap_or_else(|| {
                                unreachable!("operands of a recomputed value are at hand")
                            })
                    });
                    let r = fwd.result(i).unwrap_or_else(|| unreachable!());
                    let nv = e.val(d, fwd.types[r].clone());
                    made.insert(r, nv);
                    last = Some(nv);
                }
                last.unwrap_or_else(|| unreachable!("a plan computes its value"))
            },
        )
    }

    /// From block `b`'s pullback to the pullback of the predecessor it was entered from (the
    /// entry block's goes to the result).
    fn leave(&self, f: &mut Function, b: Block, rb: Block, loc: Span) -> Result<(), AdError> {
        if b == self.cfg.entry() {
            Emit { f, block: rb, loc }.jump(self.final_b, vec![]);
            return Ok(());
        }
        let edges = self.cfg.incoming.get(&b).cloned().unwrap_or_default();
        self.check_edges(b, &edges)?;
        if edges.len() == 1 {
            self.take_edge(f, rb, loc, b, edges[0]);
            return Ok(());
        }
        // A counted loop's header: round the back edge while its counter is positive.
        let (from, edges) = match self.cfg.loops.get(&b) {
            Some(l) => {
                let slot = self.counters[&b];
                let (back_b, enter_b) = (f.add_block(), f.add_block());
                let mut e = Emit { f, block: rb, loc };
                let n = e.val(InstData::GetSlot(slot), Type::Int64);
                let zero = e.konst(Const::Int(0));
                let more = e.prim(Prim::SltInt, vec![zero, n], Type::Bool);
                e.inst(
                    InstData::Branch {
                        cond: more,
                        then_dest: back_b,
                        then_args: vec![],
                        else_dest: enter_b,
                        else_args: vec![],
                    },
                    Type::Any,
                );
                let mut e = Emit {
                    f,
                    block: back_b,
                    loc,
                };
                let one = e.konst(Const::Int(1));
                let n1 = e.prim(Prim::SubInt, vec![n, one], Type::Int64);
                e.inst(InstData::SetSlot(slot, n1), Type::Any);
                self.take_edge(f, back_b, loc, b, l.back);
                (enter_b, l.enters.clone())
            }
            None => (rb, edges),
        };
        if edges.len() == 1 {
            self.take_edge(f, from, loc, b, edges[0]);
        } else {
            let popped = pop_block_stack(f, from, self.state, loc);
            let targets: Vec<(i64, Block, Option<Edge>)> = edges
                .iter()
                .map(|(q, k)| (self.cfg.edge_id(*q, *k), self.rblocks[q], Some((*q, *k))))
                .collect();
            dispatch(f, from, popped, loc, targets, &mut |f, blk, e| {
                if let Some((q, k)) = e {
                    self.transfer(f, blk, loc, b, q, k);
                }
            });
        }
        Ok(())
    }

    /// Never drop a cotangent silently: every parameter of `b` with reverse data must receive
    /// it from an argument of the same reverse-data type, or from one without reverse data (a
    /// union-typed parameter holding an `Int64`: every use of it then narrows to the `Int64`
    /// member, so its cotangent is zero along that edge).
    fn check_edges(&self, b: Block, edges: &[Edge]) -> Result<(), AdError> {
        let (cx, primal) = (self.cx, self.cx.p);
        let params = &primal.blocks[b].params;
        for &(q, k) in edges {
            let t = primal.terminator(q).unwrap_or_else(|| unreachable!());
            for (p, a) in params.iter().zip(primal.insts[t].successors()[k].1.iter()) {
                if self.acc.contains_key(p) && !rdata_compatible(&cx.rt(*p), &cx.rt(*a)) {
                    return Err(cx.err(
                        t,
                        format!(
                            "a value of type {} flows into a variable of type {}; reverse mode does not handle this yet",
                            cx.ty(*a),
                            cx.ty(*p)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Back along edge (q, k) into `b`, from `blk`: the cotangents transferred, then a jump to
    /// q's pullback.
    fn take_edge(&self, f: &mut Function, blk: Block, loc: Span, b: Block, (q, k): Edge) {
        self.transfer(f, blk, loc, b, q, k);
        Emit { f, block: blk, loc }.jump(self.rblocks[&q], vec![]);
    }

    /// Block parameters are a parallel copy: read all their cotangents, reset them, then add
    /// each to the argument passed along edge (q, k) (which may be another parameter); then
    /// back into the loops the edge left: their counts.
    fn transfer(&self, f: &mut Function, blk: Block, loc: Span, b: Block, q: Block, k: usize) {
        let (cx, env) = (self.cx, self.cx.env);
        let params = &cx.p.blocks[b].params;
        let args = self.cfg.edge_args(cx.p, q, k);
        let mut e = Emit { f, block: blk, loc };
        let mut moves = Vec::new();
        for (p, a) in params.iter().zip(args.iter()) {
            if let Some(&sp) = self.acc.get(p) {
                let t = cx.rt(*p);
                let v = e.val(InstData::GetSlot(sp), t.clone());
                moves.push((*a, v, t));
            }
        }
        for p in params.iter() {
            if let Some(&sp) = self.acc.get(p) {
                let z = zero_rdata(&cx.rt(*p), &mut e, env);
                e.inst(InstData::SetSlot(sp, z), Type::Any);
            }
        }
        for (a, v, t) in moves {
            if let Some(&sa) = self.acc.get(&a) {
                let at = cx.rt(a);
                if rdata_compatible(&t, &at) {
                    let v = rdata_as(v, &t, &at, &mut e);
                    let old = e.val(InstData::GetSlot(sa), at.clone());
                    let new = add_rdata(old, v, &at, &mut e, env);
                    e.inst(InstData::SetSlot(sa, new), Type::Any);
                }
            }
        }
        self.pop_counts(f, blk, loc, self.cfg.exited(q, b));
    }

    /// The result: the arguments' cotangents.
    fn finish(&self, f: &mut Function) {
        let cx = self.cx;
        let mut e = Emit {
            f,
            block: self.final_b,
            loc: self.entry_loc,
        };
        let mut outs = Vec::new();
        let mut tys = Vec::new();
        for &p in &cx.p.blocks[self.cfg.entry()].params {
            let t = cx.rt(p);
            let v = match self.acc.get(&p) {
                Some(&s) => e.val(InstData::GetSlot(s), t.clone()),
                None => e.konst(Const::Singleton(Type::NoRData)),
            };
            outs.push(v);
            tys.push(if self.acc.contains_key(&p) {
                t
            } else {
                Type::NoRData
            });
        }
        let tt = Type::tuple(tys);
        let r = e.val(InstData::Tuple { args: outs }, tt.clone());
        e.inst(InstData::Return(r), Type::Any);
        f.ret_type = tt;
    }
}

/// An accumulator slot for each live value with reverse data (values of error paths have no
/// cotangents). Reverse data decided at run time (`Any`) accumulates through
/// `Core.rdata_add`, starting from the `NoRData` zero.
fn accumulators(cx: &Ctx, cfg: &Cfg, f: &mut Function) -> FxHashMap<Value, Slot> {
    let primal = cx.p;
    let inst_block: FxHashMap<ir::Inst, Block> = cfg
        .layout
        .iter()
        .flat_map(|b| primal.blocks[*b].insts.iter().map(move |i| (*i, *b)))
        .collect();
    let mut acc = FxHashMap::default();
    for (v, _) in primal.values.iter() {
        let is_live = match primal.values[v] {
            ir::ValueDef::Param(b, k) => {
                primal.blocks[b].params.get(k as usize) == Some(&v)
                    && cfg.pos.contains_key(&b)
                    && !cfg.doomed(b)
            }
            ir::ValueDef::Inst(i) => {
                primal.result(i) == Some(v) && inst_block.get(&i).is_some_and(|b| !cfg.doomed(*b))
            }
        };
        if !is_live {
            continue;
        }
        let rt = cx.rt(v);
        if rt != Type::NoRData && rt != Type::Bottom {
            let s = f.slots.push(SlotData {
                name: sym(&format!("acc{v}")),
                ty: rt,
            });
            acc.insert(v, s);
        }
    }
    acc
}
