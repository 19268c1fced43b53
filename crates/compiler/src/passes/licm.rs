//! Loop-invariant code motion: effect-free primitives whose operands are all defined
//! outside a loop move to the loop's preheader.
//!
//! A loop is a header with back edges from blocks it dominates; its preheader is its only
//! predecessor outside the loop, ending in a plain jump to the header. Only primitives that
//! neither throw, read mutable memory nor write move, field reads of immutable structs and
//! tuples, and reads of constant and bound globals, so running one early (even when the loop body would not have) changes nothing but
//! time. Cranelift does no loop optimisation of its
//! own for our code, and the interpreter gains as well.

use super::Pass;
use crate::{CompileError, Compiler};
use ir::{Block, Function, Inst, InstData, Value, ValueDef};
use rustc_hash::FxHashSet;

pub struct Licm;

impl Pass for Licm {
    fn name(&self) -> &'static str {
        "licm"
    }

    fn run(&self, c: &mut Compiler, f: &mut Function) -> Result<bool, CompileError> {
        let mut changed = false;
        // Hoisting out of an inner loop can make an instruction invariant in the outer one.
        for _ in 0..4 {
            let mut round = false;
            for (pre, body) in loops(f) {
                round |= hoist(f, c, pre, &body);
            }
            if !round {
                break;
            }
            changed = true;
        }
        Ok(changed)
    }
}

/// Each loop with a preheader: (preheader, body blocks), innermost loops first.
fn loops(f: &Function) -> Vec<(Block, FxHashSet<Block>)> {
    let preds = f.predecessors();
    ir::dominators::natural_loops(f)
        .into_iter()
        .filter_map(|(h, body)| {
            let pre = ir::dominators::preheader(f, &preds, h, &body)?;
            Some((pre, body))
        })
        .collect()
}

fn movable(f: &Function, c: &Compiler, d: &InstData) -> bool {
    let env = &c.env;
    match d {
        // A constant or bound global: defined, and its value never changes.
        InstData::GetGlobal(name) => c.globals.get(name).is_some_and(crate::GlobalInfo::is_fixed),
        // A field of an immutable struct or a tuple of known type (a view's parent and
        // indices, read in every iteration): always there, and never changes.
        InstData::GetField {
            obj,
            field: ir::FieldRef::Index(k),
        } => match &f.types[*obj] {
            ir::Type::Tuple(ts) => (*k as usize) < ts.len(),
            t @ ir::Type::Struct(..) => {
                !env.is_mutable(t)
                    && env
                        .field_types(t)
                        .is_some_and(|fts| (*k as usize) < fts.len())
            }
            _ => false,
        },
        // Constants stay where they are: Cranelift materialises them at their uses, and a
        // hoisted one only lengthens a live range.
        InstData::Const(_) => false,
        InstData::Prim { op, .. } => op.effects() == ir::prim::Effects::PURE,
        // Calls, memory, slots, other globals and terminators stay; aggregates are cheap to rebuild
        // and keep their values' live ranges short.
        InstData::Invoke { .. }
        | InstData::Call { .. }
        | InstData::New { .. }
        | InstData::Tuple { .. }
        | InstData::GetField { .. }
        | InstData::SetField { .. }
        | InstData::TypeAssert { .. }
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

/// Moves the invariant instructions of `body` to the end of `pre` (before its jump).
fn hoist(f: &mut Function, c: &Compiler, pre: Block, body: &FxHashSet<Block>) -> bool {
    let in_body: FxHashSet<Inst> = body
        .iter()
        .flat_map(|b| f.blocks[*b].insts.iter().copied())
        .collect();
    let inside = |f: &Function, v: Value, moved: &FxHashSet<Inst>| match f.values[v] {
        ValueDef::Param(b, _) => body.contains(&b),
        ValueDef::Inst(i) => in_body.contains(&i) && !moved.contains(&i),
    };
    let mut moved: FxHashSet<Inst> = FxHashSet::default();
    let mut order: Vec<Inst> = Vec::new();
    // Blocks in layout order, so an operand hoisted earlier is seen before its users.
    let blocks: Vec<Block> = f
        .layout
        .iter()
        .copied()
        .filter(|b| body.contains(b))
        .collect();
    loop {
        let mut more = false;
        for &b in &blocks {
            for &i in &f.blocks[b].insts {
                if moved.contains(&i) || !movable(f, c, &f.insts[i]) {
                    continue;
                }
                let mut invariant = true;
                f.insts[i].for_each_arg(|a| {
                    invariant &= !inside(f, a, &moved) || f.const_value(a).is_some()
                });
                if invariant {
                    moved.insert(i);
                    order.push(i);
                    more = true;
                }
            }
        }
        if !more {
            break;
        }
    }
    if order.is_empty() {
        return false;
    }
    // Constant operands stay in the loop; a moved instruction gets its own copy in the
    // preheader.
    let mut copies: rustc_hash::FxHashMap<Value, Value> = Default::default();
    let mut made: Vec<Inst> = Vec::new();
    for &i in &order {
        let mut args = Vec::new();
        f.insts[i].for_each_arg(|a| args.push(a));
        for a in args {
            if copies.contains_key(&a) || !inside(f, a, &moved) {
                continue;
            }
            let Some(c) = f.const_value(a).cloned() else {
                continue;
            };
            let (ci, cv) = f.make_inst(InstData::Const(c), f.types[a].clone(), f.locs[i]);
            if let Some(cv) = cv {
                copies.insert(a, cv);
                made.push(ci);
            }
        }
        f.insts[i].map_args(|a| copies.get(&a).copied().unwrap_or(a));
    }
    made.extend(order);
    let order = made;
    for &b in &blocks {
        f.blocks[b].insts.retain(|i| !moved.contains(i));
    }
    let insts = &mut f.blocks[pre].insts;
    let at = insts.len() - 1;
    insts.splice(at..at, order);
    true
}
