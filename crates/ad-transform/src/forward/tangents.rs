//! Tangents as IR values: tangent types, zeros, narrowing, lanes, and the calls forward mode
//! makes through the AD runtime.

use super::Cx;
use crate::emit::Emit;
use crate::DualCallOp;
use ir::tangent::tangent_type;
use ir::{Const, InstData, Prim, Type, TypeEnv, Value};
use rustc_hash::FxHashMap;

/// `g` for each of `n` lanes.
pub(super) fn lanes(
    n: usize,
    e: &mut Emit,
    g: &mut dyn FnMut(&mut Emit, usize) -> Value,
) -> Vec<Value> {
    (0..n).map(|l| g(e, l)).collect()
}

/// The tangent type of primal type `t`. A reverse-mode rule state's tangent is another rule
/// state (holding the tangents of what the state's stacks hold): forward-over-reverse.
pub fn tangent_of(t: &Type, env: &TypeEnv) -> Type {
    if *t == crate::reverse::rule_state_type() {
        return t.clone();
    }
    match tangent_type(t, env) {
        Type::Bottom => Type::NoTangent,
        t => t,
    }
}

/// Whether `t` is one of the field-less "no data" types (their only value is a singleton).
pub(super) fn no_data(t: &Type) -> bool {
    matches!(t, Type::NoTangent | Type::NoFData | Type::NoRData)
}

/// `x` as a value of tangent type `to` (a run-time check when `to` is narrower). A tangent of
/// reverse-mode data (`FData{P}`, `RData{P}` are their own tangent types) has `NoFData` and
/// `NoRData` parts where the tangent of those parts' values is `NoTangent`: a singleton of the
/// expected type stands for them.
pub(super) fn narrow(e: &mut Emit, x: Value, from: &Type, to: &Type) -> Value {
    if from == to || *to == Type::Any {
        x
    } else if no_data(to) {
        e.konst(Const::Singleton(to.clone()))
    } else if let Some(ts) = aggregate_with_no_data(to) {
        // A tuple with such parts (the fdata of `(array, Val(:x))` is `Tuple{Array, NoFData}`,
        // its tangent `Tuple{Array, NoTangent}`): narrowed part by part.
        let fts = match from {
            Type::Tuple(fs) | Type::NamedTuple(_, fs) if fs.len() == ts.len() => fs.to_vec(),
            _ => vec![Type::Any; ts.len()],
        };
        let args = ts
            .iter()
            .zip(&fts)
            .enumerate()
            .map(|(k, (t, f))| {
                let part = e.field(x, k as u32, f.clone());
                narrow(e, part, f, t)
            })
            .collect();
        match to {
            Type::Tuple(_) => e.val(InstData::Tuple { args }, to.clone()),
            _ => e.val(
                InstData::New {
                    ty: to.clone(),
                    args,
                },
                to.clone(),
            ),
        }
    } else {
        e.val(
            InstData::TypeAssert {
                val: x,
                ty: to.clone(),
            },
            to.clone(),
        )
    }
}

/// The parts of a tuple or named tuple type that has a "no data" part at any depth.
fn aggregate_with_no_data(t: &Type) -> Option<&[Type]> {
    fn has(t: &Type) -> bool {
        match t {
            Type::Tuple(ts) | Type::NamedTuple(_, ts) => ts.iter().any(|t| no_data(t) || has(t)),
            _ => false,
        }
    }
    match t {
        Type::Tuple(ts) | Type::NamedTuple(_, ts) if has(t) => Some(ts),
        _ => None,
    }
}

/// The tangents (one per lane) of a value shared by every read of it in one run (a global, a
/// global's fdata): zero at first and the same object at every read, so a write through one
/// read is seen by the others.
pub(super) fn shared_tangent(
    e: &mut Emit,
    primal: Value,
    tt: &Type,
    n: usize,
    env: &TypeEnv,
) -> Vec<Value> {
    if static_zero(tt, env) {
        let z = build_static_zero(e, tt, env);
        return vec![z; n];
    }
    (0..n)
        .map(|l| {
            let lv = e.konst(Const::Int(l as i64));
            let x = e.prim(Prim::GlobalTangent, vec![primal, lv], Type::Any);
            narrow(e, x, &Type::Any, tt)
        })
        .collect()
}

/// Whether the zero of tangent type `t` can be built without the primal (no arrays, no
/// run-time types).
pub(super) fn static_zero(t: &Type, env: &TypeEnv) -> bool {
    match t {
        Type::NoTangent | Type::Float64 | Type::Float32 => true,
        Type::Tuple(ts) | Type::NamedTuple(_, ts) => ts.iter().all(|t| static_zero(t, env)),
        Type::Tangent(_) | Type::FData(_) | Type::RData(_) => env
            .field_types(t)
            .is_some_and(|fs| fs.iter().all(|t| static_zero(t, env))),
        t => no_data(t),
    }
}

pub(super) fn build_static_zero(e: &mut Emit, t: &Type, env: &TypeEnv) -> Value {
    match t {
        Type::Float64 => e.konst(Const::F64(0.0)),
        Type::Float32 => e.konst(Const::F32(0.0)),
        Type::Tuple(ts) => {
            let args = ts.iter().map(|t| build_static_zero(e, t, env)).collect();
            e.val(InstData::Tuple { args }, t.clone())
        }
        Type::NamedTuple(_, ts) => {
            let args = ts.iter().map(|t| build_static_zero(e, t, env)).collect();
            e.val(
                InstData::New {
                    ty: t.clone(),
                    args,
                },
                t.clone(),
            )
        }
        Type::Tangent(_) | Type::FData(_) | Type::RData(_) => {
            let fs = env.field_types(t).unwrap_or_default();
            let args = fs.iter().map(|f| build_static_zero(e, f, env)).collect();
            e.val(
                InstData::New {
                    ty: t.clone(),
                    args,
                },
                t.clone(),
            )
        }
        t if no_data(t) => e.konst(Const::Singleton(t.clone())),
        _ => e.konst(Const::Singleton(Type::NoTangent)),
    }
}

/// A zero tangent of the value `x` (of primal type `pt`).
pub(super) fn zero(e: &mut Emit, x: Value, pt: &Type, env: &TypeEnv) -> Value {
    let t = tangent_of(pt, env);
    if static_zero(&t, env) {
        build_static_zero(e, &t, env)
    } else {
        let z = e.prim(Prim::ZeroTangent, vec![x], Type::Any);
        narrow(e, z, &Type::Any, &t)
    }
}

/// `product` (a derivative times `factor`), or zero when `factor` is zero: a zero tangent
/// times an infinite derivative is zero.
pub(crate) fn strong_zero(e: &mut Emit, factor: Value, product: Value, t: &Type) -> Value {
    let zero = e.konst(match t {
        Type::Float32 => Const::F32(0.0),
        _ => Const::F64(0.0),
    });
    let z = e.prim(Prim::EqFloat, vec![factor, zero], Type::Bool);
    e.prim(Prim::SelectFloat, vec![z, zero, product], t.clone())
}

/// `r = call(args...)` through `Core.dual_call(n, op, a1, ȧ1..., ...)` (`op` says what the call
/// runs: a dynamic call, or AD inside the language): maps `r` to the call's value and returns
/// its tangents.
#[allow(clippy::too_many_arguments)]
pub(super) fn dual_call(
    e: &mut Emit,
    cx: &Cx,
    r: Value,
    args: &[Value],
    vmap: &mut FxHashMap<Value, Value>,
    tmap: &FxHashMap<Value, Vec<Value>>,
    n: usize,
    call: DualCallOp,
) -> Vec<Value> {
    let w = e.konst(Const::Int(n as i64));
    let o = e.konst(Const::Int(call.to_bits()));
    let mut dargs = vec![w, o];
    dargs.extend(with_tangents(args, vmap, tmap));
    let any = e.prim(Prim::DualCall, dargs, Type::Any);
    let tup = narrow(e, any, &Type::Any, &Type::tuple(vec![Type::Any; n + 1]));
    let y0 = e.field(tup, 0, Type::Any);
    let y = narrow(e, y0, &Type::Any, &cx.ty(r));
    vmap.insert(r, y);
    let tt = cx.tt(r);
    (0..n)
        .map(|l| {
            let x = e.field(tup, 1 + l as u32, Type::Any);
            narrow(e, x, &Type::Any, &tt)
        })
        .collect()
}

/// The element type of a tangent array type (`Any` if it is not one).
pub(super) fn elem_tangent(t: &Type) -> Type {
    match t {
        Type::Array(et, _) => (**et).clone(),
        _ => Type::Any,
    }
}

/// Each value followed by its tangents (block arguments).
pub(super) fn with_tangents(
    args: &[Value],
    vmap: &FxHashMap<Value, Value>,
    tmap: &FxHashMap<Value, Vec<Value>>,
) -> Vec<Value> {
    let mut out = Vec::new();
    for a in args {
        out.push(vmap[a]);
        out.extend(tmap[a].iter().copied());
    }
    out
}

/// Debug mode: `Core.tangent_check` (its type and array sizes match the primal's).
pub(super) fn tangent_check(e: &mut Emit, x: Value, t: Value, what: &str) {
    let w = e.konst(Const::Str(std::sync::Arc::from(what)));
    e.inst(
        InstData::Prim {
            op: Prim::TangentCheck,
            args: vec![x, t, w],
        },
        Type::Any,
    );
}
