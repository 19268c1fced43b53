//! The runtime: values (unboxed scalars, column-major arrays of unboxed elements, structs),
//! Julia-exact printing, native implementations of the primitives, exceptions, and the
//! prelude source (Julia's Base in the language itself).

pub mod exception;
pub mod factor;
pub mod hashing;
pub mod matmul;
pub mod memory;
pub mod prims;
pub mod printf;
pub mod show;
pub mod team;
pub mod threads;
pub mod tries;
pub mod value;

pub use exception::{method_error, Callee, Exception};
pub use prims::eval_prim;
pub use value::{egal, live_arrays, ArrayData, ArrayObj, SharedArray, Value};

macro_rules! prelude_file {
    ($name:literal) => {
        (
            concat!("prelude/", $name, ".jl"),
            include_str!(concat!("prelude/", $name, ".jl")),
        )
    };
}

/// The prelude: Julia's Base written in the language itself on top of the primitives
/// (`Core.name(...)`, see `ir::prim`), as (file name, source) in the order a session loads
/// them before user code. Reverse- and forward-mode AD differentiate this code like user code,
/// so only the primitives need derivative rules.
pub const PRELUDE: &[(&str, &str)] = &[
    prelude_file!("types"),
    prelude_file!("generic"),
    prelude_file!("conversion"),
    prelude_file!("int"),
    prelude_file!("bool"),
    prelude_file!("float"),
    prelude_file!("math"),
    prelude_file!("irrationals"),
    prelude_file!("strings"),
    prelude_file!("errors"),
    prelude_file!("chars"),
    prelude_file!("integers"),
    prelude_file!("io"),
    prelude_file!("tuples"),
    prelude_file!("refs"),
    prelude_file!("ranges"),
    prelude_file!("float_ranges"),
    prelude_file!("iteration"),
    prelude_file!("arrays"),
    prelude_file!("array_math"),
    prelude_file!("linear_algebra"),
    prelude_file!("views"),
    prelude_file!("higher_order"),
    prelude_file!("reductions"),
    prelude_file!("ndarrays"),
    prelude_file!("cartesian"),
    prelude_file!("ndarrays_any_rank"),
    prelude_file!("sorting"),
    prelude_file!("iterators"),
    prelude_file!("special"),
    prelude_file!("complex"),
    prelude_file!("dicts"),
    prelude_file!("broadcast"),
    prelude_file!("structured"),
    prelude_file!("banded"),
    prelude_file!("factorizations"),
    prelude_file!("random"),
    prelude_file!("distributions"),
    prelude_file!("threads"),
    prelude_file!("ad"),
    prelude_file!("mooncake"),
    prelude_file!("chainrules"),
    prelude_file!("constants"),
];
