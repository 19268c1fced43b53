//! C-style formatting as Julia's `Printf` does it (`@printf`, `@sprintf`): conversions
//! `%d %i %u %f %F %e %E %g %G %s %x %X %o %%` with the flags `- + space 0 #`, a width and a
//! precision.

use crate::exception::Exception;
use crate::show::print_string;
use crate::value::Value;
use ir::Type;

/// One conversion of a format string.
#[derive(Debug, Clone, Default)]
struct Spec {
    left: bool,
    plus: bool,
    space: bool,
    zero: bool,
    alt: bool,
    width: usize,
    precision: Option<usize>,
    conv: char,
}

enum Piece {
    Text(String),
    Conv(Spec),
}

fn parse(fmt: &str) -> Result<Vec<Piece>, String> {
    let mut out = Vec::new();
    let mut text = String::new();
    let mut it = fmt.chars().peekable();
    while let Some(c) = it.next() {
        if c != '%' {
            text.push(c);
            continue;
        }
        if it.peek() == Some(&'%') {
            it.next();
            text.push('%');
            continue;
        }
        if !text.is_empty() {
            out.push(Piece::Text(std::mem::take(&mut text)));
        }
        let mut s = Spec::default();
        while let Some(&f) = it.peek() {
            match f {
                '-' => s.left = true,
                '+' => s.plus = true,
                ' ' => s.space = true,
                '0' => s.zero = true,
                '#' => s.alt = true,
                _ => break,
            }
            it.next();
        }
        while let Some(d) = it.peek().and_then(|c| c.to_digit(10)) {
            s.width = s.width.saturating_mul(10).saturating_add(d as usize);
            it.next();
        }
        if it.peek() == Some(&'.') {
            it.next();
            let mut p = 0usize;
            while let Some(d) = it.peek().and_then(|c| c.to_digit(10)) {
                p = p.saturating_mul(10).saturating_add(d as usize);
                it.next();
            }
            s.precision = Some(p.min(1000));
        }
        s.width = s.width.min(10_000);
        match it.next() {
            Some(
                c @ ('d' | 'i' | 'u' | 'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 's' | 'x' | 'X' | 'o'),
            ) => {
                s.conv = c;
                out.push(Piece::Conv(s));
            }
            Some('*') => {
                return Err(
                    "not supported yet: a width or precision given by an argument (`*`)".into(),
                )
            }
            Some(c) => return Err(format!("invalid format string: unknown conversion `%{c}`")),
            None => {
                return Err("invalid format string: incomplete format specifier at the end".into())
            }
        }
    }
    if !text.is_empty() {
        out.push(Piece::Text(text));
    }
    Ok(out)
}

/// `fmt` applied to `args`, or Julia's exception.
pub fn sprintf(fmt: &str, args: &[Value]) -> Result<String, Exception> {
    let pieces = parse(fmt).map_err(Exception::Argument)?;
    let n = pieces
        .iter()
        .filter(|p| matches!(p, Piece::Conv(_)))
        .count();
    if n != args.len() {
        return Err(Exception::Argument(format!(
            "Number of format specifiers and number of provided args differ: {n} != {}",
            args.len()
        )));
    }
    let mut out = String::new();
    let mut args = args.iter();
    for p in pieces {
        match p {
            Piece::Text(t) => out.push_str(&t),
            Piece::Conv(s) => {
                let Some(v) = args.next() else { break };
                out.push_str(&convert(&s, v)?);
            }
        }
    }
    Ok(out)
}

fn convert(s: &Spec, v: &Value) -> Result<String, Exception> {
    let body = match s.conv {
        's' => {
            let mut t = print_string(v);
            if let Some(p) = s.precision {
                t = t.chars().take(p).collect();
            }
            return Ok(pad(s, String::new(), t, false));
        }
        'd' | 'i' | 'u' => {
            let i = integer(v, s.conv)?;
            let mut digits = i.unsigned_abs().to_string();
            if let Some(p) = s.precision {
                while digits.len() < p {
                    digits.insert(0, '0');
                }
            }
            return Ok(pad(s, sign(s, i < 0), digits, s.precision.is_none()));
        }
        'x' | 'X' | 'o' => {
            let i = integer(v, s.conv)?;
            let mut digits = match s.conv {
                'x' => format!("{:x}", i.unsigned_abs()),
                'X' => format!("{:X}", i.unsigned_abs()),
                _ => format!("{:o}", i.unsigned_abs()),
            };
            if let Some(p) = s.precision {
                while digits.len() < p {
                    digits.insert(0, '0');
                }
            }
            let mut prefix = sign(s, i < 0);
            if s.alt && i != 0 {
                prefix.push_str(match s.conv {
                    'x' => "0x",
                    'X' => "0X",
                    _ => "0",
                });
            }
            return Ok(pad(s, prefix, digits, s.precision.is_none()));
        }
        _ => float(v)?,
    };
    let x = body;
    let neg = x.is_sign_negative() && !x.is_nan();
    if !x.is_finite() {
        let t = if x.is_nan() { "NaN" } else { "Inf" };
        return Ok(pad(s, sign(s, neg), t.to_string(), false));
    }
    let a = x.abs();
    let p = s.precision.unwrap_or(6);
    let digits = match s.conv {
        'f' | 'F' => {
            let mut t = format!("{a:.p$}");
            if s.alt && p == 0 {
                t.push('.');
            }
            t
        }
        'e' | 'E' => exp_form(a, p, s.alt, s.conv == 'E'),
        _ => {
            // %g: %e or %f by the exponent, trailing zeros removed unless `#`.
            let p = if p == 0 { 1 } else { p };
            let e = exp_of(a, p - 1);
            let mut t = if e < -4 || e >= p as i64 {
                exp_form(a, p - 1, s.alt, s.conv == 'G')
            } else {
                let q = (p as i64 - 1 - e).max(0) as usize;
                format!("{a:.q$}")
            };
            if !s.alt {
                t = strip_zeros(&t);
            }
            t
        }
    };
    Ok(pad(s, sign(s, neg), digits, true))
}

/// The decimal exponent of `a` when written with `p` digits after the point in `%e` form.
fn exp_of(a: f64, p: usize) -> i64 {
    let t = format!("{a:.p$e}");
    t.rsplit('e')
        .next()
        .and_then(|e| e.parse().ok())
        .unwrap_or(0)
}

/// `d.ddddde±XX`, as C writes it (at least two exponent digits).
fn exp_form(a: f64, p: usize, alt: bool, upper: bool) -> String {
    let t = format!("{a:.p$e}");
    let (m, e) = t.split_once('e').unwrap_or((&t, "0"));
    let e: i64 = e.parse().unwrap_or(0);
    let mut m = m.to_string();
    if alt && p == 0 {
        m.push('.');
    }
    let sign = if e < 0 { '-' } else { '+' };
    let ch = if upper { 'E' } else { 'e' };
    format!("{m}{ch}{sign}{:02}", e.abs())
}

/// Trailing zeros of the fraction (and a bare point) removed, the exponent kept.
fn strip_zeros(t: &str) -> String {
    let (m, e) = match t.find(['e', 'E']) {
        Some(k) => (&t[..k], &t[k..]),
        None => (t, ""),
    };
    let m = if m.contains('.') {
        m.trim_end_matches('0').trim_end_matches('.')
    } else {
        m
    };
    format!("{m}{e}")
}

fn sign(s: &Spec, neg: bool) -> String {
    if neg {
        "-".into()
    } else if s.plus {
        "+".into()
    } else if s.space {
        " ".into()
    } else {
        String::new()
    }
}

/// `prefix` and `digits` padded to the width: on the right with `-`, with zeros between them
/// with `0` (for numbers), else with spaces on the left.
fn pad(s: &Spec, prefix: String, digits: String, numeric: bool) -> String {
    let len = prefix.chars().count() + digits.chars().count();
    if len >= s.width {
        return prefix + &digits;
    }
    let fill = s.width - len;
    if s.left {
        format!("{prefix}{digits}{}", " ".repeat(fill))
    } else if s.zero && numeric {
        format!("{prefix}{}{digits}", "0".repeat(fill))
    } else {
        format!("{}{prefix}{digits}", " ".repeat(fill))
    }
}

fn integer(v: &Value, conv: char) -> Result<i64, Exception> {
    let inexact = || Exception::Inexact {
        func: "Int64".into(),
        target: ir::Type::Int64,
        value: v.clone(),
    };
    match v {
        Value::Int(i) => Ok(*i),
        Value::Bool(b) => Ok(*b as i64),
        Value::F64(x) if x.fract() == 0.0 && x.abs() < 9.2e18 => Ok(*x as i64),
        Value::F32(x) if x.fract() == 0.0 && x.abs() < 9.2e18 => Ok(*x as i64),
        Value::F64(_) | Value::F32(_) => Err(inexact()),
        other => Err(Exception::Argument(format!(
            "`%{conv}` needs an integer, got a value of type {}",
            other.ty()
        ))),
    }
}

fn float(v: &Value) -> Result<f64, Exception> {
    match v {
        Value::F64(x) => Ok(*x),
        Value::F32(x) => Ok(*x as f64),
        Value::Int(i) => Ok(*i as f64),
        Value::Bool(b) => Ok(*b as i64 as f64),
        // `π`, `ℯ`, ...: Printf converts an irrational constant to `Float64`.
        other => match other {
            Value::Struct(s) => irrational_value(&s.ty),
            _ => None,
        }
        .ok_or_else(|| {
            Exception::Argument(format!(
                "a floating-point conversion needs a number, got a value of type {}",
                other.ty()
            ))
        }),
    }
}

/// The `Float64` value of `Irrational{sym}` (the prelude's `Float64(::Irrational{sym})`).
fn irrational_value(ty: &Type) -> Option<f64> {
    let Type::Struct(n, ps) = ty else { return None };
    if n.as_str() != "Irrational" {
        return None;
    }
    let Some(Type::ValSym(name)) = ps.first() else {
        return None;
    };
    match name.as_str() {
        "π" => Some(std::f64::consts::PI),
        "ℯ" => Some(std::f64::consts::E),
        "γ" => Some(0.5772156649015329),
        "φ" => Some(1.618033988749895),
        "catalan" => Some(0.915965594177219),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{expect, Expect};

    fn check(fmt: &str, args: &[Value], expect: Expect) {
        let out = match sprintf(fmt, args) {
            Ok(s) => s,
            Err(e) => format!("error: {e}"),
        };
        expect.assert_eq(&out);
    }

    #[test]
    fn conversions() {
        use Value::{Int, F64};
        check(
            "%d|%5d|%-5d|%05d|%+d",
            &[Int(42), Int(42), Int(42), Int(-42), Int(7)],
            expect!["42|   42|42   |-0042|+7"],
        );
        check(
            "%f|%.3f|%8.2f|%-8.1f|%08.3f",
            &[
                F64(3.14259),
                F64(2.0 / 3.0),
                F64(-1.005),
                F64(2.25),
                F64(-3.5),
            ],
            expect!["3.142590|0.667|   -1.00|2.2     |-003.500"],
        );
        check(
            "%e|%.2E|%.0e",
            &[F64(12345.678), F64(0.000123), F64(5.0)],
            expect!["1.234568e+04|1.23E-04|5e+00"],
        );
        check(
            "%g|%g|%g|%.3g|%g",
            &[
                F64(100000.0),
                F64(1000000.0),
                F64(0.0001),
                F64(3.14259),
                F64(1e-5),
            ],
            expect!["100000|1e+06|0.0001|3.14|1e-05"],
        );
        check(
            "%s and %5s|%-4s|",
            &[Value::str("a"), Int(12), F64(1.5)],
            expect!["a and    12|1.5 |"],
        );
        check(
            "%x %X %o %#x %%",
            &[Int(255), Int(255), Int(8), Int(255)],
            expect!["ff FF 10 0xff %"],
        );
        check(
            "%f %e %g",
            &[F64(f64::INFINITY), F64(-f64::INFINITY), F64(f64::NAN)],
            expect!["Inf -Inf NaN"],
        );
        check("%d", &[F64(3.0)], expect!["3"]);
        check(
            "%d",
            &[F64(1.5)],
            expect!["error: InexactError: Int64(1.5)"],
        );
        check("%d %d", &[Int(1)], expect!["error: ArgumentError: Number of format specifiers and number of provided args differ: 2 != 1"]);
        check(
            "%q",
            &[Int(1)],
            expect!["error: ArgumentError: invalid format string: unknown conversion `%q`"],
        );
    }
}
