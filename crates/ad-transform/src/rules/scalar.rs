//! Rules of scalar primitives: each formula written once, as partial derivatives emitted as
//! IR (reverse mode multiplies the output's cotangent by them, forward mode the arguments'
//! tangents), with its test cases.

use super::{Partial, Rule};
use crate::emit::Emit;
use ir::{Const, Prim, Type, Value};

/// The float `x` as a constant of float type `t` (`Float32` or `Float64`).
pub(crate) fn fconst(t: &Type, x: f64) -> Const {
    match t {
        Type::Float32 => Const::F32(x as f32),
        _ => Const::F64(x),
    }
}

/// The partials of `out = op(args...)` (result type `rt`), emitted into `e`; `None` for a
/// primitive that is not a scalar function.
pub(super) fn rule(op: Prim, args: &[Value], out: Value, rt: &Type, e: &mut Emit) -> Option<Rule> {
    use Partial::*;
    use Prim::*;
    let t = rt.clone();
    let k = |e: &mut Emit, x: f64| e.konst(fconst(&t, x));
    let p = |e: &mut Emit, op: Prim, a: &[Value]| e.prim(op, a.to_vec(), t.clone());
    Some(match op {
        Floor | Ceil | Round | Trunc => Rule::Scalar(vec![Zero]),
        AddFloat => Rule::Scalar(vec![One, One]),
        SubFloat => Rule::Scalar(vec![One, MinusOne]),
        NegFloat => Rule::Scalar(vec![MinusOne]),
        MulFloat => Rule::Scalar(vec![Val(args[1]), Val(args[0])]),
        Fma => Rule::Scalar(vec![Val(args[1]), Val(args[0]), One]),
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
        // The `special` family.
        Erf | Erfc => {
            // ±(2/√π) exp(-x²)
            let c = k(
                e,
                if op == Erf { 2.0 } else { -2.0 } / std::f64::consts::PI.sqrt(),
            );
            let sq = p(e, MulFloat, &[args[0], args[0]]);
            let nsq = p(e, NegFloat, &[sq]);
            let ex = p(e, Exp, &[nsq]);
            Rule::Scalar(vec![Val(p(e, MulFloat, &[c, ex]))])
        }
        Erfinv | Erfcinv => {
            // ±(√π/2) exp(y²) for y = erfinv(x)
            let c = k(
                e,
                if op == Erfinv { 0.5 } else { -0.5 } * std::f64::consts::PI.sqrt(),
            );
            let sq = p(e, MulFloat, &[out, out]);
            let ex = p(e, Exp, &[sq]);
            Rule::Scalar(vec![Singular(p(e, MulFloat, &[c, ex]))])
        }
        Gamma => {
            let d = p(e, Digamma, &[args[0]]);
            Rule::Scalar(vec![Singular(p(e, MulFloat, &[out, d]))])
        }
        Lgamma => Rule::Scalar(vec![Singular(p(e, Digamma, &[args[0]]))]),
        Digamma => Rule::Scalar(vec![Singular(p(e, Trigamma, &[args[0]]))]),
        Trigamma => {
            let two = e.konst(Const::Int(2));
            Rule::Scalar(vec![Singular(p(e, Polygamma, &[two, args[0]]))])
        }
        Polygamma => {
            // ∂x = ψ⁽ᵐ⁺¹⁾(x); the order is an integer.
            let one = e.konst(Const::Int(1));
            let m1 = e.prim(AddInt, vec![args[0], one], Type::Int64);
            Rule::Scalar(vec![Zero, Singular(p(e, Polygamma, &[m1, args[1]]))])
        }
        BesselJ0 => {
            let j1 = p(e, BesselJ1, &[args[0]]);
            Rule::Scalar(vec![Val(p(e, NegFloat, &[j1]))])
        }
        BesselJ1 => {
            // J₀(x) - J₁(x)/x, which is 1/2 at 0.
            let j0 = p(e, BesselJ0, &[args[0]]);
            let q = p(e, DivFloat, &[out, args[0]]);
            let d = p(e, SubFloat, &[j0, q]);
            let zero = k(e, 0.0);
            let half = k(e, 0.5);
            let at0 = e.prim(EqFloat, vec![args[0], zero], Type::Bool);
            Rule::Scalar(vec![Val(p(e, SelectFloat, &[at0, half, d]))])
        }
        Expm1 => {
            let one = k(e, 1.0);
            Rule::Scalar(vec![Val(p(e, AddFloat, &[out, one]))])
        }
        Log => {
            let one = k(e, 1.0);
            Rule::Scalar(vec![Singular(p(e, DivFloat, &[one, args[0]]))])
        }
        // d/dx ∛x = 1 / (3 (∛x)²), infinite at 0.
        Cbrt => {
            let one = k(e, 1.0);
            let three = k(e, 3.0);
            let sq = p(e, MulFloat, &[out, out]);
            let d = p(e, MulFloat, &[three, sq]);
            Rule::Scalar(vec![Singular(p(e, DivFloat, &[one, d]))])
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
        Fpconvert => Rule::Scalar(vec![Zero, Convert]),
        _ => return None,
    })
}

/// Test cases of the rules above, run through `test_rule` by one harness
/// (`crates/mooncake/tests/rule_cases.rs`): (primitive, definitions, call).
pub const CASES: &[(Prim, &str, &str)] = &[
    (
        Prim::AddFloat,
        "f(x, y) = Core.add_float(x, y)",
        "f(0.3, -1.2)",
    ),
    (
        Prim::SubFloat,
        "f(x, y) = Core.sub_float(x, y)",
        "f(0.3, -1.2)",
    ),
    (
        Prim::MulFloat,
        "f(x, y) = Core.mul_float(x, y)",
        "f(0.3, -1.2)",
    ),
    (Prim::MulFloat, "f(x) = Core.mul_float(x, x)", "f(1.7f0)"),
    (
        Prim::DivFloat,
        "f(x, y) = Core.div_float(x, y)",
        "f(0.3, -1.2)",
    ),
    (Prim::NegFloat, "f(x) = Core.neg_float(x)", "f(0.3)"),
    (
        Prim::RemFloat,
        "f(x, y) = Core.rem_float(x, y)",
        "f(5.3, 1.2)",
    ),
    (
        Prim::PowFloat,
        "f(x, y) = Core.pow_float(x, y)",
        "f(1.3, 0.7)",
    ),
    (Prim::PowiFloat, "f(x) = Core.powi_float(x, 5)", "f(1.3)"),
    (Prim::PowiFloat, "f(x) = Core.powi_float(x, -3)", "f(1.3)"),
    (Prim::Sqrt, "f(x) = Core.sqrt(x)", "f(2.3)"),
    (Prim::Sin, "f(x) = Core.sin(x)", "f(0.7)"),
    (Prim::Cos, "f(x) = Core.cos(x)", "f(0.7)"),
    (Prim::Tan, "f(x) = Core.tan(x)", "f(0.7)"),
    (Prim::Exp, "f(x) = Core.exp(x)", "f(0.7)"),
    (Prim::Log, "f(x) = Core.log(x)", "f(0.7)"),
    (Prim::Log1p, "f(x) = Core.log1p(x)", "f(0.7)"),
    (Prim::Cbrt, "f(x) = Core.cbrt(x)", "f(0.7)"),
    (Prim::Cbrt, "f(x) = Core.cbrt(x)", "f(-2.5)"),
    (Prim::Expm1, "f(x) = Core.expm1(x)", "f(0.7)"),
    (Prim::Tanh, "f(x) = Core.tanh(x)", "f(0.7)"),
    (Prim::Sinh, "f(x) = Core.sinh(x)", "f(0.7)"),
    (Prim::Cosh, "f(x) = Core.cosh(x)", "f(0.7)"),
    (Prim::Asin, "f(x) = Core.asin(x)", "f(0.4)"),
    (Prim::Acos, "f(x) = Core.acos(x)", "f(0.4)"),
    (Prim::Atan, "f(x) = Core.atan(x)", "f(0.7)"),
    (Prim::Atan2, "f(y, x) = Core.atan2(y, x)", "f(0.7, -0.4)"),
    (Prim::Hypot, "f(x, y) = Core.hypot(x, y)", "f(0.7, -0.4)"),
    (
        Prim::Fma,
        "f(x, y, z) = Core.fma(x, y, z)",
        "f(0.7, -0.4, 1.3)",
    ),
    (Prim::Exp2, "f(x) = Core.exp2(x)", "f(0.7)"),
    (Prim::Erf, "f(x) = Core.erf(x)", "f(0.7)"),
    (Prim::Erfc, "f(x) = Core.erfc(x)", "f(-0.4)"),
    (Prim::Erfinv, "f(x) = Core.erfinv(x)", "f(0.6)"),
    (Prim::Erfinv, "f(x) = Core.erfinv(x)", "f(-0.97)"),
    (Prim::Erfcinv, "f(x) = Core.erfcinv(x)", "f(0.02)"),
    (Prim::Gamma, "f(x) = Core.gamma(x)", "f(2.3)"),
    (Prim::Gamma, "f(x) = Core.gamma(x)", "f(-1.4)"),
    (Prim::Lgamma, "f(x) = Core.lgamma(x)", "f(0.7)"),
    (Prim::Lgamma, "f(x) = Core.lgamma(x)", "f(-2.6)"),
    (Prim::Digamma, "f(x) = Core.digamma(x)", "f(3.7)"),
    (Prim::Digamma, "f(x) = Core.digamma(x)", "f(-0.3)"),
    (Prim::Trigamma, "f(x) = Core.trigamma(x)", "f(2.3)"),
    (Prim::Trigamma, "f(x) = Core.trigamma(x)", "f(-0.3)"),
    (Prim::Polygamma, "f(x) = Core.polygamma(2, x)", "f(1.7)"),
    (Prim::Polygamma, "f(x) = Core.polygamma(3, x)", "f(-1.4)"),
    (Prim::Polygamma, "f(x) = Core.polygamma(5, x)", "f(12.5)"),
    (Prim::BesselJ0, "f(x) = Core.besselj0(x)", "f(2.1)"),
    (Prim::BesselJ1, "f(x) = Core.besselj1(x)", "f(2.1)"),
    (Prim::BesselJ1, "f(x) = Core.besselj1(x)", "f(0.0)"),
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
    (
        Prim::Copysign,
        "f(x, y) = Core.copysign(x, y)",
        "f(0.7, -2.0)",
    ),
    (
        Prim::Fpconvert,
        "f(x) = Core.fpconvert(Float64, x) * 2.0",
        "f(0.7f0)",
    ),
];
