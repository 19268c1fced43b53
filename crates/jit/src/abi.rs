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
use ir::{Function, Inst};
use runtime::{ArrayData, Exception, Value};
use std::sync::Arc;

/// What compiled code knows about itself at run time: the IR it came from (generic
/// instructions run through `Machine::eval_inst` on it) and its boxed constants.
pub struct Meta {
    pub func: Arc<Function>,
    pub consts: Box<[Value]>,
}

/// Per-entry context: the machine the code runs on and the error of a failed call.
pub struct Ctx {
    pub machine: *mut Machine,
    pub error: Option<RuntimeError>,
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
    // SAFETY: `p` points to `n` values initialised by `mc_frame_init` (and only assigned to
    // since); nothing uses them after this.
    unsafe { std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(p, n)) };
}

/// `*dst = (*src).clone()` (both initialised).
pub(crate) unsafe extern "C" fn mc_clone(dst: *mut Value, src: *const Value) {
    // SAFETY: both point to initialised values in frames or argument arrays; they may alias.
    unsafe {
        let v = (*src).clone();
        *dst = v;
    }
}

/// Boxing and unboxing of register values into initialised slots.
pub(crate) unsafe extern "C" fn mc_box_i64(dst: *mut Value, x: i64) {
    // SAFETY: `dst` is an initialised slot.
    unsafe { *dst = Value::Int(x) }
}
pub(crate) unsafe extern "C" fn mc_box_f64(dst: *mut Value, x: f64) {
    // SAFETY: `dst` is an initialised slot.
    unsafe { *dst = Value::F64(x) }
}
pub(crate) unsafe extern "C" fn mc_box_f32(dst: *mut Value, x: f32) {
    // SAFETY: `dst` is an initialised slot.
    unsafe { *dst = Value::F32(x) }
}
pub(crate) unsafe extern "C" fn mc_box_bool(dst: *mut Value, x: u8) {
    // SAFETY: `dst` is an initialised slot.
    unsafe { *dst = Value::Bool(x != 0) }
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

/// Runs instruction `inst` of `meta.func` through the interpreter's `eval_inst`: `argv` holds
/// pointers to its `n` operand values; the result (if any) is assigned to `*out`.
pub(crate) unsafe extern "C" fn mc_eval(
    ctx: *mut Ctx,
    meta: *const Meta,
    inst: u32,
    argv: *const *const Value,
    n: usize,
    out: *mut Value,
) -> u32 {
    // SAFETY: `ctx` is the live context of this entry and `meta` is kept alive by the engine
    // for as long as the code exists; `argv` holds `n` pointers to initialised values; `out`
    // is an initialised slot or null. No Rust reference to the machine is live while native
    // code runs, so the exclusive borrow taken here is unique.
    unsafe {
        let ctx = &mut *ctx;
        let meta = &*meta;
        let mut vals: smallvec::SmallVec<[Value; 4]> = smallvec::SmallVec::with_capacity(n);
        for k in 0..n {
            vals.push((**argv.add(k)).clone());
        }
        let m = &mut *ctx.machine;
        match m.eval_inst(&meta.func, Inst::from_u32(inst), &vals) {
            Ok(v) => {
                if let (Some(v), false) = (v, out.is_null()) {
                    *out = v;
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
        (*ctx).error = Some(RuntimeError::new(Exception::Error(
            "internal error: reached unreachable code".into(),
        )))
    };
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
        with_vector(a, |d| match d {
            ArrayData::I64(v) => {
                v.push(x);
                true
            }
            _ => false,
        })
    }
}
pub(crate) unsafe extern "C" fn mc_push_f64(a: *const Value, x: f64) -> u32 {
    // SAFETY: `a` is an initialised value.
    unsafe {
        with_vector(a, |d| match d {
            ArrayData::F64(v) => {
                v.push(x);
                true
            }
            _ => false,
        })
    }
}
pub(crate) unsafe extern "C" fn mc_push_bytes(a: *const Value, buf: *const u8, size: usize) -> u32 {
    // SAFETY: `a` is an initialised value; `buf` holds `size` initialised bytes.
    unsafe {
        with_vector(a, |d| match d {
            ArrayData::Bits { layout, bytes, len } if layout.size == size => {
                bytes.extend_from_slice(std::slice::from_raw_parts(buf, size));
                *len += 1;
                true
            }
            _ => false,
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

/// The array object a slot holds (its `ArrayView` is at offset 0), for inline element access;
/// an empty array's for any other value, so native code never dereferences null.
pub(crate) unsafe extern "C" fn mc_array_obj(a: *const Value) -> *const runtime::ArrayObj {
    static EMPTY: std::sync::LazyLock<runtime::ArrayObj> =
        std::sync::LazyLock::new(|| runtime::ArrayObj::vector_f64(Vec::new()));
    // SAFETY: `a` is an initialised value.
    match unsafe { &*a } {
        Value::Array(a) => Arc::as_ptr(a),
        _ => &*EMPTY as *const runtime::ArrayObj,
    }
}

/// Fast path of `Core.rule_stack(state, k, T)` when stack `k` exists: assigns it to `*out`.
/// `FAILED` (no error) when it does not yet: the generic instruction creates it.
pub(crate) unsafe extern "C" fn mc_rule_stack(st: *const Value, k: i64, out: *mut Value) -> u32 {
    // SAFETY: `st` is an initialised value; `out` an initialised slot.
    let Value::Mutable(m) = (unsafe { &*st }) else {
        return FAILED;
    };
    let Some(Value::Array(stacks)) = m.get(0) else {
        return FAILED;
    };
    match usize::try_from(k).ok().and_then(|k| stacks.get(k)) {
        Some(v @ Value::Array(_)) => {
            // SAFETY: as above.
            unsafe { *out = v };
            OK
        }
        _ => FAILED,
    }
}
