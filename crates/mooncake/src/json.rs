//! The JSON encoding of values and tangents used by `mooncake grad --json`:
//! floats as numbers (`"NaN"`, `"Inf"`, `"-Inf"` as strings), integers and booleans as
//! themselves, `nothing` and `NoTangent` (and `NoFData`/`NoRData`) as `null`, vectors as arrays,
//! a matrix as an array of its rows (higher dimensions nest the same way, first index
//! outermost), tuples as arrays, named tuples, structs and their tangents as objects keyed by
//! field name, dictionaries (and the gradients of dictionaries) as objects keyed by each key as
//! `print` writes it.

use ir::{Type, TypeEnv};
use runtime::Value;
use serde_json::{json, Map, Value as Json};

/// A float as JSON: a number, or `"NaN"`, `"Inf"`, `"-Inf"`.
pub fn float(x: f64) -> Json {
    if x.is_nan() {
        json!("NaN")
    } else if x.is_infinite() {
        json!(if x > 0.0 { "Inf" } else { "-Inf" })
    } else {
        json!(x)
    }
}

/// Nests column-major elements with dimensions `dims` so that the first index is outermost.
fn nest(elems: &[Json], dims: &[usize], offset: usize, stride: usize) -> Json {
    match dims {
        [] => elems.get(offset).cloned().unwrap_or(Json::Null),
        [n] => Json::Array(
            (0..*n)
                .map(|i| {
                    elems
                        .get(offset + i * stride)
                        .cloned()
                        .unwrap_or(Json::Null)
                })
                .collect(),
        ),
        [n, rest @ ..] => Json::Array(
            (0..*n)
                .map(|i| nest(elems, rest, offset + i * stride, stride * n))
                .collect(),
        ),
    }
}

pub fn to_json(v: &Value, env: &TypeEnv) -> Json {
    match v {
        Value::F64(x) => float(*x),
        Value::F32(x) => float(*x as f64),
        Value::Int(i) => json!(i),
        Value::Bool(b) => json!(b),
        Value::Nothing | Value::Undef => Json::Null,
        Value::Str(s) => json!(s.as_ref()),
        Value::Sym(s) => json!(s.as_str()),
        Value::Tuple(vs) => Json::Array(vs.iter().map(|x| to_json(x, env)).collect()),
        Value::NamedTuple(nt) => {
            let mut m = Map::new();
            for (n, x) in nt.names.iter().zip(nt.values.iter()) {
                m.insert(n.to_string(), to_json(x, env));
            }
            Json::Object(m)
        }
        Value::Struct(s)
            if s.fields.is_empty()
                && matches!(s.ty, Type::NoTangent | Type::NoFData | Type::NoRData) =>
        {
            Json::Null
        }
        Value::Struct(s) => match (&s.ty, runtime::show::table_entries(&s.fields)) {
            (Type::Struct(n, _), Some(entries)) if matches!(n.as_str(), "Dict" | "IdDict") => {
                Json::Object(
                    entries
                        .iter()
                        .map(|(k, x)| (runtime::show::print_string(k), to_json(x, env)))
                        .collect(),
                )
            }
            _ => fields_json(&s.ty, &s.fields, env),
        },
        Value::Mutable(m) => fields_json(&m.ty, &m.snapshot(), env),
        Value::Array(a) => {
            let elems: Vec<Json> = a.snapshot().iter().map(|x| to_json(x, env)).collect();
            nest(&elems, &a.dims(), 0, 1)
        }
        Value::Func(_) => Json::Null,
        Value::Type(t) => json!(t.to_string()),
    }
}

fn fields_json(ty: &Type, fields: &[Value], env: &TypeEnv) -> Json {
    let names = env.field_names(ty).unwrap_or_default();
    let mut m = Map::new();
    for (k, x) in fields.iter().enumerate() {
        let name = names
            .get(k)
            .map(|n| n.to_string())
            .unwrap_or_else(|| (k + 1).to_string());
        m.insert(name, to_json(x, env));
    }
    Json::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use runtime::{ArrayObj, SharedArray};

    #[test]
    fn matrices_are_arrays_of_rows_and_special_floats_are_strings() {
        let env = TypeEnv::new();
        // [1 2 3; 4 5 6] in column-major order.
        let m = ArrayObj::from_values(
            Type::Float64,
            vec![2, 3],
            [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]
                .iter()
                .map(|x| Value::F64(*x))
                .collect(),
        );
        assert_eq!(
            to_json(&Value::Array(SharedArray::new(m)), &env).to_string(),
            "[[1.0,2.0,3.0],[4.0,5.0,6.0]]"
        );
        let t = Value::tuple(vec![
            Value::F64(f64::NAN),
            Value::F64(f64::NEG_INFINITY),
            Value::Int(2),
            Value::Nothing,
        ]);
        assert_eq!(to_json(&t, &env).to_string(), r#"["NaN","-Inf",2,null]"#);
    }
}
