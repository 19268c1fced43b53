//! The runtime ABI between native code and the runtime: the `extern "C"` helpers that compiled
//! functions call, and the context they share.
//!
//! A compiled function has the uniform signature
//! `extern "C" fn(ctx: *mut Ctx, args: *const Value, ret: *mut Value) -> u32`: its arguments
//! (the function value first) as an array of run-time values, its result written over the
//! initialised value at `ret`, and status 0 (returned) or 1 (an error, left in `ctx.error`).
//! Inside, `Int64`/`Float64`/`Float32`/`Bool` values live in registers; every other value lives
//! in a frame slot, an initialised `Value` on the native stack, so that overwriting a slot frees
//! what it held (a loop that allocates a temporary per iteration runs in bounded memory) and
//! leaving the function drops the frame.

use interp::{Machine, RuntimeError};
use ir::{Function, Inst, InstData};
use runtime::{ArrayData, Exception, SharedArray, Value};
use std::sync::Arc;

/// What compiled code knows about itself at run time: the IR it came from (generic
/// instructions run through `Machine::eval_inst` on it) and its boxed constants.
pub struct Meta {
    pub func: Arc<Function>,
    pub consts: Box<[Value]>,
    /// The `rule_stack`s that `mc_rule_stacks` fetches in one call (see `codegen`).
    pub rule_stacks: Box<[RuleStackSite]>,
    /// One cell per static call (`Invoke`) the code makes, by `codegen::call_sites`: 0 while
    /// unresolved, 1 where the call must go through the interpreter's `eval_inst`, else the
    /// callee's entry, which the code then calls directly.
    pub call_cells: Box<[std::sync::atomic::AtomicUsize]>,
}

/// A `Core.rule_stack(state, k, T)` instruction with constant `k` and `T`, fetched with the
/// others of its function's entry block by one `mc_rule_stacks` call.
#[derive(Clone, Copy, Debug)]
pub struct RuleStackSite {
    pub inst: Inst,
    pub k: i64,
    /// Index of the type `T` in `Meta::consts`.
    pub ty: usize,
    /// Byte offset of the result's slot in the frame.
    pub slot: u32,
}

/// Per-entry context: the machine the code runs on and the error of a failed call.
///
/// On a thread of a threaded loop the machine is lent to several threads
/// (`interp::SharedMachine`): `lock` is then the lock every use of the machine holds
/// ([`Ctx::hold`]), direct calls count their depth in `depth` instead of the machine, and
/// `env` is a snapshot of the type environment no thread changes. On the machine's own thread
/// `lock` is null and `env` is the machine's.
pub struct Ctx {
    pub machine: *mut Machine,
    pub error: Option<RuntimeError>,
    pub lock: *const std::sync::Mutex<()>,
    pub env: *const ir::TypeEnv,
    pub depth: usize,
    /// The machine's AD runtime, for the primitives it evaluates without the machine: borrowed
    /// from the machine (or the lent machine of a threaded loop), which holds it for longer
    /// than the call runs.
    pub ad: Option<std::ptr::NonNull<dyn interp::AdRuntime>>,
}

impl Ctx {
    /// The context of code running on `m`'s own thread.
    pub fn new(m: &mut Machine) -> Ctx {
        let env: *const ir::TypeEnv = &*m.compiler.env;
        Ctx {
            machine: m as *mut Machine,
            error: None,
            lock: std::ptr::null(),
            env,
            depth: 0,
            ad: m.ad_runtime.as_deref().map(std::ptr::NonNull::from),
        }
    }

    /// The context of code running on a thread of a threaded loop.
    pub fn in_thread(shared: &interp::SharedMachine) -> Ctx {
        Ctx {
            machine: shared.machine(),
            error: None,
            lock: shared.lock(),
            env: shared.env(),
            depth: 0,
            ad: shared.ad_runtime().map(std::ptr::NonNull::from),
        }
    }

    /// Holds the machine's lock, if it is lent to several threads, until the guard drops.
    ///
    /// # Safety
    /// `ctx` is a live context; the guard must be dropped before the loop ends.
    unsafe fn hold<'a>(ctx: *const Ctx) -> Option<std::sync::MutexGuard<'a, ()>> {
        // SAFETY: a non-null `lock` points at the `SharedMachine`'s lock, alive while the
        // loop's threads run (the caller's promise).
        unsafe {
            let lock = (*ctx).lock;
            (!lock.is_null()).then(|| (*lock).lock().unwrap_or_else(|e| e.into_inner()))
        }
    }
}

pub type Entry = unsafe extern "C" fn(*mut Ctx, *const Value, *mut Value) -> u32;

/// Status codes returned by compiled functions and fallible helpers.
pub const OK: u32 = 0;
pub const FAILED: u32 = 1;

/// Size of a run-time value (a frame slot).
pub const VALUE_SIZE: u32 = std::mem::size_of::<Value>() as u32;

/// Writes `Value::Nothing` into `n` uninitialised frame slots.
pub(crate) unsafe extern "C" fn mc_frame_init(p: *mut Value, n: usize) {
    for k in 0..n {
        // SAFETY: the frame is a stack slot of `n` values, uninitialised on entry.
        unsafe { p.add(k).write(Value::Nothing) };
    }
}

/// Drops the `n` values of a frame.
pub(crate) unsafe extern "C" fn mc_frame_drop(p: *mut Value, n: usize) {
    for k in 0..n {
        // SAFETY: `p` points to `n` values initialised by `mc_frame_init` (and only assigned
        // to since); nothing uses them after this. Most slots hold values with nothing to
        // free (never assigned, or scalars boxed for a helper): those are skipped.
        unsafe {
            let v = p.add(k);
            if !owns_nothing(&*v) {
                std::ptr::drop_in_place(v);
            }
        }
    }
}

/// `*dst = (*src).clone()` (both initialised).
pub(crate) unsafe extern "C" fn mc_clone(dst: *mut Value, src: *const Value) {
    // SAFETY: both point to initialised values in frames or argument arrays; they may alias.
    unsafe {
        let v = (*src).clone();
        *dst = v;
    }
}

/// Moves the value at `src` into `dst` by exchanging the two: `src` keeps `dst`'s previous
/// value, dropped with its slot. No reference count changes (a clone and the later drop of
/// the source each change one, an atomic operation).
pub(crate) unsafe extern "C" fn mc_move(dst: *mut Value, src: *mut Value) {
    // SAFETY: both point to initialised values (frame slots or the caller's result slot);
    // `ptr::swap` allows them to be the same.
    unsafe { std::ptr::swap(dst, src) }
}

/// Whether dropping `v` frees nothing (a number, a Boolean, `nothing`, an unassigned slot, a
/// generic function): what most frame slots and result slots hold.
#[inline(always)]
fn owns_nothing(v: &Value) -> bool {
    matches!(
        v,
        Value::Nothing
            | Value::Undef
            | Value::Int(_)
            | Value::F64(_)
            | Value::F32(_)
            | Value::Bool(_)
            | Value::Func(_)
    )
}

/// Stores `v` into the initialised slot `dst`, dropping the old value in place only if it
/// owns something.
#[inline(always)]
unsafe fn store_unboxed(dst: *mut Value, v: Value) {
    // SAFETY: `dst` is an initialised slot; overwriting a value that owns nothing without
    // dropping it leaks nothing.
    unsafe {
        if owns_nothing(&*dst) {
            std::ptr::write(dst, v)
        } else {
            *dst = v
        }
    }
}

/// Boxing and unboxing of register values into initialised slots.
pub(crate) unsafe extern "C" fn mc_box_i64(dst: *mut Value, x: i64) {
    // SAFETY: `dst` is an initialised slot.
    unsafe { store_unboxed(dst, Value::Int(x)) }
}
pub(crate) unsafe extern "C" fn mc_box_f64(dst: *mut Value, x: f64) {
    // SAFETY: `dst` is an initialised slot.
    unsafe { store_unboxed(dst, Value::F64(x)) }
}
pub(crate) unsafe extern "C" fn mc_box_f32(dst: *mut Value, x: f32) {
    // SAFETY: `dst` is an initialised slot.
    unsafe { store_unboxed(dst, Value::F32(x)) }
}
pub(crate) unsafe extern "C" fn mc_box_bool(dst: *mut Value, x: u8) {
    // SAFETY: `dst` is an initialised slot.
    unsafe { store_unboxed(dst, Value::Bool(x != 0)) }
}
pub(crate) unsafe extern "C" fn mc_unbox_i64(src: *const Value) -> i64 {
    // SAFETY: `src` is an initialised value; the type checker guarantees its kind.
    match unsafe { &*src } {
        Value::Int(x) => *x,
        _ => 0,
    }
}
pub(crate) unsafe extern "C" fn mc_unbox_f64(src: *const Value) -> f64 {
    // SAFETY: as for `mc_unbox_i64`.
    match unsafe { &*src } {
        Value::F64(x) => *x,
        _ => f64::NAN,
    }
}
pub(crate) unsafe extern "C" fn mc_unbox_f32(src: *const Value) -> f32 {
    // SAFETY: as for `mc_unbox_i64`.
    match unsafe { &*src } {
        Value::F32(x) => *x,
        _ => f32::NAN,
    }
}
pub(crate) unsafe extern "C" fn mc_unbox_bool(src: *const Value) -> u8 {
    // SAFETY: as for `mc_unbox_i64`.
    match unsafe { &*src } {
        Value::Bool(x) => *x as u8,
        _ => 0,
    }
}

/// Runs instruction `inst` of `meta.func` through the interpreter's `eval_inst`.
///
/// `argv` holds one 8-byte word per operand: for an operand held in a register
/// (`Int64`, `Float64`, `Float32`, `Bool`, see `codegen::rep`) the value itself (in the low
/// bytes), for any other a pointer to the initialised value. So native code boxes nothing
/// to call this. The result, if any, goes to `out` the same way: a register-typed result
/// is written as a plain value of its type, any other is assigned to the initialised slot
/// `out` points at; a null `out` discards it.
pub(crate) unsafe extern "C" fn mc_eval(
    ctx: *mut Ctx,
    meta: *const Meta,
    inst: u32,
    argv: *const u64,
    out: *mut u8,
) -> u32 {
    use crate::codegen::{rep, Rep};
    // SAFETY: `ctx` is the live context of this entry and `meta` is kept alive by the engine
    // for as long as the code exists; `argv` holds a word per operand of `inst` as described
    // above; `out` is null or points where the result's representation says. No Rust
    // reference to the machine is live while native code runs, so the exclusive borrow taken
    // here is unique.
    unsafe {
        let ctx = &mut *ctx;
        let meta = &*meta;
        let f = &meta.func;
        let inst = Inst::from_u32(inst);
        let vals = operands(f, inst, argv);
        let _held = Ctx::hold(ctx);
        let m = &mut *ctx.machine;
        // A panic (a bug, e.g. while deriving a function lazily) must not unwind into native
        // frames, which cannot be unwound: it becomes an internal error here.
        let r =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| m.eval_inst(f, inst, &vals)))
                .unwrap_or_else(|p| {
                    let what = p
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| p.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "a panic".to_string());
                    Err(RuntimeError::new(Exception::Internal(what)))
                });
        match r {
            Ok(v) => {
                if let (Some(v), Some(r), false) = (v, f.result(inst), out.is_null()) {
                    match rep(&f.types[r]) {
                        Rep::I64 => *(out as *mut i64) = mc_unbox_i64(&v),
                        Rep::F64 => *(out as *mut f64) = mc_unbox_f64(&v),
                        Rep::F32 => *(out as *mut f32) = mc_unbox_f32(&v),
                        Rep::Bool => *out = mc_unbox_bool(&v),
                        Rep::Boxed | Rep::Unit => *(out as *mut Value) = v,
                    }
                }
                OK
            }
            Err(e) => {
                ctx.error = Some(e);
                FAILED
            }
        }
    }
}

/// Assigns boxed constant `k` of `meta` to `*dst`.
pub(crate) unsafe extern "C" fn mc_const(meta: *const Meta, k: usize, dst: *mut Value) {
    // SAFETY: `meta` lives as long as the code; `dst` is an initialised slot.
    unsafe { *dst = (&(*meta).consts)[k].clone() }
}

/// The error of reaching an `unreachable` terminator.
pub(crate) unsafe extern "C" fn mc_unreachable(ctx: *mut Ctx) -> u32 {
    // SAFETY: `ctx` is the live context.
    unsafe {
        (*ctx).error = Some(RuntimeError::new(Exception::Internal(
            "reached unreachable code".into(),
        )))
    };
    FAILED
}

/// `OutOfMemoryError()`: a push the array memory budget or the system refused.
pub(crate) unsafe extern "C" fn mc_out_of_memory(ctx: *mut Ctx) -> u32 {
    // SAFETY: `ctx` is the live context.
    unsafe { (*ctx).error = Some(RuntimeError::new(Exception::OutOfMemory)) };
    FAILED
}

/// `length(A)` of an array value.
pub(crate) unsafe extern "C" fn mc_arraylen(a: *const Value) -> i64 {
    // SAFETY: `a` is an initialised value of array type.
    match unsafe { &*a } {
        Value::Array(a) => a.len() as i64,
        _ => 0,
    }
}

/// Out-of-line `array_push` on vectors of unboxed elements (called, through register-preserving
/// trampolines, when the inline push finds the buffer full): scalars, and isbits tuples as
/// their bytes (`size` of them at `buf`, laid out as `BitsLayout` says). `FAILED` when the
/// storage is not of that kind.
pub(crate) unsafe extern "C" fn mc_push_i64(a: *const Value, x: i64) -> u32 {
    // SAFETY: `a` is an initialised value.
    unsafe {
        with_vector(a, |d| {
            // Growth the budget refuses leaves it to the generic path, which raises.
            if !matches!(d, ArrayData::I64(_)) || d.try_reserve(1).is_err() {
                return false;
            }
            d.push(Value::Int(x))
        })
    }
}
pub(crate) unsafe extern "C" fn mc_push_f64(a: *const Value, x: f64) -> u32 {
    // SAFETY: `a` is an initialised value.
    unsafe {
        with_vector(a, |d| {
            if !matches!(d, ArrayData::F64(_)) || d.try_reserve(1).is_err() {
                return false;
            }
            d.push(Value::F64(x))
        })
    }
}
pub(crate) unsafe extern "C" fn mc_push_bytes(a: *const Value, buf: *const u8, size: usize) -> u32 {
    // SAFETY: `a` is an initialised value; `buf` holds `size` initialised bytes.
    unsafe {
        with_vector(a, |d| {
            if !matches!(d, ArrayData::Bits { layout, .. } if layout.size == size)
                || d.try_reserve(1).is_err()
            {
                return false;
            }
            match d {
                ArrayData::Bits { bytes, len, .. } => {
                    bytes.extend_from_slice(std::slice::from_raw_parts(buf, size));
                    *len += 1;
                    true
                }
                _ => false,
            }
        })
    }
}

/// Runs `f` on the storage of vector `*a`, keeping its length in step when `f` pushed or
/// popped (`f` returns whether it did its work).
unsafe fn with_vector(a: *const Value, f: impl FnOnce(&mut ArrayData) -> bool) -> u32 {
    // SAFETY: `a` is an initialised value (the caller's contract).
    let Value::Array(a) = (unsafe { &*a }) else {
        return FAILED;
    };
    // A shared array cannot be resized: the generic path raises.
    if a.is_shared() {
        return FAILED;
    }
    let ok = a.with_mut(|inner| {
        if inner.dims.len() != 1 {
            return false;
        }
        let ok = f(&mut inner.data);
        inner.dims[0] = inner.data.len();
        ok
    });
    if ok {
        OK
    } else {
        FAILED
    }
}

/// Resolves static call `inst` of `meta`'s function for direct calls: stores the callee's
/// entry in `cell`, or 1 if the call cannot be made directly.
pub(crate) unsafe extern "C" fn mc_resolve_call(
    ctx: *mut Ctx,
    meta: *const Meta,
    inst: u32,
    cell: *const std::sync::atomic::AtomicUsize,
) {
    // SAFETY: as for `mc_eval`; `cell` is one of `meta`'s call cells.
    unsafe {
        let _held = Ctx::hold(ctx);
        let m = &mut *(*ctx).machine;
        let f = &(*meta).func;
        let i = Inst::from_u32(inst);
        let nargs = f.insts[i].args().len();
        let Some(ret) = f.result(i).map(|r| &f.types[r]) else {
            (*cell).store(1, std::sync::atomic::Ordering::Relaxed);
            return;
        };
        // A panic here (a bug while deriving or compiling the callee) leaves the call to the
        // long way, which reports it as an internal error.
        let entry = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            m.call_site_code(f, i)
                .and_then(|c| c.direct_entry(nargs, ret))
        }))
        .ok()
        .flatten();
        (*cell).store(
            entry.filter(|e| *e > 1).unwrap_or(1),
            std::sync::atomic::Ordering::Relaxed,
        );
    }
}

/// `*out` = the tuple of the `n` values at `src`, which are taken (each left `nothing`).
pub(crate) unsafe extern "C" fn mc_tuple_take(out: *mut Value, src: *mut Value, n: usize) {
    // SAFETY: `src` holds `n` initialised values (a direct call's returned fields), `out` an
    // initialised slot apart from them.
    unsafe {
        let parts: Arc<[Value]> = (0..n)
            .map(|k| std::mem::replace(&mut *src.add(k), Value::Nothing))
            .collect();
        *out = Value::Tuple(parts);
    }
}

/// Clones the `n` fields of the tuple at `src` into the initialised slots at `dst`.
pub(crate) unsafe extern "C" fn mc_untuple(dst: *mut Value, src: *const Value, n: usize) {
    // SAFETY: `dst` holds `n` initialised slots apart from `src`, an initialised value.
    unsafe {
        if let Value::Tuple(parts) = &*src {
            for (k, p) in parts.iter().take(n).enumerate() {
                *dst.add(k) = p.clone();
            }
        }
    }
}

/// Enters a direct call (`Machine::enter_direct_call`): `OK`, or `FAILED` (nothing entered)
/// when the call must go the long way.
pub(crate) unsafe extern "C" fn mc_enter_call(ctx: *mut Ctx) -> u32 {
    // SAFETY: as for `mc_eval`; on a thread of a threaded loop only the context's own depth
    // is used.
    unsafe {
        let ctx = &mut *ctx;
        if ctx.lock.is_null() {
            return if (*ctx.machine).enter_direct_call() {
                OK
            } else {
                FAILED
            };
        }
        if !interp::direct_call_fits(ctx.depth) {
            return FAILED;
        }
        ctx.depth += 1;
        OK
    }
}

/// Leaves a direct call entered by `mc_enter_call`.
pub(crate) unsafe extern "C" fn mc_leave_call(ctx: *mut Ctx) {
    // SAFETY: as for `mc_enter_call`.
    unsafe {
        let ctx = &mut *ctx;
        if ctx.lock.is_null() {
            (*ctx.machine).leave_direct_call()
        } else {
            ctx.depth -= 1;
        }
    }
}

/// After direct call `inst` of `meta`'s function failed: the call site's frames join the
/// error's stack trace, as `eval_inst` adds them.
pub(crate) unsafe extern "C" fn mc_call_failed(ctx: *mut Ctx, meta: *const Meta, inst: u32) {
    // SAFETY: as for `mc_eval`.
    unsafe {
        let ctx = &mut *ctx;
        let f = &(*meta).func;
        let e = ctx.error.get_or_insert_with(|| {
            RuntimeError::new(Exception::Internal(
                "native code failed without an error".into(),
            ))
        });
        for (func, span) in f.source_chain(Inst::from_u32(inst)) {
            e.trace.push(interp::Frame { func, span });
        }
    }
}

/// `Core.rule_child(state, k)` into the initialised slot `out` when child `k` exists already;
/// `FAILED` (nothing raised) otherwise, for the instruction to create it.
pub(crate) unsafe extern "C" fn mc_rule_child(st: *const Value, k: i64, out: *mut Value) -> u32 {
    // SAFETY: `st` and `out` are initialised slots.
    unsafe {
        let Value::Mutable(st) = &*st else {
            return FAILED;
        };
        let Ok(k) = usize::try_from(k) else {
            return FAILED;
        };
        // Read in place: the state's children are a vector of boxed values. A call in a loop
        // finds its child already in `out` from the last iteration: then nothing changes.
        let current = match &*out {
            Value::Mutable(m) => Arc::as_ptr(m),
            _ => std::ptr::null(),
        };
        let child = st
            .with_field(1, |c| match c {
                Value::Array(children) => children.with(|d| match &d.data {
                    ArrayData::Boxed(v) => match v.get(k) {
                        Some(Value::Mutable(m)) if Arc::as_ptr(m) == current => Some(None),
                        Some(x) if !matches!(x, Value::Undef) => Some(Some(x.clone())),
                        _ => None,
                    },
                    _ => None,
                }),
                _ => None,
            })
            .flatten();
        match child {
            Some(Some(x)) => {
                *out = x;
                OK
            }
            Some(None) => OK,
            None => FAILED,
        }
    }
}

/// The array in slot `a` and the 0-based position of the 1-based index `i`; `None` for
/// another value or an index below 1.
///
/// # Safety
/// `a` is an initialised slot that stays alive and unchanged while the result is used.
unsafe fn array_at<'a>(a: *const Value, i: i64) -> Option<(&'a runtime::value::ArrayObj, usize)> {
    // SAFETY: as the caller guarantees.
    let Value::Array(a) = (unsafe { &*a }) else {
        return None;
    };
    Some((a, usize::try_from(i - 1).ok()?))
}

/// Element `i` (1-based) of the vector of boxed values in slot `a`, cloned into the
/// initialised slot `out`; `FAILED` (nothing raised) when out of bounds or unassigned, or for
/// other storage.
pub(crate) unsafe extern "C" fn mc_array_get_value(
    a: *const Value,
    i: i64,
    out: *mut Value,
) -> u32 {
    // SAFETY: `a` and `out` are initialised slots, and `out` is not the element read.
    unsafe {
        let Some((a, k)) = array_at(a, i) else {
            return FAILED;
        };
        let v = a.with(|d| match &d.data {
            ArrayData::Boxed(v) => v.get(k).filter(|x| !matches!(x, Value::Undef)).cloned(),
            _ => None,
        });
        match v {
            Some(x) => {
                *out = x;
                OK
            }
            None => FAILED,
        }
    }
}

/// Element `i` (1-based) of the vector of boxed values in slot `a` set to a copy of the value
/// in slot `v` (the element's old value dropped after the write); `FAILED` (nothing written,
/// nothing raised) when out of bounds or for other storage.
pub(crate) unsafe extern "C" fn mc_array_set_value(
    a: *const Value,
    v: *const Value,
    i: i64,
) -> u32 {
    // SAFETY: `a` and `v` are initialised slots, only read here.
    unsafe {
        let Some((a, k)) = array_at(a, i) else {
            return FAILED;
        };
        let v = (*v).clone();
        let old = a.with_mut(|d| match &mut d.data {
            ArrayData::Boxed(xs) => xs.get_mut(k).map(|slot| std::mem::replace(slot, v)),
            _ => None,
        });
        match old {
            Some(old) => {
                drop(old);
                OK
            }
            None => FAILED,
        }
    }
}

/// Whole-array kernel `Prim::ALL[op]` (see `runtime::prims::eval_array_kernel`) on the `n`
/// values at `args` (bitwise copies the primitive only reads), its result assigned to the
/// initialised slot `out`; `FAILED` (nothing raised) if it fails, for the evaluated path to
/// raise the error. Only for primitives that write nothing before they can fail.
pub(crate) unsafe extern "C" fn mc_prim_direct(
    ctx: *mut Ctx,
    op: i64,
    args: *const Value,
    n: usize,
    out: *mut Value,
) -> u32 {
    // SAFETY: as `direct` requires (the primitives called this way print nothing, so output
    // is discarded).
    unsafe {
        direct(ctx, op, args, n, out, |ctx, op, args| {
            runtime::prims::eval_array_kernel(op, args, &*ctx.env).ok()
        })
    }
}

/// `eval(ctx, Prim::ALL[op], the n values at args)` assigned to the initialised slot `out`:
/// `OK`, or `FAILED` (nothing written) where it gives nothing.
///
/// # Safety
/// `ctx` is the live context, whose `env` is readable without the machine's lock; `args`
/// holds `n` values that stay alive and unchanged for the call and are only read (never
/// dropped through this slice); `out` is an initialised slot apart from them.
unsafe fn direct(
    ctx: *mut Ctx,
    op: i64,
    args: *const Value,
    n: usize,
    out: *mut Value,
    eval: impl FnOnce(&Ctx, ir::Prim, &[Value]) -> Option<Value>,
) -> u32 {
    let Some(&op) = usize::try_from(op).ok().and_then(|k| ir::Prim::ALL.get(k)) else {
        return FAILED;
    };
    // SAFETY: as the caller guarantees.
    unsafe {
        match eval(&*ctx, op, std::slice::from_raw_parts(args, n)) {
            Some(v) => {
                *out = v;
                OK
            }
            None => FAILED,
        }
    }
}

/// A primitive of `Prim::ad_runtime_on_values` (`Prim::ALL[op]`) evaluated by the AD runtime
/// on the `n` values at `args`, without the machine, into the initialised slot `out`.
/// Returns `FAILED`, writing nothing, where the instruction must be evaluated instead (it
/// raises the error).
pub(crate) unsafe extern "C" fn mc_ad_direct(
    ctx: *mut Ctx,
    op: i64,
    args: *const Value,
    n: usize,
    out: *mut Value,
) -> u32 {
    // SAFETY: as `direct` requires; the AD runtime is shared and synchronises itself, and
    // outlives the call (see `Ctx::ad`).
    unsafe {
        direct(ctx, op, args, n, out, |ctx, op, args| {
            ctx.ad
                .and_then(|ad| ad.as_ref().eval_on_values(op, args, &*ctx.env))
                .and_then(Result::ok)
        })
    }
}

/// Element types `mc_array_new` makes arrays of, by code.
pub(crate) const NEW_ARRAY_ELEMS: [ir::Type; 4] = [
    ir::Type::Float64,
    ir::Type::Float32,
    ir::Type::Int64,
    ir::Type::Bool,
];

/// `Core.array_new` of an array of element type `NEW_ARRAY_ELEMS[elem]` and `rank` (1 or 2)
/// dimensions `d1` (× `d2`) into the initialised slot `out`. Returns `FAILED`, raising nothing,
/// where the instruction must be evaluated instead (bad dimensions, no memory: it raises).
pub(crate) unsafe extern "C" fn mc_array_new(
    ctx: *mut Ctx,
    elem: i64,
    rank: i64,
    d1: i64,
    d2: i64,
    out: *mut Value,
) -> u32 {
    let Some(elem) = usize::try_from(elem)
        .ok()
        .and_then(|k| NEW_ARRAY_ELEMS.get(k))
    else {
        return FAILED;
    };
    let dims = [d1, d2];
    let dims = &dims[..if rank == 1 { 1 } else { 2 }];
    // SAFETY: `ctx` is the live context of this entry, whose `env` is readable without the
    // machine's lock. `out` is an initialised slot.
    unsafe {
        let env = &*(*ctx).env;
        match runtime::prims::array_new(elem, dims, env) {
            Ok(a) => {
                *out = Value::Array(a);
                OK
            }
            Err(_) => FAILED,
        }
    }
}

/// `Core.array_copy(a)` into the initialised slot `out`: `OK`, or `FAILED` (nothing raised,
/// nothing written) where the instruction must be evaluated instead (not an array, no
/// memory: it raises).
pub(crate) unsafe extern "C" fn mc_array_copy(a: *const Value, out: *mut Value) -> u32 {
    // SAFETY: `a` is an initialised value, `out` an initialised slot apart from it.
    unsafe {
        let Value::Array(a) = &*a else {
            return FAILED;
        };
        match a.try_copy() {
            Ok(c) => {
                *out = Value::Array(c);
                OK
            }
            Err(_) => FAILED,
        }
    }
}

/// The array object a slot holds (its `ArrayView` is at offset 0), for inline element access;
/// an empty array's for any other value, so native code never dereferences null.
pub(crate) unsafe extern "C" fn mc_array_obj(a: *const Value) -> *const runtime::ArrayObj {
    static EMPTY: std::sync::LazyLock<runtime::ArrayObj> =
        std::sync::LazyLock::new(|| runtime::ArrayObj::vector_f64(Vec::new()));
    // SAFETY: `a` is an initialised value.
    match unsafe { &*a } {
        Value::Array(a) => SharedArray::as_ptr(a),
        _ => &*EMPTY as *const runtime::ArrayObj,
    }
}

/// `Core.rule_stack(state, k, T)` (instruction `inst` of `meta`'s function) into `*out`: the
/// existing stack `k` read directly, else the instruction evaluated (which creates it, or
/// raises in `ctx`). Returns the stack's array object (as `mc_array_obj` would), or null
/// when an error was raised.
pub(crate) unsafe extern "C" fn mc_rule_stack(
    ctx: *mut Ctx,
    meta: *const Meta,
    inst: u32,
    st: *const Value,
    k: i64,
    ty: *const Value,
    out: *mut Value,
) -> *const runtime::ArrayObj {
    // SAFETY: as for `mc_eval`; `st` and `ty` are initialised values, `out` an initialised slot.
    unsafe {
        if !rule_stack_fast(&*st, k, out) {
            let argv = [st as u64, k as u64, ty as u64];
            if mc_eval(ctx, meta, inst, argv.as_ptr(), out as *mut u8) != OK {
                return std::ptr::null();
            }
        }
        mc_array_obj(out)
    }
}

/// Every `rule_stack` of `meta.rule_stacks` at once, on state `st`: each stack into its slot
/// of `frame` and its array object (as `mc_array_obj` would give it) into `objs`, in order.
/// Returns `FAILED` when creating a stack raised an error.
///
/// The slots borrow the stacks: they hold the state's own handles, copied without taking a
/// reference, and the frame's drop leaves them alone. That is sound because the state (an
/// argument, alive for the call) never lets go of a stack once it has one, and a frame slot is
/// only ever read, cloned from, or written again by this function (a jump back to the entry
/// block).
pub(crate) unsafe extern "C" fn mc_rule_stacks(
    ctx: *mut Ctx,
    meta: *const Meta,
    st: *const Value,
    frame: *mut u8,
    objs: *mut *const runtime::ArrayObj,
) -> u32 {
    // SAFETY: as for `mc_rule_stack`; `frame` is the function's frame, whose slots at the
    // sites' offsets are borrowed slots (holding `Nothing` or a borrowed handle, so
    // overwriting without a drop is right), and `objs` has room for one pointer per site.
    unsafe {
        let meta_ref = &*meta;
        // Every stack into its slot, in one pass over the state's stacks; false if one is
        // missing (the state's first call).
        let fetch_all = || {
            with_state_stacks(&*st, |stacks| {
                for (j, s) in meta_ref.rule_stacks.iter().enumerate() {
                    let Some(stack @ Value::Array(a)) =
                        usize::try_from(s.k).ok().and_then(|k| stacks.get(k))
                    else {
                        return false;
                    };
                    std::ptr::copy_nonoverlapping(
                        stack,
                        frame.add(s.slot as usize) as *mut Value,
                        1,
                    );
                    *objs.add(j) = SharedArray::as_ptr(a);
                }
                true
            }) == Some(true)
        };
        if fetch_all() {
            return OK;
        }
        // Missing stacks are created (and kept by the state) through the generic instruction.
        for s in &meta_ref.rule_stacks {
            if state_stack(&*st, s.k).is_some() {
                continue;
            }
            let mut made = Value::Nothing;
            let ty: *const Value = &meta_ref.consts[s.ty];
            let argv = [st as u64, s.k as u64, ty as u64];
            if mc_eval(
                ctx,
                meta,
                s.inst.as_u32(),
                argv.as_ptr(),
                &mut made as *mut Value as *mut u8,
            ) != OK
            {
                return FAILED;
            }
        }
        if fetch_all() {
            return OK;
        }
        (*ctx).error = Some(RuntimeError::new(Exception::Internal(
            "a rule stack missing from its state".into(),
        )));
        FAILED
    }
}

/// `f` on the stacks of rule state `st` (a vector of boxed values), in place in the state.
fn with_state_stacks<R>(st: &Value, f: impl FnOnce(&[Value]) -> R) -> Option<R> {
    let Value::Mutable(m) = st else {
        return None;
    };
    m.with_field(0, |stacks| match stacks {
        Value::Array(stacks) => stacks.with(|d| match &d.data {
            ArrayData::Boxed(v) => Some(f(v)),
            _ => None,
        }),
        _ => None,
    })
    .flatten()
}

/// Stack `k` of rule state `st`, in place in the state, if it exists.
fn state_stack(st: &Value, k: i64) -> Option<*const Value> {
    let k = usize::try_from(k).ok()?;
    with_state_stacks(st, |v| match v.get(k) {
        Some(s @ Value::Array(_)) => Some(s as *const Value),
        _ => None,
    })
    .flatten()
}

/// Assigns stack `k` of rule state `st` to `*out` if it exists.
///
/// # Safety
/// `out` is an initialised slot.
unsafe fn rule_stack_fast(st: &Value, k: i64, out: *mut Value) -> bool {
    match state_stack(st, k) {
        Some(v) => {
            // SAFETY: `v` points into the state, alive for this call; `out` as above.
            unsafe { *out = (*v).clone() };
            true
        }
        None => false,
    }
}

/// The operands of instruction `inst` of `f` from their words in `argv` (see `mc_eval`).
///
/// # Safety
/// `argv` holds a word per operand of `inst`: the value itself for a register type, else a
/// pointer to an initialised value.
unsafe fn operands(f: &Function, inst: Inst, argv: *const u64) -> smallvec::SmallVec<[Value; 4]> {
    let args = f.insts[inst].args();
    // SAFETY: as the caller guarantees.
    (0..args.len())
        .map(|k| unsafe { operand(f, args[k], argv.add(k)) })
        .collect()
}

/// Operand `a` of `f` from its word at `w` (see `mc_eval`).
///
/// # Safety
/// `w` points at `a`'s word: the value itself for a register type, else a pointer to an
/// initialised value.
unsafe fn operand(f: &Function, a: ir::Value, w: *const u64) -> Value {
    use crate::codegen::{rep, Rep};
    // SAFETY: as the caller guarantees.
    unsafe {
        match rep(&f.types[a]) {
            Rep::I64 => Value::Int(*(w as *const i64)),
            Rep::F64 => Value::F64(*(w as *const f64)),
            Rep::F32 => Value::F32(*(w as *const f32)),
            Rep::Bool => Value::Bool(*(w as *const u8) != 0),
            Rep::Boxed | Rep::Unit => (*(*w as *const Value)).clone(),
        }
    }
}

/// `*out` = the value at `val` if it has the type instruction `inst` of `meta.func` (a
/// `TypeAssert` to an array type) asserts; `FAILED`, writing nothing, otherwise.
pub(crate) unsafe extern "C" fn mc_typeassert(
    meta: *const Meta,
    inst: u32,
    val: *const Value,
    out: *mut Value,
) -> u32 {
    // SAFETY: `meta` lives as long as the code; `val` is an initialised value and `out` an
    // initialised slot apart from it.
    unsafe {
        let f = &(*meta).func;
        let ir::InstData::TypeAssert { ty, .. } = &f.insts[Inst::from_u32(inst)] else {
            return FAILED;
        };
        if !(*val).has_type(ty) {
            return FAILED;
        }
        *out = (*val).clone();
        OK
    }
}

/// `*out` = the tuple that instruction `inst` of `meta.func` builds from its operands, given
/// as words in `argv` (see `mc_eval`).
pub(crate) unsafe extern "C" fn mc_tuple(
    meta: *const Meta,
    inst: u32,
    argv: *const u64,
    out: *mut Value,
) {
    // SAFETY: `meta` lives as long as the code; `argv` holds the operands' words; `out` is an
    // initialised slot, distinct from every operand's (it holds the instruction's result, or
    // the caller's return slot).
    unsafe {
        let f = &(*meta).func;
        *out = Value::Tuple(operand_values(
            f,
            &f.insts[Inst::from_u32(inst)].args(),
            argv,
        ));
    }
}

/// The values of operands `args` of an instruction of `f`, from their words in `argv` (see
/// `mc_eval`), collected in place (an exact-size iterator makes a tuple's one allocation).
///
/// # Safety
/// `argv` holds one word per operand, as `mc_eval` describes.
unsafe fn operand_values<C: FromIterator<Value>>(
    f: &Function,
    args: &[ir::Value],
    argv: *const u64,
) -> C {
    // SAFETY: the caller's promise.
    (0..args.len())
        .map(|k| unsafe { operand(f, args[k], argv.add(k)) })
        .collect()
}

/// `*out` = the immutable struct that `New` instruction `inst` of `meta`'s function builds
/// from its operands' words (`argv`, as for `mc_tuple`), which code generation has checked
/// need no conversion to the fields' types.
pub(crate) unsafe extern "C" fn mc_new_struct(
    meta: *const Meta,
    inst: u32,
    argv: *const u64,
    out: *mut Value,
) {
    // SAFETY: as for `mc_tuple`.
    unsafe {
        let f = &(*meta).func;
        let InstData::New { ty, args } = &f.insts[Inst::from_u32(inst)] else {
            return;
        };
        *out = Value::Struct(Arc::new(runtime::value::StructVal {
            ty: thread_copy(ty),
            fields: operand_values(f, args, argv),
        }));
    }
}

/// `Core.in_threaded_loop()`.
pub(crate) extern "C" fn mc_in_threaded_loop() -> u8 {
    u8::from(runtime::threads::in_threaded_loop())
}

/// `Core.task_rng(default)` into the initialised slot `out` (apart from `default`, an
/// initialised value): the running share's generator, or `default`.
pub(crate) unsafe extern "C" fn mc_task_rng(default: *const Value, out: *mut Value) {
    // SAFETY: as documented above.
    unsafe { *out = runtime::threads::task_rng_or(&*default) };
}

/// Entries of each thread's cache of struct types (`thread_copy`).
const TYPE_CACHE: usize = 64;

thread_local! {
    /// Each thread's own copies of the struct types its code builds values of, by the address
    /// of the instruction's type (direct-mapped; a slot's type is compared before use).
    static STRUCT_TYPES: std::cell::RefCell<Vec<Option<(usize, ir::Type)>>> =
        std::cell::RefCell::new(vec![None; TYPE_CACHE]);
}

/// `ty`, as a copy of this thread's own: a struct type's parameters are shared by reference
/// count, and threads building values of one type (ranges, closures) would otherwise all
/// count on the instruction's copy.
fn thread_copy(ty: &ir::Type) -> ir::Type {
    let ir::Type::Struct(name, params) = ty else {
        return ty.clone();
    };
    let key = ty as *const ir::Type as usize;
    STRUCT_TYPES.with(|c| {
        let mut c = c.borrow_mut();
        let slot = &mut c[(key >> 4) % TYPE_CACHE];
        match slot {
            Some((k, t)) if *k == key && t == ty => t.clone(),
            _ => {
                let own = ir::Type::Struct(*name, params.iter().cloned().collect());
                *slot = Some((key, own.clone()));
                own
            }
        }
    })
}

/// Field `k` of the tuple or immutable struct at `obj` into the borrowing slot `out` as a bit
/// copy (no clone, and `out`'s old bits are not dropped): `OK`, or `FAILED` (nothing
/// written) for an unassigned field or one out of range. `out` must be a slot the frame
/// never drops or assigns otherwise, and `obj` must outlive every use of it.
pub(crate) unsafe extern "C" fn mc_getfield_borrow(
    obj: *const Value,
    k: i64,
    out: *mut Value,
) -> u32 {
    // SAFETY: `obj` is an initialised value that outlives the slot's uses (code generation
    // borrows only fields of arguments, transitively); `out` is a borrowing slot (see
    // `codegen::Gen::borrowed_fields`), so its previous bits are a borrow too and dropping
    // nothing is right.
    unsafe {
        // (As `mc_getfield`: a tuple's part may be `Undef` — a value saved where it was not
        // assigned — an immutable struct's field may not.)
        let field = match (&*obj, usize::try_from(k)) {
            (Value::Tuple(t), Ok(k)) => t.get(k),
            (Value::Struct(s), Ok(k)) => s.fields.get(k).filter(|v| !matches!(v, Value::Undef)),
            _ => None,
        };
        match field {
            Some(v) => {
                std::ptr::write(out, std::ptr::read(v));
                OK
            }
            _ => FAILED,
        }
    }
}

/// Fast path of reading field `k` of a tuple or an immutable struct: `*out` assigned and
/// `OK`, or `FAILED` (no error) for anything else — an unassigned struct field, a field out of
/// range — which the generic instruction then reports.
pub(crate) unsafe extern "C" fn mc_getfield(obj: *const Value, k: i64, out: *mut Value) -> u32 {
    // SAFETY: as `getfield_of`'s.
    unsafe { getfield_of(obj, k, out, false) }
}

/// Fast path of `Core.getfield_raw`: as `mc_getfield`, but an `#undef` field is read as is.
pub(crate) unsafe extern "C" fn mc_getfield_raw(obj: *const Value, k: i64, out: *mut Value) -> u32 {
    // SAFETY: as `getfield_of`'s.
    unsafe { getfield_of(obj, k, out, true) }
}

/// Field `k` (from 0) of the tuple, struct or mutable struct at `obj` into `*out` (`#undef`
/// only if `raw`).
///
/// # Safety
/// `obj` is an initialised value; `out` an initialised slot (it may be `obj`'s own slot only
/// through scratch, which never aliases an operand).
unsafe fn getfield_of(obj: *const Value, k: i64, out: *mut Value, raw: bool) -> u32 {
    let defined = |v: &Value| raw || !matches!(v, Value::Undef);
    // SAFETY: the caller's.
    let v = match (unsafe { &*obj }, usize::try_from(k)) {
        (Value::Tuple(t), Ok(k)) => t.get(k),
        (Value::Struct(s), Ok(k)) => s.fields.get(k).filter(|v| defined(v)),
        (Value::Mutable(m), Ok(k)) => {
            return match m.get(k).filter(defined) {
                Some(v) => {
                    // SAFETY: as above.
                    unsafe { *out = v };
                    OK
                }
                None => FAILED,
            };
        }
        _ => None,
    };
    match v {
        Some(v) => {
            let v = v.clone();
            // SAFETY: as above.
            unsafe { *out = v };
            OK
        }
        None => FAILED,
    }
}

/// Fast path of a read of a scalar field (`Int64`, `Float64`, `Float32`, `Bool`) of a tuple,
/// struct or mutable struct: its bits in `*out` (little-endian, as the field's machine type
/// loads them) and `OK`, or `FAILED` (no error) for anything else.
pub(crate) unsafe extern "C" fn mc_getfield_bits(obj: *const Value, k: i64, out: *mut u64) -> u32 {
    let Ok(k) = usize::try_from(k) else {
        return FAILED;
    };
    let bits = |v: &Value| match v {
        Value::Int(x) => Some(*x as u64),
        Value::F64(x) => Some(x.to_bits()),
        Value::F32(x) => Some(x.to_bits() as u64),
        Value::Bool(x) => Some(*x as u64),
        _ => None,
    };
    // SAFETY: `obj` is an initialised value.
    let b = match unsafe { &*obj } {
        Value::Tuple(t) => t.get(k).and_then(bits),
        Value::Struct(s) => s.fields.get(k).and_then(bits),
        Value::Mutable(m) => m.with_field(k, bits).flatten(),
        _ => None,
    };
    match b {
        Some(b) => {
            // SAFETY: `out` is an 8-byte slot.
            unsafe { *out = b };
            OK
        }
        None => FAILED,
    }
}

/// As [`mc_setfield`] for a scalar given by its bits and kind (0: `Int64`, 1: `Float64`,
/// 2: `Float32`, 3: `Bool`), without boxing it first.
pub(crate) unsafe extern "C" fn mc_setfield_bits(
    obj: *const Value,
    k: i64,
    bits: i64,
    kind: i64,
) -> u32 {
    // SAFETY: `obj` is an initialised value.
    let (Value::Mutable(m), Ok(k)) = (unsafe { &*obj }, usize::try_from(k)) else {
        return FAILED;
    };
    let x = match kind {
        0 => Value::Int(bits),
        1 => Value::F64(f64::from_bits(bits as u64)),
        2 => Value::F32(f32::from_bits(bits as u32)),
        _ => Value::Bool(bits & 1 != 0),
    };
    if m.set(k, x) {
        OK
    } else {
        FAILED
    }
}

/// Fast path of a store into field `k` of a mutable struct, of a value the field's type
/// already holds (the code generator checked the types): `OK`, or `FAILED` (no error) for
/// anything else (the generic instruction handles it).
pub(crate) unsafe extern "C" fn mc_setfield(obj: *const Value, k: i64, x: *const Value) -> u32 {
    // SAFETY: `obj` and `x` are initialised values.
    let (Value::Mutable(m), Ok(k)) = (unsafe { &*obj }, usize::try_from(k)) else {
        return FAILED;
    };
    // SAFETY: as above.
    let x = unsafe { &*x }.clone();
    if m.set(k, x) {
        OK
    } else {
        FAILED
    }
}

/// Fast path of `push!` onto a vector storing boxed values: `OK`, or `FAILED` (no error)
/// when the array stores its elements otherwise (the generic instruction handles it).
pub(crate) unsafe extern "C" fn mc_push_value(a: *const Value, x: *const Value) -> u32 {
    // SAFETY: both are initialised values.
    let (Value::Array(a), x) = (unsafe { &*a }, unsafe { &*x }) else {
        return FAILED;
    };
    match a.push_boxed(x.clone()) {
        Ok(()) => OK,
        Err(_) => FAILED,
    }
}

/// As [`mc_push_value`], moving the value out of `*x` (which is left `nothing`) when the
/// push succeeds: for a value nothing reads afterwards, no reference count changes.
pub(crate) unsafe extern "C" fn mc_push_value_move(a: *const Value, x: *mut Value) -> u32 {
    // SAFETY: both are initialised values, `x` a frame slot apart from `a`.
    let (Value::Array(a), x) = (unsafe { &*a }, unsafe { &mut *x }) else {
        return FAILED;
    };
    match a.push_boxed(std::mem::replace(x, Value::Nothing)) {
        Ok(()) => OK,
        Err(v) => {
            *x = v;
            FAILED
        }
    }
}

/// Fast path of `pop!` from a non-empty vector storing boxed values: `*out` assigned and `OK`,
/// or `FAILED` (no error) otherwise (the generic instruction pops or raises the error).
pub(crate) unsafe extern "C" fn mc_pop_value(a: *const Value, out: *mut Value) -> u32 {
    // SAFETY: `a` is an initialised value.
    let Value::Array(a) = (unsafe { &*a }) else {
        return FAILED;
    };
    match a.pop_boxed() {
        Some(v) => {
            // SAFETY: `out` is an initialised slot.
            unsafe { *out = v };
            OK
        }
        None => FAILED,
    }
}

/// Fast path of `pop!` of a tuple of `n` fields from a non-empty vector storing boxed values,
/// whose fields alone are read: the fields assigned to the `n` initialised slots at `out`
/// (moved out of the tuple when nothing else holds it) and `OK`, or `FAILED` (nothing popped,
/// no error) otherwise (the generic instruction pops or raises the error).
pub(crate) unsafe extern "C" fn mc_pop_fields(a: *const Value, out: *mut Value, n: usize) -> u32 {
    // SAFETY: `a` is an initialised value.
    let Value::Array(a) = (unsafe { &*a }) else {
        return FAILED;
    };
    if a.ndims() != 1 || a.is_shared() {
        return FAILED;
    }
    let t = a.with_mut(|inner| match &mut inner.data {
        ArrayData::Boxed(v) if matches!(v.last(), Some(Value::Tuple(t)) if t.len() == n) => {
            let x = v.pop()?;
            inner.dims[0] -= 1;
            Some(x)
        }
        _ => None,
    });
    let Some(Value::Tuple(mut t)) = t else {
        return FAILED;
    };
    // SAFETY: `out` holds `n` initialised slots, apart from the vector's storage.
    unsafe {
        match Arc::get_mut(&mut t) {
            Some(fields) => {
                for (k, f) in fields.iter_mut().enumerate() {
                    *out.add(k) = std::mem::replace(f, Value::Nothing);
                }
            }
            None => {
                for (k, f) in t.iter().enumerate() {
                    *out.add(k) = f.clone();
                }
            }
        }
    }
    OK
}

/// `sin(x)` and `cos(x)` at once, into `out[0]` and `out[1]`: the C library's `sincos`, whose
/// results are bit-identical to its `sin` and `cos` (what `ir::fold::cmath` computes).
pub(crate) unsafe extern "C" fn mc_sincos_f64(x: f64, out: *mut f64) {
    let (s, c) = x.sin_cos();
    // SAFETY: `out` points to two writable floats (a stack slot of the caller).
    unsafe {
        *out = s;
        *out.add(1) = c;
    }
}
