//! The default context's rules: prelude functions (`sum`, `dot`) whose calls run as in the
//! primal and whose pullback updates the array arguments' fdata with one runtime primitive
//! each, with their test cases.

use super::{AdMode, Context};
use crate::emit::Emit;
use ir::{Prim, Type, Value};

/// A rule of the default context for a call of a prelude function: the call runs as in the
/// primal, and the pullback updates the arguments' fdata with one runtime primitive per array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastRule {
    /// `sum(x::Vector{T})`: `x̄ .+= ȳ`.
    Sum,
    /// `dot(x::Vector{T}, y::Vector{T})`: `x̄ .+= ȳ y`, `ȳ_y .+= ȳ x`.
    Dot,
}

impl FastRule {
    /// Emits the pullback: with `ybar` the output's cotangent and `arrays` the (primal, fdata)
    /// of each array argument, adds each argument's cotangent into its fdata in place.
    pub fn pullback(self, e: &mut Emit, ybar: Value, arrays: &[(Value, Value)]) {
        match (self, arrays) {
            (FastRule::Sum, &[(_, fx)]) => {
                let t = e.f.types[fx].clone();
                e.prim(Prim::ArrayAddScalar, vec![fx, ybar], t);
            }
            (FastRule::Dot, &[(x, fx), (y, fy)]) => {
                let t = e.f.types[fx].clone();
                e.prim(Prim::ArrayAxpy, vec![fx, ybar, y], t.clone());
                e.prim(Prim::ArrayAxpy, vec![fy, ybar, x], t);
            }
            (rule, _) => unreachable!("{rule:?} with {} array arguments", arrays.len()),
        }
    }
}

/// The functions `fast_rule` may give a rule for (the compiler never inlines their calls).
pub const FAST_FUNCTIONS: &[&str] = &["sum", "dot"];

/// The default context's rule for calling function `name` on arguments of types `args` (the
/// function itself excluded), if there is one.
pub fn fast_rule(ctx: Context, mode: AdMode, name: &str, args: &[Type]) -> Option<FastRule> {
    if ctx == Context::Minimal || mode == AdMode::Forward {
        return None;
    }
    let float_vec = |t: &Type| matches!(t, Type::Array(e, 1) if e.is_float());
    match (name, args) {
        ("sum", [x]) if float_vec(x) => Some(FastRule::Sum),
        ("dot", [x, y]) if float_vec(x) && x == y => Some(FastRule::Dot),
        _ => None,
    }
}

/// Whether a call of `name` on `args` is a primitive of `ctx` in `mode`: it then uses a rule
/// instead of being differentiated through its code. (Calls of `Core` primitives always are.)
pub fn is_primitive(ctx: Context, mode: AdMode, name: &str, args: &[Type]) -> bool {
    fast_rule(ctx, mode, name, args).is_some()
}

/// Test cases of the default context's rules, run through `test_rule` like the primitives'.
pub const FAST_CASES: &[(FastRule, &str, &str)] = &[
    (FastRule::Sum, "f(x) = sum(x) * x[1]", "f([1.0, -2.0, 3.5])"),
    (
        FastRule::Dot,
        "f(x, y) = dot(x, y) + dot(x, x)",
        "f([1.0, -2.0], [0.5, 3.0])",
    ),
    (
        FastRule::Dot,
        "f(x) = dot(x, x) * sum(x)",
        "f([1.0f0, -2.0f0, 2.5f0])",
    ),
];
