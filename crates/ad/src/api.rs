//! Entry points: derive the rule of a call and run it on the interpreter.

use crate::reverse::{derive_reverse, new_state, AdError, Derived};
use crate::tangent::{fdata, tangent_from, zero_tangent};
use compiler::MiKey;
use interp::Machine;
use ir::Type;
use runtime::Value;
use syntax::Span;

fn err(message: impl Into<String>) -> AdError {
    AdError {
        message: message.into(),
        span: Span::DUMMY,
    }
}

/// The method instance `f(args...)` runs.
pub fn method_instance(m: &Machine, f: &Value, args: &[Value]) -> Result<MiKey, AdError> {
    let table = match f {
        Value::Func(n) => *n,
        Value::Type(t) => compiler::typeexpr::constructor_table_name(t)
            .ok_or_else(|| err(format!("`{t}` is not callable")))?,
        v => return Err(err(format!("a value of type {} is not callable", v.ty()))),
    };
    let mut types = vec![f.ty()];
    types.extend(args.iter().map(|a| a.ty()));
    m.compiler.resolve_call(table, &types).map_err(|_| {
        let ts: Vec<String> = args.iter().map(|a| format!("::{}", a.ty())).collect();
        err(format!(
            "MethodError: no method matching {table}({})",
            ts.join(", ")
        ))
    })
}

/// Derives the reverse-mode rule of a method instance (verified when verification is on).
pub fn build_rrule(m: &mut Machine, key: &MiKey) -> Result<Derived, AdError> {
    let primal = m.compiler.optimised(key).map_err(|e| AdError {
        message: e.message,
        span: e.span,
    })?;
    let mut d = derive_reverse(&primal, &m.compiler.env)?;
    // The derived functions go through the same optimiser as user code (which verifies after
    // every pass when verification is on).
    let internal = |e: compiler::CompileError| AdError {
        message: e.message,
        span: e.span,
    };
    d.fwd = m.compiler.optimise(d.fwd).map_err(internal)?;
    d.rvs = m.compiler.optimise(d.rvs).map_err(internal)?;
    if m.compiler.options.verify {
        for f in [&d.fwd, &d.rvs] {
            if let Err(es) = ir::verify(f, &m.compiler.env) {
                let msgs: Vec<String> = es.into_iter().map(|e| e.message).collect();
                return Err(err(format!(
                    "internal error: derived IR does not verify:\n{}\n{}",
                    msgs.join("\n"),
                    ir::write_function(f, None)
                )));
            }
        }
    }
    Ok(d)
}

/// Runs a derived rule on `f(args...)` with output cotangent `dy` (an rdata of the output).
/// Returns the value and the tangents of `f` and of each argument.
pub fn run_pullback(
    m: &mut Machine,
    d: &Derived,
    f: &Value,
    args: &[Value],
    dy: Option<Value>,
) -> Result<(Value, Vec<Value>), AdError> {
    let env = m.compiler.env.clone();
    let mut all = vec![f.clone()];
    all.extend(args.iter().cloned());
    let fdatas: Vec<Value> = all
        .iter()
        .map(|x| fdata(&zero_tangent(x, &env), &x.ty(), &env))
        .collect();
    let state = new_state(d, &env);
    let mut fwd_args = vec![state.clone()];
    for (x, fx) in all.iter().zip(fdatas.iter()) {
        fwd_args.push(x.clone());
        fwd_args.push(fx.clone());
    }
    let out = m
        .exec(&d.fwd, fwd_args)
        .map_err(|e| err(e.exception.to_string()))?;
    let y = out
        .field(0)
        .ok_or_else(|| err("internal error: forwards pass returned no value"))?;
    let dy = match dy {
        Some(v) => v,
        None => match &y {
            Value::F64(_) => Value::F64(1.0),
            Value::F32(_) => Value::F32(1.0),
            v => {
                return Err(err(format!(
                    "value_and_gradient needs a function returning a float, but it returned a {}; use value_and_pullback for other outputs",
                    v.ty()
                )))
            }
        },
    };
    let rd = m
        .exec(&d.rvs, vec![state, dy])
        .map_err(|e| err(e.exception.to_string()))?;
    let grads = all
        .iter()
        .zip(fdatas.iter())
        .enumerate()
        .map(|(k, (x, fx))| {
            let r = rd.field(k).unwrap_or(Value::Nothing);
            tangent_from(&x.ty(), fx, &r, &env)
        })
        .collect();
    Ok((y, grads))
}

/// `(f(args...), (∂f, ∂args...))` for a function returning a float.
pub fn value_and_gradient(
    m: &mut Machine,
    f: &Value,
    args: &[Value],
) -> Result<(Value, Vec<Value>), AdError> {
    let key = method_instance(m, f, args)?;
    let d = build_rrule(m, &key)?;
    run_pullback(m, &d, f, args, None)
}

/// The type of the output's reverse data (for callers building `dy`).
pub fn output_rdata_type(d: &Derived, env: &ir::TypeEnv) -> Type {
    match &d.fwd.ret_type {
        Type::Tuple(ts) if !ts.is_empty() => ir::tangent::rdata_type(&ts[0], env),
        _ => Type::NoRData,
    }
}
