//! Julia's exceptions: what the runtime raises (`Exception`, printed as Julia prints it), and
//! the exception values a `catch` block receives and `throw` takes, converted both ways.

use crate::show::{array_summary, print_string, show_string};
use crate::value::Value;
use ir::Type;
use std::fmt;
/// An exception as Julia raises it.
#[derive(Clone, Debug)]
pub enum Exception {
    /// `BoundsError: attempt to access {summary of a} at index [{i}]` (Julia's
    /// `BoundsError(a, i)`; `i` a tuple of indices, or one index).
    Bounds {
        a: Value,
        i: Value,
    },
    /// `MethodError: no method matching f(::T1, ::T2)`
    Method {
        /// The callee as the message's first line shows it: `f`, `Point{Float64}`,
        /// `(::Scale)`.
        func: Box<str>,
        callee: Callee,
        args: Vec<Type>,
        candidates: Vec<String>,
        /// The function and the arguments (Julia's `MethodError(f, args)`).
        values: Option<Box<(Value, Vec<Value>)>>,
    },
    Divide,
    Assertion(String),
    /// `error("...")`
    Error(String),
    /// ``UndefVarError: `name` not defined in `Main` `` (or `in local scope` when `local`).
    UndefVar {
        name: String,
        local: bool,
    },
    UndefRef,
    /// Julia's `TypeError(func, context, expected, got)`: `got` is not of type `expected` in
    /// `func` (`typeassert`, `new`, ...), or a non-`Bool` condition when `expected` is `Bool`.
    Type {
        func: Box<str>,
        context: Box<str>,
        expected: Box<Type>,
        got: Value,
    },
    /// A `TypeError` of a malformed type application (`Vector{Int, 2}`): the text after
    /// `TypeError: `.
    TypeText(String),
    /// Julia's `InexactError(func, T, val)`: `val` cannot be exactly a `T`.
    Inexact {
        func: String,
        target: Type,
        value: Value,
    },
    Argument(String),
    /// `StringIndexError`: byte index `index` of string `s` is inside a character.
    StringIndex {
        s: Value,
        index: i64,
    },
    /// `DimensionMismatch`: shapes that do not fit (broadcasting).
    DimensionMismatch(String),
    /// `OverflowError`: a result too large for its integer type (`factorial(21)`).
    Overflow(String),
    Domain {
        value: Value,
        msg: String,
    },
    StackOverflow,
    /// The array memory budget is spent, or the system has no memory to give.
    OutOfMemory,
    /// `throw(x)` of a value.
    Thrown(Value),
    /// A thrown value whose type has the program's own `showerror` method, with the text it
    /// writes (what an uncaught error reports).
    Shown {
        value: Value,
        text: String,
    },
    /// Iterations of a threaded loop failed: the first failed chunk's error and how many
    /// other chunks failed (Julia's `CompositeException` of `TaskFailedException`s, which
    /// prints as the first).
    TaskFailed {
        first: Box<Exception>,
        more: usize,
    },
    /// A broken invariant of mooncake itself (a bug, not the program's error).
    Internal(String),
}

/// What was called without a matching method, for the sentence Julia adds after the first
/// line of a `MethodError`.
#[derive(Clone, Debug, PartialEq)]
pub enum Callee {
    /// A generic function or closure, named as `print` shows it.
    Function(String),
    /// A type (its constructors).
    Type,
    /// Another callable object (a value whose type has call methods).
    Object,
}

impl Callee {
    /// The kind of `f`, and the callee text of the message's first line.
    pub fn of(f: &Value) -> (Callee, String) {
        match f {
            Value::Func(n) => {
                let name = ir::types::function_name(*n).to_string();
                (Callee::Function(name.clone()), name)
            }
            Value::Type(t) => (Callee::Type, t.to_string()),
            v => {
                let t = v.ty();
                let kind = match &t {
                    // A closure: `print` shows a function by its name alone.
                    Type::Struct(n, _) if ir::types::is_closure_name(*n) => {
                        Callee::Function(n.to_string())
                    }
                    _ => Callee::Object,
                };
                (kind, format!("(::{t})"))
            }
        }
    }
}

/// Julia's `MethodError` for calling `f` with arguments `args`.
pub fn method_error(f: &Value, args: &[Value], candidates: Vec<String>) -> Exception {
    let (callee, func) = Callee::of(f);
    Exception::Method {
        func: func.into(),
        callee,
        args: args.iter().map(|a| a.ty()).collect(),
        candidates,
        values: Some(Box::new((f.clone(), args.to_vec()))),
    }
}

/// What a `BoundsError` message shows: Julia's `summary` of the object and its indices.
fn bounds_parts(a: &Value, i: &Value) -> (String, String) {
    let what = match a {
        Value::Array(a) => array_summary(&a.dims(), &a.ty()),
        // Julia's `summary` of a string is its size.
        Value::Str(t) => format!("{}-codeunit String", t.len()),
        v @ Value::Struct(_) if crate::show::view_summary(v).is_some() => {
            crate::show::view_summary(v).unwrap_or_default()
        }
        Value::Struct(s) if matches!(&s.ty, Type::Struct(n, _) if n.as_str() == "UnitRange") => {
            let n = match (s.fields.first(), s.fields.get(1)) {
                (Some(Value::Int(a)), Some(Value::Int(c))) => (c - a + 1).max(0),
                _ => 0,
            };
            format!("{n}-element {}", s.ty)
        }
        Value::Struct(s) if matches!(&s.ty, Type::Struct(n, _) if n.as_str() == "OneTo") => {
            format!(
                "{}-element Base.OneTo{{Int64}}",
                s.fields.first().map(show_string).unwrap_or_default()
            )
        }
        // Julia's `summary` of any other value is its type.
        v => v.ty().to_string(),
    };
    // As Julia's `show_index`: a colon prints as `:`.
    let show_index = |v: &Value| match v {
        Value::Struct(s) if matches!(&s.ty, Type::Struct(n, _) if n.as_str() == "Colon") => {
            ":".to_string()
        }
        v => show_string(v),
    };
    let index = match i {
        Value::Tuple(vs) => vs.iter().map(show_index).collect::<Vec<_>>().join(", "),
        v => show_index(v),
    };
    (what, index)
}

/// The text of a `StringIndexError` for byte `i` of `s` (inside a character): Julia names the
/// valid indices around it, the start of the character holding byte `i` and of the next one.
fn string_index_message(s: &str, i: i64) -> String {
    let at = ((i - 1).max(0) as usize).min(s.len());
    let prev = (0..=at).rev().find(|&k| s.is_char_boundary(k)).unwrap_or(0);
    let c = s[prev..].chars().next().unwrap_or('\0');
    let next = prev + c.len_utf8();
    let show = |c: char| {
        let mut t = String::new();
        crate::show::push_escaped(&mut t, c, &[]);
        t
    };
    let mut m = format!("invalid index [{i}]");
    match s.get(next..).and_then(|r| r.chars().next()) {
        Some(d) => m.push_str(&format!(
            ", valid nearby indices [{}]=>'{}', [{}]=>'{}'",
            prev + 1,
            show(c),
            next + 1,
            show(d)
        )),
        None => m.push_str(&format!(
            ", valid nearby index [{}]=>'{}'",
            prev + 1,
            show(c)
        )),
    }
    m
}

impl fmt::Display for Exception {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Exception::Bounds { a, i } => {
                let (what, index) = bounds_parts(a, i);
                write!(
                    f,
                    "BoundsError: attempt to access {what} at index [{index}]"
                )
            }
            Exception::Method {
                func,
                callee,
                args,
                candidates,
                ..
            } => {
                if &**func == "#kwcall" {
                    if let Some(m) = ir::types::kwcall_signature(args) {
                        return write!(
                            f,
                            "{m}\nThis method does not support all of the given keyword arguments (and may not support any)."
                        );
                    }
                }
                // A value of a type with no call methods: `(x + 1)(x - 1)`.
                if let Some(ty) = func.strip_prefix("(::").and_then(|f| f.strip_suffix(')')) {
                    if candidates.is_empty() {
                        write!(f, "MethodError: objects of type {ty} are not callable")?;
                        if matches!(ty, "Float64" | "Float32" | "Int64" | "Bool") {
                            write!(
                                f,
                                "\nMaybe you forgot to use an operator such as *, ^, %, / etc. ?"
                            )?;
                        }
                        return Ok(());
                    }
                }
                let target = match args.as_slice() {
                    [Type::Type(t), from] if &**func == "convert" => {
                        Some((t.to_string(), from.to_string()))
                    }
                    _ => None,
                };
                if let Some((t, from)) = target {
                    // As Julia: on one line when the two types have different names.
                    let head = |s: &str| s.split('{').next().unwrap_or("").to_string();
                    let sep = if head(&t) != head(&from) { "" } else { "\n  " };
                    write!(
                        f,
                        "MethodError: Cannot `convert` an object of type {sep}{from} to an object of type {sep}{t}"
                    )?;
                } else {
                    let a: Vec<String> = args.iter().map(|t| format!("::{t}")).collect();
                    write!(
                        f,
                        "MethodError: no method matching {func}({})",
                        a.join(", ")
                    )?;
                }
                if !candidates.is_empty() {
                    let what =
                        "exists, but no method is defined for this combination of argument types";
                    match callee {
                        Callee::Function(name) => write!(f, "\nThe function `{name}` {what}.")?,
                        Callee::Type => {
                            write!(f, "\nThe type `{func}` {what} when trying to construct it.")?
                        }
                        Callee::Object => {
                            let t = func.strip_prefix("(::").and_then(|t| t.strip_suffix(')'));
                            write!(
                                f,
                                "\nThe object of type `{}` {what} when trying to treat it as a callable object.",
                                t.unwrap_or(func)
                            )?
                        }
                    }
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
            Exception::UndefVar { name, local } => {
                let scope = if *local { "local scope" } else { "`Main`" };
                write!(f, "UndefVarError: `{name}` not defined in {scope}")
            }
            Exception::UndefRef => write!(f, "UndefRefError: access to undefined reference"),
            Exception::Type {
                func,
                context,
                expected,
                got,
            } => {
                if **expected == Type::Bool {
                    return write!(
                        f,
                        "TypeError: non-boolean ({}) used in boolean context",
                        got.ty()
                    );
                }
                let ctx = if context.is_empty() {
                    String::new()
                } else {
                    format!("in {context}, ")
                };
                // `Vector{1.5}`: the parameter must be a type (any type).
                let want = if &**func == "Type{...} expression" {
                    "a type".to_string()
                } else {
                    expected.to_string()
                };
                write!(
                    f,
                    "TypeError: in {func}, {ctx}expected {want}, got a value of type {}",
                    got.ty()
                )
            }
            Exception::TypeText(m) => write!(f, "TypeError: {m}"),
            Exception::Inexact {
                func,
                target,
                value,
            } => {
                // As Julia's `showerror`: the type is left out when the function is named
                // after it (`Int64(1.5)`, `trunc(Int64, 1.0e20)`).
                write!(f, "InexactError: {func}(")?;
                if target.to_string() != *func {
                    write!(f, "{target}, ")?;
                }
                write!(f, "{})", show_string(value))
            }
            Exception::Argument(m) => write!(f, "ArgumentError: {m}"),
            Exception::StringIndex { s, index } => {
                let text = match s {
                    Value::Str(t) => t.to_string(),
                    v => print_string(v),
                };
                write!(
                    f,
                    "StringIndexError: {}",
                    string_index_message(&text, *index)
                )
            }
            Exception::DimensionMismatch(m) => write!(f, "DimensionMismatch: {m}"),
            Exception::Overflow(m) => write!(f, "OverflowError: {m}"),
            Exception::Domain { value, msg } => {
                write!(f, "DomainError with {}:\n{msg}", print_string(value))
            }
            Exception::StackOverflow => write!(f, "StackOverflowError: the call stack is too deep"),
            Exception::OutOfMemory => write!(f, "OutOfMemoryError()"),
            Exception::Thrown(v) => match posdef_info(v) {
                // LinearAlgebra's message for a failed Cholesky factorisation.
                Some(info) => write!(
                    f,
                    "PosDefException: matrix is not {}; Cholesky factorization failed.",
                    if info == -1 {
                        "Hermitian"
                    } else {
                        "positive definite"
                    }
                ),
                None => match key_error_key(v) {
                    Some(k) => write!(f, "KeyError: key {} not found", show_string(k)),
                    None => write!(f, "{}", show_string(v)),
                },
            },
            Exception::Shown { text, .. } => write!(f, "{text}"),
            Exception::TaskFailed { first, more } => {
                let nested = first.to_string().replace('\n', "\n    ");
                write!(f, "TaskFailedException\n\n    nested task error: {nested}")?;
                match more {
                    0 => Ok(()),
                    1 => write!(f, "\n\n...and 1 more exception.\n"),
                    k => write!(f, "\n\n...and {k} more exceptions.\n"),
                }
            }
            Exception::Internal(m) => write!(f, "internal error: {m}"),
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
            Exception::UndefVar { .. } => "UndefVarError",
            Exception::UndefRef => "UndefRefError",
            Exception::Type { .. } | Exception::TypeText(_) => "TypeError",
            Exception::Inexact { .. } => "InexactError",
            Exception::Argument(_) => "ArgumentError",
            Exception::StringIndex { .. } => "StringIndexError",
            Exception::DimensionMismatch(_) => "DimensionMismatch",
            Exception::Overflow(_) => "OverflowError",
            Exception::Domain { .. } => "DomainError",
            Exception::StackOverflow => "StackOverflowError",
            Exception::OutOfMemory => "OutOfMemoryError",
            Exception::Thrown(_) | Exception::Shown { .. } => "Exception",
            Exception::TaskFailed { .. } => "CompositeException",
            Exception::Internal(_) => "InternalError",
        }
    }
}

fn posdef_info(v: &Value) -> Option<i64> {
    match v {
        Value::Struct(s) if matches!(&s.ty, Type::Struct(n, _) if n.as_str() == "PosDefException") => {
            match s.fields.first() {
                Some(Value::Int(i)) => Some(*i),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The key of a `KeyError` (a lookup of a key a dictionary does not hold).
fn key_error_key(v: &Value) -> Option<&Value> {
    match v {
        Value::Struct(s) if matches!(&s.ty, Type::Struct(n, _) if n.as_str() == "KeyError") => {
            s.fields.first()
        }
        _ => None,
    }
}

/// The exception a `throw(x)` raises: for Julia's exception types, the variant that prints as
/// Julia's `showerror` prints the value (the inverse of [`exception_value`]); any other value
/// as itself. A `MethodError` comes back without its candidate methods (the machine adds them).
pub fn exception_of_value(x: &Value) -> Exception {
    let Value::Struct(s) = x else {
        return Exception::Thrown(x.clone());
    };
    let Type::Struct(n, _) = &s.ty else {
        return Exception::Thrown(x.clone());
    };
    let field = |k: usize| s.fields.get(k).cloned().unwrap_or(Value::Nothing);
    let text = |k: usize| s.fields.get(k).map(print_string).unwrap_or_default();
    match n.as_str() {
        "ErrorException" => Exception::Error(text(0)),
        "ArgumentError" => Exception::Argument(text(0)),
        "DimensionMismatch" => Exception::DimensionMismatch(text(0)),
        "OverflowError" => Exception::Overflow(text(0)),
        "AssertionError" => Exception::Assertion(text(0)),
        "DomainError" => Exception::Domain {
            value: field(0),
            msg: text(1),
        },
        "DivideError" => Exception::Divide,
        "BoundsError" => Exception::Bounds {
            a: field(0),
            i: field(1),
        },
        "UndefRefError" => Exception::UndefRef,
        "StackOverflowError" => Exception::StackOverflow,
        "OutOfMemoryError" => Exception::OutOfMemory,
        "UndefVarError" => Exception::UndefVar {
            name: text(0),
            local: matches!(field(1), Value::Sym(s) if s.as_str() == "local"),
        },
        "TypeError" => Exception::Type {
            func: text(0).into(),
            context: text(1).into(),
            expected: Box::new(match field(2) {
                Value::Type(t) => (*t).clone(),
                _ => Type::Any,
            }),
            got: field(3),
        },
        "InexactError" => Exception::Inexact {
            func: text(0),
            target: match field(1) {
                Value::Type(t) => (*t).clone(),
                _ => Type::Any,
            },
            value: field(2),
        },
        "StringIndexError" => match field(1) {
            Value::Int(index) => Exception::StringIndex { s: field(0), index },
            _ => Exception::Thrown(x.clone()),
        },
        "MethodError" => {
            let f = field(0);
            let args: Vec<Value> = match field(1) {
                Value::Tuple(vs) => vs.to_vec(),
                _ => vec![],
            };
            method_error(&f, &args, vec![])
        }
        _ => Exception::Thrown(x.clone()),
    }
}

/// Whether a `catch` block may catch `e`. Errors a program raises or Julia would raise are
/// caught; mooncake's own failures — a construct not supported yet (which Julia would run),
/// an internal error, a failure inside a threaded loop (whose task objects are not modelled)
/// — are not, so a `try` never turns them into a different answer.
pub fn catchable(e: &Exception) -> bool {
    match e {
        Exception::Internal(_) | Exception::TaskFailed { .. } | Exception::TypeText(_) => false,
        Exception::Error(m) => {
            !m.starts_with("not supported yet") && !m.starts_with("execution limit exceeded")
        }
        _ => true,
    }
}

/// The value a `catch e` block binds for the error `e`: a value of Julia's exception type
/// with Julia's fields (`BoundsError(a, i)`, `DomainError(val, msg)`, `MethodError(f, args,
/// world)`, ...), or the thrown value itself. `None` for an error that is not
/// [`catchable`].
pub fn exception_value(e: &Exception) -> Option<Value> {
    if !catchable(e) {
        return None;
    }
    let make = |name: &str, fields: Vec<Value>| {
        Value::Struct(std::sync::Arc::new(crate::value::StructVal {
            ty: Type::Struct(syntax::sym(name), std::sync::Arc::from(Vec::new())),
            fields: fields.into_boxed_slice(),
        }))
    };
    let string = |m: &str| Value::Str(m.into());
    let sym = |m: &str| Value::Sym(syntax::sym(m));
    let ty = |t: &Type| Value::Type(std::sync::Arc::new(t.clone()));
    Some(match e {
        Exception::Bounds { a, i } => make("BoundsError", vec![a.clone(), i.clone()]),
        Exception::Method {
            func, args, values, ..
        } => match values {
            Some(v) => make(
                "MethodError",
                vec![v.0.clone(), Value::tuple(v.1.clone()), Value::Int(0)],
            ),
            // (Only built without its values by code that has them: not reached.)
            None => make(
                "MethodError",
                vec![
                    string(func),
                    Value::tuple(args.iter().map(ty).collect()),
                    Value::Int(0),
                ],
            ),
        },
        Exception::Divide => make("DivideError", vec![]),
        Exception::Assertion(m) => make("AssertionError", vec![string(m)]),
        Exception::Error(m) => make("ErrorException", vec![string(m)]),
        Exception::UndefVar { name, local } => make(
            "UndefVarError",
            vec![sym(name), sym(if *local { "local" } else { "Main" })],
        ),
        Exception::UndefRef => make("UndefRefError", vec![]),
        Exception::Type {
            func,
            context,
            expected,
            got,
        } => make(
            "TypeError",
            vec![sym(func), string(context), ty(expected), got.clone()],
        ),
        Exception::Inexact {
            func,
            target,
            value,
        } => make("InexactError", vec![sym(func), ty(target), value.clone()]),
        Exception::Argument(m) => make("ArgumentError", vec![string(m)]),
        Exception::StringIndex { s, index } => {
            make("StringIndexError", vec![s.clone(), Value::Int(*index)])
        }
        Exception::DimensionMismatch(m) => make("DimensionMismatch", vec![string(m)]),
        Exception::Overflow(m) => make("OverflowError", vec![string(m)]),
        Exception::Domain { value, msg } => make("DomainError", vec![value.clone(), string(msg)]),
        Exception::StackOverflow => make("StackOverflowError", vec![]),
        Exception::OutOfMemory => make("OutOfMemoryError", vec![]),
        Exception::Thrown(v) | Exception::Shown { value: v, .. } => v.clone(),
        Exception::TaskFailed { .. } | Exception::Internal(_) | Exception::TypeText(_) => {
            return None
        }
    })
}
