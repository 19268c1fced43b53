//! The default context's rules: prelude functions (`sum`, `dot`) whose calls run as in the
//! primal and whose pullback updates the array arguments' fdata with one runtime primitive
//! each, and the loop of a broadcast into a big new array, whose forwards pass computes the
//! elements' partial derivatives by forward-mode lanes; with their test cases.

use super::{AdMode, Context};
use crate::emit::Emit;
use ir::{Prim, Type, TypeEnv, Value};

/// A rule of the default context for a call of a prelude function: the call runs as in the
/// primal, and the pullback updates the arguments' fdata with one runtime primitive per array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastRule {
    /// `sum(x::Array{T})`: `x̄ .+= ȳ`.
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

/// The functions `fast_rule` and `broadcast_rule` may give a rule for (the compiler never
/// inlines their calls).
pub const FAST_FUNCTIONS: &[&str] = &["sum", "dot", "_bfill_fresh!"];

/// The default context's rule for `_bfill_fresh!(f, dest, xs...)`, the loop of a `broadcast`
/// into the float array it has just made: the forwards pass runs the loop's forward-mode rule
/// with one lane per differentiable argument (each seeded with ones, the others with zeros),
/// so one pass computes the elements and their partial derivatives with respect to every
/// argument; the pullback multiplies the result's cotangent by each lane's partials and sums
/// them down to that argument's shape (`Core.array_muladd`). Nothing inside the loop is saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BroadcastRule {
    /// For each of `xs`: its lane, or `None` for an argument without a derivative (integers,
    /// strings, constants).
    pub lanes: Vec<Option<usize>>,
    /// The number of lanes.
    pub width: usize,
}

/// The most lanes a broadcast's rule takes; a broadcast with more differentiable arguments is
/// differentiated through its loop. (Forward mode's cost per element grows with the square of
/// the lanes: each lane reads a tangent of every argument.)
pub const BROADCAST_MAX_LANES: usize = 2;

/// The default context's rule for calling `name` on arguments of types `args` (the function
/// itself excluded), `constant(k)` telling whether argument `k` is a constant: a
/// [`BroadcastRule`] for a broadcast whose function carries no derivative, into a float
/// array, from arrays and scalars of its element type or of no derivative.
pub fn broadcast_rule(
    ctx: Context,
    mode: AdMode,
    name: &str,
    args: &[Type],
    env: &TypeEnv,
    constant: &dyn Fn(usize) -> bool,
) -> Option<BroadcastRule> {
    if ctx == Context::Minimal || mode == AdMode::Forward || name != "_bfill_fresh!" {
        return None;
    }
    let no_tangent = |t: &Type| crate::forward::tangent_of(t, env) == Type::NoTangent;
    let (f, Type::Array(elem, _)) = (args.first()?, args.get(1)?) else {
        return None;
    };
    if !no_tangent(f) || !elem.is_float() {
        return None;
    }
    let mut width = 0;
    let mut lanes = Vec::new();
    for (k, a) in args.iter().enumerate().skip(2) {
        let lane = match a {
            t if no_tangent(t) => None,
            Type::Array(e, _) if e == elem => Some(()),
            t if t == &**elem => (!constant(k)).then_some(()),
            _ => return None,
        };
        lanes.push(lane.map(|()| {
            width += 1;
            width - 1
        }));
    }
    (1..=BROADCAST_MAX_LANES)
        .contains(&width)
        .then_some(BroadcastRule { lanes, width })
}

impl BroadcastRule {
    /// Emits the pullback for one argument with a lane: `fy` the result's cotangent (its fdata
    /// array), `p` the lane's partials (shaped like the result). An array's cotangent `fx`
    /// (its fdata) is updated in place; a float's is returned.
    pub fn pullback(e: &mut Emit, fy: Value, p: Value, fx: Option<Value>, elem: &Type) -> Value {
        match fx {
            Some(fx) => {
                let t = e.f.types[fx].clone();
                e.prim(Prim::ArrayMulAdd, vec![fx, fy, p], t)
            }
            None => {
                let zero = e.konst(super::fconst(elem, 0.0));
                e.prim(Prim::ArrayMulAdd, vec![zero, fy, p], elem.clone())
            }
        }
    }
}

/// The default context's rule for calling function `name` on arguments of types `args` (the
/// function itself excluded), if there is one.
pub fn fast_rule(ctx: Context, mode: AdMode, name: &str, args: &[Type]) -> Option<FastRule> {
    if ctx == Context::Minimal || mode == AdMode::Forward {
        return None;
    }
    let float_vec = |t: &Type| matches!(t, Type::Array(e, 1) if e.is_float());
    match (name, args) {
        ("sum", [Type::Array(e, _)]) if e.is_float() => Some(FastRule::Sum),
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
        FastRule::Sum,
        "f(A) = sum(A) * A[2, 1]",
        "f([1.0 -2.0; 3.5 0.5])",
    ),
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

/// Test cases of the broadcast rule (definitions, a call, and a call of the broadcast's loop
/// `_bfill_out!` as the call makes it, or of `_mapsum_fresh` for a sum of a function, whose
/// pullback uses the rule), run through `test_rule` and compared with the minimal context's
/// gradient. The arrays are big enough for `broadcast` to take the rule (a matrix or higher
/// array of at least 1024 elements) and for a sum of a function over an array to be
/// differentiated as a broadcast then a sum (1024 elements).
pub const BROADCAST_CASES: &[(&str, &str, &str)] = &[
    // One lane; an integer argument has none.
    (
        "f(A, k) = sum(tanh.(A .* 0.5) .^ k)\nA0() = [sin(1.0 * (i + 2j)) for i in 1:32, j in 1:32]\nq(a, k) = tanh(a * 0.5)^k",
        "f(A0(), 3)",
        "_bfill_out!(q, zeros(32, 32), A0(), 3)",
    ),
    // A column vector expanded along the rows' length: its partials summed per row.
    (
        "f(A, b) = sum(abs2, tanh.(A .+ b))\nA0() = [cos(0.3 * i * j) for i in 1:32, j in 1:40]\nq(a, b) = tanh(a + b)",
        "f(A0(), [0.1 * i for i in 1:32])",
        "_bfill_out!(q, zeros(32, 40), A0(), [0.1 * i for i in 1:32])",
    ),
    // A float argument: its lane's partials summed to one number.
    (
        "g(A, s) = sum(sin.(A .* s))\nA0() = [sin(0.1 * (i - j)) for i in 1:32, j in 1:32]\nq(a, s) = sin(a * s)",
        "g(A0(), 0.7)",
        "_bfill_out!(q, zeros(32, 32), A0(), 0.7)",
    ),
    // A row (a 1×n matrix) expanded down the columns.
    (
        "f(A, r) = sum(exp.(A ./ r))\nA0() = [sin(0.1 * (i - j)) for i in 1:32, j in 1:32]\nq(a, r) = exp(a / r)",
        "f(A0(), [2.0 + sin(1.0 * j) for i in 1:1, j in 1:32])",
        "_bfill_out!(q, zeros(32, 32), A0(), [2.0 + sin(1.0 * j) for i in 1:1, j in 1:32])",
    ),
    // Three dimensions; an integer array has no lane.
    (
        "f(T, M) = sum(sqrt.(T .+ M .+ 2.0))\nT0() = [sin(1.0 * (i + j + k)) for i in 1:8, j in 1:8, k in 1:16]\nq(t, m) = sqrt(t + m + 2.0)",
        "f(T0(), [i + j for i in 1:8, j in 1:8])",
        "_bfill_out!(q, zeros(8, 8, 16), T0(), [i + j for i in 1:8, j in 1:8])",
    ),
    // Single precision; one array in two lanes.
    (
        "f(A) = sum(sin.(A) .* 2.0f0 .- A)\nA0() = [Float32(0.001 * (i - j)) for i in 1:32, j in 1:32]\nq(a, b) = sin(a) * 2.0f0 - b",
        "f(A0())",
        "_bfill_out!(q, zeros(Float32, 32, 32), A0(), A0())",
    ),
    // The sum of a function with a branch over a matrix.
    (
        "f(A) = sum(q, A) / 2\nA0() = [sin(1.0 * (i + 3j)) for i in 1:32, j in 1:40]\nq(a) = a > 0.0 ? sqrt(1.0 + a) * a : a * exp(a)",
        "f(A0())",
        "_mapsum_fresh(q, A0())",
    ),
    // A generator's sum over a vector, times its argument's first element.
    (
        "f(v) = sum(tanh(x) * x for x in v) * v[1]\nv0() = [cos(0.01 * i) for i in 1:1500]\nq(x) = tanh(x) * x",
        "f(v0())",
        "_mapsum_fresh(q, v0())",
    ),
    // `mapreduce` with `+` over a single-precision array of three dimensions.
    (
        "f(T) = mapreduce(q, +, T)\nT0() = [Float32(0.01 * (i - j + k)) for i in 1:8, j in 1:8, k in 1:20]\nq(t) = sin(t) * t",
        "f(T0())",
        "_mapsum_fresh(q, T0())",
    ),
];
