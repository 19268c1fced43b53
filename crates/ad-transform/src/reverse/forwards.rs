//! The forwards pass of a reverse-mode rule: the primal code on (primal, fdata) pairs, which
//! saves what the pullback needs, records each instruction's pullback work (`Rev`) and pushes
//! the edges it takes on the block stack. One instruction kind per method lives in
//! `forwards_inst`.

use super::cfg::Cfg;
use super::rev::Rev;
use super::saved::{
    const_recipes, push_saved, recompute_plan, rule_stack, rule_state_type, Invariants, IvInit,
    IvSpec, Recipe, Saved, SavedStack, INVARIANT,
};
use super::{ad_check, inst_kind, Ctx};
use crate::emit::{Emit, SiteMarks};
use crate::{AdError, DerivedKey, RuleOptions};
use ir::{Block, Const, Function, InstData, Phase, Prim, Type, Value};
use rustc_hash::FxHashMap;
use std::rc::Rc;
use syntax::{Span, Symbol};

/// What the pullback reads of one primal block's forwards code.
#[derive(Default)]
pub(super) struct BlockSaves {
    /// The values the block's pullback reads.
    pub(super) saved: Saved,
    /// The pullback work of the block's instructions, in primal order.
    pub(super) revs: Vec<Rev>,
    /// The rule-state stacks the block pushes its saved values on (none if it saves none).
    pub(super) comms: Vec<SavedStack>,
    /// How the pullback gets each saved value back.
    pub(super) recipes: Vec<Recipe>,
}

/// A derived forwards pass and what its pullback needs to know of it.
pub(super) struct ForwardsPass {
    pub(super) f: Function,
    /// Types of the rule state's stacks, the block stack first.
    pub(super) state_types: Vec<Type>,
    pub(super) blocks: FxHashMap<Block, BlockSaves>,
    pub(super) invariants: Rc<Invariants>,
    /// The stacks of the call-invariant saved values (pushed once per call).
    pub(super) inv_stack: Vec<SavedStack>,
    pub(super) inv_recipes: Vec<Recipe>,
    /// The once stacks of each block with values that loops it is not in read, one per value
    /// in the order of `Invariants::once_vals` (see `saved::ONCE`).
    pub(super) once_stacks: FxHashMap<Block, Vec<SavedStack>>,
}

/// Derives the forwards pass of `cx.p`.
pub(super) fn derive(
    cx: &Ctx,
    cfg: &Cfg,
    names: &mut dyn FnMut(DerivedKey) -> Symbol,
    opts: RuleOptions,
) -> Result<ForwardsPass, AdError> {
    let mut fw = Forwards::new(cx, cfg, names, opts);
    // Blocks in reverse postorder, so that every value is mapped before a block it
    // dominates uses it (the layout need not be in that order).
    for b in cx.p.reverse_postorder() {
        fw.block(b)?;
    }
    Ok(fw.finish())
}

/// The forwards pass under construction.
pub(super) struct Forwards<'a> {
    pub(super) cx: &'a Ctx<'a>,
    cfg: &'a Cfg,
    pub(super) opts: RuleOptions,
    /// The name under which derived code invokes a derived function.
    pub(super) names: &'a mut dyn FnMut(DerivedKey) -> Symbol,
    pub(super) f: Function,
    pub(super) marks: SiteMarks,
    fblocks: FxHashMap<Block, Block>,
    /// The rule state (the first parameter).
    pub(super) state: Value,
    /// Each primal value's value in the forwards pass, and its fdata.
    pub(super) vmap: FxHashMap<Value, Value>,
    pub(super) fmap: FxHashMap<Value, Value>,
    /// Each counted loop's iteration count (its header's last parameter).
    counter: FxHashMap<Block, Value>,
    pub(super) invariants: Rc<Invariants>,
    /// The block being derived: what its pullback reads, and does.
    pub(super) sv: Saved,
    pub(super) rv: Vec<Rev>,
    /// Call sites numbered so far (each gets a child of the rule state).
    pub(super) sites: u32,
    blocks: FxHashMap<Block, BlockSaves>,
    state_types: Vec<Type>,
    returns_seen: usize,
}

impl<'a> Forwards<'a> {
    fn new(
        cx: &'a Ctx<'a>,
        cfg: &'a Cfg,
        names: &'a mut dyn FnMut(DerivedKey) -> Symbol,
        opts: RuleOptions,
    ) -> Forwards<'a> {
        let primal = cx.p;
        let entry = cfg.entry();
        let mut f = Function::new(format!("fwd {}", primal.name), Phase::Typed);
        let marks = SiteMarks::new(&mut f, primal);
        // A function that never returns (its entry is on an error path) still takes the
        // calling convention of forwards passes: an entry of its own takes the rule state and
        // each argument with its fdata, and jumps to the primal code with the arguments alone.
        let doomed_entry = cfg.doomed(entry).then(|| f.add_block());
        let fblocks: FxHashMap<Block, Block> =
            cfg.layout.iter().map(|b| (*b, f.add_block())).collect();
        let state = f.add_block_param(doomed_entry.unwrap_or(fblocks[&entry]), rule_state_type());
        let mut vmap: FxHashMap<Value, Value> = FxHashMap::default();
        let mut fmap: FxHashMap<Value, Value> = FxHashMap::default();
        for &b in &cfg.layout {
            for &p in &primal.blocks[b].params {
                let pv = f.add_block_param(fblocks[&b], cx.ty(p));
                vmap.insert(p, pv);
                if !cfg.doomed(b) {
                    let pf = f.add_block_param(fblocks[&b], cx.ft(p));
                    fmap.insert(p, pf);
                }
            }
        }
        if let Some(de) = doomed_entry {
            let mut args = Vec::new();
            for &p in &primal.blocks[entry].params {
                args.push(f.add_block_param(de, cx.ty(p)));
                f.add_block_param(de, cx.ft(p));
            }
            let loc = primal.locs[primal.blocks[entry].insts[0]];
            f.append(
                de,
                InstData::Jump {
                    dest: fblocks[&entry],
                    args,
                },
                Type::Any,
                loc,
            );
        }
        // Each counted loop's header takes its iteration count last.
        let counter: FxHashMap<Block, Value> = cfg
            .loops
            .keys()
            .map(|h| (*h, f.add_block_param(fblocks[h], Type::Int64)))
            .collect();
        // An entry block without predecessors runs once per call: its parameters are
        // invariant.
        let entry_runs_once = cfg.incoming.get(&entry).is_none_or(|e| e.is_empty());
        let invariants = Rc::new(Invariants {
            values: std::cell::RefCell::new(if entry_runs_once {
                f.blocks[fblocks[&entry]].params.iter().copied().collect()
            } else {
                Default::default()
            }),
            saved: Default::default(),
            ivs: Default::default(),
            once_def: Default::default(),
            once_loops: Default::default(),
            once_vals: Default::default(),
        });
        Forwards {
            cx,
            cfg,
            opts,
            names,
            f,
            marks,
            fblocks,
            state,
            vmap,
            fmap,
            counter,
            invariants,
            sv: Saved::default(),
            rv: Vec::new(),
            sites: 0,
            blocks: FxHashMap::default(),
            // State fields: 0 = block stack; then a comms stack per saving block.
            state_types: vec![Type::vector(Type::Int64)],
            returns_seen: 0,
        }
    }

    /// The forwards code of primal block `b`.
    fn block(&mut self, b: Block) -> Result<(), AdError> {
        let primal = self.cx.p;
        let fb = self.fblocks[&b];
        if self.cfg.doomed(b) {
            self.primal_block(b);
            return Ok(());
        }
        self.sv = Saved {
            shared: Some(self.invariants.clone()),
            loops: self.cfg.loops_of(b),
            ..Default::default()
        };
        self.rv = Vec::new();
        let entry = self.cfg.entry();
        if self.opts.debug && b == entry {
            self.check_arguments(b, fb);
        }
        let insts = primal.blocks[b].insts.clone();
        let (body, term) = insts.split_at(insts.len() - 1);
        for &i in body {
            self.inst(fb, i)?;
        }
        self.marks.start(&self.f, 0);
        let loc = primal.locs[term[0]];
        let (recipes, comms) = self.save(fb, loc);
        self.terminator(b, fb, term[0])?;
        let saves = BlockSaves {
            saved: std::mem::take(&mut self.sv),
            revs: std::mem::take(&mut self.rv),
            comms,
            recipes,
        };
        self.blocks.insert(b, saves);
        if b != entry && self.cfg.runs_once(b) {
            // A block on no cycle but through counted loops' back edges runs at most once per
            // call or per iteration of its innermost loop: loops it is not in read its values
            // from its once stacks (constants are made again instead).
            self.invariants
                .once_loops
                .borrow_mut()
                .insert(b, self.cfg.loops_of(b));
            let fblock = &self.f.blocks[fb];
            let mut defs = self.invariants.once_def.borrow_mut();
            let readable = |v: &Value| super::saved::once_readable(&self.f.types[*v]);
            for &p in fblock.params.iter().filter(|p| readable(p)) {
                defs.insert(p, b);
            }
            for &i in &fblock.insts {
                if let (Some(r), false) = (
                    self.f.result(i),
                    matches!(self.f.insts[i], InstData::Const(_)),
                ) {
                    if readable(&r) {
                        defs.insert(r, b);
                    }
                }
            }
        }
        if b == entry {
            // Values the entry block computes are fixed for the rest of the call too (when
            // the entry block runs once).
            if !self.invariants.values.borrow().is_empty() {
                let mut vals = self.invariants.values.borrow_mut();
                for &i in &self.f.blocks[fb].insts {
                    if let Some(r) = self.f.result(i) {
                        vals.insert(r);
                    }
                }
            }
            // Now that the entry block's values are known, the loops' induction variables.
            self.induction_variables();
        }
        Ok(())
    }

    /// A block on an error path: the primal code, on primal values only.
    fn primal_block(&mut self, b: Block) {
        let primal = self.cx.p;
        let fb = self.fblocks[&b];
        for &i in &primal.blocks[b].insts {
            self.marks.start(&self.f, primal.inlined_at[i]);
            let mut d = primal.insts[i].clone();
            d.map_args(|a| self.vmap.get(&a).copied().unwrap_or(a));
            d.map_successors(|s| self.fblocks[&s]);
            let ty = primal.result(i).map(|r| self.cx.ty(r)).unwrap_or_default();
            let (ni, nv) = self.f.make_inst(d, ty, primal.locs[i]);
            self.f.blocks[fb].insts.push(ni);
            if let (Some(r), Some(nv)) = (primal.result(i), nv) {
                self.vmap.insert(r, nv);
            }
        }
        self.blocks.insert(b, BlockSaves::default());
    }

    /// Debug mode: each argument's fdata matches its primal.
    fn check_arguments(&mut self, b: Block, fb: Block) {
        let primal = self.cx.p;
        let loc = primal.locs[primal.blocks[b].insts[0]];
        for (k, &p) in primal.blocks[b].params.iter().enumerate() {
            if self.cx.ft(p) != Type::NoFData {
                let what = format!("argument {k} of {}", primal.name);
                let mut e = Emit {
                    f: &mut self.f,
                    block: fb,
                    loc,
                };
                ad_check(&mut e, self.vmap[&p], self.fmap[&p], &what);
            }
        }
    }

    /// Pushes the block's saved values (at the end of forwards block `fb`), except constants
    /// and values cheap to compute again from what the pullback has at hand: it makes those
    /// again. Returns how each saved value comes back, and the stack they are pushed on.
    fn save(&mut self, fb: Block, loc: Span) -> (Vec<Recipe>, Vec<SavedStack>) {
        let mut recipes = const_recipes(&self.f, &self.sv.vals);
        {
            let sv = &self.sv;
            let leaf = |v: Value| sv.recomputable(v);
            let (vmap, fmap) = (&self.vmap, &self.fmap);
            let is_primal =
                |a: Value| vmap.values().any(|x| *x == a) && !fmap.values().any(|x| *x == a);
            let env = self.cx.env;
            // Aggregates whose fields never change: tuples, immutable structs, and the fdata
            // of immutable structs (fields' fdata, fixed like the fields).
            let immutable = |t: &Type| match t {
                Type::Tuple(_) | Type::NamedTuple(..) | Type::FData(_) => true,
                Type::Struct(..) => t.is_concrete() && !env.is_mutable(t),
                _ => false,
            };
            let mut leaves: Vec<Value> = Vec::new();
            for (k, v) in sv.vals.iter().enumerate() {
                if !matches!(recipes[k], Recipe::Pushed) {
                    continue;
                }
                if let Some(plan) = recompute_plan(&self.f, fb, *v, &leaf, &is_primal, &immutable) {
                    for &i in &plan {
                        leaves.extend(self.f.insts[i].args().into_iter().filter(|a| leaf(*a)));
                    }
                    recipes[k] = Recipe::Recompute(plan);
                }
            }
            for l in leaves {
                let k = self.sv.add(l);
                debug_assert!(
                    k >= INVARIANT,
                    "a leaf is invariant or an induction variable"
                );
            }
        }
        let pushed: Vec<Value> = self
            .sv
            .vals
            .iter()
            .zip(&recipes)
            .filter(|(_, c)| matches!(c, Recipe::Pushed))
            .map(|(v, _)| *v)
            .collect();
        let mut e = Emit {
            f: &mut self.f,
            block: fb,
            loc,
        };
        let comms = push_saved(&mut e, self.state, &mut self.state_types, pushed);
        (recipes, comms)
    }

    /// The arguments forwards block `b` passes to `d`: each value with its fdata (the values
    /// alone into an error path).
    fn edge_args(&self, d: Block, args: &[Value]) -> Vec<Value> {
        if self.cfg.doomed(d) {
            args.iter().map(|a| self.vmap[a]).collect()
        } else {
            args.iter()
                .flat_map(|a| [self.vmap[a], self.fmap[a]])
                .collect()
        }
    }

    /// The block-stack pushes of edge (b, k) into `d`, emitted in `blk`: the counts of the
    /// loops it leaves, then its id if `d` needs it.
    fn edge_pushes(&mut self, blk: Block, loc: Span, b: Block, k: usize, d: Block) {
        if !self.cfg.edge_pushes(b, k, d) {
            return;
        }
        let mut e = Emit {
            f: &mut self.f,
            block: blk,
            loc,
        };
        let bs = rule_stack(&mut e, self.state, 0, Type::vector(Type::Int64));
        for h in self.cfg.exited(b, d) {
            e.prim(
                Prim::ArrayPush,
                vec![bs, self.counter[&h]],
                Type::vector(Type::Int64),
            );
        }
        if self.cfg.pushes_id(b, k, d) {
            let c = e.konst(Const::Int(self.cfg.edge_id(b, k)));
            e.prim(Prim::ArrayPush, vec![bs, c], Type::vector(Type::Int64));
        }
    }

    /// The count edge (b, k) passes to a counted loop's header `d`: one more along its back
    /// edge, else 0.
    fn count_arg(&mut self, fb: Block, loc: Span, b: Block, k: usize, d: Block) -> Option<Value> {
        let l = self.cfg.loops.get(&d)?;
        let mut e = Emit {
            f: &mut self.f,
            block: fb,
            loc,
        };
        Some(if l.back == (b, k) {
            let one = e.konst(Const::Int(1));
            e.prim(Prim::AddInt, vec![self.counter[&d], one], Type::Int64)
        } else {
            e.konst(Const::Int(0))
        })
    }

    /// The terminator of primal block `b`, with its block-stack pushes.
    fn terminator(&mut self, b: Block, fb: Block, term: ir::Inst) -> Result<(), AdError> {
        let primal = self.cx.p;
        let loc = primal.locs[term];
        match primal.insts[term].clone() {
            InstData::Jump { dest, args } => {
                let mut a = self.edge_args(dest, &args);
                a.extend(self.count_arg(fb, loc, b, 0, dest));
                self.edge_pushes(fb, loc, b, 0, dest);
                Emit {
                    f: &mut self.f,
                    block: fb,
                    loc,
                }
                .jump(self.fblocks[&dest], a);
            }
            InstData::Branch {
                cond,
                then_dest,
                then_args,
                else_dest,
                else_args,
            } => {
                let mut targets = Vec::new();
                for (k, (d, args)) in [(then_dest, then_args), (else_dest, else_args)]
                    .into_iter()
                    .enumerate()
                {
                    let mut a = self.edge_args(d, &args);
                    a.extend(self.count_arg(fb, loc, b, k, d));
                    if self.cfg.edge_pushes(b, k, d) {
                        let eb = self.f.add_block();
                        self.edge_pushes(eb, loc, b, k, d);
                        Emit {
                            f: &mut self.f,
                            block: eb,
                            loc,
                        }
                        .jump(self.fblocks[&d], a);
                        targets.push((eb, vec![]));
                    } else {
                        targets.push((self.fblocks[&d], a));
                    }
                }
                let (t, e2) = (targets.remove(0), targets.remove(0));
                self.f.append(
                    fb,
                    InstData::Branch {
                        cond: self.vmap[&cond],
                        then_dest: t.0,
                        then_args: t.1,
                        else_dest: e2.0,
                        else_args: e2.1,
                    },
                    Type::Any,
                    loc,
                );
            }
            InstData::Return(v) => self.ret(b, fb, loc, v),
            InstData::Unreachable => {
                self.f.append(fb, InstData::Unreachable, Type::Any, loc);
            }
            other => {
                return Err(self.cx.err(
                    term,
                    format!("unexpected terminator `{}`", inst_kind(&other)),
                ))
            }
        }
        Ok(())
    }

    /// `return v`: pushes the counts of the loops this return leaves, then which return it
    /// is; returns (v, fdata of v).
    fn ret(&mut self, b: Block, fb: Block, loc: Span, v: Value) {
        let left = self.cfg.loops_of(b);
        let several = self.cfg.returns.len() > 1;
        let mut e = Emit {
            f: &mut self.f,
            block: fb,
            loc,
        };
        if !left.is_empty() || several {
            let bs = rule_stack(&mut e, self.state, 0, Type::vector(Type::Int64));
            for h in left {
                e.prim(
                    Prim::ArrayPush,
                    vec![bs, self.counter[&h]],
                    Type::vector(Type::Int64),
                );
            }
            if several {
                let c = e.konst(Const::Int(self.cfg.pos[&b] as i64));
                e.prim(Prim::ArrayPush, vec![bs, c], Type::vector(Type::Int64));
            }
        }
        let tt = Type::tuple(vec![self.cx.ty(v), self.cx.ft(v)]);
        let t = e.val(
            InstData::Tuple {
                args: vec![self.vmap[&v], self.fmap[&v]],
            },
            tt.clone(),
        );
        e.inst(InstData::Return(t), Type::Any);
        // Returns of different types (a union-typed primal): the union of the pairs.
        self.f.ret_type = match self.returns_seen {
            0 => tt,
            _ => Type::union_of([self.f.ret_type.clone(), tt]),
        };
        self.returns_seen += 1;
    }

    /// The induction variables of the counted loops: integer header parameters that enter
    /// with one constant or call-invariant value along every entry edge and grow by a
    /// constant along the back edge.
    fn induction_variables(&mut self) {
        let primal = self.cx.p;
        let vals = self.invariants.values.borrow();
        let mut ivs = self.invariants.ivs.borrow_mut();
        for (h, l) in &self.cfg.loops {
            let back = self.cfg.edge_args(primal, l.back.0, l.back.1);
            let enters: Vec<Vec<Value>> = l
                .enters
                .iter()
                .map(|(q, k)| self.cfg.edge_args(primal, *q, *k))
                .collect();
            for (j, &p) in primal.blocks[*h].params.iter().enumerate() {
                if self.cx.ty(p) != Type::Int64 {
                    continue;
                }
                let step = match primal.def_inst(back[j]).map(|i| &primal.insts[i]) {
                    Some(InstData::Prim {
                        op: Prim::AddInt,
                        args,
                    }) => match (args[0], args[1]) {
                        (a, c) | (c, a) if a == p && primal.const_value(c).is_some() => {
                            match primal.const_value(c) {
                                Some(Const::Int(k)) => *k,
                                _ => continue,
                            }
                        }
                        _ => continue,
                    },
                    _ => continue,
                };
                let init = enters[0][j];
                if enters.iter().any(|a| a[j] != init) {
                    continue;
                }
                let init = match primal.const_value(init) {
                    Some(Const::Int(k)) => IvInit::Const(*k),
                    _ => match self.vmap.get(&init) {
                        Some(fi) if vals.contains(fi) => IvInit::Invariant(*fi),
                        _ => continue,
                    },
                };
                ivs.insert(
                    self.vmap[&p],
                    IvSpec {
                        header: *h,
                        init,
                        step,
                        offset: 0,
                    },
                );
            }
        }
    }

    /// Pushes the call-invariant saved values once, at the end of the entry block, and the
    /// values that loops read from blocks outside them at the end of those blocks, and hands
    /// over the forwards pass.
    fn finish(mut self) -> ForwardsPass {
        self.marks.finish(&mut self.f);
        if self.cfg.returns.is_empty() {
            self.f.ret_type = Type::Bottom;
        }
        let primal = self.cx.p;
        let entry = self.cfg.entry();
        let inv_all = self.invariants.saved.borrow().vals.clone();
        let inv_recipes = const_recipes(&self.f, &inv_all);
        let inv_vals: Vec<Value> = inv_all
            .iter()
            .zip(&inv_recipes)
            .filter(|(_, c)| matches!(c, Recipe::Pushed))
            .map(|(v, _)| *v)
            .collect();
        let inv_stack = if inv_vals.is_empty() {
            Vec::new()
        } else {
            let fentry = self.fblocks[&entry];
            let loc = primal.locs[primal.blocks[entry].insts[0]];
            let mut e = at_block_end(&mut self.f, fentry, loc);
            let pushed = push_saved(&mut e.emit(), self.state, &mut self.state_types, inv_vals);
            e.finish();
            pushed
        };
        // Each block with values that loops outside it read pushes them when it ends.
        let loc_entry = primal.locs[primal.blocks[entry].insts[0]];
        let mut once: Vec<(Block, Vec<Value>)> = self
            .invariants
            .once_vals
            .borrow()
            .iter()
            .map(|(b, vs)| (*b, vs.clone()))
            .collect();
        once.sort_by_key(|(b, _)| *b);
        let mut once_stacks = FxHashMap::default();
        for (b, vals) in once {
            let fb = self.fblocks[&b];
            let term = primal.blocks[b].insts.last().copied();
            let loc = term.map_or(loc_entry, |t| primal.locs[t]);
            let mut e = at_block_end(&mut self.f, fb, loc);
            let stacks = vals
                .into_iter()
                .flat_map(|v| push_saved(&mut e.emit(), self.state, &mut self.state_types, vec![v]))
                .collect();
            e.finish();
            once_stacks.insert(b, stacks);
        }
        ForwardsPass {
            f: self.f,
            state_types: self.state_types,
            blocks: self.blocks,
            invariants: self.invariants,
            inv_stack,
            inv_recipes,
            once_stacks,
        }
    }
}

/// The fdata of a value without fdata (or of a singleton fdata type).
pub(super) fn fdata_const(e: &mut Emit, t: &Type) -> Value {
    e.konst(Const::of_singleton(t).unwrap_or(Const::Singleton(Type::NoFData)))
}

/// The rule state's child for call site `site` (its callee's rule state).
pub(super) fn child_state(e: &mut Emit, state: Value, site: u32) -> Value {
    let kv = e.konst(Const::Int(site as i64));
    e.prim(Prim::RuleChild, vec![state, kv], rule_state_type())
}

/// Instructions emitted at the end of a block, before its terminator (once the rest of the
/// forwards pass is built): emitted into a scratch block, then spliced in by `finish`.
struct AtBlockEnd<'f> {
    f: &'f mut Function,
    block: Block,
    scratch: Block,
    loc: Span,
}

fn at_block_end(f: &mut Function, block: Block, loc: Span) -> AtBlockEnd<'_> {
    let scratch = f.add_block();
    AtBlockEnd {
        f,
        block,
        scratch,
        loc,
    }
}

impl AtBlockEnd<'_> {
    fn emit(&mut self) -> Emit<'_> {
        Emit {
            f: self.f,
            block: self.scratch,
            loc: self.loc,
        }
    }

    fn finish(self) {
        let scratch = self.scratch;
        self.f.layout.retain(|b| *b != scratch);
        let insts = std::mem::take(&mut self.f.blocks[scratch].insts);
        let at = self.f.blocks[self.block].insts.len().saturating_sub(1);
        self.f.blocks[self.block].insts.splice(at..at, insts);
    }
}
