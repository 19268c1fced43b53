//! The reference interpreter of typed IR. It executes optimised method instances, resolving
//! dynamic calls at run time through the compiler's method tables, and reports errors as
//! Julia raises them with a backtrace of source spans.

use compiler::{Compiler, Dispatch, MiKey};
use ir::{Callee, FieldRef, Function, InstData, Prim, Type, Value as V};
use runtime::value::{MutableVal, NamedTupleVal, StructVal};
use runtime::{eval_prim, Exception, Value};
use rustc_hash::FxHashMap;
use std::io::Write;
use std::sync::Arc;
use syntax::{Span, Symbol};

/// One frame of a backtrace: the function (method instance) and the span executing in it.
#[derive(Debug, Clone)]
pub struct Frame {
    pub func: String,
    pub span: Span,
}

/// A run-time error: the exception and the frames it unwound, innermost first.
#[derive(Debug, Clone)]
pub struct RuntimeError {
    pub exception: Exception,
    pub trace: Vec<Frame>,
}

impl RuntimeError {
    pub fn new(exception: Exception) -> RuntimeError {
        RuntimeError {
            exception,
            trace: vec![],
        }
    }
}

impl From<compiler::CompileError> for RuntimeError {
    fn from(e: compiler::CompileError) -> RuntimeError {
        RuntimeError {
            exception: Exception::Error(e.message.clone()),
            trace: if e.trace.is_empty() {
                vec![Frame {
                    func: String::new(),
                    span: e.span,
                }]
            } else {
                e.trace
                    .into_iter()
                    .map(|(func, span)| Frame { func, span })
                    .collect()
            },
        }
    }
}

thread_local! {
    /// The errors the running `catch` blocks caught, innermost last (what `rethrow()`
    /// raises again).
    static CAUGHT: std::cell::RefCell<Vec<RuntimeError>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The error the innermost running `catch` block caught, with its backtrace, or Julia's error
/// for a `rethrow()` outside any.
fn rethrown() -> RuntimeError {
    CAUGHT
        .with(|c| c.borrow().last().cloned())
        .unwrap_or_else(|| {
            RuntimeError::new(Exception::Error(
                "rethrow() not allowed outside a catch block".into(),
            ))
        })
}

/// Maximum depth of nested calls before a `StackOverflowError`.
pub const MAX_DEPTH: usize = 100_000;

/// How deeply dispatch looks into the types of tuple arguments.
const DISPATCH_DEPTH: usize = 10;

/// Supplies code for method-instance keys the compiler's tables do not know (derived AD
/// functions): `None` if the key is not its.
pub type Resolver = Box<
    dyn FnMut(&MiKey, &mut Compiler) -> Option<Result<Arc<Function>, compiler::CompileError>>
        + Send,
>;

/// The name of a builtin that `call_dynamic` handles itself (they have no method table), if
/// `f` is one; compared by symbol, since a dynamic call checks this every time.
pub fn builtin(f: &Value) -> Option<&'static str> {
    const NAMES: [&str; 10] = [
        "#return_type",
        "#apply",
        "#kw_has",
        "#kw_extra",
        "#nt_merge",
        "#nt_drop",
        "#nt_like",
        "#kw_error",
        "#typeassert",
        "#new",
    ];
    static SYMS: std::sync::OnceLock<[Symbol; 10]> = std::sync::OnceLock::new();
    let Value::Func(name) = f else {
        return None;
    };
    let syms = SYMS.get_or_init(|| NAMES.map(syntax::sym));
    syms.iter().position(|s| s == name).map(|k| NAMES[k])
}

/// Native code for finished functions (the JIT crate provides it): `exec` runs `f` on `args`
/// natively, or returns `None` to leave it to the interpreter.
pub trait Native: Send + Sync {
    fn exec(
        &self,
        m: &mut Machine,
        f: &Function,
        args: &[Value],
    ) -> Option<Result<Value, RuntimeError>>;
    /// `f`'s native code (compiled now if it is not yet), to be called repeatedly without
    /// looking it up; `None` when `f` runs in the interpreter.
    fn prepare(&self, m: &mut Machine, f: &Function) -> Option<Arc<dyn NativeCode>>;
    /// Forgets what native call sites resolved to (a definition changed): their next call
    /// resolves its callee again.
    fn forget_call_sites(&self) {}
}

/// The native code of one function, as [`Native::prepare`] gives it.
pub trait NativeCode: Send + Sync {
    /// Runs the function on `args` (one per parameter of its entry block).
    fn call(&self, m: &mut Machine, args: &[Value]) -> Result<Value, RuntimeError>;
    /// The address of the code's entry, if other native code may call it directly (with the
    /// same context, its arguments as an array of values and one initialised result slot).
    /// `None` unless the code reads `nargs` arguments and its result fits a caller that
    /// expects one of type `ret`.
    fn direct_entry(&self, nargs: usize, ret: &ir::Type) -> Option<usize> {
        let _ = (nargs, ret);
        None
    }
    /// As `call`, on a thread of a threaded loop, with the machine lent to the loop's threads.
    fn call_in_thread(&self, shared: &SharedMachine, args: &[Value])
        -> Result<Value, RuntimeError>;
    /// As `call` for a function returning a tuple of `out.len()` fields: the fields go into
    /// `out`. Fields of singleton types may be left as they are: the caller sets them to
    /// their one value beforehand, or does not read them.
    fn call_fields(
        &self,
        m: &mut Machine,
        args: &[Value],
        out: &mut [Value],
    ) -> Result<(), RuntimeError> {
        let r = self.call(m, args)?;
        unpack_into(&r, out)
    }
}

/// Whether a call made directly by native code at call depth `depth` may go ahead: the
/// nesting limit is not near and the thread's stack has room (else the call goes the long
/// way, which grows the stack or raises `StackOverflowError`).
pub fn direct_call_fits(depth: usize) -> bool {
    depth + 1 < MAX_DEPTH && stacker::remaining_stack().is_some_and(|r| r >= 1 << 20)
}

/// One share of a threaded loop (see [`Machine::run_shares`]): its thread id, its random
/// number generator and the arguments of its call.
pub struct Share {
    pub tid: i64,
    pub rng: Option<Value>,
    pub args: Vec<Value>,
}

impl Share {
    /// Share `c` of a loop whose shares' generators are `rngs` (a vector, share `t`'s at
    /// `t`), called on `args`.
    pub fn new(c: &runtime::threads::Chunk, rngs: &Value, args: Vec<Value>) -> Share {
        Share {
            tid: c.tid,
            rng: match rngs {
                Value::Array(a) => a.get((c.tid - 1) as usize),
                _ => None,
            },
            args,
        }
    }
}

/// A machine lent to the threads of a threaded loop while the thread that owns it waits for
/// them. Native code running on those threads reaches the machine only through
/// [`SharedMachine::lock`] (for its slow paths: evaluated instructions, compiling a callee,
/// printing), so one thread at a time uses it; its fast paths (arithmetic, array access,
/// allocation, direct calls) run in parallel and read the type environment through
/// [`SharedMachine::env`], a snapshot no thread changes.
pub struct SharedMachine {
    machine: *mut Machine,
    lock: std::sync::Mutex<()>,
    env: Arc<ir::TypeEnv>,
    ad: Option<Arc<dyn AdRuntime>>,
}

// SAFETY: the machine behind the pointer is only reached with `lock` held (see
// `SharedMachine::lock`), while the thread that lent it waits without touching it (it is
// lent for the duration of one `Machine::threads_run`, which does not use it meanwhile); the
// environment is an immutable shared snapshot.
unsafe impl Send for SharedMachine {}
// SAFETY: as for `Send`.
unsafe impl Sync for SharedMachine {}

/// A threaded loop's shares as the threads running them see them: the native code they run,
/// the machine lent to them, and a place for each share's result.
struct ShareJob {
    code: Arc<dyn NativeCode>,
    machine: SharedMachine,
    shares: Vec<Share>,
    results: Vec<std::sync::OnceLock<Result<Value, RuntimeError>>>,
}

impl ShareJob {
    /// Runs share `k` as that share of the loop (its thread id and generator).
    fn run(&self, k: usize) {
        let sh = &self.shares[k];
        let _chunk = runtime::threads::enter_chunk(sh.tid, sh.rng.clone());
        let _ = self.results[k].set(self.code.call_in_thread(&self.machine, &sh.args));
    }
}

impl SharedMachine {
    /// The lock to hold while using the machine at [`SharedMachine::machine`].
    pub fn lock(&self) -> &std::sync::Mutex<()> {
        &self.lock
    }

    /// The lent machine: to be used only with [`SharedMachine::lock`] held.
    pub fn machine(&self) -> *mut Machine {
        self.machine
    }

    /// The type environment, readable without the lock.
    pub fn env(&self) -> &ir::TypeEnv {
        &self.env
    }

    /// The machine's AD runtime, usable without the lock (for `AdRuntime::eval_on_values`).
    pub fn ad_runtime(&self) -> Option<&(dyn AdRuntime + 'static)> {
        self.ad.as_deref()
    }
}

/// The fields of tuple `t` into `out` (one per field).
pub fn unpack_into(t: &Value, out: &mut [Value]) -> Result<(), RuntimeError> {
    match t {
        Value::Tuple(parts) if parts.len() == out.len() => {
            out.clone_from_slice(parts);
            Ok(())
        }
        _ => Err(RuntimeError::new(Exception::Internal(format!(
            "a tuple of {} fields expected, got a value of type {}",
            out.len(),
            t.ty()
        )))),
    }
}

/// A function's native code looked up once, for [`Machine::exec_prepared_fields`]: a prepared
/// gradient calls the same two functions every time.
#[derive(Clone)]
pub struct Prepared {
    /// The function's id and number of parameters, checked on every call.
    id: u64,
    arity: usize,
    /// The address of the backend that made it: a machine with another backend (another
    /// session) looks the function up its own way.
    backend: usize,
    code: Arc<dyn NativeCode>,
}

/// The identity of a native backend, for [`Prepared::backend`].
fn backend_id(n: &Arc<dyn Native>) -> usize {
    Arc::as_ptr(n) as *const () as usize
}

/// The run time of reverse mode for values whose tangent is only known at run time (the AD
/// crate provides it): evaluates the primitives of `Prim::is_ad_runtime`.
pub trait AdRuntime: Send + Sync {
    fn eval(&self, m: &mut Machine, op: Prim, args: &[Value]) -> Result<Value, RuntimeError>;
    /// A primitive of `Prim::ad_runtime_on_values` evaluated without the machine (by native
    /// code, also on a threaded loop's threads); `None` for the others.
    fn eval_on_values(
        &self,
        op: Prim,
        args: &[Value],
        env: &ir::TypeEnv,
    ) -> Option<Result<Value, RuntimeError>>;
    /// Called before each gradient's forwards pass: forgets what belonged to the last one (the
    /// tangents of globals).
    fn begin(&self) {}
    /// What the AD runtime noticed that a user may want to know (loops it could not
    /// differentiate in parallel, and why), each once.
    fn notices(&self) -> Vec<String> {
        Vec::new()
    }
}

#[derive(Clone)]
struct DynEntry {
    key: MiKey,
    pack: Option<usize>,
    code: Option<Arc<Function>>,
}

/// The machine: compiler, global variables and the output sink.
pub struct Machine {
    pub compiler: Compiler,
    pub globals: FxHashMap<Symbol, Value>,
    pub out: Box<dyn Write + Send>,
    /// Standard error: what the program writes to `stderr` (and warnings).
    pub err: Box<dyn Write + Send>,
    depth: usize,
    /// Remaining block executions before the run stops with an error (`None`: unlimited).
    pub fuel: Option<u64>,
    /// Code for keys outside the method tables (installed by the AD layer).
    pub resolver: Option<Resolver>,
    /// The native backend, if any: finished functions (`id != 0`) run through it unless the
    /// run has a fuel limit (which only the interpreter counts).
    pub native: Option<Arc<dyn Native>>,
    /// The AD runtime, if installed.
    pub ad_runtime: Option<Arc<dyn AdRuntime>>,
    code: FxHashMap<MiKey, Arc<Function>>,
    /// Callee of each `invoke` site of finished code, keyed by (function id, instruction).
    sites: FxHashMap<(u64, u32), Arc<Function>>,
    /// Dynamic dispatch: per (function table, argument types) the method instance, the number
    /// of fixed arguments of a vararg method, and its code once run.
    dyn_cache: FxHashMap<(Symbol, Vec<Type>), DynEntry>,
}

impl Machine {
    pub fn new(compiler: Compiler, out: Box<dyn Write + Send>) -> Machine {
        Machine {
            compiler,
            globals: FxHashMap::default(),
            out,
            err: Box::new(std::io::stderr()),
            depth: 0,
            fuel: None,
            resolver: None,
            native: None,
            ad_runtime: None,
            code: FxHashMap::default(),
            sites: FxHashMap::default(),
            dyn_cache: FxHashMap::default(),
        }
    }

    /// Forgets compiled code (after a definition changed).
    pub fn invalidate(&mut self) {
        self.code.clear();
        self.sites.clear();
        self.dyn_cache.clear();
        if let Some(n) = &self.native {
            n.forget_call_sites();
        }
    }

    /// The native code that the static call `i` of `f` runs, resolved (and compiled) now, for
    /// native code that calls it directly from then on; `None` if the call is not that stable
    /// (a function without an id, a fuel limit) or its callee runs in the interpreter.
    pub fn call_site_code(&mut self, f: &Function, i: ir::Inst) -> Option<Arc<dyn NativeCode>> {
        let InstData::Invoke { callee, .. } = &f.insts[i] else {
            return None;
        };
        if f.id == 0 || self.fuel.is_some() {
            return None;
        }
        let code = self.site_callee(f, i, callee).ok()?;
        if code.id == 0 {
            return None;
        }
        let n = self.native.clone()?;
        n.prepare(self, &code)
    }

    /// The function static call `i` of `f` runs (remembered per call site of a function with
    /// an id).
    fn site_callee(
        &mut self,
        f: &Function,
        i: ir::Inst,
        callee: &ir::Callee,
    ) -> Result<Arc<Function>, RuntimeError> {
        if let Some(c) = self.sites.get(&(f.id, i.as_u32())).filter(|_| f.id != 0) {
            return Ok(c.clone());
        }
        let c = self.code_for(&callee_key(callee))?;
        if f.id != 0 {
            self.sites.insert((f.id, i.as_u32()), c.clone());
        }
        Ok(c)
    }

    /// Enters a call made directly by native code, as [`Machine::exec`] would: `false` (and
    /// nothing entered) when the call must go the long way instead, because the nesting limit
    /// is near or the stack needs to grow.
    pub fn enter_direct_call(&mut self) -> bool {
        if !direct_call_fits(self.depth) {
            return false;
        }
        self.depth += 1;
        true
    }

    /// Leaves a call entered by [`Machine::enter_direct_call`].
    pub fn leave_direct_call(&mut self) {
        self.depth -= 1;
    }

    /// `Core.threads_run(body, first, n, nt, rngs, disjoint)`: the shares of a threaded loop
    /// (see [`runtime::threads::chunks`]), share `t` run as `body(f, l)` with the random number
    /// generator `rngs[t]` (`disjoint` is for reverse mode). With native code, more than one share and no threaded loop around
    /// this one, the shares run on the team's threads with this machine lent to them
    /// ([`SharedMachine`]); otherwise one after another here. Every share runs to its end or
    /// its error, as Julia's tasks do; errors become one `TaskFailedException` naming the first
    /// share's error and how many more failed.
    pub fn threads_run(&mut self, args: &[Value]) -> Result<Value, RuntimeError> {
        use runtime::threads;
        let [body, Value::Int(first), Value::Int(n), Value::Int(nt), rngs, _disjoint] = args else {
            return Err(RuntimeError::new(Exception::Internal(
                "`Core.threads_run` takes a function, three Int64s, generators and names".into(),
            )));
        };
        let chunks = threads::chunks(*first, *n, *nt);
        if chunks.is_empty() {
            return Ok(Value::Nothing);
        }
        let key = self.loop_body(body)?;
        let code = self.code_for(&key)?;
        let shares: Vec<Share> = chunks
            .iter()
            .map(|c| {
                Share::new(
                    c,
                    rngs,
                    vec![body.clone(), Value::Int(c.first), Value::Int(c.last)],
                )
            })
            .collect();
        self.run_shares(&code, shares, true)?;
        Ok(Value::Nothing)
    }

    /// The method instance a threaded loop's body runs: `body(first, last)` with two
    /// iteration numbers.
    pub fn loop_body(&mut self, body: &Value) -> Result<MiKey, RuntimeError> {
        let probe = [body.clone(), Value::Int(1), Value::Int(1)];
        match self.resolve_dynamic(&probe)? {
            (key, None) => Ok(key),
            (_, Some(_)) => Err(self.method_error(&probe, None)),
        }
    }

    /// Whether [`Machine::run_shares`] runs `n` shares of `code` on the team's threads: with
    /// native code, more than one share, and no threaded loop around.
    pub fn shares_in_parallel(&self, code: &Function, n: usize) -> bool {
        self.native.is_some()
            && n > 1
            && code.id != 0
            && self.fuel.is_none()
            && !runtime::threads::in_threaded_loop()
    }

    /// Runs `code` on each share's arguments as that share of a threaded loop (its thread id
    /// and generator), on the team's threads when `parallel` and
    /// [`Machine::shares_in_parallel`] (the calling thread runs the last), else one after
    /// another in the order given; returns the shares' results. Every share runs to its end
    /// or its first error; errors become one `TaskFailedException` (the first share's error
    /// and how many more).
    pub fn run_shares(
        &mut self,
        code: &Arc<Function>,
        shares: Vec<Share>,
        parallel: bool,
    ) -> Result<Vec<Value>, RuntimeError> {
        use runtime::threads;
        let native = match self.native.clone() {
            Some(n) if parallel && self.shares_in_parallel(code, shares.len()) => {
                n.prepare(self, code)
            }
            _ => None,
        };
        let results: Vec<Result<Value, RuntimeError>> = match native {
            Some(nc) => {
                let team = threads::team().map_err(|e| RuntimeError::new(Exception::Error(e)))?;
                if shares.len() > team.threads() + 1 {
                    return Err(RuntimeError::new(Exception::Internal(
                        "a threaded loop has more shares than threads".into(),
                    )));
                }
                let job = Arc::new(ShareJob {
                    code: nc,
                    machine: SharedMachine {
                        machine: self as *mut Machine,
                        lock: std::sync::Mutex::new(()),
                        env: self.compiler.env.clone(),
                        ad: self.ad_runtime.clone(),
                    },
                    results: shares.iter().map(|_| std::sync::OnceLock::new()).collect(),
                    shares,
                });
                let run = job.clone();
                // The last share runs on this thread (which waits anyway), share `k` on team
                // thread `k + 1` (every time: what a share's forwards pass allocates, its
                // pullback frees on the same thread).
                team.run(job.shares.len(), Box::new(move |k| run.run(k)));
                // The team has released the job: the results can be moved out.
                let results = match Arc::try_unwrap(job) {
                    Ok(job) => job.results,
                    Err(job) => job.results.clone(),
                };
                results
                    .into_iter()
                    .map(|r| {
                        r.into_inner().unwrap_or_else(|| {
                            Err(RuntimeError::new(Exception::Internal(
                                "a share of a threaded loop did not run".into(),
                            )))
                        })
                    })
                    .collect()
            }
            None => shares
                .iter()
                .map(|sh| {
                    let _chunk = threads::enter_chunk(sh.tid, sh.rng.clone());
                    self.exec_slice(code, &sh.args)
                })
                .collect(),
        };
        let mut errors = results.iter().filter_map(|r| r.as_ref().err());
        match errors.next() {
            None => Ok(results.into_iter().filter_map(Result::ok).collect()),
            // A bug of ours stays an internal error.
            Some(e) if matches!(e.exception, Exception::Internal(_)) => Err(e.clone()),
            Some(first) => Err(RuntimeError {
                exception: Exception::TaskFailed {
                    first: Box::new(first.exception.clone()),
                    more: errors.count(),
                },
                trace: first.trace.clone(),
            }),
        }
    }

    /// Runs a top-level thunk: natively if the compiler gave it an id (it has a loop), else
    /// in the interpreter (it runs once, so compiling it would not pay; the functions it calls
    /// run natively).
    pub fn run_thunk(&mut self, f: &Arc<Function>) -> Result<Value, RuntimeError> {
        self.exec_on(f, &[Value::Nothing], f.id != 0)
    }

    fn code_for(&mut self, key: &MiKey) -> Result<Arc<Function>, RuntimeError> {
        if let Some(f) = self.code.get(key) {
            return Ok(f.clone());
        }
        if let Some(r) = self.resolver.as_mut() {
            if let Some(res) = r(key, &mut self.compiler) {
                let f = res?;
                self.code.insert(key.clone(), f.clone());
                return Ok(f);
            }
        }
        let f = self.compiler.runnable(key)?;
        self.code.insert(key.clone(), f.clone());
        Ok(f)
    }

    /// Calls a method instance with its arguments (the function first).
    pub fn invoke(&mut self, key: &MiKey, args: Vec<Value>) -> Result<Value, RuntimeError> {
        let f = self.code_for(key)?;
        self.exec(&f, args)
    }

    /// Calls `args[0]` on the rest, dispatching on the run-time types.
    pub fn call_dynamic(&mut self, mut args: Vec<Value>) -> Result<Value, RuntimeError> {
        let fv = args[0].clone();
        // Builtins that have no method table.
        if let Some(name) = builtin(&fv) {
            match name {
                // Resolved by inference wherever the types are known; otherwise `Any`.
                "#return_type" => return Ok(Value::of_type(Type::Any)),
                // `f(xs...)` where inference could not flatten the pieces.
                "#apply" => {
                    let mut flat = vec![args[1].clone()];
                    for piece in &args[2..] {
                        match piece {
                            Value::Tuple(vs) => flat.extend(vs.iter().cloned()),
                            Value::Array(a) => flat.extend(a.snapshot()),
                            other => {
                                return Err(RuntimeError::new(Exception::Error(format!(
                                    "splatting a value of type {} is not supported",
                                    other.ty()
                                ))))
                            }
                        }
                    }
                    return self.call_dynamic(flat);
                }
                "#kw_has" | "#kw_extra" => {
                    let names: Vec<String> = match args.get(1) {
                        Some(Value::NamedTuple(nt)) => {
                            nt.names.iter().map(|n| n.to_string()).collect()
                        }
                        _ => vec![],
                    };
                    let listed: Vec<String> = args[2..]
                        .iter()
                        .map(|a| match a {
                            Value::Str(s) => s.to_string(),
                            _ => String::new(),
                        })
                        .collect();
                    return Ok(Value::Bool(if name == "#kw_has" {
                        names.iter().any(|n| listed.contains(n))
                    } else {
                        names.iter().any(|n| !listed.contains(n))
                    }));
                }
                "#nt_merge" | "#nt_drop" | "#nt_like" => {
                    return merge_named_tuples(name, &args[1..])
                }
                "#kw_error" => {
                    return Err(RuntimeError::new(runtime::method_error(
                        &Value::Func(syntax::sym("#kwcall")),
                        &args[1..],
                        vec![],
                    )));
                }
                "#typeassert" => {
                    return match (&args.get(1), &args.get(2)) {
                        (Some(v), Some(Value::Type(t))) => self.typeassert((*v).clone(), t),
                        _ => Err(RuntimeError::new(Exception::Error(
                            "typeassert: expected a type".into(),
                        ))),
                    };
                }
                "#new" => {
                    return match args.get(1).cloned() {
                        Some(Value::Type(t)) => {
                            // `new` converts each argument to its field's type.
                            let fts = self.compiler.env.field_types(&t).unwrap_or_default();
                            let mut vals = Vec::new();
                            for (k, v) in args[2..].iter().enumerate() {
                                match fts.get(k) {
                                    Some(ft) if !self.compiler.env.subtype(&v.ty(), ft) => vals
                                        .push(self.call_dynamic(vec![
                                            Value::Func(syntax::sym("convert")),
                                            Value::of_type(ft.clone()),
                                            v.clone(),
                                        ])?),
                                    _ => vals.push(v.clone()),
                                }
                            }
                            self.construct(&t, vals)
                        }
                        _ => Err(RuntimeError::new(Exception::Error(
                            "new: expected a type".into(),
                        ))),
                    };
                }
                _ => {}
            }
        }
        let (key, pack, code, cache_key) = self.lookup_dynamic(&args)?;
        if let Some(fixed) = pack {
            let rest = args.split_off(fixed);
            args.push(Value::tuple(rest));
        }
        let f = match code {
            Some(f) => f,
            None => {
                let f = self.code_for(&key)?;
                if let Some(e) = self.dyn_cache.get_mut(&cache_key) {
                    e.code = Some(f.clone());
                }
                f
            }
        };
        self.exec(&f, args)
    }

    /// The method instance a call of `args[0]` on the rest runs (cached per signature), and
    /// the number of fixed arguments when the method packs the rest into a vararg tuple; a
    /// `MethodError` if none applies.
    pub fn resolve_dynamic(
        &mut self,
        args: &[Value],
    ) -> Result<(MiKey, Option<usize>), RuntimeError> {
        self.lookup_dynamic(args).map(|(k, p, _, _)| (k, p))
    }

    /// `resolve_dynamic`, with the method's code if a call already ran it, and the cache key.
    #[allow(clippy::type_complexity)]
    fn lookup_dynamic(
        &mut self,
        args: &[Value],
    ) -> Result<
        (
            MiKey,
            Option<usize>,
            Option<Arc<Function>>,
            (Symbol, Vec<Type>),
        ),
        RuntimeError,
    > {
        let fv = &args[0];
        let table = match compiler::typeexpr::callee_table(&fv.ty()) {
            Some(n) => n,
            None => return Err(self.method_error(args, None)),
        };
        // Dispatch sees argument types to a bounded depth (methods are not specialised on
        // deeper ones; see `compiler::methods`).
        let types: Vec<Type> = args.iter().map(|a| a.ty_limited(DISPATCH_DEPTH)).collect();
        let cache_key = (table, types);
        let entry = match self.dyn_cache.get(&cache_key) {
            Some(k) => k.clone(),
            None => match self.compiler.resolve_call(table, &cache_key.1) {
                Ok(key) => {
                    let m = self.compiler.method(table, key.method);
                    let pack = m.filter(|m| m.vararg).map(|m| m.sig.len() - 1);
                    let entry = DynEntry {
                        key,
                        pack,
                        code: None,
                    };
                    self.dyn_cache.insert(cache_key.clone(), entry.clone());
                    entry
                }
                Err(Dispatch::Ambiguous(ms)) => {
                    let list: Vec<String> = ms
                        .iter()
                        .filter_map(|&i| {
                            self.compiler.method(table, i).map(|m| m.signature_string())
                        })
                        .collect();
                    return Err(RuntimeError::new(Exception::Error(format!(
                        "MethodError: {table}(...) is ambiguous. Candidates:\n  {}",
                        list.join("\n  ")
                    ))));
                }
                Err(_) => return Err(self.method_error(args, Some(table))),
            },
        };
        Ok((entry.key, entry.pack, entry.code, cache_key))
    }

    fn method_error(&self, args: &[Value], table: Option<Symbol>) -> RuntimeError {
        let candidates = table
            .map(|t| self.compiler.candidates(t, &args[0].ty()))
            .unwrap_or_default();
        RuntimeError::new(runtime::method_error(&args[0], &args[1..], candidates))
    }

    fn typeassert(&self, v: Value, t: &Type) -> Result<Value, RuntimeError> {
        if self.compiler.env.subtype(&v.ty(), t) {
            Ok(v)
        } else {
            Err(RuntimeError::new(Exception::Type {
                func: "typeassert".into(),
                context: "".into(),
                expected: Box::new(t.clone()),
                got: v,
            }))
        }
    }

    /// Builds a struct or named tuple of type `t`.
    fn construct(&self, t: &Type, fields: Vec<Value>) -> Result<Value, RuntimeError> {
        match t {
            Type::NamedTuple(names, _) => Ok(Value::NamedTuple(Arc::new(NamedTupleVal {
                names: names.clone(),
                values: fields.into_boxed_slice(),
            }))),
            Type::Struct(..)
            | Type::Tangent(_)
            | Type::MutableTangent(_)
            | Type::FData(_)
            | Type::RData(_) => {
                let env = &self.compiler.env;
                let fts = env.field_types(t).unwrap_or_default();
                if fts.len() != fields.len() {
                    return Err(RuntimeError::new(Exception::Error(format!(
                        "new: {t} has {} fields, got {} values",
                        fts.len(),
                        fields.len()
                    ))));
                }
                for (v, ft) in fields.iter().zip(&fts) {
                    if !env.subtype(&v.ty(), ft) {
                        return Err(RuntimeError::new(Exception::Type {
                            func: "new".into(),
                            context: "".into(),
                            expected: Box::new(ft.clone()),
                            got: v.clone(),
                        }));
                    }
                }
                if env.is_mutable(t) {
                    Ok(Value::Mutable(Arc::new(MutableVal::new(t.clone(), fields))))
                } else {
                    Ok(Value::Struct(Arc::new(StructVal {
                        ty: t.clone(),
                        fields: fields.into_boxed_slice(),
                    })))
                }
            }
            t => Err(RuntimeError::new(Exception::Error(format!(
                "new: cannot construct a value of type {t}"
            )))),
        }
    }

    fn field_by_name(&self, obj: &Value, name: Symbol) -> Result<usize, RuntimeError> {
        let t = obj.ty();
        self.compiler.env.field_index(&t, name).ok_or_else(|| {
            let tn = match &t {
                Type::Struct(n, _) => n.to_string(),
                t => t.to_string(),
            };
            RuntimeError::new(Exception::Error(format!(
                "FieldError: type {tn} has no field `{name}`"
            )))
        })
    }

    /// A `MethodError` with the candidate methods of its function (the value `f`), which
    /// Julia lists under the message.
    pub fn with_candidates(&self, e: Exception, f: Option<&Value>) -> Exception {
        match e {
            Exception::Method {
                func,
                callee,
                args,
                values,
                ..
            } => {
                let candidates = f
                    .map(|v| self.compiler.candidates_of(&v.ty()))
                    .unwrap_or_default();
                Exception::Method {
                    func,
                    callee,
                    args,
                    candidates,
                    values,
                }
            }
            e => e,
        }
    }

    /// `Core.try_catch(body, handler)`: `body()`, or `handler(e)` with the exception value of
    /// the error it raised, if the program can catch that error (`runtime::exception::
    /// catchable`); while `handler` runs, `rethrow()` raises that error again.
    pub fn try_catch(&mut self, vals: &[Value]) -> Result<Value, RuntimeError> {
        let err = match self.call_dynamic(vec![vals[0].clone()]) {
            Ok(v) => return Ok(v),
            Err(e) => e,
        };
        let Some(exc) = runtime::exception::exception_value(&err.exception) else {
            return Err(err);
        };
        let handler = vals[1].clone();
        self.while_handling(err, |m| m.call_dynamic(vec![handler, exc]))
    }

    /// Runs `f` (a `catch` block) with `err` as the error `rethrow()` raises again.
    pub fn while_handling<R>(&mut self, err: RuntimeError, f: impl FnOnce(&mut Self) -> R) -> R {
        CAUGHT.with(|c| c.borrow_mut().push(err));
        let r = f(self);
        CAUGHT.with(|c| c.borrow_mut().pop());
        r
    }

    /// `Core.try_finally(body, fin)`: `body()`, then `fin()` whether or not `body` raised an
    /// error the program can catch; then that error again, or `body`'s value. (An error the
    /// program cannot catch ends the run at once.)
    pub fn try_finally(&mut self, vals: &[Value]) -> Result<Value, RuntimeError> {
        let r = self.call_dynamic(vec![vals[0].clone()]);
        if let Err(e) = &r {
            if !runtime::exception::catchable(&e.exception) {
                return r;
            }
        }
        self.call_dynamic(vec![vals[1].clone()])?;
        r
    }

    /// `Core.print(x)`, `show`, `repr` or `string` when the program has `show` or `print`
    /// methods of its own: the texts they give for the values inside `x` (by the objects'
    /// addresses; a value printed with `print` at the top uses its type's own `print`
    /// method if there is one) are what the printer writes for them.
    fn print_own(
        &mut self,
        f: &Function,
        i: ir::Inst,
        op: Prim,
        vals: &[Value],
    ) -> Result<Value, RuntimeError> {
        let x = &vals[0];
        let printed = matches!(op, Prim::Print | Prim::ToString);
        if printed && self.compiler.own_io_method("print", &x.ty()) {
            let text = self.sprint("print", x)?;
            return Ok(match op {
                Prim::Print => {
                    let _ = self.out.write_all(text.as_bytes());
                    Value::Nothing
                }
                _ => Value::str(&text),
            });
        }
        let mut texts = FxHashMap::default();
        let mut seen = rustc_hash::FxHashSet::default();
        self.own_show_texts(x, &mut texts, &mut seen)?;
        let r = runtime::show::with_own_show(texts, || {
            eval_prim(op, vals, &self.compiler.env, &mut *self.out)
        });
        r.map_err(|e| self.prim_error(f, i, vals, e))
    }

    /// The texts the program's own `show` methods give for the structs inside `x`, by
    /// address (a struct with such a method is not looked into).
    fn own_show_texts(
        &mut self,
        x: &Value,
        texts: &mut FxHashMap<runtime::show::OwnShowKey, String>,
        seen: &mut rustc_hash::FxHashSet<usize>,
    ) -> Result<(), RuntimeError> {
        let id = match x {
            Value::Struct(s) => Arc::as_ptr(s) as usize,
            Value::Mutable(m) => Arc::as_ptr(m) as *const u8 as usize,
            Value::Array(a) => runtime::SharedArray::as_ptr(a) as *const u8 as usize,
            _ => 0,
        };
        if id != 0 && !seen.insert(id) {
            return Ok(());
        }
        match x {
            Value::Struct(_) | Value::Mutable(_)
                if self.compiler.own_io_method("show", &x.ty()) =>
            {
                let text = self.sprint("show", x)?;
                if let Some(key) = runtime::show::own_show_key(x) {
                    texts.insert(key, text);
                }
            }
            Value::Struct(s) => {
                for v in s.fields.iter() {
                    self.own_show_texts(v, texts, seen)?;
                }
            }
            Value::Mutable(m) => {
                for v in m.snapshot().iter() {
                    self.own_show_texts(v, texts, seen)?;
                }
            }
            Value::Tuple(vs) => {
                for v in vs.iter() {
                    self.own_show_texts(v, texts, seen)?;
                }
            }
            Value::NamedTuple(nt) => {
                for v in nt.values.iter() {
                    self.own_show_texts(v, texts, seen)?;
                }
            }
            Value::Array(a)
                if !a.elem.is_bits(&self.compiler.env) || matches!(a.elem, Type::Struct(..)) =>
            {
                for v in a.snapshot().iter() {
                    self.own_show_texts(v, texts, seen)?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// `sprint(func, x)`: what the program's `show`, `print` or `showerror` writes for `x`.
    pub fn sprint(&mut self, func: &str, x: &Value) -> Result<String, RuntimeError> {
        let r = self.call_dynamic(vec![
            Value::Func(syntax::sym("sprint")),
            Value::Func(syntax::sym(func)),
            x.clone(),
        ])?;
        Ok(match r {
            Value::Str(s) => s.to_string(),
            v => runtime::show::print_string(&v),
        })
    }

    /// What `showerror` prints for the exception value `e` (a `MethodError` with its
    /// candidate methods).
    pub fn error_message(&self, e: &Value) -> String {
        let exc = runtime::exception::exception_of_value(e);
        let f = match &exc {
            Exception::Method {
                values: Some(v), ..
            } => Some(v.0.clone()),
            _ => None,
        };
        self.with_candidates(exc, f.as_ref()).to_string()
    }

    /// The run-time error of primitive instruction `i` of `f` failing with `e` on `vals`
    /// (a `MethodError` gets the method table's candidates), with its source chain.
    #[cold]
    pub fn prim_error(
        &self,
        f: &Function,
        i: ir::Inst,
        vals: &[Value],
        e: Exception,
    ) -> RuntimeError {
        let e = match e {
            e @ Exception::Method { .. }
                if matches!(
                    f.insts[i],
                    InstData::Prim {
                        op: Prim::ThrowMethodError,
                        ..
                    }
                ) =>
            {
                self.with_candidates(e, vals.first())
            }
            // `throw(e)` of a `MethodError` value (one a `catch` block caught).
            Exception::Method {
                func,
                callee,
                args,
                values: Some(v),
                ..
            } => {
                let fv = v.0.clone();
                let e = Exception::Method {
                    func,
                    callee,
                    args,
                    candidates: vec![],
                    values: Some(v),
                };
                self.with_candidates(e, Some(&fv))
            }
            e => e,
        };
        let mut e = RuntimeError::new(e);
        for (func, span) in f.source_chain(i) {
            e.trace.push(Frame { func, span });
        }
        e
    }

    /// Executes the non-terminator instruction `i` of `f` on its operand values `vals` (in
    /// the order of `InstData::for_each_arg`): its result (`None` for stores). Errors carry
    /// the instruction's source chain. The interpreter and native code share it, so both
    /// backends give the same results and messages.
    pub fn eval_inst(
        &mut self,
        f: &Function,
        i: ir::Inst,
        vals: &[Value],
    ) -> Result<Option<Value>, RuntimeError> {
        let fail = |e: RuntimeError| -> RuntimeError {
            let mut e = e;
            for (func, span) in f.source_chain(i) {
                e.trace.push(Frame { func, span });
            }
            e
        };
        let v = match &f.insts[i] {
            InstData::Const(c) => Value::from_const(c),
            InstData::Prim { op, .. } if op.is_ad_runtime() => match self.ad_runtime.clone() {
                Some(rt) => rt.eval(self, *op, vals).map_err(fail)?,
                None => match eval_prim(*op, vals, &self.compiler.env, &mut *self.out) {
                    Ok(v) => v,
                    Err(e) => return Err(self.prim_error(f, i, vals, e)),
                },
            },
            InstData::Prim {
                op: Prim::ThreadsRun,
                ..
            } => self.threads_run(vals).map_err(fail)?,
            InstData::Prim {
                op: op @ (Prim::TryCatch | Prim::TryFinally | Prim::Rethrow | Prim::ErrorMessage),
                ..
            } => match op {
                Prim::TryCatch => self.try_catch(vals).map_err(fail)?,
                Prim::TryFinally => self.try_finally(vals).map_err(fail)?,
                Prim::Rethrow => return Err(fail(rethrown())),
                _ => Value::str(&self.error_message(&vals[0])),
            },
            InstData::Prim {
                op: Prim::PrintStderr,
                ..
            } => {
                let text = runtime::show::print_string(&vals[0]);
                let _ = self.out.flush();
                let _ = self.err.write_all(text.as_bytes());
                Value::Nothing
            }
            InstData::Prim {
                op: op @ (Prim::Print | Prim::Show | Prim::Repr | Prim::ToString),
                ..
            } if self.compiler.has_own_io_methods() => {
                return self.print_own(f, i, *op, vals).map(Some);
            }
            InstData::Prim { op, .. } => {
                match eval_prim(*op, vals, &self.compiler.env, &mut *self.out) {
                    Ok(v) => v,
                    Err(e) => return Err(self.prim_error(f, i, vals, e)),
                }
            }
            InstData::Invoke { callee, .. } => {
                let code = self.site_callee(f, i, callee).map_err(fail)?;
                self.exec(&code, vals.to_vec()).map_err(fail)?
            }
            InstData::Call { .. } => self.call_dynamic(vals.to_vec()).map_err(fail)?,
            InstData::New { ty, .. } => self.construct(ty, vals.to_vec()).map_err(fail)?,
            InstData::Tuple { .. } => Value::tuple(vals.to_vec()),
            InstData::GetField { field, .. } => {
                let o = &vals[0];
                let idx = match field {
                    FieldRef::Index(k) => *k as usize,
                    FieldRef::Name(n) => self.field_by_name(o, *n).map_err(fail)?,
                };
                match o.field(idx) {
                    // A tuple holds `#undef` only where reverse mode saved an unassigned array
                    // slot (to restore it): that reads as is.
                    Some(Value::Undef) if !matches!(o, Value::Tuple(_)) => {
                        return Err(fail(RuntimeError::new(Exception::UndefRef)))
                    }
                    Some(v) => v,
                    None => {
                        return Err(fail(RuntimeError::new(Exception::Error(format!(
                            "FieldError: type {} has no field {}",
                            o.ty(),
                            idx + 1
                        )))))
                    }
                }
            }
            InstData::SetField { field, .. } => {
                let o = &vals[0];
                let mut v = vals[1].clone();
                let idx = match field {
                    FieldRef::Index(k) => *k as usize,
                    FieldRef::Name(n) => self.field_by_name(o, *n).map_err(fail)?,
                };
                match o {
                    Value::Mutable(m) => {
                        // A dynamic store converts to the field type.
                        let fts = self.compiler.env.field_types(&m.ty).unwrap_or_default();
                        if let Some(ft) = fts.get(idx) {
                            if !self.compiler.env.subtype(&v.ty(), ft) {
                                v = self
                                    .call_dynamic(vec![
                                        Value::Func(syntax::sym("convert")),
                                        Value::of_type(ft.clone()),
                                        v,
                                    ])
                                    .map_err(fail)?;
                            }
                        }
                        m.set(idx, v);
                    }
                    other => {
                        let msg = match other.ty() {
                            Type::Struct(n, _) => {
                                format!("setfield!: immutable struct of type {n} cannot be changed")
                            }
                            t => format!("setfield!: cannot set a field of a value of type {t}"),
                        };
                        return Err(fail(RuntimeError::new(Exception::Error(msg))));
                    }
                }
                return Ok(None);
            }
            InstData::TypeAssert { ty, .. } => {
                self.typeassert(vals[0].clone(), ty).map_err(fail)?
            }
            InstData::GetGlobal(name) => match self.globals.get(name) {
                Some(v) => v.clone(),
                None => {
                    // Functions and types referenced dynamically.
                    let (_, c) = self.compiler.global_type(*name);
                    match c {
                        Some(c) => Value::from_const(&c),
                        None if compiler::typeexpr::JULIA_NAMES_NOT_SUPPORTED
                            .contains(&name.as_str()) =>
                        {
                            return Err(fail(RuntimeError::new(Exception::Error(
                                compiler::typeexpr::julia_name_not_supported(*name),
                            ))))
                        }
                        None => {
                            return Err(fail(RuntimeError::new(Exception::UndefVar {
                                name: name.to_string(),
                                local: false,
                            })))
                        }
                    }
                }
            },
            InstData::SetGlobal(name, _) => {
                match self.compiler.globals.get(name) {
                    Some(compiler::GlobalInfo::Const { .. }) => {
                        return Err(fail(RuntimeError::new(Exception::Error(format!(
                            "invalid redefinition of constant {name}"
                        )))))
                    }
                    // The compiler makes a global bound only when no code can assign it again.
                    Some(compiler::GlobalInfo::Bound { .. }) => {
                        return Err(fail(RuntimeError::new(Exception::Internal(format!(
                            "global `{name}` assigned again after it was bound"
                        )))))
                    }
                    Some(compiler::GlobalInfo::Var) | None => {}
                }
                self.globals.insert(*name, vals[0].clone());
                return Ok(None);
            }
            InstData::StaticParam(_) | InstData::GetSlot(_) | InstData::SetSlot(..) => {
                return Err(fail(RuntimeError::new(Exception::Internal(
                    "untyped instruction reached the interpreter".into(),
                ))))
            }
            InstData::Jump { .. }
            | InstData::Branch { .. }
            | InstData::Return(_)
            | InstData::Unreachable => {
                return Err(fail(RuntimeError::new(Exception::Internal(
                    "eval_inst on a terminator".into(),
                ))))
            }
        };
        Ok(Some(v))
    }

    /// Executes `f` on `args` (the function value first).
    pub fn exec(&mut self, f: &Function, args: Vec<Value>) -> Result<Value, RuntimeError> {
        self.exec_on(f, &args, true)
    }

    /// As [`Machine::exec`], with the arguments borrowed (native code reads them in place).
    pub fn exec_slice(&mut self, f: &Function, args: &[Value]) -> Result<Value, RuntimeError> {
        self.exec_on(f, args, true)
    }

    /// `f`'s native code, compiled now if need be, for [`Machine::exec_prepared_fields`]; `None`
    /// when there is no native backend or `f` runs in the interpreter.
    pub fn prepare_native(&mut self, f: &Function) -> Option<Prepared> {
        let n = self.native.clone()?;
        if f.id == 0 {
            return None;
        }
        let code = n.prepare(self, f)?;
        Some(Prepared {
            id: f.id,
            arity: f.blocks[f.entry()].params.len(),
            backend: backend_id(&n),
            code,
        })
    }

    /// Runs `f` on `args` for a function returning a tuple of `out.len()` fields, which go
    /// into `out` (fields of singleton types may be left as they are: see
    /// [`NativeCode::call_fields`]): through `f`'s native code `p` (from
    /// [`Machine::prepare_native`] for `f`) when this machine's backend made it and no fuel
    /// limit applies, else as [`Machine::exec_slice`] would.
    pub fn exec_prepared_fields(
        &mut self,
        f: &Function,
        p: Option<&Prepared>,
        args: &[Value],
        out: &mut [Value],
    ) -> Result<(), RuntimeError> {
        match p {
            Some(p) if self.can_run(f, p, args.len()) => {
                self.nested(|m| p.code.call_fields(m, args, out))
            }
            _ => {
                let r = self.exec_on(f, args, true)?;
                unpack_into(&r, out)
            }
        }
    }

    /// Runs `f` on `args` through its native code `p` (from [`Machine::prepare_native`] for
    /// `f`) when this machine's backend made it and no fuel limit applies, else as
    /// [`Machine::exec_slice`] would: a prepared call skips looking the code up.
    pub fn exec_prepared(
        &mut self,
        f: &Function,
        p: Option<&Prepared>,
        args: &[Value],
    ) -> Result<Value, RuntimeError> {
        match p {
            Some(p) if self.can_run(f, p, args.len()) => self.nested(|m| p.code.call(m, args)),
            _ => self.exec_on(f, args, true),
        }
    }

    /// Whether prepared code `p` runs `f` on `nargs` arguments on this machine now.
    fn can_run(&self, f: &Function, p: &Prepared, nargs: usize) -> bool {
        p.id == f.id
            && p.arity == nargs
            && self.fuel.is_none()
            && self
                .native
                .as_ref()
                .is_some_and(|n| backend_id(n) == p.backend)
    }

    /// Runs `body` one call deeper: fails past `MAX_DEPTH` calls, and grows the native stack
    /// on demand so that recursion depth is limited by `MAX_DEPTH` rather than by the host
    /// thread's stack.
    fn nested<R>(
        &mut self,
        body: impl FnOnce(&mut Machine) -> Result<R, RuntimeError>,
    ) -> Result<R, RuntimeError> {
        if self.depth >= MAX_DEPTH {
            return Err(RuntimeError::new(Exception::StackOverflow));
        }
        self.depth += 1;
        let r = stacker::maybe_grow(512 * 1024, 8 * 1024 * 1024, || body(self));
        self.depth -= 1;
        r
    }

    /// Executes `f` on `args`, natively if `native` allows and a backend is installed.
    fn exec_on(
        &mut self,
        f: &Function,
        args: &[Value],
        native: bool,
    ) -> Result<Value, RuntimeError> {
        self.nested(|m| {
            if native && f.id != 0 && m.fuel.is_none() {
                if let Some(n) = m.native.clone() {
                    if let Some(r) = n.exec(m, f, args) {
                        return r;
                    }
                }
            }
            m.exec_inner(f, args)
        })
    }

    fn exec_inner(&mut self, f: &Function, args: &[Value]) -> Result<Value, RuntimeError> {
        let mut regs: Vec<Value> = vec![Value::Undef; f.values.len()];
        let entry = f.entry();
        for (p, a) in f.blocks[entry].params.iter().zip(args) {
            regs[p.index()] = a.clone();
        }
        let mut b = entry;
        let mut scratch: Vec<Value> = Vec::new();
        'blocks: loop {
            if let Some(fuel) = &mut self.fuel {
                if *fuel == 0 {
                    return Err(RuntimeError::new(Exception::Error(
                        "execution limit exceeded (the session's fuel ran out)".into(),
                    )));
                }
                *fuel -= 1;
            }
            for &i in &f.blocks[b].insts {
                let get = |regs: &Vec<Value>, v: V| regs[v.index()].clone();
                let fail = |e: RuntimeError| -> RuntimeError {
                    let mut e = e;
                    for (func, span) in f.source_chain(i) {
                        e.trace.push(Frame { func, span });
                    }
                    e
                };
                match &f.insts[i] {
                    InstData::Jump { dest, args } => {
                        let vals: Vec<Value> = args.iter().map(|a| get(&regs, *a)).collect();
                        for (p, v) in f.blocks[*dest].params.iter().zip(vals) {
                            regs[p.index()] = v;
                        }
                        b = *dest;
                        continue 'blocks;
                    }
                    InstData::Branch {
                        cond,
                        then_dest,
                        then_args,
                        else_dest,
                        else_args,
                    } => {
                        let c = match get(&regs, *cond) {
                            Value::Bool(c) => c,
                            other => {
                                return Err(fail(RuntimeError::new(Exception::Type {
                                    func: "if".into(),
                                    context: "".into(),
                                    expected: Box::new(Type::Bool),
                                    got: other,
                                })))
                            }
                        };
                        let (dest, args) = if c {
                            (then_dest, then_args)
                        } else {
                            (else_dest, else_args)
                        };
                        let vals: Vec<Value> = args.iter().map(|a| get(&regs, *a)).collect();
                        for (p, v) in f.blocks[*dest].params.iter().zip(vals) {
                            regs[p.index()] = v;
                        }
                        b = *dest;
                        continue 'blocks;
                    }
                    InstData::Return(v) => return Ok(get(&regs, *v)),
                    InstData::Unreachable => {
                        return Err(fail(RuntimeError::new(Exception::Internal(
                            "reached unreachable code".into(),
                        ))))
                    }
                    InstData::Const(c) => {
                        if let Some(r) = f.result(i) {
                            regs[r.index()] = Value::from_const(c);
                        }
                    }
                    InstData::Prim { op, args } if !op.is_ad_runtime() && !op.runs_on_machine() => {
                        scratch.clear();
                        scratch.extend(args.iter().map(|a| get(&regs, *a)));
                        match eval_prim(*op, &scratch, &self.compiler.env, &mut *self.out) {
                            Ok(v) => {
                                if let Some(r) = f.result(i) {
                                    regs[r.index()] = v;
                                }
                            }
                            Err(e) => return Err(self.prim_error(f, i, &scratch, e)),
                        }
                    }
                    data => {
                        scratch.clear();
                        data.for_each_arg(|a| scratch.push(get(&regs, a)));
                        let result = self.eval_inst(f, i, &scratch)?;
                        if let (Some(r), Some(v)) = (f.result(i), result) {
                            regs[r.index()] = v;
                        }
                    }
                }
            }
            return Err(RuntimeError::new(Exception::Internal(format!(
                "block {b} fell through"
            ))));
        }
    }
}

fn callee_key(c: &Callee) -> MiKey {
    MiKey::of(c)
}

use cranelift_entity::EntityRef;

/// `Core.nt_merge(a, b)`, `Core.nt_drop(a, "k"...)` and `Core.nt_like(a, vals)` of named
/// tuples known only when the call runs (inference resolves the others), by the fields `compiler::named_tuples` picks.
fn merge_named_tuples(op: &str, args: &[Value]) -> Result<Value, RuntimeError> {
    let named = |v: Option<&Value>| match v {
        Some(Value::NamedTuple(t)) => Ok(t.clone()),
        other => Err(RuntimeError::new(Exception::Error(
            compiler::named_tuples::not_a_named_tuple(&other.map_or(Type::Any, |v| v.ty())),
        ))),
    };
    let a = named(args.first())?;
    if op == "#nt_like" {
        let values = match args.get(1) {
            Some(Value::Tuple(vs)) if vs.len() == a.names.len() => vs.to_vec(),
            Some(Value::Tuple(vs)) => {
                return Err(RuntimeError::new(Exception::Error(
                    compiler::named_tuples::lengths_differ(a.names.len(), vs.len()),
                )))
            }
            other => {
                return Err(RuntimeError::new(Exception::Error(format!(
                    "Core.nt_like: the values must be a tuple, not a {}",
                    other.map_or(Type::Any, |v| v.ty())
                ))))
            }
        };
        return Ok(Value::NamedTuple(Arc::new(runtime::value::NamedTupleVal {
            names: a.names.clone(),
            values: values.into(),
        })));
    }
    let (from, b) = if op == "#nt_drop" {
        let listed: Vec<&str> = args[1..]
            .iter()
            .filter_map(|v| match v {
                Value::Str(s) => Some(&**s),
                _ => None,
            })
            .collect();
        (compiler::named_tuples::drop_fields(&a.names, &listed), None)
    } else {
        let b = named(args.get(1))?;
        (
            compiler::named_tuples::merge_fields(&a.names, &b.names),
            Some(b),
        )
    };
    let (names, values): (Vec<Symbol>, Vec<Value>) = from
        .iter()
        .map(|&(o, k)| {
            let t = if o == 1 { &a } else { b.as_ref().unwrap_or(&a) };
            (t.names[k as usize], t.values[k as usize].clone())
        })
        .unzip();
    Ok(Value::NamedTuple(Arc::new(runtime::value::NamedTupleVal {
        names: names.into(),
        values: values.into(),
    })))
}
