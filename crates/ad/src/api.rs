//! Entry points: derive rules (caching them per method instance), resolve derived callees
//! lazily for the interpreter, and run a rule on values.

use crate::tangent::{fdata, increment, rdata, reset_fdata, tangent_from, zero_tangent};
use ad_transform::rules::Context;
use ad_transform::{derive_reverse, rule_state_type, AdError, DerivedKey, Mode, RuleOptions};
use compiler::{CompileError, Compiler, ErrorKind, MiKey};
use interp::{Machine, Prepared};
use ir::Function;
use runtime::{SharedArray, Value};
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex};
use syntax::{sym, Span, Symbol};

fn err(message: impl Into<String>) -> AdError {
    AdError::new(message, Span::DUMMY)
}

/// A run-time error inside derived code (or a failure to derive a callee's rule, which happens
/// when the call first runs), with the frames it unwound.
pub(crate) fn runtime_error(e: interp::RuntimeError) -> AdError {
    AdError {
        message: e.exception.to_string(),
        span: e.trace.first().map(|f| f.span).unwrap_or(Span::DUMMY),
        trace: e.trace.into_iter().map(|f| (f.func, f.span)).collect(),
        internal: false,
    }
}

/// A derived reverse-mode rule: the forwards pass and the pullback (optimised typed IR).
#[derive(Clone, Debug)]
pub struct Rule {
    pub fwd: Arc<Function>,
    pub rvs: Arc<Function>,
}

#[derive(Default)]
struct Cache {
    /// The names derived functions are invoked by, to the derived function each names.
    names: FxHashMap<Symbol, DerivedKey>,
    /// Rules per (method instance, options).
    rules: FxHashMap<(MiKey, RuleOptions), Rule>,
    /// The rules dynamic calls ran, by id (see `dynamic`), and the id of each.
    dyn_keys: Vec<(MiKey, RuleOptions)>,
    dyn_ids: FxHashMap<(MiKey, RuleOptions), usize>,
    /// Forward rules per (method instance, options, lanes).
    duals: FxHashMap<(MiKey, RuleOptions, usize), Arc<Function>>,
}

/// The AD engine of a session: derived rules shared by all uses (compiled code is shared;
/// state is per use), and the options new rules are derived with.
#[derive(Clone, Default)]
pub struct Ad {
    cache: Arc<Mutex<Cache>>,
    pub opts: RuleOptions,
}

/// The name under which derived code invokes the derived function `key` (the interned
/// symbol is the handle; `names` maps it back to the typed key).
fn name_for(c: &mut Cache, key: DerivedKey) -> Symbol {
    let name = sym(&key.display());
    c.names.insert(name, key);
    name
}

impl Ad {
    pub fn new() -> Ad {
        Ad::default()
    }

    /// Forgets derived rules (after a definition changed).
    pub fn clear(&self) {
        let mut c = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        c.rules.clear();
        c.duals.clear();
    }

    /// The forward-mode rule of a method instance with this engine's options and `width`
    /// lanes (1 ≤ width ≤ `forward::MAX_WIDTH`), derived on first use.
    pub fn dual_rule(
        &self,
        compiler: &mut Compiler,
        key: &MiKey,
        width: usize,
    ) -> Result<Arc<Function>, AdError> {
        self.dual_rule_with(compiler, key, self.opts, width)
    }

    /// The forward-mode rule of a method instance with the given options and lanes.
    pub fn dual_rule_with(
        &self,
        compiler: &mut Compiler,
        key: &MiKey,
        opts: RuleOptions,
        width: usize,
    ) -> Result<Arc<Function>, AdError> {
        if width == 0 || width > ad_transform::MAX_WIDTH {
            return Err(err(format!(
                "forward mode computes 1 to {} lanes at once, not {width}",
                ad_transform::MAX_WIDTH
            )));
        }
        let ckey = (key.clone(), opts, width);
        if let Some(r) = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .duals
            .get(&ckey)
        {
            return Ok(r.clone());
        }
        let internal = AdError::from_compile;
        // A derived function (forward mode over a reverse-mode rule, or over another forward
        // rule) is found by the name it is invoked by.
        let derived = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .names
            .get(&key.table)
            .cloned();
        let primal = match derived {
            Some(d) => self.derived_function(compiler, &d)?,
            None => {
                if let Some(f) = crate::user_rules::forward_rule(compiler, key, opts, width)? {
                    return Ok(self.remember_dual(ckey, f));
                }
                primal_for_ad(compiler, key, opts, false).map_err(internal)?
            }
        };
        let d = {
            let mut c = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            ir::timing::phase("derive", || {
                ad_transform::derive_forward(
                    &primal,
                    &compiler.env,
                    width,
                    &mut |k| name_for(&mut c, k),
                    opts,
                )
            })?
        };
        verify_derived(compiler, &d)?;
        let f = compiler.optimise(d).map_err(internal)?;
        verify_derived(compiler, &f)?;
        Ok(self.remember_dual(ckey, f))
    }

    /// Keeps a forward rule for later requests of the same key.
    fn remember_dual(
        &self,
        ckey: (MiKey, RuleOptions, usize),
        f: ir::Function,
    ) -> Arc<ir::Function> {
        let f = Arc::new(f);
        self.cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .duals
            .insert(ckey, f.clone());
        f
    }

    /// The key under which the derived function `mode` of `key`'s rule (with `opts`) is
    /// invoked; its signature is `sig`.
    pub(crate) fn derived_key(
        &self,
        key: &MiKey,
        mode: Mode,
        opts: RuleOptions,
        sig: Vec<ir::Type>,
    ) -> MiKey {
        let mut c = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        MiKey {
            table: name_for(
                &mut c,
                DerivedKey {
                    primal: key.clone(),
                    mode,
                    opts,
                },
            ),
            method: 0,
            sig: sig.into(),
        }
    }

    /// The id of the rule of `key` for dynamic call sites (ids are small and stable).
    pub(crate) fn dyn_id(&self, key: &MiKey, opts: RuleOptions) -> usize {
        let mut c = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&id) = c.dyn_ids.get(&(key.clone(), opts)) {
            return id;
        }
        let id = c.dyn_keys.len();
        c.dyn_keys.push((key.clone(), opts));
        c.dyn_ids.insert((key.clone(), opts), id);
        id
    }

    pub(crate) fn dyn_key(&self, id: usize) -> Option<(MiKey, RuleOptions)> {
        let c = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        c.dyn_keys.get(id).cloned()
    }

    /// The code of the derived function `key` names (derived on first use), or `None` if
    /// `key` names no derived function: how the interpreter and native code resolve derived
    /// callees (see `Ad::install`).
    pub(crate) fn resolve_derived(
        &self,
        compiler: &mut Compiler,
        key: &MiKey,
    ) -> Option<Result<Arc<Function>, CompileError>> {
        let derived = {
            let c = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            c.names.get(&key.table).cloned()?
        };
        Some(self.derived_function(compiler, &derived).map_err(|e| {
            let kind = if e.internal {
                ErrorKind::Internal
            } else {
                ErrorKind::Inference
            };
            CompileError {
                trace: e.trace,
                ..CompileError::new(kind, e.span, e.message)
            }
        }))
    }

    /// The code of a derived function (derived on first use).
    fn derived_function(
        &self,
        compiler: &mut Compiler,
        d: &DerivedKey,
    ) -> Result<Arc<Function>, AdError> {
        match d.mode {
            Mode::Dual(n) => self.dual_rule_with(compiler, &d.primal, d.opts, n as usize),
            Mode::Forward => self.rule_with(compiler, &d.primal, d.opts).map(|r| r.fwd),
            Mode::Pullback => self.rule_with(compiler, &d.primal, d.opts).map(|r| r.rvs),
        }
    }

    /// The reverse-mode rule of a method instance with this engine's options, derived on first
    /// use.
    pub fn rule(&self, compiler: &mut Compiler, key: &MiKey) -> Result<Rule, AdError> {
        self.rule_with(compiler, key, self.opts)
    }

    /// The reverse-mode rule of a method instance with the given options.
    pub fn rule_with(
        &self,
        compiler: &mut Compiler,
        key: &MiKey,
        opts: RuleOptions,
    ) -> Result<Rule, AdError> {
        if let Some(r) = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .rules
            .get(&(key.clone(), opts))
        {
            return Ok(r.clone());
        }
        let internal = AdError::from_compile;
        if let Some(rule) = crate::user_rules::reverse_rule(compiler, key, opts)? {
            self.cache
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .rules
                .insert((key.clone(), opts), rule.clone());
            return Ok(rule);
        }
        let primal = primal_for_ad(compiler, key, opts, true).map_err(internal)?;
        let d = {
            let mut c = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            ir::timing::phase("derive", || {
                derive_reverse(&primal, &compiler.env, &mut |k| name_for(&mut c, k), opts)
            })?
        };
        // Derived IR is checked as it comes out of the transform, then goes through the same
        // optimiser as user code (which verifies after every pass when verification is on).
        verify_derived(compiler, &d.fwd)?;
        verify_derived(compiler, &d.rvs)?;
        let fwd = compiler.optimise(d.fwd).map_err(internal)?;
        let rvs = compiler.optimise(d.rvs).map_err(internal)?;
        verify_derived(compiler, &fwd)?;
        verify_derived(compiler, &rvs)?;
        let rule = Rule {
            fwd: Arc::new(fwd),
            rvs: Arc::new(rvs),
        };
        self.cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .rules
            .insert((key.clone(), opts), rule.clone());
        Ok(rule)
    }
}

/// With verification on: that derived IR verifies (an internal error otherwise).
fn verify_derived(compiler: &Compiler, f: &Function) -> Result<(), AdError> {
    if compiler.options.verify {
        if let Err(es) = ir::verify(f, &compiler.env) {
            return Err(AdError::internal(
                format!(
                    "derived IR does not verify:\n{}",
                    ir::verify::write_with_errors(f, &es)
                ),
                Span::DUMMY,
            ));
        }
    }
    Ok(())
}

/// The method instance `f(args...)` runs.
pub fn method_instance(m: &Machine, f: &Value, args: &[Value]) -> Result<MiKey, AdError> {
    let table = compiler::typeexpr::callee_table(&f.ty())
        .ok_or_else(|| err(format!("a value of type {} is not callable", f.ty())))?;
    let mut types = vec![f.ty()];
    types.extend(args.iter().map(|a| a.ty()));
    let key = m.compiler.resolve_call(table, &types).map_err(|_| {
        let ts: Vec<String> = args.iter().map(|a| format!("::{}", a.ty())).collect();
        err(format!(
            "MethodError: no method matching {}({})",
            ir::types::function_name(table),
            ts.join(", ")
        ))
    })?;
    check_fixed_arguments(&m.compiler, &key)?;
    Ok(key)
}

/// Differentiating a call from outside the program takes a method with a fixed list of
/// arguments: a method with a splatted parameter (`f(args...)`) is differentiated where the
/// program calls it, not as the outermost call yet.
pub fn check_fixed_arguments(compiler: &Compiler, key: &MiKey) -> Result<(), AdError> {
    match compiler.method(key.table, key.method) {
        Some(m) if m.vararg => Err(err(format!(
            "not supported yet: differentiating a method with a splatted parameter (`{}(args...)`) as the outermost call; differentiate a function with a fixed list of arguments that calls it",
            ir::types::function_name(key.table)
        ))),
        _ => Ok(()),
    }
}

/// Runs `rule` on `f(args...)` with output cotangent `dy` (a tangent of the output; `None`
/// for 1 with a float output). Returns the value and the tangents of `f` and of each argument.
pub fn run_pullback(
    m: &mut Machine,
    rule: &Rule,
    f: &Value,
    args: &[Value],
    dy: Option<Value>,
) -> Result<(Value, Vec<Value>), AdError> {
    run_pullback_in(m, rule, f, args, dy, &new_state())
}

/// As [`run_pullback`] in a given rule state (from [`new_state`]): a prepared cache reuses one,
/// so the block and communication stacks keep their buffers from call to call. A state is
/// left empty by a completed run; after a failed one, use a new state.
pub fn run_pullback_in(
    m: &mut Machine,
    rule: &Rule,
    f: &Value,
    args: &[Value],
    dy: Option<Value>,
    state: &Value,
) -> Result<(Value, Vec<Value>), AdError> {
    let mut all = Vec::with_capacity(args.len() + 1);
    all.push(f.clone());
    all.extend(args.iter().cloned());
    let plan = Plan::new(&all, &m.compiler.env);
    plan.run(m, rule, f, args, dy, state)
}

/// How the gradient of a call is set up and read out, decided once from the argument types
/// (the function first) so that repeated gradients do no type-level work: how each argument's
/// zero fdata is made and how its tangent is assembled from its fdata and rdata.
#[derive(Clone, Debug)]
pub struct Plan {
    types: Vec<ir::Type>,
    zero: Vec<ZeroFdata>,
    assemble: Vec<Assemble>,
}

#[derive(Clone, Debug)]
enum ZeroFdata {
    /// The same value every time (`NoFData`).
    Constant(Value),
    /// A zero-filled array of the primal's element type and dimensions (float arrays).
    Zeros(ir::Type),
    /// Through the general tangent code.
    General,
}

#[derive(Clone, Debug)]
enum Assemble {
    /// The same value every time (`NoTangent`).
    Constant(Value),
    /// The rdata is the tangent (floats).
    Rdata,
    /// The fdata is the tangent (arrays).
    Fdata,
    /// Through the general tangent code.
    General,
}

impl Plan {
    /// The plan for arguments of the types of `all` (the function first).
    pub fn new(all: &[Value], env: &ir::TypeEnv) -> Plan {
        use ir::tangent::{fdata_type, tangent_type};
        use ir::Type;
        let types: Vec<Type> = all.iter().map(|x| x.ty()).collect();
        let zero = types
            .iter()
            .map(|t| match (t, fdata_type(t, env)) {
                (_, Type::NoFData) => ZeroFdata::Constant(fdata(&Value::Nothing, t, env)),
                (Type::Array(e, _), ft)
                    if ft == *t && matches!(**e, Type::Float64 | Type::Float32) =>
                {
                    ZeroFdata::Zeros((**e).clone())
                }
                _ => ZeroFdata::General,
            })
            .collect();
        let assemble = types
            .iter()
            .map(|t| match (t, tangent_type(t, env)) {
                (_, Type::NoTangent) => Assemble::Constant(crate::tangent::no_tangent()),
                (Type::Float64 | Type::Float32, _) => Assemble::Rdata,
                (Type::Array(..), _) => Assemble::Fdata,
                _ => Assemble::General,
            })
            .collect();
        Plan {
            types,
            zero,
            assemble,
        }
    }

    /// Runs `rule` on `f(args...)` (of the plan's types) in rule state `state`, as
    /// [`run_pullback_in`].
    pub fn run(
        &self,
        m: &mut Machine,
        rule: &Rule,
        f: &Value,
        args: &[Value],
        dy: Option<Value>,
        state: &Value,
    ) -> Result<(Value, Vec<Value>), AdError> {
        let mut reuse = Reuse::once(state.clone());
        self.run_reusing(m, rule, f, args, dy, &mut reuse)
    }

    /// As [`Plan::run`], in the rule state of `reuse` and reusing what it kept from the last
    /// run (see [`Reuse`]). On return, `reuse` holds this run's gradient arrays.
    pub fn run_reusing(
        &self,
        m: &mut Machine,
        rule: &Rule,
        f: &Value,
        args: &[Value],
        dy: Option<Value>,
        reuse: &mut Reuse,
    ) -> Result<(Value, Vec<Value>), AdError> {
        let n = self.types.len();
        if args.len() + 1 != n {
            return Err(err(format!(
                "the gradient was planned for {} arguments, got {}",
                n - 1,
                args.len()
            )));
        }
        begin(m);
        // Set up on the first run (and again should `reuse` come from another rule).
        let key = (rule.fwd.id, rule.rvs.id, n);
        if reuse.outs.as_ref().map(|(k, _)| *k) != Some(key) {
            if reuse.prepare {
                reuse.code = (m.prepare_native(&rule.fwd), m.prepare_native(&rule.rvs));
            }
            reuse.outs = Some((key, Outs::new(rule, n)));
            // The constant fdata stay in place from run to run.
            reuse.fwd_args = vec![Value::Nothing; 2 * n + 1];
            for (k, z) in self.zero.iter().enumerate() {
                if let ZeroFdata::Constant(v) = z {
                    reuse.fwd_args[2 * k + 2] = v.clone();
                }
            }
        }
        let Reuse {
            state,
            spare,
            code,
            fwd_args,
            outs,
            ..
        } = reuse;
        let (_, outs) = outs.as_mut().unwrap_or_else(|| unreachable!());
        let env = &m.compiler.env;
        spare.resize(n, None);
        // The forwards pass's arguments: the state (lent to the run and given back), then
        // each argument (the function first) and its zero fdata.
        fwd_args[0] = std::mem::replace(state, Value::Nothing);
        let inputs = Inputs { f, args };
        // An object reached from two arguments (one array passed twice) has one tangent: the
        // pullback adds both arguments' contributions into it, as forward mode does.
        let mut joint = crate::tangent::reaches_an_object_twice(inputs.iter()).then(|| {
            let all: Vec<Value> = inputs.iter().cloned().collect();
            crate::tangent::joint_zero_fdatas(&all, &self.types, env)
        });
        for (k, ((x, z), t)) in inputs.iter().zip(&self.zero).zip(&self.types).enumerate() {
            fwd_args[2 * k + 1] = x.clone();
            if let ZeroFdata::Constant(_) = z {
                continue;
            }
            if let Some(joint) = &mut joint {
                fwd_args[2 * k + 2] = std::mem::replace(&mut joint[k], Value::Nothing);
                continue;
            }
            // The last run's fdata, zeroed, if the caller has dropped what it returned.
            if let Some(g) = spare[k].take().filter(|g| reset_fdata(g, x)) {
                fwd_args[2 * k + 2] = g;
                continue;
            }
            fwd_args[2 * k + 2] = match (z, x) {
                (ZeroFdata::Zeros(e), Value::Array(a)) => {
                    Value::Array(runtime::ArrayObj::zeros_shared(e.clone(), &a.dims()))
                }
                _ => fdata(&zero_tangent(x, env), t, env),
            };
        }
        let code = (code.0.as_ref(), code.1.as_ref());
        let r = forwards_and_back(m, rule, code, fwd_args, dy, outs);
        *state = std::mem::replace(&mut fwd_args[0], Value::Nothing);
        // The arguments are the caller's again (the fdata are taken below).
        for k in 0..n {
            fwd_args[2 * k + 1] = Value::Nothing;
        }
        let y = r?;
        let env = &m.compiler.env;
        let grads = (0..n)
            .map(|k| {
                let fdata = &mut fwd_args[2 * k + 2];
                if !matches!(self.zero[k], ZeroFdata::Constant(_)) {
                    spare[k] = Some(fdata.clone());
                }
                let rd = &mut outs.rvs()[k];
                let g = match &self.assemble[k] {
                    Assemble::Constant(v) => v.clone(),
                    Assemble::Rdata => std::mem::replace(rd, Value::Nothing),
                    Assemble::Fdata => std::mem::replace(fdata, Value::Nothing),
                    Assemble::General => tangent_from(&self.types[k], fdata, rd, env),
                };
                if !matches!(self.zero[k], ZeroFdata::Constant(_)) {
                    *fdata = Value::Nothing;
                }
                g
            })
            .collect();
        outs.clear();
        Ok((y, grads))
    }
}

/// What repeated runs of one rule through [`Plan::run_reusing`] keep (a prepared cache has
/// one): the rule state, whose block and communication stacks keep their buffers (a completed
/// run leaves it empty; after a failed one, make a new `Reuse`); the fdata of the last run
/// (`spare[k]` for argument `k`), whose arrays the gradients it returned share, zeroed and
/// used again when the caller has dropped those and the shapes agree (see
/// [`reset_fdata`]); the native code of the rule's two
/// passes, looked up on the first run; and the passes' argument and result buffers, whose
/// constant entries (the fdata and rdata of singleton types) stay in place.
pub struct Reuse {
    state: Value,
    spare: Vec<Option<Value>>,
    /// Whether to look up the passes' native code on the first run.
    prepare: bool,
    code: (Option<Prepared>, Option<Prepared>),
    fwd_args: Vec<Value>,
    /// Made on the first run, with the rule (its passes' ids) and number of arguments the
    /// buffers and code were set up for.
    outs: Option<((u64, u64, usize), Outs)>,
}

impl Reuse {
    /// Nothing kept yet, in a new rule state.
    pub fn new() -> Reuse {
        Reuse {
            prepare: true,
            ..Reuse::once(new_state())
        }
    }

    /// For a single run in rule state `state`: the passes' code is looked up as any call's
    /// is, not prepared.
    fn once(state: Value) -> Reuse {
        Reuse {
            state,
            spare: Vec::new(),
            prepare: false,
            code: (None, None),
            fwd_args: Vec::new(),
            outs: None,
        }
    }
}

impl Default for Reuse {
    fn default() -> Reuse {
        Reuse::new()
    }
}

/// The result buffers of a rule's two passes (see `Machine::exec_prepared_fields`): the
/// forwards pass's `(y, fdata of y)`, then the pullback's rdata of each argument (the function
/// first). A field of a singleton type holds its one value throughout; the others are
/// `nothing` between runs.
struct Outs {
    vals: Vec<Value>,
    singleton: Vec<bool>,
}

impl Outs {
    /// The buffers for `rule` on `n` arguments (the function included).
    fn new(rule: &Rule, n: usize) -> Outs {
        let fields = |f: &Function, n: usize| -> Vec<Option<Value>> {
            match &f.ret_type {
                ir::Type::Tuple(ts) if ts.len() == n => ts
                    .iter()
                    .map(|t| ir::Const::of_singleton(t).map(|c| Value::from_const(&c)))
                    .collect(),
                _ => vec![None; n],
            }
        };
        let all: Vec<Option<Value>> = fields(&rule.fwd, 2)
            .into_iter()
            .chain(fields(&rule.rvs, n))
            .collect();
        Outs {
            singleton: all.iter().map(Option::is_some).collect(),
            vals: all
                .into_iter()
                .map(|v| v.unwrap_or(Value::Nothing))
                .collect(),
        }
    }

    fn fwd(&mut self) -> &mut [Value] {
        &mut self.vals[..2]
    }

    fn rvs(&mut self) -> &mut [Value] {
        &mut self.vals[2..]
    }

    /// Lets go of this run's results (keeping the singletons).
    fn clear(&mut self) {
        for (v, s) in self.vals.iter_mut().zip(&self.singleton) {
            if !s {
                *v = Value::Nothing;
            }
        }
    }
}

/// The forwards pass's arguments: rule state `state`, then each of `all` (the function first)
/// followed by its fdata.
fn fwd_arguments(state: Value, all: &[Value], fdatas: &[Value]) -> Vec<Value> {
    let mut args = Vec::with_capacity(2 * all.len() + 1);
    args.push(state);
    for (x, fx) in all.iter().zip(fdatas) {
        args.push(x.clone());
        args.push(fx.clone());
    }
    args
}

/// As [`run_pullback`], with the arguments (the function first) and their initial fdata given:
/// the pullback increments that fdata.
pub fn run_pullback_with(
    m: &mut Machine,
    rule: &Rule,
    all: &[Value],
    fdatas: Vec<Value>,
    dy: Option<Value>,
) -> Result<(Value, Vec<Value>), AdError> {
    begin(m);
    pullback_with(m, rule, all, &fdatas, dy)
}

/// [`run_pullback_with`] within the current derivative.
fn pullback_with(
    m: &mut Machine,
    rule: &Rule,
    all: &[Value],
    fdatas: &[Value],
    dy: Option<Value>,
) -> Result<(Value, Vec<Value>), AdError> {
    let mut fwd_args = fwd_arguments(new_state(), all, fdatas);
    let mut outs = Outs::new(rule, all.len());
    let y = forwards_and_back(m, rule, (None, None), &mut fwd_args, dy, &mut outs)?;
    let env = &m.compiler.env;
    let grads = all
        .iter()
        .zip(fdatas)
        .zip(outs.rvs().iter())
        .map(|((x, fx), r)| tangent_from(&x.ty(), fx, r, env))
        .collect();
    Ok((y, grads))
}

/// Starts a top-level derivative: the AD runtime forgets what belonged to the last one (the
/// tangents of globals). AD inside the language (`derivative`, `gradient` called by user code)
/// runs within its caller's derivative and does not call this.
pub(crate) fn begin(m: &Machine) {
    if let Some(r) = &m.ad_runtime {
        r.begin();
    }
}

/// The gradient of `f(args...)` (a float) by reverse mode inside a running derivative (AD
/// inside the language): the tangents of `f` and of each argument.
pub(crate) fn nested_gradient(
    m: &mut Machine,
    ad: &Ad,
    f: &Value,
    args: &[Value],
) -> Result<Vec<Value>, AdError> {
    Ok(nested_pullback(m, ad, f, args, None)?.1)
}

/// The value of `f(args...)` and, by reverse mode inside a running derivative, the tangents of
/// `f` and of each argument for the output's cotangent `dy` (`None`: 1 for a float output).
pub(crate) fn nested_pullback(
    m: &mut Machine,
    ad: &Ad,
    f: &Value,
    args: &[Value],
    dy: Option<Value>,
) -> Result<(Value, Vec<Value>), AdError> {
    let key = method_instance(m, f, args)?;
    let rule = ad.rule(&mut m.compiler, &key)?;
    let mut all = vec![f.clone()];
    all.extend(args.iter().cloned());
    let env = m.compiler.env.clone();
    let types: Vec<ir::Type> = all.iter().map(Value::ty).collect();
    let fdatas = crate::tangent::joint_zero_fdatas(&all, &types, &env);
    pullback_with(m, &rule, &all, &fdatas, dy)
}

/// Runs the forwards pass on `fwd_args` (the rule state, then each argument followed by its
/// fdata; see [`fwd_arguments`]) and the pullback: a copy of the output, with the pullback's
/// rdata in `outs` (see [`Outs`]). `code` is the two passes' native code, if prepared;
/// `fwd_args` is as it was on return (the pullback borrows the state from it).
fn forwards_and_back(
    m: &mut Machine,
    rule: &Rule,
    code: (Option<&Prepared>, Option<&Prepared>),
    fwd_args: &mut [Value],
    dy: Option<Value>,
    outs: &mut Outs,
) -> Result<Value, AdError> {
    m.exec_prepared_fields(&rule.fwd, code.0, fwd_args, outs.fwd())
        .map_err(runtime_error)?;
    let [y, fy] = outs.fwd() else {
        unreachable!("the forwards pass has two results")
    };
    // The pullback restores memory the forwards pass wrote, which can include the output's:
    // the caller gets a copy taken now.
    let y_out = match &*y {
        Value::F64(_) | Value::F32(_) | Value::Int(_) | Value::Bool(_) => y.clone(),
        _ => y.deepcopy(),
    };
    let dy = match dy {
        // The output cotangent's fdata seeds the output's fdata; its rdata enters the pullback.
        Some(t) => {
            let yt = y.ty();
            let env = &m.compiler.env;
            increment(fy, &fdata(&t, &yt, env));
            rdata(&t, &yt, env)
        }
        None => match &*y {
            Value::F64(_) => Value::F64(1.0),
            Value::F32(_) => Value::F32(1.0),
            v => {
                return Err(err(format!(
                    "value_and_gradient needs a function returning a float, but it returned a value of type {}; use value_and_pullback for other outputs",
                    v.ty()
                )))
            }
        },
    };
    let mut rvs_args = [std::mem::replace(&mut fwd_args[0], Value::Nothing), dy];
    let r = m.exec_prepared_fields(&rule.rvs, code.1, &rvs_args, outs.rvs());
    fwd_args[0] = std::mem::replace(&mut rvs_args[0], Value::Nothing);
    r.map_err(runtime_error)?;
    Ok(y_out)
}

/// Runs forward rule `code` (of `lanes.len()` lanes) on `all` (the function first) with
/// `lanes[l][k]` the tangent of `all[k]` in lane `l`. Returns the value and its tangent in each
/// lane.
pub fn run_dual(
    m: &mut Machine,
    code: &Arc<Function>,
    all: &[Value],
    lanes: &[Vec<Value>],
) -> Result<(Value, Vec<Value>), AdError> {
    begin(m);
    let mut args = Vec::with_capacity(all.len() * (lanes.len() + 1));
    for (k, x) in all.iter().enumerate() {
        args.push(x.clone());
        for l in lanes {
            args.push(l[k].clone());
        }
    }
    let out = m.exec(code, args).map_err(runtime_error)?;
    match out {
        Value::Tuple(parts) if parts.len() == lanes.len() + 1 => {
            Ok((parts[0].clone(), parts[1..].to_vec()))
        }
        _ => Err(AdError::internal(
            "a forward rule returned no tuple",
            Span::DUMMY,
        )),
    }
}

/// Stores the output tangents `ts` of one forward pass (lane `l` seeded with input direction
/// `start + l`) as partials `grads[start + l]`, lanes past the last direction ignored; an
/// output `y` that is not a float is an error of `what`.
fn store_partials(
    grads: &mut [f64],
    start: usize,
    ts: &[Value],
    y: &Value,
    what: &str,
) -> Result<(), AdError> {
    for (g, t) in grads.iter_mut().skip(start).zip(ts) {
        *g = match t {
            Value::F64(d) => *d,
            Value::F32(d) => *d as f64,
            _ => {
                return Err(err(format!(
                    "{what} needs a function returning a float, but it returned a value of type {}",
                    y.ty()
                )))
            }
        };
    }
    Ok(())
}

/// Forward mode: `(f(args...), ḟ(args...))` for the tangents given with each argument (the
/// function's own tangent is zero).
pub fn value_and_derivative(
    m: &mut Machine,
    ad: &Ad,
    f: &Value,
    args: &[(Value, Value)],
) -> Result<(Value, Value), AdError> {
    let xs: Vec<Value> = args.iter().map(|(x, _)| x.clone()).collect();
    let key = method_instance(m, f, &xs)?;
    let code = ad.dual_rule(&mut m.compiler, &key, 1)?;
    let mut all = vec![f.clone()];
    all.extend(xs);
    let mut lane = vec![zero_tangent(f, &m.compiler.env)];
    lane.extend(args.iter().map(|(_, t)| t.clone()));
    let (y, mut ts) = run_dual(m, &code, &all, &[lane])?;
    Ok((y, ts.pop().unwrap_or_else(crate::tangent::no_tangent)))
}

/// Forward mode's gradient of a function returning a float: one pass per `width` input
/// directions (chunks of N-lane duals, `width` ≤ `forward::MAX_WIDTH`), each on a fresh copy
/// of the arguments (so a function that mutates its arguments sees the same inputs in every
/// pass). Returns the value and the tangents of `f` and of each argument, like
/// [`value_and_gradient`].
pub fn value_and_gradient_forward(
    m: &mut Machine,
    ad: &Ad,
    f: &Value,
    args: &[Value],
    width: usize,
) -> Result<(Value, Vec<Value>), AdError> {
    let key = method_instance(m, f, args)?;
    let n = width
        .clamp(1, ad_transform::MAX_WIDTH)
        .min(input_directions(f, args, &m.compiler.env).max(1));
    let code = ad.dual_rule(&mut m.compiler, &key, n)?;
    gradient_by_lanes(m, &code, n, f, args, &mut LaneReuse::default())
}

/// The number of input directions of `f(args...)`: the float entries of a tangent of the
/// function and its arguments together (an object reached twice counted once).
pub fn input_directions(f: &Value, args: &[Value], env: &ir::TypeEnv) -> usize {
    let mut all = vec![f.clone()];
    all.extend(args.iter().cloned());
    let mut dofs = 0usize;
    crate::tangent::tangent_with(&Value::tuple(all), env, &mut || {
        dofs += 1;
        0.0
    });
    dofs
}

/// What a prepared forward-mode gradient reuses from call to call: its forward rule's native
/// code, and the rule's arguments — the copies of the argument arrays each pass runs on and
/// the lanes' unit tangents, refilled in place when nothing else holds them — and results.
#[derive(Default)]
pub struct LaneReuse {
    /// Whether to look up the rule's native code on the first run.
    prepare: bool,
    code: Option<(u64, Option<Prepared>)>,
    args: Vec<Value>,
    out: Vec<Value>,
    /// The partials of the passes so far, one per input direction.
    grads: Vec<f64>,
    /// A unit tangent's entries (for inputs other than floats and arrays).
    unit: Vec<f64>,
    /// Where the inputs' tangent entries lie among the input directions.
    flat: FlatInputs,
}

impl LaneReuse {
    /// Nothing kept yet; the rule's native code is prepared on the first run.
    pub fn new() -> LaneReuse {
        LaneReuse {
            prepare: true,
            ..LaneReuse::default()
        }
    }

    /// Looks up the rule's native code on the first run of `code` (see [`LaneReuse::prepared`]).
    fn prepare(&mut self, m: &mut Machine, code: &Function) {
        if self.prepare && self.code.as_ref().is_none_or(|(id, _)| *id != code.id) {
            self.code = Some((code.id, m.prepare_native(code)));
        }
    }

    /// The rule's prepared native code, if looked up.
    fn prepared(code: &Option<(u64, Option<Prepared>)>) -> Option<&Prepared> {
        code.as_ref().and_then(|(_, p)| p.as_ref())
    }
}

/// Puts into `slot` a float array of shape `dims` filled by `fill`: the array already there,
/// refilled in place, when nothing else holds it and it has that shape; else a new one.
fn refill(slot: &mut Value, dims: &[usize], fill: impl Fn(&mut [f64])) {
    if let Value::Array(a) = slot {
        if SharedArray::count(a) == 1 && a.overwrite_f64(dims, &fill) {
            return;
        }
    }
    let mut v = vec![0.0; dims.iter().product()];
    fill(&mut v);
    *slot = Value::Array(SharedArray::new(runtime::ArrayObj::new(
        ir::Type::Float64,
        runtime::value::Dims::from_slice(dims),
        runtime::ArrayData::F64(v),
    )));
}

/// As [`value_and_gradient_forward`] with the forward rule `code` of `n` lanes given, keeping
/// what can be reused in `reuse`.
pub fn gradient_by_lanes(
    m: &mut Machine,
    code: &Arc<Function>,
    n: usize,
    f: &Value,
    args: &[Value],
    reuse: &mut LaneReuse,
) -> Result<(Value, Vec<Value>), AdError> {
    let inputs = Inputs { f, args };
    let mut flat = std::mem::take(&mut reuse.flat);
    if flat.describe(inputs, &m.compiler.env) {
        let r = flat.gradient(m, code, n, inputs, reuse);
        reuse.flat = flat;
        return r;
    }
    let mut all = vec![f.clone()];
    all.extend(args.iter().cloned());
    let whole = Value::tuple(all.clone());
    let dofs = input_directions(f, args, &m.compiler.env);
    let split = |t: &Value| -> Vec<Value> {
        (0..all.len())
            .map(|k| t.field(k).unwrap_or_else(crate::tangent::no_tangent))
            .collect()
    };
    let mut grads = vec![0.0; dofs];
    let mut value = None;
    let mut start = 0;
    loop {
        let inputs = whole.deepcopy();
        let xs = split(&inputs);
        let lanes: Vec<Vec<Value>> = (0..n)
            .map(|l| {
                let mut c = 0usize;
                let t = crate::tangent::tangent_with(&inputs, &m.compiler.env, &mut || {
                    c += 1;
                    if c == start + l + 1 {
                        1.0
                    } else {
                        0.0
                    }
                });
                split(&t)
            })
            .collect();
        let (y, ts) = run_dual(m, code, &xs, &lanes)?;
        store_partials(&mut grads, start, &ts, &y, "a forward-mode gradient")?;
        value.get_or_insert(y);
        start += n;
        if start >= dofs {
            break;
        }
    }
    let mut c = 0usize;
    let g = crate::tangent::tangent_with(&whole, &m.compiler.env, &mut || {
        c += 1;
        grads[c - 1]
    });
    let y = value.unwrap_or(Value::Nothing);
    if !matches!(y, Value::F64(_) | Value::F32(_)) {
        return Err(err(format!(
            "value_and_gradient needs a function returning a float, but it returned a value of type {}",
            y.ty()
        )));
    }
    Ok((y, split(&g)))
}

/// A differentiated call's inputs, the function first, without collecting them.
#[derive(Clone, Copy)]
struct Inputs<'a> {
    f: &'a Value,
    args: &'a [Value],
}

impl<'a> Inputs<'a> {
    fn iter(self) -> impl Iterator<Item = &'a Value> {
        std::iter::once(self.f).chain(self.args)
    }
}

/// The common shape of a forward-mode gradient's inputs: each is a float, a `Float64` array,
/// an immutable struct of such values (a model's parameters) with its fields of their declared
/// types, or has no tangent, and no array is reached twice. Its lanes' unit tangents and the
/// gradient are built directly, without the general tangent code.
#[derive(Default)]
struct FlatInputs {
    parts: Vec<Flat>,
    dofs: usize,
}

/// Where an input's tangent entries lie among the input directions.
enum Flat {
    /// No tangent.
    None,
    /// A float: one direction, at this offset.
    Float(usize),
    /// A `Float64` array: a direction per element, from this offset.
    Array(usize),
    /// An immutable struct: a `Tangent{P}` (this type) of its fields' tangents.
    Struct(ir::Type, Vec<Flat>),
}

impl Flat {
    /// The layout of `x`'s tangent, its directions numbered from `*dofs` on; `None` if `x`
    /// is not of a flat shape.
    fn of(
        x: &Value,
        env: &ir::TypeEnv,
        dofs: &mut usize,
        arrays: &mut smallvec::SmallVec<[usize; 4]>,
    ) -> Option<Flat> {
        Some(match x {
            Value::F64(_) => {
                *dofs += 1;
                Flat::Float(*dofs - 1)
            }
            Value::Array(a) if a.elem == ir::Type::Float64 => {
                let p = SharedArray::as_ptr(a) as usize;
                if arrays.contains(&p) {
                    return None;
                }
                arrays.push(p);
                *dofs += a.len();
                Flat::Array(*dofs - a.len())
            }
            // A generic function, an integer, a Boolean, `nothing`: no tangent.
            Value::Func(_) | Value::Int(_) | Value::Bool(_) | Value::Nothing => Flat::None,
            x => {
                let t = x.ty();
                let tt = ir::tangent::tangent_type(&t, env);
                if tt == ir::Type::NoTangent {
                    return Some(Flat::None);
                }
                let Value::Struct(s) = x else {
                    return None;
                };
                let declared = env.field_types(&t)?;
                if declared.len() != s.fields.len()
                    || declared
                        .iter()
                        .zip(s.fields.iter())
                        .any(|(d, v)| *d != v.ty())
                {
                    return None;
                }
                let fields = s
                    .fields
                    .iter()
                    .map(|v| Flat::of(v, env, dofs, arrays))
                    .collect::<Option<Vec<_>>>()?;
                Flat::Struct(tt, fields)
            }
        })
    }

    /// The tangent of `x` whose entries are `entries[k]` for direction `k`.
    fn tangent(&self, x: &Value, entries: &[f64]) -> Value {
        match (self, x) {
            (Flat::Float(off), _) => Value::F64(entries[*off]),
            (Flat::Array(off), Value::Array(a)) => {
                Value::Array(SharedArray::new(runtime::ArrayObj::new(
                    ir::Type::Float64,
                    a.dims(),
                    runtime::ArrayData::F64(entries[*off..*off + a.len()].to_vec()),
                )))
            }
            (Flat::Struct(tt, fields), Value::Struct(s)) => {
                Value::Struct(Arc::new(runtime::value::StructVal {
                    ty: tt.clone(),
                    fields: fields
                        .iter()
                        .zip(s.fields.iter())
                        .map(|(f, v)| f.tangent(v, entries))
                        .collect(),
                }))
            }
            _ => crate::tangent::no_tangent(),
        }
    }
}

impl FlatInputs {
    /// Describes `inputs` in place (keeping the allocation of an earlier description);
    /// false if they are not of a flat shape.
    fn describe(&mut self, inputs: Inputs, env: &ir::TypeEnv) -> bool {
        self.parts.clear();
        self.dofs = 0;
        let mut arrays = smallvec::SmallVec::new();
        for x in inputs.iter() {
            match Flat::of(x, env, &mut self.dofs, &mut arrays) {
                Some(p) => self.parts.push(p),
                None => return false,
            }
        }
        true
    }

    /// Runs the passes: each on fresh values of the argument arrays (the function may write
    /// its arguments) with the lanes' unit tangents, the rule's arguments laid out as
    /// [`run_dual`] lays them.
    fn gradient(
        &self,
        m: &mut Machine,
        code: &Arc<Function>,
        n: usize,
        inputs: Inputs,
        reuse: &mut LaneReuse,
    ) -> Result<(Value, Vec<Value>), AdError> {
        // The partials, one per input direction, filled in pass by pass.
        reuse.grads.clear();
        reuse.grads.resize(self.dofs, 0.0);
        let mut value = None;
        let mut start = 0;
        reuse.prepare(m, code);
        let LaneReuse {
            code: native,
            args,
            out,
            grads,
            unit,
            ..
        } = reuse;
        // The rule's arguments: each input, then its tangent in each lane.
        let width = self.parts.len() * (n + 1);
        if args.len() != width {
            *args = vec![Value::Nothing; width];
        }
        loop {
            for (k, (x, p)) in inputs.iter().zip(&self.parts).enumerate() {
                let at = k * (n + 1);
                let lane = |l: usize| at + 1 + l;
                match (p, x) {
                    (Flat::Array(off), Value::Array(a)) => {
                        let dims = a.dims();
                        let len: usize = dims.iter().product();
                        refill(&mut args[at], &dims, |v| {
                            a.with(|d| {
                                if let runtime::ArrayData::F64(src) = &d.data {
                                    v.copy_from_slice(src)
                                }
                            })
                        });
                        for l in 0..n {
                            let hot = (start + l).checked_sub(*off).filter(|i| *i < len);
                            refill(&mut args[lane(l)], &dims, |v| {
                                v.fill(0.0);
                                if let Some(i) = hot {
                                    v[i] = 1.0;
                                }
                            });
                        }
                    }
                    (Flat::None, _) => {
                        args[at] = x.clone();
                        for l in 0..n {
                            let t = &mut args[lane(l)];
                            if !crate::tangent::is_no_tangent(t) {
                                *t = crate::tangent::no_tangent();
                            }
                        }
                    }
                    _ => {
                        args[at] = match p {
                            Flat::Struct(..) => x.deepcopy(),
                            _ => x.clone(),
                        };
                        // All zeros but for the lane's direction while its tangent is built.
                        unit.resize(self.dofs, 0.0);
                        for l in 0..n {
                            let j = start + l;
                            if let Some(e) = unit.get_mut(j) {
                                *e = 1.0;
                            }
                            args[lane(l)] = p.tangent(x, unit);
                            if let Some(e) = unit.get_mut(j) {
                                *e = 0.0;
                            }
                        }
                    }
                }
            }
            begin(m);
            if out.len() != n + 1 {
                *out = vec![Value::Nothing; n + 1];
            }
            m.exec_prepared_fields(code, LaneReuse::prepared(native), args, out)
                .map_err(runtime_error)?;
            let y = std::mem::replace(&mut out[0], Value::Nothing);
            store_partials(grads, start, &out[1..], &y, "value_and_gradient")?;
            value.get_or_insert(y);
            start += n;
            if start >= self.dofs {
                break;
            }
        }
        let g = inputs
            .iter()
            .zip(&self.parts)
            .map(|(x, p)| p.tangent(x, grads))
            .collect();
        let y = value.unwrap_or(Value::Nothing);
        if !matches!(y, Value::F64(_) | Value::F32(_)) {
            return Err(err(format!(
                "value_and_gradient needs a function returning a float, but it returned a value of type {}",
                y.ty()
            )));
        }
        Ok((y, g))
    }
}

/// `(f(args...), (∂f, ∂args...))` for a function returning a float.
pub fn value_and_gradient(
    m: &mut Machine,
    ad: &Ad,
    f: &Value,
    args: &[Value],
) -> Result<(Value, Vec<Value>), AdError> {
    let key = method_instance(m, f, args)?;
    let rule = ad.rule(&mut m.compiler, &key)?;
    run_pullback(m, &rule, f, args, None)
}

/// `(f(args...), (∂f, ∂args...))` for an output cotangent `dy` (a tangent of the output).
pub fn value_and_pullback(
    m: &mut Machine,
    ad: &Ad,
    f: &Value,
    dy: &Value,
    args: &[Value],
) -> Result<(Value, Vec<Value>), AdError> {
    let key = method_instance(m, f, args)?;
    let rule = ad.rule(&mut m.compiler, &key)?;
    run_pullback(m, &rule, f, args, Some(dy.clone()))
}

/// A fresh state for a derived rule (its stacks and child states are created when first used).
pub fn new_state() -> runtime::Value {
    runtime::prims::new_rule_state(&rule_state_type())
}

/// Which rules of a prelude function [`AD_DEFINITIONS`] derives from its counterpart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DerivedFrom {
    /// Rules that run threaded loops' shares one after another (`RuleOptions::serial_threads`:
    /// forward mode, and reverse-mode rules that are differentiated again).
    SerialThreads,
    /// Reverse-mode rules of the default context.
    DefaultReverse,
}

/// Prelude functions some of whose rules are derived from another definition of the same
/// computation, for the same argument types:
/// - `_threads_for` (a threaded loop), in forward mode and second order, from
///   `_threads_for_ad`, which runs the shares one after another (each with its thread id):
///   deterministic and race-free. (First-order reverse mode differentiates the loop itself: the
///   AD runtime runs the shares' forwards passes and pullbacks on the threads.)
/// - `_mapsum_fresh(f, a)` (the sum of `f` over a big float array, a fold in the primal), in
///   reverse mode's default context, from `_mapsum_ad`, which broadcasts `f` into a new array
///   and sums it in the same order (the same value): the broadcast's rule
///   (`rules::BroadcastRule`) computes the elements' partial derivatives in its loop, and
///   nothing per element is saved.
///
/// Calls of these functions are never inlined (the session tells the compiler), so the
/// transform sees them.
pub const AD_DEFINITIONS: &[(&str, &str, DerivedFrom)] = &[
    (
        "_threads_for",
        "_threads_for_ad",
        DerivedFrom::SerialThreads,
    ),
    ("_mapsum_fresh", "_mapsum_ad", DerivedFrom::DefaultReverse),
];

/// The primal code AD derives a method instance's rules from (`reverse`: a reverse-mode rule,
/// else forward mode's): the instance's own optimised code, or that of its `AD_DEFINITIONS`
/// counterpart for the same argument types where the options call for it (with the function
/// parameter typed as the instance's, so callers see no difference).
fn primal_for_ad(
    compiler: &mut Compiler,
    key: &MiKey,
    opts: RuleOptions,
    reverse: bool,
) -> Result<Arc<Function>, CompileError> {
    let counterpart = AD_DEFINITIONS.iter().find(|(f, _, when)| {
        key.table.as_str() == *f
            && match when {
                DerivedFrom::SerialThreads => opts.serial_threads,
                // (Where `f` carries a derivative, the broadcast has no rule: the fold's own
                // derivative is then the faster.)
                DerivedFrom::DefaultReverse => {
                    reverse
                        && opts.context == Context::Default
                        && key.sig.get(1).is_some_and(|f| {
                            ir::tangent::tangent_type(f, &compiler.env) == ir::Type::NoTangent
                        })
                }
            }
    });
    let Some((_, with, _)) = counterpart else {
        // A method only differentiation sees (`@mooncake_overlay`).
        if let Some(okey) = compiler.overlay(key) {
            return compiler.optimised(&okey);
        }
        return compiler.optimised(key);
    };
    let with = sym(with);
    let mut sig = key.sig.to_vec();
    sig[0] = ir::Type::Function(with);
    let okey = compiler.resolve_call(with, &sig).map_err(|_| {
        CompileError::new(
            ErrorKind::Internal,
            Span::default(),
            format!("no method `{with}` for {}", key.display()),
        )
    })?;
    let code = compiler.optimised(&okey)?;
    let mut f = (*code).clone();
    if let Some(&p) = f.params().first() {
        f.types[p] = key.sig[0].clone();
    }
    Ok(Arc::new(f))
}
