//! Scalar replacement of small arrays: a fresh array of known small size that nothing but
//! element reads, element writes and size queries ever sees becomes one variable per element.
//!
//! A fresh array is the result of `Core.array_new` with constant dimensions, of `Float64`,
//! `Float32`, `Int64` or `Bool` elements. Its *aliases* are itself and the results of
//! `arrayset`s into it (which return the array). If every use of every alias is an element
//! read (`arrayref`, `arrayref_raw`), an element write (`arrayset`, storing a value that is not
//! the array) or a size query (`arraysize`, `arraylen`), then the array cannot change size, no
//! one else can read or write it, and:
//! - its size queries are constants (also when some accesses have indices only known at run
//!   time: folding them lets loops over the array be unrolled, after which the indices are
//!   constants);
//! - when every access has constant indices in range, the allocation, reads and writes become
//!   slot stores and loads (one slot per element, each starting at the element's zero, as
//!   `array_new` zero-fills), which SSA construction turns into values: the array is gone.
//!
//! Accesses with an index out of range are left alone (they raise Julia's `BoundsError`).

use super::Pass;
use crate::{CompileError, Compiler};
use ir::{Const, Function, Inst, InstData, Prim, SlotData, Type, Value};
use rustc_hash::{FxHashMap, FxHashSet};

pub struct ScalarReplace;

/// Arrays with more elements than this stay arrays.
pub const MAX_ELEMS: i64 = 16;

impl Pass for ScalarReplace {
    fn name(&self) -> &'static str {
        "sroa"
    }

    fn run(&self, c: &mut Compiler, f: &mut Function) -> Result<bool, CompileError> {
        let allocs: Vec<(Inst, Type, Vec<i64>)> = f
            .layout
            .iter()
            .flat_map(|b| f.blocks[*b].insts.iter().copied())
            .filter_map(|i| fresh_dims(f, i).map(|(e, d)| (i, e, d)))
            .collect();
        if allocs.is_empty() {
            return Ok(false);
        }
        let users = f.users();
        // Instructions of the blocks that only lead to an error.
        let cold = f.cold_blocks();
        let cold_insts: FxHashSet<Inst> = cold
            .iter()
            .flat_map(|b| f.blocks[*b].insts.iter().copied())
            .collect();
        let preds = f.predecessors();
        let mut changed = false;
        // Instructions replaced by others (several, or none) in their blocks.
        let mut replace: FxHashMap<Inst, Vec<Inst>> = FxHashMap::default();
        for (alloc, elem, dims) in allocs {
            let arrays = aliases(f, alloc, &users);
            let Some(uses) = local_uses(c, f, &arrays, &users, &cold_insts) else {
                // Shared with others: its size is still known until something may resize it.
                changed |= fold_sizes_until_resized(f, &preds, alloc, &arrays, &dims);
                continue;
            };
            // Size queries are constants.
            let mut all_sizes = true;
            for &u in &uses {
                if !matches!(
                    f.insts[u],
                    InstData::Prim {
                        op: Prim::ArrayLen | Prim::ArraySize,
                        ..
                    }
                ) {
                    continue;
                }
                match size_answer(f, u, &arrays, &dims) {
                    Some(k) => {
                        f.insts[u] = InstData::Const(Const::Int(k));
                        changed = true;
                    }
                    None => all_sizes = false,
                }
            }
            if !all_sizes {
                continue;
            }
            // Every access at constant indices in range: one slot per element.
            let mut at: Vec<(Inst, usize)> = Vec::with_capacity(uses.len());
            let accesses = uses.iter().filter_map(|&u| match &f.insts[u] {
                InstData::Prim {
                    op: Prim::ArrayRef | Prim::ArrayRefRaw,
                    args,
                } => Some((u, &args[1..])),
                InstData::Prim {
                    op: Prim::ArraySet,
                    args,
                } => Some((u, &args[2..])),
                _ => None,
            });
            let mut all_constant = true;
            for (u, idx) in accesses {
                match linear_index(f, &dims, idx) {
                    Some(k) => at.push((u, k)),
                    None => all_constant = false,
                }
            }
            if !all_constant {
                continue;
            }
            let n = dims.iter().product::<i64>() as usize;
            let slots = element_slots(f, &elem, n);
            let init = zero_elements(f, &elem, &slots, alloc);
            replace.insert(alloc, init);
            // An error message shows the array as it is: a copy of it, built from the
            // elements' current values.
            for &u in &uses {
                if !matches!(f.insts[u], InstData::Invoke { .. }) {
                    continue;
                }
                let mut built = Vec::new();
                let aty = Type::Array(std::sync::Arc::new(elem.clone()), dims.len() as u32);
                let (loc, site) = (f.locs[u], f.inlined_at[u]);
                let copy = build_array(f, &aty, &dims, &slots, loc, site, &mut built);
                f.insts[u].map_args(|a| if arrays.contains(&a) { copy } else { a });
                built.push(u);
                replace.insert(u, built);
            }
            for (u, k) in at {
                match f.insts[u].clone() {
                    InstData::Prim {
                        op: Prim::ArraySet,
                        args,
                    } => {
                        let (si, _) =
                            f.make_inst(InstData::SetSlot(slots[k], args[1]), Type::Any, f.locs[u]);
                        f.inlined_at[si] = f.inlined_at[u];
                        replace.insert(u, vec![si]);
                    }
                    _ => f.insts[u] = InstData::GetSlot(slots[k]),
                }
            }
            changed = true;
        }
        if !replace.is_empty() {
            for b in f.layout.clone() {
                let insts = std::mem::take(&mut f.blocks[b].insts);
                let mut out = Vec::with_capacity(insts.len());
                for i in insts {
                    match replace.get(&i) {
                        Some(r) => out.extend(r.iter().copied()),
                        None => out.push(i),
                    }
                }
                f.blocks[b].insts = out;
            }
            crate::ssa::promote_slots(f);
        }
        Ok(changed)
    }
}

/// Folds the size queries of the array `alloc` creates (of dimensions `dims`; `arrays` are it
/// and its aliases) that nothing able to resize an array precedes since.
fn fold_sizes_until_resized(
    f: &mut Function,
    preds: &cranelift_entity::SecondaryMap<ir::Block, ir::Preds>,
    alloc: Inst,
    arrays: &[Value],
    dims: &[i64],
) -> bool {
    let mut folds: Vec<(Inst, i64)> = Vec::new();
    for &b in &f.layout {
        for (pos, &i) in f.blocks[b].insts.iter().enumerate() {
            if let Some(k) = size_answer(f, i, arrays, dims) {
                if super::facts::unresized_between(f, preds, alloc, b, pos) {
                    folds.push((i, k));
                }
            }
        }
    }
    for &(i, k) in &folds {
        f.insts[i] = InstData::Const(Const::Int(k));
    }
    !folds.is_empty()
}

/// The answer of `i` if it is a size query (`arraylen`, or `arraysize` along a constant
/// dimension) of one of `arrays`, whose dimensions are `dims`.
pub(super) fn size_answer(f: &Function, i: Inst, arrays: &[Value], dims: &[i64]) -> Option<i64> {
    match &f.insts[i] {
        InstData::Prim {
            op: Prim::ArrayLen,
            args,
        } if arrays.contains(&args[0]) => Some(dims.iter().product()),
        InstData::Prim {
            op: Prim::ArraySize,
            args,
        } if arrays.contains(&args[0]) => match f.const_value(args[1]) {
            Some(Const::Int(d)) if *d >= 1 => Some(dims.get(*d as usize - 1).copied().unwrap_or(1)),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `i` allocates a small array of numbers or booleans with constant dimensions.
pub fn small_fresh_array(f: &Function, i: Inst) -> bool {
    fresh_dims(f, i).is_some()
}

/// The element type and dimensions of the array `i` allocates, if it is a small array of
/// numbers or booleans with constant dimensions.
pub(super) fn fresh_dims(f: &Function, i: Inst) -> Option<(Type, Vec<i64>)> {
    let InstData::Prim {
        op: Prim::ArrayNew,
        args,
    } = &f.insts[i]
    else {
        return None;
    };
    let r = f.result(i)?;
    let Type::Array(elem, nd) = &f.types[r] else {
        return None;
    };
    if !scalar_element(elem) || args.len() != *nd as usize + 1 {
        return None;
    }
    let mut dims = Vec::with_capacity(args.len() - 1);
    let mut n: i64 = 1;
    for a in &args[1..] {
        let Some(Const::Int(d)) = f.const_value(*a) else {
            return None;
        };
        if !(0..=MAX_ELEMS).contains(d) {
            return None;
        }
        n *= d;
        dims.push(*d);
    }
    (n <= MAX_ELEMS).then(|| ((**elem).clone(), dims))
}

/// Whether arrays of `elem`s may become scalars: numbers and booleans.
pub(super) fn scalar_element(elem: &Type) -> bool {
    matches!(
        elem,
        Type::Float64 | Type::Float32 | Type::Int64 | Type::Bool
    )
}

/// The prelude functions that error paths give an array to, which only read it (to show it
/// in the error's message).
pub(super) const SHOWS_ONLY: &[&str] = &[
    "_axes_string",
    "summary",
    "string",
    "print",
    "println",
    "show",
];

/// The array `alloc` creates and its aliases: the results of `arrayset`s into it (which
/// return the array), and of `arrayset`s into those.
fn aliases(f: &Function, alloc: Inst, users: &FxHashMap<Value, Vec<Inst>>) -> Vec<Value> {
    let mut out: Vec<Value> = f.result(alloc).into_iter().collect();
    let mut k = 0;
    while k < out.len() {
        for &u in users.get(&out[k]).map(Vec::as_slice).unwrap_or(&[]) {
            if let InstData::Prim {
                op: Prim::ArraySet,
                args,
            } = &f.insts[u]
            {
                if args[0] == out[k] && !args[1..].contains(&out[k]) {
                    out.extend(f.result(u));
                }
            }
        }
        k += 1;
    }
    out
}

/// Every use of `arrays` (an array and its aliases), if all are element reads and writes,
/// size queries, and (in `cold` instructions, on the way to an error) calls of prelude
/// functions that only show it.
fn local_uses(
    c: &Compiler,
    f: &Function,
    arrays: &[Value],
    users: &FxHashMap<Value, Vec<Inst>>,
    cold: &FxHashSet<Inst>,
) -> Option<Vec<Inst>> {
    let mut out = Vec::new();
    for &v in arrays {
        for &u in users.get(&v).map(Vec::as_slice).unwrap_or(&[]) {
            let ok = match &f.insts[u] {
                InstData::Prim {
                    op:
                        Prim::ArrayRef
                        | Prim::ArrayRefRaw
                        | Prim::ArraySize
                        | Prim::ArrayLen
                        | Prim::ArraySet,
                    args,
                } => args[0] == v && !args[1..].contains(&v),
                InstData::Invoke { callee, .. } => {
                    cold.contains(&u)
                        && SHOWS_ONLY.contains(&callee.func.as_str())
                        && c.method(callee.func, callee.method)
                            .is_some_and(|m| m.in_prelude)
                }
                _ => false,
            };
            if !ok {
                return None;
            }
            out.push(u);
        }
    }
    Some(out)
}

/// The 0-based element that constant indices `idx` select in an array of dimensions `dims`:
/// one linear index, or one index per dimension, each in range.
pub(super) fn linear_index(f: &Function, dims: &[i64], idx: &[Value]) -> Option<usize> {
    let ks: Vec<i64> = idx
        .iter()
        .map(|v| match f.const_value(*v) {
            Some(Const::Int(k)) => Some(*k),
            _ => None,
        })
        .collect::<Option<_>>()?;
    match ks.as_slice() {
        [k] => (1..=dims.iter().product::<i64>())
            .contains(k)
            .then(|| *k as usize - 1),
        _ if ks.len() == dims.len() => {
            let mut lin = 0i64;
            let mut stride = 1i64;
            for (k, d) in ks.iter().zip(dims) {
                if !(1..=*d).contains(k) {
                    return None;
                }
                lin += (k - 1) * stride;
                stride *= d;
            }
            Some(lin as usize)
        }
        _ => None,
    }
}

/// `n` new slots for the elements of an array of `elem`s.
pub(super) fn element_slots(f: &mut Function, elem: &Type, n: usize) -> Vec<ir::Slot> {
    let name = syntax::Symbol::intern("#element");
    (0..n)
        .map(|_| {
            f.slots.push(SlotData {
                name,
                ty: elem.clone(),
            })
        })
        .collect()
}

/// The instructions (not yet placed) that set `slots` to the zero of `elem`, as `array_new`
/// zero-fills, made at allocation `alloc`'s place.
pub(super) fn zero_elements(
    f: &mut Function,
    elem: &Type,
    slots: &[ir::Slot],
    alloc: Inst,
) -> Vec<Inst> {
    let zero = match elem {
        Type::Float64 => Const::F64(0.0),
        Type::Float32 => Const::F32(0.0),
        Type::Int64 => Const::Int(0),
        _ => Const::Bool(false),
    };
    let (loc, site) = (f.locs[alloc], f.inlined_at[alloc]);
    let (zi, zv) = f.make_inst(InstData::Const(zero), elem.clone(), loc);
    let zv = zv.unwrap_or_else(|| unreachable!("a constant has a value"));
    let mut init = vec![zi];
    for &s in slots {
        init.push(f.make_inst(InstData::SetSlot(s, zv), Type::Any, loc).0);
    }
    for &i in &init {
        f.inlined_at[i] = site;
    }
    init
}

/// Appends to `built` the instructions (not yet placed) making a new array of type `ty` and
/// dimensions `dims` holding the current values of `slots`, at `loc` in inline site `site`;
/// returns the array.
pub(super) fn build_array(
    f: &mut Function,
    ty: &Type,
    dims: &[i64],
    slots: &[ir::Slot],
    loc: syntax::Span,
    site: u32,
    built: &mut Vec<Inst>,
) -> Value {
    let Type::Array(elem, _) = ty else {
        unreachable!("an array type")
    };
    let elem = (**elem).clone();
    let mut mk = |f: &mut Function, data: InstData, t: Type| {
        let (i, v) = f.make_inst(data, t, loc);
        f.inlined_at[i] = site;
        built.push(i);
        v.unwrap_or_else(|| unreachable!("an instruction with a result"))
    };
    let mut args = vec![mk(
        f,
        InstData::Const(Const::Type(ty.clone())),
        Type::type_of_type(ty.clone()),
    )];
    for d in dims {
        args.push(mk(f, InstData::Const(Const::Int(*d)), Type::Int64));
    }
    let copy = mk(
        f,
        InstData::Prim {
            op: Prim::ArrayNew,
            args,
        },
        ty.clone(),
    );
    for (k, &s) in slots.iter().enumerate() {
        let x = mk(f, InstData::GetSlot(s), elem.clone());
        let ix = mk(f, InstData::Const(Const::Int(k as i64 + 1)), Type::Int64);
        mk(
            f,
            InstData::Prim {
                op: Prim::ArraySet,
                args: vec![copy, x, ix],
            },
            ty.clone(),
        );
    }
    copy
}
