//! Jacobians of functions of one float or float array returning a float or float array: by
//! forward mode (a column per lane, up to `forward::MAX_WIDTH` columns per pass) or by reverse
//! mode (a row per pullback, one rule and one rule state reused).

use crate::api::{method_instance, run_dual, run_pullback, runtime_error, Ad};
use crate::tangent::zero_tangent;
use ad_transform::AdError;
use interp::Machine;
use ir::Type;
use runtime::{ArrayData, ArrayObj, SharedArray, Value};
use syntax::Span;

fn err(message: impl Into<String>) -> AdError {
    AdError::new(message, Span::DUMMY)
}

/// The value and Jacobian of a function of one float or float array.
#[derive(Clone, Debug)]
pub struct Jacobian {
    pub value: Value,
    /// `jacobian[i][j] = ∂y_i/∂x_j` (entries of arrays in linear order; one row for a float
    /// output, one column for a float input).
    pub jacobian: Vec<Vec<f64>>,
}

/// Float entries of a float or float array (`None` for anything else).
fn entries(v: &Value) -> Option<Vec<f64>> {
    match v {
        Value::F64(x) => Some(vec![*x]),
        Value::F32(x) => Some(vec![*x as f64]),
        Value::Array(a) if matches!(a.elem, Type::Float64 | Type::Float32) => a.to_f64_vec(),
        _ => None,
    }
}

/// `like` (a float or float array) with entry `j` one and the others zero.
fn unit(like: &Value, j: usize) -> Value {
    match like {
        Value::F32(_) => Value::F32(1.0),
        Value::Array(a) => {
            let n = a.len();
            let data = if a.elem == Type::Float32 {
                let mut v = vec![0f32; n];
                v[j] = 1.0;
                ArrayData::F32(v)
            } else {
                let mut v = vec![0f64; n];
                v[j] = 1.0;
                ArrayData::F64(v)
            };
            Value::Array(SharedArray::new(ArrayObj::new(
                a.elem.clone(),
                a.dims(),
                data,
            )))
        }
        _ => Value::F64(1.0),
    }
}

fn copy(x: &Value) -> Value {
    match x {
        Value::Array(a) => Value::Array(SharedArray::new(a.deep_copy())),
        x => x.clone(),
    }
}

fn check_input(x: &Value) -> Result<usize, AdError> {
    entries(x).map(|e| e.len()).ok_or_else(|| {
        err(format!(
            "a Jacobian needs a function of one float or one array of floats, not of a {}",
            x.ty()
        ))
    })
}

fn check_output(y: &Value) -> Result<usize, AdError> {
    entries(y).map(|e| e.len()).ok_or_else(|| {
        err(format!(
            "a Jacobian needs a function returning a float or an array of floats, not a {}",
            y.ty()
        ))
    })
}

/// The Jacobian of `f(x)` by forward mode, `width` columns per pass.
pub fn value_and_jacobian_forward(
    m: &mut Machine,
    ad: &Ad,
    f: &Value,
    x: &Value,
    width: usize,
) -> Result<Jacobian, AdError> {
    let n = check_input(x)?;
    let key = method_instance(m, f, std::slice::from_ref(x))?;
    let w = width.clamp(1, ad_transform::MAX_WIDTH).min(n.max(1));
    let code = ad.dual_rule(&mut m.compiler, &key, w)?;
    let tf = zero_tangent(f, &m.compiler.env);
    let mut cols: Vec<Vec<f64>> = Vec::with_capacity(n);
    let mut value = None;
    let mut start = 0;
    while start < n {
        let lanes: Vec<Vec<Value>> = (0..w)
            .map(|l| {
                let d = if start + l < n {
                    unit(x, start + l)
                } else {
                    zero_tangent(x, &m.compiler.env)
                };
                vec![tf.clone(), d]
            })
            .collect();
        let (y, ts) = run_dual(m, &code, &[f.clone(), copy(x)], &lanes)?;
        let rows = check_output(&y)?;
        for t in ts.iter().take(n - start) {
            cols.push(entries(t).unwrap_or_else(|| vec![0.0; rows]));
        }
        value.get_or_insert(y);
        start += w;
    }
    let value = value.ok_or_else(|| err("a Jacobian of a function of no inputs"))?;
    let rows = check_output(&value)?;
    Ok(Jacobian {
        value,
        jacobian: (0..rows)
            .map(|i| cols.iter().map(|c| c[i]).collect())
            .collect(),
    })
}

/// The Jacobian of `f(x)` by reverse mode: one pullback per output entry.
pub fn value_and_jacobian_reverse(
    m: &mut Machine,
    ad: &Ad,
    f: &Value,
    x: &Value,
) -> Result<Jacobian, AdError> {
    let n = check_input(x)?;
    let key = method_instance(m, f, std::slice::from_ref(x))?;
    let rule = ad.rule(&mut m.compiler, &key)?;
    let y = m
        .call_dynamic(vec![f.clone(), copy(x)])
        .map_err(runtime_error)?;
    let rows = check_output(&y)?;
    let mut jac = Vec::with_capacity(rows);
    let mut value = y.clone();
    for i in 0..rows {
        let (v, g) = run_pullback(m, &rule, f, &[copy(x)], Some(unit(&y, i)))?;
        jac.push(entries(&g[1]).unwrap_or_else(|| vec![0.0; n]));
        value = v;
    }
    Ok(Jacobian {
        value,
        jacobian: jac,
    })
}
