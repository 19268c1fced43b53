//! Evaluation of primitives on scalar constants. This is the single definition of scalar
//! arithmetic: the optimiser folds with it and the runtime evaluates scalar primitives with it.
//! It returns `None` when the primitive does not apply to the arguments or would throw.

use crate::function::Const;
use crate::prim::Prim;
use crate::types::Type;

fn f2(args: &[Const], f64f: fn(f64, f64) -> f64, f32f: fn(f32, f32) -> f32) -> Option<Const> {
    match args {
        [Const::F64(x), Const::F64(y)] => Some(Const::F64(f64f(*x, *y))),
        [Const::F32(x), Const::F32(y)] => Some(Const::F32(f32f(*x, *y))),
        _ => None,
    }
}

fn f1(args: &[Const], f64f: fn(f64) -> f64, f32f: fn(f32) -> f32) -> Option<Const> {
    match args {
        [Const::F64(x)] => Some(Const::F64(f64f(*x))),
        [Const::F32(x)] => Some(Const::F32(f32f(*x))),
        _ => None,
    }
}

fn fcmp(args: &[Const], f: fn(f64, f64) -> bool) -> Option<Const> {
    match args {
        [Const::F64(x), Const::F64(y)] => Some(Const::Bool(f(*x, *y))),
        [Const::F32(x), Const::F32(y)] => Some(Const::Bool(f(*x as f64, *y as f64))),
        _ => None,
    }
}

/// Julia's `x^n` for a float and an integer: exact products for the small exponents that
/// `literal_pow` and `power_by_squaring` handle exactly, `powf` otherwise.
pub fn powi(x: f64, n: i64) -> f64 {
    match n {
        0 => 1.0,
        1 => x,
        2 => x * x,
        3 => x * x * x,
        -1 => 1.0 / x,
        -2 => {
            let y = 1.0 / x;
            y * y
        }
        _ => x.powf(n as f64),
    }
}

/// The value of `op(args...)` if it is a pure scalar computation that does not throw.
pub fn fold_prim(op: Prim, args: &[Const]) -> Option<Const> {
    use Prim::*;
    let ii = |f: fn(i64, i64) -> i64| match args {
        [Const::Int(x), Const::Int(y)] => Some(Const::Int(f(*x, *y))),
        _ => None,
    };
    let ib = |f: fn(i64, i64) -> bool| match args {
        [Const::Int(x), Const::Int(y)] => Some(Const::Bool(f(*x, *y))),
        _ => None,
    };
    let bb = |f: fn(bool, bool) -> bool| match args {
        [Const::Bool(x), Const::Bool(y)] => Some(Const::Bool(f(*x, *y))),
        _ => None,
    };
    match op {
        AddInt => ii(i64::wrapping_add),
        SubInt => ii(i64::wrapping_sub),
        MulInt => ii(i64::wrapping_mul),
        AndInt => ii(|x, y| x & y),
        OrInt => ii(|x, y| x | y),
        XorInt => ii(|x, y| x ^ y),
        EqInt => ib(|x, y| x == y),
        NeInt => ib(|x, y| x != y),
        SltInt => ib(|x, y| x < y),
        SleInt => ib(|x, y| x <= y),
        SdivInt => match args {
            [Const::Int(x), Const::Int(y)] if *y != 0 && !(*x == i64::MIN && *y == -1) => {
                Some(Const::Int(x / y))
            }
            _ => None,
        },
        SremInt => match args {
            [Const::Int(x), Const::Int(y)] if *y != 0 => Some(Const::Int(x.wrapping_rem(*y))),
            _ => None,
        },
        NegInt => match args {
            [Const::Int(x)] => Some(Const::Int(x.wrapping_neg())),
            _ => None,
        },
        NotInt => match args {
            [Const::Int(x)] => Some(Const::Int(!x)),
            _ => None,
        },
        AddFloat => f2(args, |x, y| x + y, |x, y| x + y),
        SubFloat => f2(args, |x, y| x - y, |x, y| x - y),
        MulFloat => f2(args, |x, y| x * y, |x, y| x * y),
        DivFloat => f2(args, |x, y| x / y, |x, y| x / y),
        RemFloat => f2(args, |x, y| x % y, |x, y| x % y),
        PowFloat => f2(args, f64::powf, f32::powf),
        Atan2 => f2(args, f64::atan2, f32::atan2),
        Hypot => f2(args, f64::hypot, f32::hypot),
        Copysign => f2(args, f64::copysign, f32::copysign),
        PowiFloat => match args {
            [Const::F64(x), Const::Int(n)] => Some(Const::F64(powi(*x, *n))),
            [Const::F32(x), Const::Int(n)] => Some(Const::F32(powi(*x as f64, *n) as f32)),
            _ => None,
        },
        NegFloat => f1(args, |x| -x, |x| -x),
        Sqrt => f1(args, f64::sqrt, f32::sqrt),
        Sin => f1(args, f64::sin, f32::sin),
        Cos => f1(args, f64::cos, f32::cos),
        Tan => f1(args, f64::tan, f32::tan),
        Exp => f1(args, f64::exp, f32::exp),
        Log => f1(args, f64::ln, f32::ln),
        Log1p => f1(args, f64::ln_1p, f32::ln_1p),
        Expm1 => f1(args, f64::exp_m1, f32::exp_m1),
        Tanh => f1(args, f64::tanh, f32::tanh),
        Sinh => f1(args, f64::sinh, f32::sinh),
        Cosh => f1(args, f64::cosh, f32::cosh),
        Asin => f1(args, f64::asin, f32::asin),
        Acos => f1(args, f64::acos, f32::acos),
        Atan => f1(args, f64::atan, f32::atan),
        Exp2 => f1(args, f64::exp2, f32::exp2),
        Log2 => f1(args, f64::log2, f32::log2),
        Log10 => f1(args, f64::log10, f32::log10),
        AbsFloat => f1(args, f64::abs, f32::abs),
        Floor => f1(args, f64::floor, f32::floor),
        Ceil => f1(args, f64::ceil, f32::ceil),
        Round => f1(args, f64::round_ties_even, f32::round_ties_even),
        Trunc => f1(args, f64::trunc, f32::trunc),
        EqFloat => fcmp(args, |x, y| x == y),
        NeFloat => fcmp(args, |x, y| x != y),
        LtFloat => fcmp(args, |x, y| x < y),
        LeFloat => fcmp(args, |x, y| x <= y),
        NotBool => match args {
            [Const::Bool(x)] => Some(Const::Bool(!x)),
            _ => None,
        },
        AndBool => bb(|x, y| x && y),
        OrBool => bb(|x, y| x || y),
        XorBool => bb(|x, y| x ^ y),
        Sitofp => match args {
            [Const::Type(Type::Float64), Const::Int(i)] => Some(Const::F64(*i as f64)),
            [Const::Type(Type::Float32), Const::Int(i)] => Some(Const::F32(*i as f32)),
            _ => None,
        },
        Fpconvert => match args {
            [Const::Type(Type::Float64), Const::F32(x)] => Some(Const::F64(*x as f64)),
            [Const::Type(Type::Float32), Const::F64(x)] => Some(Const::F32(*x as f32)),
            [Const::Type(Type::Float64), Const::F64(x)] => Some(Const::F64(*x)),
            [Const::Type(Type::Float32), Const::F32(x)] => Some(Const::F32(*x)),
            _ => None,
        },
        Fptosi => match args {
            [Const::Type(Type::Int64), c @ (Const::F64(_) | Const::F32(_))] => {
                let x = match c {
                    Const::F64(x) => *x,
                    Const::F32(x) => *x as f64,
                    _ => return None,
                };
                if x.trunc() == x && (-9.223372036854776e18..9.223372036854776e18).contains(&x) {
                    Some(Const::Int(x as i64))
                } else {
                    None
                }
            }
            _ => None,
        },
        BoolToInt => match args {
            [Const::Bool(b)] => Some(Const::Int(*b as i64)),
            _ => None,
        },
        IntToBool => match args {
            [Const::Int(0)] => Some(Const::Bool(false)),
            [Const::Int(1)] => Some(Const::Bool(true)),
            _ => None,
        },
        Egal => match args {
            [a, b] if !matches!(a, Const::Undef) && !matches!(b, Const::Undef) => {
                Some(Const::Bool(a == b))
            }
            _ => None,
        },
        PromoteType => match args {
            [Const::Type(a), Const::Type(b)] => Some(Const::Type(crate::prim::promote_type(a, b))),
            _ => None,
        },
        // Everything else touches memory, allocates, prints, throws, or needs the type
        // environment.
        Isa | Typeof | ApplyType | PromoteEltype | ArrayNew | ArrayRef | ArrayRefRaw | ArraySet
        | ArrayLen | ArraySize | ArrayPush | ArrayPop | ArrayResize | ArrayUnresize | ArrayCopy
        | ArrayReshape | TupleLen | RuleStack | RuleChild | ArrayZeroLike | ArrayAccumulate
        | ArrayAxpy | ArrayAddScalar | AdCheck | TupleGetIndex | ToString | Repr | StringConcat
        | StringLen | Print | Show | ThrowError | ThrowAssert | ThrowArgument | ThrowBounds
        | ThrowDomain | ThrowInexact | ThrowUndefVar | ThrowMethodError | ThrowTypeError
        | ThrowDivide | ThrowValue => None,
    }
}
