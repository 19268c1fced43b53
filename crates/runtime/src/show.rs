//! Text output exactly as Julia's `print` and `show` write values.

use crate::value::{SharedArray, Value};
use ir::Type;
use std::sync::Arc;

/// Julia's shortest round-trip float formatting: plain notation for decimal exponents in
/// `-5 < e < 6`, scientific (`1.0e-5`, `1.234567e6`) otherwise.
pub fn fmt_float(x: f64, is_f32: bool) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Inf".into() } else { "-Inf".into() };
    }
    if x == 0.0 {
        return if x.is_sign_negative() {
            "-0.0".into()
        } else {
            "0.0".into()
        };
    }
    // Shortest digits and exponent, from Rust's round-trip formatting.
    let sci = if is_f32 {
        format!("{:e}", x as f32)
    } else {
        format!("{x:e}")
    };
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let neg = mant.starts_with('-');
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let mut out = String::new();
    if neg {
        out.push('-');
    }
    if exp > -5 && exp < 6 {
        if exp >= 0 {
            let e = exp as usize;
            if digits.len() > e + 1 {
                out.push_str(&digits[..e + 1]);
                out.push('.');
                out.push_str(&digits[e + 1..]);
            } else {
                out.push_str(&digits);
                for _ in digits.len()..e + 1 {
                    out.push('0');
                }
                out.push_str(".0");
            }
        } else {
            out.push_str("0.");
            for _ in 0..(-exp - 1) {
                out.push('0');
            }
            out.push_str(&digits);
        }
    } else {
        out.push_str(&digits[..1]);
        out.push('.');
        if digits.len() > 1 {
            out.push_str(&digits[1..]);
        } else {
            out.push('0');
        }
        out.push('e');
        out.push_str(&exp.to_string());
    }
    out
}

/// `show` of a Float32: `1.5f0`, `1.0f-5`.
fn show_f32(x: f32) -> String {
    let s = fmt_float(x as f64, true);
    if x.is_nan() {
        return "NaN32".into();
    }
    if x.is_infinite() {
        return if x > 0.0 {
            "Inf32".into()
        } else {
            "-Inf32".into()
        };
    }
    match s.split_once('e') {
        Some((m, e)) => format!("{m}f{e}"),
        None => format!("{s}f0"),
    }
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        push_escaped(&mut out, c, &['"', '$']);
    }
    out.push('"');
    out
}

/// Appends `c` as Julia's `escape_string` writes it: `\\`, the named escapes (`\\n`, `\\t`,
/// `\\e`, ...), a backslash before each of `extra`, a character that does not print as `\\x01`
/// or `\\u200b` (`\\U` and 8 digits past 0xffff), any other character as itself.
pub(crate) fn push_escaped(out: &mut String, c: char, extra: &[char]) {
    let named = match c {
        '\0' => Some('0'),
        '\u{7}' => Some('a'),
        '\u{8}' => Some('b'),
        '\t' => Some('t'),
        '\n' => Some('n'),
        '\u{b}' => Some('v'),
        '\u{c}' => Some('f'),
        '\r' => Some('r'),
        '\u{1b}' => Some('e'),
        '\\' => Some('\\'),
        c if extra.contains(&c) => Some(c),
        _ => None,
    };
    if let Some(e) = named {
        out.push('\\');
        out.push(e);
    } else if (1..=23).contains(&crate::prims::general_category(c)) {
        out.push(c);
    } else {
        let u = c as u32;
        match u {
            0..=0x7f => out.push_str(&format!("\\x{u:02x}")),
            0x80..=0xffff => out.push_str(&format!("\\u{u:04x}")),
            _ => out.push_str(&format!("\\U{u:08x}")),
        }
    }
}

/// Julia's `print(x)`.
pub fn print_string(v: &Value) -> String {
    match v {
        Value::Str(s) => s.to_string(),
        Value::Sym(s) => s.to_string(),
        Value::F32(x) => fmt_float(*x as f64, true),
        Value::Struct(st) => match &st.ty {
            // A closure prints by its name alone, as every function does.
            Type::Struct(n, _) if ir::types::is_closure_name(*n) => n.to_string(),
            ty if bit_integer_text(ty, &st.fields, false).is_some() => {
                bit_integer_text(ty, &st.fields, false).unwrap_or_default()
            }
            ty => match (char_text(ty, &st.fields), substring_text(ty, &st.fields)) {
                (Some(c), _) => c.to_string(),
                (_, Some(t)) => t.to_string(),
                _ => show_string(v),
            },
        },
        _ => show_string(v),
    }
}

/// The text of an integer of the prelude's `Int8` ... `UInt64` (held in an `Int64` field):
/// decimal, except that `show` writes unsigned numbers in hexadecimal with two digits per
/// byte (`0x0a`), as Julia does.
fn bit_integer_text(ty: &Type, fields: &[Value], show: bool) -> Option<String> {
    let (signed, bits) = ir::prim::bit_integer(ty)?;
    let [Value::Int(b)] = fields else {
        return None;
    };
    Some(if signed {
        b.to_string()
    } else if show {
        format!("0x{:0width$x}", *b as u64, width = bits as usize / 4)
    } else {
        (*b as u64).to_string()
    })
}

/// Julia's `show(x)` (also `repr`).
pub fn show_string(v: &Value) -> String {
    let mut out = String::new();
    show(&mut out, v, None);
    out
}

/// Whether elements of this type print a type prefix when shown in a container
/// (`Float32[1.0]`, `Any[1, 2.0]`, `Point[Point(1.0, 2.0)]`), as Julia decides it
/// (`typeinfo_implicit`): no prefix for `Float64`, `Int64`, `String`, `Symbol` and `Char`,
/// singleton types (`first`, one element, tells), and arrays, tuples, named tuples and pairs
/// whose element or field types need none.
fn needs_prefix(elem: &Type, first: Option<&Value>) -> bool {
    // A singleton type: an immutable struct without fields.
    let singleton = matches!(elem, Type::Struct(..))
        && matches!(first, Some(Value::Struct(s)) if s.fields.is_empty());
    !(implicit_type(elem) || singleton)
}

/// Which struct a text of the program's own `show` method is for: a mutable struct by its
/// address, an immutable one by its default form (its value: an array of them stores copies).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum OwnShowKey {
    Object(usize),
    Value(String),
}

thread_local! {
    /// What the program's own `show` methods write for some of the values being printed (see
    /// [`with_own_show`]).
    static OWN_SHOW: std::cell::RefCell<rustc_hash::FxHashMap<OwnShowKey, String>> =
        std::cell::RefCell::new(rustc_hash::FxHashMap::default());
}

/// The key of a struct's own `show` text (`None` for other values).
pub fn own_show_key(v: &Value) -> Option<OwnShowKey> {
    match v {
        Value::Mutable(m) => Some(OwnShowKey::Object(Arc::as_ptr(m) as *const u8 as usize)),
        Value::Struct(_) => {
            let saved = OWN_SHOW.with(|o| std::mem::take(&mut *o.borrow_mut()));
            let text = show_string(v);
            OWN_SHOW.with(|o| *o.borrow_mut() = saved);
            Some(OwnShowKey::Value(text))
        }
        _ => None,
    }
}

/// Runs `f` (printing) with `texts` written for those structs instead of their default form:
/// the text of the program's own `show` method of each, which the machine computed
/// beforehand.
pub fn with_own_show<R>(
    texts: rustc_hash::FxHashMap<OwnShowKey, String>,
    f: impl FnOnce() -> R,
) -> R {
    let old = OWN_SHOW.with(|o| std::mem::replace(&mut *o.borrow_mut(), texts));
    let r = f();
    OWN_SHOW.with(|o| *o.borrow_mut() = old);
    r
}

/// The program's own text for struct `v`, if it has one.
fn own_show(v: &Value) -> Option<String> {
    if OWN_SHOW.with(|o| o.borrow().is_empty()) {
        return None;
    }
    let key = own_show_key(v)?;
    OWN_SHOW.with(|o| o.borrow().get(&key).cloned())
}

thread_local! {
    /// The containers being shown, outermost first (`0` for immutable ones, which cannot be
    /// reached again): Julia's `:SHOWN_SET`.
    static SHOWN: std::cell::RefCell<Vec<usize>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Writes `#= circular reference @-d =#` and returns true if the object `id` is being shown
/// `d` containers up, as Julia does.
fn circular(out: &mut String, id: usize) -> bool {
    let up = SHOWN.with(|s| s.borrow().iter().rev().position(|x| *x == id && id != 0));
    match up {
        Some(d) => {
            out.push_str(&format!("#= circular reference @-{} =#", d + 1));
            true
        }
        None => false,
    }
}

/// Runs `f` (showing the parts of container `id`) with `id` on the shown stack.
fn inside<R>(id: usize, f: impl FnOnce() -> R) -> R {
    SHOWN.with(|s| s.borrow_mut().push(id));
    let r = f();
    SHOWN.with(|s| s.borrow_mut().pop());
    r
}

/// `show` with `ctx` the element type of an enclosing array (which makes Float32 elements
/// print without the `f0` suffix).
fn show(out: &mut String, v: &Value, ctx: Option<&Type>) {
    match v {
        Value::Int(i) => out.push_str(&i.to_string()),
        Value::F64(x) => out.push_str(&fmt_float(*x, false)),
        Value::F32(x) => {
            if ctx == Some(&Type::Float32) {
                out.push_str(&fmt_float(*x as f64, true))
            } else {
                out.push_str(&show_f32(*x))
            }
        }
        Value::Bool(b) => {
            if ctx == Some(&Type::Bool) {
                out.push_str(if *b { "1" } else { "0" })
            } else {
                out.push_str(if *b { "true" } else { "false" })
            }
        }
        Value::Nothing => out.push_str("nothing"),
        Value::Undef => out.push_str("#undef"),
        Value::Str(s) => out.push_str(&escape(s)),
        Value::Sym(s) => show_symbol(out, s.as_str()),
        Value::Tuple(vs) => {
            out.push('(');
            inside(0, || {
                for (i, x) in vs.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    show(out, x, None);
                }
            });
            if vs.len() == 1 {
                out.push(',');
            }
            out.push(')');
        }
        Value::NamedTuple(nt) => {
            out.push('(');
            for (i, (n, x)) in nt.names.iter().zip(nt.values.iter()).enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(n.as_str());
                out.push_str(" = ");
                show(out, x, None);
            }
            if nt.values.len() == 1 {
                out.push(',');
            }
            out.push(')');
        }
        Value::Struct(_) | Value::Mutable(_) if own_show(v).is_some() => {
            out.push_str(&own_show(v).unwrap_or_default())
        }
        Value::Struct(s) => match view_parts(v) {
            // Views and slices print as the arrays they show.
            Some((elem, dims, elems)) => {
                let a = crate::value::ArrayObj::from_values(elem, dims, elems);
                show(out, &Value::Array(SharedArray::new(a)), ctx);
            }
            None => match &s.ty {
                ty if bit_integer_text(ty, &s.fields, true).is_some() => {
                    out.push_str(&bit_integer_text(ty, &s.fields, true).unwrap_or_default())
                }
                // `π`, `ℯ`: an irrational constant prints as its name.
                Type::Struct(n, ps) if n.as_str() == "Irrational" => match ps.first() {
                    Some(Type::ValSym(name)) => out.push_str(name.as_str()),
                    _ => show_struct(out, &s.ty, &s.fields, 0),
                },
                Type::Struct(n, ps)
                    if n.as_str() == "Complex" && ps.len() == 1 && s.fields.len() == 2 =>
                {
                    show_complex(out, &s.fields[0], &s.fields[1])
                }
                // A complex number's tangent is a complex number of the parts' tangents, and
                // prints as one (Mooncake's `tangent_type(ComplexF64) == ComplexF64`).
                Type::Tangent(p)
                    if matches!(&**p, Type::Struct(n, ps) if n.as_str() == "Complex" && ps.len() == 1)
                        && s.fields.len() == 2 =>
                {
                    show_complex(out, &s.fields[0], &s.fields[1])
                }
                Type::Struct(n, ps) if show_distribution(out, n.as_str(), ps, &s.ty, &s.fields) => {
                }
                // A bidiagonal matrix shows its diagonals and which side the second is on.
                Type::Struct(n, ps)
                    if n.as_str() == "Bidiagonal" && ps.len() == 2 && s.fields.len() == 3 =>
                {
                    out.push_str("Bidiagonal(");
                    show(out, &s.fields[0], None);
                    out.push_str(", ");
                    show(out, &s.fields[1], None);
                    let lower = matches!(&s.fields[2],
                        Value::Struct(c) if char_text(&c.ty, &c.fields) == Some('L'));
                    out.push_str(if lower { ", :L)" } else { ", :U)" });
                }
                _ => show_struct(out, &s.ty, &s.fields, 0),
            },
        },
        Value::Mutable(m) => show_struct(out, &m.ty, &m.snapshot(), Arc::as_ptr(m) as usize),
        Value::Array(a) => {
            let dims = a.dims();
            let elems = a.snapshot();
            let prefix = needs_prefix(&a.elem, elems.first()) || elems.is_empty();
            let id = SharedArray::as_ptr(a) as usize;
            if dims.len() == 1 {
                show_vector(out, &a.elem, &elems, prefix, id);
            } else if elems.is_empty() {
                // Julia writes e.g. `Matrix{Float64}(undef, 0, 2)`.
                let ds: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
                out.push_str(&format!(
                    "{}(undef, {})",
                    Type::array(a.elem.clone(), dims.len() as u32),
                    ds.join(", ")
                ));
            } else if !circular(out, id) {
                if prefix {
                    out.push_str(&a.elem.to_string());
                }
                inside(id, || show_nd(out, &elems, &dims, &a.elem));
            }
        }
        Value::Func(f) => out.push_str(ir::types::function_name(*f)),
        Value::Type(t) => out.push_str(&t.to_string()),
    }
}

/// A non-empty array of two or more dimensions as Julia's `show` writes it: rows separated by
/// `; `, the matrices of the trailing dimensions by `;;;` (`;;;;` when the fourth index
/// changes, ...), and a column matrix ends in `;;` (`[1.0; 2.0;;]`).
fn show_nd(out: &mut String, elems: &[Value], dims: &[usize], elem: &Type) {
    let (m, n) = (dims[0], dims[1]);
    let tail = &dims[2..];
    let slices: usize = tail.iter().product();
    out.push('[');
    let mut idx = vec![0usize; tail.len()];
    let mut reached_last = false;
    for s in 0..slices {
        if s > 0 {
            // The highest trailing dimension whose index changed from the previous slice.
            let mut k = 0;
            while idx[k] + 1 == tail[k] {
                idx[k] = 0;
                k += 1;
            }
            idx[k] += 1;
            let changed = k + 3;
            reached_last |= changed == dims.len();
            out.push_str(&";".repeat(changed));
            out.push(' ');
        }
        let base = s * m * n;
        for i in 0..m {
            if i > 0 {
                out.push_str("; ");
            }
            for j in 0..n {
                if j > 0 {
                    out.push(' ');
                }
                if let Some(x) = elems.get(base + j * m + i) {
                    show(out, x, Some(elem));
                }
            }
        }
    }
    if dims.len() == 2 {
        if n == 1 {
            out.push_str(";;");
        }
    } else if !reached_last {
        out.push_str(&";".repeat(dims.len()));
    }
    out.push(']');
}

/// The positions an index of a view selects (1-based), or `None` for a scalar index.
fn view_positions(i: &Value) -> Option<Vec<i64>> {
    match i {
        Value::Int(_) => None,
        Value::Struct(s) => match (&s.ty, &s.fields[..]) {
            (Type::Struct(n, _), [Value::Int(a), Value::Int(b)]) if n.as_str() == "UnitRange" => {
                Some((*a..=*b).collect())
            }
            (Type::Struct(n, _), [Value::Int(a), Value::Int(st), Value::Int(b)])
                if n.as_str() == "StepRange" && *st != 0 =>
            {
                let count = ((b - a) / st + 1).max(0);
                Some((0..count).map(|k| a + k * st).collect())
            }
            (Type::Struct(n, _), [Value::Struct(o)]) if n.as_str() == "Slice" => {
                match o.fields.first() {
                    Some(Value::Int(m)) => Some((1..=*m).collect()),
                    _ => Some(vec![]),
                }
            }
            // A view used as an index: its elements.
            _ => Some(
                view_parts(i)
                    .map(|(_, _, els)| {
                        els.iter()
                            .map(|v| match v {
                                Value::Int(k) => *k,
                                _ => 0,
                            })
                            .collect()
                    })
                    .unwrap_or_default(),
            ),
        },
        Value::Array(a) => Some(
            a.snapshot()
                .iter()
                .map(|v| match v {
                    Value::Int(k) => *k,
                    _ => 0,
                })
                .collect(),
        ),
        _ => Some(vec![]),
    }
}

/// For a view (`SubArray`) or the slices of a matrix (`eachcol`, `eachrow`): its element
/// type, dimensions and elements, read from its parent.
pub fn view_parts(v: &Value) -> Option<(Type, Vec<usize>, Vec<Value>)> {
    let Value::Struct(s) = v else { return None };
    let Type::Struct(name, params) = &s.ty else {
        return None;
    };
    match (name.as_str(), &s.fields[..]) {
        ("SubArray", [Value::Array(p), Value::Tuple(ix), ..]) => {
            let pdims = p.dims();
            let sel: Vec<Option<Vec<i64>>> = ix.iter().map(view_positions).collect();
            let dims: Vec<usize> = sel.iter().flatten().map(|v| v.len()).collect();
            let elem = params.first().cloned().unwrap_or(Type::Any);
            // Column-major over the non-scalar indices: the parent's position along each
            // index, the first varying fastest.
            let axes: Vec<Vec<i64>> = ix
                .iter()
                .zip(&sel)
                .map(|(i, s)| match (i, s) {
                    (_, Some(a)) => a.clone(),
                    (Value::Int(k), None) => vec![*k],
                    _ => vec![1],
                })
                .collect();
            let strides: Vec<usize> = (0..ix.len())
                .map(|d| pdims.iter().take(d).product::<usize>())
                .collect();
            let total: usize = axes.iter().map(|a| a.len()).product();
            let mut elems = Vec::with_capacity(total);
            let mut at = vec![0usize; axes.len()];
            for _ in 0..total {
                let lin: usize = at
                    .iter()
                    .zip(&axes)
                    .zip(&strides)
                    .map(|((k, a), st)| (a[*k] as usize).saturating_sub(1) * st)
                    .sum();
                elems.extend(p.get(lin));
                for (d, k) in at.iter_mut().enumerate() {
                    *k += 1;
                    if *k < axes[d].len() {
                        break;
                    }
                    *k = 0;
                }
            }
            Some((elem, dims, elems))
        }
        ("Adjoint" | "Transpose", [parent]) => {
            // The parent's elements, transposed; an adjoint conjugates complex ones (real
            // elements are their own adjoint).
            let (pelem, pdims, mut pelems) = match parent {
                Value::Array(p) => (p.elem.clone(), p.dims().to_vec(), p.snapshot()),
                other => view_parts(other)?,
            };
            if name.as_str() == "Adjoint" {
                for x in pelems.iter_mut() {
                    conj_complex(x);
                }
            }
            let elem = params.first().cloned().unwrap_or(pelem);
            match pdims.as_slice() {
                [n] => Some((elem, vec![1, *n], pelems)),
                [m, n] => {
                    let mut out = Vec::with_capacity(m * n);
                    for i in 0..*m {
                        for j in 0..*n {
                            out.push(pelems.get(i + j * m)?.clone());
                        }
                    }
                    Some((elem, vec![*n, *m], out))
                }
                _ => None,
            }
        }
        ("Diagonal", [diag]) => {
            // The diagonal's elements, zero elsewhere.
            let (delem, ddims, delems) = parent_parts(diag)?;
            let n = *ddims.first()?;
            let elem = params.first().cloned().unwrap_or(delem);
            let zero = scalar_zero(&elem)?;
            let mut out = vec![zero; n * n];
            for (i, d) in delems.into_iter().enumerate() {
                out[i + i * n] = d;
            }
            Some((elem, vec![n, n], out))
        }
        ("Tridiagonal", [dl, d, du]) | ("SymTridiagonal", [d, dl @ du]) => {
            // The three diagonals' elements (a symmetric one's off-diagonal twice), zero
            // elsewhere.
            let (delem, ddims, delems) = parent_parts(d)?;
            let (_, _, lower) = parent_parts(dl)?;
            let (_, _, upper) = parent_parts(du)?;
            let n = *ddims.first()?;
            let elem = params.first().cloned().unwrap_or(delem);
            let mut out = vec![scalar_zero(&elem)?; n * n];
            for (i, x) in delems.into_iter().enumerate() {
                out[i + i * n] = x;
            }
            for (i, (l, u)) in lower
                .into_iter()
                .zip(upper)
                .enumerate()
                .take(n.saturating_sub(1))
            {
                out[(i + 1) + i * n] = l;
                out[i + (i + 1) * n] = u;
            }
            Some((elem, vec![n, n], out))
        }
        ("Symmetric" | "LowerTriangular" | "UpperTriangular", [data, ..]) => {
            // A symmetric matrix reads the triangle its flag names.
            let upper = !matches!(s.fields.get(1), Some(Value::Bool(false)));
            let (pelem, pdims, pelems) = parent_parts(data)?;
            let (m, n) = (*pdims.first()?, *pdims.get(1)?);
            let elem = params.first().cloned().unwrap_or(pelem);
            let zero = scalar_zero(&elem)?;
            let mut out = Vec::with_capacity(m * n);
            for j in 0..n {
                for i in 0..m {
                    let at = match name.as_str() {
                        "Symmetric" if (i <= j) == upper => Some(i + j * m),
                        "Symmetric" => Some(j + i * m),
                        "LowerTriangular" if i >= j => Some(i + j * m),
                        "UpperTriangular" if i <= j => Some(i + j * m),
                        _ => None,
                    };
                    out.push(match at {
                        Some(k) => pelems.get(k)?.clone(),
                        None => zero.clone(),
                    });
                }
            }
            Some((elem, vec![m, n], out))
        }
        ("ColumnSlices" | "RowSlices", [Value::Array(p)]) => {
            let dims = p.dims();
            let (m, n) = (dims.first().copied()?, dims.get(1).copied()?);
            let elem = params.get(2).cloned().unwrap_or(Type::Any);
            let (count, len) = if name.as_str() == "ColumnSlices" {
                (n, m)
            } else {
                (m, n)
            };
            let mut out = Vec::new();
            for k in 0..count {
                let mut part = Vec::new();
                for l in 0..len {
                    let at = if name.as_str() == "ColumnSlices" {
                        l + k * m
                    } else {
                        k + l * m
                    };
                    part.extend(p.get(at));
                }
                out.push(Value::Array(SharedArray::new(
                    crate::value::ArrayObj::from_values(p.elem.clone(), vec![len], part),
                )));
            }
            Some((elem, vec![count], out))
        }
        _ => None,
    }
}

/// The element type, dimensions and elements of an array or of a value printed as one.
fn parent_parts(v: &Value) -> Option<(Type, Vec<usize>, Vec<Value>)> {
    match v {
        Value::Array(p) => Some((p.elem.clone(), p.dims().to_vec(), p.snapshot())),
        other => view_parts(other),
    }
}

/// The zero of a number type, as a structured matrix shows the entries it does not store.
fn scalar_zero(t: &Type) -> Option<Value> {
    Some(match t {
        Type::Float64 => Value::F64(0.0),
        Type::Float32 => Value::F32(0.0),
        Type::Int64 => Value::Int(0),
        Type::Bool => Value::Bool(false),
        _ => return None,
    })
}

/// Replaces a complex number by its conjugate (any other value is left alone).
fn conj_complex(x: &mut Value) {
    if let Value::Struct(c) = x {
        if let (Type::Struct(n, _), [re, im]) = (&c.ty, &c.fields[..]) {
            let negated = match im {
                Value::F64(v) => Value::F64(-v),
                Value::F32(v) => Value::F32(-v),
                Value::Int(v) => Value::Int(v.wrapping_neg()),
                _ => return,
            };
            if n.as_str() == "Complex" {
                *x = Value::Struct(std::sync::Arc::new(crate::value::StructVal {
                    ty: c.ty.clone(),
                    fields: vec![re.clone(), negated].into(),
                }));
            }
        }
    }
}

/// `view(::Vector{Float64}, 1:2)`, `adjoint(::Vector{Float64})`: how Julia summarises a view or
/// an adjoint in errors.
pub fn view_summary(v: &Value) -> Option<String> {
    let Value::Struct(s) = v else { return None };
    if let (Type::Struct(name, params), [parent]) = (&s.ty, &s.fields[..]) {
        if matches!(name.as_str(), "Adjoint" | "Transpose") {
            // `1×3 adjoint(::Vector{Float64}) with eltype Float64`
            let (_, dims, _) = view_parts(v)?;
            return Some(format!(
                "{}×{} {}(::{}) with eltype {}",
                dims.first()?,
                dims.get(1)?,
                name.as_str().to_lowercase(),
                parent.ty(),
                params.first().cloned().unwrap_or(Type::Any)
            ));
        }
    }
    let (Type::Struct(name, params), [Value::Array(p), Value::Tuple(ix), ..]) =
        (&s.ty, &s.fields[..])
    else {
        return None;
    };
    if name.as_str() != "SubArray" {
        return None;
    }
    let (_, dims, _) = view_parts(v)?;
    let shape = match dims.len() {
        1 => format!("{}-element", dims[0]),
        _ => dims
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("×"),
    };
    let index = |i: &Value| match i {
        Value::Struct(st) if matches!(&st.ty, Type::Struct(n, _) if n.as_str() == "Slice") => {
            ":".to_string()
        }
        i => show_string(i),
    };
    let ixs: Vec<String> = ix.iter().map(index).collect();
    Some(format!(
        "{shape} view(::{}, {}) with eltype {}",
        p.ty(),
        ixs.join(", "),
        params.first().cloned().unwrap_or(Type::Any)
    ))
}

/// The first element, step and last element of a float range whose reference value and step
/// are twice-precision numbers (`hi + lo`), computed as the range computes its elements.
/// Julia's `show` of a `StepRangeLen` from its ends and step.
fn show_step_range(out: &mut String, first: &Value, step: &Value, last: &Value, len: i64) {
    let zero = match step {
        Value::Int(s) => *s == 0,
        Value::F64(s) => *s == 0.0,
        _ => false,
    };
    if zero {
        out.push_str("StepRangeLen(");
        show(out, first, None);
        out.push_str(", ");
        show(out, step, None);
        out.push_str(&format!(", {len})"));
    } else {
        show(out, first, None);
        out.push(':');
        show(out, step, None);
        out.push(':');
        show(out, last, None);
    }
}

fn float_range_ends(
    reference: &Value,
    step: &Value,
    len: &Value,
    offset: &Value,
) -> Option<(f64, f64, f64)> {
    let pair = |v: &Value| match (v.field(0), v.field(1)) {
        (Some(Value::F64(hi)), Some(Value::F64(lo))) => Some((hi, lo)),
        _ => None,
    };
    let (r_hi, r_lo) = pair(reference)?;
    let (s_hi, s_lo) = pair(step)?;
    let (Value::Int(len), Value::Int(offset)) = (len, offset) else {
        return None;
    };
    let at = |i: i64| {
        let u = (i - offset) as f64;
        let (shift_hi, shift_lo) = (u * s_hi, u * s_lo);
        // Two-sum of the reference and the step's leading part, larger magnitude first.
        let (big, little) = if shift_hi.abs() > r_hi.abs() {
            (shift_hi, r_hi)
        } else {
            (r_hi, shift_hi)
        };
        let x_hi = big + little;
        let x_lo = (big - x_hi) + little;
        x_hi + (x_lo + (shift_lo + r_lo))
    };
    Some((at(1), s_hi + s_lo, at(*len)))
}

/// The text of a `SubString{String}` of type `ty` with these fields.
fn substring_text<'a>(ty: &Type, fields: &'a [Value]) -> Option<&'a str> {
    match (ty, fields) {
        (Type::Struct(n, _), [Value::Str(t), Value::Int(off), Value::Int(len)])
            if n.as_str() == "SubString" =>
        {
            let from = usize::try_from(*off).ok()?;
            t.get(from..from + usize::try_from(*len).ok()?)
        }
        _ => None,
    }
}

/// The character a `Char` of type `ty` with these fields holds.
fn char_text(ty: &Type, fields: &[Value]) -> Option<char> {
    match (ty, fields) {
        (Type::Struct(n, _), [Value::Int(code)]) if n.as_str() == "Char" => {
            u32::try_from(*code).ok().and_then(char::from_u32)
        }
        _ => None,
    }
}

/// Julia's `show` of a character: `'a'`, `'\\n'`, `'\\''`, `'é'`; one that does not print
/// (a control or format character, a separator other than a space, unassigned) as `'\\x01'`,
/// `'\\u200b'`, `'\\Ue0001'`.
fn show_char(out: &mut String, c: char) {
    out.push('\'');
    let u = c as u32;
    let plain = u < 0x20 || u == 0x7f || (1..=23).contains(&crate::prims::general_category(c));
    if plain || c == '\\' {
        push_escaped(out, c, &['\'']);
    } else {
        // As many hex digits as the code point needs, at least two.
        let tag = match u {
            0..=0x7f => 'x',
            0x80..=0xffff => 'u',
            _ => 'U',
        };
        out.push('\\');
        out.push(tag);
        out.push_str(&format!("{u:02x}"));
    }
    out.push('\'');
}

/// The entries of a `Pairs` over a named tuple's names or a vector's or tuple's indices.
fn pairs_entries(data: &Value, itr: &Value) -> Option<Vec<(Value, Value)>> {
    let positions = |n: i64, from: i64| (from..from + n).map(Value::Int);
    match (data, itr) {
        (Value::NamedTuple(nt), Value::Tuple(ks)) if ks.len() == nt.values.len() => {
            Some(ks.iter().cloned().zip(nt.values.iter().cloned()).collect())
        }
        (Value::Array(a), Value::Struct(r)) if a.dims().len() == 1 => {
            let elems = a.snapshot();
            match (&r.ty, &r.fields[..]) {
                (Type::Struct(n, _), [Value::Int(stop)]) if n.as_str() == "OneTo" => {
                    Some(positions(*stop, 1).zip(elems).collect())
                }
                _ => None,
            }
        }
        (Value::Tuple(vs), Value::Struct(r)) => match (&r.ty, &r.fields[..]) {
            (Type::Struct(n, _), [Value::Int(1), Value::Int(stop)])
                if n.as_str() == "UnitRange" && *stop as usize == vs.len() =>
            {
                Some(positions(*stop, 1).zip(vs.iter().cloned()).collect())
            }
            _ => None,
        },
        _ => None,
    }
}

/// Whether Julia shows a collection of values of type `t` without naming `t` (its
/// `typeinfo_implicit`).
fn implicit_type(t: &Type) -> bool {
    match t {
        Type::Float64 | Type::Int64 | Type::String | Type::Symbol | Type::Nothing => true,
        // Singletons.
        Type::Function(_) | Type::Type(_) => true,
        Type::Struct(n, _) if n.as_str() == "Char" => true,
        Type::Struct(n, ps) if n.as_str() == "Pair" => ps.iter().all(implicit_type),
        Type::Tuple(ts) | Type::NamedTuple(_, ts) => ts.iter().all(implicit_type),
        Type::Array(e, _) => implicit_type(e),
        _ => false,
    }
}

/// What a dictionary's entries are preceded by: its type's name alone when it has entries
/// and its keys' and values' types go without saying, else the whole type (Julia's
/// `typeinfo_prefix`).
fn pairs_prefix(name: &str, ty: &Type, nonempty: bool) -> String {
    let Type::Struct(_, ps) = ty else {
        return ty.to_string();
    };
    let (k, v) = (ps.first(), ps.get(1));
    if nonempty && k.is_some_and(implicit_type) && v.is_some_and(implicit_type) {
        name.to_string()
    } else {
        ty.to_string()
    }
}

/// A vector's elements as Julia's `show_vector` writes them: `[1, 2]`, with the element type
/// before the bracket when `prefix` (`Any[1, "a"]`).
fn show_vector(out: &mut String, elem: &Type, elems: &[Value], prefix: bool, id: usize) {
    if prefix {
        out.push_str(&elem.to_string());
    }
    out.push('[');
    if !circular(out, id) {
        inside(id, || {
            for (i, x) in elems.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                show(out, x, Some(elem));
            }
        });
    }
    out.push(']');
}

/// The entries of a hash table (the fields of a `Dict` or `IdDict`: slot states, keys,
/// values, ...), in slot order.
pub fn table_entries(fields: &[Value]) -> Option<Vec<(Value, Value)>> {
    let [Value::Array(slots), Value::Array(keys), Value::Array(vals), ..] = fields else {
        return None;
    };
    let (slots, keys, vals) = (slots.snapshot(), keys.snapshot(), vals.snapshot());
    let filled = slots
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s, Value::Int(1)));
    filled
        .map(|(i, _)| Some((keys.get(i)?.clone(), vals.get(i)?.clone())))
        .collect()
}

/// The keys of the table a `Set`, `KeySet` or `ValueIterator` wraps (the values, `values`).
fn wrapped_table(v: &Value, values: bool) -> Option<Vec<Value>> {
    let Value::Struct(t) = v else { return None };
    let entries = table_entries(&t.fields)?;
    Some(
        entries
            .into_iter()
            .map(|(k, x)| if values { x } else { k })
            .collect(),
    )
}

/// `Base.Pairs(:a => 1, :b => 2)` or `Dict(:a => 1)` as Julia shows a dictionary (see
/// [`pairs_prefix`]); `id` identifies a table for circular references (0 for none).
fn show_pairs(out: &mut String, name: &str, ty: &Type, entries: &[(Value, Value)], id: usize) {
    let Type::Struct(_, ps) = ty else { return };
    let (k, v) = (ps.first(), ps.get(1));
    out.push_str(&pairs_prefix(name, ty, !entries.is_empty()));
    out.push('(');
    // A table inside itself shows the marker in its parentheses.
    if !circular(out, id) {
        inside(id, || {
            for (i, (key, val)) in entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                show(out, key, k);
                out.push_str(" => ");
                show(out, val, v);
            }
        });
    }
    out.push(')');
}

/// A complex number as Julia shows it: `1.0 + 2.0im`, `1 - 2im`, `NaN + Inf*im` (a `*` before
/// `im` unless the imaginary part is a finite float or a non-`Bool` integer), `im` and
/// `Complex(true,false)` for `Complex{Bool}`.
fn show_complex(out: &mut String, re: &Value, im: &Value) {
    if let (Value::Bool(r), Value::Bool(i)) = (re, im) {
        if !*r && *i {
            out.push_str("im");
        } else {
            out.push_str(&format!("Complex({r},{i})"));
        }
        return;
    }
    show(out, re, None);
    let (negative, finite) = match im {
        Value::F64(x) => (x.is_sign_negative() && !x.is_nan(), x.is_finite()),
        Value::F32(x) => (x.is_sign_negative() && !x.is_nan(), x.is_finite()),
        Value::Int(x) => (*x < 0, true),
        _ => (false, true),
    };
    out.push_str(if negative { " - " } else { " + " });
    match im {
        Value::F64(x) if negative => show(out, &Value::F64(-x), None),
        Value::F32(x) if negative => show(out, &Value::F32(-x), None),
        Value::Int(x) if negative => out.push_str(&x.unsigned_abs().to_string()),
        _ => show(out, im, None),
    }
    if !finite {
        out.push('*');
    }
    out.push_str("im");
}

/// The parameters a distribution of the Distributions package shows (by name and number of
/// type parameters and fields, as the prelude's `distributions.jl` declares them).
fn distribution_fields(
    name: &str,
    nparams: usize,
    nfields: usize,
) -> Option<&'static [&'static str]> {
    let names: &'static [&'static str] = match name {
        "Normal" | "LogNormal" | "Cauchy" => &["μ", "σ"],
        "Gamma" => &["α", "θ"],
        "Beta" => &["α", "β"],
        "Uniform" => &["a", "b"],
        "Exponential" => &["θ"],
        "TDist" => &["ν"],
        "Bernoulli" => &["p"],
        "Binomial" => &["n", "p"],
        "Poisson" => &["λ"],
        "Categorical" if nparams == 2 && nfields == 2 => return Some(&["support", "p"]),
        "Dirichlet" if nparams == 3 && nfields == 3 => return Some(&["alpha"]),
        _ => return None,
    };
    (nparams == 1 && nfields == names.len()).then_some(names)
}

/// Writes a value of one of the Distributions package's types as the package shows it:
/// `Normal{Float64}(μ=0.0, σ=1.0)`; on several lines (`name: value`) when it has more than
/// eight numbers or a parameter that is not a number or vector; the multivariate normal as
/// `FullNormal(` / `dim: 2` / `μ: [...]` / `Σ: [...]` / `)` with the kind of covariance it was
/// given; a truncated distribution as `Truncated(Normal{Float64}(μ=0.0, σ=1.0); lower=0.0)`.
/// Returns false for any other value.
fn show_distribution(
    out: &mut String,
    name: &str,
    ps: &[Type],
    ty: &Type,
    fields: &[Value],
) -> bool {
    if name == "MvNormal" && ps.len() == 1 && fields.len() == 4 {
        let kind = match &fields[3] {
            Value::Int(1) => "DiagNormal",
            Value::Int(2) => "IsoNormal",
            _ => "FullNormal",
        };
        let dim = match &fields[0] {
            Value::Array(a) => a.dims().iter().product::<usize>(),
            _ => 0,
        };
        out.push_str(kind);
        out.push_str(&format!("(\ndim: {dim}\nμ: "));
        show(out, &fields[0], None);
        out.push_str("\nΣ: ");
        show(out, &fields[1], None);
        out.push_str("\n)\n");
        return true;
    }
    if name == "MixtureModel" && ps.len() == 4 && fields.len() == 2 {
        // `MixtureModel{C}(K = k)` and a line per component (the first eight) with its prior.
        let (Value::Array(cs), Value::Struct(prior)) = (&fields[0], &fields[1]) else {
            return false;
        };
        let Some(Value::Array(p)) = prior.fields.get(1) else {
            return false;
        };
        let (k, comps, probs) = (cs.len(), cs.snapshot(), p.snapshot());
        out.push_str(&format!("MixtureModel{{{}}}(K = {k})\n", ps[2]));
        for (i, (c, w)) in comps.iter().zip(&probs).take(8).enumerate() {
            let w = match w {
                Value::F64(w) => *w,
                Value::F32(w) => *w as f64,
                _ => f64::NAN,
            };
            out.push_str(&format!("components[{}] (prior = {w:.4}): ", i + 1));
            show(out, c, None);
            out.push('\n');
        }
        if k > 8 {
            out.push_str("The rest are omitted ...\n");
        }
        return true;
    }
    if name == "Truncated" && ps.len() == 5 && fields.len() == 8 {
        out.push_str("Truncated(");
        show(out, &fields[0], None);
        let bound = |out: &mut String, label: &str, v: &Value| {
            out.push_str(label);
            show(out, v, None);
        };
        match (&fields[1], &fields[2]) {
            (Value::Nothing, upper) => bound(out, "; upper=", upper),
            (lower, Value::Nothing) => bound(out, "; lower=", lower),
            (lower, upper) => {
                bound(out, "; lower=", lower);
                bound(out, ", upper=", upper);
            }
        }
        out.push(')');
        return true;
    }
    let Some(names) = distribution_fields(name, ps.len(), fields.len()) else {
        return false;
    };
    let mut count = 0;
    let mut multiline = false;
    for v in &fields[..names.len()] {
        match v {
            Value::F64(_) | Value::Int(_) | Value::Bool(_) | Value::F32(_) => count += 1,
            Value::Array(a) if a.dims().len() == 1 => count += a.dims()[0],
            Value::Struct(r) => match (&r.ty, &r.fields[..]) {
                (Type::Struct(n, _), [Value::Int(stop)]) if n.as_str() == "OneTo" => {
                    count += (*stop).max(0) as usize
                }
                _ => multiline = true,
            },
            _ => multiline = true,
        }
    }
    multiline |= count > 8;
    out.push_str(&ty.to_string());
    out.push_str(if multiline { "(\n" } else { "(" });
    for (i, (n, v)) in names.iter().zip(fields).enumerate() {
        if multiline {
            out.push_str(n);
            out.push_str(": ");
            show(out, v, None);
            out.push('\n');
        } else {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(n);
            out.push('=');
            show(out, v, None);
        }
    }
    out.push_str(if multiline { ")\n" } else { ")" });
    true
}

fn show_struct(out: &mut String, ty: &Type, fields: &[Value], id: usize) {
    // A struct's tangent in a program's output: Mooncake's `Tangent` of a named tuple.
    if let Some(names) = ir::print_scope::tangent_fields(ty) {
        out.push_str(&ty.to_string());
        out.push_str("((");
        if !circular(out, id) {
            inside(id, || {
                for (i, (n, x)) in names.iter().zip(fields).enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(n.as_str());
                    out.push_str(" = ");
                    show(out, x, None);
                }
            });
        }
        out.push_str(if names.len() == 1 { ",))" } else { "))" });
        return;
    }
    if let Type::Struct(name, _) = ty {
        match (name.as_str(), fields) {
            ("SubString", _) => {
                if let Some(t) = substring_text(ty, fields) {
                    out.push_str(&escape(t));
                    return;
                }
            }
            ("Char", _) => {
                if let Some(c) = char_text(ty, fields) {
                    show_char(out, c);
                    return;
                }
            }
            ("UnitRange", [a, b]) => {
                show(out, a, None);
                out.push(':');
                show(out, b, None);
                return;
            }
            ("CartesianIndex", [t]) => {
                out.push_str("CartesianIndex");
                show(out, t, None);
                return;
            }
            // `CartesianIndices((2, 3))`, or with the ranges that are not `OneTo`.
            ("CartesianIndices", [Value::Tuple(rs)]) => {
                out.push_str("CartesianIndices((");
                for (i, r) in rs.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    match r {
                        Value::Struct(s) => match (&s.ty, &s.fields[..]) {
                            (Type::Struct(n, _), [stop]) if n.as_str() == "OneTo" => {
                                show(out, stop, None)
                            }
                            _ => show(out, r, None),
                        },
                        _ => show(out, r, None),
                    }
                }
                out.push_str(if rs.len() == 1 { ",))" } else { "))" });
                return;
            }
            ("Pairs", [data, itr]) => {
                if let Some(entries) = pairs_entries(data, itr) {
                    show_pairs(out, "Base.Pairs", ty, &entries, 0);
                    return;
                }
            }
            ("OneTo", [n]) => {
                out.push_str("Base.OneTo(");
                show(out, n, None);
                out.push(')');
                return;
            }
            // A `StepRangeLen` (`2 .* (1:5)`, `0:0.1:1`) prints as `first:step:last`, or with
            // a zero step (`0 .* r`) as its constructor call.
            (
                "StepRangeLen",
                [Value::Int(reference), Value::Int(step), Value::Int(len), Value::Int(offset)],
            ) => {
                let at = |i: i64| reference.wrapping_add((i - offset).wrapping_mul(*step));
                let (first, last) = (Value::Int(at(1)), Value::Int(at(*len)));
                show_step_range(out, &first, &Value::Int(*step), &last, *len);
                return;
            }
            ("StepRangeLen", [reference, step, len, offset]) => {
                if let Some((first, step, last)) = float_range_ends(reference, step, len, offset) {
                    let (first, step, last) =
                        (Value::F64(first), Value::F64(step), Value::F64(last));
                    show_step_range(out, &first, &step, &last, len.as_int().unwrap_or(0));
                    return;
                }
            }
            ("LinRange", [a, b, len, _]) => {
                out.push_str("LinRange{");
                out.push_str(&a.ty().to_string());
                out.push_str("}(");
                show(out, a, None);
                out.push_str(", ");
                show(out, b, None);
                out.push_str(", ");
                show(out, len, None);
                out.push(')');
                return;
            }
            // A hash table: its entries in slot order, identified by its slots array.
            ("Dict" | "IdDict", [Value::Array(slots), ..]) => {
                if let Some(entries) = table_entries(fields) {
                    let id = SharedArray::as_ptr(slots) as usize;
                    show_pairs(out, name.as_str(), ty, &entries, id);
                    return;
                }
            }
            ("Set", [d]) => {
                if let (Some(elems), Type::Struct(_, ps)) = (wrapped_table(d, false), ty) {
                    let elem = ps.first().cloned().unwrap_or(Type::Any);
                    if elems.is_empty() {
                        out.push_str(&ty.to_string());
                        out.push_str("()");
                    } else {
                        out.push_str("Set(");
                        let prefix = needs_prefix(&elem, elems.first());
                        show_vector(out, &elem, &elems, prefix, 0);
                        out.push(')');
                    }
                    return;
                }
            }
            ("KeySet" | "ValueIterator", [d]) => {
                let values = name.as_str() == "ValueIterator";
                if let (Some(elems), Value::Struct(t)) = (wrapped_table(d, values), d) {
                    let Type::Struct(_, ps) = &t.ty else { return };
                    let elem = ps.get(usize::from(values)).cloned().unwrap_or(Type::Any);
                    let prefix = needs_prefix(&elem, elems.first()) || elems.is_empty();
                    show_vector(out, &elem, &elems, prefix, 0);
                    return;
                }
            }
            ("Pair", [a, b]) => {
                show(out, a, None);
                out.push_str(" => ");
                show(out, b, None);
                return;
            }
            // A factorisation prints the fields Julia's has; the dense factors kept beside
            // them are not shown.
            ("Cholesky", [factors, upper, info, _, _]) => {
                out.push_str(&ty.to_string());
                out.push('(');
                show(out, factors, None);
                out.push_str(match upper {
                    Value::Bool(false) => ", 'L', ",
                    _ => ", 'U', ",
                });
                show(out, info, None);
                out.push(')');
                return;
            }
            ("LU", [factors, ipiv, info, ..]) => {
                out.push_str(&ty.to_string());
                out.push('(');
                show(out, factors, None);
                out.push_str(", ");
                show(out, ipiv, None);
                out.push_str(", ");
                show(out, info, None);
                out.push(')');
                return;
            }
            ("StepRange", [a, s, b]) => {
                show(out, a, None);
                out.push(':');
                show(out, s, None);
                out.push(':');
                show(out, b, None);
                return;
            }
            // ChainRulesCore's `Tangent{P}` shows its primal type and its parts.
            ("_CRC_Tangent", [backing]) => {
                if let Type::Struct(_, ps) = ty {
                    let name = ir::print_scope::shown_name("_CRC_Tangent")
                        .unwrap_or_else(|| "Tangent".to_string());
                    let p = ps.first().map(|p| p.to_string()).unwrap_or_default();
                    let p = if p.chars().count() <= 80 {
                        p
                    } else {
                        "…".into()
                    };
                    out.push_str(&format!("{name}{{{p}}}"));
                    match backing {
                        Value::Tuple(t) if t.is_empty() => out.push_str("()"),
                        Value::NamedTuple(t) if t.values.is_empty() => out.push_str("()"),
                        _ => show(out, backing, None),
                    }
                    return;
                }
            }
            // Not exported from Base, so Julia qualifies them.
            ("Fix1" | "Fix2", _) => out.push_str("Base."),
            _ => {}
        }
    }
    out.push_str(&ty.to_string());
    out.push('(');
    if !fields.is_empty() && !circular(out, id) {
        inside(id, || {
            for (i, x) in fields.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                show(out, x, None);
            }
        });
    }
    out.push(')');
}

/// `summary` of an array as in error messages: `3-element Vector{Float64}`, `2×2 Matrix{Int64}`.
pub fn array_summary(dims: &[usize], ty: &Type) -> String {
    if dims.len() == 1 {
        format!("{}-element {ty}", dims[0])
    } else {
        let ds: Vec<String> = dims.iter().map(|d| d.to_string()).collect();
        format!("{} {ty}", ds.join("×"))
    }
}

/// Julia's `show` of a symbol: `:name` for a name the parser reads back as one, else
/// `Symbol("...")`.
fn show_symbol(out: &mut String, name: &str) {
    let mut chars = name.chars();
    let plain = chars.next().is_some_and(|c| c == '_' || c.is_alphabetic())
        && chars.all(|c| c == '_' || c == '!' || c.is_alphanumeric())
        && !matches!(
            name,
            "true" | "false" | "end" | "if" | "else" | "for" | "while" | "function"
        );
    if plain {
        out.push(':');
        out.push_str(name);
    } else {
        out.push_str("Symbol(");
        out.push_str(&escape(name));
        out.push(')');
    }
}

/// Runs `f`, a program printing `v`, with the names the program's scope gives the provided
/// packages' types (see [`ir::print_scope`]): the struct tangents inside `v` are written as
/// Mooncake writes them.
pub fn in_program_scope<R>(v: &[Value], env: &ir::TypeEnv, f: impl FnOnce() -> R) -> R {
    let mut scope = env.packages.print_scope();
    let mut seen = rustc_hash::FxHashSet::default();
    for x in v {
        note_tangents(x, env, &mut scope, &mut seen);
    }
    ir::print_scope::with_print_scope(scope, f)
}

/// Notes the fields of the struct tangent types in value `v`.
fn note_tangents(
    v: &Value,
    env: &ir::TypeEnv,
    scope: &mut ir::print_scope::PrintScope,
    seen: &mut rustc_hash::FxHashSet<usize>,
) {
    match v {
        Value::Struct(s) => {
            note_tangent_types(&s.ty, env, scope);
            for x in s.fields.iter() {
                note_tangents(x, env, scope, seen);
            }
        }
        Value::Mutable(m) if seen.insert(Arc::as_ptr(m) as *const u8 as usize) => {
            note_tangent_types(&m.ty, env, scope);
            for x in m.snapshot() {
                note_tangents(&x, env, scope, seen);
            }
        }
        Value::Tuple(vs) => vs.iter().for_each(|x| note_tangents(x, env, scope, seen)),
        Value::NamedTuple(nt) => nt
            .values
            .iter()
            .for_each(|x| note_tangents(x, env, scope, seen)),
        Value::Array(a) => {
            note_tangent_types(&a.elem, env, scope);
            let id = SharedArray::as_ptr(a) as usize;
            if !a.elem.is_concrete() && seen.insert(id) {
                for x in a.snapshot() {
                    note_tangents(&x, env, scope, seen);
                }
            }
        }
        Value::Type(t) => note_tangent_types(t, env, scope),
        _ => {}
    }
}

/// Notes the fields of the struct tangent types in type `t`.
fn note_tangent_types(t: &Type, env: &ir::TypeEnv, scope: &mut ir::print_scope::PrintScope) {
    match t {
        Type::Tangent(p) | Type::MutableTangent(p) | Type::FData(p) | Type::RData(p) => {
            let complex = matches!(&**p, Type::Struct(n, _) if n.as_str() == "Complex");
            if scope.knows(t) || complex {
                return;
            }
            let (Some(names), Some(types)) = (env.field_names(t), env.field_types(t)) else {
                return;
            };
            scope.add_tangent(t.clone(), names, types.clone());
            types
                .iter()
                .for_each(|ft| note_tangent_types(ft, env, scope));
        }
        Type::Struct(_, ps) | Type::Abstract(_, ps) => {
            ps.iter().for_each(|p| note_tangent_types(p, env, scope))
        }
        Type::Tuple(ts) | Type::NamedTuple(_, ts) | Type::Union(ts) => {
            ts.iter().for_each(|p| note_tangent_types(p, env, scope))
        }
        Type::Array(e, _) => note_tangent_types(e, env, scope),
        Type::Type(e) => note_tangent_types(e, env, scope),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_like_julia() {
        let cases = [
            (27.5, "27.5"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e-5, "1.0e-5"),
            (0.0001, "0.0001"),
            (100000.0, "100000.0"),
            (1e6, "1.0e6"),
            (1234567.0, "1.234567e6"),
            (123456.7, "123456.7"),
            (-2.5, "-2.5"),
            (1.0, "1.0"),
            (1e16, "1.0e16"),
            (5e-324, "5.0e-324"),
            (0.5, "0.5"),
            (-0.0, "-0.0"),
        ];
        for (x, s) in cases {
            assert_eq!(fmt_float(x, false), s, "{x:e}");
        }
        assert_eq!(show_f32(1.5), "1.5f0");
        assert_eq!(show_f32(1e-5), "1.0f-5");
        assert_eq!(fmt_float(0.1f32 as f64, true), "0.1");
    }
}
