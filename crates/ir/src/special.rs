//! Special functions of one float (the `special` family of primitives): `erf`, `erfc`,
//! `erfinv`, `erfcinv`, `gamma`, `log|gamma|`, `digamma`, `trigamma`, `polygamma` (of an
//! order and a float), `besselj0`, `besselj1`,
//! with the algorithms Julia's SpecialFunctions package uses (Arm's optimized-routines `erf`;
//! FreeBSD's libm for `erfc`,
//! `gamma`, `lgamma` and the Bessel functions; rational approximations and asymptotic series
//! for the rest), so values agree with the package's to rounding. `Float32` arguments are
//! computed in `Float64` and rounded.

// The coefficients are written as published, with more digits than a `Float64` holds.
#![allow(clippy::excessive_precision)]

/// A float type the special functions take.
pub trait Special: Copy {
    fn to64(self) -> f64;
    fn from64(x: f64) -> Self;
}
impl Special for f64 {
    fn to64(self) -> f64 {
        self
    }
    fn from64(x: f64) -> f64 {
        x
    }
}
impl Special for f32 {
    fn to64(self) -> f64 {
        self as f64
    }
    fn from64(x: f64) -> f32 {
        x as f32
    }
}

/// `f` of a float of either width, computed in `Float64`.
fn via64<T: Special>(x: T, f: fn(f64) -> f64) -> T {
    T::from64(f(x.to64()))
}

pub fn erf<T: Special>(x: T) -> T {
    via64(x, erf64)
}
pub fn erfc<T: Special>(x: T) -> T {
    via64(x, libm::erfc)
}
pub fn gamma<T: Special>(x: T) -> T {
    via64(x, libm::tgamma)
}
/// `log(abs(gamma(x)))`.
pub fn lgamma<T: Special>(x: T) -> T {
    via64(x, libm::lgamma)
}
pub fn besselj0<T: Special>(x: T) -> T {
    via64(x, libm::j0)
}
pub fn besselj1<T: Special>(x: T) -> T {
    via64(x, libm::j1)
}
pub fn digamma<T: Special>(x: T) -> T {
    via64(x, digamma64)
}
pub fn trigamma<T: Special>(x: T) -> T {
    via64(x, trigamma64)
}
pub fn erfinv<T: Special>(x: T) -> T {
    via64(x, erfinv64)
}
pub fn erfcinv<T: Special>(x: T) -> T {
    via64(x, erfcinv64)
}

// `erf` by Arm's optimized-routines algorithm: a polynomial or rational approximation on
// each of seven ranges of |x| (coefficients from the constant term up).
const ERF_PA: [f64; 10] = [
    0.12837916709551256,
    -0.3761263890318287,
    0.11283791670896592,
    -0.026866170630075903,
    0.005223977428649761,
    -0.0008548312229989974,
    0.00012054654502151287,
    -1.4906315067498891e-05,
    1.6126444349070824e-06,
    -1.3074259056679966e-07,
];
const ERF_NA: [f64; 5] = [
    0.12837916709551256,
    -0.3250421072470015,
    -0.02848174957559851,
    -0.005770270296489442,
    -2.3763016656650163e-05,
];
const ERF_DA: [f64; 6] = [
    1.0,
    0.39791722395915535,
    0.0650222499887673,
    0.005081306281875766,
    0.00013249473800432164,
    -3.960228278775368e-06,
];
const ERF_NB: [f64; 7] = [
    -0.0023621185607526594,
    0.41485611868374833,
    -0.3722078760357013,
    0.31834661990116175,
    -0.11089469428239668,
    0.035478304325618236,
    -0.002166375594868791,
];
const ERF_DB: [f64; 7] = [
    1.0,
    0.10642088040084423,
    0.540397917702171,
    0.07182865441419627,
    0.12617121980876164,
    0.01363708391202905,
    0.011984499846799107,
];
const ERF_PC: [f64; 16] = [
    0.07709987174354177,
    -0.236521122447293,
    0.29565140305937054,
    -0.1675357950786518,
    0.006159404516165717,
    0.04718103222094307,
    -0.021301232668717494,
    -0.003626251517432038,
    0.005698963889262132,
    -0.0008821337590482596,
    -0.0007818805685971371,
    0.0003016882047903648,
    8.402128001345463e-05,
    -8.732527015984566e-05,
    2.4632671441373717e-05,
    -2.5596416681157843e-06,
];
const ERF_PD: [f64; 18] = [
    0.004677734981047246,
    -0.04133397070816364,
    0.16533588282912917,
    -0.38578372635760083,
    0.5511196001433947,
    -0.41885069428787713,
    -0.029396155993056002,
    0.43253008166531914,
    -0.40754868072458666,
    0.0270381624052068,
    0.26326379929778343,
    -0.19364263050217465,
    -0.06775313961205355,
    0.21880943664885422,
    -0.1816046845438468,
    0.07994386006350838,
    -0.018427953880910123,
    0.0016223143038137065,
];
const ERF_PE: [f64; 16] = [
    4.302779463707753e-06,
    -2.9189025396754986e-05,
    9.486433337913454e-05,
    -0.00019580973528519273,
    0.00028656966098267845,
    -0.0003137999213284758,
    0.00026354316698539023,
    -0.00017004596013480086,
    8.179009099315484e-05,
    -2.6177001557562883e-05,
    2.6667235974837568e-06,
    2.5840073872012914e-06,
    -1.7970865794807476e-06,
    6.040008157462737e-07,
    -1.1384065360475506e-07,
    9.657905491660664e-09,
];
const ERF_PF: [f64; 15] = [
    1.966160232770269e-10,
    -1.8112993751963606e-09,
    8.150538393058677e-09,
    -2.3841928179141717e-08,
    5.086831026559613e-08,
    -8.405611838790292e-08,
    1.1114551347025387e-07,
    -1.1927287548359634e-07,
    1.0374501165951575e-07,
    -7.205498311583407e-08,
    3.885921643476988e-08,
    -1.558946100318052e-08,
    4.352049759187871e-09,
    -7.505506222192582e-10,
    5.996753601814976e-11,
];

/// The error function.
fn erf64(x: f64) -> f64 {
    let a = x.abs();
    if a < 0.84375 {
        let x2 = x * x;
        if a < 0.5 {
            return x.mul_add(horner(x2, &ERF_PA), x);
        }
        return (horner(x2, &ERF_NA) / horner(x2, &ERF_DA)).mul_add(x, x);
    }
    let r = if a < 1.25 {
        let t = a - 1.0;
        0.8450629115104675 + horner(t, &ERF_NB) / horner(t, &ERF_DB)
    } else if a < 2.0 {
        1.0 - horner(a - 1.25, &ERF_PC)
    } else if a < 3.25 {
        1.0 - horner(0.5_f64.mul_add(a, -1.0), &ERF_PD)
    } else if a < 4.5 {
        1.0 - horner(a - 3.25, &ERF_PE)
    } else if a < 6.0 {
        1.0 - horner(a - 4.5, &ERF_PF)
    } else if x.is_nan() {
        return f64::NAN;
    } else {
        1.0
    };
    r.copysign(x)
}

/// `p[0] + p[1] t + p[2] t² + ...` by Horner's rule, as Julia's `evalpoly` on floats.
fn horner(t: f64, p: &[f64]) -> f64 {
    p.iter().rev().fold(0.0, |acc, &c| acc * t + c)
}

/// ψ(x): reflected to x > 0, shifted up to x ≥ 8 by ψ(x) = ψ(x + 1) - 1/x, then the
/// asymptotic series log x - 1/(2x) - Σ B₂ₖ/(2k x²ᵏ) (Kölbig 1972, eq. 12).
fn digamma64(x: f64) -> f64 {
    let (mut z, mut psi) = (x, 0.0);
    if z <= 0.0 {
        psi = -std::f64::consts::PI / tanpi(z);
        z = 1.0 - z;
    }
    if z < 8.0 {
        let n = 8 - z.floor() as i64;
        for k in 1..n {
            psi -= 1.0 / (z + k as f64);
        }
        psi -= 1.0 / z;
        z += n as f64;
    }
    let t = 1.0 / z;
    psi += z.ln() - 0.5 * t;
    let t2 = t * t;
    psi - t2 * horner(t2, &STIRLING[..8])
}

/// ψ'(x): reflected to x > 0 (ψ'(1 - x) + ψ'(x) = π²/sin²(πx)), shifted up to x ≥ 10, then
/// the derivative of digamma's asymptotic series.
fn trigamma64(x: f64) -> f64 {
    if x <= 0.0 {
        let s = std::f64::consts::PI / sinpi(x);
        return s * s - trigamma64(1.0 - x);
    }
    let (mut z, mut psi) = (x, 0.0);
    if z < 10.0 {
        let n = 10 - z.floor() as i64;
        psi += (1.0 / z).powi(2);
        for k in 1..n {
            psi += (1.0 / (z + k as f64)).powi(2);
        }
        z += n as f64;
    }
    let t = 1.0 / z;
    let w = t * t;
    psi += t + 0.5 * w;
    // B₂ₖ for k = 1..8.
    psi + t
        * w
        * horner(
            w,
            &[
                0.16666666666666666,
                -0.03333333333333333,
                0.023809523809523808,
                -0.03333333333333333,
                0.07575757575757576,
                -0.2531135531135531,
                1.1666666666666667,
                -7.092156862745098,
            ],
        )
}

/// sin(πx), exact at integers and half-integers.
fn sinpi(x: f64) -> f64 {
    let r = x.rem_euclid(2.0);
    match r {
        0.0 | 1.0 => 0.0_f64.copysign(x),
        0.5 => 1.0,
        1.5 => -1.0,
        _ => (std::f64::consts::PI * r).sin(),
    }
}

/// B₂ₖ / 2k for k = 1..9: the coefficients of Stirling's series for digamma, whose derivatives
/// give the tails of trigamma and of the Hurwitz zeta function.
const STIRLING: [f64; 9] = [
    0.08333333333333333,
    -0.008333333333333333,
    0.003968253968253968,
    -0.004166666666666667,
    0.007575757575757576,
    -0.021092796092796094,
    0.08333333333333333,
    -0.4432598039215686,
    3.0539543302701198,
];

/// The polygamma function ψ⁽ᵐ⁾(x), the (m+1)-th derivative of log Γ, for m ≥ 0 (NaN for a
/// negative m): digamma and trigamma for m = 0 and 1; beyond, SpecialFunctions' formula
/// (-1)^(m+1) m! ζ(m+1, x) with its Hurwitz zeta, and the reflection formula for x ≤ 0.
pub fn polygamma<T: Special>(m: i64, x: T) -> T {
    T::from64(polygamma64(m, x.to64()))
}
fn polygamma64(m: i64, x: f64) -> f64 {
    match m {
        0 => return digamma64(x),
        1 => return trigamma64(x),
        _ if m < 0 => return f64::NAN,
        _ => {}
    }
    let s = (m + 1) as f64;
    let g = -gamma(s);
    let flip = |v: f64| if m % 2 == 0 { v } else { -v };
    if x <= 0.0 {
        (hurwitz_zeta(s, 1.0 - x) + flip(cotderiv(m, x))) * g
    } else {
        flip(hurwitz_zeta(s, x) * g)
    }
}
/// ζ(s, z) for real s > 1 and z, as SpecialFunctions computes it: the recurrence shifts z
/// past 7 + (s - 1), then the (s - 1)-th derivative of Stirling's series for digamma.
fn hurwitz_zeta(s: f64, z: f64) -> f64 {
    use crate::pow::pow64;
    if s.is_nan() || z.is_nan() {
        return f64::NAN;
    }
    let m = s - 1.0;
    let mut zeta = 0.0;
    let mut z = z;
    let cutoff = 7.0 + m;
    if z < cutoff {
        let xf = z.floor();
        let nx = xf as i64;
        let n = (cutoff - nx as f64).ceil() as i64;
        if nx < 0 {
            let minus_z = -z;
            zeta += pow64(minus_z, -s);
            if xf != z {
                zeta += pow64(z - nx as f64, -s);
            }
            for nu in (1..=(-nx - 1)).rev() {
                let old = zeta;
                zeta += pow64(minus_z - nu as f64, -s);
                if zeta == old {
                    break;
                }
            }
        } else {
            zeta += pow64(z, -s);
        }
        for nu in 1.max(1 - nx)..n {
            let old = zeta;
            zeta += pow64(z + nu as f64, -s);
            if zeta == old {
                break;
            }
        }
        z += n as f64;
    }
    let mut t = 1.0 / z;
    let w = pow64(t, m);
    zeta += w * (1.0 / m + 0.5 * t);
    t *= t;
    const C: [f64; 9] = STIRLING;
    let mut ex = (m + 17.0) * (m + 16.0) * (C[8] / (17.0 * 16.0));
    for k in (2..=8).rev() {
        let (a, b) = ((2 * k - 1) as f64, (2 * k - 2) as f64);
        ex = (1.0 / (a * b) * (m + a) * (m + b)) * (C[k - 1] + t * ex);
    }
    zeta + w * t * ((m + 1.0) * (C[0] + t * ex))
}
/// (-1)^m dᵐ/dzᵐ [π cot(πz)] / m!: a polynomial in cot(πz) whose coefficients follow
/// the recurrence of the derivatives of cot.
fn cotderiv(m: i64, z: f64) -> f64 {
    // q_m(y) with p_m(x) = m!·q_m(x²) (m odd) or m!·x·q_m(x²) (m even).
    let mut q = vec![1.0, 1.0];
    for k in 2..=m {
        let prev = q;
        let d = prev.len() - 1;
        let kf = k as f64;
        q = if (k - 1) % 2 == 1 {
            let mut next = vec![0.0; prev.len()];
            next[d] = d as f64 * prev[d] * 2.0 / kf;
            for i in 1..next.len() {
                next[i - 1] = ((i - 1) as f64 * prev[i - 1] + i as f64 * prev[i]) * 2.0 / kf;
            }
            next
        } else {
            let mut next = vec![0.0; prev.len() + 1];
            next[0] = prev[0] / kf;
            next[d + 1] = (1.0 + 2.0 * d as f64) * prev[d] / kf;
            for i in 2..next.len() {
                next[i - 1] = ((1.0 + 2.0 * (i - 1) as f64) * prev[i - 1]
                    + (1.0 + 2.0 * (i - 2) as f64) * prev[i - 2])
                    / kf;
            }
            next
        };
    }
    let x = 1.0 / tanpi(z);
    let y = x * x;
    let mut acc = q[0] + q[1] * y;
    let mut t = y;
    for c in &q[2..] {
        t *= y;
        acc += c * t;
    }
    crate::pow::powi64(std::f64::consts::PI, m + 1) * if m % 2 == 1 { acc } else { x * acc }
}

/// tan(πx), exact at integers and half-integers.
fn tanpi(x: f64) -> f64 {
    let r = x.rem_euclid(1.0);
    match r {
        0.0 => 0.0_f64.copysign(x),
        0.5 => f64::INFINITY,
        _ => (std::f64::consts::PI * r).tan(),
    }
}

// The rational approximations of the inverse error function of Blair, Edwards and Johnson
// (1976), by the tables Julia's SpecialFunctions uses: numerator and denominator coefficients
// from the constant term up.
const ERFINV_17: ([f64; 7], [f64; 7]) = (
    [
        0.160304955844066229311e2,
        -0.90784959262960326650e2,
        0.18644914861620987391e3,
        -0.16900142734642382420e3,
        0.6545466284794487048e2,
        -0.864213011587247794e1,
        0.1760587821390590,
    ],
    [
        0.147806470715138316110e2,
        -0.91374167024260313936e2,
        0.21015790486205317714e3,
        -0.22210254121855132366e3,
        0.10760453916055123830e3,
        -0.206010730328265443e2,
        0.1e1,
    ],
);
const ERFINV_37: ([f64; 8], [f64; 8]) = (
    [
        -0.152389263440726128e-1,
        0.3444556924136125216,
        -0.29344398672542478687e1,
        0.11763505705217827302e2,
        -0.22655292823101104193e2,
        0.19121334396580330163e2,
        -0.5478927619598318769e1,
        0.237516689024448,
    ],
    [
        -0.108465169602059954e-1,
        0.2610628885843078511,
        -0.24068318104393757995e1,
        0.10695129973387014469e2,
        -0.23716715521596581025e2,
        0.24640158943917284883e2,
        -0.10014376349783070835e2,
        0.1e1,
    ],
);
const ERFINV_57: ([f64; 9], [f64; 10]) = (
    [
        0.10501311523733438116e-3,
        0.1053261131423333816425e-1,
        0.26987802736243283544516,
        0.23268695788919690806414e1,
        0.71678547949107996810001e1,
        0.85475611822167827825185e1,
        0.68738088073543839802913e1,
        0.3627002483095870893002e1,
        0.886062739296515468149,
    ],
    [
        0.10501266687030337690e-3,
        0.1053286230093332753111e-1,
        0.27019862373751554845553,
        0.23501436397970253259123e1,
        0.76078028785801277064351e1,
        0.111815861040569078273451e2,
        0.119487879184353966678438e2,
        0.81922409747269907893913e1,
        0.4099387907636801536145e1,
        0.1e1,
    ],
);
const ERFINV_80: ([f64; 8], [f64; 9]) = (
    [
        0.34654298588086350177e-9,
        0.2508467920240757052055e-6,
        0.47378131963728602986534e-4,
        0.313126037597786964083388e-2,
        0.77948764544143536994854e-1,
        0.70045681233581643868271e0,
        0.18710420342167931668683e1,
        0.714525477431351454283e0,
    ],
    [
        0.34654295673159511156e-9,
        0.2508469079758802711487e-6,
        0.47379531295974913536339e-4,
        0.313206353646177688480813e-2,
        0.78073489062764897214733e-1,
        0.70715044799533758619993e0,
        0.19998515434911215105214e1,
        0.1507290269273168000856e1,
        0.1e1,
    ],
);

/// The inverse error function: NaN outside [-1, 1] (the caller raises `DomainError`).
fn erfinv64(x: f64) -> f64 {
    let a = x.abs();
    if a > 1.0 || x.is_nan() {
        f64::NAN
    } else if a == 1.0 {
        f64::INFINITY.copysign(x)
    } else if a <= 0.75 {
        let t = x * x - 0.5625;
        x * horner(t, &ERFINV_17.0) / horner(t, &ERFINV_17.1)
    } else if a <= 0.9375 {
        let t = x * x - 0.87890625;
        x * horner(t, &ERFINV_37.0) / horner(t, &ERFINV_37.1)
    } else {
        let t = 1.0 / (-(-a).ln_1p()).sqrt();
        horner(t, &ERFINV_57.0) / (t.copysign(x) * horner(t, &ERFINV_57.1))
    }
}

/// The inverse complementary error function: NaN below 0 (the caller raises `DomainError`).
fn erfcinv64(y: f64) -> f64 {
    if y > 0.0625 {
        erfinv64(1.0 - y)
    } else if y <= 0.0 || y.is_nan() {
        if y == 0.0 {
            f64::INFINITY
        } else {
            f64::NAN
        }
    } else if y >= 1e-100 {
        let t = 1.0 / (-y.ln()).sqrt();
        horner(t, &ERFINV_57.0) / (t * horner(t, &ERFINV_57.1))
    } else {
        let t = 1.0 / (-y.ln()).sqrt();
        horner(t, &ERFINV_80.0) / (t * horner(t, &ERFINV_80.1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // (Within the accuracy of the series and of the reflections' cancellation.)
    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-13 * b.abs().max(1e-300)
    }

    #[test]
    fn values_agree_with_reference_values() {
        // Reference values to 17 digits (Abramowitz–Stegun identities and tables).
        assert!(close(digamma64(1.0), -0.5772156649015329));
        assert!(close(digamma64(0.5), -1.9635100260214235));
        assert!(close(digamma64(-0.5), 0.03648997397857652));
        assert!(close(trigamma64(1.0), std::f64::consts::PI.powi(2) / 6.0));
        assert!(close(trigamma64(0.5), std::f64::consts::PI.powi(2) / 2.0));
        assert!(close(gamma(5.0), 24.0));
        assert!(close(lgamma(10.0), 12.801827480081469));
        assert!(close(erf(0.5), 0.5204998778130465));
        for x in [-0.99, -0.8, -0.3, 0.0, 0.1, 0.7, 0.9, 0.95, 0.999999] {
            assert!(close(erf(erfinv64(x)), x), "erfinv({x})");
        }
        // (The approximations are good to about 1e-15; erfc(x) in the tail changes 2x² times
        // faster than x, relatively.)
        for y in [1e-120, 1e-30, 0.01, 0.05, 0.5, 1.3, 1.99] {
            let x = erfcinv64(y);
            let tol = 1e-13 * (2.0 * x * x).max(1.0);
            assert!((erfc(x) - y).abs() <= tol * y, "erfcinv({y})");
        }
        assert!(erfinv64(1.5).is_nan() && erfcinv64(-0.5).is_nan());
    }
}
