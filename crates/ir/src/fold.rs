//! Evaluation of primitives on scalar constants. This is the single definition of scalar
//! arithmetic: the optimiser folds with it and the runtime evaluates scalar primitives with it.
//! It returns `None` when the primitive does not apply to the arguments or would throw.

use crate::function::Const;
use crate::prim::Prim;
use crate::types::Type;

/// Float math primitives as `extern "C"` functions: the single definition used both by the
/// folder (and so the interpreter) and by native code, which calls them, so both backends
/// give bit-identical results.
pub mod cmath {
    use crate::prim::Prim;

    pub type Unary64 = extern "C" fn(f64) -> f64;
    pub type Unary32 = extern "C" fn(f32) -> f32;
    pub type Binary64 = extern "C" fn(f64, f64) -> f64;
    pub type Binary32 = extern "C" fn(f32, f32) -> f32;

    macro_rules! unary {
        ($($op:ident $m:ident |$x:ident| $e:expr;)*) => {
            $(mod $m {
                pub extern "C" fn f64($x: f64) -> f64 { $e }
                pub extern "C" fn f32($x: f32) -> f32 { $e }
            })*
            /// The float unary primitive `op` (Float64 and Float32 versions).
            pub fn unary(op: Prim) -> Option<(Unary64, Unary32)> {
                match op {
                    $(Prim::$op => Some(($m::f64, $m::f32)),)*
                    _ => None,
                }
            }
        };
    }
    macro_rules! binary {
        ($($op:ident $m:ident |$x:ident, $y:ident| $e:expr;)*) => {
            $(mod $m {
                pub extern "C" fn f64($x: f64, $y: f64) -> f64 { $e }
                pub extern "C" fn f32($x: f32, $y: f32) -> f32 { $e }
            })*
            /// The float binary primitive `op` (Float64 and Float32 versions).
            pub fn binary(op: Prim) -> Option<(Binary64, Binary32)> {
                match op {
                    $(Prim::$op => Some(($m::f64, $m::f32)),)*
                    _ => None,
                }
            }
        };
    }
    unary! {
        NegFloat neg_ |x| -x;
        Sqrt sqrt_ |x| x.sqrt();
        Sin sin_ |x| x.sin();
        Cos cos_ |x| x.cos();
        Tan tan_ |x| x.tan();
        Exp exp_ |x| x.exp();
        Log log_ |x| x.ln();
        Log1p log1p_ |x| x.ln_1p();
        Cbrt cbrt_ |x| x.cbrt();
        Expm1 expm1_ |x| x.exp_m1();
        Tanh tanh_ |x| x.tanh();
        Sinh sinh_ |x| x.sinh();
        Cosh cosh_ |x| x.cosh();
        Asin asin_ |x| x.asin();
        Acos acos_ |x| x.acos();
        Atan atan_ |x| x.atan();
        Exp2 exp2_ |x| x.exp2();
        Log2 log2_ |x| x.log2();
        Log10 log10_ |x| x.log10();
        AbsFloat abs_ |x| x.abs();
        Floor floor_ |x| x.floor();
        Ceil ceil_ |x| x.ceil();
        Round round_ |x| x.round_ties_even();
        Trunc trunc_ |x| x.trunc();
        Erf erf_ |x| crate::special::erf(x);
        Erfc erfc_ |x| crate::special::erfc(x);
        Erfinv erfinv_ |x| crate::special::erfinv(x);
        Erfcinv erfcinv_ |x| crate::special::erfcinv(x);
        Gamma gamma_ |x| crate::special::gamma(x);
        Lgamma lgamma_ |x| crate::special::lgamma(x);
        Digamma digamma_ |x| crate::special::digamma(x);
        Trigamma trigamma_ |x| crate::special::trigamma(x);
        BesselJ0 besselj0_ |x| crate::special::besselj0(x);
        BesselJ1 besselj1_ |x| crate::special::besselj1(x);
    }
    binary! {
        AddFloat add_ |x, y| x + y;
        SubFloat sub_ |x, y| x - y;
        MulFloat mul_ |x, y| x * y;
        DivFloat div_ |x, y| x / y;
        RemFloat rem_ |x, y| x % y;
        PowFloat pow_ |x, y| crate::pow::JuliaPow::julia_pow(x, y);
        Atan2 atan2_ |x, y| x.atan2(y);
        Hypot hypot_ |x, y| x.hypot(y);
        Copysign copysign_ |x, y| x.copysign(y);
    }

    /// `x * y + z` rounded once.
    pub extern "C" fn fma64(x: f64, y: f64, z: f64) -> f64 {
        x.mul_add(y, z)
    }
    pub extern "C" fn fma32(x: f32, y: f32, z: f32) -> f32 {
        x.mul_add(y, z)
    }
    /// Julia's `x^n` for a float and an integer (see [`crate::pow`]).
    pub extern "C" fn powi64(x: f64, n: i64) -> f64 {
        crate::pow::powi64(x, n)
    }
    pub extern "C" fn powi32(x: f32, n: i64) -> f32 {
        crate::pow::powi32(x, n)
    }
    /// ψ⁽ᵐ⁾(x) (see [`crate::special::polygamma`]).
    pub extern "C" fn polygamma64(m: i64, x: f64) -> f64 {
        crate::special::polygamma(m, x)
    }
    pub extern "C" fn polygamma32(m: i64, x: f32) -> f32 {
        crate::special::polygamma(m, x)
    }
}

fn f2(args: &[Const], f64f: cmath::Binary64, f32f: cmath::Binary32) -> Option<Const> {
    match args {
        [Const::F64(x), Const::F64(y)] => Some(Const::F64(f64f(*x, *y))),
        [Const::F32(x), Const::F32(y)] => Some(Const::F32(f32f(*x, *y))),
        _ => None,
    }
}

fn f1(args: &[Const], f64f: cmath::Unary64, f32f: cmath::Unary32) -> Option<Const> {
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
        ShlInt => ii(|x, n| x.wrapping_shl((n & 63) as u32)),
        AshrInt => ii(|x, n| x.wrapping_shr((n & 63) as u32)),
        LshrInt => ii(|x, n| ((x as u64).wrapping_shr((n & 63) as u32)) as i64),
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
        AddFloat | SubFloat | MulFloat | DivFloat | RemFloat | PowFloat | Atan2 | Hypot
        | Copysign => cmath::binary(op).and_then(|(a, b)| f2(args, a, b)),
        PowiFloat => match args {
            [Const::F64(x), Const::Int(n)] => Some(Const::F64(cmath::powi64(*x, *n))),
            [Const::F32(x), Const::Int(n)] => Some(Const::F32(cmath::powi32(*x, *n))),
            _ => None,
        },
        Polygamma => match args {
            [Const::Int(m), Const::F64(x)] => Some(Const::F64(cmath::polygamma64(*m, *x))),
            [Const::Int(m), Const::F32(x)] => Some(Const::F32(cmath::polygamma32(*m, *x))),
            _ => None,
        },
        NegFloat | Sqrt | Sin | Cos | Tan | Exp | Log | Log1p | Cbrt | Expm1 | Tanh | Sinh
        | Cosh | Asin | Acos | Atan | Exp2 | Log2 | Log10 | AbsFloat | Floor | Ceil | Round
        | Trunc | Erf | Erfc | Erfinv | Erfcinv | Gamma | Lgamma | Digamma | Trigamma
        | BesselJ0 | BesselJ1 => cmath::unary(op).and_then(|(a, b)| f1(args, a, b)),
        Fma => match args {
            [Const::F64(x), Const::F64(y), Const::F64(z)] => {
                Some(Const::F64(cmath::fma64(*x, *y, *z)))
            }
            [Const::F32(x), Const::F32(y), Const::F32(z)] => {
                Some(Const::F32(cmath::fma32(*x, *y, *z)))
            }
            _ => None,
        },
        SelectFloat => match args {
            [Const::Bool(c), x @ (Const::F64(_) | Const::F32(_)), y] if x.ty() == y.ty() => {
                Some(if *c { x.clone() } else { y.clone() })
            }
            _ => None,
        },
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
        Bitcast => match args {
            [Const::Type(Type::Int64), Const::F64(x)] => Some(Const::Int(x.to_bits() as i64)),
            [Const::Type(Type::Float64), Const::Int(i)] => {
                Some(Const::F64(f64::from_bits(*i as u64)))
            }
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
        Isa | Typeof | ApplyType | PromoteEltype | VcatType | CatEltype | SubarrayType
        | PromoteTypejoin | TangentTypeOf | FdataTypeOf | RdataTypeOf | ArrayNew | ArrayRef
        | ArrayRefRaw | GetFieldRaw | ArraySet | ArrayLen | ArraySize | SameMemory | ArrayPush
        | ArrayPop | ArrayResize | ArrayUnresize | ArrayCopy | ArrayReshape | TupleLen
        | RuleStack | RuleChild | ArrayZeroLike | ArrayAccumulate | ArrayAxpy | ArrayAddScalar
        | ArrayMulAdd | ArrayMatmul | ArrayGemmAdd | ArrayTrsolve | ArrayCholesky
        | ArrayTricopy | ArrayLu | ArrayRowswap | AdCheck | TangentCheck | TupleGetIndex
        | ToString | Repr | StringConcat | StringToSymbol | StringHash | ObjectId | FieldNames
        | FieldTypes | FieldDefined | StringLen | StringCmp | StringBytes | StringFind
        | StringCase | StringChar | StringIndex | StringSlice | CharProperty | StringReplace
        | StringParse | IsSubtype | Sprintf | Print | Show | ThrowError | ThrowAssert
        | ThrowArgument | ThrowBounds | ThrowDomain | ThrowInexact | ThrowUndefVar
        | ThrowMethodError | ThrowTypeError | ThrowDivide | ThrowValue | RdataAdd
        | RdataConvert | RdataAddAt | TangentFdata | TangentRdata | TangentAddRdata | TangentOf
        | FieldFdata | GlobalFdata | FieldCotangent | DynFwd | DynRvs | ZeroTangent
        | TangentField | GlobalTangent | DualCall | DualApply | GradApply | VjpApply | JvpApply
        | TestRuleApply | ThreadsFwd | ThreadsRvs | ThreadsDual | ThreadsRun | ChunkRange
        | NThreads | ThreadId | InThreadedLoop | TaskRng | ChunkEnter | ChunkLeave | TryCatch
        | TryFinally | Rethrow | ErrorMessage | PrintStderr | NoteWrite => None,
    }
}
