//! Native implementations of the primitives, and Julia's exceptions.

use crate::show::{array_summary, print_string, show_string};
use crate::value::{egal, ArrayObj, Value};
use ir::{Prim, Type, TypeEnv};
use std::fmt;
use std::sync::Arc;

/// An exception as Julia raises it.
#[derive(Clone, Debug)]
pub enum Exception {
    /// `BoundsError: attempt to access {what} at index [{index}]`
    Bounds { what: String, index: String },
    /// `MethodError: no method matching f(::T1, ::T2)`
    Method { func: String, args: Vec<Type>, candidates: Vec<String> },
    Divide,
    Assertion(String),
    /// `error("...")`
    Error(String),
    UndefVar(String),
    UndefRef,
    /// The text after `TypeError: `.
    Type(String),
    Inexact { target: String, value: String },
    Argument(String),
    Domain { value: String, msg: String },
    StackOverflow,
    /// `throw(x)` of a value.
    Thrown(Value),
}

impl fmt::Display for Exception {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Exception::Bounds { what, index } => {
                write!(f, "BoundsError: attempt to access {what} at index [{index}]")
            }
            Exception::Method { func, args, candidates } => {
                let a: Vec<String> = args.iter().map(|t| format!("::{t}")).collect();
                write!(f, "MethodError: no method matching {func}({})", a.join(", "))?;
                if !candidates.is_empty() {
                    write!(
                        f,
                        "\nThe function `{func}` exists, but no method is defined for this combination of argument types."
                    )?;
                    write!(f, "\n\nClosest candidates are:")?;
                    for c in candidates {
                        write!(f, "\n  {c}")?;
                    }
                }
                Ok(())
            }
            Exception::Divide => write!(f, "DivideError: integer division error"),
            Exception::Assertion(m) => write!(f, "AssertionError: {m}"),
            Exception::Error(m) => write!(f, "{m}"),
            Exception::UndefVar(m) => write!(f, "UndefVarError: {m}"),
            Exception::UndefRef => write!(f, "UndefRefError: access to undefined reference"),
            Exception::Type(m) => write!(f, "TypeError: {m}"),
            Exception::Inexact { target, value } => write!(f, "InexactError: {target}({value})"),
            Exception::Argument(m) => write!(f, "ArgumentError: {m}"),
            Exception::Domain { value, msg } => write!(f, "DomainError with {value}:\n{msg}"),
            Exception::StackOverflow => write!(f, "StackOverflowError: the call stack is too deep"),
            Exception::Thrown(v) => write!(f, "{}", show_string(v)),
        }
    }
}

impl Exception {
    /// The exception's type name, as `typeof(err)` would print it.
    pub fn type_name(&self) -> &'static str {
        match self {
            Exception::Bounds { .. } => "BoundsError",
            Exception::Method { .. } => "MethodError",
            Exception::Divide => "DivideError",
            Exception::Assertion(_) => "AssertionError",
            Exception::Error(_) => "ErrorException",
            Exception::UndefVar(_) => "UndefVarError",
            Exception::UndefRef => "UndefRefError",
            Exception::Type(_) => "TypeError",
            Exception::Inexact { .. } => "InexactError",
            Exception::Argument(_) => "ArgumentError",
            Exception::Domain { .. } => "DomainError",
            Exception::StackOverflow => "StackOverflowError",
            Exception::Thrown(_) => "Exception",
        }
    }
}

type R = Result<Value, Exception>;

fn bad(op: Prim, args: &[Value]) -> Exception {
    let ts: Vec<String> = args.iter().map(|a| a.ty().to_string()).collect();
    Exception::Error(format!(
        "internal error: primitive `{}` applied to ({})",
        op.name(),
        ts.join(", ")
    ))
}

fn f64_1(args: &[Value], f64f: fn(f64) -> f64, f32f: fn(f32) -> f32) -> Option<Value> {
    match args {
        [Value::F64(x)] => Some(Value::F64(f64f(*x))),
        [Value::F32(x)] => Some(Value::F32(f32f(*x))),
        _ => None,
    }
}

fn f64_2(args: &[Value], f64f: fn(f64, f64) -> f64, f32f: fn(f32, f32) -> f32) -> Option<Value> {
    match args {
        [Value::F64(x), Value::F64(y)] => Some(Value::F64(f64f(*x, *y))),
        [Value::F32(x), Value::F32(y)] => Some(Value::F32(f32f(*x, *y))),
        _ => None,
    }
}

fn cmp_f(args: &[Value], f: fn(f64, f64) -> bool) -> Option<Value> {
    match args {
        [Value::F64(x), Value::F64(y)] => Some(Value::Bool(f(*x, *y))),
        [Value::F32(x), Value::F32(y)] => Some(Value::Bool(f(*x as f64, *y as f64))),
        _ => None,
    }
}

/// Julia's `rem` for floats (sign of the dividend), as fmod.
fn frem(x: f64, y: f64) -> f64 {
    x % y
}

/// Julia's `x^n` for a float and an integer: exact repeated squaring for small exponents,
/// like Julia's `power_by_squaring` for `n` in a small range, `powf` otherwise.
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

fn index_string(idx: &[i64]) -> String {
    let s: Vec<String> = idx.iter().map(|i| i.to_string()).collect();
    s.join(", ")
}

/// Linear index (0-based) of 1-based indices into an array of `dims`, or a bounds error.
pub fn linear_index(a: &ArrayObj, dims: &[usize], idx: &[i64]) -> Result<usize, Exception> {
    let err = || Exception::Bounds {
        what: array_summary(dims, &a.ty()),
        index: index_string(idx),
    };
    if idx.len() == 1 {
        let n: usize = dims.iter().product();
        let i = idx[0];
        if i < 1 || i as usize > n {
            return Err(err());
        }
        return Ok(i as usize - 1);
    }
    // Trailing indices beyond the dimensions must be 1; missing ones count as 1.
    let mut lin = 0usize;
    let mut stride = 1usize;
    for (k, &i) in idx.iter().enumerate() {
        let d = dims.get(k).copied().unwrap_or(1);
        if i < 1 || i as usize > d {
            return Err(err());
        }
        lin += (i as usize - 1) * stride;
        stride *= d;
    }
    if idx.len() < dims.len() {
        // Fewer indices than dimensions: the rest must have extent 1 (else bounds error).
        if dims[idx.len()..].iter().any(|&d| d != 1) {
            return Err(err());
        }
    }
    Ok(lin)
}

fn ints(args: &[Value], op: Prim) -> Result<Vec<i64>, Exception> {
    args.iter().map(|a| a.as_int().ok_or_else(|| bad(op, args))).collect()
}

/// Converts `v` to the element type of an array for storing (values already of that type).
fn fits(elem: &Type, v: &Value) -> bool {
    matches!(
        (elem, v),
        (Type::Float64, Value::F64(_))
            | (Type::Float32, Value::F32(_))
            | (Type::Int64, Value::Int(_))
            | (Type::Bool, Value::Bool(_))
    ) || !matches!(elem, Type::Float64 | Type::Float32 | Type::Int64 | Type::Bool)
}

/// Evaluates a primitive. `out` receives printed text. `env` answers type questions.
pub fn eval_prim(op: Prim, args: &[Value], env: &TypeEnv, out: &mut dyn std::io::Write) -> R {
    use Prim::*;
    let b = || bad(op, args);
    match op {
        AddInt | SubInt | MulInt | AndInt | OrInt | XorInt | EqInt | NeInt | SltInt | SleInt => {
            let [Value::Int(x), Value::Int(y)] = args else { return Err(b()) };
            let (x, y) = (*x, *y);
            Ok(match op {
                AddInt => Value::Int(x.wrapping_add(y)),
                SubInt => Value::Int(x.wrapping_sub(y)),
                MulInt => Value::Int(x.wrapping_mul(y)),
                AndInt => Value::Int(x & y),
                OrInt => Value::Int(x | y),
                XorInt => Value::Int(x ^ y),
                EqInt => Value::Bool(x == y),
                NeInt => Value::Bool(x != y),
                SltInt => Value::Bool(x < y),
                _ => Value::Bool(x <= y),
            })
        }
        SdivInt | SremInt => {
            let [Value::Int(x), Value::Int(y)] = args else { return Err(b()) };
            if *y == 0 || (*x == i64::MIN && *y == -1 && op == SdivInt) {
                return Err(Exception::Divide);
            }
            Ok(Value::Int(if op == SdivInt { x.wrapping_div(*y) } else { x.wrapping_rem(*y) }))
        }
        NegInt => match args {
            [Value::Int(x)] => Ok(Value::Int(x.wrapping_neg())),
            _ => Err(b()),
        },
        NotInt => match args {
            [Value::Int(x)] => Ok(Value::Int(!x)),
            _ => Err(b()),
        },
        AddFloat => f64_2(args, |x, y| x + y, |x, y| x + y).ok_or_else(b),
        SubFloat => f64_2(args, |x, y| x - y, |x, y| x - y).ok_or_else(b),
        MulFloat => f64_2(args, |x, y| x * y, |x, y| x * y).ok_or_else(b),
        DivFloat => f64_2(args, |x, y| x / y, |x, y| x / y).ok_or_else(b),
        RemFloat => f64_2(args, frem, |x, y| x % y).ok_or_else(b),
        PowFloat => f64_2(args, f64::powf, f32::powf).ok_or_else(b),
        Atan2 => f64_2(args, f64::atan2, f32::atan2).ok_or_else(b),
        Hypot => f64_2(args, f64::hypot, f32::hypot).ok_or_else(b),
        Copysign => f64_2(args, f64::copysign, f32::copysign).ok_or_else(b),
        PowiFloat => match args {
            [Value::F64(x), Value::Int(n)] => Ok(Value::F64(powi(*x, *n))),
            [Value::F32(x), Value::Int(n)] => Ok(Value::F32(powi(*x as f64, *n) as f32)),
            _ => Err(b()),
        },
        NegFloat => f64_1(args, |x| -x, |x| -x).ok_or_else(b),
        Sqrt => f64_1(args, f64::sqrt, f32::sqrt).ok_or_else(b),
        Sin => f64_1(args, f64::sin, f32::sin).ok_or_else(b),
        Cos => f64_1(args, f64::cos, f32::cos).ok_or_else(b),
        Tan => f64_1(args, f64::tan, f32::tan).ok_or_else(b),
        Exp => f64_1(args, f64::exp, f32::exp).ok_or_else(b),
        Log => f64_1(args, f64::ln, f32::ln).ok_or_else(b),
        Log1p => f64_1(args, f64::ln_1p, f32::ln_1p).ok_or_else(b),
        Expm1 => f64_1(args, f64::exp_m1, f32::exp_m1).ok_or_else(b),
        Tanh => f64_1(args, f64::tanh, f32::tanh).ok_or_else(b),
        Sinh => f64_1(args, f64::sinh, f32::sinh).ok_or_else(b),
        Cosh => f64_1(args, f64::cosh, f32::cosh).ok_or_else(b),
        Asin => f64_1(args, f64::asin, f32::asin).ok_or_else(b),
        Acos => f64_1(args, f64::acos, f32::acos).ok_or_else(b),
        Atan => f64_1(args, f64::atan, f32::atan).ok_or_else(b),
        Exp2 => f64_1(args, f64::exp2, f32::exp2).ok_or_else(b),
        Log2 => f64_1(args, f64::log2, f32::log2).ok_or_else(b),
        Log10 => f64_1(args, f64::log10, f32::log10).ok_or_else(b),
        AbsFloat => f64_1(args, f64::abs, f32::abs).ok_or_else(b),
        Floor => f64_1(args, f64::floor, f32::floor).ok_or_else(b),
        Ceil => f64_1(args, f64::ceil, f32::ceil).ok_or_else(b),
        Round => f64_1(args, f64::round_ties_even, f32::round_ties_even).ok_or_else(b),
        Trunc => f64_1(args, f64::trunc, f32::trunc).ok_or_else(b),
        EqFloat => cmp_f(args, |x, y| x == y).ok_or_else(b),
        NeFloat => cmp_f(args, |x, y| x != y).ok_or_else(b),
        LtFloat => cmp_f(args, |x, y| x < y).ok_or_else(b),
        LeFloat => cmp_f(args, |x, y| x <= y).ok_or_else(b),
        NotBool => match args {
            [Value::Bool(x)] => Ok(Value::Bool(!x)),
            _ => Err(b()),
        },
        AndBool | OrBool | XorBool => match args {
            [Value::Bool(x), Value::Bool(y)] => Ok(Value::Bool(match op {
                AndBool => *x && *y,
                OrBool => *x || *y,
                _ => x ^ y,
            })),
            _ => Err(b()),
        },
        Sitofp => match args {
            [Value::Type(Type::Float64), Value::Int(i)] => Ok(Value::F64(*i as f64)),
            [Value::Type(Type::Float32), Value::Int(i)] => Ok(Value::F32(*i as f32)),
            _ => Err(b()),
        },
        Fptosi => {
            let x = match args {
                [Value::Type(Type::Int64), Value::F64(x)] => *x,
                [Value::Type(Type::Int64), Value::F32(x)] => *x as f64,
                _ => return Err(b()),
            };
            if x.trunc() == x && x >= -9.223372036854776e18 && x < 9.223372036854776e18 {
                Ok(Value::Int(x as i64))
            } else {
                Err(Exception::Inexact {
                    target: "Int64".into(),
                    value: print_string(&args[1]),
                })
            }
        }
        Fpconvert => match args {
            [Value::Type(Type::Float64), Value::F32(x)] => Ok(Value::F64(*x as f64)),
            [Value::Type(Type::Float32), Value::F64(x)] => Ok(Value::F32(*x as f32)),
            [Value::Type(Type::Float64), Value::F64(x)] => Ok(Value::F64(*x)),
            [Value::Type(Type::Float32), Value::F32(x)] => Ok(Value::F32(*x)),
            _ => Err(b()),
        },
        BoolToInt => match args {
            [Value::Bool(x)] => Ok(Value::Int(*x as i64)),
            _ => Err(b()),
        },
        IntToBool => match args {
            [Value::Int(0)] => Ok(Value::Bool(false)),
            [Value::Int(1)] => Ok(Value::Bool(true)),
            [Value::Int(i)] => Err(Exception::Inexact { target: "Bool".into(), value: i.to_string() }),
            _ => Err(b()),
        },
        Egal => match args {
            [x, y] => Ok(Value::Bool(egal(x, y))),
            _ => Err(b()),
        },
        Isa => match args {
            [x, Value::Type(t)] => Ok(Value::Bool(env.subtype(&x.ty(), t))),
            _ => Err(b()),
        },
        Typeof => match args {
            [x] => Ok(Value::Type(x.ty())),
            _ => Err(b()),
        },
        PromoteType => match args {
            [Value::Type(x), Value::Type(y)] => Ok(Value::Type(ir::prim::promote_type(x, y))),
            _ => Err(b()),
        },
        PromoteEltype => match args {
            [x @ Value::Tuple(_)] => match x.ty() {
                Type::Tuple(ts) => Ok(Value::Type(ir::prim::promote_eltype(&ts))),
                _ => Err(b()),
            },
            _ => Err(b()),
        },
        ApplyType => {
            let [Value::Type(base), rest @ ..] = args else { return Err(b()) };
            let mut ps = Vec::new();
            for r in rest {
                match r {
                    Value::Type(t) => ps.push(t.clone()),
                    other => {
                        return Err(Exception::Type(format!(
                            "in Type{{...}} expression, expected a type, got a value of type {}",
                            other.ty()
                        )))
                    }
                }
            }
            ir::prim::apply_type(base, ps, env)
                .map(Value::Type)
                .map_err(|m| Exception::Type(m))
        }
        ArrayNew => {
            let [Value::Type(Type::Array(elem, _)), dims @ ..] = args else { return Err(b()) };
            let ds = ints(dims, op)?;
            if let Some(d) = ds.iter().find(|d| **d < 0) {
                return Err(Exception::Argument(format!(
                    "invalid Array dimensions: negative dimension {d}"
                )));
            }
            let dims: Vec<usize> = ds.iter().map(|d| *d as usize).collect();
            Ok(Value::Array(Arc::new(ArrayObj::zeros((**elem).clone(), dims))))
        }
        ArrayRef => {
            let [Value::Array(a), idx @ ..] = args else { return Err(b()) };
            let idx = ints(idx, op)?;
            let dims = a.dims();
            let li = linear_index(a, &dims, &idx)?;
            match a.get(li) {
                Some(Value::Undef) => Err(Exception::UndefRef),
                Some(v) => Ok(v),
                None => Err(b()),
            }
        }
        ArraySet => {
            let [Value::Array(a), v, idx @ ..] = args else { return Err(b()) };
            let idx = ints(idx, op)?;
            let dims = a.dims();
            let li = linear_index(a, &dims, &idx)?;
            if !fits(&a.elem, v) || !a.set(li, v.clone()) {
                return Err(b());
            }
            Ok(args[0].clone())
        }
        ArrayLen => match args {
            [Value::Array(a)] => Ok(Value::Int(a.len() as i64)),
            _ => Err(b()),
        },
        ArraySize => match args {
            [Value::Array(a), Value::Int(d)] => {
                if *d < 1 {
                    return Err(Exception::Argument("dimension out of range".into()));
                }
                let dims = a.dims();
                Ok(Value::Int(dims.get(*d as usize - 1).copied().unwrap_or(1) as i64))
            }
            _ => Err(b()),
        },
        ArrayPush => match args {
            [Value::Array(a), v] => {
                if a.ndims() != 1 || !fits(&a.elem, v) {
                    return Err(b());
                }
                a.with_mut(|inner| {
                    inner.data.push(v.clone());
                    inner.dims[0] += 1;
                });
                Ok(args[0].clone())
            }
            _ => Err(b()),
        },
        ArrayPop => match args {
            [Value::Array(a)] => {
                let r = a.with_mut(|inner| {
                    let v = inner.data.pop()?;
                    inner.dims[0] -= 1;
                    Some(v)
                });
                r.ok_or_else(|| Exception::Argument("array must be non-empty".into()))
            }
            _ => Err(b()),
        },
        ArrayResize => match args {
            [Value::Array(a), Value::Int(n)] => {
                if *n < 0 {
                    return Err(Exception::Argument(format!("new length must be ≥ 0")));
                }
                a.with_mut(|inner| {
                    inner.data.resize(*n as usize);
                    inner.dims[0] = *n as usize;
                });
                Ok(args[0].clone())
            }
            _ => Err(b()),
        },
        ArrayCopy => match args {
            [Value::Array(a)] => Ok(Value::Array(Arc::new(a.deep_copy()))),
            _ => Err(b()),
        },
        ArrayReshape => {
            let [Value::Array(a), dims @ ..] = args else { return Err(b()) };
            let ds = ints(dims, op)?;
            let n: i64 = ds.iter().product();
            if ds.iter().any(|d| *d < 0) || n as usize != a.len() {
                let dstr: Vec<String> = ds.iter().map(|d| d.to_string()).collect();
                return Err(Exception::Argument(format!(
                    "DimensionMismatch: new dimensions ({}) must be consistent with array length {}",
                    dstr.join(", "),
                    a.len()
                )));
            }
            let copy = a.deep_copy();
            copy.with_mut(|inner| inner.dims = ds.iter().map(|d| *d as usize).collect());
            Ok(Value::Array(Arc::new(copy)))
        }
        TupleLen => match args {
            [Value::Tuple(t)] => Ok(Value::Int(t.len() as i64)),
            [Value::NamedTuple(t)] => Ok(Value::Int(t.values.len() as i64)),
            _ => Err(b()),
        },
        TupleGetIndex => match args {
            [t @ (Value::Tuple(_) | Value::NamedTuple(_)), Value::Int(i)] => {
                let n = match t {
                    Value::Tuple(v) => v.len(),
                    Value::NamedTuple(nt) => nt.values.len(),
                    _ => 0,
                };
                if *i < 1 || *i as usize > n {
                    return Err(Exception::Bounds { what: show_string(t), index: i.to_string() });
                }
                t.field(*i as usize - 1).ok_or_else(b)
            }
            _ => Err(b()),
        },
        ToString => match args {
            [x] => Ok(Value::str(&print_string(x))),
            _ => Err(b()),
        },
        Repr => match args {
            [x] => Ok(Value::str(&show_string(x))),
            _ => Err(b()),
        },
        StringConcat => match args {
            [Value::Str(a), Value::Str(c)] => {
                let mut s = String::with_capacity(a.len() + c.len());
                s.push_str(a);
                s.push_str(c);
                Ok(Value::str(&s))
            }
            _ => Err(b()),
        },
        StringLen => match args {
            [Value::Str(s)] => Ok(Value::Int(s.chars().count() as i64)),
            _ => Err(b()),
        },
        Print | Show => match args {
            [x] => {
                let s = if op == Print { print_string(x) } else { show_string(x) };
                let _ = out.write_all(s.as_bytes());
                Ok(Value::Nothing)
            }
            _ => Err(b()),
        },
        ThrowError => Err(Exception::Error(args.first().map(print_string).unwrap_or_default())),
        ThrowAssert => Err(Exception::Assertion(args.first().map(print_string).unwrap_or_default())),
        ThrowArgument => Err(Exception::Argument(args.first().map(print_string).unwrap_or_default())),
        ThrowUndefVar => Err(Exception::UndefVar(format!(
            "`{}` not defined in local scope",
            args.first().map(print_string).unwrap_or_default()
        ))),
        ThrowDivide => Err(Exception::Divide),
        ThrowBounds => match args {
            [x, idx] => {
                let what = match x {
                    Value::Array(a) => array_summary(&a.dims(), &a.ty()),
                    Value::Struct(s) if matches!(&s.ty, Type::Struct(n, _) if n.as_str() == "UnitRange") => {
                        let n = match (s.fields.first(), s.fields.get(1)) {
                            (Some(Value::Int(a)), Some(Value::Int(c))) => (c - a + 1).max(0),
                            _ => 0,
                        };
                        format!("{n}-element {}", s.ty)
                    }
                    Value::Struct(s) if matches!(&s.ty, Type::Struct(n, _) if n.as_str() == "OneTo") => {
                        format!("{}-element Base.OneTo{{Int64}}", s.fields.first().map(show_string).unwrap_or_default())
                    }
                    v => show_string(v),
                };
                let index = match idx {
                    Value::Tuple(vs) => vs.iter().map(show_string).collect::<Vec<_>>().join(", "),
                    v => show_string(v),
                };
                Err(Exception::Bounds { what, index })
            }
            _ => Err(b()),
        },
        ThrowDomain => match args {
            [x, msg] => Err(Exception::Domain { value: show_string(x), msg: print_string(msg) }),
            _ => Err(b()),
        },
        ThrowInexact => match args {
            [Value::Type(t), x] => Err(Exception::Inexact { target: t.to_string(), value: show_string(x) }),
            _ => Err(b()),
        },
        ThrowTypeError => match args {
            [Value::Type(t), x] => Err(Exception::Type(format!(
                "in typeassert, expected {t}, got a value of type {}",
                x.ty()
            ))),
            _ => Err(b()),
        },
        ThrowValue => match args {
            [x] => Err(exception_of_value(x)),
            _ => Err(b()),
        },
        ThrowMethodError => {
            let func = match args.first() {
                Some(Value::Func(f)) => f.to_string(),
                Some(Value::Type(t)) => t.to_string(),
                Some(v) => format!("(::{})", v.ty()),
                None => "?".into(),
            };
            Err(Exception::Method {
                func,
                args: args.iter().skip(1).map(|a| a.ty()).collect(),
                candidates: vec![],
            })
        }
    }
}

/// `throw(x)`: prelude exception structs map to the built-in exceptions.
pub fn exception_of_value(x: &Value) -> Exception {
    if let Value::Struct(s) = x {
        if let Type::Struct(n, _) = &s.ty {
            let msg = s.fields.first().map(print_string).unwrap_or_default();
            match n.as_str() {
                "ErrorException" => return Exception::Error(msg),
                "ArgumentError" => return Exception::Argument(msg),
                "AssertionError" => return Exception::Assertion(msg),
                "DomainError" => {
                    return Exception::Domain {
                        value: s.fields.first().map(show_string).unwrap_or_default(),
                        msg: s.fields.get(1).map(print_string).unwrap_or_default(),
                    }
                }
                "DivideError" => return Exception::Divide,
                _ => {}
            }
        }
    }
    Exception::Thrown(x.clone())
}
