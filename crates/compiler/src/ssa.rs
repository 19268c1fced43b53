//! SSA construction: replaces slots (`GetSlot`/`SetSlot`) by SSA values and block parameters
//! (Braun et al.'s algorithm on a complete CFG, with trivial parameters removed).
//!
//! A read of a variable that is not assigned on every path to it gets a definedness flag (a
//! second slot set `false` at entry and `true` at each assignment) and a check that throws
//! `UndefVarError` at run time. A read on which the variable is definitely assigned has no
//! check.

use ir::{Block, Const, Function, Inst, InstData, Phase, Prim, Slot, SlotData, Type, Value};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// Removes blocks not reachable from the entry.
pub fn remove_unreachable_blocks(f: &mut Function) {
    let reach: FxHashSet<Block> = f.reverse_postorder().into_iter().collect();
    f.layout.retain(|b| reach.contains(b));
}

pub fn construct_ssa(f: &mut Function) {
    remove_unreachable_blocks(f);
    insert_undef_checks(f);
    remove_unreachable_blocks(f);
    Builder::new(f, true).run();
    f.slots.clear();
    f.phase = Phase::Ssa;
}

/// Replaces the slots of a function in SSA form (or later) by values, where each slot is
/// assigned before every read of it (no definedness checks are needed). The phase stays.
pub(crate) fn promote_slots(f: &mut Function) {
    Builder::new(f, false).run();
    f.slots.clear();
}

// ----- definedness -----

/// Whether `i` unassigns its slot: lowering stores the `undef` constant into the locals of a
/// scope block at each entry into it (see `Lowerer::predeclare`).
fn unassigns(f: &Function, i: Inst) -> bool {
    match f.insts[i] {
        InstData::SetSlot(_, v) => matches!(f.const_value(v), Some(Const::Undef)),
        _ => false,
    }
}

fn insert_undef_checks(f: &mut Function) {
    let nslots = f.slots.len();
    if nslots == 0 {
        return;
    }
    let order = f.reverse_postorder();
    let preds = f.predecessors();
    // Forward "definitely assigned" analysis; a read also implies assignment afterwards.
    let full: Vec<bool> = vec![true; nslots];
    let mut out: FxHashMap<Block, Vec<bool>> = FxHashMap::default();
    let entry = f.entry();
    let transfer = |f: &Function, b: Block, mut set: Vec<bool>| -> Vec<bool> {
        for &i in &f.blocks[b].insts {
            match &f.insts[i] {
                InstData::SetSlot(s, _) => set[s.as_u32() as usize] = !unassigns(f, i),
                InstData::GetSlot(s) => set[s.as_u32() as usize] = true,
                _ => {}
            }
        }
        set
    };
    // Assigned on entry to `b`: on every path, so the intersection over predecessors.
    let meet = |b: Block, out: &FxHashMap<Block, Vec<bool>>| -> Vec<bool> {
        if b == entry {
            return vec![false; nslots];
        }
        let mut acc = full.clone();
        for p in &preds[b] {
            if let Some(po) = out.get(p) {
                for k in 0..nslots {
                    acc[k] &= po[k];
                }
            }
        }
        acc
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &b in &order {
            let inset = meet(b, &out);
            let o = transfer(f, b, inset);
            if out.get(&b) != Some(&o) {
                out.insert(b, o);
                changed = true;
            }
        }
    }
    // Find the reads that need a check.
    let mut needs: Vec<(Block, Inst, Slot)> = Vec::new();
    for &b in &order {
        let mut set = meet(b, &out);
        for &i in &f.blocks[b].insts {
            match &f.insts[i] {
                InstData::SetSlot(s, _) => set[s.as_u32() as usize] = !unassigns(f, i),
                InstData::GetSlot(s) => {
                    if !set[s.as_u32() as usize] {
                        needs.push((b, i, *s));
                    }
                    set[s.as_u32() as usize] = true;
                }
                _ => {}
            }
        }
    }
    if needs.is_empty() {
        return;
    }
    // One flag slot per variable that needs checks.
    let mut flags: FxHashMap<Slot, Slot> = FxHashMap::default();
    for &(_, _, s) in &needs {
        if let std::collections::hash_map::Entry::Vacant(e) = flags.entry(s) {
            let name = f.slots[s].name;
            let fl = f.slots.push(SlotData {
                ty: Type::Any,
                name: syntax::sym(&format!("#defined_{name}")),
            });
            e.insert(fl);
        }
    }
    // flag = false at entry; flag = true after every assignment.
    let mut entry_insts = Vec::new();
    for (&_s, &fl) in flags.iter() {
        let loc = f.locs[f.blocks[entry].insts[0]];
        let (ci, cv) = f.make_inst(InstData::Const(Const::Bool(false)), Type::Any, loc);
        let (si, _) = f.make_inst(
            InstData::SetSlot(fl, cv.unwrap_or_else(|| unreachable!())),
            Type::Any,
            loc,
        );
        entry_insts.push(ci);
        entry_insts.push(si);
    }
    let old = std::mem::take(&mut f.blocks[entry].insts);
    f.blocks[entry].insts = entry_insts;
    f.blocks[entry].insts.extend(old);
    for b in f.layout.clone() {
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let mut new = Vec::with_capacity(insts.len());
        for i in insts {
            new.push(i);
            if let InstData::SetSlot(s, _) = f.insts[i] {
                if let Some(&fl) = flags.get(&s) {
                    let loc = f.locs[i];
                    let assigned = Const::Bool(!unassigns(f, i));
                    let (ci, cv) = f.make_inst(InstData::Const(assigned), Type::Any, loc);
                    let (si, _) = f.make_inst(
                        InstData::SetSlot(fl, cv.unwrap_or_else(|| unreachable!())),
                        Type::Any,
                        loc,
                    );
                    new.push(ci);
                    new.push(si);
                }
            }
        }
        f.blocks[b].insts = new;
    }
    // Split before each checked read.
    for (b0, read, s) in needs {
        // The read may have moved to a later split block; find it.
        let Some(&b) = f
            .layout
            .iter()
            .find(|&&b| f.blocks[b].insts.contains(&read))
        else {
            continue;
        };
        let _ = b0;
        let pos = f.blocks[b]
            .insts
            .iter()
            .position(|&i| i == read)
            .unwrap_or(0);
        let tail: Vec<Inst> = f.blocks[b].insts.split_off(pos);
        let loc = f.locs[read];
        let cont = f.add_block();
        f.blocks[cont].insts = tail;
        let fail = f.add_block();
        let fl = flags[&s];
        let flag_v = f
            .append(b, InstData::GetSlot(fl), Type::Any, loc)
            .unwrap_or_else(|| unreachable!());
        f.append(
            b,
            InstData::Branch {
                cond: flag_v,
                then_dest: cont,
                then_args: vec![],
                else_dest: fail,
                else_args: vec![],
            },
            Type::Any,
            loc,
        );
        let name = f.slots[s].name;
        let msg = f
            .append(
                fail,
                InstData::Const(Const::Str(Arc::from(name.as_str()))),
                Type::Any,
                loc,
            )
            .unwrap_or_else(|| unreachable!());
        f.append(
            fail,
            InstData::Prim {
                op: Prim::ThrowUndefVar,
                args: vec![msg],
            },
            Type::Any,
            loc,
        );
        f.append(fail, InstData::Unreachable, Type::Any, loc);
    }
}

// ----- SSA construction -----

struct Builder<'f> {
    f: &'f mut Function,
    preds: FxHashMap<Block, Vec<Block>>,
    last_store: FxHashMap<(Slot, Block), Value>,
    entry_memo: FxHashMap<(Slot, Block), Value>,
    alias: FxHashMap<Value, Value>,
    undef: Value,
}

impl<'f> Builder<'f> {
    /// `markers`: the function is lowered code, whose `undef` constants mark unassigned
    /// locals (they are replaced by the builder's own); later code's `undef` constants are
    /// values (unset fields of `new`) and stay.
    fn new(f: &'f mut Function, markers: bool) -> Builder<'f> {
        let entry = f.entry();
        let loc = f.blocks[entry]
            .insts
            .first()
            .map(|i| f.locs[*i])
            .unwrap_or_default();
        let (ui, uv) = f.make_inst(InstData::Const(Const::Undef), Type::Any, loc);
        f.blocks[entry].insts.insert(0, ui);
        let mut preds: FxHashMap<Block, Vec<Block>> = FxHashMap::default();
        for &b in &f.layout {
            let mut succ = f.successors(b);
            succ.dedup();
            for s in succ {
                preds.entry(s).or_default().push(b);
            }
        }
        // The markers of unassigned locals store the one `undef` of the function; their own
        // constants go.
        let uv = uv.unwrap_or_else(|| unreachable!());
        for b in f.layout.clone().into_iter().filter(|_| markers) {
            let mut insts = std::mem::take(&mut f.blocks[b].insts);
            insts.retain(|&i| {
                if let InstData::SetSlot(s, v) = f.insts[i] {
                    if matches!(f.const_value(v), Some(Const::Undef)) {
                        f.insts[i] = InstData::SetSlot(s, uv);
                    }
                }
                i == ui || !matches!(f.insts[i], InstData::Const(Const::Undef))
            });
            f.blocks[b].insts = insts;
        }
        let mut last_store = FxHashMap::default();
        for &b in &f.layout {
            for &i in &f.blocks[b].insts {
                if let InstData::SetSlot(s, v) = f.insts[i] {
                    last_store.insert((s, b), v);
                }
            }
        }
        Builder {
            f,
            preds,
            last_store,
            entry_memo: FxHashMap::default(),
            alias: FxHashMap::default(),
            undef: uv,
        }
    }

    fn end_def(&mut self, s: Slot, b: Block) -> Value {
        match self.last_store.get(&(s, b)) {
            Some(&v) => v,
            None => self.entry_def(s, b),
        }
    }

    fn entry_def(&mut self, s: Slot, b: Block) -> Value {
        if let Some(&v) = self.entry_memo.get(&(s, b)) {
            return v;
        }
        let preds = self.preds.get(&b).cloned().unwrap_or_default();
        let v = if b == self.f.entry() || preds.is_empty() {
            self.undef
        } else if preds.len() == 1 {
            let v = self.end_def(s, preds[0]);
            self.entry_memo.insert((s, b), v);
            v
        } else {
            let p = self.f.add_block_param(b, self.f.slots[s].ty.clone());
            self.f.names[p] = Some(self.f.slots[s].name);
            self.entry_memo.insert((s, b), p);
            for pred in preds {
                let a = self.end_def(s, pred);
                let term = self.f.terminator(pred).unwrap_or_else(|| unreachable!());
                match &mut self.f.insts[term] {
                    InstData::Jump { dest, args } if *dest == b => args.push(a),
                    InstData::Branch {
                        then_dest,
                        then_args,
                        else_dest,
                        else_args,
                        ..
                    } => {
                        if *then_dest == b {
                            then_args.push(a);
                        }
                        if *else_dest == b {
                            else_args.push(a);
                        }
                    }
                    _ => {}
                }
            }
            p
        };
        self.entry_memo.insert((s, b), v);
        v
    }

    fn resolve(&self, v: Value) -> Value {
        ir::resolve_alias(&self.alias, v)
    }

    fn run(mut self) {
        for b in self.f.layout.clone() {
            // The list stays in place while reads resolve: predecessors' terminators get new
            // branch arguments, and this block may be its own predecessor.
            let insts = self.f.blocks[b].insts.clone();
            let mut cur: FxHashMap<Slot, Value> = FxHashMap::default();
            let mut kept = Vec::with_capacity(insts.len());
            for i in insts {
                match self.f.insts[i] {
                    InstData::SetSlot(s, v) => {
                        cur.insert(s, v);
                    }
                    InstData::GetSlot(s) => {
                        let v = match cur.get(&s) {
                            Some(&v) => v,
                            None => self.entry_def(s, b),
                        };
                        if let Some(r) = self.f.result(i) {
                            self.alias.insert(r, v);
                        }
                    }
                    _ => kept.push(i),
                }
            }
            self.f.blocks[b].insts = kept;
        }
        self.remove_trivial_params();
        let alias = std::mem::take(&mut self.alias);
        self.f.map_all_args(|v| ir::resolve_alias(&alias, v));
    }

    /// A parameter whose incoming values are all one value (or itself) is that value.
    fn remove_trivial_params(&mut self) {
        loop {
            let mut changed = false;
            for b in self.f.layout.clone() {
                let nparams = self.f.blocks[b].params.len();
                if b == self.f.entry() || nparams == 0 {
                    continue;
                }
                let preds = self.preds.get(&b).cloned().unwrap_or_default();
                let mut remove = vec![false; nparams];
                for (k, &p) in self.f.blocks[b].params.clone().iter().enumerate() {
                    let mut uniq: Option<Value> = None;
                    let mut trivial = true;
                    for &pred in &preds {
                        let term = self.f.terminator(pred).unwrap_or_else(|| unreachable!());
                        for (dest, args) in self.f.insts[term].successors() {
                            if dest != b {
                                continue;
                            }
                            let a = self.resolve(args[k]);
                            if a == p {
                                continue;
                            }
                            match uniq {
                                None => uniq = Some(a),
                                Some(u) if u == a => {}
                                Some(_) => trivial = false,
                            }
                        }
                    }
                    if trivial {
                        let target = uniq.unwrap_or(self.undef);
                        self.alias.insert(p, target);
                        remove[k] = true;
                    }
                }
                if remove.iter().any(|r| *r) {
                    changed = true;
                    self.f.remove_block_params(b, &remove, &preds);
                }
            }
            if !changed {
                break;
            }
        }
    }
}
