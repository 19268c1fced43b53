//! The benchmarks' inputs and hand-written Rust versions of `examples/bench.jl`'s programs
//! (primal and value+gradient), shared by the bench targets, and what the printed tables share
//! (the time budget, the timer of a Rust closure, the format of a time).

use std::time::Duration;

/// Seconds per median: `MOONCAKE_BENCH_BUDGET`, 0.3 when unset.
pub fn budget() -> Duration {
    let secs = std::env::var("MOONCAKE_BENCH_BUDGET")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(0.3);
    Duration::from_secs_f64(secs)
}

/// The median time of `f` in nanoseconds, with `mooncake`'s own timer.
pub fn time_ns(budget: Duration, f: &mut dyn FnMut()) -> f64 {
    mooncake::bench::median_ns::<()>(budget, || {
        f();
        Ok(())
    })
    .unwrap_or(f64::NAN)
}

/// A time for the tables: milliseconds from 1 ms, else microseconds.
pub fn show_ns(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.1} µs", ns / 1e3)
    }
}

pub fn xs(n: usize) -> Vec<f64> {
    (1..=n).map(|i| 0.5 * (i as f64).sin()).collect()
}

/// Column-major n×n, as `ms(n)` in examples/bench.jl.
pub fn ms(n: usize) -> Vec<f64> {
    let mut a = vec![0.0; n * n];
    for j in 1..=n {
        for i in 1..=n {
            a[(i - 1) + (j - 1) * n] = 0.5 * ((i + n * j) as f64).sin();
        }
    }
    a
}

pub fn a_primal(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += v.exp().cos();
    }
    s
}

pub fn a_grad(x: &[f64], g: &mut [f64]) -> f64 {
    let mut s = 0.0;
    for (v, gi) in x.iter().zip(g.iter_mut()) {
        let e = v.exp();
        s += e.cos();
        *gi = -e.sin() * e;
    }
    s
}

pub fn b_primal(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += 5.0 * v;
    }
    s
}

pub fn b_grad(x: &[f64], g: &mut [f64]) -> f64 {
    let mut s = 0.0;
    for (v, gi) in x.iter().zip(g.iter_mut()) {
        s += 5.0 * v;
        *gi = 5.0;
    }
    s
}

pub fn rosen_primal(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        s += 100.0 * a * a + b * b;
    }
    s
}

pub fn rosen_grad(x: &[f64], g: &mut [f64]) -> f64 {
    g.iter_mut().for_each(|v| *v = 0.0);
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        s += 100.0 * a * a + b * b;
        g[i] += -400.0 * a * x[i] - 2.0 * b;
        g[i + 1] += 200.0 * a;
    }
    s
}

pub fn matmul_primal(a: &[f64], b: &[f64], n: usize, c: &mut [f64]) -> f64 {
    c.iter_mut().for_each(|v| *v = 0.0);
    for j in 0..n {
        for k in 0..n {
            let bkj = b[k + j * n];
            for i in 0..n {
                c[i + j * n] += a[i + k * n] * bkj;
            }
        }
    }
    c.iter().sum()
}

/// The adjoint of the same loops: C̄ = 1, Ā[i,k] += C̄[i,j] B[k,j], B̄[k,j] += A[i,k] C̄[i,j].
pub fn matmul_grad(
    a: &[f64],
    b: &[f64],
    n: usize,
    c: &mut [f64],
    ga: &mut [f64],
    gb: &mut [f64],
) -> f64 {
    let s = matmul_primal(a, b, n, c);
    ga.iter_mut().for_each(|v| *v = 0.0);
    gb.iter_mut().for_each(|v| *v = 0.0);
    for j in (0..n).rev() {
        for k in (0..n).rev() {
            let bkj = b[k + j * n];
            let mut acc = 0.0;
            for i in (0..n).rev() {
                ga[i + k * n] += bkj;
                acc += a[i + k * n];
            }
            gb[k + j * n] += acc;
        }
    }
    s
}

/// `C = A B` (column-major, A m×k, B k×n) with the same kernel as `*`, transposing an operand
/// where asked (`at`, `bt`: the operand is stored transposed).
#[allow(clippy::too_many_arguments)]
pub fn gemm(m: usize, k: usize, n: usize, a: &[f64], at: bool, b: &[f64], bt: bool, c: &mut [f64]) {
    let (rsa, csa) = if at { (k as isize, 1) } else { (1, m as isize) };
    let (rsb, csb) = if bt { (n as isize, 1) } else { (1, k as isize) };
    assert!(a.len() >= m * k && b.len() >= k * n && c.len() >= m * n);
    // SAFETY: the slices hold the m×k, k×n and m×n elements the strides reach (checked above),
    // and `c` is a distinct mutable borrow.
    unsafe {
        matrixmultiply::dgemm(
            m,
            k,
            n,
            1.0,
            a.as_ptr(),
            rsa,
            csa,
            b.as_ptr(),
            rsb,
            csb,
            0.0,
            c.as_mut_ptr(),
            1,
            m as isize,
        )
    }
}

/// `sum(A * B)` with the kernel.
pub fn matprod_primal(a: &[f64], b: &[f64], n: usize, c: &mut [f64]) -> f64 {
    gemm(n, n, n, a, false, b, false, c);
    c.iter().sum()
}

/// Its value and gradient: Ā = 1 Bᵀ, B̄ = Aᵀ 1 (two more products with the kernel).
pub fn matprod_grad(
    a: &[f64],
    b: &[f64],
    n: usize,
    c: &mut [f64],
    ga: &mut [f64],
    gb: &mut [f64],
) -> f64 {
    let s = matprod_primal(a, b, n, c);
    let ones = vec![1.0; n * n];
    gemm(n, n, n, &ones, false, b, true, ga);
    gemm(n, n, n, a, true, &ones, false, gb);
    s
}

/// The inputs of `mlp_batch(w1(), batch())` in examples/bench.jl: W1, X, Y, W2.
pub fn mlp_inputs() -> [Vec<f64>; 4] {
    let m = |r: usize, c: usize, f: &dyn Fn(f64, f64) -> f64| {
        let mut v = vec![0.0; r * c];
        for j in 1..=c {
            for i in 1..=r {
                v[(i - 1) + (j - 1) * r] = f(i as f64, j as f64);
            }
        }
        v
    };
    [
        m(64, 32, &|i, j| 0.1 * (i + 3.0 * j).sin()),
        m(32, 64, &|i, j| (i + j).cos()),
        m(8, 64, &|i, j| (i - j).sin()),
        m(8, 64, &|i, j| 0.05 * (i * j).cos()),
    ]
}

/// `sum(abs2, W2 * tanh.(W1 * X) - Y) / 64`, with H (64×64) and P (8×64) as buffers.
pub fn mlp_primal(
    w1: &[f64],
    x: &[f64],
    y: &[f64],
    w2: &[f64],
    h: &mut [f64],
    p: &mut [f64],
) -> f64 {
    gemm(64, 32, 64, w1, false, x, false, h);
    h.iter_mut().for_each(|v| *v = v.tanh());
    gemm(8, 64, 64, w2, false, h, false, p);
    p.iter().zip(y).map(|(p, y)| (p - y) * (p - y)).sum::<f64>() / 64.0
}

/// Its value and gradient with respect to every input, as `mooncake` computes it for
/// `mlp_batch(W1, batch)` (W1 and the batch's X, Y, W2): P̄ = 2(P - Y)/64, Ȳ = -P̄,
/// W̄2 = P̄ Hᵀ, H̄ = W2ᵀ P̄, Z̄ = H̄ (1 - H²), W̄1 = Z̄ Xᵀ, X̄ = W1ᵀ Z̄.
pub struct MlpGrad {
    pub h: Vec<f64>,
    pub p: Vec<f64>,
    pub hbar: Vec<f64>,
    pub w1: Vec<f64>,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
    pub w2: Vec<f64>,
}

impl MlpGrad {
    pub fn new() -> MlpGrad {
        MlpGrad {
            h: vec![0.0; 64 * 64],
            p: vec![0.0; 8 * 64],
            hbar: vec![0.0; 64 * 64],
            w1: vec![0.0; 64 * 32],
            x: vec![0.0; 32 * 64],
            y: vec![0.0; 8 * 64],
            w2: vec![0.0; 8 * 64],
        }
    }
}

pub fn mlp_grad(w1: &[f64], x: &[f64], y: &[f64], w2: &[f64], g: &mut MlpGrad) -> f64 {
    let l = mlp_primal(w1, x, y, w2, &mut g.h, &mut g.p);
    g.p.iter_mut()
        .zip(y)
        .for_each(|(p, y)| *p = 2.0 * (*p - y) / 64.0);
    g.y.iter_mut().zip(&g.p).for_each(|(y, p)| *y = -p);
    gemm(8, 64, 64, &g.p, false, &g.h, true, &mut g.w2);
    gemm(64, 8, 64, w2, true, &g.p, false, &mut g.hbar);
    g.hbar
        .iter_mut()
        .zip(g.h.iter())
        .for_each(|(b, h)| *b *= 1.0 - h * h);
    gemm(64, 64, 32, &g.hbar, false, x, true, &mut g.w1);
    gemm(32, 64, 64, w1, true, &g.hbar, false, &mut g.x);
    l
}

/// The data of `gp_nlml` in examples/bench.jl: 64 points and their values.
pub fn gp_data() -> (Vec<f64>, Vec<f64>) {
    let x = (1..=64).map(|i| 0.1 * i as f64).collect();
    let y = (1..=64).map(|i| (0.3 * i as f64).sin()).collect();
    (x, y)
}

/// Buffers of the Gaussian-process likelihood: the kernel part K₀ (without the noise), the
/// Cholesky factor U (column-major, upper), α = K⁻¹y and a work matrix.
pub struct GpWork {
    pub k0: Vec<f64>,
    pub u: Vec<f64>,
    pub alpha: Vec<f64>,
    pub w: Vec<f64>,
}

impl GpWork {
    pub fn new(n: usize) -> GpWork {
        GpWork {
            k0: vec![0.0; n * n],
            u: vec![0.0; n * n],
            alpha: vec![0.0; n],
            w: vec![0.0; n * n],
        }
    }
}

/// `0.5 yᵀK⁻¹y + 0.5 logdet K` with `K = σ² exp(-(xᵢ - xⱼ)²/2ℓ²) + 0.1I`, ℓ = exp θ₁,
/// σ² = exp θ₂: the same unblocked Cholesky and substitutions as `mooncake`'s kernels.
pub fn gp_primal(theta: [f64; 2], x: &[f64], y: &[f64], g: &mut GpWork) -> f64 {
    let n = x.len();
    let (l, s2) = (theta[0].exp(), theta[1].exp());
    for j in 0..n {
        for i in 0..n {
            let d = x[i] - x[j];
            g.k0[i + j * n] = s2 * (-(d * d) / (2.0 * l * l)).exp();
            g.u[i + j * n] = g.k0[i + j * n] + if i == j { 0.1 } else { 0.0 };
        }
    }
    let u = &mut g.u;
    for j in 0..n {
        for i in 0..j {
            let mut s = u[i + j * n];
            for k in 0..i {
                s -= u[k + i * n] * u[k + j * n];
            }
            u[i + j * n] = s / u[i + i * n];
        }
        let mut d = u[j + j * n];
        for k in 0..j {
            d -= u[k + j * n] * u[k + j * n];
        }
        u[j + j * n] = d.sqrt();
    }
    // Uᵀz = y, then Uα = z.
    let a = &mut g.alpha;
    a.copy_from_slice(y);
    for j in 0..n {
        let mut t = a[j];
        for i in 0..j {
            t -= u[i + j * n] * a[i];
        }
        a[j] = t / u[j + j * n];
    }
    for j in (0..n).rev() {
        a[j] /= u[j + j * n];
        let t = a[j];
        for i in 0..j {
            a[i] -= t * u[i + j * n];
        }
    }
    let fit: f64 = y.iter().zip(a.iter()).map(|(y, a)| y * a).sum();
    let logdet: f64 = (0..n).map(|i| u[i + i * n].ln()).sum();
    0.5 * fit + logdet
}

/// Its value and gradient: with `G = ½(K⁻¹ - ααᵀ)` (K⁻¹ = VᵀV, V = U⁻ᵀ), ∂/∂θ₁ = Σ Gᵢⱼ K₀ᵢⱼ
/// (xᵢ - xⱼ)²/ℓ² and ∂/∂θ₂ = Σ Gᵢⱼ K₀ᵢⱼ.
pub fn gp_grad(theta: [f64; 2], x: &[f64], y: &[f64], g: &mut GpWork) -> (f64, [f64; 2]) {
    let v = gp_primal(theta, x, y, g);
    let n = x.len();
    let l = theta[0].exp();
    let (u, w) = (&g.u, &mut g.w);
    // V = U⁻ᵀ, column by column (lower triangular).
    w.iter_mut().for_each(|x| *x = 0.0);
    for c in 0..n {
        w[c + c * n] = 1.0;
        for j in c..n {
            let mut t = w[j + c * n];
            for i in c..j {
                t -= u[i + j * n] * w[i + c * n];
            }
            w[j + c * n] = t / u[j + j * n];
        }
    }
    let mut grad = [0.0; 2];
    for j in 0..n {
        for i in 0..n {
            // (VᵀV)ᵢⱼ over the rows where both columns are non-zero.
            let mut kinv = 0.0;
            for r in i.max(j)..n {
                kinv += w[r + i * n] * w[r + j * n];
            }
            let gij = 0.5 * (kinv - g.alpha[i] * g.alpha[j]);
            let d = x[i] - x[j];
            let k0 = g.k0[i + j * n];
            grad[0] += gij * k0 * d * d / (l * l);
            grad[1] += gij * k0;
        }
    }
    (v, grad)
}
