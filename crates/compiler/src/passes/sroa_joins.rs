//! Scalar replacement of small arrays joined at block parameters: the state vector of a
//! time-stepping loop (`u = u + h * f(u)`, a fresh small array each step) becomes one
//! variable per element for every array of the loop.
//!
//! A *web* is a set of block parameters of one small array type together with every value
//! that reaches them along an edge: fresh arrays of that type and constant dimensions
//! (`Core.array_new`, see `sroa`), other parameters of the web, and the results of `arrayset`s
//! into any of these (the same array). Each *object* — an allocation or a parameter, with its
//! `arrayset` results — gets one slot per element. The web is replaced when:
//! - every use of its values is an element read or write at constant indices in range, a
//!   size query, an edge into a parameter of the web, a call on the way to an error of a
//!   prelude function that only shows the array, or an *escape* (any other use) after which
//!   nothing reads the object again;
//! - an edge passes each object at most once, and nothing reads the object after the edge.
//!
//! Then an edge copies the passed objects' elements into the parameters' slots (all read
//! before any is written), and an escape or an error message gets a fresh array built from
//! the object's current elements. Since nothing reads an object after it is copied or
//! escapes, no one can tell the copy from the original: it is the same program.

use super::sroa::{
    build_array, element_slots, fresh_dims, linear_index, scalar_element, size_answer,
    zero_elements, SHOWS_ONLY,
};
use super::Pass;
use crate::{CompileError, Compiler};
use ir::{Block, Const, Function, Inst, InstData, Prim, Type, Value};
use rustc_hash::{FxHashMap, FxHashSet};

pub struct ScalarReplaceJoins;

impl Pass for ScalarReplaceJoins {
    fn name(&self) -> &'static str {
        "sroa-joins"
    }

    fn run(&self, c: &mut Compiler, f: &mut Function) -> Result<bool, CompileError> {
        let entry = f.entry();
        // Parameters found to be in no web that can be replaced.
        let mut rejected: FxHashSet<Value> = FxHashSet::default();
        let mut changed = false;
        loop {
            let candidates: Vec<Value> = f
                .layout
                .iter()
                .filter(|b| **b != entry)
                .flat_map(|b| f.blocks[*b].params.iter().copied())
                .filter(|p| !rejected.contains(p) && small_numeric_array(&f.types[*p]))
                .collect();
            if candidates.is_empty() {
                break;
            }
            let preds = f.predecessors();
            let users = f.users();
            let cold = f.cold_blocks();
            let mut replaced = false;
            for p in candidates {
                if rejected.contains(&p) {
                    continue;
                }
                let Some(web) = Web::find(f, &preds, &users, p) else {
                    rejected.insert(p);
                    continue;
                };
                match web.plan(c, f, &cold) {
                    Some(plan) => {
                        web.replace(f, plan);
                        replaced = true;
                        // The function changed: the other candidates are looked at afresh.
                        break;
                    }
                    None => rejected.extend(web.params.iter().map(|(_, q)| *q)),
                }
            }
            if !replaced {
                break;
            }
            changed = true;
        }
        if changed {
            crate::ssa::promote_slots(f);
        }
        Ok(changed)
    }
}

/// Whether `t` is an array type whose element type scalar replacement handles.
fn small_numeric_array(t: &Type) -> bool {
    matches!(t, Type::Array(e, _) if scalar_element(e))
}

/// The values of a web (see the module's documentation), each with its object: the
/// allocation or parameter whose array it is.
struct Web {
    ty: Type,
    elem: Type,
    dims: Vec<i64>,
    members: FxHashMap<Value, Object>,
    /// The web's parameters, with their blocks.
    params: Vec<(Block, Value)>,
}

/// An array of a web: made by an allocation, or a block parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Object {
    Alloc(Inst),
    Param(Value),
}

/// What replacing a web does at each use.
struct Plan {
    /// Element reads and writes, with the element.
    access: Vec<(Inst, usize)>,
    /// Size queries, with their answers.
    sizes: Vec<(Inst, i64)>,
    /// Instructions given a copy of an object (escapes and error messages).
    copies: Vec<Inst>,
    /// Edges into the web's parameters: the block whose terminator takes them, and which
    /// successor (0 or 1) of it.
    edges: Vec<(Block, usize)>,
}

impl Web {
    /// The web of parameter `p`, if every value reaching its parameters is a fresh array of
    /// one small size or another member.
    fn find(
        f: &Function,
        preds: &cranelift_entity::SecondaryMap<Block, ir::Preds>,
        users: &FxHashMap<Value, Vec<Inst>>,
        p: Value,
    ) -> Option<Web> {
        let ty = f.types[p].clone();
        let Type::Array(elem, _) = &ty else {
            return None;
        };
        let elem = (**elem).clone();
        let mut dims: Option<Vec<i64>> = None;
        let mut members: FxHashMap<Value, Object> = FxHashMap::default();
        let mut params = Vec::new();
        let mut work = vec![p];
        while let Some(v) = work.pop() {
            if members.contains_key(&v) {
                continue;
            }
            if f.types[v] != ty {
                return None;
            }
            let object = match f.values[v] {
                ir::ValueDef::Param(b, k) => {
                    if b == f.entry() {
                        return None;
                    }
                    params.push((b, v));
                    for &pb in preds[b].iter() {
                        let t = f.terminator(pb)?;
                        for (d, args) in f.insts[t].successors() {
                            if d == b {
                                work.push(*args.get(k as usize)?);
                            }
                        }
                    }
                    Object::Param(v)
                }
                ir::ValueDef::Inst(i) => match &f.insts[i] {
                    InstData::Prim {
                        op: Prim::ArraySet,
                        args,
                    } => match members.get(&args[0]) {
                        // The same array as its operand.
                        Some(o) => *o,
                        // Its operand first, then it again.
                        None => {
                            work.push(v);
                            work.push(args[0]);
                            continue;
                        }
                    },
                    _ => {
                        let (e, d) = fresh_dims(f, i)?;
                        if e != elem || dims.as_ref().is_some_and(|x| *x != d) {
                            return None;
                        }
                        dims = Some(d);
                        Object::Alloc(i)
                    }
                },
            };
            members.insert(v, object);
            // Forwards: writes into it (the same array) and the parameters it is passed to.
            for &u in users.get(&v).map(Vec::as_slice).unwrap_or(&[]) {
                match &f.insts[u] {
                    InstData::Prim {
                        op: Prim::ArraySet,
                        args,
                    } if args[0] == v => work.extend(f.result(u)),
                    InstData::Jump { .. } | InstData::Branch { .. } => {
                        for (d, args) in f.insts[u].successors() {
                            for (q, a) in f.blocks[d].params.iter().zip(args) {
                                if *a == v {
                                    work.push(*q);
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        Some(Web {
            ty,
            elem,
            dims: dims?,
            members,
            params,
        })
    }

    /// The members of `o`.
    fn of(&self, o: Object) -> impl Iterator<Item = Value> + '_ {
        self.members
            .iter()
            .filter(move |(_, x)| **x == o)
            .map(|(v, _)| *v)
    }

    /// What replacing the web does at each use, if every use allows it.
    /// (`cold`: the function's cold blocks.)
    fn plan(&self, c: &Compiler, f: &Function, cold: &FxHashSet<Block>) -> Option<Plan> {
        let order = f.reverse_postorder();
        let bits: FxHashMap<Value, usize> = self
            .members
            .keys()
            .enumerate()
            .map(|(j, v)| (*v, j))
            .collect();
        let live = ir::liveness::live_in(f, &order, &bits);
        let live_at = |b: Block, o: Object| {
            live.get(&b)
                .is_some_and(|l| self.of(o).any(|m| l.contains(bits[&m])))
        };
        let mut plan = Plan {
            access: Vec::new(),
            sizes: Vec::new(),
            copies: Vec::new(),
            edges: Vec::new(),
        };
        let arrays: Vec<Value> = self.members.keys().copied().collect();
        for &b in &f.layout {
            let insts = &f.blocks[b].insts;
            for (pos, &i) in insts.iter().enumerate() {
                let mut uses: Vec<Value> = Vec::new();
                f.insts[i].for_each_arg(|a| {
                    if self.members.contains_key(&a) && !uses.contains(&a) {
                        uses.push(a);
                    }
                });
                if uses.is_empty() {
                    continue;
                }
                match &f.insts[i] {
                    InstData::Prim {
                        op: Prim::ArrayRef | Prim::ArrayRefRaw,
                        args,
                    } if uses == [args[0]] => {
                        plan.access
                            .push((i, linear_index(f, &self.dims, &args[1..])?));
                    }
                    InstData::Prim {
                        op: Prim::ArraySet,
                        args,
                    } if uses == [args[0]] => {
                        plan.access
                            .push((i, linear_index(f, &self.dims, &args[2..])?));
                    }
                    InstData::Prim {
                        op: Prim::ArraySize | Prim::ArrayLen,
                        args,
                    } if uses == [args[0]] => {
                        plan.sizes
                            .push((i, size_answer(f, i, &arrays, &self.dims)?));
                    }
                    InstData::Jump { .. } | InstData::Branch { .. } => {
                        for (k, (d, args)) in f.insts[i].successors().iter().enumerate() {
                            let mut passed: Vec<Object> = Vec::new();
                            for a in args.iter() {
                                if let Some(o) = self.members.get(a) {
                                    // Each object once per edge, and unread after it.
                                    if passed.contains(o) || live_at(*d, *o) {
                                        return None;
                                    }
                                    passed.push(*o);
                                }
                            }
                            if !passed.is_empty() {
                                plan.edges.push((b, k));
                            }
                        }
                    }
                    InstData::Invoke { callee, .. }
                        if cold.contains(&b)
                            && SHOWS_ONLY.contains(&callee.func.as_str())
                            && c.method(callee.func, callee.method)
                                .is_some_and(|m| m.in_prelude) =>
                    {
                        plan.copies.push(i);
                    }
                    // An escape (a return too): nothing reads its objects after it.
                    _ => {
                        let objects: FxHashSet<Object> =
                            uses.iter().map(|u| self.members[u]).collect();
                        let read_later = insts[pos + 1..].iter().any(|&k| {
                            let mut r = false;
                            f.insts[k].for_each_arg(|a| {
                                r |= self.members.get(&a).is_some_and(|o| objects.contains(o))
                            });
                            r
                        });
                        let live_after = f
                            .successors(b)
                            .iter()
                            .any(|s| objects.iter().any(|o| live_at(*s, *o)));
                        if read_later || live_after {
                            return None;
                        }
                        plan.copies.push(i);
                    }
                }
            }
        }
        Some(plan)
    }

    /// Replaces the web's arrays by slots, as `plan` says.
    fn replace(&self, f: &mut Function, plan: Plan) {
        let n = self.dims.iter().product::<i64>() as usize;
        let objects: FxHashSet<Object> = self.members.values().copied().collect();
        let mut slots: FxHashMap<Object, Vec<ir::Slot>> = FxHashMap::default();
        for o in objects {
            slots.insert(o, element_slots(f, &self.elem, n));
        }
        // Instructions replaced by others in their blocks; instructions inserted before
        // others.
        let mut replace: FxHashMap<Inst, Vec<Inst>> = FxHashMap::default();
        let mut before: FxHashMap<Inst, Vec<Inst>> = FxHashMap::default();
        // Allocations: their elements start at zero, as `array_new` zero-fills.
        for (o, s) in &slots {
            if let Object::Alloc(alloc) = *o {
                let init = zero_elements(f, &self.elem, s, alloc);
                replace.insert(alloc, init);
            }
        }
        for (i, k) in plan.access {
            let InstData::Prim { op, args } = f.insts[i].clone() else {
                unreachable!("an element access")
            };
            let s = slots[&self.members[&args[0]]][k];
            if op == Prim::ArraySet {
                let (si, _) = f.make_inst(InstData::SetSlot(s, args[1]), Type::Any, f.locs[i]);
                f.inlined_at[si] = f.inlined_at[i];
                replace.insert(i, vec![si]);
            } else {
                f.insts[i] = InstData::GetSlot(s);
            }
        }
        for (i, k) in plan.sizes {
            f.insts[i] = InstData::Const(Const::Int(k));
        }
        // A copy of each object an instruction is given, from its current elements.
        for i in plan.copies {
            let loc = f.locs[i];
            let site = f.inlined_at[i];
            let mut built = Vec::new();
            let mut args = Vec::new();
            f.insts[i].for_each_arg(|a| args.push(a));
            let mut copy_of: FxHashMap<Object, Value> = FxHashMap::default();
            for a in args {
                let Some(&o) = self.members.get(&a) else {
                    continue;
                };
                if copy_of.contains_key(&o) {
                    continue;
                }
                let c = build_array(f, &self.ty, &self.dims, &slots[&o], loc, site, &mut built);
                copy_of.insert(o, c);
            }
            f.insts[i].map_args(|a| match self.members.get(&a) {
                Some(o) => copy_of[o],
                None => a,
            });
            before.insert(i, built);
        }
        // Edges: the passed objects' elements into the parameters' slots, all read first.
        let mut new_blocks = Vec::new();
        for (b, k) in plan.edges {
            let t = f
                .terminator(b)
                .unwrap_or_else(|| unreachable!("an edge's block"));
            let (d, args) = {
                let succ = f.insts[t].successors();
                (succ[k].0, succ[k].1.to_vec())
            };
            let loc = f.locs[t];
            let site = f.inlined_at[t];
            let mut reads = Vec::new();
            let mut writes = Vec::new();
            for (q, a) in f.blocks[d].params.clone().iter().zip(&args) {
                let (Some(&from), Some(&to)) = (self.members.get(a), self.members.get(q)) else {
                    continue;
                };
                if from == to {
                    continue;
                }
                for (&src, &dst) in slots[&from].iter().zip(&slots[&to]) {
                    let (ri, rv) = f.make_inst(InstData::GetSlot(src), self.elem.clone(), loc);
                    f.inlined_at[ri] = site;
                    reads.push(ri);
                    let rv = rv.unwrap_or_else(|| unreachable!());
                    let (wi, _) = f.make_inst(InstData::SetSlot(dst, rv), Type::Any, loc);
                    f.inlined_at[wi] = site;
                    writes.push(wi);
                }
            }
            reads.extend(writes);
            if reads.is_empty() {
                continue;
            }
            if matches!(f.insts[t], InstData::Jump { .. }) {
                before.entry(t).or_default().extend(reads);
            } else {
                // A branch: the copies go in a block of their own on the edge.
                let nb = f.add_block();
                let (j, _) = f.make_inst(
                    InstData::Jump {
                        dest: d,
                        args: args.clone(),
                    },
                    Type::Any,
                    loc,
                );
                f.inlined_at[j] = site;
                reads.push(j);
                f.blocks[nb].insts = reads;
                if let InstData::Branch {
                    then_dest,
                    then_args,
                    else_dest,
                    else_args,
                    ..
                } = &mut f.insts[t]
                {
                    if k == 0 {
                        *then_dest = nb;
                        then_args.clear();
                    } else {
                        *else_dest = nb;
                        else_args.clear();
                    }
                }
                new_blocks.push(nb);
            }
        }
        for b in f.layout.clone() {
            if new_blocks.contains(&b) {
                continue;
            }
            let insts = std::mem::take(&mut f.blocks[b].insts);
            let mut out = Vec::with_capacity(insts.len());
            for i in insts {
                if let Some(pre) = before.get(&i) {
                    out.extend(pre.iter().copied());
                }
                match replace.get(&i) {
                    Some(r) => out.extend(r.iter().copied()),
                    None => out.push(i),
                }
            }
            f.blocks[b].insts = out;
        }
        // The parameters go, with the arguments passed to them.
        let preds = f.predecessors();
        let mut by_block: FxHashMap<Block, Vec<Value>> = FxHashMap::default();
        for &(b, p) in &self.params {
            by_block.entry(b).or_default().push(p);
        }
        for (b, ps) in by_block {
            let remove: Vec<bool> = f.blocks[b].params.iter().map(|p| ps.contains(p)).collect();
            f.remove_block_params(b, &remove, &preds[b]);
        }
    }
}
