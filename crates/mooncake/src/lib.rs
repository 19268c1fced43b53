//! The public Rust API of mooncake-rs: a [`Session`] loads Julia-subset source, runs it, calls
//! functions with [`Value`]s, and dumps IR. Errors are values ([`Error`]) that render with the
//! source location (`file:line:col`) and an excerpt.
//!
//! ```no_run
//! let mut s = mooncake::Session::new().unwrap();
//! s.load_source("model.jl", "f(x) = 2x^2").unwrap();
//! let y = s.eval("f(3.0)").unwrap();
//! assert_eq!(y.as_f64(), Some(18.0));
//! ```

pub mod bench;
mod guard;
pub mod json;

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor::NoColor};
use compiler::{Dispatch, MiKey, TopLevel};
use interp::Machine;
use ir::Type;
use std::io::Write;
use std::sync::Arc;
use syntax::ast::{Expr, ExprKind};
use syntax::{FileId, LineIndex};

/// The reverse rules' registry data (test cases, differentiability), for rule tests.
pub use ad::rules as ad_rules;
pub use ad::tangent::{algorithms_rtol, no_tangent, tangent_approx_eq};
pub use ad::{Hessian, Hvps, Jacobian, RuleReport};
use compiler::Compiler;
pub use compiler::{CompileError, CompileStats, Warning};
pub use interp::Frame;
pub use interp::RuntimeError;
pub use ir::timing;
pub use ir::Function;
pub use jit::Stats as NativeStats;
pub use runtime::{live_arrays, ArrayData, ArrayObj, Exception, SharedArray, Value};
pub use syntax::{Diagnostic, Span};

/// The README's Rust examples, compiled and run as doctests.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The note under every internal error.
const BUG_NOTE: &str = "this is a bug in mooncake, not in the program; please report it";

/// An error from loading or running a program.
#[derive(Debug, Clone, thiserror::Error)]
pub enum Error {
    #[error("syntax error: {}", .0.first().map(|d| d.message.as_str()).unwrap_or(""))]
    Syntax(Vec<Diagnostic>),
    #[error("{0}")]
    Compile(CompileError),
    #[error("{}", .0.exception)]
    Runtime(RuntimeError),
    /// A problem with how the API or CLI was used (not with the program).
    #[error("{0}")]
    Usage(String),
    #[error("cannot read {path}: {message}")]
    Io { path: String, message: String },
    /// Differentiation failed (an unsupported construct, a missing rule, a non-float output).
    #[error("{}", .0.message)]
    Ad(ad::AdError),
    /// A bug in mooncake (a panic, caught): where it happened in mooncake, and the user's code
    /// it was working on.
    #[error("internal error: {message}")]
    Internal { message: String, span: Option<Span> },
}

impl From<ad::AdError> for Error {
    fn from(e: ad::AdError) -> Error {
        if e.internal {
            return Error::Internal {
                message: e.message,
                span: (!e.span.is_dummy()).then_some(e.span),
            };
        }
        Error::Ad(e)
    }
}

impl From<CompileError> for Error {
    fn from(e: CompileError) -> Error {
        if e.kind == compiler::ErrorKind::Internal {
            return Error::Internal {
                message: e.message,
                span: (!e.span.is_dummy()).then_some(e.span),
            };
        }
        Error::Compile(e)
    }
}

impl From<RuntimeError> for Error {
    fn from(e: RuntimeError) -> Error {
        Error::Runtime(e)
    }
}

/// The IR stages that can be dumped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Untyped SSA IR of the method (after lowering and SSA construction).
    Lowered,
    /// Typed IR of the method instance, straight from inference.
    Typed,
    /// Typed IR after the optimisation passes.
    Optimised,
    /// The forwards pass of the reverse-mode rule (optimised).
    Forward,
    /// The pullback of the reverse-mode rule (optimised).
    Pullback,
    /// The one-lane forward-mode rule (optimised): each value followed by its tangent.
    Dual,
}

struct SourceInfo {
    name: String,
    /// Shared: each top-level statement's compilation gets the text without a copy.
    src: std::sync::Arc<str>,
    lines: LineIndex,
}

/// Which backend runs compiled functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// Native code through Cranelift (functions it cannot compile are interpreted).
    Native,
    /// The reference interpreter only.
    Interpreter,
}

/// A program being run: the prelude plus user sources, their globals and compiled code.
///
/// ```
/// use mooncake::{Session, Value};
/// let mut s = Session::new()?;
/// s.load_source("model.jl", "loss(w, x) = sum(abs2, w .* x .- 1.0)")?;
/// let y = s.eval("loss([1.0, 2.0], [0.5, 1.5])")?;
/// assert_eq!(y.to_string(), "4.25");
/// # Ok::<(), mooncake::Error>(())
/// ```
pub struct Session {
    machine: Machine,
    files: Vec<SourceInfo>,
    ad: ad::Ad,
    jit: Option<Arc<jit::Jit>>,
    /// The `--call` expression being worked on: where an internal error is reported.
    call_span: Option<Span>,
}

/// A writer that forwards to standard output; flushing takes its lock only when something
/// was written since the last flush (every gradient call flushes).
#[derive(Default)]
struct Stdout {
    written: bool,
}
impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.written = true;
        std::io::stdout().write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        if !std::mem::take(&mut self.written) {
            return Ok(());
        }
        std::io::stdout().flush()
    }
}

/// A shared in-memory output buffer (see [`Session::with_output`]).
#[derive(Clone, Default)]
pub struct OutputBuffer(Arc<std::sync::Mutex<Vec<u8>>>);

impl OutputBuffer {
    pub fn new() -> OutputBuffer {
        OutputBuffer::default()
    }
    /// Everything written so far, as text.
    pub fn contents(&self) -> String {
        let g = self.0.lock().unwrap_or_else(|e| e.into_inner());
        String::from_utf8_lossy(&g).into_owned()
    }
    pub fn clear(&self) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

impl Write for OutputBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Session {
    /// A session whose program output goes to standard output.
    pub fn new() -> Result<Session, Error> {
        Session::with_output(Box::<Stdout>::default())
    }

    /// A session whose program output goes to `out`.
    pub fn with_output(out: Box<dyn Write + Send>) -> Result<Session, Error> {
        let mut compiler = Compiler::new();
        compiler.prelude_files = runtime::PRELUDE.len() as u32;
        compiler.options.no_inline = ad::rules::FAST_FUNCTIONS
            .iter()
            .chain(ad::AD_DEFINITIONS.iter().map(|(f, _, _)| f))
            .map(|n| syntax::sym(n))
            .collect();
        let mut s = Session {
            machine: Machine::new(compiler, out),
            files: Vec::new(),
            ad: ad::Ad::new(),
            jit: None,
            call_span: None,
        };
        s.ad.install(&mut s.machine);
        // Native code by default; where Cranelift does not support the host, the interpreter.
        if s.set_backend(Backend::Native).is_err() {
            s.set_backend(Backend::Interpreter)?;
        }
        for (name, source) in runtime::PRELUDE {
            if let Err(e) = s.load_source(name, source) {
                return Err(Error::Usage(format!(
                    "internal error while loading the prelude:\n{}",
                    s.render_error(&e)
                )));
            }
        }
        // The program's closures are numbered from 1, as in a fresh Julia session.
        s.machine.compiler.env.restart_closure_numbers();
        Ok(s)
    }

    /// Chooses the backend for code run from now on. Native code is compiled per function on
    /// its first call; a run with a fuel limit (see [`Session::set_fuel`]) always interprets.
    pub fn set_backend(&mut self, backend: Backend) -> Result<(), Error> {
        match backend {
            Backend::Interpreter => self.machine.native = None,
            Backend::Native => {
                if self.jit.is_none() {
                    self.jit = Some(Arc::new(jit::Jit::new().map_err(Error::Usage)?));
                }
                self.machine.native = self.jit.clone().map(|j| j as Arc<dyn interp::Native>);
            }
        }
        Ok(())
    }

    pub fn backend(&self) -> Backend {
        if self.machine.native.is_some() {
            Backend::Native
        } else {
            Backend::Interpreter
        }
    }

    /// What the native backend has compiled, how long that took, and what it left to the
    /// interpreter (`None` before native code was first enabled).
    pub fn native_stats(&self) -> Option<jit::Stats> {
        self.jit.as_ref().map(|j| j.stats())
    }

    /// What automatic differentiation noticed that a user may want to know, each once: the
    /// threaded loops reverse mode could not differentiate in parallel, and why.
    pub fn ad_notices(&self) -> Vec<String> {
        self.machine
            .ad_runtime
            .as_ref()
            .map(|ad| ad.notices())
            .unwrap_or_default()
    }

    /// Limits how many more basic blocks the session may execute (`None`: no limit); a run
    /// that exceeds it stops with an error. Guards against runaway programs.
    pub fn set_fuel(&mut self, fuel: Option<u64>) {
        self.machine.fuel = fuel;
    }

    /// Switches AD debug mode: rules derived from now on check, at run time, that every
    /// argument's and every derived call's fdata matches its primal (type and array sizes), and
    /// name the offending value and its source line when not.
    pub fn set_ad_debug(&mut self, on: bool) {
        self.ad.opts.debug = on;
    }

    /// Chooses the rule context for rules derived from now on: `Default` (the default) also
    /// uses rules that exist only for speed (`sum` of float arrays, `dot` of float vectors,
    /// big broadcasts and sums of functions); `Minimal` differentiates those through their
    /// prelude code.
    pub fn set_ad_context(&mut self, ctx: ad::rules::Context) {
        self.ad.opts.context = ctx;
    }

    /// Checks the IR with the verifier after every compiler pass and every AD derivation
    /// (slower; a debugging aid when writing rules or changing mooncake).
    pub fn set_verify(&mut self, on: bool) {
        self.machine.compiler.options.verify = on;
    }

    /// What the compiler has done so far: method instances inferred, and the time spent
    /// lowering, inferring and optimising.
    pub fn compile_stats(&self) -> CompileStats {
        self.machine.compiler.stats.clone()
    }

    pub(crate) fn compiler(&mut self) -> &mut Compiler {
        &mut self.machine.compiler
    }

    fn add_file(&mut self, name: &str, src: &str) -> FileId {
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceInfo {
            name: name.to_string(),
            src: src.into(),
            lines: LineIndex::new(src),
        });
        id
    }

    /// Reads and runs a file.
    pub fn load_file(&mut self, path: &std::path::Path) -> Result<(), Error> {
        let src = std::fs::read_to_string(path).map_err(|e| Error::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        self.load_source(&path.display().to_string(), &src)
    }

    /// Parses `src` and runs its top-level statements in order (definitions take effect as
    /// they are reached). Stops at the first error.
    pub fn load_source(&mut self, name: &str, src: &str) -> Result<(), Error> {
        let file = self.add_file(name, src);
        let (ast, diags) = ir::timing::phase("parse", || syntax::parse_file(src, file));
        if !diags.is_empty() {
            return Err(Error::Syntax(diags));
        }
        self.machine.compiler.scan_program(&ast.items, file);
        for item in &ast.items {
            if let Err(e) = self.run_toplevel(item, file) {
                // What the program printed comes before the error's report.
                let _ = self.machine.out.flush();
                return Err(e);
            }
        }
        let _ = self.machine.out.flush();
        Ok(())
    }

    fn src_of(&self, file: FileId) -> std::sync::Arc<str> {
        self.files
            .get(file.0 as usize)
            .map(|f| f.src.clone())
            .unwrap_or_else(|| "".into())
    }

    fn run_toplevel(&mut self, item: &Expr, file: FileId) -> Result<Value, Error> {
        self.guarded(Some(item.span), |s| s.run_toplevel_unguarded(item, file))
    }

    /// Runs `f`, turning a panic (a bug) into an internal error located at `span`.
    fn guarded<T>(
        &mut self,
        span: Option<Span>,
        f: impl FnOnce(&mut Self) -> Result<T, Error>,
    ) -> Result<T, Error> {
        guard::install();
        // A derivative that failed inside a threaded loop's chunk may have left this thread
        // marked as running it.
        runtime::threads::leave_all_chunks();
        match guard::catch(|| f(self)) {
            Ok(Err(Error::Runtime(r))) => Err(Error::Runtime(self.shown(r))),
            Ok(r) => r,
            Err(message) => Err(Error::Internal { message, span }),
        }
    }

    /// An uncaught error whose value's type has the program's own `showerror` method, with
    /// the text that method writes (Julia reports an uncaught error through `showerror`).
    fn shown(&mut self, mut r: RuntimeError) -> RuntimeError {
        if let Exception::Thrown(v) = &r.exception {
            if self.machine.compiler.own_io_method("showerror", &v.ty()) {
                let v = v.clone();
                if let Ok(Ok(text)) = guard::catch(|| self.machine.sprint("showerror", &v)) {
                    r.exception = Exception::Shown { value: v, text };
                }
            }
        }
        r
    }

    fn run_toplevel_unguarded(&mut self, item: &Expr, file: FileId) -> Result<Value, Error> {
        if let Some(r) = self.run_defining_branch(item, file) {
            return r;
        }
        let src = self.src_of(file);
        let generation = self.machine.compiler.generation();
        let r = self.machine.compiler.toplevel(item, &src);
        if self.machine.compiler.generation() != generation {
            // A global bound so far is assigned again: forget the code that read it.
            self.machine.invalidate();
            self.ad.clear();
        }
        // Warnings come before the statement runs (and before a compile error), as Julia
        // prints them when it lowers the statement.
        for w in self.machine.compiler.take_warnings() {
            let text = self.render_warning(&w);
            let _ = self.machine.out.flush();
            let _ = self.machine.err.write_all(text.as_bytes());
        }
        match r? {
            TopLevel::Defined => {
                self.machine.invalidate();
                self.ad.clear();
                Ok(Value::Nothing)
            }
            TopLevel::Run(thunk) => {
                let v = self.machine.run_thunk(&thunk)?;
                for name in self.machine.compiler.take_pending_bindings() {
                    if let Some(val) = self.machine.globals.get(&name) {
                        let (ty, c) = (val.ty(), val.to_const());
                        self.machine.compiler.bind_global(name, ty, c);
                    }
                }
                if let ExprKind::Const(inner) = &item.kind {
                    for name in syntax::ast::const_names(inner) {
                        let name = self.machine.compiler.global_name(name);
                        if let Some(val) = self.machine.globals.get(&name).cloned() {
                            self.machine
                                .compiler
                                .set_const(name, val.ty(), val.to_const());
                            self.machine.invalidate();
                        }
                    }
                }
                Ok(v)
            }
        }
    }

    /// A top-level `if` or `begin` block that defines functions or types: as in Julia, the
    /// condition runs first, then the taken branch's statements one by one as top-level
    /// statements (neither opens a scope). `None` for any other statement.
    fn run_defining_branch(&mut self, item: &Expr, file: FileId) -> Option<Result<Value, Error>> {
        let run_all = |s: &mut Self, items: &[Expr]| {
            let mut v = Value::Nothing;
            for it in items {
                v = s.run_toplevel_unguarded(it, file)?;
            }
            Ok(v)
        };
        match &item.kind {
            ExprKind::If { cond, then, else_ } if defines(item) => {
                // `cond ? true : false`, so that a non-Bool is Julia's `TypeError` at it.
                let test = Expr::new(
                    ExprKind::If {
                        cond: cond.clone(),
                        then: vec![Expr::new(ExprKind::Bool(true), cond.span)],
                        else_: Some(Box::new(Expr::new(ExprKind::Bool(false), cond.span))),
                    },
                    cond.span,
                );
                Some(match self.run_toplevel_unguarded(&test, file) {
                    Ok(Value::Bool(true)) => run_all(self, then),
                    Ok(_) => match else_ {
                        Some(e) => self.run_toplevel_unguarded(e, file),
                        None => Ok(Value::Nothing),
                    },
                    Err(e) => Err(e),
                })
            }
            ExprKind::Block(items) if defines(item) => Some(run_all(self, items)),
            _ => None,
        }
    }

    /// Evaluates an expression in the global scope.
    pub fn eval(&mut self, expr: &str) -> Result<Value, Error> {
        let file = self.add_file("<call>", expr);
        let (e, diags) = syntax::parse_expr_str(expr, file);
        if !diags.is_empty() {
            return Err(Error::Syntax(diags));
        }
        let v = self.run_toplevel(&e, file)?;
        let _ = self.machine.out.flush();
        Ok(v)
    }

    /// The value of a global variable or constant.
    pub fn global(&self, name: &str) -> Option<Value> {
        self.machine.globals.get(&syntax::sym(name)).cloned()
    }

    /// Calls a function (or any callable value) with the given arguments.
    pub fn call_value(&mut self, f: Value, args: Vec<Value>) -> Result<Value, Error> {
        let span = self.call_span;
        self.guarded(span, |s| {
            let mut all = vec![f];
            all.extend(args);
            let r = s.machine.call_dynamic(all)?;
            let _ = s.machine.out.flush();
            Ok(r)
        })
    }

    /// Prepares repeated calls of `f` at arguments of the types of `args`: the method is
    /// resolved and compiled once; [`Session::call_prepared`] then checks only the argument
    /// types.
    pub fn prepare_call(&mut self, f: &Value, args: &[Value]) -> Result<PreparedCall, Error> {
        let span = self.call_span;
        self.guarded(span, |s| {
            let key = s.ad_method_instance(f, args)?;
            let func = s.machine.compiler.runnable(&key)?;
            let native = s.machine.prepare_native(&func);
            Ok(PreparedCall {
                f: f.clone(),
                types: args.iter().map(|a| a.ty()).collect(),
                generation: s.machine.compiler.generation(),
                func,
                native,
            })
        })
    }

    /// Calls a prepared method instance (see [`Session::prepare_call`]).
    pub fn call_prepared(&mut self, call: &PreparedCall, args: &[Value]) -> Result<Value, Error> {
        if call.generation != self.machine.compiler.generation() {
            return Err(Error::Usage(STALE.into()));
        }
        if args.len() != call.types.len() {
            return Err(Error::Usage(format!(
                "the call was prepared for {} arguments, got {}",
                call.types.len(),
                args.len()
            )));
        }
        for (k, (a, t)) in args.iter().zip(&call.types).enumerate() {
            if !a.has_type(t) {
                return Err(Error::Usage(format!(
                    "argument {} has type {}, but the call was prepared for {t}",
                    k + 1,
                    a.ty()
                )));
            }
        }
        let mut all: smallvec::SmallVec<[Value; 4]> =
            smallvec::SmallVec::with_capacity(args.len() + 1);
        all.push(call.f.clone());
        all.extend(args.iter().cloned());
        let r = self
            .machine
            .exec_prepared(&call.func, call.native.as_ref(), &all)?;
        let _ = self.machine.out.flush();
        Ok(r)
    }

    /// Calls the global function `name` with the given arguments.
    pub fn call(&mut self, name: &str, args: Vec<Value>) -> Result<Value, Error> {
        let span = self.call_span;
        self.guarded(span, |s| {
            let f = s.callable(name)?;
            s.call_value(f, args)
        })
    }

    fn callable(&mut self, name: &str) -> Result<Value, Error> {
        let sym = syntax::sym(name);
        if let Some(v) = self.machine.globals.get(&sym) {
            return Ok(v.clone());
        }
        // The program's own function of a library name, as its code means it.
        let sym = self.machine.compiler.program_name(sym);
        match self.machine.compiler.global_type(sym) {
            (_, Some(c)) => Ok(Value::from_const(&c)),
            _ => Err(Error::Usage(format!("UndefVarError: `{name}` not defined"))),
        }
    }

    /// Evaluates the callee and arguments of a call expression (`f(a, b)`) without making
    /// the call.
    pub fn eval_call_parts(&mut self, call: &str) -> Result<(Value, Vec<Value>), Error> {
        let file = self.add_file("<call>", call);
        let (e, diags) = syntax::parse_expr_str(call, file);
        if !diags.is_empty() {
            return Err(Error::Syntax(diags));
        }
        self.call_span = Some(e.span);
        let ExprKind::Call {
            func, args, kwargs, ..
        } = &e.kind
        else {
            return Err(Error::Usage(format!(
                "`{call}` is not a call expression like `f(x, y)`"
            )));
        };
        if !kwargs.is_empty() {
            return Err(Error::Usage(
                "keyword arguments are not supported in --call".into(),
            ));
        }
        let f = self.run_toplevel(func, file)?;
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.run_toplevel(a, file)?);
        }
        Ok((f, vals))
    }

    /// `(f(args...), (∂f, ∂args...))` by reverse mode, for `f` returning a float. The gradient
    /// has the tangent of `f` itself first (`NoTangent` for a plain function), as in Mooncake.
    ///
    /// ```
    /// use mooncake::{Session, Value};
    /// let mut s = Session::new()?;
    /// s.load_source("m.jl", "f(w, x) = sum(w .* x)^2")?;
    /// let f = s.eval("f")?;
    /// let (y, g) = s.value_and_gradient(&f, &[Value::from(vec![1.0, 2.0]), Value::from(vec![3.0, 4.0])])?;
    /// assert_eq!(y.as_f64(), Some(121.0));
    /// assert_eq!(g[1].to_f64_vec(), Some(vec![66.0, 88.0])); // 2 (w ⋅ x) x
    /// assert_eq!(g[2].to_f64_vec(), Some(vec![22.0, 44.0])); // 2 (w ⋅ x) w
    /// # Ok::<(), mooncake::Error>(())
    /// ```
    pub fn value_and_gradient(
        &mut self,
        f: &Value,
        args: &[Value],
    ) -> Result<(Value, Vec<Value>), Error> {
        let span = self.call_span;
        self.guarded(span, |s| {
            let r = ad::value_and_gradient(&mut s.machine, &s.ad, f, args)?;
            let _ = s.machine.out.flush();
            Ok(r)
        })
    }

    /// Forward mode: `(f(args...), ḟ)` for the tangent given with each argument (`(x, ẋ)`
    /// pairs; `f`'s own tangent is zero).
    pub fn value_and_derivative(
        &mut self,
        f: &Value,
        args: &[(Value, Value)],
    ) -> Result<(Value, Value), Error> {
        let span = self.call_span;
        self.guarded(span, |s| {
            let r = ad::value_and_derivative(&mut s.machine, &s.ad, f, args)?;
            let _ = s.machine.out.flush();
            Ok(r)
        })
    }

    /// The gradient of `f` (returning a float) by forward mode: chunks of `width` input
    /// directions per pass (N-lane duals, 1 ≤ width ≤ 8). The same result as
    /// [`Session::value_and_gradient`], computed in one pass per chunk.
    pub fn value_and_gradient_forward(
        &mut self,
        f: &Value,
        args: &[Value],
        width: usize,
    ) -> Result<(Value, Vec<Value>), Error> {
        let span = self.call_span;
        self.guarded(span, |s| {
            let r = ad::value_and_gradient_forward(&mut s.machine, &s.ad, f, args, width)?;
            let _ = s.machine.out.flush();
            Ok(r)
        })
    }

    /// The value, gradient and Hessian of `f(x)` for `x` a float or an array of floats, by
    /// forward-over-reverse with `width` (1 to 8) Hessian columns per pass: `H[i][j]` is
    /// `∂²f/∂x_i∂x_j` (entries of an array in linear order).
    ///
    /// ```
    /// use mooncake::{Session, Value};
    /// let mut s = Session::new()?;
    /// s.load_source("m.jl", "f(x) = x[1]^2 * x[2]")?;
    /// let f = s.eval("f")?;
    /// let h = s.value_gradient_and_hessian(&f, &Value::from(vec![1.0, 3.0]), 2)?;
    /// assert_eq!(h.gradient, vec![6.0, 1.0]);
    /// assert_eq!(h.hessian, vec![vec![6.0, 2.0], vec![2.0, 0.0]]);
    /// # Ok::<(), mooncake::Error>(())
    /// ```
    pub fn value_gradient_and_hessian(
        &mut self,
        f: &Value,
        x: &Value,
        width: usize,
    ) -> Result<ad::Hessian, Error> {
        let span = self.call_span;
        self.guarded(span, |s| {
            let r = ad::value_gradient_and_hessian(&mut s.machine, &s.ad, f, x, width)?;
            let _ = s.machine.out.flush();
            Ok(r)
        })
    }

    /// The value and Jacobian of `f(x)` (`x` a float or float array, `f` returning a float or
    /// float array): by forward mode with `width` (1 to 8) columns per pass, or by reverse
    /// mode (`width` ignored) with one pullback per output entry.
    pub fn value_and_jacobian(
        &mut self,
        f: &Value,
        x: &Value,
        forward: bool,
        width: usize,
    ) -> Result<ad::Jacobian, Error> {
        let span = self.call_span;
        self.guarded(span, |s| {
            let r = if forward {
                ad::value_and_jacobian_forward(&mut s.machine, &s.ad, f, x, width)?
            } else {
                ad::value_and_jacobian_reverse(&mut s.machine, &s.ad, f, x)?
            };
            let _ = s.machine.out.flush();
            Ok(r)
        })
    }

    /// Hessian-vector products by forward-over-reverse: the gradient of `f(args...)` (a float)
    /// and its derivative along each direction of `dirs` (`dirs[l]` a tangent of `f` and of
    /// each argument; at most 8 directions).
    pub fn gradient_and_hvps(
        &mut self,
        f: &Value,
        args: &[Value],
        dirs: &[Vec<Value>],
    ) -> Result<ad::Hvps, Error> {
        let span = self.call_span;
        self.guarded(span, |s| {
            let r = ad::gradient_and_hvps(&mut s.machine, &s.ad, f, args, dirs)?;
            let _ = s.machine.out.flush();
            Ok(r)
        })
    }

    /// Prepares repeated forward-mode derivatives and gradients of `f` at arguments like
    /// `args`: the one-lane rule (for [`Session::value_and_derivative_cached`]) and the
    /// `width`-lane rule (for [`Session::value_and_gradient_forward_cached`]; 1 to 8 lanes) are
    /// derived once, and later calls check the arguments' types and array sizes.
    pub fn prepare_derivative_cache(
        &mut self,
        f: &Value,
        args: &[Value],
        width: usize,
    ) -> Result<DerivativeCache, Error> {
        let span = self.call_span;
        self.guarded(span, |s| {
            let key = s.ad_method_instance(f, args)?;
            let n = width
                .clamp(1, 8)
                .min(ad::input_directions(f, args, &s.machine.compiler.env).max(1));
            let one = s.ad.dual_rule(&mut s.machine.compiler, &key, 1)?;
            let lanes = s.ad.dual_rule(&mut s.machine.compiler, &key, n)?;
            Ok(DerivativeCache {
                f: f.clone(),
                shapes: Shapes::of(args, s.machine.compiler.generation()),
                one,
                lanes,
                width: n,
                state: std::sync::Mutex::new(ad::LaneReuse::new()),
            })
        })
    }

    /// `value_and_derivative` through a prepared cache.
    pub fn value_and_derivative_cached(
        &mut self,
        cache: &DerivativeCache,
        args: &[(Value, Value)],
    ) -> Result<(Value, Value), Error> {
        let xs: Vec<Value> = args.iter().map(|(x, _)| x.clone()).collect();
        cache
            .shapes
            .validate(&xs, self.machine.compiler.generation())?;
        let mut all = vec![cache.f.clone()];
        all.extend(xs);
        let mut lane = vec![ad::zero_tangent(&cache.f, &self.machine.compiler.env)];
        lane.extend(args.iter().map(|(_, t)| t.clone()));
        let (y, mut ts) = ad::run_dual(&mut self.machine, &cache.one, &all, &[lane])?;
        let _ = self.machine.out.flush();
        Ok((y, ts.pop().unwrap_or_else(ad::no_tangent)))
    }

    /// `value_and_gradient_forward` through a prepared cache (its width).
    pub fn value_and_gradient_forward_cached(
        &mut self,
        cache: &DerivativeCache,
        args: &[Value],
    ) -> Result<(Value, Vec<Value>), Error> {
        cache
            .shapes
            .validate(args, self.machine.compiler.generation())?;
        let mut st = cache.state.lock().unwrap_or_else(|e| e.into_inner());
        let r = ad::gradient_by_lanes(
            &mut self.machine,
            &cache.lanes,
            cache.width,
            &cache.f,
            args,
            &mut st,
        );
        if r.is_err() {
            *st = ad::LaneReuse::new();
        }
        let _ = self.machine.out.flush();
        Ok(r?)
    }

    /// The forward rule of `f(args...)` with `width` lanes (derived once and cached).
    pub(crate) fn build_frule(
        &mut self,
        f: &Value,
        args: &[Value],
        width: usize,
    ) -> Result<Arc<Function>, Error> {
        let span = self.call_span;
        self.guarded(span, |s| {
            let key = s.ad_method_instance(f, args)?;
            Ok(s.ad.dual_rule(&mut s.machine.compiler, &key, width)?)
        })
    }

    /// The reverse-mode rule of `f(args...)` (derived once per method instance and cached).
    pub(crate) fn build_rrule(&mut self, f: &Value, args: &[Value]) -> Result<ad::Rule, Error> {
        let span = self.call_span;
        self.guarded(span, |s| {
            let key = s.ad_method_instance(f, args)?;
            Ok(s.ad.rule(&mut s.machine.compiler, &key)?)
        })
    }

    /// Prepares repeated gradients of `f` at arguments like `args`: the rule is derived once,
    /// and later calls check that the arguments have the same types and array sizes.
    ///
    /// ```
    /// use mooncake::{Session, Value};
    /// let mut s = Session::new()?;
    /// s.load_source("m.jl", "f(x) = sum(sin, x)")?;
    /// let f = s.eval("f")?;
    /// let cache = s.prepare_gradient_cache(&f, &[Value::from(vec![0.0, 0.0])])?;
    /// for k in 0..3 {
    ///     let (_, g) = s.value_and_gradient_cached(&cache, &[Value::from(vec![0.0, k as f64])])?;
    ///     assert_eq!(g[1].to_f64_vec().unwrap()[0], 1.0); // cos(0)
    /// }
    /// # Ok::<(), mooncake::Error>(())
    /// ```
    pub fn prepare_gradient_cache(
        &mut self,
        f: &Value,
        args: &[Value],
    ) -> Result<GradientCache, Error> {
        let span = self.call_span;
        self.guarded(span, |s| {
            let rule = s.build_rrule(f, args)?;
            let mut all = vec![f.clone()];
            all.extend(args.iter().cloned());
            Ok(GradientCache {
                f: f.clone(),
                shapes: Shapes::of(args, s.machine.compiler.generation()),
                plan: ad::Plan::new(&all, &s.machine.compiler.env),
                rule,
                state: std::sync::Mutex::new(ad::Reuse::new()),
            })
        })
    }

    /// Prepares repeated pullbacks of `f` at arguments like `args` (the same cache type as
    /// [`Session::prepare_gradient_cache`]; use it with [`Session::value_and_pullback_cached`]).
    pub fn prepare_pullback_cache(
        &mut self,
        f: &Value,
        args: &[Value],
    ) -> Result<GradientCache, Error> {
        let span = self.call_span;
        self.guarded(span, |s| s.prepare_gradient_cache(f, args))
    }

    /// `value_and_gradient` through a prepared cache.
    pub fn value_and_gradient_cached(
        &mut self,
        cache: &GradientCache,
        args: &[Value],
    ) -> Result<(Value, Vec<Value>), Error> {
        cache
            .shapes
            .validate(args, self.machine.compiler.generation())?;
        let r = cache.run(&mut self.machine, args, None)?;
        let _ = self.machine.out.flush();
        Ok(r)
    }

    /// `value_and_pullback` through a prepared cache (see [`Session::prepare_gradient_cache`]).
    pub fn value_and_pullback_cached(
        &mut self,
        cache: &GradientCache,
        dy: &Value,
        args: &[Value],
    ) -> Result<(Value, Vec<Value>), Error> {
        cache
            .shapes
            .validate(args, self.machine.compiler.generation())?;
        let r = cache.run(&mut self.machine, args, Some(dy.clone()))?;
        let _ = self.machine.out.flush();
        Ok(r)
    }

    /// `(f(args...), (∂f, ∂args...))` for an output cotangent `dy` (a tangent of the output).
    pub fn value_and_pullback(
        &mut self,
        f: &Value,
        dy: &Value,
        args: &[Value],
    ) -> Result<(Value, Vec<Value>), Error> {
        let span = self.call_span;
        self.guarded(span, |s| {
            let r = ad::value_and_pullback(&mut s.machine, &s.ad, f, dy, args)?;
            let _ = s.machine.out.flush();
            Ok(r)
        })
    }

    /// Runs `test_rule` on the reverse-mode rule of the call `call` (its arguments evaluated).
    pub fn test_rule(&mut self, call: &str) -> Result<ad::RuleReport, Error> {
        let span = self.call_span;
        let r = self.guarded(span, |s| {
            let (f, args) = s.eval_call_parts(call)?;
            Ok(ad::test_rule(
                &mut s.machine,
                &s.ad,
                &f,
                &args,
                1234,
                ad::TestOptions::default(),
            )?)
        });
        r.map_err(|e| self.primal_error(call, e))
    }

    /// Evaluates the arguments of the call expression `call` and differentiates the call. A
    /// mistake in the program is reported as running the call reports it (see
    /// [`Session::primal_error`]).
    pub fn gradient_of_call(&mut self, call: &str) -> Result<(Value, Vec<Value>), Error> {
        let span = self.call_span;
        let r = self.guarded(span, |s| {
            let (f, args) = s.eval_call_parts(call)?;
            s.value_and_gradient(&f, &args)
        });
        r.map_err(|e| self.primal_error(call, e))
    }

    /// The error to report for `err`, raised while differentiating the call expression `call`:
    /// the error the call itself raises when run (its type, message, candidates, line and
    /// stack trace exactly as `mooncake run` prints them), if it raises one; else `err`. The
    /// call runs again without printing, on arguments evaluated again.
    pub fn primal_error(&mut self, call: &str, err: Error) -> Error {
        if matches!(err, Error::Syntax(_) | Error::Usage(_) | Error::Io { .. }) {
            return err;
        }
        let out = std::mem::replace(&mut self.machine.out, Box::new(std::io::sink()));
        let r = self.eval(call);
        self.machine.out = out;
        match r {
            Err(e) => e,
            Ok(_) => err,
        }
    }

    /// `{"value": v, "gradient": g, "hessian": H}` (the CLI's `hessian --json` output): `g` and
    /// `H` numbers for a float argument (`scalar`), else an array and an array of rows.
    pub fn hessian_json(&self, value: &Value, g: &[f64], h: &[Vec<f64>], scalar: bool) -> String {
        use serde_json::Value as Json;
        let row = |r: &[f64]| Json::Array(r.iter().map(|d| json::float(*d)).collect());
        let (gj, hj) = match (scalar, g.first(), h.first().and_then(|r| r.first())) {
            (true, Some(g0), Some(h00)) => (json::float(*g0), json::float(*h00)),
            _ => (row(g), Json::Array(h.iter().map(|r| row(r)).collect())),
        };
        let v = json::to_json(value, &self.machine.compiler.env);
        serde_json::json!({ "value": v, "gradient": gj, "hessian": hj }).to_string()
    }

    /// `{"value": V, "gradient": [T_f, T_1, ...]}` for a gradient (the CLI's `--json` output).
    pub fn gradient_json(&self, value: &Value, gradient: &[Value]) -> String {
        let env = &self.machine.compiler.env;
        let g: Vec<serde_json::Value> = gradient.iter().map(|t| json::to_json(t, env)).collect();
        serde_json::json!({ "value": json::to_json(value, env), "gradient": g }).to_string()
    }

    /// The method instance a call would run, to be differentiated.
    pub(crate) fn ad_method_instance(&mut self, f: &Value, args: &[Value]) -> Result<MiKey, Error> {
        let key = self.method_instance(f, args)?;
        ad::check_fixed_arguments(&self.machine.compiler, &key)?;
        Ok(key)
    }

    /// The method instance a call would run.
    pub(crate) fn method_instance(&mut self, f: &Value, args: &[Value]) -> Result<MiKey, Error> {
        let table = compiler::typeexpr::callee_table(&f.ty())
            .ok_or_else(|| Error::Usage(format!("a value of type {} is not callable", f.ty())))?;
        let mut types: Vec<Type> = vec![f.ty()];
        types.extend(args.iter().map(|a| a.ty()));
        match self.machine.compiler.resolve_call(table, &types) {
            Ok(k) => Ok(k),
            Err(Dispatch::Ambiguous(_)) => {
                Err(Error::Usage(format!("the call of {table} is ambiguous")))
            }
            Err(_) => Err(Error::Runtime(RuntimeError::new(runtime::method_error(
                f,
                args,
                self.machine.compiler.candidates(table, &f.ty()),
            )))),
        }
    }

    /// The IR of the method instance that `call` (e.g. `"f(1.0, 2)"`) runs, at `stage`, as
    /// text with source locations.
    pub fn ir(&mut self, call: &str, stage: Stage) -> Result<String, Error> {
        let span = self.call_span;
        self.guarded(span, |s| {
            let func = s.function_ir(call, stage)?;
            Ok(s.write_ir(&func))
        })
    }

    /// The IR of the method instance that `call` runs, at `stage` (for the derived stages,
    /// the functions derived from it).
    pub fn function_ir(&mut self, call: &str, stage: Stage) -> Result<Arc<Function>, Error> {
        let span = self.call_span;
        self.guarded(span, |s| {
            let (f, args) = s.eval_call_parts(call)?;
            if stage == Stage::Dual {
                return s.build_frule(&f, &args, 1);
            }
            let key = s.method_instance(&f, &args)?;
            let func = match stage {
                Stage::Forward => s.ad.rule(&mut s.machine.compiler, &key)?.fwd,
                Stage::Pullback => s.ad.rule(&mut s.machine.compiler, &key)?.rvs,
                Stage::Dual => s.build_frule(&f, &args, 1)?,
                Stage::Lowered => s
                    .machine
                    .compiler
                    .lowered(&key)
                    .ok_or_else(|| Error::Usage("no lowered code".into()))?,
                Stage::Typed => s.machine.compiler.typed(&key)?,
                Stage::Optimised => s.machine.compiler.optimised(&key)?,
            };
            Ok(func)
        })
    }

    /// Prints IR with source locations as `file:line:col` comments.
    pub fn write_ir(&self, f: &Function) -> String {
        let loc = |sp: Span| self.location(sp);
        ir::write_function(f, Some(&loc))
    }

    /// `file:line:col` of a span.
    /// Whether the line holding `sp` is too long to show in an excerpt.
    fn long_line(&self, sp: Span) -> bool {
        let Some(fi) = self.files.get(sp.file.0 as usize) else {
            return false;
        };
        let lo = (sp.lo as usize).min(fi.src.len());
        let start = fi.src[..lo].rfind('\n').map_or(0, |i| i + 1);
        let end = fi.src[lo..].find('\n').map_or(fi.src.len(), |i| lo + i);
        end - start > MAX_EXCERPT_LINE
    }

    /// `at file:line:col: …text around sp…`, for a span on a line too long to show.
    fn excerpt(&self, sp: Span) -> String {
        let Some(fi) = self.files.get(sp.file.0 as usize) else {
            return self.location(sp);
        };
        let src: &str = &fi.src;
        let lo = (sp.lo as usize).min(src.len());
        let floor = |mut i: usize| {
            while !src.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let a = floor(lo.saturating_sub(40));
        let b = floor((lo + 40).min(src.len()));
        let text: String = src[a..b].chars().filter(|c| *c != '\n').collect();
        format!(
            "at {}: …{text}… (the line is too long to show)",
            self.location(sp)
        )
    }

    /// Sends warnings (Julia's, such as an ambiguous assignment in a top-level loop) and what
    /// the program writes to `stderr` to `out` instead of standard error.
    pub fn set_warning_output(&mut self, out: Box<dyn Write + Send>) {
        self.machine.err = out;
    }

    /// A warning as Julia's logger prints it: the message, then `@ file:line`.
    pub fn render_warning(&self, w: &compiler::Warning) -> String {
        let place = match self.files.get(w.span.file.0 as usize) {
            Some(fi) => format!("{}:{}", fi.name, fi.lines.line_col(&fi.src, w.span.lo).0),
            None => "none:0".into(),
        };
        format!("┌ Warning: {}\n└ @ {place}\n", w.message)
    }

    pub(crate) fn location(&self, sp: Span) -> String {
        match self.files.get(sp.file.0 as usize) {
            Some(fi) => {
                let (l, c) = fi.lines.line_col(&fi.src, sp.lo);
                format!("{}:{l}:{c}", fi.name)
            }
            None => "<unknown>".into(),
        }
    }

    /// A diagnostic for an error with a trace (innermost first): labelled at the innermost
    /// frame in user code, with the frames listed as a stack trace (AD-internal names are
    /// shown as the method instance they derive from).
    fn traced(
        &self,
        message: String,
        span: Option<Span>,
        trace: &[(String, Span)],
        label: &dyn Fn(Span) -> Option<Label<usize>>,
    ) -> CsDiagnostic<usize> {
        let mut cd = CsDiagnostic::error().with_message(message);
        // Frames of user code; the keyword-argument dispatch the compiler writes for a
        // definition (`#kwcall`) is not shown, so a bad keyword points at the call.
        let mut user: Vec<(String, Span)> = Vec::new();
        // A `try` block's frame is the function around the `try`, at the block's line.
        let mut inside_try: Option<Span> = None;
        for (f, sp) in trace {
            if !self.is_user_span(*sp) || f.starts_with("#kwcall(") {
                continue;
            }
            if is_try_block(f) {
                inside_try = inside_try.or(Some(*sp));
                continue;
            }
            user.push((f.clone(), inside_try.take().unwrap_or(*sp)));
        }
        // (A top-level statement has no frame of its own.)
        if let Some(sp) = inside_try {
            user.push(("top-level".into(), sp));
        }
        let user: Vec<&(String, Span)> = user.iter().collect();
        let at = user.first().map(|(_, sp)| *sp).or(span);
        if let Some(l) = at.and_then(label) {
            cd = cd.with_labels(vec![l]);
        }
        if user.len() > 1 || trace.len() > user.len() {
            let mut notes = String::from("Stacktrace:");
            let mut k = 0;
            let mut i = 0;
            while i < user.len() {
                // Identical consecutive frames (deep recursion) print once.
                let (func, sp) = user[i];
                let mut reps = 1;
                while i + reps < user.len() && user[i + reps] == user[i] {
                    reps += 1;
                }
                i += reps;
                k += 1;
                if k > 30 {
                    notes.push_str("\n ...");
                    break;
                }
                let name = match func.as_str() {
                    "top-level" | "" => "top-level scope".to_string(),
                    // (A program's own function of a library name, table `Main.f`, is `f`.)
                    f => ad_frame_name(f).replace("Main.", ""),
                };
                notes.push_str(&format!("\n [{k}] {name} at {}", self.location(*sp)));
                if reps > 1 {
                    notes.push_str(&format!(" (repeats {reps} times)"));
                }
            }
            cd = cd.with_notes(vec![notes]);
        }
        cd
    }

    fn is_user_span(&self, sp: Span) -> bool {
        !sp.is_dummy()
            && !self.machine.compiler.in_prelude(sp.file)
            && (sp.file.0 as usize) < self.files.len()
    }

    /// Renders an error as the CLI prints it: `error: message`, the `file:line:col` of the
    /// innermost user frame with a source excerpt, and the user frames of the backtrace.
    pub fn render_error(&self, err: &Error) -> String {
        let mut files = SimpleFiles::new();
        let ids: Vec<usize> = self
            .files
            .iter()
            .map(|f| files.add(f.name.clone(), f.src.to_string()))
            .collect();
        let mut diags: Vec<CsDiagnostic<usize>> = Vec::new();
        let label = |sp: Span| -> Option<Label<usize>> {
            let id = *ids.get(sp.file.0 as usize)?;
            if self.long_line(sp) {
                return None;
            }
            Some(Label::primary(id, sp.lo as usize..sp.hi as usize))
        };
        // A span on a line too long to show in full: its location and a window around it.
        let located = |cd: CsDiagnostic<usize>, sp: Span| match self.long_line(sp) {
            true => cd.with_notes(vec![self.excerpt(sp)]),
            false => cd,
        };
        match err {
            Error::Syntax(ds) => {
                for d in ds.iter().take(MAX_SHOWN_SYNTAX_ERRORS) {
                    let mut cd = CsDiagnostic::error().with_message(&d.message);
                    if let Some(l) = label(d.span) {
                        cd = cd.with_labels(vec![l]);
                    }
                    diags.push(located(cd, d.span));
                }
                if ds.len() > MAX_SHOWN_SYNTAX_ERRORS {
                    let more = ds.len() - MAX_SHOWN_SYNTAX_ERRORS;
                    let at_least = if ds.len() >= syntax::parser::MAX_DIAGNOSTICS {
                        "at least "
                    } else {
                        ""
                    };
                    diags.push(
                        CsDiagnostic::note()
                            .with_message(format!("{at_least}{more} more syntax errors")),
                    );
                }
            }
            Error::Compile(e) => {
                let mut cd = CsDiagnostic::error().with_message(&e.message);
                if let Some(l) = label(e.span) {
                    cd = cd.with_labels(vec![l]);
                }
                diags.push(located(cd, e.span));
            }
            Error::Runtime(e) => {
                let frames: Vec<(String, Span)> =
                    e.trace.iter().map(|f| (f.func.clone(), f.span)).collect();
                let mut d = self.traced(
                    e.exception.to_string(),
                    e.trace.first().map(|f| f.span),
                    &frames,
                    &label,
                );
                if matches!(e.exception, Exception::Internal(_)) {
                    d = d.with_notes(vec![BUG_NOTE.into()]);
                }
                diags.push(d);
            }
            Error::Ad(e) => {
                diags.push(self.traced(e.message.clone(), Some(e.span), &e.trace, &label));
            }
            Error::Internal { message, span } => {
                let mut cd = CsDiagnostic::error()
                    .with_message(format!("internal error: {message}"))
                    .with_notes(vec![BUG_NOTE.into()]);
                if let Some(l) = span.and_then(label) {
                    cd = cd.with_labels(vec![l]);
                }
                diags.push(cd);
            }
            Error::Usage(m) | Error::Io { message: m, .. } => {
                let msg = match err {
                    Error::Io { path, .. } => format!("cannot read {path}: {m}"),
                    _ => m.clone(),
                };
                diags.push(CsDiagnostic::error().with_message(msg));
            }
        }
        let mut buf = NoColor::new(Vec::new());
        let config = term::Config::default();
        for d in &diags {
            let _ = term::emit_to_write_style(&mut buf, &config, &files, d);
        }
        String::from_utf8_lossy(&buf.into_inner()).into_owned()
    }
}

/// Syntax errors shown at most (the count of the others follows).
const MAX_SHOWN_SYNTAX_ERRORS: usize = 10;
/// Lines longer than this are not shown whole in an error's excerpt.
const MAX_EXCERPT_LINE: usize = 400;

/// The type and (for arrays) dimensions of an argument.
fn shape_of(v: &Value) -> (Type, Vec<usize>) {
    match v {
        Value::Array(a) => (v.ty(), a.dims().to_vec()),
        _ => (v.ty(), vec![]),
    }
}

/// A method instance resolved and compiled for repeated calls ([`Session::prepare_call`]).
pub struct PreparedCall {
    f: Value,
    types: Vec<Type>,
    /// The compiler's generation when prepared.
    generation: u64,
    func: Arc<Function>,
    /// Its native code, looked up once.
    native: Option<interp::Prepared>,
}

/// A prepared forward-mode derivative (see [`Session::prepare_derivative_cache`]).
pub struct DerivativeCache {
    f: Value,
    shapes: Shapes,
    one: Arc<Function>,
    lanes: Arc<Function>,
    width: usize,
    /// What the forward-mode gradient reuses from call to call; replaced after a failed call.
    state: std::sync::Mutex<ad::LaneReuse>,
}

impl Clone for DerivativeCache {
    /// The same rules and argument checks, with a state of its own.
    fn clone(&self) -> DerivativeCache {
        DerivativeCache {
            f: self.f.clone(),
            shapes: self.shapes.clone(),
            one: self.one.clone(),
            lanes: self.lanes.clone(),
            width: self.width,
            state: std::sync::Mutex::new(ad::LaneReuse::new()),
        }
    }
}

/// The argument types and array sizes a cache was prepared for, and the compiler's
/// generation then (see [`compiler::Compiler::generation`]).
#[derive(Clone)]
struct Shapes(Vec<(Type, Vec<usize>)>, u64);

/// A prepared gradient (or pullback) computation: the derived rule of one method instance and
/// the argument shapes it was prepared for (see [`Session::prepare_gradient_cache`] and
/// [`Session::prepare_pullback_cache`]).
pub struct GradientCache {
    f: Value,
    shapes: Shapes,
    rule: ad::Rule,
    /// How zero fdata are made and gradients assembled, decided once from the argument types.
    plan: ad::Plan,
    /// What is reused from call to call; replaced after a failed call.
    state: std::sync::Mutex<ad::Reuse>,
}

impl Clone for GradientCache {
    /// The same rule and argument checks, with a state of its own.
    fn clone(&self) -> GradientCache {
        GradientCache {
            f: self.f.clone(),
            shapes: self.shapes.clone(),
            rule: self.rule.clone(),
            plan: self.plan.clone(),
            state: std::sync::Mutex::new(ad::Reuse::new()),
        }
    }
}

impl GradientCache {
    /// Runs the rule in the cache's state.
    fn run(
        &self,
        m: &mut Machine,
        args: &[Value],
        dy: Option<Value>,
    ) -> Result<(Value, Vec<Value>), Error> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let r = self
            .plan
            .run_reusing(m, &self.rule, &self.f, args, dy, &mut st);
        if r.is_err() {
            *st = ad::Reuse::new();
        }
        Ok(r?)
    }
}

/// Why a prepared call or cache cannot run any more.
const STALE: &str = "the code was prepared before a global it may read was assigned again \
     (which changes what its reads mean); prepare it again";

impl Shapes {
    fn of(args: &[Value], generation: u64) -> Shapes {
        Shapes(args.iter().map(shape_of).collect(), generation)
    }

    fn validate(&self, args: &[Value], generation: u64) -> Result<(), Error> {
        if generation != self.1 {
            return Err(Error::Usage(STALE.into()));
        }
        if args.len() != self.0.len() {
            return Err(Error::Usage(format!(
                "the cache was prepared for {} arguments, got {}",
                self.0.len(),
                args.len()
            )));
        }
        for (k, (a, (t, dims))) in args.iter().zip(&self.0).enumerate() {
            // The common case, checked without building the argument's type.
            if let (Value::Array(arr), Type::Array(e, n)) = (a, t) {
                if arr.elem == **e
                    && arr.with(|d| d.dims[..] == dims[..])
                    && *n as usize == dims.len()
                {
                    continue;
                }
            }
            let (at, ad) = shape_of(a);
            if at != *t {
                return Err(Error::Usage(format!(
                    "argument {} has type {at}, but the cache was prepared for {t}",
                    k + 1
                )));
            }
            if ad != *dims {
                return Err(Error::Usage(format!(
                    "argument {} has size {ad:?}, but the cache was prepared for size {dims:?}",
                    k + 1
                )));
            }
        }
        Ok(())
    }
}

/// Limits the storage of all live arrays, in every session of the process, to `bytes`
/// (`None`: no limit but the system's). Growing an array past it raises Julia's
/// `OutOfMemoryError()`, as does an allocation the system refuses (the process never
/// aborts for want of memory).
pub fn set_memory_limit(bytes: Option<usize>) {
    runtime::memory::set_limit(bytes)
}

/// Sets the number of threads `Threads.@threads` loops and `threaded_map!` run on, for the
/// whole process (`Threads.nthreads()`); 0 means the machine's cores (the default), and more
/// than 1024 means 1024. Takes effect at the next threaded loop.
pub fn set_threads(n: usize) {
    runtime::threads::set_threads(n)
}

/// The number of threads threaded loops run on (`Threads.nthreads()`).
pub fn threads() -> usize {
    runtime::threads::nthreads()
}

/// Julia's `show` formatting of a value (what `repr` returns).
pub fn show(v: &Value) -> String {
    runtime::show::show_string(v)
}

/// A gradient in the form of the argument it is the gradient with respect to, where that
/// reads better than the tangent: the tangent of a `Dict` (or `IdDict`) is a `Dict` of the same
/// keys holding the values' tangents, also inside tuples and the fields of structs; any other
/// tangent is itself. (`value_and_gradient` returns tangents, as Mooncake does; this is for
/// showing them.)
pub fn present_gradient(primal: &Value, tangent: &Value) -> Value {
    match (primal, tangent) {
        (Value::Struct(p), Value::Struct(t)) if p.fields.len() == t.fields.len() => {
            let copy = |a: &SharedArray| {
                Value::Array(SharedArray::new(ArrayObj::from_values(
                    a.elem.clone(),
                    a.dims().to_vec(),
                    a.snapshot(),
                )))
            };
            // A hash table's tangent: the tangents of its values, slot by slot.
            if let (
                Type::Struct(name, ps),
                [Value::Array(slots), Value::Array(keys), Value::Array(vals), Value::Array(meta)],
                [_, _, Value::Array(dvals), _],
            ) = (&p.ty, &p.fields[..], &t.fields[..])
            {
                if matches!(name.as_str(), "Dict" | "IdDict")
                    && ps.len() == 2
                    && dvals.len() == vals.len()
                {
                    let ty =
                        Type::Struct(*name, Arc::from(vec![ps[0].clone(), dvals.elem.clone()]));
                    return Value::Struct(Arc::new(runtime::value::StructVal {
                        ty,
                        fields: vec![copy(slots), copy(keys), copy(dvals), copy(meta)].into(),
                    }));
                }
            }
            let fields: Vec<Value> = p
                .fields
                .iter()
                .zip(t.fields.iter())
                .map(|(p, t)| present_gradient(p, t))
                .collect();
            if fields
                .iter()
                .zip(t.fields.iter())
                .all(|(a, b)| runtime::egal(a, b))
            {
                return tangent.clone();
            }
            Value::Struct(Arc::new(runtime::value::StructVal {
                ty: t.ty.clone(),
                fields: fields.into(),
            }))
        }
        (Value::Tuple(ps), Value::Tuple(ts)) if ps.len() == ts.len() => Value::Tuple(
            ps.iter()
                .zip(ts.iter())
                .map(|(p, t)| present_gradient(p, t))
                .collect(),
        ),
        _ => tangent.clone(),
    }
}

/// The name a stack trace shows for a function: derived AD functions (`fwd f(T...)`) show as
/// the method instance they differentiate.
fn ad_frame_name(name: &str) -> String {
    let derived = |kind: &str| {
        matches!(kind, "fwd" | "rvs")
            || kind
                .strip_prefix("dual")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    match name.strip_prefix('#').unwrap_or(name).split_once(' ') {
        Some((kind, mi)) if derived(kind) => ad_frame_name(mi),
        // The body of a function with keyword arguments (`#f#kwF_N`, keywords first) shows as
        // `f`.
        _ => {
            let body = name
                .strip_prefix('#')
                .and_then(|n| n.split_once("#kw"))
                .and_then(|(f, rest)| {
                    let (tag, args) = rest.split_once('(')?;
                    tag.bytes()
                        .all(|b| b.is_ascii_digit() || b == b'_')
                        .then(|| format!("{f}({args}"))
                });
            // An anonymous function (`#f#N`, numbered in the order the session made them;
            // also a threaded loop's body) shows as written in `f`, without its number.
            let anonymous = || {
                let (head, args) = name.strip_prefix('#')?.split_once('(')?;
                let (f, n) = head.rsplit_once('#')?;
                (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                    .then(|| format!("(::anonymous function in {f})({args}"))
            };
            body.or_else(anonymous).unwrap_or_else(|| name.to_string())
        }
    }
}

/// Whether a backtrace frame is a `try` block's (`#f#try#N(...)`, see `ast::Lambda::try_block`).
fn is_try_block(frame: &str) -> bool {
    let head = frame.split('(').next().unwrap_or("");
    head.rsplit_once("#try#")
        .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether a top-level `if` or `begin` block defines a function or type in one of its
/// branches (not inside a loop or function).
fn defines(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Function(d) => !matches!(d.name, syntax::ast::FnName::Anonymous),
        ExprKind::Struct(_) | ExprKind::AbstractType { .. } => true,
        ExprKind::Macro { args, .. } => args.iter().any(defines),
        ExprKind::If { then, else_, .. } => {
            then.iter().any(defines) || else_.as_deref().is_some_and(defines)
        }
        ExprKind::Block(items) => items.iter().any(defines),
        _ => false,
    }
}
