//! Derivative rules of the primitives. Each scalar formula is written once, as partial
//! derivatives emitted as IR; reverse mode multiplies the output's cotangent by them, forward
//! mode multiplies the arguments' tangents. The transform knows no maths: it asks here.

use crate::emit::Emit;
use ir::{Const, Prim, Type, Value};

/// ∂out/∂arg for one argument of a primitive.
#[derive(Clone, Copy, Debug)]
pub enum Partial {
    /// The argument has no derivative (an integer, a type, a zero derivative).
    Zero,
    One,
    MinusOne,
    /// The derivative's value, computed in the forwards pass.
    Val(Value),
    /// A conversion between float widths: the cotangent converts back to the argument's type.
    Convert,
    /// A derivative that is infinite (or undefined) where the function is not differentiable
    /// (`sqrt` and `log` at 0, `x^p` at 0 for p < 1): a zero tangent or cotangent times it is
    /// zero (a strong zero), so it cannot make other directions' derivatives NaN.
    Singular(Value),
    /// The (co)tangent itself where the `Bool` value is true, zero elsewhere: a choice, not a
    /// product, so that a non-finite (co)tangent on the side not chosen does not leak.
    If(Value),
}

/// What the registry knows about a primitive in reverse mode.
pub enum Rule {
    /// Not differentiable: no argument or result carries a derivative (comparisons, integer
    /// arithmetic, printing, errors).
    NonDifferentiable,
    /// A scalar function: the partials of the result with respect to each argument.
    Scalar(Vec<Partial>),
    /// An array read: the cotangent goes into the array's fdata at the same indices.
    ArrayRead,
    /// `arrayset(A, v, i...)`: saves and restores the old element and its fdata.
    ArrayWrite,
    /// `array_push(A, v)`.
    ArrayPush,
    /// `array_pop(A)`.
    ArrayPop,
    /// `array_copy(A)`: a new array whose cotangent accumulates into A's.
    ArrayCopy,
    /// `array_reshape(A, dims...)`: an array sharing A's memory, whose tangent (and fdata) is
    /// the same reshape of A's.
    ArrayShare,
    /// `tuple_getindex(t, i)` with a run-time index: the cotangent goes to element i.
    TupleIndex,
    /// `array_resize(A, n)`: saves A and its fdata; the pullback gives both their old length
    /// and the elements that were cut off back (`array_unresize`).
    ArrayResize,
}

fn fconst(t: &Type, x: f64) -> Const {
    match t {
        Type::Float32 => Const::F32(x as f32),
        _ => Const::F64(x),
    }
}

/// Which rules the transform may use. `Minimal` has the rules needed for
/// correctness (every primitive of the runtime); `Default` adds rules that exist only for
/// speed, for prelude functions that would otherwise be differentiated through their code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Context {
    Minimal,
    #[default]
    Default,
}

impl Context {
    pub fn name(self) -> &'static str {
        match self {
            Context::Minimal => "minimal",
            Context::Default => "default",
        }
    }
}

/// The mode a rule is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdMode {
    Reverse,
    Forward,
}

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

/// Test cases of the default context's rules, run through `test_rule` like `CASES`.
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

/// The rule for `out = op(args...)` (types `ats`, result type `rt`), emitting any partials
/// into `e`. `None` if the primitive has no reverse rule yet.
pub fn reverse_rule(
    op: Prim,
    args: &[Value],
    ats: &[Type],
    out: Value,
    rt: &Type,
    e: &mut Emit,
) -> Option<Rule> {
    use Partial::*;
    use Prim::*;
    let t = rt.clone();
    let k = |e: &mut Emit, x: f64| e.konst(fconst(&t, x));
    let p = |e: &mut Emit, op: Prim, a: &[Value]| e.prim(op, a.to_vec(), t.clone());
    Some(match op {
        // Integer, boolean, comparison and bookkeeping primitives carry no derivative.
        AddInt | SubInt | MulInt | NegInt | SdivInt | SremInt | AndInt | OrInt | XorInt
        | NotInt | EqInt | NeInt | SltInt | SleInt | EqFloat | NeFloat | LtFloat | LeFloat
        | NotBool | AndBool | OrBool | XorBool | Sitofp | Fptosi | BoolToInt | IntToBool | Egal
        | Isa | Typeof | PromoteType | PromoteTypejoin | ApplyType | PromoteEltype | VcatType
        | SubarrayType | CatEltype | ArrayNew | ArrayLen | ArraySize | SameMemory | TupleLen
        | RuleStack | RuleChild | AdCheck | TangentCheck | RdataAdd | RdataConvert | RdataAddAt
        | TangentFdata | TangentRdata | TangentAddRdata | TangentOf | FieldFdata | GlobalFdata
        | FieldCotangent | DynFwd | DynRvs | ZeroTangent | TangentField | GlobalTangent
        | DualCall | ToString | Repr | StringConcat | StringLen | Print | Show | ThrowError
        | ThrowAssert | ThrowArgument | ThrowBounds | ThrowDomain | ThrowInexact
        | ThrowUndefVar | ThrowMethodError | ThrowTypeError | ThrowDivide | ThrowValue => {
            Rule::NonDifferentiable
        }
        Floor | Ceil | Round | Trunc => Rule::Scalar(vec![Zero]),
        AddFloat => Rule::Scalar(vec![One, One]),
        SubFloat => Rule::Scalar(vec![One, MinusOne]),
        NegFloat => Rule::Scalar(vec![MinusOne]),
        MulFloat => Rule::Scalar(vec![Val(args[1]), Val(args[0])]),
        DivFloat => {
            // ∂x = 1/y, ∂y = -out/y
            let one = k(e, 1.0);
            let inv_y = p(e, DivFloat, &[one, args[1]]);
            let q = p(e, DivFloat, &[out, args[1]]);
            let dy = p(e, NegFloat, &[q]);
            Rule::Scalar(vec![Val(inv_y), Val(dy)])
        }
        RemFloat => {
            // rem(x, y) = x - y * trunc(x / y)
            let q = p(e, DivFloat, &[args[0], args[1]]);
            let tq = p(e, Trunc, &[q]);
            let dy = p(e, NegFloat, &[tq]);
            Rule::Scalar(vec![One, Val(dy)])
        }
        PowFloat => {
            // ∂x = p x^(p-1), and 0 for p = 0 (x^0 is constant, also at x = 0);
            // ∂p = x^p log|x|, and 0 at x = 0 for p > 0 (where x^p is 0 around p).
            let (x, y) = (args[0], args[1]);
            let one = k(e, 1.0);
            let zero = k(e, 0.0);
            let ym1 = p(e, SubFloat, &[y, one]);
            let pw = p(e, PowFloat, &[x, ym1]);
            let dx = p(e, MulFloat, &[y, pw]);
            let y0 = e.prim(EqFloat, vec![y, zero], Type::Bool);
            let dx = p(e, SelectFloat, &[y0, zero, dx]);
            let ax = p(e, AbsFloat, &[x]);
            let lx = p(e, Log, &[ax]);
            let dy = p(e, MulFloat, &[out, lx]);
            let x0 = e.prim(EqFloat, vec![x, zero], Type::Bool);
            let ypos = e.prim(LtFloat, vec![zero, y], Type::Bool);
            let flat = e.prim(AndBool, vec![x0, ypos], Type::Bool);
            let dy = p(e, SelectFloat, &[flat, zero, dy]);
            Rule::Scalar(vec![Singular(dx), Singular(dy)])
        }
        PowiFloat => {
            // ∂x = n x^(n-1), and 0 for n = 0; n is an integer.
            let one = e.konst(Const::Int(1));
            let nm1 = e.prim(SubInt, vec![args[1], one], Type::Int64);
            let pw = p(e, PowiFloat, &[args[0], nm1]);
            let ft = e.konst(Const::Type(t.clone()));
            let nf = e.prim(Sitofp, vec![ft, args[1]], t.clone());
            let dx = p(e, MulFloat, &[nf, pw]);
            let zero = k(e, 0.0);
            let izero = e.konst(Const::Int(0));
            let n0 = e.prim(EqInt, vec![args[1], izero], Type::Bool);
            let dx = p(e, SelectFloat, &[n0, zero, dx]);
            Rule::Scalar(vec![Singular(dx), Zero])
        }
        SelectFloat => {
            let not = e.prim(NotBool, vec![args[0]], Type::Bool);
            Rule::Scalar(vec![Zero, If(args[0]), If(not)])
        }
        Sqrt => {
            let half = k(e, 0.5);
            Rule::Scalar(vec![Singular(p(e, DivFloat, &[half, out]))])
        }
        Sin => Rule::Scalar(vec![Val(p(e, Cos, &[args[0]]))]),
        Cos => {
            let s = p(e, Sin, &[args[0]]);
            Rule::Scalar(vec![Val(p(e, NegFloat, &[s]))])
        }
        Tan => {
            let one = k(e, 1.0);
            let sq = p(e, MulFloat, &[out, out]);
            Rule::Scalar(vec![Val(p(e, AddFloat, &[one, sq]))])
        }
        Exp => Rule::Scalar(vec![Val(out)]),
        Expm1 => {
            let one = k(e, 1.0);
            Rule::Scalar(vec![Val(p(e, AddFloat, &[out, one]))])
        }
        Log => {
            let one = k(e, 1.0);
            Rule::Scalar(vec![Singular(p(e, DivFloat, &[one, args[0]]))])
        }
        Log1p => {
            let one = k(e, 1.0);
            let d = p(e, AddFloat, &[one, args[0]]);
            Rule::Scalar(vec![Singular(p(e, DivFloat, &[one, d]))])
        }
        Log2 | Log10 => {
            let ln = k(
                e,
                if op == Log2 {
                    std::f64::consts::LN_2
                } else {
                    std::f64::consts::LN_10
                },
            );
            let one = k(e, 1.0);
            let d = p(e, MulFloat, &[args[0], ln]);
            Rule::Scalar(vec![Singular(p(e, DivFloat, &[one, d]))])
        }
        Exp2 => {
            let ln = k(e, std::f64::consts::LN_2);
            Rule::Scalar(vec![Val(p(e, MulFloat, &[out, ln]))])
        }
        Tanh => {
            let one = k(e, 1.0);
            let sq = p(e, MulFloat, &[out, out]);
            Rule::Scalar(vec![Val(p(e, SubFloat, &[one, sq]))])
        }
        Sinh => Rule::Scalar(vec![Val(p(e, Cosh, &[args[0]]))]),
        Cosh => Rule::Scalar(vec![Val(p(e, Sinh, &[args[0]]))]),
        Asin | Acos => {
            // ±1/sqrt(1 - x²)
            let one = k(e, 1.0);
            let sq = p(e, MulFloat, &[args[0], args[0]]);
            let d = p(e, SubFloat, &[one, sq]);
            let r = p(e, Sqrt, &[d]);
            let inv = p(e, DivFloat, &[one, r]);
            let v = if op == Asin {
                inv
            } else {
                p(e, NegFloat, &[inv])
            };
            Rule::Scalar(vec![Singular(v)])
        }
        Atan => {
            let one = k(e, 1.0);
            let sq = p(e, MulFloat, &[args[0], args[0]]);
            let d = p(e, AddFloat, &[one, sq]);
            Rule::Scalar(vec![Val(p(e, DivFloat, &[one, d]))])
        }
        Atan2 => {
            // atan(y, x): ∂y = x/(x²+y²), ∂x = -y/(x²+y²)
            let (y, x) = (args[0], args[1]);
            let x2 = p(e, MulFloat, &[x, x]);
            let y2 = p(e, MulFloat, &[y, y]);
            let d = p(e, AddFloat, &[x2, y2]);
            let dy = p(e, DivFloat, &[x, d]);
            let q = p(e, DivFloat, &[y, d]);
            let dx = p(e, NegFloat, &[q]);
            Rule::Scalar(vec![Val(dy), Val(dx)])
        }
        Hypot => {
            // x/h and y/h, and 0 at the origin (dividing by 1 there), as Julia's rules.
            let one = k(e, 1.0);
            let zero = k(e, 0.0);
            let h0 = e.prim(EqFloat, vec![out, zero], Type::Bool);
            let n = p(e, SelectFloat, &[h0, one, out]);
            let dx = p(e, DivFloat, &[args[0], n]);
            let dy = p(e, DivFloat, &[args[1], n]);
            Rule::Scalar(vec![Val(dx), Val(dy)])
        }
        AbsFloat => {
            // sign(x): 1, -1, or 0 at 0 (as Julia's rules).
            let zero = k(e, 0.0);
            let pos = e.prim(LtFloat, vec![zero, args[0]], Type::Bool);
            let neg = e.prim(LtFloat, vec![args[0], zero], Type::Bool);
            let pi = e.prim(BoolToInt, vec![pos], Type::Int64);
            let ni = e.prim(BoolToInt, vec![neg], Type::Int64);
            let si = e.prim(SubInt, vec![pi, ni], Type::Int64);
            let ft = e.konst(Const::Type(t.clone()));
            Rule::Scalar(vec![Val(e.prim(Sitofp, vec![ft, si], t.clone()))])
        }
        Copysign => {
            let one = k(e, 1.0);
            let sx = p(e, Copysign, &[one, args[0]]);
            let sy = p(e, Copysign, &[one, args[1]]);
            Rule::Scalar(vec![Val(p(e, MulFloat, &[sx, sy])), Zero])
        }
        Fpconvert => {
            let _ = ats;
            Rule::Scalar(vec![Zero, Convert])
        }
        ArrayRef | ArrayRefRaw => Rule::ArrayRead,
        ArraySet => Rule::ArrayWrite,
        ArrayPush => Rule::ArrayPush,
        ArrayPop => Rule::ArrayPop,
        ArrayCopy => Rule::ArrayCopy,
        ArrayReshape => Rule::ArrayShare,
        // Reverse mode's own bookkeeping on tangent arrays.
        ArrayZeroLike | ArrayAccumulate | ArrayAxpy | ArrayAddScalar | ArrayUnresize => {
            Rule::NonDifferentiable
        }
        TupleGetIndex => Rule::TupleIndex,
        ArrayResize => Rule::ArrayResize,
        // AD inside the language: differentiated by forward mode (`forward`), not yet by
        // reverse mode.
        DualApply | GradApply => return None,
    })
}

/// Whether a primitive carries derivatives (and so needs test cases below).
pub fn is_differentiable(op: Prim) -> bool {
    use Prim::*;
    match op {
        AddFloat | SubFloat | MulFloat | DivFloat | NegFloat | RemFloat | PowFloat | PowiFloat
        | Sqrt | Sin | Cos | Tan | Exp | Log | Log1p | Expm1 | Tanh | Sinh | Cosh | Asin | Acos
        | Atan | Atan2 | Hypot | Exp2 | Log2 | Log10 | AbsFloat | SelectFloat | Copysign
        | Fpconvert | ArrayRef | ArrayRefRaw | ArraySet | ArrayPush | ArrayPop | ArrayCopy
        | ArrayReshape | ArrayResize | TupleGetIndex => true,
        Floor | Ceil | Round | Trunc | AddInt | SubInt | MulInt | NegInt | SdivInt | SremInt
        | AndInt | OrInt | XorInt | NotInt | EqInt | NeInt | SltInt | SleInt | EqFloat
        | NeFloat | LtFloat | LeFloat | NotBool | AndBool | OrBool | XorBool | Sitofp | Fptosi
        | BoolToInt | IntToBool | Egal | Isa | Typeof | PromoteType | PromoteTypejoin
        | ApplyType | PromoteEltype | VcatType | CatEltype | SubarrayType | ArrayNew | ArrayLen
        | ArraySize | SameMemory | ArrayUnresize | ArrayZeroLike | ArrayAccumulate | ArrayAxpy
        | ArrayAddScalar | RuleStack | RuleChild | AdCheck | TangentCheck | RdataAdd
        | RdataConvert | RdataAddAt | TangentFdata | TangentRdata | TangentAddRdata | TangentOf
        | FieldFdata | GlobalFdata | FieldCotangent | DynFwd | DynRvs | ZeroTangent
        | TangentField | GlobalTangent | DualCall | DualApply | GradApply | TupleLen | ToString
        | Repr | StringConcat | StringLen | Print | Show | ThrowError | ThrowAssert
        | ThrowArgument | ThrowBounds | ThrowDomain | ThrowInexact | ThrowUndefVar
        | ThrowMethodError | ThrowTypeError | ThrowDivide | ThrowValue => false,
    }
}

/// Test cases of the rules above, run through `test_rule` by one harness
/// (`crates/mooncake/tests/rule_cases.rs`): (primitive, definitions, call).
pub const CASES: &[(Prim, &str, &str)] = &[
    (Prim::AddFloat, "f(x, y) = Core.add_float(x, y)", "f(0.3, -1.2)"),
    (Prim::SubFloat, "f(x, y) = Core.sub_float(x, y)", "f(0.3, -1.2)"),
    (Prim::MulFloat, "f(x, y) = Core.mul_float(x, y)", "f(0.3, -1.2)"),
    (Prim::MulFloat, "f(x) = Core.mul_float(x, x)", "f(1.7f0)"),
    (Prim::DivFloat, "f(x, y) = Core.div_float(x, y)", "f(0.3, -1.2)"),
    (Prim::NegFloat, "f(x) = Core.neg_float(x)", "f(0.3)"),
    (Prim::RemFloat, "f(x, y) = Core.rem_float(x, y)", "f(5.3, 1.2)"),
    (Prim::PowFloat, "f(x, y) = Core.pow_float(x, y)", "f(1.3, 0.7)"),
    (Prim::PowiFloat, "f(x) = Core.powi_float(x, 5)", "f(1.3)"),
    (Prim::PowiFloat, "f(x) = Core.powi_float(x, -3)", "f(1.3)"),
    (Prim::Sqrt, "f(x) = Core.sqrt(x)", "f(2.3)"),
    (Prim::Sin, "f(x) = Core.sin(x)", "f(0.7)"),
    (Prim::Cos, "f(x) = Core.cos(x)", "f(0.7)"),
    (Prim::Tan, "f(x) = Core.tan(x)", "f(0.7)"),
    (Prim::Exp, "f(x) = Core.exp(x)", "f(0.7)"),
    (Prim::Log, "f(x) = Core.log(x)", "f(0.7)"),
    (Prim::Log1p, "f(x) = Core.log1p(x)", "f(0.7)"),
    (Prim::Expm1, "f(x) = Core.expm1(x)", "f(0.7)"),
    (Prim::Tanh, "f(x) = Core.tanh(x)", "f(0.7)"),
    (Prim::Sinh, "f(x) = Core.sinh(x)", "f(0.7)"),
    (Prim::Cosh, "f(x) = Core.cosh(x)", "f(0.7)"),
    (Prim::Asin, "f(x) = Core.asin(x)", "f(0.4)"),
    (Prim::Acos, "f(x) = Core.acos(x)", "f(0.4)"),
    (Prim::Atan, "f(x) = Core.atan(x)", "f(0.7)"),
    (Prim::Atan2, "f(y, x) = Core.atan2(y, x)", "f(0.7, -0.4)"),
    (Prim::Hypot, "f(x, y) = Core.hypot(x, y)", "f(0.7, -0.4)"),
    (Prim::Exp2, "f(x) = Core.exp2(x)", "f(0.7)"),
    (Prim::Log2, "f(x) = Core.log2(x)", "f(0.7)"),
    (Prim::Log10, "f(x) = Core.log10(x)", "f(0.7)"),
    (Prim::AbsFloat, "f(x) = Core.abs_float(x)", "f(-0.7)"),
    (
        Prim::SelectFloat,
        "f(x, y) = Core.select_float(x < y, x * y, x - y)",
        "f(0.3, 0.7)",
    ),
    (
        Prim::SelectFloat,
        "f(x, y) = Core.select_float(x < y, x * y, x - y)",
        "f(1.3, 0.7)",
    ),
    (Prim::Copysign, "f(x, y) = Core.copysign(x, y)", "f(0.7, -2.0)"),
    (Prim::Fpconvert, "f(x) = Core.fpconvert(Float64, x) * 2.0", "f(0.7f0)"),
    (Prim::ArrayRef, "f(x) = Core.arrayref(x, 2) * 3.0", "f([1.0, 2.0, 3.0])"),
    (Prim::ArrayRef, "f(A) = Core.arrayref(A, 2, 1) * Core.arrayref(A, 1, 2)", "f([1.0 2.0; 3.0 4.0])"),
    (Prim::ArrayRefRaw, "f(x) = Core.arrayref_raw(x, 2) * 3.0", "f([1.0, 2.0, 3.0])"),
    (Prim::ArrayResize, "function f(x)\n y = copy(x)\n Core.array_resize(y, 2)\n s = y[1] * y[2]\n Core.array_resize(y, 4)\n y[4] = x[3]\n s * y[4]\nend", "f([1.0, 2.0, 3.0])"),
    (Prim::ArrayResize, "function f(x)\n Core.array_resize(x, 1)\n s = x[1] * 2.0\n Core.array_resize(x, 2)\n x[2] = s\n s * x[2]\nend", "f([1.5, 2.0, 3.0])"),
    (Prim::ArraySet, "function f(x, y)\n    Core.arrayset(x, y * 2.0, 1)\n    Core.arrayref(x, 1) * Core.arrayref(x, 2)\nend", "f([1.0, 2.0], 0.5)"),
    (Prim::ArrayPush, "function f(x, y)\n    Core.array_push(x, y^2)\n    s = Core.arrayref(x, 3) * Core.arrayref(x, 1)\n    Core.array_pop(x)\n    s\nend", "f([1.0, 2.0], 0.5)"),
    (Prim::ArrayPop, "function f(x)\n    v = Core.array_pop(x)\n    Core.array_push(x, 0.0)\n    v * Core.arrayref(x, 1)\nend", "f([1.0, 2.0, 3.0])"),
    (Prim::ArrayCopy, "function f(x)\n    y = Core.array_copy(x)\n    Core.arrayset(y, 0.0, 1)\n    Core.arrayref(y, 2) * Core.arrayref(x, 1)\nend", "f([1.0, 2.0])"),
    (Prim::ArrayReshape, "function f(x)\n    A = Core.array_reshape(x, 2, 2)\n    Core.arrayref(A, 1, 2) * Core.arrayref(A, 2, 1)\nend", "f([1.0, 2.0, 3.0, 4.0])"),
    (Prim::ArrayReshape, "function f(x)\n    A = Core.array_reshape(x, 2, 2)\n    Core.arrayset(A, Core.arrayref(x, 4) * 3.0, 1, 1)\n    Core.arrayref(x, 1) * Core.arrayref(A, 2, 1)\nend", "f([1.0, 2.0, 3.0, 4.0])"),
    (Prim::TupleGetIndex, "function f(x, y)\n    t = (x, y, x * y)\n    s = 0.0\n    for i in 1:3\n        s += Core.tuple_getindex(t, i) * i\n    end\n    s\nend", "f(0.3, 0.8)"),
];
