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

mod threads;

use crate::api::Ad;
use crate::tangent::{fdata, rdata, rdata_add, rdata_convert, tangent_from, zero_rdata_of};
use ad_transform::{DualCallKind, DualCallOp, RuleOptions};
use interp::{AdRuntime, Frame, Machine, RuntimeError};
use ir::{Prim, Type, TypeEnv};
use runtime::{eval_prim, Exception, Value};
use std::sync::atomic::Ordering;

/// The AD runtime of a session (installed by [`Ad::install`]).
pub struct Runtime {
    pub(crate) ad: Ad,
    /// The tangents of the values of globals read during the current gradient: (value, fdata),
    /// found by identity (`===`), so that every read of a global array shares one tangent.
    globals: std::sync::Mutex<Vec<(Value, Value)>>,
    /// The previous gradient's entries of `globals`: a global read again finds its fdata
    /// there, zeroed in place instead of built again (see [`crate::tangent::reset_fdata`]).
    spare_globals: std::sync::Mutex<Vec<(Value, Value)>>,
    /// Forward mode's tangents of globals' values during the current derivative, per lane.
    global_tangents: std::sync::Mutex<Vec<(Value, i64, Value)>>,
    /// The previous derivative's entries of `global_tangents`: an array's tangent is found
    /// there and zeroed in place (as `spare_globals`).
    spare_tangents: std::sync::Mutex<Vec<(Value, i64, Value)>>,
    /// Whether either table may hold entries: `begin` takes no lock when neither does (a
    /// prepared gradient of a function reading no globals pays nothing for them).
    recorded: std::sync::atomic::AtomicBool,
    /// Whether a share of a threaded loop read a global's fdata (set by `global_fdata`): the
    /// loop's pullbacks then run one after another (see `threads`).
    global_in_share: std::sync::atomic::AtomicBool,
    /// While a threaded loop's forwards passes run on the threads: its private fdata arrays,
    /// which globals' fdata read by its shares join (see `threads`).
    shared_fdata: std::sync::Mutex<Option<threads::SharedFdata>>,
    /// Why threaded loops were not differentiated in parallel (for `--verbose`).
    notices: std::sync::Mutex<Vec<String>>,
}

impl Runtime {
    pub(crate) fn new(ad: Ad) -> Runtime {
        Runtime {
            ad,
            globals: Default::default(),
            spare_globals: Default::default(),
            global_tangents: Default::default(),
            spare_tangents: Default::default(),
            recorded: Default::default(),
            global_in_share: Default::default(),
            shared_fdata: Default::default(),
            notices: Default::default(),
        }
    }

    /// `Core.global_tangent(x, lane)`: as [`Runtime::global_fdata`], for forward mode.
    fn global_tangent(&self, x: &Value, lane: i64, env: &ir::TypeEnv) -> Value {
        let mut gs = self
            .global_tangents
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some((_, _, t)) = gs
            .iter()
            .find(|(g, l, _)| *l == lane && runtime::value::egal(g, x))
        {
            return t.clone();
        }
        let t = self
            .reused_global_tangent(x, lane)
            .unwrap_or_else(|| crate::tangent::zero_tangent(x, env));
        gs.push((x.clone(), lane, t.clone()));
        self.recorded.store(true, Ordering::Relaxed);
        t
    }

    /// `Core.global_fdata(x)`: a zero fdata on the first read of `x` in a gradient, the same
    /// one on every later read (the pullback accumulates into it, forwards writes into the
    /// global's arrays write into it).
    fn global_fdata(&self, x: &Value, env: &ir::TypeEnv) -> Value {
        // A share of a loop running on the threads reads the same globals on every
        // iteration: the view it got first is kept for the share.
        let in_share = runtime::threads::outer_threadid();
        if in_share.is_some() {
            if let Some(v) = runtime::threads::share_note(x) {
                return v;
            }
        }
        let f = {
            let mut gs = self.globals.lock().unwrap_or_else(|e| e.into_inner());
            match gs.iter().find(|(g, _)| runtime::value::egal(g, x)) {
                Some((_, f)) => f.clone(),
                None => {
                    let f = self.reused_global_fdata(x).unwrap_or_else(|| {
                        // Types are worked out once per global and derivative (also for a
                        // value without fdata, which is then found here like the others).
                        let t = x.ty();
                        if ir::tangent::fdata_type(&t, env) == Type::NoFData {
                            crate::tangent::singleton_of(Type::NoFData)
                        } else {
                            fdata(&crate::tangent::zero_tangent(x, env), &t, env)
                        }
                    });
                    gs.push((x.clone(), f.clone()));
                    self.recorded.store(true, Ordering::Relaxed);
                    f
                }
            }
        };
        if crate::tangent::is_singleton_of(&f, &Type::NoFData) {
            return f;
        }
        // Inside a share of a loop running on the threads: the share's copy (see `threads`).
        if let Some(tid) = in_share {
            let mut shared = self.shared_fdata.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(v) = shared.as_mut().and_then(|s| s.share_view(&f, tid)) {
                runtime::threads::note_in_share(x.clone(), v.clone());
                return v;
            }
            self.global_in_share.store(true, Ordering::Relaxed);
        }
        f
    }
}

impl Runtime {
    /// The fdata global value `x` had in the previous gradient, zeroed, if it can serve again.
    fn reused_global_fdata(&self, x: &Value) -> Option<Value> {
        reuse(
            &self.spare_globals,
            x,
            |(g, _)| runtime::value::egal(g, x),
            |(_, f)| f,
        )
    }

    /// The tangent global array `x` had in lane `lane` of the previous derivative, zeroed, if
    /// it can serve again (an array's tangent is its fdata).
    fn reused_global_tangent(&self, x: &Value, lane: i64) -> Option<Value> {
        if !matches!(x, Value::Array(_)) {
            return None;
        }
        reuse(
            &self.spare_tangents,
            x,
            |(g, l, _)| *l == lane && runtime::value::egal(g, x),
            |(_, _, t)| t,
        )
    }
}

/// Takes the entry of `spare` that `found` picks and its fdata (`part`), zeroed in place for
/// global value `x`, if nothing else holds it and it still fits `x`.
fn reuse<E>(
    spare: &std::sync::Mutex<Vec<E>>,
    x: &Value,
    found: impl Fn(&E) -> bool,
    part: impl FnOnce(E) -> Value,
) -> Option<Value> {
    let mut spare = spare.lock().unwrap_or_else(|e| e.into_inner());
    let k = spare.iter().position(found)?;
    let f = part(spare.swap_remove(k));
    crate::tangent::reset_fdata(&f, x).then_some(f)
}

/// Moves the entries of `live` (the derivative that ended) to `spare`, replacing what it held.
fn set_aside<E>(live: &std::sync::Mutex<Vec<E>>, spare: &std::sync::Mutex<Vec<E>>) {
    let last = std::mem::take(&mut *live.lock().unwrap_or_else(|e| e.into_inner()));
    *spare.lock().unwrap_or_else(|e| e.into_inner()) = last;
}

fn error(msg: String) -> RuntimeError {
    RuntimeError::new(Exception::Error(msg))
}

fn internal(what: &str) -> RuntimeError {
    RuntimeError::new(Exception::Internal(what.to_string()))
}

/// Runs a primitive of the runtime crate on values (the rule-state stacks).
fn prim(m: &mut Machine, op: Prim, args: &[Value]) -> Result<Value, RuntimeError> {
    eval_prim(op, args, &m.compiler.env, &mut *m.out).map_err(RuntimeError::new)
}

/// Stack `k` (a `Vector{elem}`) of a dynamic call site's state.
fn site_stack(m: &mut Machine, site: &Value, k: i64, elem: Type) -> Result<Value, RuntimeError> {
    let vt = Value::of_type(Type::vector(elem));
    prim(m, Prim::RuleStack, &[site.clone(), Value::Int(k), vt])
}

/// The stack of callee ids of a dynamic call site's state.
fn callee_stack(m: &mut Machine, site: &Value) -> Result<Value, RuntimeError> {
    site_stack(m, site, 0, Type::Int64)
}

/// The stack of splatted calls' records of a dynamic call site's state (see
/// [`Runtime::dyn_fwd_apply`]).
fn apply_stack(m: &mut Machine, site: &Value) -> Result<Value, RuntimeError> {
    site_stack(m, site, 1, Type::Any)
}

/// The id recorded on a call site's stack for a splatted call: its record is on
/// [`apply_stack`] and the flattened call's id below it.
const APPLY: i64 = -1;

/// The id recorded on a call site's stack for a `try`: its record is on [`try_stack`].
const TRY: i64 = -2;

/// The records of the `try`s a call site ran (see [`Runtime::try_fwd`]).
fn try_stack(m: &mut Machine, site: &Value) -> Result<Value, RuntimeError> {
    site_stack(m, site, 2, Type::Any)
}

/// Which blocks of a `try` ran, as its record says.
const TRY_BODY: i64 = 0;
const TRY_HANDLER: i64 = 1;
const TRY_FINALLY: i64 = 2;

/// Whether every float of a tangent, fdata or rdata value (arrays and mutable parts
/// included) is zero.
/// The cotangent `dy` of a call's value as the reverse data of the type `yt` of the value the
/// call gave this time. A value of a union type (`Union{Tuple{Int64}, Tuple{Float64}}`, a
/// `try`'s value) collects a cotangent of the union's type; where the member that ran carries
/// no reverse data that cotangent is a zero, and becomes the zero of `yt`.
fn cotangent_as(dy: &Value, yt: &Type, env: &TypeEnv) -> Option<Value> {
    rdata_convert(dy, yt, env).or_else(|| all_zero(dy).then(|| zero_rdata_of(yt, env)))
}

fn all_zero(v: &Value) -> bool {
    match v {
        Value::F64(x) => *x == 0.0,
        Value::F32(x) => *x == 0.0,
        Value::Tuple(vs) => vs.iter().all(all_zero),
        Value::NamedTuple(nt) => nt.values.iter().all(all_zero),
        Value::Struct(s) => s.fields.iter().all(all_zero),
        Value::Mutable(m) => m.snapshot().iter().all(all_zero),
        Value::Array(a) => a.snapshot().iter().all(all_zero),
        _ => true,
    }
}

/// An error of deriving or running a rule, as a run-time error with its frames.
fn ad_error(e: ad_transform::AdError) -> RuntimeError {
    RuntimeError {
        exception: Exception::Error(e.message),
        trace: e
            .trace
            .into_iter()
            .map(|(func, span)| Frame { func, span })
            .collect(),
    }
}

impl Ad {
    /// Lets `m` run derived callees (derived when first executed) and the AD runtime.
    pub fn install(&self, m: &mut Machine) {
        m.ad_runtime = Some(std::sync::Arc::new(Runtime::new(self.clone())));
        let ad = self.clone();
        m.resolver = Some(Box::new(
            move |key: &compiler::MiKey, c: &mut compiler::Compiler| ad.resolve_derived(c, key),
        ));
    }
}

/// The type of the cotangent a rule's pullback takes.
fn cotangent_type(rule: &crate::api::Rule) -> Result<Type, RuntimeError> {
    rule.rvs
        .blocks
        .get(rule.rvs.entry())
        .and_then(|b| b.params.get(1))
        .map(|p| rule.rvs.types[*p].clone())
        .ok_or_else(|| internal("a pullback without a cotangent parameter"))
}

fn child_state(m: &mut Machine, site: &Value, id: usize) -> Result<Value, RuntimeError> {
    prim(m, Prim::RuleChild, &[site.clone(), Value::Int(id as i64)])
}

impl AdRuntime for Runtime {
    fn begin(&self) {
        // Set by the thread running the derivative (the session's), so a plain load sees it.
        if !self.recorded.load(Ordering::Relaxed) {
            return;
        }
        self.recorded.store(false, Ordering::Relaxed);
        set_aside(&self.globals, &self.spare_globals);
        set_aside(&self.global_tangents, &self.spare_tangents);
    }

    fn eval(&self, m: &mut Machine, op: Prim, args: &[Value]) -> Result<Value, RuntimeError> {
        match op {
            Prim::DynFwd => self.dyn_fwd(m, args),
            Prim::DynRvs => self.dyn_rvs(m, args),
            Prim::ThreadsFwd => self.threads_fwd(m, args),
            Prim::ThreadsRvs => self.threads_rvs(m, args),
            Prim::ThreadsDual => self.threads_dual(m, args),
            Prim::DualCall => self.dual_call(m, args),
            Prim::DualApply => {
                // `derivative` in the language: one lane of forward mode.
                let mut call = vec![Value::Int(1), Value::Int(self.ad.opts.to_bits())];
                call.extend(args.iter().cloned());
                let r = self.dual_call(m, &call)?;
                Ok(r.field(1).unwrap_or_else(crate::tangent::no_tangent))
            }
            Prim::VjpApply => {
                // Mooncake's `value_and_pullback!!` / `value_and_gradient!!`.
                let dy = (!matches!(args[0], Value::Nothing)).then(|| args[0].clone());
                let (y, g) = crate::api::nested_pullback(m, &self.ad, &args[1], &args[2..], dy)
                    .map_err(ad_error)?;
                Ok(Value::Tuple(
                    vec![y, Value::Tuple(g.into_iter().collect())].into(),
                ))
            }
            Prim::TestRuleApply => {
                // Mooncake's `TestUtils.test_rule`.
                let seed = match args[0] {
                    Value::Int(s) => s as u64,
                    _ => 0,
                };
                // (seed, is_primitive, mode, interface_only, atol, rtol, f, x...); mode 0
                // checks both modes, 1 reverse mode only, 2 forward mode only.
                let mode = args[2].as_int().unwrap_or(0);
                let float = |v: &Value, d: f64| match v {
                    Value::F64(x) => *x,
                    _ => d,
                };
                let opts = crate::testing::TestOptions {
                    reverse: mode != 2,
                    forward: mode != 1,
                    interface_only: matches!(args[3], Value::Bool(true)),
                    atol: float(&args[4], 1e-3),
                    rtol: float(&args[5], 1e-3),
                };
                let mut r =
                    crate::testing::test_rule(m, &self.ad, &args[6], &args[7..], seed, opts)
                        .map_err(ad_error)?;
                if matches!(args[1], Value::Bool(true)) {
                    let check =
                        crate::user_rules::is_primitive_check(m, &self.ad, &args[6], &args[7..]);
                    r.checks.push(("is primitive", check));
                }
                Ok(Value::Tuple(
                    vec![Value::Bool(r.passed()), Value::Str(r.render().into())].into(),
                ))
            }
            Prim::JvpApply => {
                // Mooncake's `value_and_derivative!!`: one lane of forward mode.
                let mut call = vec![Value::Int(1), Value::Int(self.ad.opts.to_bits())];
                call.extend(args.iter().cloned());
                let r = self.dual_call(m, &call)?;
                let part = |k| r.field(k).unwrap_or_else(crate::tangent::no_tangent);
                Ok(Value::Tuple(vec![part(0), part(1)].into()))
            }
            Prim::GradApply => {
                // `gradient` in the language: reverse mode.
                let g = crate::api::nested_gradient(m, &self.ad, &args[0], &args[1..])
                    .map_err(ad_error)?;
                Ok(g.get(1).cloned().unwrap_or_else(crate::tangent::no_tangent))
            }
            _ => self.on_values(op, args, &m.compiler.env),
        }
    }

    fn notices(&self) -> Vec<String> {
        self.notices
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn eval_on_values(
        &self,
        op: Prim,
        args: &[Value],
        env: &ir::TypeEnv,
    ) -> Option<Result<Value, RuntimeError>> {
        op.ad_runtime_on_values()
            .then(|| self.on_values(op, args, env))
    }
}

impl Runtime {
    /// The primitives that need only their operands and the type environment.
    fn on_values(
        &self,
        op: Prim,
        args: &[Value],
        env: &ir::TypeEnv,
    ) -> Result<Value, RuntimeError> {
        match op {
            Prim::RdataAdd => Ok(rdata_add(&args[0], &args[1])),
            Prim::RdataConvert => {
                let Value::Type(t) = &args[1] else {
                    return Err(internal("rdata_convert needs a type"));
                };
                cotangent_as(&args[0], t, env).ok_or_else(|| {
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
            Prim::GlobalFdata => Ok(self.global_fdata(&args[0], env)),
            Prim::GlobalTangent => {
                Ok(self.global_tangent(&args[0], args[1].as_int().unwrap_or(0), env))
            }
            Prim::ZeroTangent => Ok(crate::tangent::zero_tangent(&args[0], env)),
            Prim::TangentField => {
                let k = match &args[2] {
                    Value::Str(s) if matches!(args[0], Value::Tuple(_)) => s
                        .parse::<usize>()
                        .ok()
                        .and_then(|k| k.checked_sub(1))
                        .ok_or_else(|| internal("a tuple field that is not a position"))?,
                    _ => field_of(&args[0], &args[2], env)?.1,
                };
                Ok(args[1].field(k).unwrap_or_else(crate::tangent::no_tangent))
            }
            Prim::TangentAddRdata => tangent_add_rdata(&args[0], &args[1], &args[2], env),
            Prim::FieldFdata => {
                let (p, k) = field_of(&args[0], &args[2], env)?;
                let z = zero_rdata_of(&ir::tangent::rdata_type(&p, env), env);
                let t = tangent_from(&p, &args[1], &z, env);
                let ft = env.field_types(&p).unwrap_or_default();
                Ok(match (t.field(k), ft.get(k)) {
                    (Some(tk), Some(ftk)) => fdata(&tk, ftk, env),
                    _ => crate::tangent::singleton_of(Type::NoFData),
                })
            }
            Prim::FieldCotangent => {
                let (p, k) = field_of(&args[0], &args[2], env)?;
                let ft = env.field_types(&p).unwrap_or_default();
                let ftk = ft.get(k).cloned().unwrap_or(Type::Any);
                if env.is_mutable(&p) {
                    // The tangent's field is incremented in place.
                    if let (Value::Mutable(m), Some(x)) = (&args[1], args[0].field(k)) {
                        if let Some(old) = m.get(k) {
                            let new = tangent_add_rdata(&x, &old, &args[3], env)?;
                            m.set(k, new);
                        }
                    }
                    return Ok(crate::tangent::no_rdata());
                }
                let rt = ir::tangent::rdata_type(&p, env);
                let z = zero_rdata_of(&rt, env);
                let rk = cotangent_as(&args[3], &ir::tangent::rdata_type(&ftk, env), env)
                    .ok_or_else(|| internal("a field's cotangent of the wrong type"))?;
                Ok(with_part(&z, k, rk))
            }
            Prim::TangentOf => {
                let p = args[0].ty();
                let z = zero_rdata_of(&ir::tangent::rdata_type(&p, env), env);
                Ok(tangent_from(&p, &args[1], &z, env))
            }
            _ => Err(internal(&format!(
                "`Core.{}` is not a primitive of the AD runtime",
                op.name()
            ))),
        }
    }
}

/// Tangent `t` of primal `x` with `r` added to its reverse data.
fn tangent_add_rdata(
    x: &Value,
    t: &Value,
    r: &Value,
    env: &ir::TypeEnv,
) -> Result<Value, RuntimeError> {
    let p = x.ty();
    let f = fdata(t, &p, env);
    let s = rdata_add(&rdata(t, &p, env), r);
    let s = rdata_convert(&s, &ir::tangent::rdata_type(&p, env), env)
        .ok_or_else(|| internal("reverse data of the wrong type for a tangent"))?;
    Ok(tangent_from(&p, &f, &s, env))
}

/// The type of `x` and the position of its field named by string `name`.
fn field_of(x: &Value, name: &Value, env: &ir::TypeEnv) -> Result<(Type, usize), RuntimeError> {
    let p = x.ty();
    let Value::Str(n) = name else {
        return Err(internal("a field name that is not a string"));
    };
    // A position (`"2"`) for a field read by index.
    if let Ok(k) = n.parse::<usize>() {
        let count = env.field_types(&p).map_or(0, |fs| fs.len());
        if (1..=count).contains(&k) {
            return Ok((p, k - 1));
        }
    }
    let k = env.field_index(&p, syntax::sym(n)).ok_or_else(|| {
        RuntimeError::new(Exception::Error(format!(
            "FieldError: type {p} has no field `{n}`"
        )))
    })?;
    Ok((p, k))
}

/// Aggregate reverse data `v` with part `k` replaced by `x` (`v` itself if it has no parts).
fn with_part(v: &Value, k: usize, x: Value) -> Value {
    use runtime::value::{NamedTupleVal, StructVal};
    use std::sync::Arc;
    match v {
        Value::Tuple(ps) => {
            let mut ps = ps.to_vec();
            if let Some(p) = ps.get_mut(k) {
                *p = x;
            }
            Value::tuple(ps)
        }
        Value::NamedTuple(nt) => {
            let mut vs = nt.values.to_vec();
            if let Some(p) = vs.get_mut(k) {
                *p = x;
            }
            Value::NamedTuple(Arc::new(NamedTupleVal {
                names: nt.names.clone(),
                values: vs.into(),
            }))
        }
        Value::Struct(st) if !st.fields.is_empty() => {
            let mut fs = st.fields.to_vec();
            if let Some(p) = fs.get_mut(k) {
                *p = x;
            }
            Value::Struct(Arc::new(StructVal {
                ty: st.ty.clone(),
                fields: fs.into(),
            }))
        }
        _ => v.clone(),
    }
}

impl Runtime {
    /// `Core.dyn_fwd(site, opts, f, ff, x1, fx1, ...)`.
    fn dyn_fwd(&self, m: &mut Machine, args: &[Value]) -> Result<Value, RuntimeError> {
        let site = &args[0];
        let Some(op) = args[1].as_int().and_then(DualCallOp::from_bits) else {
            return Err(internal("dyn_fwd needs rule options"));
        };
        if op.kind != DualCallKind::Call {
            return self.try_fwd(m, args, op);
        }
        let opts = op.opts;
        let mut xs: Vec<Value> = args[2..].iter().step_by(2).cloned().collect();
        let mut fs: Vec<Value> = args[3..].iter().step_by(2).cloned().collect();
        if let Some(n) = interp::builtin(&xs[0]) {
            if n == "#apply" {
                return self.dyn_fwd_apply(m, args);
            }
            return Err(error(format!(
                "`{n}` is not supported by reverse mode yet (the call's types are known only at run time)"
            )));
        }
        let (key, pack) = m.resolve_dynamic(&xs)?;
        let rule = self
            .ad
            .rule_with(&mut m.compiler, &key, opts)
            .map_err(ad_error)?;
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

    /// Reverse mode of a `try` (`Core.dyn_fwd(site, op, body, ḃody, other, ȯther)` with
    /// `op` a `try`'s `DualCallOp`): the forwards pass of `body()` in a fresh state, with its
    /// writes noted (`RuleOptions::in_try`); if it raises an error the program catches, the
    /// forwards pass of `handler(e)` (the exception with zero fdata). With `finally`, the
    /// cleanup's forwards pass runs after the body's, and a body's error is raised again. The
    /// record pushed on [`try_stack`] says which ran, for [`Runtime::try_rvs`].
    ///
    /// The body's forwards pass, cut short by its error, has no pullback: what it computed is
    /// dropped, which is exact unless it changed an array or mutable struct made before the
    /// `try` (that change stays, and its derivative would be lost): then the derivative is an
    /// error. So is a handler whose derivative reaches the exception's value (checked by its
    /// pullback), which no pullback of the body could carry on.
    fn try_fwd(
        &self,
        m: &mut Machine,
        args: &[Value],
        op: DualCallOp,
    ) -> Result<Value, RuntimeError> {
        let [site, _, body, fbody, other, fother] = args else {
            return Err(internal("a `try`'s forwards pass needs two functions"));
        };
        let inner = RuleOptions {
            in_try: true,
            serial_threads: true,
            ..op.opts
        };
        let (bkey, _) = m.resolve_dynamic(std::slice::from_ref(body))?;
        let brule = self
            .ad
            .rule_with(&mut m.compiler, &bkey, inner)
            .map_err(ad_error)?;
        let bid = self.ad.dyn_id(&bkey, inner);
        let bstate = crate::api::new_state();
        runtime::tries::enter();
        let r = m.exec(
            &brule.fwd,
            vec![bstate.clone(), body.clone(), fbody.clone()],
        );
        let changed = runtime::tries::leave();
        let push = |m: &mut Machine, record: Vec<Value>| -> Result<(), RuntimeError> {
            let records = try_stack(m, site)?;
            prim(m, Prim::ArrayPush, &[records, Value::tuple(record)])?;
            let ids = callee_stack(m, site)?;
            prim(m, Prim::ArrayPush, &[ids, Value::Int(TRY)])?;
            Ok(())
        };
        // The cleanup of `try ... finally` (it takes no argument).
        let cleanup = |m: &mut Machine| -> Result<(Value, i64), RuntimeError> {
            let (fkey, _) = m.resolve_dynamic(std::slice::from_ref(other))?;
            let frule = self
                .ad
                .rule_with(&mut m.compiler, &fkey, op.opts)
                .map_err(ad_error)?;
            let fstate = crate::api::new_state();
            m.exec(
                &frule.fwd,
                vec![fstate.clone(), other.clone(), fother.clone()],
            )?;
            Ok((fstate, self.ad.dyn_id(&fkey, op.opts) as i64))
        };
        let err = match (op.kind, r) {
            (DualCallKind::TryFinally, Ok(y)) => {
                let (fstate, fid) = cleanup(m)?;
                let record = vec![
                    Value::Int(TRY_FINALLY),
                    Value::Int(bid as i64),
                    bstate,
                    Value::Int(fid),
                    fstate,
                ];
                push(m, record)?;
                return Ok(y);
            }
            (_, Ok(y)) => {
                push(
                    m,
                    vec![Value::Int(TRY_BODY), Value::Int(bid as i64), bstate],
                )?;
                return Ok(y);
            }
            (_, Err(e)) if !runtime::exception::catchable(&e.exception) => return Err(e),
            (DualCallKind::TryFinally, Err(e)) => {
                // The error goes on after the cleanup (a `try` around this one may catch it,
                // and judges the writes of both).
                cleanup(m)?;
                return Err(e);
            }
            (_, Err(e)) => e,
        };
        if changed {
            return Err(error(format!(
                "not supported yet: reverse mode through a `try` whose body changed an array or mutable struct made before the `try` and then raised an error ({}); differentiate with forward mode (`grad --mode forward`), or make the change after the `try`",
                err.exception.type_name()
            )));
        }
        let Some(exc) = runtime::exception::exception_value(&err.exception) else {
            return Err(err);
        };
        let env = &m.compiler.env;
        let fexc = crate::tangent::fdata(&crate::tangent::zero_tangent(&exc, env), &exc.ty(), env);
        let (hkey, _) = m.resolve_dynamic(&[other.clone(), exc.clone()])?;
        let hrule = self
            .ad
            .rule_with(&mut m.compiler, &hkey, op.opts)
            .map_err(ad_error)?;
        let hid = self.ad.dyn_id(&hkey, op.opts);
        let hstate = crate::api::new_state();
        let call = vec![
            hstate.clone(),
            other.clone(),
            fother.clone(),
            exc,
            fexc.clone(),
        ];
        let y = m.while_handling(err, |m| m.exec(&hrule.fwd, call))?;
        push(
            m,
            vec![
                Value::Int(TRY_HANDLER),
                Value::Int(hid as i64),
                hstate,
                fexc,
            ],
        )?;
        Ok(y)
    }

    /// The pullback of the latest `try` a call site ran (see [`Runtime::try_fwd`]): the
    /// pullbacks of the blocks that ran, in reverse; the reverse data of the `try`'s two
    /// functions, as `Core.dyn_rvs` gives a call's.
    fn try_rvs(&self, m: &mut Machine, args: &[Value]) -> Result<Value, RuntimeError> {
        let site = &args[0];
        let records = try_stack(m, site)?;
        let Value::Tuple(record) = prim(m, Prim::ArrayPop, &[records])? else {
            return Err(internal("a `try`'s record is not a tuple"));
        };
        let pullback = |m: &mut Machine, id: &Value, state: &Value, dy: Option<&Value>| {
            let Some((key, opts)) = id.as_int().and_then(|k| self.ad.dyn_key(k as usize)) else {
                return Err(internal("unknown rule of a `try` block"));
            };
            let rule = self
                .ad
                .rule_with(&mut m.compiler, &key, opts)
                .map_err(ad_error)?;
            let yt = cotangent_type(&rule)?;
            let env = &m.compiler.env;
            let dy = match dy.and_then(|dy| cotangent_as(dy, &yt, env)) {
                Some(dy) => dy,
                None if dy.is_none() => crate::tangent::zero_rdata_of(&yt, env),
                None => {
                    return Err(internal(&format!(
                        "cotangent of type {} where {yt} was expected",
                        dy.map(|d| d.ty()).unwrap_or_default()
                    )))
                }
            };
            match m.exec(&rule.rvs, vec![state.clone(), dy])? {
                Value::Tuple(parts) => Ok(parts.to_vec()),
                _ => Err(internal("a pullback returned no tuple")),
            }
        };
        let none = crate::tangent::no_rdata;
        match record.as_ref() {
            [Value::Int(TRY_BODY), id, state] => {
                let rb = pullback(m, id, state, Some(&args[1]))?;
                Ok(Value::tuple(vec![rb[0].clone(), none()]))
            }
            [Value::Int(TRY_FINALLY), bid, bstate, fid, fstate] => {
                // The cleanup ran last (its value is dropped: its cotangent is zero).
                let rf = pullback(m, fid, fstate, None)?;
                let rb = pullback(m, bid, bstate, Some(&args[1]))?;
                Ok(Value::tuple(vec![rb[0].clone(), rf[0].clone()]))
            }
            [Value::Int(TRY_HANDLER), id, state, fexc] => {
                let rh = pullback(m, id, state, Some(&args[1]))?;
                let rexc = rh.get(1).cloned().unwrap_or_else(none);
                if !all_zero(&rexc) || !all_zero(fexc) {
                    return Err(error(
                        "not supported yet: reverse mode through a `catch` block whose result depends on the exception's value; compute it from the values before the `try`".into(),
                    ));
                }
                Ok(Value::tuple(vec![none(), rh[0].clone()]))
            }
            _ => Err(internal("a `try`'s record is malformed")),
        }
    }

    /// `Core.dyn_fwd(site, opts, #apply, _, f, ff, p1, fp1, ...)`: a call `f(p1..., p2..., ...)`
    /// whose pieces' lengths are known only at run time. The pieces (tuples and arrays) are
    /// flattened with their elements' fdata and the flat call runs as a dynamic call; the record
    /// pushed on [`apply_stack`] tells the pullback how to give each element's cotangent back to
    /// its piece: a tuple's as its rdata, an array's added to its tangent in place.
    fn dyn_fwd_apply(&self, m: &mut Machine, args: &[Value]) -> Result<Value, RuntimeError> {
        let env = &m.compiler.env;
        let mut flat = vec![args[0].clone(), args[1].clone()];
        flat.extend(args[4..6].iter().cloned());
        let mut record = Vec::new();
        for pair in args[6..].chunks(2) {
            let (p, fp) = (&pair[0], &pair[1]);
            match p {
                Value::Tuple(vs) => {
                    for (k, v) in vs.iter().enumerate() {
                        flat.push(v.clone());
                        flat.push(match fp {
                            Value::Tuple(fs) => fs
                                .get(k)
                                .cloned()
                                .unwrap_or_else(|| crate::tangent::singleton_of(Type::NoFData)),
                            _ => crate::tangent::singleton_of(Type::NoFData),
                        });
                    }
                    record.push(Value::Int(vs.len() as i64));
                }
                Value::Array(a) => {
                    let ts = match fp {
                        Value::Array(t) => Some(t.snapshot()),
                        _ => None,
                    };
                    for (k, v) in a.snapshot().into_iter().enumerate() {
                        let f = match ts.as_ref().and_then(|ts| ts.get(k)) {
                            Some(t) => fdata(t, &v.ty(), env),
                            None => crate::tangent::singleton_of(Type::NoFData),
                        };
                        flat.push(v);
                        flat.push(f);
                    }
                    record.push(Value::tuple(vec![p.clone(), fp.clone()]));
                }
                other => {
                    return Err(error(format!(
                        "splatting a value of type {} is not supported",
                        other.ty()
                    )))
                }
            }
        }
        let y = self.dyn_fwd(m, &flat)?;
        let site = &args[0];
        let stack = apply_stack(m, site)?;
        prim(m, Prim::ArrayPush, &[stack, Value::tuple(record)])?;
        let stack = callee_stack(m, site)?;
        prim(m, Prim::ArrayPush, &[stack, Value::Int(APPLY)])?;
        Ok(y)
    }

    /// The pullback of [`Runtime::dyn_fwd_apply`]: rdata of `#apply`, `f` and each piece.
    fn dyn_rvs_apply(&self, m: &mut Machine, args: &[Value]) -> Result<Value, RuntimeError> {
        let site = &args[0];
        let stack = apply_stack(m, site)?;
        let Value::Tuple(record) = prim(m, Prim::ArrayPop, &[stack])? else {
            return Err(internal("a splatted call's record is not a tuple"));
        };
        let n: usize = record
            .iter()
            .map(|r| match r {
                Value::Int(k) => *k as usize,
                Value::Tuple(pa) => match &pa[0] {
                    Value::Array(a) => a.len(),
                    _ => 0,
                },
                _ => 0,
            })
            .sum();
        let tt = Value::of_type(Type::tuple(vec![Type::Any; n + 1]));
        let Value::Tuple(rd) = self.dyn_rvs(m, &[site.clone(), args[1].clone(), tt])? else {
            return Err(internal("a pullback returned no tuple"));
        };
        let env = &m.compiler.env;
        let mut out = vec![crate::tangent::no_rdata(), rd[0].clone()];
        let mut rest = rd[1..].iter();
        for r in record.iter() {
            match r {
                Value::Int(k) => out.push(Value::tuple(
                    rest.by_ref().take(*k as usize).cloned().collect(),
                )),
                Value::Tuple(pa) => {
                    if let (Value::Array(a), Value::Array(t)) = (&pa[0], &pa[1]) {
                        for (k, x) in a.snapshot().iter().enumerate() {
                            let Some(ri) = rest.next() else { break };
                            if let Some(old) = t.get(k) {
                                t.set(k, tangent_add_rdata(x, &old, ri, env)?);
                            }
                        }
                    } else if let Value::Array(a) = &pa[0] {
                        rest.by_ref().take(a.len()).for_each(drop);
                    }
                    out.push(crate::tangent::no_rdata());
                }
                _ => return Err(internal("a splatted call's record is malformed")),
            }
        }
        Ok(Value::tuple(out))
    }

    /// `Core.dual_call(width, opts, f, tf_1, ..., tf_N, x1, t1_1, ..., t1_N, ...)`: runs the
    /// forward rule of the method the run-time types select (derived on first use); splatted
    /// pieces (`#apply`) are flattened with their tangents first.
    fn dual_call(&self, m: &mut Machine, args: &[Value]) -> Result<Value, RuntimeError> {
        let (Some(n), Some(op)) = (
            args[0].as_int(),
            args[1].as_int().and_then(DualCallOp::from_bits),
        ) else {
            return Err(internal("dual_call needs a width and options"));
        };
        let (n, opts) = (n as usize, op.opts);
        // (primal, its tangent in each lane) of the function and each argument.
        let items: Vec<(Value, Vec<Value>)> = args[2..]
            .chunks(n + 1)
            .map(|c| (c[0].clone(), c[1..].to_vec()))
            .collect();
        match op.kind {
            DualCallKind::DualApply => return self.dual_of_dual_apply(m, n, opts, &items),
            DualCallKind::GradApply => return self.dual_of_grad_apply(m, n, &items),
            DualCallKind::TryCatch | DualCallKind::TryFinally => {
                return self.dual_of_try(m, n, opts, op.kind, items)
            }
            DualCallKind::Call => {}
        }
        self.dual_of_call(m, n, opts, items)
    }

    /// Forward mode (`n` lanes) of a `try` (`Core.try_catch(body, handler)` or
    /// `Core.try_finally(body, fin)`; items: the two functions with their tangents): the
    /// forward rule of `body()`; when it raises an error the program catches, that of
    /// `handler(e)`, the exception with a zero tangent (or of `fin()`, and the error again).
    /// Tangents changed by the body before its error stay changed, as its values do. The
    /// exception's zero tangent is exact only if the handler's rule never reads it (a
    /// derivative through the exception's value, `e.val`, would need the tangent of the value
    /// where it was thrown): otherwise the derivative is an error, never a wrong one.
    fn dual_of_try(
        &self,
        m: &mut Machine,
        n: usize,
        opts: RuleOptions,
        kind: DualCallKind,
        items: Vec<(Value, Vec<Value>)>,
    ) -> Result<Value, RuntimeError> {
        let mut items = items.into_iter();
        let (Some(body), Some(other)) = (items.next(), items.next()) else {
            return Err(internal("a `try` needs two functions"));
        };
        let r = self.dual_of_call(m, n, opts, vec![body]);
        if kind == DualCallKind::TryFinally {
            if let Err(e) = &r {
                if !runtime::exception::catchable(&e.exception) {
                    return r;
                }
            }
            self.dual_of_call(m, n, opts, vec![other])?;
            return r;
        }
        let err = match r {
            Ok(v) => return Ok(v),
            Err(e) => e,
        };
        let Some(exc) = runtime::exception::exception_value(&err.exception) else {
            return Err(err);
        };
        let env = &m.compiler.env;
        let texc = crate::tangent::zero_tangent(&exc, env);
        let carries = ir::tangent::tangent_type(&exc.ty(), env) != Type::NoTangent;
        let xs = vec![other.0.clone(), exc.clone()];
        let (key, _) = m.resolve_dynamic(&xs)?;
        let code = self
            .ad
            .dual_rule_with(&mut m.compiler, &key, opts, n)
            .map_err(ad_error)?;
        if carries {
            // The parameters after the function and its tangents: the exception, then its
            // tangents.
            let params = code.params();
            if params[n + 2..2 * n + 2].iter().any(|&p| reads(&code, p)) {
                return Err(error(format!(
                    "not supported yet: forward mode through a `catch` block whose result depends on the exception's value (a `{}`): compute it from the values before the `try`",
                    exc.ty()
                )));
            }
        }
        let mut call = vec![other.0];
        call.extend(other.1);
        call.push(exc);
        call.extend(std::iter::repeat_n(texc, n));
        m.while_handling(err, |m| m.exec(&code, call))
    }

    /// The forward rule of the method the run-time types of `items` (the function and the
    /// arguments, each with its tangents) select.
    fn dual_of_call(
        &self,
        m: &mut Machine,
        n: usize,
        opts: RuleOptions,
        mut items: Vec<(Value, Vec<Value>)>,
    ) -> Result<Value, RuntimeError> {
        if interp::builtin(&items[0].0) == Some("#apply") {
            let mut flat = vec![items[1].clone()];
            for (p, ts) in &items[2..] {
                let parts = match p {
                    Value::Tuple(vs) => vs.to_vec(),
                    Value::Array(a) => a.snapshot(),
                    other => {
                        return Err(error(format!(
                            "splatting a value of type {} is not supported",
                            other.ty()
                        )))
                    }
                };
                for (k, x) in parts.into_iter().enumerate() {
                    let tk = ts
                        .iter()
                        .map(|t| match t {
                            Value::Array(a) => a.get(k).unwrap_or_else(crate::tangent::no_tangent),
                            t => t.field(k).unwrap_or_else(crate::tangent::no_tangent),
                        })
                        .collect();
                    flat.push((x, tk));
                }
            }
            items = flat;
        } else if let Some(b) = interp::builtin(&items[0].0) {
            return Err(error(format!(
                "`{b}` is not supported by forward mode yet (the call's types are known only at run time)"
            )));
        }
        let xs: Vec<Value> = items.iter().map(|(x, _)| x.clone()).collect();
        let (key, pack) = m.resolve_dynamic(&xs)?;
        if let Some(fixed) = pack {
            let rest = items.split_off(fixed);
            let x = Value::tuple(rest.iter().map(|(x, _)| x.clone()).collect());
            let ts = (0..n)
                .map(|l| {
                    let tl: Vec<Value> = rest.iter().map(|(_, t)| t[l].clone()).collect();
                    if tl
                        .iter()
                        .all(|t| crate::tangent::is_singleton_of(t, &Type::NoTangent))
                    {
                        crate::tangent::no_tangent()
                    } else {
                        Value::tuple(tl)
                    }
                })
                .collect();
            items.push((x, ts));
        }
        let code = self
            .ad
            .dual_rule_with(&mut m.compiler, &key, opts, n)
            .map_err(ad_error)?;
        let mut call = Vec::with_capacity(items.len() * (n + 1));
        for (x, ts) in items {
            call.push(x);
            call.extend(ts);
        }
        m.exec(&code, call)
    }

    /// Forward mode (`n` lanes) of `Core.dual_apply(f, tf, x1, t1, ...)` (items: each operand
    /// with its tangent in each lane): the `n`-lane forward rule of `f`'s one-lane forward rule
    /// (forward over forward; the inner and outer tangents are different values, so they
    /// cannot be confused). Returns `(ẏ, its tangent in each lane)`.
    fn dual_of_dual_apply(
        &self,
        m: &mut Machine,
        n: usize,
        opts: RuleOptions,
        items: &[(Value, Vec<Value>)],
    ) -> Result<Value, RuntimeError> {
        // Operands: f, tf, x1, t1, ...: the inner call is f(x1, ...), whose forward rule is
        // differentiated again (so its threaded loops run their shares one after another).
        let opts = RuleOptions {
            serial_threads: true,
            ..opts
        };
        let xs: Vec<Value> = items.iter().step_by(2).map(|(x, _)| x.clone()).collect();
        let (key, pack) = m.resolve_dynamic(&xs)?;
        if pack.is_some() {
            return Err(error(
                "`derivative` of a function with variable arguments is not supported by forward mode yet"
                    .into(),
            ));
        }
        let env = m.compiler.env.clone();
        let sig: Vec<Type> = items
            .iter()
            .enumerate()
            .map(|(k, (x, _))| {
                if k % 2 == 0 {
                    x.ty()
                } else {
                    ir::tangent::tangent_type(&items[k - 1].0.ty(), &env)
                }
            })
            .collect();
        let dkey = self
            .ad
            .derived_key(&key, ad_transform::Mode::Dual(1), opts, sig);
        let code = self
            .ad
            .dual_rule_with(&mut m.compiler, &dkey, opts, n)
            .map_err(ad_error)?;
        let mut call = Vec::new();
        for (x, ts) in items {
            call.push(x.clone());
            call.extend(ts.iter().cloned());
        }
        // `(y, ẏ)` and its tangent in each lane; `ẏ` and its tangents are the result.
        let out = m.exec(&code, call)?;
        let Value::Tuple(parts) = out else {
            return Err(internal("a forward rule returned no tuple"));
        };
        Ok(Value::tuple(
            parts
                .iter()
                .map(|p| p.field(1).unwrap_or_else(crate::tangent::no_tangent))
                .collect(),
        ))
    }

    /// Forward mode (`n` lanes) of `Core.grad_apply(f, x)`: forward over reverse, the gradient
    /// and its derivative along each lane's tangents. Returns `(ẋ, its tangent per lane)`.
    fn dual_of_grad_apply(
        &self,
        m: &mut Machine,
        n: usize,
        items: &[(Value, Vec<Value>)],
    ) -> Result<Value, RuntimeError> {
        let f = &items[0].0;
        let args: Vec<Value> = items[1..].iter().map(|(x, _)| x.clone()).collect();
        let dirs: Vec<Vec<Value>> = (0..n)
            .map(|l| items.iter().map(|(_, ts)| ts[l].clone()).collect())
            .collect();
        let r = crate::second::hvps_in(m, &self.ad, f, &args, &dirs).map_err(ad_error)?;
        let mut out = vec![r
            .gradient
            .get(1)
            .cloned()
            .unwrap_or_else(crate::tangent::no_tangent)];
        out.extend(
            r.products
                .iter()
                .map(|p| p.get(1).cloned().unwrap_or_else(crate::tangent::no_tangent)),
        );
        Ok(Value::tuple(out))
    }

    /// `Core.dyn_rvs(site, dy, T)`.
    fn dyn_rvs(&self, m: &mut Machine, args: &[Value]) -> Result<Value, RuntimeError> {
        let site = &args[0];
        let n = match &args[2] {
            Value::Type(t) => match &**t {
                Type::Tuple(ts) => ts.len(),
                _ => return Err(internal("dyn_rvs needs a tuple type")),
            },
            _ => return Err(internal("dyn_rvs needs a tuple type")),
        };
        let stack = callee_stack(m, site)?;
        let id = match prim(m, Prim::ArrayPop, &[stack])? {
            Value::Int(APPLY) => return self.dyn_rvs_apply(m, args),
            Value::Int(TRY) => return self.try_rvs(m, args),
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
        let yt = cotangent_type(&rule)?;
        let dy = cotangent_as(&args[1], &yt, &m.compiler.env).ok_or_else(|| {
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
        if vararg {
            let packed = out.pop().unwrap_or_else(crate::tangent::no_rdata);
            let k = n.saturating_sub(out.len());
            match packed {
                Value::Tuple(vs) if vs.len() == k => out.extend(vs.iter().cloned()),
                p if crate::tangent::is_no_rdata(&p) => {
                    out.extend((0..k).map(|_| crate::tangent::no_rdata()))
                }
                _ => {
                    return Err(internal(
                        "a vararg pullback's packed reverse data does not match its call",
                    ))
                }
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

/// Whether any instruction of `f` reads `v`.
fn reads(f: &ir::Function, v: ir::Value) -> bool {
    f.layout.iter().any(|&b| {
        f.blocks[b].insts.iter().any(|&i| {
            let mut found = false;
            f.insts[i].for_each_arg(|a| found |= a == v);
            found
        })
    })
}
