//! The runtime: values (unboxed scalars, column-major arrays of unboxed elements, structs),
//! Julia-exact printing, native implementations of the primitives, exceptions, and the
//! prelude source (Julia's Base in the language itself).

pub mod memory;
pub mod prims;
pub mod show;
pub mod value;

pub use prims::{eval_prim, Exception};
pub use value::{egal, live_arrays, ArrayData, ArrayObj, Value};

/// The prelude, loaded into every session before user code.
pub const PRELUDE: &str = include_str!("prelude.jl");
