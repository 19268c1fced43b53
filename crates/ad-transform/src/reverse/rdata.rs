//! Reverse data, forward data and tangents as IR values: zeros, sums, conversions, and
//! rebuilding one from another part by part.

use crate::emit::Emit;
use ir::{Const, InstData, Prim, Type, TypeEnv, Value};

/// A zero of a reverse-data type.
pub(super) fn zero_rdata(t: &Type, e: &mut Emit, env: &TypeEnv) -> Value {
    rdata_leafwise(&[], t, e, env, &mut |e, _, t| match t {
        Type::Float64 => e.konst(Const::F64(0.0)),
        Type::Float32 => e.konst(Const::F32(0.0)),
        other => e.konst(Const::of_singleton(other).unwrap_or(Const::Singleton(Type::NoRData))),
    })
}

/// `a + b` for reverse data of type `t`.
pub(super) fn add_rdata(a: Value, b: Value, t: &Type, e: &mut Emit, env: &TypeEnv) -> Value {
    rdata_leafwise(&[a, b], t, e, env, &mut |e, v, t| {
        if t.is_float() {
            e.prim(Prim::AddFloat, vec![v[0], v[1]], t.clone())
        } else if *t == Type::Any {
            // Reverse data known only at run time (`NoRData` is its zero).
            e.prim(Prim::RdataAdd, vec![v[0], v[1]], Type::Any)
        } else {
            v[0]
        }
    })
}

/// Reverse data `x` (of static type `xt`) as reverse data of type `t`: the same value when
/// the types agree or `t` is `Any`; otherwise `x` holds reverse data known only at run time
/// (typed `Any`, or an aggregate with `Any` parts), converted at run time (a `NoRData` zero
/// becomes `t`'s zero).
pub(super) fn rdata_as(x: Value, xt: &Type, t: &Type, e: &mut Emit) -> Value {
    if xt == t || *t == Type::Any {
        return x;
    }
    let tv = e.konst(Const::Type(t.clone()));
    e.prim(Prim::RdataConvert, vec![x, tv], t.clone())
}

/// Whether reverse data of type `from` can flow into an accumulator of type `to` (equal, or
/// one of them decided at run time).
pub(super) fn rdata_compatible(from: &Type, to: &Type) -> bool {
    from == to || *from == Type::NoRData || *to == Type::NoRData || has_any(from) || has_any(to)
}

/// Whether a reverse-data type has a part of type `Any`.
pub(super) fn has_any(t: &Type) -> bool {
    match t {
        Type::Any => true,
        Type::Tuple(ts) | Type::NamedTuple(_, ts) => ts.iter().any(has_any),
        _ => false,
    }
}

/// Builds reverse data of type `t` part by part: tuples, named tuples and `RData` are rebuilt
/// from their fields, and `leaf` makes each leaf (a float, or reverse data without parts) from
/// the corresponding leaves of `vals` (each of type `t`).
pub(super) fn rdata_leafwise(
    vals: &[Value],
    t: &Type,
    e: &mut Emit,
    env: &TypeEnv,
    leaf: &mut dyn FnMut(&mut Emit, &[Value], &Type) -> Value,
) -> Value {
    let Some(parts) = rdata_parts(t, env) else {
        return leaf(e, vals, t);
    };
    let mut built = Vec::with_capacity(parts.len());
    for (k, et) in parts.iter().enumerate() {
        let xs: Vec<Value> = vals
            .iter()
            .map(|v| e.field(*v, k as u32, et.clone()))
            .collect();
        built.push(rdata_leafwise(&xs, et, e, env, leaf));
    }
    rdata_build(t, built, e)
}

/// The part types of an aggregate reverse-data, forward-data or immutable tangent type (`None`
/// for a leaf).
pub(super) fn rdata_parts(t: &Type, env: &TypeEnv) -> Option<Vec<Type>> {
    match t {
        Type::Tuple(ts) => Some(ts.to_vec()),
        Type::RData(_) | Type::FData(_) | Type::Tangent(_) | Type::NamedTuple(..) => {
            env.field_types(t)
        }
        _ => None,
    }
}

/// The aggregate (reverse data, forward data or tangent) of type `t` with these parts.
pub(super) fn rdata_build(t: &Type, parts: Vec<Value>, e: &mut Emit) -> Value {
    let data = match t {
        Type::Tuple(_) => InstData::Tuple { args: parts },
        _ => InstData::New {
            ty: t.clone(),
            args: parts,
        },
    };
    e.val(data, t.clone())
}

/// `v` of tangent type `from` rebuilt as its reverse data or forward data `to` (or back, when
/// the other part is empty): the element of a tangent array of immutable structs is a
/// `Tangent{P}`; the cotangent of a value read from it is an `RData{P}` (its float leaves) and
/// its fdata an `FData{P}` (its arrays and mutable tangents).
pub(super) fn recast(v: Value, from: &Type, to: &Type, e: &mut Emit, env: &TypeEnv) -> Value {
    if from == to {
        return v;
    }
    let (Some(fs), Some(ts)) = (rdata_parts(from, env), rdata_parts(to, env)) else {
        return e.konst(Const::of_singleton(to).unwrap_or(Const::Singleton(to.clone())));
    };
    let mut built = Vec::with_capacity(ts.len());
    for (k, (ft, tt)) in fs.iter().zip(&ts).enumerate() {
        let x = part(v, k, ft, e, env);
        built.push(recast(x, ft, tt, e, env));
    }
    rdata_build(to, built, e)
}

/// Part `k` (of type `t`) of a tangent, fdata or rdata value `v`. A part that is not of a bits
/// type (an array's tangent, a mutable tangent) is `#undef` where `new` left its field so, and
/// is read as it is.
fn part(v: Value, k: usize, t: &Type, e: &mut Emit, env: &TypeEnv) -> Value {
    if t.is_bits(env) {
        e.field(v, k as u32, t.clone())
    } else {
        let kv = e.konst(Const::Int(k as i64 + 1));
        let tv = e.konst(Const::Type(t.clone()));
        e.prim(Prim::GetFieldRaw, vec![v, kv, tv], t.clone())
    }
}

/// The tangent of type `tt` whose forward data is `f` (of type `ft`) and whose reverse data is
/// zero: what a tangent array holds for an element just written.
pub(super) fn tangent_of_fdata(
    f: Value,
    ft: &Type,
    tt: &Type,
    e: &mut Emit,
    env: &TypeEnv,
) -> Value {
    if ft == tt {
        return f;
    }
    if *ft == Type::NoFData {
        return zero_rdata(tt, e, env);
    }
    let (Some(ts), Some(fs)) = (rdata_parts(tt, env), rdata_parts(ft, env)) else {
        return zero_rdata(tt, e, env);
    };
    let mut built = Vec::with_capacity(ts.len());
    for (k, (t, fk)) in ts.iter().zip(&fs).enumerate() {
        let x = part(f, k, fk, e, env);
        built.push(tangent_of_fdata(x, fk, t, e, env));
    }
    rdata_build(tt, built, e)
}

/// Tangent `t` (of type `tt`) with reverse data `r` (of type `rt`) added to its float leaves;
/// its arrays and mutable tangents are kept.
pub(super) fn tangent_plus_rdata(
    t: Value,
    tt: &Type,
    r: Value,
    rt: &Type,
    e: &mut Emit,
    env: &TypeEnv,
) -> Value {
    if *rt == Type::NoRData {
        return t;
    }
    if tt.is_float() {
        return e.prim(Prim::AddFloat, vec![t, r], tt.clone());
    }
    let (Some(ts), Some(rs)) = (rdata_parts(tt, env), rdata_parts(rt, env)) else {
        return t;
    };
    let mut built = Vec::with_capacity(ts.len());
    for (k, (tk, rk)) in ts.iter().zip(&rs).enumerate() {
        let x = part(t, k, tk, e, env);
        let y = e.field(r, k as u32, rk.clone());
        built.push(tangent_plus_rdata(x, tk, y, rk, e, env));
    }
    rdata_build(tt, built, e)
}
