//! Tangent types (Mooncake's rules): one tangent type per primal type, and its
//! split into forward data (parts identified by address: arrays, mutable tangents) and reverse
//! data (parts identified by value: floats, immutable aggregates).
//!
//! | primal | tangent | fdata | rdata |
//! |---|---|---|---|
//! | `Float64`, `Float32` | itself | `NoFData` | itself |
//! | `Int64`, `Bool`, `Nothing`, `String`, functions, types | `NoTangent` | `NoFData` | `NoRData` |
//! | `Array{P,N}` | `Array{tangent(P),N}` | the tangent array | `NoRData` |
//! | tuple / named tuple | element-wise | element-wise | element-wise |
//! | immutable struct `P` | `Tangent{P}` | `FData{P}` | `RData{P}` |
//! | mutable struct `P` | `MutableTangent{P}` | `MutableTangent{P}` | `NoRData` |
//! | `Any`, abstract | decided at run time (`Any`) | `Any` | `Any` |
//! | `Union` | the members' common one, else `Any` | same | members with `NoRData` absorbed |
//!
//! Aggregates whose parts are all `NoTangent` (resp. `NoFData`, `NoRData`) collapse to it.

use crate::types::{Type, TypeEnv};
use std::sync::Arc;

/// The tangent type of primal type `p`.
pub fn tangent_type(p: &Type, env: &TypeEnv) -> Type {
    tangent_rec(p, env, &mut Vec::new())
}

/// `visiting`: the structs whose fields are being looked at, outermost first. A struct met
/// again inside itself (a field of its own type: `next::Union{Node, Nothing}`) is assumed to
/// have a tangent, so recursive types end.
fn tangent_rec(p: &Type, env: &TypeEnv, visiting: &mut Vec<Type>) -> Type {
    let all_none = |ts: &[Type]| ts.iter().all(|t| *t == Type::NoTangent);
    match p {
        Type::Float64 | Type::Float32 => p.clone(),
        Type::Int64
        | Type::Bool
        | Type::Nothing
        | Type::String
        | Type::Function(_)
        | Type::Type(_)
        | Type::UnionAll(_)
        | Type::Val(_)
        | Type::ValBool(_)
        | Type::Symbol
        | Type::ValSym(_)
        | Type::NoTangent
        | Type::NoFData
        | Type::NoRData => Type::NoTangent,
        Type::Bottom => Type::Bottom,
        Type::Union(ms) => uniform(ms, |m| tangent_rec(m, env, visiting)),
        Type::Any | Type::Abstract(..) => Type::Any,
        Type::Array(e, n) => match tangent_rec(e, env, visiting) {
            Type::NoTangent => Type::NoTangent,
            t => Type::Array(Arc::new(t), *n),
        },
        Type::Tuple(ts) => {
            let tts: Vec<Type> = ts.iter().map(|t| tangent_rec(t, env, visiting)).collect();
            if all_none(&tts) {
                Type::NoTangent
            } else {
                Type::tuple(tts)
            }
        }
        Type::NamedTuple(ns, ts) => {
            let tts: Vec<Type> = ts.iter().map(|t| tangent_rec(t, env, visiting)).collect();
            if all_none(&tts) {
                Type::NoTangent
            } else {
                Type::NamedTuple(ns.clone(), tts.into())
            }
        }
        Type::Struct(..) => {
            let mutable = env.is_mutable(p);
            if visiting.contains(p) {
                return if mutable {
                    Type::MutableTangent(Arc::new(p.clone()))
                } else {
                    Type::Tangent(Arc::new(p.clone()))
                };
            }
            let fts = env.field_types(p).unwrap_or_default();
            visiting.push(p.clone());
            let tts: Vec<Type> = fts.iter().map(|t| tangent_rec(t, env, visiting)).collect();
            visiting.pop();
            if all_none(&tts) {
                Type::NoTangent
            } else if mutable {
                Type::MutableTangent(Arc::new(p.clone()))
            } else {
                Type::Tangent(Arc::new(p.clone()))
            }
        }
        // Tangent spaces are their own tangent spaces (for second order).
        Type::Tangent(_) | Type::MutableTangent(_) | Type::FData(_) | Type::RData(_) => p.clone(),
    }
}

/// For a union: the members' common type when they all agree (e.g. `NoTangent` for
/// `Union{Int64, String}`), otherwise decided at run time (`Any`).
fn uniform(ms: &[Type], f: impl FnMut(&Type) -> Type) -> Type {
    let ts: Vec<Type> = ms.iter().map(f).collect();
    match ts.first() {
        Some(t) if ts.iter().all(|x| x == t) => t.clone(),
        _ => Type::Any,
    }
}

/// The reverse-data type of a union: members without reverse data (`NoRData`) are absorbed,
/// so `Union{Int64, Float64}` has `Float64` reverse data, which stays zero while the value is
/// an `Int64`; when the remaining members disagree it is decided at run time (`Any`).
fn union_rdata(ms: &[Type], env: &TypeEnv) -> Type {
    let rs: Vec<Type> = ms
        .iter()
        .map(|m| rdata_type(m, env))
        .filter(|r| *r != Type::NoRData)
        .collect();
    match rs.first() {
        None => Type::NoRData,
        Some(r) if rs.iter().all(|x| x == r) => r.clone(),
        Some(_) => Type::Any,
    }
}

/// The forward-data type of primal type `p`.
pub fn fdata_type(p: &Type, env: &TypeEnv) -> Type {
    let t = tangent_type(p, env);
    if t == Type::NoTangent {
        return Type::NoFData;
    }
    let all_none = |ts: &[Type]| ts.iter().all(|t| *t == Type::NoFData);
    match p {
        Type::Float64 | Type::Float32 => Type::NoFData,
        Type::Array(..) => t,
        Type::Union(ms) => uniform(ms, |m| fdata_type(m, env)),
        Type::Any | Type::Abstract(..) => Type::Any,
        Type::Bottom => Type::Bottom,
        Type::Tuple(ts) => {
            let fs: Vec<Type> = ts.iter().map(|t| fdata_type(t, env)).collect();
            if all_none(&fs) {
                Type::NoFData
            } else {
                Type::tuple(fs)
            }
        }
        Type::NamedTuple(ns, ts) => {
            let fs: Vec<Type> = ts.iter().map(|t| fdata_type(t, env)).collect();
            if all_none(&fs) {
                Type::NoFData
            } else {
                Type::NamedTuple(ns.clone(), fs.into())
            }
        }
        Type::Struct(..) => {
            if env.is_mutable(p) {
                return t;
            }
            let fs: Vec<Type> = env
                .field_types(p)
                .unwrap_or_default()
                .iter()
                .map(|t| fdata_type(t, env))
                .collect();
            if all_none(&fs) {
                Type::NoFData
            } else {
                Type::FData(Arc::new(p.clone()))
            }
        }
        _ => Type::NoFData,
    }
}

/// The reverse-data type of primal type `p`.
pub fn rdata_type(p: &Type, env: &TypeEnv) -> Type {
    let t = tangent_type(p, env);
    if t == Type::NoTangent {
        return Type::NoRData;
    }
    let all_none = |ts: &[Type]| ts.iter().all(|t| *t == Type::NoRData);
    match p {
        Type::Float64 | Type::Float32 => p.clone(),
        Type::Array(..) => Type::NoRData,
        Type::Union(ms) => union_rdata(ms, env),
        Type::Any | Type::Abstract(..) => Type::Any,
        Type::Bottom => Type::Bottom,
        Type::Tuple(ts) => {
            let rs: Vec<Type> = ts.iter().map(|t| rdata_type(t, env)).collect();
            if all_none(&rs) {
                Type::NoRData
            } else {
                Type::tuple(rs)
            }
        }
        Type::NamedTuple(ns, ts) => {
            let rs: Vec<Type> = ts.iter().map(|t| rdata_type(t, env)).collect();
            if all_none(&rs) {
                Type::NoRData
            } else {
                Type::NamedTuple(ns.clone(), rs.into())
            }
        }
        Type::Struct(..) => {
            if env.is_mutable(p) {
                return Type::NoRData;
            }
            let rs: Vec<Type> = env
                .field_types(p)
                .unwrap_or_default()
                .iter()
                .map(|t| rdata_type(t, env))
                .collect();
            if all_none(&rs) {
                Type::NoRData
            } else {
                Type::RData(Arc::new(p.clone()))
            }
        }
        _ => Type::NoRData,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{StructDef, TypePat};
    use syntax::sym;

    fn env() -> TypeEnv {
        let mut env = TypeEnv::new();
        let add = |env: &mut TypeEnv, name: &str, fields: &[(&str, Type)], mutable: bool| {
            env.add_struct(StructDef {
                name: sym(name),
                params: vec![],
                fields: fields
                    .iter()
                    .map(|(n, t)| (sym(n), TypePat::Ty(t.clone())))
                    .collect(),
                mutable,
                supertype: TypePat::any(),
            })
        };
        add(
            &mut env,
            "P",
            &[("x", Type::Float64), ("n", Type::Int64)],
            false,
        );
        add(
            &mut env,
            "V",
            &[("data", Type::vector(Type::Float64)), ("w", Type::Float64)],
            false,
        );
        add(&mut env, "M", &[("x", Type::Float64)], true);
        add(&mut env, "I", &[("n", Type::Int64)], false);
        env
    }

    fn check(p: Type, t: &str, f: &str, r: &str) {
        let e = env();
        assert_eq!(tangent_type(&p, &e).to_string(), t, "tangent of {p}");
        assert_eq!(fdata_type(&p, &e).to_string(), f, "fdata of {p}");
        assert_eq!(rdata_type(&p, &e).to_string(), r, "rdata of {p}");
    }

    #[test]
    fn tangent_fdata_rdata_of_every_kind() {
        let s = |n: &str| Type::structure(n, vec![]);
        check(Type::Float64, "Float64", "NoFData", "Float64");
        check(Type::Float32, "Float32", "NoFData", "Float32");
        check(Type::Int64, "NoTangent", "NoFData", "NoRData");
        check(Type::Bool, "NoTangent", "NoFData", "NoRData");
        check(Type::String, "NoTangent", "NoFData", "NoRData");
        check(Type::Nothing, "NoTangent", "NoFData", "NoRData");
        check(
            Type::vector(Type::Float64),
            "Vector{Float64}",
            "Vector{Float64}",
            "NoRData",
        );
        check(Type::vector(Type::Int64), "NoTangent", "NoFData", "NoRData");
        check(
            Type::array(Type::Float32, 2),
            "Matrix{Float32}",
            "Matrix{Float32}",
            "NoRData",
        );
        check(
            Type::tuple(vec![
                Type::Float64,
                Type::Int64,
                Type::vector(Type::Float64),
            ]),
            "Tuple{Float64, NoTangent, Vector{Float64}}",
            "Tuple{NoFData, NoFData, Vector{Float64}}",
            "Tuple{Float64, NoRData, NoRData}",
        );
        check(
            Type::tuple(vec![Type::Int64, Type::Bool]),
            "NoTangent",
            "NoFData",
            "NoRData",
        );
        check(s("P"), "Tangent{P}", "NoFData", "RData{P}");
        check(s("V"), "Tangent{V}", "FData{V}", "RData{V}");
        check(s("M"), "MutableTangent{M}", "MutableTangent{M}", "NoRData");
        check(s("I"), "NoTangent", "NoFData", "NoRData");
        check(Type::Any, "Any", "Any", "Any");
        check(Type::abstract_("Real"), "Any", "Any", "Any");
        let e = env();
        assert_eq!(
            e.field_types(&Type::Tangent(Arc::new(s("P")))).unwrap(),
            vec![Type::Float64, Type::NoTangent]
        );
        assert_eq!(
            e.field_types(&Type::FData(Arc::new(s("V")))).unwrap(),
            vec![Type::vector(Type::Float64), Type::NoFData]
        );
        assert_eq!(
            e.field_types(&Type::RData(Arc::new(s("V")))).unwrap(),
            vec![Type::NoRData, Type::Float64]
        );
    }
}
