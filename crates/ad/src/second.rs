//! Second order by forward-over-reverse: forward mode (`forward`) applied to the two
//! functions of a reverse-mode rule. The forwards pass and the pullback are ordinary typed IR,
//! so their forward rules are derived like any other; a rule state's tangent is another rule
//! state whose stacks hold the tangents of what was saved. Running both with the input
//! directions as tangents gives, besides the gradient, the gradient's directional derivatives:
//! Hessian-vector products, one per lane.

use crate::api::new_state;
use crate::api::{method_instance, runtime_error, Ad};
use crate::tangent::{fdata, tangent_from, zero_tangent};
use ad_transform::{rule_state_type, AdError, Mode, RuleOptions};
use interp::Machine;
use ir::tangent::{fdata_type, rdata_type};
use ir::{Function, Type};
use runtime::Value;
use std::sync::Arc;
use syntax::Span;

fn err(message: impl Into<String>) -> AdError {
    AdError::new(message, Span::DUMMY)
}

/// A gradient and its directional derivatives (Hessian-vector products).
#[derive(Clone, Debug)]
pub struct Hvps {
    pub value: Value,
    /// The tangents of the function and of each argument.
    pub gradient: Vec<Value>,
    /// For each direction, the gradient's derivative along it (tangents like `gradient`).
    pub products: Vec<Vec<Value>>,
}

/// The value, gradient and Hessian of a function of one float or array of floats.
#[derive(Clone, Debug)]
pub struct Hessian {
    pub value: Value,
    /// The argument's gradient (entries in linear order; one for a float).
    pub gradient: Vec<f64>,
    /// `hessian[i][j] = ∂²f/∂x_i∂x_j`.
    pub hessian: Vec<Vec<f64>>,
}

/// The gradient of `f(args...)` (returning a float) and, for each lane `l`, the derivative of
/// that gradient in direction `dirs[l]` (`dirs[l][k]` a tangent of argument `k`, the function
/// first): `(value, gradient, [H·dir_l])`, the gradient and each product as tangents of the
/// function and each argument. At most `forward::MAX_WIDTH` lanes.
pub fn gradient_and_hvps(
    m: &mut Machine,
    ad: &Ad,
    f: &Value,
    args: &[Value],
    dirs: &[Vec<Value>],
) -> Result<Hvps, AdError> {
    crate::api::begin(m);
    hvps_in(m, ad, f, args, dirs)
}

/// As [`gradient_and_hvps`], inside a running derivative (AD inside the language).
pub(crate) fn hvps_in(
    m: &mut Machine,
    ad: &Ad,
    f: &Value,
    args: &[Value],
    dirs: &[Vec<Value>],
) -> Result<Hvps, AdError> {
    hvps_reusing(m, ad, f, args, dirs, &mut None)
}

/// What the passes of one Hessian share: the derived passes (of the method instance and
/// lane count of the first), and the rule state and tangent states, which a completed pass
/// leaves empty for the next (each pops what it pushed).
struct Kept {
    lanes: usize,
    fwd: Arc<Function>,
    rvs: Option<Arc<Function>>,
    state: Value,
    tstates: Vec<Value>,
}

/// As [`hvps_in`], reusing `kept` (made here when `None`): all runs must be of the same
/// method instance with the same number of lanes.
fn hvps_reusing(
    m: &mut Machine,
    ad: &Ad,
    f: &Value,
    args: &[Value],
    dirs: &[Vec<Value>],
    kept: &mut Option<Kept>,
) -> Result<Hvps, AdError> {
    let n = dirs.len();
    // The reverse rule differentiated again runs threaded loops' shares one after another.
    let opts = RuleOptions {
        serial_threads: true,
        ..ad.opts
    };
    let mut all = vec![f.clone()];
    all.extend(args.iter().cloned());
    let types: Vec<Type> = all.iter().map(|x| x.ty()).collect();
    let (key, mut shared) = match kept.take() {
        Some(s) if s.lanes == n => (None, s),
        _ => {
            let key = method_instance(m, f, args)?;
            ad.rule_with(&mut m.compiler, &key, opts)?;
            let mut fsig = vec![rule_state_type()];
            for t in &types {
                fsig.push(t.clone());
                fsig.push(fdata_type(t, &m.compiler.env));
            }
            let fwd_key = ad.derived_key(&key, Mode::Forward, opts, fsig);
            let fwd = ad.dual_rule_with(&mut m.compiler, &fwd_key, opts, n)?;
            let s = Kept {
                lanes: n,
                fwd,
                rvs: None,
                state: new_state(),
                tstates: (0..n).map(|_| new_state()).collect(),
            };
            (Some(key), s)
        }
    };
    let (state, tstates) = (shared.state.clone(), shared.tstates.clone());
    let env = &m.compiler.env;

    // The forwards pass: (state, its tangent states), then (x, ẋ_l..., fdata, its tangents...).
    let fdatas: Vec<Value> = all
        .iter()
        .zip(&types)
        .map(|(x, t)| fdata(&zero_tangent(x, env), t, env))
        .collect();
    let tfdatas: Vec<Vec<Value>> = (0..n)
        .map(|_| fdatas.iter().map(|fx| zero_tangent(fx, env)).collect())
        .collect();
    let mut call = vec![state.clone()];
    call.extend(tstates.iter().cloned());
    for k in 0..all.len() {
        call.push(all[k].clone());
        call.extend(dirs.iter().map(|d| d[k].clone()));
        call.push(fdatas[k].clone());
        call.extend(tfdatas.iter().map(|t| t[k].clone()));
    }
    let out = m.exec(&shared.fwd, call).map_err(runtime_error)?;
    let y = out
        .field(0)
        .and_then(|p| p.field(0))
        .ok_or_else(|| AdError::internal("forwards pass returned no value", Span::DUMMY))?;
    let seed = match &y {
        Value::F64(_) => Value::F64(1.0),
        Value::F32(_) => Value::F32(1.0),
        v => {
            return Err(err(format!(
                "second derivatives need a function returning a float, but it returned a value of type {}",
                v.ty()
            )))
        }
    };
    let zero_seed = match &y {
        Value::F32(_) => Value::F32(0.0),
        _ => Value::F64(0.0),
    };

    // The pullback: (state, its tangent states), (ȳ = 1, its tangents = 0).
    let rvs = match (&shared.rvs, &key) {
        (Some(r), _) => r.clone(),
        (None, key) => {
            let key = match key {
                Some(key) => key.clone(),
                None => method_instance(m, f, args)?,
            };
            let rsig = vec![rule_state_type(), rdata_type(&y.ty(), &m.compiler.env)];
            let rvs_key = ad.derived_key(&key, Mode::Pullback, opts, rsig);
            let r = ad.dual_rule_with(&mut m.compiler, &rvs_key, opts, n)?;
            shared.rvs = Some(r.clone());
            r
        }
    };
    let mut call = vec![state];
    call.extend(tstates);
    call.push(seed);
    call.extend((0..n).map(|_| zero_seed.clone()));
    let out = m.exec(&rvs, call).map_err(runtime_error)?;
    *kept = Some(shared);
    let env = &m.compiler.env;
    let part = |v: &Value, k: usize| v.field(k).unwrap_or_else(crate::tangent::no_rdata);
    let rd = part(&out, 0);
    let grads = (0..all.len())
        .map(|k| tangent_from(&types[k], &fdatas[k], &part(&rd, k), env))
        .collect();
    let hvps = (0..n)
        .map(|l| {
            let trd = part(&out, l + 1);
            (0..all.len())
                .map(|k| tangent_from(&types[k], &tfdatas[l][k], &part(&trd, k), env))
                .collect()
        })
        .collect();
    Ok(Hvps {
        value: y,
        gradient: grads,
        products: hvps,
    })
}

/// The value, gradient and Hessian of `f(x)` for `x` a float or an array of floats (entries in
/// linear order): the Hessian's columns come from forward-over-reverse, `width` directions per
/// pass (1 to `forward::MAX_WIDTH`). The gradient is a vector (a one-element one for a float).
pub fn value_gradient_and_hessian(
    m: &mut Machine,
    ad: &Ad,
    f: &Value,
    x: &Value,
    width: usize,
) -> Result<Hessian, AdError> {
    let dofs = match x {
        Value::F64(_) | Value::F32(_) => 1,
        Value::Array(a) if matches!(a.elem, Type::Float64 | Type::Float32) => a.len(),
        v => {
            return Err(err(format!(
                "a Hessian needs a function of one float or one array of floats, not of a {}",
                v.ty()
            )))
        }
    };
    let floats = |t: &Value| -> Vec<f64> {
        match t {
            Value::F64(d) => vec![*d],
            Value::F32(d) => vec![*d as f64],
            Value::Array(a) => a.with(|d| match &d.data {
                runtime::ArrayData::F64(v) => v.clone(),
                runtime::ArrayData::F32(v) => v.iter().map(|x| *x as f64).collect(),
                _ => vec![0.0; dofs],
            }),
            _ => vec![0.0; dofs],
        }
    };
    let env = m.compiler.env.clone();
    let unit = |j: usize| -> Value {
        match x {
            Value::F32(_) => Value::F32(1.0),
            Value::F64(_) => Value::F64(1.0),
            Value::Array(a) => {
                let mut k = 0usize;
                crate::tangent::tangent_with(&Value::Array(a.clone()), &env, &mut || {
                    k += 1;
                    if k == j + 1 {
                        1.0
                    } else {
                        0.0
                    }
                })
            }
            _ => Value::Nothing,
        }
    };
    let n = width.clamp(1, ad_transform::MAX_WIDTH).min(dofs.max(1));
    let tf = zero_tangent(f, &env);
    let mut cols: Vec<Vec<f64>> = vec![vec![0.0; dofs]; dofs];
    let mut first = None;
    let mut start = 0;
    let mut kept = None;
    while start < dofs {
        let dirs: Vec<Vec<Value>> = (0..n)
            .map(|l| {
                let d = if start + l < dofs {
                    unit(start + l)
                } else {
                    zero_tangent(x, &env)
                };
                vec![tf.clone(), d]
            })
            .collect();
        crate::api::begin(m);
        let r = hvps_reusing(m, ad, f, std::slice::from_ref(x), &dirs, &mut kept)?;
        for (l, h) in r.products.iter().enumerate() {
            if start + l < dofs {
                cols[start + l] = floats(&h[1]);
            }
        }
        first.get_or_insert((r.value, floats(&r.gradient[1])));
        start += n;
    }
    let (y, g) = first.unwrap_or((Value::Nothing, vec![]));
    // Row i, column j: ∂²f/∂x_i∂x_j (column j is the product with e_j).
    let h = (0..dofs)
        .map(|i| (0..dofs).map(|j| cols[j][i]).collect())
        .collect();
    Ok(Hessian {
        value: y,
        gradient: g,
        hessian: h,
    })
}
