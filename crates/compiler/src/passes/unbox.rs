//! Scalar replacement of small immutable structs at block parameters: a loop-carried complex
//! number, `UInt64` or character becomes one block parameter per field, so a loop that
//! updates it builds no struct per iteration.
//!
//! A *candidate* is a parameter of a block other than the entry whose type is an immutable
//! struct of one to eight `Int64`/`Float64`/`Float32`/`Bool` fields. A candidate is replaced
//! when every use of it is a read of a field by position (`getfield p.k`), an edge argument
//! into another replaced parameter, a `return`, or any use in a block that only leads to an
//! error, and no edge passes it a not-yet-assigned value (`Const::Undef`). Then:
//! - the block gets one parameter per field, and each field read of the candidate becomes the
//!   field's parameter;
//! - an edge passes the fields of its argument: the field parameters of a replaced parameter,
//!   else field reads inserted before the edge's terminator (which later passes fold into the
//!   operands of a `new` that made the value);
//! - a return or an error path's use gets the struct rebuilt from the fields just before it
//!   (once, where the loop is done with it);
//! - the candidate parameter is removed.
//!
//! The struct is immutable, so its fields are all of its value: nothing can tell the difference.

use super::Pass;
use crate::{CompileError, Compiler};
use ir::{Block, Const, FieldRef, Function, Inst, InstData, Type, Value};
use rustc_hash::{FxHashMap, FxHashSet};

pub struct UnboxStructParams;

/// Structs with more fields than this stay whole.
const MAX_FIELDS: usize = 8;

impl Pass for UnboxStructParams {
    fn name(&self) -> &'static str {
        "unbox-params"
    }

    fn run(&self, c: &mut Compiler, f: &mut Function) -> Result<bool, CompileError> {
        let entry = f.entry();
        // Candidates with their field types.
        let mut fields: FxHashMap<Value, Vec<Type>> = FxHashMap::default();
        for &b in &f.layout {
            if b == entry {
                continue;
            }
            for &p in &f.blocks[b].params {
                if let Some(fts) = register_fields(c, &f.types[p]) {
                    fields.insert(p, fts);
                }
            }
        }
        if fields.is_empty() {
            return Ok(false);
        }
        let users = f.users();
        let preds = f.predecessors();
        let cold = f.cold_blocks();
        let block_of: FxHashMap<Inst, Block> = f
            .layout
            .iter()
            .flat_map(|&b| f.blocks[b].insts.iter().map(move |&i| (i, b)))
            .collect();
        // Drop candidates used otherwise, or passed an unassigned value, until none is.
        loop {
            let before = fields.len();
            let keep: Vec<Value> = fields
                .keys()
                .copied()
                .filter(|p| {
                    let uses_ok = users.get(p).is_none_or(|us| {
                        us.iter().all(|&u| {
                            only_fields_or_edges(f, u, *p, &fields)
                                || rebuilt_at(f, u, &cold, &block_of)
                        })
                    });
                    uses_ok && incoming_assigned(f, &preds, *p)
                })
                .collect();
            let kept: FxHashSet<Value> = keep.iter().copied().collect();
            fields.retain(|p, _| kept.contains(p));
            if fields.len() == before {
                break;
            }
        }
        if fields.is_empty() {
            return Ok(false);
        }
        // The field parameters of each replaced parameter.
        let mut field_params: FxHashMap<Value, Vec<Value>> = FxHashMap::default();
        let mut blocks: Vec<Block> = Vec::new();
        for b in f.layout.clone() {
            let params = f.blocks[b].params.clone();
            for p in params {
                if let Some(fts) = fields.get(&p) {
                    let vs: Vec<Value> = fts
                        .iter()
                        .map(|t| f.add_block_param(b, t.clone()))
                        .collect();
                    field_params.insert(p, vs);
                    if !blocks.contains(&b) {
                        blocks.push(b);
                    }
                }
            }
        }
        // Field reads of a replaced parameter are its field parameters.
        let mut alias: FxHashMap<Value, Value> = FxHashMap::default();
        let mut dead: FxHashSet<Inst> = FxHashSet::default();
        for (p, vs) in &field_params {
            for &u in users.get(p).map(|u| u.as_slice()).unwrap_or(&[]) {
                if let InstData::GetField {
                    field: FieldRef::Index(k),
                    ..
                } = f.insts[u]
                {
                    if let Some(r) = f.result(u) {
                        alias.insert(r, vs[k as usize]);
                        dead.insert(u);
                    }
                }
            }
        }
        // A return or an error path's use reads the struct rebuilt from its fields.
        let mut rebuilt: FxHashMap<(Inst, Value), Value> = FxHashMap::default();
        let mut before: FxHashMap<Inst, Vec<Inst>> = FxHashMap::default();
        for (p, vs) in &field_params {
            for &u in users.get(p).map(|u| u.as_slice()).unwrap_or(&[]) {
                if only_fields_or_edges(f, u, *p, &fields) {
                    continue;
                }
                let (ni, nv) = f.make_inst(
                    InstData::New {
                        ty: f.types[*p].clone(),
                        args: vs.clone(),
                    },
                    f.types[*p].clone(),
                    f.locs[u],
                );
                f.inlined_at[ni] = f.inlined_at[u];
                before.entry(u).or_default().push(ni);
                rebuilt.insert(
                    (u, *p),
                    nv.unwrap_or_else(|| unreachable!("`new` has a result")),
                );
            }
        }
        for ((u, p), nv) in &rebuilt {
            f.insts[*u].map_args(|a| if a == *p { *nv } else { a });
        }
        for b in f.layout.clone() {
            if !f.blocks[b].insts.iter().any(|i| before.contains_key(i)) {
                continue;
            }
            let insts = std::mem::take(&mut f.blocks[b].insts);
            let mut out = Vec::with_capacity(insts.len() + before.len());
            for i in insts {
                if let Some(pre) = before.get(&i) {
                    out.extend(pre.iter().copied());
                }
                out.push(i);
            }
            f.blocks[b].insts = out;
        }
        // Every edge into a block with replaced parameters passes their fields too.
        for b in f.layout.clone() {
            let Some(t) = f.terminator(b) else {
                continue;
            };
            let mut reads: Vec<Inst> = Vec::new();
            let loc = f.locs[t];
            let site = f.inlined_at[t];
            let succ: Vec<(Block, Vec<Value>)> = f.insts[t]
                .successors()
                .iter()
                .map(|(d, a)| (*d, a.to_vec()))
                .collect();
            let mut extra: Vec<Vec<Value>> = Vec::new();
            for (d, args) in &succ {
                let mut more = Vec::new();
                if blocks.contains(d) {
                    for (q, a) in f.blocks[*d].params.clone().iter().zip(args) {
                        let Some(fts) = fields.get(q) else {
                            continue;
                        };
                        if let Some(vs) = field_params.get(a) {
                            more.extend(vs.iter().copied());
                            continue;
                        }
                        for (k, ft) in fts.iter().enumerate() {
                            let (ri, rv) = f.make_inst(
                                InstData::GetField {
                                    obj: *a,
                                    field: FieldRef::Index(k as u32),
                                },
                                ft.clone(),
                                loc,
                            );
                            f.inlined_at[ri] = site;
                            reads.push(ri);
                            more.push(
                                rv.unwrap_or_else(|| unreachable!("a field read has a result")),
                            );
                        }
                    }
                }
                extra.push(more);
            }
            if extra.iter().all(|e| e.is_empty()) {
                continue;
            }
            let mut extra = extra.into_iter();
            match &mut f.insts[t] {
                InstData::Jump { args, .. } => args.extend(extra.next().unwrap_or_default()),
                InstData::Branch {
                    then_args,
                    else_args,
                    ..
                } => {
                    then_args.extend(extra.next().unwrap_or_default());
                    else_args.extend(extra.next().unwrap_or_default());
                }
                _ => {}
            }
            let insts = &mut f.blocks[b].insts;
            let at = insts.len() - 1;
            insts.splice(at..at, reads);
        }
        // The replaced parameters go.
        let preds = f.predecessors();
        for b in blocks {
            let remove: Vec<bool> = f.blocks[b]
                .params
                .iter()
                .map(|p| fields.contains_key(p))
                .collect();
            f.remove_block_params(b, &remove, &preds[b]);
        }
        for b in f.layout.clone() {
            f.blocks[b].insts.retain(|i| !dead.contains(i));
        }
        f.map_all_args(|v| alias.get(&v).copied().unwrap_or(v));
        Ok(true)
    }
}

/// The field types of an immutable struct of a few register-held fields.
fn register_fields(c: &Compiler, t: &Type) -> Option<Vec<Type>> {
    if !matches!(t, Type::Struct(..)) || c.env.is_mutable(t) {
        return None;
    }
    let fts = c.env.field_types(t)?;
    let scalar = |t: &Type| matches!(t, Type::Int64 | Type::Float64 | Type::Float32 | Type::Bool);
    (!fts.is_empty() && fts.len() <= MAX_FIELDS && fts.iter().all(scalar)).then_some(fts)
}

/// Whether instruction `u` uses `p` only to read its fields by position, or to pass it along
/// edges into candidates.
fn only_fields_or_edges(
    f: &Function,
    u: Inst,
    p: Value,
    fields: &FxHashMap<Value, Vec<Type>>,
) -> bool {
    match &f.insts[u] {
        InstData::GetField {
            obj,
            field: FieldRef::Index(_),
        } => *obj == p,
        InstData::Jump { .. } | InstData::Branch { .. } => {
            if matches!(&f.insts[u], InstData::Branch { cond, .. } if *cond == p) {
                return false;
            }
            f.insts[u].successors().iter().all(|(d, args)| {
                f.blocks[*d]
                    .params
                    .iter()
                    .zip(args.iter())
                    .all(|(q, a)| *a != p || fields.contains_key(q))
            })
        }
        _ => false,
    }
}

/// Whether `u` is a use of a struct that may read it rebuilt from its fields: a return, or
/// anything on a path that only leads to an error.
fn rebuilt_at(
    f: &Function,
    u: Inst,
    cold: &FxHashSet<Block>,
    block_of: &FxHashMap<Inst, Block>,
) -> bool {
    matches!(f.insts[u], InstData::Return(_)) || block_of.get(&u).is_some_and(|b| cold.contains(b))
}

/// Whether every edge into `p`'s block passes it an assigned value.
fn incoming_assigned(
    f: &Function,
    preds: &cranelift_entity::SecondaryMap<Block, ir::Preds>,
    p: Value,
) -> bool {
    let ir::ValueDef::Param(b, k) = f.values[p] else {
        return false;
    };
    preds[b].iter().all(|&pb| {
        let Some(t) = f.terminator(pb) else {
            return true;
        };
        f.insts[t]
            .successors()
            .iter()
            .filter(|(d, _)| *d == b)
            .all(|(_, args)| {
                args.get(k as usize)
                    .is_some_and(|a| !matches!(f.const_value(*a), Some(Const::Undef)))
            })
    })
}
