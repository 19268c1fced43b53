//! The `extern "C"` helpers native code calls, declared once: `helper!` derives each one's
//! Cranelift signature from its Rust type (`HelperFn`), so the signature the code generator
//! uses cannot disagree with the function.

use crate::abi;
use cranelift_codegen::ir::types as ct;
use ir::Prim;

/// The helpers native code calls: symbol name, address, parameter and result types.
pub struct Helper {
    pub name: String,
    pub addr: *const u8,
    pub params: Vec<ct::Type>,
    pub returns: Vec<ct::Type>,
}

/// A Rust type that crosses the native-code boundary as one Cranelift value.
pub trait AbiType {
    const CLIF: ct::Type;
}

macro_rules! abi_types {
    ($($t:ty => $c:ident),* $(,)?) => {
        $(impl AbiType for $t {
            const CLIF: ct::Type = ct::$c;
        })*
    };
}

abi_types! {
    i64 => I64, u64 => I64, usize => I64, isize => I64,
    i32 => I32, u32 => I32, u8 => I8, i8 => I8,
    f64 => F64, f32 => F32,
}

impl<T> AbiType for *const T {
    const CLIF: ct::Type = ct::I64;
}

impl<T> AbiType for *mut T {
    const CLIF: ct::Type = ct::I64;
}

/// What a helper returns: nothing or one value.
pub trait AbiReturn {
    fn clif() -> Vec<ct::Type>;
}

impl AbiReturn for () {
    fn clif() -> Vec<ct::Type> {
        Vec::new()
    }
}

impl<T: AbiType> AbiReturn for T {
    fn clif() -> Vec<ct::Type> {
        vec![T::CLIF]
    }
}

/// An `extern "C"` function pointer: its address and the Cranelift signature its Rust
/// signature implies, so a helper's declaration in native code cannot disagree with its
/// definition.
pub trait HelperFn: Copy {
    fn addr(self) -> *const u8;
    fn params() -> Vec<ct::Type>;
    fn returns() -> Vec<ct::Type>;
}

macro_rules! helper_fns {
    ($($a:ident)*) => {
        helper_fns!(@impl [$($a)*] unsafe extern "C" fn($($a),*) -> R);
        helper_fns!(@impl [$($a)*] extern "C" fn($($a),*) -> R);
    };
    (@impl [$($a:ident)*] $fn_ty:ty) => {
        impl<R: AbiReturn, $($a: AbiType),*> HelperFn for $fn_ty {
            fn addr(self) -> *const u8 {
                self as *const u8
            }
            fn params() -> Vec<ct::Type> {
                vec![$($a::CLIF),*]
            }
            fn returns() -> Vec<ct::Type> {
                R::clif()
            }
        }
    };
}

helper_fns!();
helper_fns!(A);
helper_fns!(A B);
helper_fns!(A B C);
helper_fns!(A B C D);
helper_fns!(A B C D E);
helper_fns!(A B C D E F);
helper_fns!(A B C D E F G);

impl Helper {
    /// The helper `f` under the symbol `name`, its signature taken from its type.
    pub fn new<F: HelperFn>(name: &str, f: F) -> Helper {
        Helper {
            name: name.to_string(),
            addr: f.addr(),
            params: F::params(),
            returns: F::returns(),
        }
    }
}

/// A helper of `abi` under its own name: `helper!(mc_clone(_, _))` (one `_` per parameter;
/// the types come from the function's definition).
macro_rules! helper {
    ($f:ident($($p:tt),*)) => {
        Helper::new(stringify!($f), abi::$f as unsafe extern "C" fn($($p),*) -> _)
    };
}

/// Helpers also available as register-preserving trampolines (`NAME_pa`; see
/// `define_trampoline`): the slow paths that rejoin a loop.
pub const PRESERVING: &[&str] = &["mc_push_i64", "mc_push_f64", "mc_push_bytes"];

/// Every helper, by name (registered with the JIT builder and declared in the module once).
pub fn helpers() -> Vec<Helper> {
    type Powi64 = extern "C" fn(f64, i64) -> f64;
    type Powi32 = extern "C" fn(f32, i64) -> f32;
    type Polygamma64 = extern "C" fn(i64, f64) -> f64;
    type Polygamma32 = extern "C" fn(i64, f32) -> f32;
    type Fma64 = extern "C" fn(f64, f64, f64) -> f64;
    type Fma32 = extern "C" fn(f32, f32, f32) -> f32;
    let mut v = vec![
        helper!(mc_frame_init(_, _)),
        helper!(mc_frame_drop(_, _)),
        helper!(mc_clone(_, _)),
        helper!(mc_move(_, _)),
        helper!(mc_box_i64(_, _)),
        helper!(mc_box_f64(_, _)),
        helper!(mc_box_f32(_, _)),
        helper!(mc_box_bool(_, _)),
        helper!(mc_unbox_i64(_)),
        helper!(mc_unbox_f64(_)),
        helper!(mc_unbox_f32(_)),
        helper!(mc_unbox_bool(_)),
        helper!(mc_eval(_, _, _, _, _)),
        helper!(mc_const(_, _, _)),
        helper!(mc_unreachable(_)),
        helper!(mc_out_of_memory(_)),
        helper!(mc_arraylen(_)),
        helper!(mc_tuple(_, _, _, _)),
        helper!(mc_typeassert(_, _, _, _)),
        helper!(mc_new_struct(_, _, _, _)),
        helper!(mc_getfield_borrow(_, _, _)),
        helper!(mc_task_rng(_, _)),
        helper!(mc_in_threaded_loop()),
        helper!(mc_sincos_f64(_, _)),
        helper!(mc_getfield(_, _, _)),
        helper!(mc_getfield_raw(_, _, _)),
        helper!(mc_setfield(_, _, _)),
        helper!(mc_getfield_bits(_, _, _)),
        helper!(mc_setfield_bits(_, _, _, _)),
        helper!(mc_push_value(_, _)),
        helper!(mc_push_value_move(_, _)),
        helper!(mc_pop_value(_, _)),
        helper!(mc_pop_fields(_, _, _)),
        helper!(mc_rule_stack(_, _, _, _, _, _, _)),
        helper!(mc_rule_stacks(_, _, _, _, _)),
        helper!(mc_array_obj(_)),
        helper!(mc_array_new(_, _, _, _, _, _)),
        helper!(mc_array_copy(_, _)),
        helper!(mc_resolve_call(_, _, _, _)),
        helper!(mc_enter_call(_)),
        helper!(mc_rule_child(_, _, _)),
        helper!(mc_array_get_value(_, _, _)),
        helper!(mc_array_set_value(_, _, _)),
        helper!(mc_prim_direct(_, _, _, _, _)),
        helper!(mc_ad_direct(_, _, _, _, _)),
        helper!(mc_tuple_take(_, _, _)),
        helper!(mc_untuple(_, _, _)),
        helper!(mc_leave_call(_)),
        helper!(mc_call_failed(_, _, _)),
        helper!(mc_push_i64(_, _)),
        helper!(mc_push_f64(_, _)),
        helper!(mc_push_bytes(_, _, _)),
        Helper::new("mc_powi_f64", ir::fold::cmath::powi64 as Powi64),
        Helper::new("mc_powi_f32", ir::fold::cmath::powi32 as Powi32),
        Helper::new(
            "mc_polygamma_f64",
            ir::fold::cmath::polygamma64 as Polygamma64,
        ),
        Helper::new(
            "mc_polygamma_f32",
            ir::fold::cmath::polygamma32 as Polygamma32,
        ),
        Helper::new("mc_fma_f64", ir::fold::cmath::fma64 as Fma64),
        Helper::new("mc_fma_f32", ir::fold::cmath::fma32 as Fma32),
    ];
    for op in Prim::ALL {
        if let Some((a, b)) = ir::fold::cmath::unary(*op) {
            v.push(Helper::new(&format!("mc_{}_f64", op.name()), a));
            v.push(Helper::new(&format!("mc_{}_f32", op.name()), b));
        }
        if let Some((a, b)) = ir::fold::cmath::binary(*op) {
            v.push(Helper::new(&format!("mc_{}_f64", op.name()), a));
            v.push(Helper::new(&format!("mc_{}_f32", op.name()), b));
        }
    }
    v
}
