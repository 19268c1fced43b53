//! Julia's floating-point powers, step for step, so `x^n` and `x^y` give Julia's bits: a
//! compensated power by squaring for integer exponents of `Float64` (each square and product
//! carries its rounding error along), plain squaring in `Float64` for `Float32`, and the
//! platform's `pow` (Julia has its own log/exp kernels there) for non-integer exponents.

/// Julia's `use_power_by_squaring(n)`: integer exponents handled by squaring.
fn by_squaring(n: i64) -> bool {
    (-4096..=3 * 8192).contains(&n)
}

/// `(x*y, error of that product)`, exactly (Julia's `two_mul`).
fn two_mul(x: f64, y: f64) -> (f64, f64) {
    let p = x * y;
    (p, x.mul_add(y, -p))
}

/// Julia's `muladd` as it compiles in the power kernel: a product and a sum, rounded apart.
fn muladd(x: f64, y: f64, z: f64) -> f64 {
    x * y + z
}

/// Julia's `pow_body(x::Float64, n::Integer)`: `n = 3` and `n = -2` as the literal powers
/// compute them, otherwise squaring with the low parts of `x` and of the result tracked.
fn pow_body(mut x: f64, mut n: i64) -> f64 {
    let mut y = 1.0;
    let mut xnlo = -0.0;
    let mut ynlo = 0.0;
    if n == 3 {
        return x * x * x;
    }
    if n < 0 {
        let rx = 1.0 / x;
        if n == -2 {
            return rx * rx;
        }
        if x.is_finite() {
            xnlo = -x.mul_add(rx, -1.0) * rx;
        }
        x = rx;
        n = -n;
    }
    while n > 1 {
        if n & 1 > 0 {
            let err = muladd(y, xnlo, x * ynlo);
            (y, ynlo) = two_mul(x, y);
            ynlo += err;
        }
        let err = x * 2.0 * xnlo;
        (x, xnlo) = two_mul(x, x);
        xnlo += err;
        n >>= 1;
    }
    let err = muladd(y, xnlo, x * ynlo);
    if x.is_finite() && err.is_finite() {
        muladd(x, y, err)
    } else {
        x * y
    }
}

/// Julia's `x^n` for a `Float64` and an integer.
pub fn powi64(x: f64, n: i64) -> f64 {
    if n == 0 {
        return 1.0;
    }
    if by_squaring(n) {
        return pow_body(x, n);
    }
    let s = if x < 0.0 && n % 2 != 0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let y = n as f64;
    if y as i128 == n as i128 {
        x.powf(y).copysign(s)
    } else {
        let n2 = n % 1024;
        x.powf((n - n2) as f64) * pow_body(x, n2).copysign(s)
    }
}

/// Julia's `Base.power_by_squaring(x, p)` for a float and `p >= 1`.
fn power_by_squaring(mut x: f64, mut p: i64) -> f64 {
    match p {
        1 => return x,
        2 => return x * x,
        _ => {}
    }
    let mut t = p.trailing_zeros() as i64 + 1;
    p >>= t;
    t -= 1;
    while t > 0 {
        x *= x;
        t -= 1;
    }
    let mut y = x;
    while p > 0 {
        t = p.trailing_zeros() as i64 + 1;
        p >>= t;
        t -= 1;
        while t >= 0 {
            x *= x;
            t -= 1;
        }
        y *= x;
    }
    y
}

/// Julia's `pow_body(x::Float32, n::Int32)`: squaring in `Float64`, rounded once.
fn pow_body32(x: f32, n: i64) -> f32 {
    if n == -2 {
        let i = 1.0 / x;
        return i * i;
    }
    if n == 3 {
        return x * x * x;
    }
    if n < 0 {
        return power_by_squaring(1.0 / x as f64, -n) as f32;
    }
    power_by_squaring(x as f64, n) as f32
}

/// Julia's `pow_body(x::Float32, y)` for a non-integer exponent.
fn pow_body32_float(x: f32, y: f64) -> f32 {
    ((x.abs() as f64).log2() * y).exp2() as f32
}

/// Julia's `x^n` for a `Float32` and an integer.
pub fn powi32(x: f32, n: i64) -> f32 {
    let n = n.clamp(i32::MIN as i64, i32::MAX as i64);
    if n == 0 {
        return 1.0;
    }
    if by_squaring(n) {
        return pow_body32(x, n);
    }
    pow_body32_float(x, n as f64)
}

/// Julia's value of `copysign(x, s) * (y > 0 || isnan(x))` for an infinite or NaN base:
/// multiplying by `false` gives a zero of the float's sign.
fn nonfinite_base<F: Copy>(signed: F, keep: bool, zero_like: impl Fn(F) -> F) -> F {
    if keep {
        signed
    } else {
        zero_like(signed)
    }
}

/// Julia's `x^y` for two `Float64`s (a negative base with a non-integer exponent, a
/// `DomainError` in Julia, gives NaN here: callers check it first).
pub fn pow64(x: f64, mut y: f64) -> f64 {
    if x.to_bits() == 1.0f64.to_bits() {
        return 1.0;
    }
    const MAX_EXP: f64 = 6917529027641081856.0; // 0x1.8p62
    if y.is_nan() || y.abs() >= MAX_EXP {
        if y.is_nan() {
            return y;
        }
        y = y.signum() * MAX_EXP;
    }
    let yint = y as i64;
    let yisint = y == yint as f64;
    if yisint {
        if yint == 0 {
            return 1.0;
        }
        if by_squaring(yint) {
            return pow_body(x, yint);
        }
    }
    if x == 0.0 {
        return if y > 0.0 {
            0.0
        } else {
            y.abs() * f64::INFINITY
        };
    }
    let mut s = 1.0;
    if x < 0.0 {
        if !yisint {
            return f64::NAN;
        }
        s = if yint % 2 != 0 { -1.0 } else { 1.0 };
    }
    if !x.is_finite() {
        return nonfinite_base(x.copysign(s), y > 0.0 || x.is_nan(), |v| 0.0f64.copysign(v));
    }
    x.abs().powf(y).copysign(s)
}

/// Julia's `x^y` for two `Float32`s (NaN for a negative base with a non-integer exponent).
pub fn pow32(x: f32, mut y: f32) -> f32 {
    if x == 1.0 {
        return 1.0;
    }
    const MAX_EXP: f32 = 1744830464.0; // 0x1.Ap30
    if y.is_nan() || y.abs() >= MAX_EXP {
        if y.is_nan() {
            return y;
        }
        y = y.signum() * MAX_EXP;
    }
    let yint = y as i32 as i64;
    let yisint = y == yint as f32;
    if yisint {
        if yint == 0 {
            return 1.0;
        }
        if by_squaring(yint) {
            return pow_body32(x, yint);
        }
    }
    let mut s = 1.0f32;
    if x < 0.0 {
        if !yisint {
            return f32::NAN;
        }
        s = if yint % 2 != 0 { -1.0 } else { 1.0 };
    }
    if !x.is_finite() {
        return nonfinite_base(x.copysign(s), y > 0.0 || x.is_nan(), |v| 0.0f32.copysign(v));
    }
    pow_body32_float(x, y as f64).copysign(s)
}

/// `x^y` for both float widths, as Julia computes it.
pub trait JuliaPow {
    fn julia_pow(self, y: Self) -> Self;
}

impl JuliaPow for f64 {
    fn julia_pow(self, y: f64) -> f64 {
        pow64(self, y)
    }
}

impl JuliaPow for f32 {
    fn julia_pow(self, y: f32) -> f32 {
        pow32(self, y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_exponents_are_the_literal_products() {
        let x = 1.1;
        assert_eq!(powi64(x, 2).to_bits(), (x * x).to_bits());
        assert_eq!(powi64(x, 3).to_bits(), (x * x * x).to_bits());
        assert_eq!(powi64(x, -2).to_bits(), ((1.0 / x) * (1.0 / x)).to_bits());
        assert_eq!(powi64(x, 1), x);
        assert_eq!(powi64(x, 0), 1.0);
        assert_eq!(pow64(x, 2.0).to_bits(), powi64(x, 2).to_bits());
    }

    #[test]
    fn compensated_squaring_is_correctly_rounded_on_exact_cases() {
        // Powers that are exactly representable come out exact.
        assert_eq!(powi64(3.0, 20), 3486784401.0);
        assert_eq!(powi64(2.0, -10), 1.0 / 1024.0);
        assert_eq!(powi64(-2.0, 5), -32.0);
        assert_eq!(pow64(-2.0, 5.0), -32.0);
        assert_eq!(powi32(3.0, 15), 14348907.0);
        // Julia: 1.1^10 == 2.5937424601000023 and 10.0^-2 == 0.010000000000000002.
        assert_eq!(powi64(1.1, 10), 2.5937424601000023);
        assert_eq!(powi64(10.0, -2), 0.010000000000000002);
    }

    #[test]
    fn special_bases_follow_julia() {
        assert_eq!(pow64(0.0, 0.5), 0.0);
        assert_eq!(pow64(-0.0, -0.5), f64::INFINITY);
        assert_eq!(pow64(f64::INFINITY, -0.5), 0.0);
        assert_eq!(
            pow64(f64::NEG_INFINITY, 1e20).to_bits(),
            f64::INFINITY.to_bits()
        );
        assert!(pow64(f64::NAN, 0.5).is_nan());
        assert_eq!(pow64(1.0, f64::NAN), 1.0);
        assert!(pow64(2.0, f64::NAN).is_nan());
        assert!(pow64(-2.0, 0.5).is_nan());
        assert_eq!(pow32(4.0, 0.5), 2.0);
    }
}
