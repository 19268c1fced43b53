//! Native code for typed IR through Cranelift: the `Jit` engine, installed as the machine's
//! native backend (`interp::Native`), compiles each finished function on its first call and
//! runs it natively; a function it cannot compile runs in the interpreter (with a notice).
//!
//! Layout: `codegen` lowers one IR function to Cranelift IR; `abi` holds the calling
//! convention and the `extern "C"` helpers compiled code calls into. The interpreter stays the
//! reference: generic instructions run through its `eval_inst`, so the two backends agree on
//! semantics and error messages by construction.

pub mod abi;
pub mod codegen;

use abi::{Ctx, Entry, Meta};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{FuncId, Linkage, Module};
use interp::{Machine, Native, NativeCode, RuntimeError};
use ir::Function;
use runtime::{Exception, Value};
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Clone)]
struct Compiled {
    entry: Entry,
    /// The number of arguments the code reads.
    arity: usize,
    /// For a function returning a tuple type (see `codegen::returned_fields`): the initial
    /// value of each field the caller provides, its one value for a singleton type (which
    /// the code leaves alone), else `nothing`.
    fields: Option<Arc<[Value]>>,
    /// Keeps the IR and constants the code refers to alive.
    _meta: Arc<Meta>,
}

struct State {
    module: JITModule,
    helpers: FxHashMap<String, FuncId>,
    fctx: cranelift_frontend::FunctionBuilderContext,
    /// One Cranelift context for every compilation: it keeps its tables (and the register
    /// allocator's) allocated from one function to the next.
    ctx: cranelift_codegen::Context,
    /// By function id: the compiled code, or `None` when it runs in the interpreter.
    compiled: FxHashMap<u64, Option<Compiled>>,
    stats: Stats,
}

// SAFETY: the module's memory and the raw pointers in it are only touched under the engine's
// mutex; compiled code is immutable once finalised and may run on any thread.
unsafe impl Send for State {}

/// What the engine has done so far.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Functions compiled to native code.
    pub functions: usize,
    /// Total time spent compiling them.
    pub compile_time: Duration,
    /// Functions left to the interpreter, with the reason.
    pub fallbacks: Vec<(String, String)>,
}

/// The Cranelift engine.
pub struct Jit {
    state: Mutex<State>,
}

impl Jit {
    pub fn new() -> Result<Jit, String> {
        let mut flags = settings::builder();
        let set = |f: &mut settings::Builder, k: &str, v: &str| {
            f.set(k, v)
                .map_err(|e| format!("cranelift setting {k}={v}: {e}"))
        };
        set(&mut flags, "opt_level", "speed")?;
        // Cranelift's own IR verifier runs in debug builds (tests), not in release.
        let verify = if cfg!(debug_assertions) {
            "true"
        } else {
            "false"
        };
        set(&mut flags, "enable_verifier", verify)?;
        set(&mut flags, "use_colocated_libcalls", "false")?;
        set(&mut flags, "is_pic", "false")?;
        let isa = cranelift_native::builder()
            .map_err(|e| format!("this machine is not supported by Cranelift: {e}"))?
            .finish(settings::Flags::new(flags))
            .map_err(|e| format!("cranelift: {e}"))?;
        let mut jb = JITBuilder::with_isa(isa, cranelift_module::default_libcall_names());
        let helpers = codegen::helpers();
        for h in &helpers {
            jb.symbol(h.name.clone(), h.addr);
        }
        let mut module = JITModule::new(jb);
        let mut ids = FxHashMap::default();
        for h in &helpers {
            let mut sig = module.make_signature();
            // Narrow integers are zero-extended, as the C ABI (and Rust) expects of `u8`.
            sig.params.extend(h.params.iter().map(|t| {
                let p = cranelift_codegen::ir::AbiParam::new(*t);
                if t.bits() < 32 {
                    p.uext()
                } else {
                    p
                }
            }));
            sig.returns.extend(
                h.returns
                    .iter()
                    .map(|t| cranelift_codegen::ir::AbiParam::new(*t)),
            );
            let id = module
                .declare_function(&h.name, Linkage::Import, &sig)
                .map_err(|e| format!("cranelift: {e}"))?;
            ids.insert(h.name.clone(), id);
        }
        // Trampolines that preserve every register around the helpers of slow paths that
        // rejoin a loop (growing a vector's buffer), so that values in registers need not be
        // spilled for them: `NAME_pa(args..., status: *mut u32)`.
        for h in helpers
            .iter()
            .filter(|h| codegen::PRESERVING.contains(&h.name.as_str()))
        {
            let id = define_trampoline(&mut module, &ids, h)?;
            ids.insert(format!("{}_pa", h.name), id);
        }
        module
            .finalize_definitions()
            .map_err(|e| format!("cranelift: {e}"))?;
        Ok(Jit {
            state: Mutex::new(State {
                module,
                helpers: ids,
                fctx: cranelift_frontend::FunctionBuilderContext::new(),
                ctx: cranelift_codegen::Context::new(),
                compiled: FxHashMap::default(),
                stats: Stats::default(),
            }),
        })
    }

    pub fn stats(&self) -> Stats {
        self.lock().stats.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The compiled code of `f` (compiling it on first use), or `None` to interpret it.
    fn code(&self, f: &Function, m: &Machine) -> Option<Compiled> {
        let types = &m.compiler.env;
        let mut st = self.lock();
        if let Some(c) = st.compiled.get(&f.id) {
            return c.clone();
        }
        let t0 = Instant::now();
        // A bug in lowering must not take the program down: the function is interpreted
        // instead (the notice under `--verbose` names it).
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            compile(&mut st, f, types, &const_globals(f, m))
        }))
        .unwrap_or_else(|p| {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(format!("internal error while compiling: {what}"))
        });
        let c = match r {
            Ok(c) => {
                st.stats.functions += 1;
                st.stats.compile_time += t0.elapsed();
                Some(c)
            }
            Err(why) => {
                st.stats.fallbacks.push((f.name.clone(), why));
                None
            }
        };
        st.compiled.insert(f.id, c.clone());
        c
    }
}

/// Defines `NAME_pa`: the helper `h` called under the `preserve_all` convention, its status
/// stored through an extra pointer argument (that convention returns nothing).
fn define_trampoline(
    module: &mut JITModule,
    ids: &FxHashMap<String, FuncId>,
    h: &codegen::Helper,
) -> Result<FuncId, String> {
    use cranelift_codegen::ir::{types, AbiParam, InstBuilder, MemFlagsData};
    let mut sig = module.make_signature();
    sig.call_conv = cranelift_codegen::isa::CallConv::PreserveAll;
    sig.params
        .extend(h.params.iter().map(|t| AbiParam::new(*t)));
    sig.params.push(AbiParam::new(types::I64));
    let id = module
        .declare_function(&format!("{}_pa", h.name), Linkage::Local, &sig)
        .map_err(|e| format!("cranelift: {e}"))?;
    let mut ctx = module.make_context();
    ctx.func.signature = sig;
    let mut fctx = cranelift_frontend::FunctionBuilderContext::new();
    {
        let mut b = cranelift_frontend::FunctionBuilder::new(&mut ctx.func, &mut fctx);
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let params = b.block_params(entry).to_vec();
        let (args, status) = params.split_at(params.len() - 1);
        let callee = module.declare_func_in_func(ids[&h.name], b.func);
        let call = b.ins().call(callee, args);
        let st = b.inst_results(call)[0];
        b.ins().store(MemFlagsData::trusted(), st, status[0], 0);
        b.ins().return_(&[]);
        b.seal_all_blocks();
        b.finalize(module.target_config());
    }
    module
        .define_function(id, &mut ctx)
        .map_err(|e| format!("cranelift: {e:?}"))?;
    module.clear_context(&mut ctx);
    Ok(id)
}

/// The values of the constant and bound globals `f` reads, as defined now (their values never
/// change; redefining a constant makes new code, assigning a bound global again forgets the
/// code that read it).
fn const_globals(f: &Function, m: &Machine) -> FxHashMap<syntax::Symbol, Value> {
    let mut out = FxHashMap::default();
    for b in &f.layout {
        for &i in &f.blocks[*b].insts {
            if let ir::InstData::GetGlobal(name) = &f.insts[i] {
                let fixed = m.compiler.globals.get(name).is_some_and(|g| g.is_fixed());
                if let Some(v) = m.globals.get(name).filter(|_| fixed) {
                    out.insert(*name, v.clone());
                }
            }
        }
    }
    out
}

fn compile(
    st: &mut State,
    f: &Function,
    types: &ir::TypeEnv,
    globals: &FxHashMap<syntax::Symbol, Value>,
) -> Result<Compiled, String> {
    let (consts, const_index, unit_index) = codegen::boxed_consts(f, globals, types);
    let sites = codegen::call_sites(f);
    let mut meta = Arc::new(Meta {
        func: Arc::new(f.clone()),
        consts: consts.into_boxed_slice(),
        rule_stacks: Box::new([]),
        call_cells: (0..sites.len())
            .map(|_| std::sync::atomic::AtomicUsize::new(0))
            .collect(),
    });
    // The cells' addresses, which the code embeds (the cells never move).
    let cells: FxHashMap<ir::Inst, i64> = sites
        .iter()
        .zip(meta.call_cells.iter())
        .map(|(i, cell)| (*i, cell as *const _ as i64))
        .collect();
    let sig = codegen::entry_signature(&st.module);
    let id = st
        .module
        .declare_anonymous_function(&sig)
        .map_err(|e| format!("cranelift: {e}"))?;
    let State {
        module,
        helpers,
        fctx,
        ctx,
        ..
    } = st;
    // Cleared first: a failed compilation may have left it in any state.
    module.clear_context(ctx);
    ctx.func.signature = sig;
    let rule_stacks = ir::timing::phase("codegen", || {
        codegen::lower(
            f,
            &mut ctx.func,
            fctx,
            codegen::Env {
                module,
                helpers,
                types,
            },
            Arc::as_ptr(&meta) as i64,
            meta.consts.as_ptr(),
            const_index,
            unit_index,
            cells,
        )
    })?;
    // Nothing else holds `meta` yet (the code that points at it has not run).
    Arc::get_mut(&mut meta)
        .ok_or("the function's metadata is shared before its code exists")?
        .rule_stacks = rule_stacks;
    let dump = std::env::var_os("MOONCAKE_JIT_DUMP").is_some();
    if dump {
        eprintln!("; {}\n{}", f.name, ctx.func.display());
        eprintln!("; IR\n{}", ir::write::write_function(f, None));
        ctx.set_disasm(true);
    }
    ir::timing::phase("cranelift", || {
        module
            .define_function(id, ctx)
            .map_err(|e| format!("cranelift: {e:?}"))
    })?;
    if let Some(asm) = dump
        .then(|| ctx.compiled_code().and_then(|c| c.vcode.clone()))
        .flatten()
    {
        eprintln!("; machine code of {}\n{asm}", f.name);
    }
    let size = ctx
        .compiled_code()
        .map(|c| c.code_info().total_size)
        .unwrap_or(0);
    module.clear_context(ctx);
    module
        .finalize_definitions()
        .map_err(|e| format!("cranelift: {e}"))?;
    let ptr = module.get_finalized_function(id);
    if std::env::var_os("MOONCAKE_PERF_MAP").is_some() {
        perf_map(ptr, size, &f.name);
    }
    // SAFETY: the function was declared with the entry signature that `Entry` spells out.
    let entry: Entry = unsafe { std::mem::transmute::<*const u8, Entry>(ptr) };
    let fields = codegen::returned_fields(f).map(|ts| {
        ts.iter()
            .map(|t| match ir::Const::of_singleton(t) {
                Some(c) => Value::from_const(&c),
                None => Value::Nothing,
            })
            .collect()
    });
    Ok(Compiled {
        entry,
        arity: f.blocks[f.entry()].params.len(),
        fields,
        _meta: meta,
    })
}

/// Appends a line for the function at `ptr` to `/tmp/perf-PID.map`, the file `perf report`
/// reads to name JIT code (`MOONCAKE_PERF_MAP=1`).
fn perf_map(ptr: *const u8, size: u32, name: &str) {
    use std::io::Write;
    let path = format!("/tmp/perf-{}.map", std::process::id());
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = writeln!(file, "{:x} {:x} {}", ptr as usize, size, name);
    }
}

impl Native for Jit {
    fn exec(
        &self,
        m: &mut Machine,
        f: &Function,
        args: &[Value],
    ) -> Option<Result<Value, RuntimeError>> {
        if args.len() != f.blocks[f.entry()].params.len() {
            return None;
        }
        let c = self.code(f, m)?;
        Some(c.call(m, args))
    }

    fn prepare(&self, m: &mut Machine, f: &Function) -> Option<Arc<dyn NativeCode>> {
        Some(Arc::new(self.code(f, m)?))
    }

    fn forget_call_sites(&self) {
        let st = self.lock();
        for c in st.compiled.values().flatten() {
            for cell in c._meta.call_cells.iter() {
                cell.store(0, std::sync::atomic::Ordering::Relaxed);
            }
        }
    }
}

impl Compiled {
    /// Runs the code with `ret` pointing at its result: one initialised value, or one per
    /// field for a function returning a tuple type.
    fn run(&self, m: &mut Machine, args: &[Value], ret: *mut Value) -> Result<(), RuntimeError> {
        self.run_in(Ctx::new(m), args, ret)
    }

    /// As `run`, in the given context (the machine's own, or a threaded loop's).
    fn run_in(&self, mut ctx: Ctx, args: &[Value], ret: *mut Value) -> Result<(), RuntimeError> {
        if args.len() != self.arity {
            return Err(RuntimeError::new(Exception::Internal(format!(
                "native code of {} arguments called with {}",
                self.arity,
                args.len()
            ))));
        }
        // SAFETY: `entry` is finalised code with the entry signature; `args` has one value per
        // parameter (checked above); the callers give `ret` as the code expects it; the
        // machine outlives the call and is only reached through `ctx` while the code runs
        // (with its lock held, on a threaded loop's threads).
        let status = unsafe { (self.entry)(&mut ctx, args.as_ptr(), ret) };
        if status == abi::OK {
            Ok(())
        } else {
            Err(ctx.error.take().unwrap_or_else(|| {
                RuntimeError::new(Exception::Internal(
                    "native code failed without an error".into(),
                ))
            }))
        }
    }
}

impl NativeCode for Compiled {
    fn direct_entry(&self, nargs: usize, ret: &ir::Type) -> Option<usize> {
        // A caller expecting the fields of a tuple gets them only from code that returns
        // exactly that type's fields (which singletons it leaves alone depends on the type).
        let fits = match codegen::fields_of(ret) {
            Some(_) => self.fields.is_some() && self._meta.func.ret_type == *ret,
            None => self.fields.is_none(),
        };
        (fits && self.arity == nargs).then_some(self.entry as usize)
    }

    fn call(&self, m: &mut Machine, args: &[Value]) -> Result<Value, RuntimeError> {
        match &self.fields {
            None => {
                let mut ret = Value::Nothing;
                self.run(m, args, &mut ret)?;
                Ok(ret)
            }
            Some(init) => {
                let mut parts: smallvec::SmallVec<[Value; 4]> = init.iter().cloned().collect();
                self.run(m, args, parts.as_mut_ptr())?;
                Ok(Value::Tuple(parts.into_iter().collect()))
            }
        }
    }

    fn call_in_thread(
        &self,
        shared: &interp::SharedMachine,
        args: &[Value],
    ) -> Result<Value, RuntimeError> {
        match &self.fields {
            None => {
                let mut ret = Value::Nothing;
                self.run_in(Ctx::in_thread(shared), args, &mut ret)?;
                Ok(ret)
            }
            Some(init) => {
                let mut parts: smallvec::SmallVec<[Value; 4]> = init.iter().cloned().collect();
                self.run_in(Ctx::in_thread(shared), args, parts.as_mut_ptr())?;
                Ok(Value::Tuple(parts.into_iter().collect()))
            }
        }
    }

    fn call_fields(
        &self,
        m: &mut Machine,
        args: &[Value],
        out: &mut [Value],
    ) -> Result<(), RuntimeError> {
        match &self.fields {
            Some(init) if init.len() == out.len() => self.run(m, args, out.as_mut_ptr()),
            _ => {
                let r = self.call(m, args)?;
                interp::unpack_into(&r, out)
            }
        }
    }
}
