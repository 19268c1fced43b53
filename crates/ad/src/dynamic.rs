//! The run time of reverse mode for values whose tangent type is known only at run time
//! (`Any`, abstract types, unions whose members carry different reverse data) and for dynamic
//! calls: the primitives of `ir::Prim::is_ad_runtime`, which derived code calls and the
//! interpreter (and native code through it) hands to [`Runtime`].
//!
//! Dynamic derived rules (Mooncake's `DynamicDerivedRule`): `Core.dyn_fwd` looks up the method
//! the run-time types select, derives its rule on first use (cached per method instance like
//! every rule), records which rule ran on the call site's state and runs its forwards pass in
//! a child state kept per callee; `Core.dyn_rvs` pops that record and runs the matching
//! pullback. A call site whose callee changes from one execution to the next (a loop over a
//! `Vector{Any}`) therefore gets the right pullback for each execution.

use crate::api::{Ad, RuleOptions};
use crate::tangent::{fdata, rdata, rdata_add, rdata_convert, tangent_from, zero_rdata_of};
use interp::{AdRuntime, Frame, Machine, RuntimeError};
use ir::{Prim, Type};
use runtime::{eval_prim, Exception, Value};

/// The AD runtime of a session (installed by [`Ad::install`]).
pub struct Runtime {
    pub(crate) ad: Ad,
}

fn error(msg: String) -> RuntimeError {
    RuntimeError::new(Exception::Error(msg))
}

fn internal(what: &str) -> RuntimeError {
    error(format!("internal error: {what}"))
}

/// Runs a primitive of the runtime crate on values (the rule-state stacks).
fn prim(m: &mut Machine, op: Prim, args: &[Value]) -> Result<Value, RuntimeError> {
    eval_prim(op, args, &m.compiler.env, &mut *m.out).map_err(RuntimeError::new)
}

/// The stack of callee ids of a dynamic call site's state.
fn callee_stack(m: &mut Machine, site: &Value) -> Result<Value, RuntimeError> {
    prim(
        m,
        Prim::RuleStack,
        &[
            site.clone(),
            Value::Int(0),
            Value::Type(Type::vector(Type::Int64)),
        ],
    )
}

fn child_state(m: &mut Machine, site: &Value, id: usize) -> Result<Value, RuntimeError> {
    prim(m, Prim::RuleChild, &[site.clone(), Value::Int(id as i64)])
}

impl AdRuntime for Runtime {
    fn eval(&self, m: &mut Machine, op: Prim, args: &[Value]) -> Result<Value, RuntimeError> {
        let env = &m.compiler.env;
        match op {
            Prim::RdataAdd => Ok(rdata_add(&args[0], &args[1])),
            Prim::RdataConvert => {
                let Value::Type(t) = &args[1] else {
                    return Err(internal("rdata_convert needs a type"));
                };
                rdata_convert(&args[0], t, env).ok_or_else(|| {
                    internal(&format!(
                        "reverse data of type {} where {t} was expected",
                        args[0].ty()
                    ))
                })
            }
            Prim::RdataAddAt => {
                let (Value::Tuple(parts), Value::Int(i)) = (&args[0], &args[1]) else {
                    return Err(internal("rdata_add_at needs a tuple and an index"));
                };
                let k = (*i - 1) as usize;
                let mut out = parts.to_vec();
                let slot = out
                    .get_mut(k)
                    .ok_or_else(|| internal("rdata_add_at: index out of range"))?;
                *slot = rdata_add(slot, &args[2]);
                Ok(Value::tuple(out))
            }
            Prim::TangentFdata => Ok(fdata(&args[1], &args[0].ty(), env)),
            Prim::TangentRdata => Ok(rdata(&args[1], &args[0].ty(), env)),
            Prim::TangentAddRdata => {
                let p = args[0].ty();
                let f = fdata(&args[1], &p, env);
                let r = rdata_add(&rdata(&args[1], &p, env), &args[2]);
                let r = rdata_convert(&r, &ir::tangent::rdata_type(&p, env), env)
                    .ok_or_else(|| internal("reverse data of the wrong type for a tangent"))?;
                Ok(tangent_from(&p, &f, &r, env))
            }
            Prim::TangentOf => {
                let p = args[0].ty();
                let z = zero_rdata_of(&ir::tangent::rdata_type(&p, env), env);
                Ok(tangent_from(&p, &args[1], &z, env))
            }
            Prim::DynFwd => self.dyn_fwd(m, args),
            Prim::DynRvs => self.dyn_rvs(m, args),
            _ => Err(internal(&format!(
                "`Core.{}` is not a primitive of the AD runtime",
                op.name()
            ))),
        }
    }
}

impl Runtime {
    /// `Core.dyn_fwd(site, opts, f, ff, x1, fx1, ...)`.
    fn dyn_fwd(&self, m: &mut Machine, args: &[Value]) -> Result<Value, RuntimeError> {
        let site = &args[0];
        let opts = match &args[1] {
            Value::Int(b) => RuleOptions::from_bits(*b),
            _ => return Err(internal("dyn_fwd needs rule options")),
        };
        let mut xs: Vec<Value> = args[2..].iter().step_by(2).cloned().collect();
        let mut fs: Vec<Value> = args[3..].iter().step_by(2).cloned().collect();
        if let Some(n) = interp::builtin(&xs[0]) {
            let what = match n {
                "#apply" => "splatting a value whose length is known only at run time",
                _ => "this call",
            };
            return Err(error(format!(
                "{what} is not supported by reverse mode yet (the call's types are known only at run time)"
            )));
        }
        let (key, pack) = m.resolve_dynamic(&xs)?;
        let rule = self
            .ad
            .rule_with(&mut m.compiler, &key, opts)
            .map_err(|e| RuntimeError {
                exception: Exception::Error(e.message),
                trace: e
                    .trace
                    .into_iter()
                    .map(|(func, span)| Frame { func, span })
                    .collect(),
            })?;
        let id = self.ad.dyn_id(&key, opts);
        let stack = callee_stack(m, site)?;
        prim(m, Prim::ArrayPush, &[stack, Value::Int(id as i64)])?;
        let child = child_state(m, site, id)?;
        if let Some(fixed) = pack {
            let rest = xs.split_off(fixed);
            let frest = fs.split_off(fixed);
            xs.push(Value::tuple(rest));
            let none = frest
                .iter()
                .all(|f| crate::tangent::is_singleton_of(f, &Type::NoFData));
            fs.push(if none {
                crate::tangent::singleton_of(Type::NoFData)
            } else {
                Value::tuple(frest)
            });
        }
        let mut call = Vec::with_capacity(2 * xs.len() + 1);
        call.push(child);
        for (x, f) in xs.into_iter().zip(fs) {
            call.push(x);
            call.push(f);
        }
        m.exec(&rule.fwd, call)
    }

    /// `Core.dyn_rvs(site, dy, T)`.
    fn dyn_rvs(&self, m: &mut Machine, args: &[Value]) -> Result<Value, RuntimeError> {
        let site = &args[0];
        let n = match &args[2] {
            Value::Type(Type::Tuple(ts)) => ts.len(),
            _ => return Err(internal("dyn_rvs needs a tuple type")),
        };
        let stack = callee_stack(m, site)?;
        let id = match prim(m, Prim::ArrayPop, &[stack])? {
            Value::Int(k) => k as usize,
            _ => return Err(internal("a dynamic call site's record is not an id")),
        };
        let (key, opts) = self
            .ad
            .dyn_key(id)
            .ok_or_else(|| internal("unknown dynamic rule"))?;
        let rule = self
            .ad
            .rule_with(&mut m.compiler, &key, opts)
            .map_err(|e| error(e.message))?;
        let child = child_state(m, site, id)?;
        // The pullback's cotangent type; a zero of unknown type becomes its zero.
        let yt = rule
            .rvs
            .blocks
            .get(rule.rvs.entry())
            .and_then(|b| b.params.get(1))
            .map(|p| rule.rvs.types[*p].clone())
            .ok_or_else(|| internal("a pullback without a cotangent parameter"))?;
        let dy = rdata_convert(&args[1], &yt, &m.compiler.env).ok_or_else(|| {
            internal(&format!(
                "cotangent of type {} where {yt} was expected",
                args[1].ty()
            ))
        })?;
        let rd = m.exec(&rule.rvs, vec![child, dy])?;
        let Value::Tuple(parts) = rd else {
            return Err(internal("a pullback returned no tuple"));
        };
        let mut out: Vec<Value> = parts.to_vec();
        // A vararg method's pullback returns the packed tuple's reverse data last.
        let vararg = m
            .compiler
            .method(key.table, key.method)
            .is_some_and(|md| md.vararg);
        if vararg && out.len() < n {
            let packed = out.pop().unwrap_or_else(crate::tangent::no_rdata);
            let k = n - out.len();
            match packed {
                Value::Tuple(vs) if vs.len() == k => out.extend(vs.iter().cloned()),
                _ => out.extend((0..k).map(|_| crate::tangent::no_rdata())),
            }
        }
        if out.len() != n {
            return Err(internal(
                "a dynamic pullback returned the wrong number of parts",
            ));
        }
        Ok(Value::tuple(out))
    }
}
