//! The IR verifier. It checks the invariants below; passes run it after every step in tests.
//!
//! All phases:
//! 1. The layout is non-empty, lists each block once, and every listed block ends with exactly
//!    one terminator (and has none before its end). Each instruction is in one block.
//! 2. Every operand is defined, and its definition dominates the use (block parameters are
//!    defined at the top of their block; a branch argument is used at the end of its block).
//! 3. Branch targets are in the layout and get one argument per block parameter.
//! 4. An instruction has a result value exactly when its kind produces one.
//!
//! Phase `Ssa` and later: no `GetSlot`/`SetSlot`.
//! Phase `Typed` and later, additionally:
//! 5. No `StaticParam`; branch conditions are `Bool`; types of constants, primitive results and
//!    static-call arguments agree with their definitions; branch arguments are subtypes of the
//!    parameters they flow into; returned values are subtypes of the return type.

use crate::dominators::DomTree;
use crate::function::{Block, FieldRef, Function, Inst, InstData, Phase, Value, ValueDef};
use crate::types::{IrType, Type, TypeEnv};
pub use crate::write::Place;
use cranelift_entity::SecondaryMap;

/// A broken invariant: the function, the block or instruction it is about, and what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct VerifyError {
    pub function: String,
    pub place: Place,
    pub message: String,
}

impl std::fmt::Display for VerifyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.function, self.message)
    }
}

/// The IR text of `func` with each error printed under the block or instruction it is about.
pub fn write_with_errors(func: &Function, errs: &[VerifyError]) -> String {
    crate::write::write_annotated(func, None, &|place| {
        errs.iter()
            .filter(|e| e.place == place)
            .map(|e| format!("error: {}", e.message))
            .collect()
    })
}

/// Errors found so far, each with its place.
type Errs = Vec<(Place, String)>;

/// Checks `func`; returns every problem found.
pub fn verify(func: &Function, env: &TypeEnv) -> Result<(), Vec<VerifyError>> {
    let mut errs: Errs = Vec::new();
    if func.layout.is_empty() {
        errs.push((Place::Function, "function has no blocks".into()));
        return Err(wrap(func, errs));
    }
    // 1. Layout shape.
    let mut in_layout: SecondaryMap<Block, bool> = SecondaryMap::new();
    let mut inst_block: SecondaryMap<Inst, Option<Block>> = SecondaryMap::new();
    let mut inst_pos: SecondaryMap<Inst, usize> = SecondaryMap::new();
    for &b in &func.layout {
        if in_layout[b] {
            errs.push((Place::Block(b), format!("{b} appears twice in the layout")));
        }
        in_layout[b] = true;
        let insts = &func.blocks[b].insts;
        if insts.is_empty() {
            errs.push((Place::Block(b), format!("{b} is empty")));
        }
        for (k, &i) in insts.iter().enumerate() {
            if inst_block[i].is_some() {
                errs.push((Place::Inst(i), format!("{b}: {i} is placed twice")));
            }
            inst_block[i] = Some(b);
            inst_pos[i] = k;
            let is_last = k + 1 == insts.len();
            let term = func.insts[i].is_terminator();
            if term && !is_last {
                errs.push((
                    Place::Inst(i),
                    format!("{b}: terminator before the end of the block"),
                ));
            }
            if !term && is_last {
                errs.push((
                    Place::Block(b),
                    format!("{b} does not end with a terminator"),
                ));
            }
            // 4.
            if func.insts[i].has_result() != func.result(i).is_some() {
                errs.push((
                    Place::Inst(i),
                    format!("{b}: result of {i} does not match its kind"),
                ));
            }
        }
    }
    for (k, &p) in func.blocks[func.entry()].params.iter().enumerate() {
        if func.values[p] != ValueDef::Param(func.entry(), k as u32) {
            errs.push((
                Place::Block(func.entry()),
                format!("entry parameter {p} is not defined as one"),
            ));
        }
    }
    if !errs.is_empty() {
        return Err(wrap(func, errs));
    }

    let dom = DomTree::compute(func);
    let typed = func.phase >= Phase::Typed;

    // Where a value is defined: (block, position) with params at position -1.
    let def_site = |v: Value| -> Option<(Block, isize)> {
        match func.values.get(v)? {
            ValueDef::Inst(i) => {
                let b = inst_block[*i]?;
                if func.result(*i) != Some(v) {
                    return None;
                }
                Some((b, inst_pos[*i] as isize))
            }
            ValueDef::Param(b, idx) => {
                if in_layout[*b] && func.blocks[*b].params.get(*idx as usize) == Some(&v) {
                    Some((*b, -1))
                } else {
                    None
                }
            }
        }
    };

    for &b in &func.layout {
        if !dom.is_reachable(b) {
            continue;
        }
        for (k, &i) in func.blocks[b].insts.iter().enumerate() {
            let data = &func.insts[i];
            // 2. Operands defined and dominating.
            let mut bad = Vec::new();
            data.for_each_arg(|a| match def_site(a) {
                None => bad.push(format!("{b}: {a} is used but not defined")),
                Some((db, dpos)) => {
                    let ok = if db == b {
                        dpos < k as isize
                    } else {
                        dom.dominates(db, b)
                    };
                    if !ok {
                        bad.push(format!(
                            "{b}: use of {a} is not dominated by its definition"
                        ));
                    }
                }
            });
            errs.extend(bad.into_iter().map(|m| (Place::Inst(i), m)));
            // 3. Branch shape.
            for (dest, args) in data.successors() {
                if !in_layout.get(dest).copied().unwrap_or(false) {
                    errs.push((
                        Place::Inst(i),
                        format!("{b}: branch to {dest}, which is not in the layout"),
                    ));
                    continue;
                }
                let params = &func.blocks[dest].params;
                if params.len() != args.len() {
                    errs.push((
                        Place::Inst(i),
                        format!(
                            "{b}: branch to {dest} passes {} arguments for {} parameters",
                            args.len(),
                            params.len()
                        ),
                    ));
                } else if typed {
                    for (a, p) in args.iter().zip(params) {
                        if !env.subtype(&func.types[*a], &func.types[*p]) {
                            errs.push((
                                Place::Inst(i),
                                format!(
                                    "{b}: {a}: {} flows into {p}: {}",
                                    IrType(&func.types[*a]),
                                    IrType(&func.types[*p])
                                ),
                            ));
                        }
                    }
                }
            }
            match data {
                InstData::GetSlot(_) | InstData::SetSlot(..) if func.phase >= Phase::Ssa => errs
                    .push((
                        Place::Inst(i),
                        format!("{b}: slot access in phase {}", func.phase.name()),
                    )),
                _ => {}
            }
            if typed {
                check_typed(func, env, b, i, &mut errs);
            }
        }
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(wrap(func, errs))
    }
}

fn wrap(func: &Function, errs: Errs) -> Vec<VerifyError> {
    errs.into_iter()
        .map(|(place, message)| VerifyError {
            function: func.name.clone(),
            place,
            message,
        })
        .collect()
}

fn check_typed(func: &Function, env: &TypeEnv, b: Block, i: Inst, out: &mut Errs) {
    let mut errs: Vec<String> = Vec::new();
    check_typed_inst(func, env, b, i, &mut errs);
    out.extend(errs.into_iter().map(|m| (Place::Inst(i), m)));
}

fn check_typed_inst(func: &Function, env: &TypeEnv, b: Block, i: Inst, errs: &mut Vec<String>) {
    let ty = |v: Value| func.types[v].clone();
    let res = func.result(i);
    match &func.insts[i] {
        InstData::StaticParam(_) => errs.push(format!("{b}: static_param in a typed function")),
        InstData::Const(c) => {
            if let Some(r) = res {
                if c.ty() != ty(r) && !matches!(c, crate::function::Const::Undef) {
                    errs.push(format!(
                        "{b}: constant of type {} in {r}: {}",
                        IrType(&c.ty()),
                        IrType(&ty(r))
                    ));
                }
            }
        }
        InstData::Prim { op, args } => {
            let ats: Vec<Type> = args.iter().map(|a| ty(*a)).collect();
            if ats.iter().all(|t| t.is_concrete()) && !op.typed_by_calls() {
                match op.result_type(&ats, env) {
                    Ok(t) => {
                        if let Some(r) = res {
                            if !env.subtype(&t, &ty(r)) {
                                errs.push(format!(
                                    "{b}: prim {op} returns {} but {r} has type {}",
                                    IrType(&t),
                                    IrType(&ty(r))
                                ));
                            }
                        }
                    }
                    Err(m) => errs.push(format!("{b}: {m}")),
                }
            }
        }
        InstData::Invoke { callee, args } => {
            if callee.sig.len() != args.len() {
                errs.push(format!(
                    "{b}: invoke of {} with wrong argument count",
                    callee.func
                ));
            } else {
                for (k, (a, t)) in args.iter().zip(callee.sig.iter()).enumerate() {
                    // `Any`: an argument type too deep to specialise on (see dispatch).
                    if ty(*a) != *t && *t != Type::Any {
                        errs.push(format!(
                            "{b}: invoke {}: argument {k} is {} but the signature says {}",
                            callee.func,
                            IrType(&ty(*a)),
                            IrType(t)
                        ));
                    }
                }
            }
        }
        InstData::Branch { cond, .. } => {
            if ty(*cond) != Type::Bool {
                errs.push(format!(
                    "{b}: branch condition {cond} has type {}",
                    IrType(&ty(*cond))
                ));
            }
        }
        InstData::Return(v) => {
            if !env.subtype(&ty(*v), &func.ret_type) {
                errs.push(format!(
                    "{b}: returns {v}: {} from a function returning {}",
                    IrType(&ty(*v)),
                    IrType(&func.ret_type)
                ));
            }
        }
        InstData::GetField {
            obj,
            field: FieldRef::Index(k),
        } => {
            let ot = ty(*obj);
            if ot.is_concrete() {
                match env.field_types(&ot) {
                    Some(fts) => match (fts.get(*k as usize), res) {
                        (Some(ft), Some(r)) => {
                            if !env.subtype(ft, &ty(r)) {
                                errs.push(format!(
                                    "{b}: field {k} of {} has type {}, but {r}: {}",
                                    IrType(&ot),
                                    IrType(ft),
                                    IrType(&ty(r))
                                ));
                            }
                        }
                        _ => errs.push(format!("{b}: {} has no field {k}", IrType(&ot))),
                    },
                    None => errs.push(format!(
                        "{b}: getfield on {}, which has no fields",
                        IrType(&ot)
                    )),
                }
            }
        }
        InstData::New { ty: t, args } => {
            if let Some(fts) = env.field_types(t) {
                if fts.len() != args.len() {
                    errs.push(format!("{b}: new {} with {} fields", IrType(t), args.len()));
                }
            }
        }
        InstData::TypeAssert { ty: t, .. } => {
            if let Some(r) = res {
                if !env.subtype(t, &ty(r)) && !env.subtype(&ty(r), t) {
                    errs.push(format!(
                        "{b}: typeassert to {} gives {r}: {}",
                        IrType(t),
                        IrType(&ty(r))
                    ));
                }
            }
        }
        InstData::Tuple { args } => {
            if let Some(r) = res {
                let t = Type::tuple(args.iter().map(|a| ty(*a)).collect());
                if t != ty(r) && ty(r).is_concrete() {
                    errs.push(format!(
                        "{b}: tuple of type {} in {r}: {}",
                        IrType(&t),
                        IrType(&ty(r))
                    ));
                }
            }
        }
        InstData::Call { .. }
        | InstData::GetField { .. }
        | InstData::SetField { .. }
        | InstData::GetGlobal(_)
        | InstData::SetGlobal(..)
        | InstData::GetSlot(_)
        | InstData::SetSlot(..)
        | InstData::Jump { .. }
        | InstData::Unreachable => {}
    }
}
