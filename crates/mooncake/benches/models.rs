//! The README's model table, from one run: `cargo bench -p mooncake --bench models`.
//!
//! Ten models written as users write them (`examples/bench_models.jl`, and the perceptron and
//! Gaussian process of `examples/bench.jl` and `examples/bench_gp.jl`), each beside a
//! hand-written Rust primal and a hand-written Rust value+gradient of the same computation.
//! Before timing, the value and gradient `mooncake` computes are checked against the Rust
//! version's (so both compute the same thing). For each model it prints our primal ÷ the Rust
//! primal, our gradient ÷ our primal, our gradient ÷ the Rust gradient and the time to the
//! first gradient, as a Markdown table. Set `MOONCAKE_BENCH_BUDGET` (seconds per median,
//! default 0.3) to trade time for stability.

// The hand-written versions index several arrays with one loop variable, as the models do.
#![allow(clippy::needless_range_loop)]

use mooncake::bench::bench;
use mooncake::{Backend, Session, Value};
use std::hint::black_box;

// The same allocator as the `mooncake` command line.
#[global_allocator]
static ALLOCATOR: mooncake_alloc::Allocator = mooncake_alloc::Allocator;

// Each bench target uses part of the shared versions.
#[allow(dead_code)]
mod common;
use common::{
    budget, gemm, gp_data, gp_grad, gp_primal, mlp_grad, mlp_inputs, mlp_primal, show_ns, time_ns,
    GpWork, MlpGrad,
};

/// `C = A B` for column-major A (m×k) and B (k×n), transposed where asked, as `*` computes it:
/// plain loops for products of at most 4096 multiplications (or a dimension of one), the
/// `matrixmultiply` kernel above that.
#[allow(clippy::too_many_arguments)]
fn matmul(m: usize, k: usize, n: usize, a: &[f64], at: bool, b: &[f64], bt: bool, c: &mut [f64]) {
    if m * k * n > 4096 && m > 1 && n > 1 && k > 1 {
        return gemm(m, k, n, a, at, b, bt, c);
    }
    let ai = |i: usize, p: usize| if at { a[p + i * k] } else { a[i + p * m] };
    let bi = |p: usize, j: usize| if bt { b[j + p * n] } else { b[p + j * k] };
    for j in 0..n {
        for i in 0..m {
            c[i + j * m] = 0.0;
        }
        for p in 0..k {
            let bpj = bi(p, j);
            for i in 0..m {
                c[i + j * m] += ai(i, p) * bpj;
            }
        }
    }
}

/// A column-major r×c matrix with entries `f(i, j)` (1-based, as the Julia comprehensions).
fn matrix(r: usize, c: usize, f: impl Fn(f64, f64) -> f64) -> Vec<f64> {
    let mut v = vec![0.0; r * c];
    for j in 1..=c {
        for i in 1..=r {
            v[(i - 1) + (j - 1) * r] = f(i as f64, j as f64);
        }
    }
    v
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// `cross_entropy(W)`: 10 classes, 32 features, 64 samples.
struct Softmax {
    x: Vec<f64>,
    labels: Vec<usize>,
    z: Vec<f64>,
}

impl Softmax {
    const C: usize = 10;
    const D: usize = 32;
    const N: usize = 64;
    fn new() -> Softmax {
        Softmax {
            x: matrix(Self::D, Self::N, |i, j| (0.1 * (i + 3.0 * j)).cos()),
            labels: (1..=Self::N).map(|j| (7 * j) % 10).collect(),
            z: vec![0.0; Self::C * Self::N],
        }
    }
    fn w0() -> Vec<f64> {
        matrix(Self::C, Self::D, |i, j| 0.05 * (i + 2.0 * j).sin())
    }
    /// Z = W X; each column of Z turned into probabilities in place; the loss.
    fn forward(&mut self, w: &[f64]) -> f64 {
        let (c, n) = (Self::C, Self::N);
        matmul(c, Self::D, n, w, false, &self.x, false, &mut self.z);
        let mut loss = 0.0;
        for j in 0..n {
            let col = &mut self.z[j * c..(j + 1) * c];
            let m = col.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let mut s = 0.0;
            for v in col.iter_mut() {
                *v = (*v - m).exp();
                s += *v;
            }
            col.iter_mut().for_each(|v| *v /= s);
            loss -= col[self.labels[j]].ln();
        }
        loss / n as f64
    }
    fn primal(&mut self, w: &[f64]) -> f64 {
        self.forward(w)
    }
    /// Z̄ = (P - onehot) / N, W̄ = Z̄ Xᵀ.
    fn grad(&mut self, w: &[f64], g: &mut [f64]) -> f64 {
        let l = self.forward(w);
        let (c, n) = (Self::C, Self::N);
        for j in 0..n {
            for i in 0..c {
                let t = if i == self.labels[j] { 1.0 } else { 0.0 };
                self.z[i + j * c] = (self.z[i + j * c] - t) / n as f64;
            }
        }
        matmul(c, n, Self::D, &self.z, false, &self.x, true, g);
        l
    }
}

/// `nll(θ)`: 256 samples, 8 features and an intercept.
struct Logistic {
    x: Vec<f64>,
    y: Vec<f64>,
    p: Vec<f64>,
}

impl Logistic {
    const N: usize = 256;
    const D: usize = 8;
    fn new() -> Logistic {
        Logistic {
            x: matrix(Self::N, Self::D, |i, j| (0.3 * i + 0.7 * j).sin()),
            y: (1..=Self::N)
                .map(|i| {
                    if (1.3 * i as f64).sin() > 0.0 {
                        1.0
                    } else {
                        0.0
                    }
                })
                .collect(),
            p: vec![0.0; Self::N],
        }
    }
    fn theta0() -> Vec<f64> {
        (1..=Self::D + 1).map(|j| 0.1 * (j as f64).cos()).collect()
    }
    fn forward(&mut self, th: &[f64]) -> f64 {
        let n = Self::N;
        for i in 0..n {
            let mut z = th[Self::D];
            for j in 0..Self::D {
                z += self.x[i + j * n] * th[j];
            }
            self.p[i] = sigmoid(z);
        }
        let s: f64 = (0..n)
            .map(|i| self.y[i] * self.p[i].ln() + (1.0 - self.y[i]) * (1.0 - self.p[i]).ln())
            .sum();
        -s / n as f64
    }
    fn primal(&mut self, th: &[f64]) -> f64 {
        self.forward(th)
    }
    /// z̄ = (p - y) / N, w̄ = Xᵀ z̄, b̄ = Σ z̄.
    fn grad(&mut self, th: &[f64], g: &mut [f64]) -> f64 {
        let l = self.forward(th);
        let n = Self::N;
        g.iter_mut().for_each(|v| *v = 0.0);
        for i in 0..n {
            let zb = (self.p[i] - self.y[i]) / n as f64;
            for j in 0..Self::D {
                g[j] += self.x[i + j * n] * zb;
            }
            g[Self::D] += zb;
        }
        l
    }
}

/// `lv_miss(p)`: Lotka–Volterra, 200 steps of classic Runge–Kutta.
struct LotkaVolterra {
    states: Vec<[f64; 2]>,
}

impl LotkaVolterra {
    const STEPS: usize = 200;
    const H: f64 = 0.01;
    const TARGET: [f64; 2] = [1.2, 0.8];
    fn new() -> LotkaVolterra {
        LotkaVolterra {
            states: vec![[0.0; 2]; Self::STEPS + 1],
        }
    }
    fn f(u: [f64; 2], p: &[f64]) -> [f64; 2] {
        [
            p[0] * u[0] - p[1] * u[0] * u[1],
            p[3] * u[0] * u[1] - p[2] * u[1],
        ]
    }
    /// ū and p̄ += the vector-Jacobian products of `f` at `u` with `fb`.
    fn f_vjp(u: [f64; 2], p: &[f64], fb: [f64; 2], ub: &mut [f64; 2], pb: &mut [f64]) {
        ub[0] += fb[0] * (p[0] - p[1] * u[1]) + fb[1] * p[3] * u[1];
        ub[1] += -fb[0] * p[1] * u[0] + fb[1] * (p[3] * u[0] - p[2]);
        pb[0] += fb[0] * u[0];
        pb[1] -= fb[0] * u[0] * u[1];
        pb[2] -= fb[1] * u[1];
        pb[3] += fb[1] * u[0] * u[1];
    }
    fn axpy(u: [f64; 2], a: f64, k: [f64; 2]) -> [f64; 2] {
        [u[0] + a * k[0], u[1] + a * k[1]]
    }
    fn step(u: [f64; 2], p: &[f64]) -> [f64; 2] {
        let h = Self::H;
        let k1 = Self::f(u, p);
        let k2 = Self::f(Self::axpy(u, h / 2.0, k1), p);
        let k3 = Self::f(Self::axpy(u, h / 2.0, k2), p);
        let k4 = Self::f(Self::axpy(u, h, k3), p);
        let s = |i: usize| k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i];
        [u[0] + h / 6.0 * s(0), u[1] + h / 6.0 * s(1)]
    }
    fn miss(u: [f64; 2]) -> f64 {
        let d = [u[0] - Self::TARGET[0], u[1] - Self::TARGET[1]];
        d[0] * d[0] + d[1] * d[1]
    }
    fn primal(&mut self, p: &[f64]) -> f64 {
        let mut u = [1.0, 1.0];
        for _ in 0..Self::STEPS {
            u = Self::step(u, p);
        }
        Self::miss(u)
    }
    /// The states of every step kept, then each step's stages recomputed and differentiated
    /// in reverse.
    fn grad(&mut self, p: &[f64], g: &mut [f64]) -> f64 {
        let h = Self::H;
        self.states[0] = [1.0, 1.0];
        for s in 0..Self::STEPS {
            self.states[s + 1] = Self::step(self.states[s], p);
        }
        let u = self.states[Self::STEPS];
        let mut ub = [
            2.0 * (u[0] - Self::TARGET[0]),
            2.0 * (u[1] - Self::TARGET[1]),
        ];
        g.iter_mut().for_each(|v| *v = 0.0);
        for s in (0..Self::STEPS).rev() {
            let u = self.states[s];
            let k1 = Self::f(u, p);
            let a2 = Self::axpy(u, h / 2.0, k1);
            let k2 = Self::f(a2, p);
            let a3 = Self::axpy(u, h / 2.0, k2);
            let k3 = Self::f(a3, p);
            let a4 = Self::axpy(u, h, k3);
            let out = ub;
            let mut k1b = [h / 6.0 * out[0], h / 6.0 * out[1]];
            let mut k2b = [h / 3.0 * out[0], h / 3.0 * out[1]];
            let mut k3b = [h / 3.0 * out[0], h / 3.0 * out[1]];
            let k4b = [h / 6.0 * out[0], h / 6.0 * out[1]];
            let mut ab = [0.0; 2];
            Self::f_vjp(a4, p, k4b, &mut ab, g);
            ub = [out[0] + ab[0], out[1] + ab[1]];
            k3b = [k3b[0] + h * ab[0], k3b[1] + h * ab[1]];
            let mut ab = [0.0; 2];
            Self::f_vjp(a3, p, k3b, &mut ab, g);
            ub = [ub[0] + ab[0], ub[1] + ab[1]];
            k2b = [k2b[0] + h / 2.0 * ab[0], k2b[1] + h / 2.0 * ab[1]];
            let mut ab = [0.0; 2];
            Self::f_vjp(a2, p, k2b, &mut ab, g);
            ub = [ub[0] + ab[0], ub[1] + ab[1]];
            k1b = [k1b[0] + h / 2.0 * ab[0], k1b[1] + h / 2.0 * ab[1]];
            Self::f_vjp(u, p, k1b, &mut ub, g);
        }
        Self::miss(u)
    }
}

/// `heat_misfit(u)`: 100 cells, 200 explicit steps (α = 0.2).
struct Heat {
    measured: Vec<f64>,
    a: Vec<f64>,
    b: Vec<f64>,
}

impl Heat {
    const N: usize = 100;
    const STEPS: usize = 200;
    const ALPHA: f64 = 0.2;
    fn new() -> Heat {
        let pi = std::f64::consts::PI;
        Heat {
            measured: (1..=Self::N)
                .map(|i| 0.3 * (pi * (i - 1) as f64 / 99.0).sin())
                .collect(),
            a: vec![0.0; Self::N],
            b: vec![0.0; Self::N],
        }
    }
    fn u0() -> Vec<f64> {
        let pi = std::f64::consts::PI;
        (1..=Self::N)
            .map(|i| (pi * (i - 1) as f64 / 99.0).sin() + 0.1 * (7.0 * i as f64).sin())
            .collect()
    }
    /// Evolves `u0` into `self.a`.
    fn evolve(&mut self, u0: &[f64]) {
        let (n, al) = (Self::N, Self::ALPHA);
        self.a.copy_from_slice(u0);
        for _ in 0..Self::STEPS {
            self.b.copy_from_slice(&self.a);
            for i in 1..n - 1 {
                let u = &self.a;
                self.b[i] = u[i] + al * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
            }
            std::mem::swap(&mut self.a, &mut self.b);
        }
    }
    fn misfit(&self) -> f64 {
        self.a
            .iter()
            .zip(&self.measured)
            .map(|(u, m)| (u - m) * (u - m))
            .sum()
    }
    fn primal(&mut self, u0: &[f64]) -> f64 {
        self.evolve(u0);
        self.misfit()
    }
    /// The stencil is linear: the adjoint runs its transpose backwards from 2(u - measured).
    fn grad(&mut self, u0: &[f64], g: &mut [f64]) -> f64 {
        let (n, al) = (Self::N, Self::ALPHA);
        self.evolve(u0);
        let l = self.misfit();
        for i in 0..n {
            self.b[i] = 2.0 * (self.a[i] - self.measured[i]);
        }
        for _ in 0..Self::STEPS {
            let vb = &self.b;
            for i in 0..n {
                let interior = |k: usize| k >= 1 && k < n - 1;
                let mut s = if interior(i) {
                    (1.0 - 2.0 * al) * vb[i]
                } else {
                    vb[i]
                };
                if i >= 1 && interior(i - 1) {
                    s += al * vb[i - 1];
                }
                if interior(i + 1) {
                    s += al * vb[i + 1];
                }
                self.a[i] = s;
            }
            std::mem::swap(&mut self.a, &mut self.b);
        }
        g.copy_from_slice(&self.b);
        l
    }
}

/// `final_energy(p)`: five bodies, 100 leapfrog steps.
struct NBody {
    /// (x, y, vx, vy) at the start of every step.
    states: Vec<[[f64; 5]; 4]>,
}

type Bodies = [f64; 5];

impl NBody {
    const STEPS: usize = 100;
    const H: f64 = 0.01;
    const M: Bodies = [1.0, 0.5, 0.3, 0.2, 0.1];
    fn new() -> NBody {
        NBody {
            states: vec![[[0.0; 5]; 4]; Self::STEPS + 1],
        }
    }
    fn p0() -> Vec<f64> {
        (0..10)
            .map(|k| (1.3 * k as f64).cos() * (1 + k / 2) as f64)
            .collect()
    }
    fn acc(x: &Bodies, y: &Bodies) -> (Bodies, Bodies) {
        let (mut ax, mut ay) = ([0.0; 5], [0.0; 5]);
        for i in 0..5 {
            for j in 0..5 {
                if i != j {
                    let (dx, dy) = (x[j] - x[i], y[j] - y[i]);
                    let r3 = (dx * dx + dy * dy + 0.01).powf(1.5);
                    ax[i] += Self::M[j] * dx / r3;
                    ay[i] += Self::M[j] * dy / r3;
                }
            }
        }
        (ax, ay)
    }
    /// x̄, ȳ += the vector-Jacobian product of `acc` at (x, y) with (āx, āy).
    fn acc_vjp(
        x: &Bodies,
        y: &Bodies,
        axb: &Bodies,
        ayb: &Bodies,
        xb: &mut Bodies,
        yb: &mut Bodies,
    ) {
        for i in 0..5 {
            for j in 0..5 {
                if i != j {
                    let (dx, dy) = (x[j] - x[i], y[j] - y[i]);
                    let s = dx * dx + dy * dy + 0.01;
                    let r3 = s.powf(1.5);
                    let s5 = s.powf(2.5);
                    let (fx, fy) = (1.0 / r3 - 3.0 * dx * dx / s5, -3.0 * dx * dy / s5);
                    let (gx, gy) = (-3.0 * dx * dy / s5, 1.0 / r3 - 3.0 * dy * dy / s5);
                    let dxb = Self::M[j] * (axb[i] * fx + ayb[i] * gx);
                    let dyb = Self::M[j] * (axb[i] * fy + ayb[i] * gy);
                    xb[j] += dxb;
                    xb[i] -= dxb;
                    yb[j] += dyb;
                    yb[i] -= dyb;
                }
            }
        }
    }
    fn step(s: &[Bodies; 4]) -> [Bodies; 4] {
        let h = Self::H;
        let [mut x, mut y, mut vx, mut vy] = *s;
        let (ax, ay) = Self::acc(&x, &y);
        for i in 0..5 {
            vx[i] += h / 2.0 * ax[i];
            vy[i] += h / 2.0 * ay[i];
            x[i] += h * vx[i];
            y[i] += h * vy[i];
        }
        let (ax, ay) = Self::acc(&x, &y);
        for i in 0..5 {
            vx[i] += h / 2.0 * ax[i];
            vy[i] += h / 2.0 * ay[i];
        }
        [x, y, vx, vy]
    }
    fn energy(s: &[Bodies; 4]) -> f64 {
        let [x, y, vx, vy] = s;
        let mut e: f64 = (0..5)
            .map(|i| 0.5 * Self::M[i] * (vx[i] * vx[i] + vy[i] * vy[i]))
            .sum();
        for i in 0..5 {
            for j in i + 1..5 {
                let (dx, dy) = (x[i] - x[j], y[i] - y[j]);
                e -= Self::M[i] * Self::M[j] / (dx * dx + dy * dy + 0.01).sqrt();
            }
        }
        e
    }
    fn start(p: &[f64]) -> [Bodies; 4] {
        let mut s = [[0.0; 5]; 4];
        for i in 0..5 {
            s[0][i] = p[2 * i];
            s[1][i] = p[2 * i + 1];
            s[2][i] = 0.1 * ((i + 1) as f64).cos();
            s[3][i] = 0.1 * ((i + 1) as f64).sin();
        }
        s
    }
    fn primal(&mut self, p: &[f64]) -> f64 {
        let mut s = Self::start(p);
        for _ in 0..Self::STEPS {
            s = Self::step(&s);
        }
        Self::energy(&s)
    }
    /// States kept per step; each step's half-kicks and drift differentiated in reverse.
    fn grad(&mut self, p: &[f64], g: &mut [f64]) -> f64 {
        let h = Self::H;
        self.states[0] = Self::start(p);
        for k in 0..Self::STEPS {
            self.states[k + 1] = Self::step(&self.states[k]);
        }
        let last = self.states[Self::STEPS];
        let e = Self::energy(&last);
        let [x, y, vx, vy] = last;
        let (mut xb, mut yb, mut vxb, mut vyb) = ([0.0; 5], [0.0; 5], [0.0; 5], [0.0; 5]);
        for i in 0..5 {
            vxb[i] = Self::M[i] * vx[i];
            vyb[i] = Self::M[i] * vy[i];
            for j in i + 1..5 {
                let (dx, dy) = (x[i] - x[j], y[i] - y[j]);
                let c = Self::M[i] * Self::M[j] / (dx * dx + dy * dy + 0.01).powf(1.5);
                xb[i] += c * dx;
                xb[j] -= c * dx;
                yb[i] += c * dy;
                yb[j] -= c * dy;
            }
        }
        for k in (0..Self::STEPS).rev() {
            let [x0, y0, vx0, vy0] = self.states[k];
            let (ax, ay) = Self::acc(&x0, &y0);
            let (mut x1, mut y1) = (x0, y0);
            for i in 0..5 {
                x1[i] += h * (vx0[i] + h / 2.0 * ax[i]);
                y1[i] += h * (vy0[i] + h / 2.0 * ay[i]);
            }
            let a1b = (vxb.map(|v| h / 2.0 * v), vyb.map(|v| h / 2.0 * v));
            Self::acc_vjp(&x1, &y1, &a1b.0, &a1b.1, &mut xb, &mut yb);
            for i in 0..5 {
                vxb[i] += h * xb[i];
                vyb[i] += h * yb[i];
            }
            let a0b = (vxb.map(|v| h / 2.0 * v), vyb.map(|v| h / 2.0 * v));
            Self::acc_vjp(&x0, &y0, &a0b.0, &a0b.1, &mut xb, &mut yb);
        }
        for i in 0..5 {
            g[2 * i] = xb[i];
            g[2 * i + 1] = yb[i];
        }
        e
    }
}

/// `gru_loss(U)`: hidden size 8, inputs of 4, 20 steps; the gradient with respect to the
/// three recurrent matrices (Uz, Ur, Uh, each column-major, one after the other).
struct Gru {
    inputs: Vec<[f64; 4]>,
    w: [Vec<f64>; 3],
    target: [f64; 8],
    /// Per step: the state before it, z, r, the candidate h̃.
    saved: Vec<[[f64; 8]; 4]>,
}

type Hidden = [f64; 8];

impl Gru {
    const T: usize = 20;
    fn new() -> Gru {
        Gru {
            inputs: (1..=Self::T)
                .map(|t| std::array::from_fn(|k| ((t + 3 * (k + 1)) as f64).sin()))
                .collect(),
            w: [
                matrix(8, 4, |i, j| 0.3 * (i + 2.0 * j).cos()),
                matrix(8, 4, |i, j| 0.3 * (2.0 * i + j).sin()),
                matrix(8, 4, |i, j| 0.3 * (i * j).cos()),
            ],
            target: std::array::from_fn(|i| 0.2 * ((i + 1) as f64).sin()),
            saved: vec![[[0.0; 8]; 4]; Self::T],
        }
    }
    fn u0() -> Vec<f64> {
        let mut u = matrix(8, 8, |i, j| 0.2 * (i + 5.0 * j).sin());
        u.extend(matrix(8, 8, |i, j| 0.2 * (3.0 * i + j).cos()));
        u.extend(matrix(8, 8, |i, j| 0.2 * (i * j + 1.0).sin()));
        u
    }
    /// W x + U v (W 8×4, U 8×8).
    fn affine(w: &[f64], x: &[f64; 4], u: &[f64], v: &Hidden) -> Hidden {
        let mut out = [0.0; 8];
        for (j, xj) in x.iter().enumerate() {
            for i in 0..8 {
                out[i] += w[i + 8 * j] * xj;
            }
        }
        let mut uv = [0.0; 8];
        for (j, vj) in v.iter().enumerate() {
            for i in 0..8 {
                uv[i] += u[i + 8 * j] * vj;
            }
        }
        std::array::from_fn(|i| out[i] + uv[i])
    }
    fn step(&self, h: &Hidden, x: &[f64; 4], u: &[f64]) -> [Hidden; 4] {
        let (uz, ur, uh) = (&u[..64], &u[64..128], &u[128..]);
        let z = Self::affine(&self.w[0], x, uz, h).map(sigmoid);
        let r = Self::affine(&self.w[1], x, ur, h).map(sigmoid);
        let rh: Hidden = std::array::from_fn(|i| r[i] * h[i]);
        let c = Self::affine(&self.w[2], x, uh, &rh).map(f64::tanh);
        let hn = std::array::from_fn(|i| (1.0 - z[i]) * h[i] + z[i] * c[i]);
        [hn, z, r, c]
    }
    fn loss(&self, h: &Hidden) -> f64 {
        (0..8).map(|i| (h[i] - self.target[i]).powi(2)).sum()
    }
    fn primal(&mut self, u: &[f64]) -> f64 {
        let mut h = [0.0; 8];
        for x in &self.inputs {
            h = self.step(&h, x, u)[0];
        }
        self.loss(&h)
    }
    fn grad(&mut self, u: &[f64], g: &mut [f64]) -> f64 {
        let mut h = [0.0; 8];
        for t in 0..Self::T {
            let [hn, z, r, c] = self.step(&h, &self.inputs[t], u);
            self.saved[t] = [h, z, r, c];
            h = hn;
        }
        let l = self.loss(&h);
        let mut hb: Hidden = std::array::from_fn(|i| 2.0 * (h[i] - self.target[i]));
        g.iter_mut().for_each(|v| *v = 0.0);
        let (gz, rest) = g.split_at_mut(64);
        let (gr, gh) = rest.split_at_mut(64);
        let (uz, ur, uh) = (&u[..64], &u[64..128], &u[128..]);
        for t in (0..Self::T).rev() {
            let [h, z, r, c] = self.saved[t];
            let zb: Hidden = std::array::from_fn(|i| hb[i] * (c[i] - h[i]));
            let acb: Hidden = std::array::from_fn(|i| hb[i] * z[i] * (1.0 - c[i] * c[i]));
            let mut hp: Hidden = std::array::from_fn(|i| hb[i] * (1.0 - z[i]));
            let rh: Hidden = std::array::from_fn(|i| r[i] * h[i]);
            let mut rhb = [0.0; 8];
            for j in 0..8 {
                for i in 0..8 {
                    gh[i + 8 * j] += acb[i] * rh[j];
                    rhb[j] += uh[i + 8 * j] * acb[i];
                }
            }
            let arb: Hidden = std::array::from_fn(|i| rhb[i] * h[i] * r[i] * (1.0 - r[i]));
            let azb: Hidden = std::array::from_fn(|i| zb[i] * z[i] * (1.0 - z[i]));
            for i in 0..8 {
                hp[i] += rhb[i] * r[i];
            }
            for j in 0..8 {
                for i in 0..8 {
                    gr[i + 8 * j] += arb[i] * h[j];
                    gz[i + 8 * j] += azb[i] * h[j];
                    hp[j] += ur[i + 8 * j] * arb[i] + uz[i + 8 * j] * azb[i];
                }
            }
            hb = hp;
        }
        l
    }
}

/// `attention_loss(H)`: 16 tokens of 8 features; the gradient with respect to Wq, Wk, Wv.
struct Attention {
    x: Vec<f64>,
    target: Vec<f64>,
    q: Vec<f64>,
    k: Vec<f64>,
    v: Vec<f64>,
    a: Vec<f64>,
    o: Vec<f64>,
    ab: Vec<f64>,
    qb: Vec<f64>,
    kb: Vec<f64>,
}

impl Attention {
    const D: usize = 8;
    const N: usize = 16;
    fn new() -> Attention {
        let (d, n) = (Self::D, Self::N);
        Attention {
            x: matrix(d, n, |i, j| (0.5 * i + 0.3 * j).sin()),
            target: matrix(d, n, |i, j| 0.5 * (i - j).cos()),
            q: vec![0.0; d * n],
            k: vec![0.0; d * n],
            v: vec![0.0; d * n],
            a: vec![0.0; n * n],
            o: vec![0.0; d * n],
            ab: vec![0.0; n * n],
            qb: vec![0.0; d * n],
            kb: vec![0.0; d * n],
        }
    }
    fn w0() -> Vec<f64> {
        let mut w = matrix(8, 8, |i, j| 0.3 * (i + 2.0 * j).sin());
        w.extend(matrix(8, 8, |i, j| 0.3 * (2.0 * i + j).cos()));
        w.extend(matrix(8, 8, |i, j| 0.3 * (i * j).sin()));
        w
    }
    fn forward(&mut self, w: &[f64]) -> f64 {
        let (d, n) = (Self::D, Self::N);
        let (wq, wk, wv) = (&w[..64], &w[64..128], &w[128..]);
        matmul(d, d, n, wq, false, &self.x, false, &mut self.q);
        matmul(d, d, n, wk, false, &self.x, false, &mut self.k);
        matmul(d, d, n, wv, false, &self.x, false, &mut self.v);
        matmul(n, d, n, &self.k, true, &self.q, false, &mut self.a);
        let scale = (d as f64).sqrt();
        for j in 0..n {
            let col = &mut self.a[j * n..(j + 1) * n];
            col.iter_mut().for_each(|s| *s /= scale);
            let m = col.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let mut s = 0.0;
            for v in col.iter_mut() {
                *v = (*v - m).exp();
                s += *v;
            }
            col.iter_mut().for_each(|v| *v /= s);
        }
        matmul(d, n, n, &self.v, false, &self.a, false, &mut self.o);
        self.o
            .iter()
            .zip(&self.target)
            .map(|(o, t)| (o - t) * (o - t))
            .sum()
    }
    fn primal(&mut self, w: &[f64]) -> f64 {
        self.forward(w)
    }
    /// Ō = 2(O - T), V̄ = Ō Aᵀ, Ā = Vᵀ Ō, S̄ = A ⊙ (Ā - column sums of A ⊙ Ā), Q̄ = K S̄/√d,
    /// K̄ = Q S̄ᵀ/√d, and each W̄ = (its projection's cotangent) Xᵀ.
    fn grad(&mut self, w: &[f64], g: &mut [f64]) -> f64 {
        let l = self.forward(w);
        let (d, n) = (Self::D, Self::N);
        self.o
            .iter_mut()
            .zip(&self.target)
            .for_each(|(o, t)| *o = 2.0 * (*o - t));
        let (gq, rest) = g.split_at_mut(64);
        let (gk, gv) = rest.split_at_mut(64);
        // V̄ into `qb` for now, then W̄v.
        matmul(d, n, n, &self.o, false, &self.a, true, &mut self.qb);
        matmul(d, n, d, &self.qb, false, &self.x, true, gv);
        matmul(n, d, n, &self.v, true, &self.o, false, &mut self.ab);
        let scale = (d as f64).sqrt();
        for j in 0..n {
            let c = j * n..(j + 1) * n;
            let dot: f64 = self.a[c.clone()]
                .iter()
                .zip(&self.ab[c.clone()])
                .map(|(a, b)| a * b)
                .sum();
            for i in c {
                self.ab[i] = self.a[i] * (self.ab[i] - dot) / scale;
            }
        }
        matmul(d, n, n, &self.k, false, &self.ab, false, &mut self.qb);
        matmul(d, n, n, &self.q, false, &self.ab, true, &mut self.kb);
        matmul(d, n, d, &self.qb, false, &self.x, true, gq);
        matmul(d, n, d, &self.kb, false, &self.x, true, gk);
        l
    }
}

/// `conv_loss(w)`: a kernel of 9 taps over 512 samples, through tanh.
struct Conv {
    signal: Vec<f64>,
    target: Vec<f64>,
    out: Vec<f64>,
}

impl Conv {
    const K: usize = 9;
    fn new() -> Conv {
        Conv {
            signal: (1..=512)
                .map(|i| (0.05 * i as f64).sin() + 0.2 * (0.7 * i as f64).cos())
                .collect(),
            target: (1..=504)
                .map(|i| 0.5 * (0.05 * i as f64 + 0.2).sin())
                .collect(),
            out: vec![0.0; 504],
        }
    }
    fn w0() -> Vec<f64> {
        (1..=Self::K).map(|j| 0.1 * (j as f64).cos()).collect()
    }
    fn forward(&mut self, w: &[f64]) -> f64 {
        let mut l = 0.0;
        for i in 0..self.out.len() {
            let mut s = 0.0;
            for j in 0..Self::K {
                s += w[j] * self.signal[i + j];
            }
            let o = s.tanh();
            self.out[i] = o;
            l += (o - self.target[i]) * (o - self.target[i]);
        }
        l
    }
    fn primal(&mut self, w: &[f64]) -> f64 {
        self.forward(w)
    }
    fn grad(&mut self, w: &[f64], g: &mut [f64]) -> f64 {
        let l = self.forward(w);
        g.iter_mut().for_each(|v| *v = 0.0);
        for i in 0..self.out.len() {
            let o = self.out[i];
            let yb = 2.0 * (o - self.target[i]) * (1.0 - o * o);
            for j in 0..Self::K {
                g[j] += yb * self.signal[i + j];
            }
        }
        l
    }
}

/// A gradient as one flat vector: arrays column-major, the fields of a struct one after the
/// other.
fn flatten(v: &Value, out: &mut Vec<f64>) {
    if let Some(xs) = v.to_f64_vec() {
        out.extend(xs);
    } else if let Some(x) = v.as_f64() {
        out.push(x);
    } else {
        let mut k = 0;
        while let Some(f) = v.field(k) {
            flatten(&f, out);
            k += 1;
        }
    }
}

type Primal<'a> = Box<dyn FnMut(&[f64]) -> f64 + 'a>;
type Gradient<'a> = Box<dyn FnMut(&[f64], &mut [f64]) -> f64 + 'a>;

/// A model's row: the hand-written Rust primal and value+gradient (writing the gradient into
/// its second argument) on the model's initial parameters, flattened.
struct Model<'a> {
    name: &'static str,
    file: &'static str,
    src: &'static str,
    call: &'static str,
    params: Vec<f64>,
    primal: Primal<'a>,
    grad: Gradient<'a>,
}

struct Row {
    name: &'static str,
    ours: mooncake::bench::BenchReport,
    rust_primal: f64,
    rust_grad: f64,
}

fn main() {
    let budget = budget();
    let models_src = include_str!("../../../examples/bench_models.jl");
    let bench_src = include_str!("../../../examples/bench.jl");
    let gp_src = include_str!("../../../examples/bench_gp.jl");
    let models_file = "examples/bench_models.jl";

    let [w1, x, y, w2] = mlp_inputs();
    let (mut mh, mut mp) = (vec![0.0; 64 * 64], vec![0.0; 8 * 64]);
    let mut mg = MlpGrad::new();
    let mlp_params: Vec<f64> = [w1.clone(), x.clone(), y.clone(), w2.clone()].concat();
    let (gx, gy) = gp_data();
    let (mut gw1, mut gw2) = (GpWork::new(gx.len()), GpWork::new(gx.len()));
    let (mut sm1, mut sm2) = (Softmax::new(), Softmax::new());
    let (mut lr1, mut lr2) = (Logistic::new(), Logistic::new());
    let (mut lv1, mut lv2) = (LotkaVolterra::new(), LotkaVolterra::new());
    let (mut ht1, mut ht2) = (Heat::new(), Heat::new());
    let (mut nb1, mut nb2) = (NBody::new(), NBody::new());
    let (mut gr1, mut gr2) = (Gru::new(), Gru::new());
    let (mut at1, mut at2) = (Attention::new(), Attention::new());
    let (mut cv1, mut cv2) = (Conv::new(), Conv::new());
    let mut models = vec![
        Model {
            name: "MLP, W1 64×32 on a batch of 64",
            file: "examples/bench.jl",
            src: bench_src,
            call: "mlp_batch(w1(), batch())",
            params: mlp_params,
            primal: Box::new(|_| mlp_primal(&w1, &x, &y, &w2, &mut mh, &mut mp)),
            grad: Box::new(|_, g| {
                let l = mlp_grad(&w1, &x, &y, &w2, &mut mg);
                let parts = [&mg.w1, &mg.x, &mg.y, &mg.w2];
                let mut k = 0;
                for p in parts {
                    g[k..k + p.len()].copy_from_slice(p);
                    k += p.len();
                }
                l
            }),
        },
        Model {
            name: "softmax cross-entropy, 10 classes × 32 features × 64 samples",
            file: models_file,
            src: models_src,
            call: "cross_entropy(classifier0())",
            params: Softmax::w0(),
            primal: Box::new(|w| sm1.primal(w)),
            grad: Box::new(|w, g| sm2.grad(w, g)),
        },
        Model {
            name: "logistic regression, 256 samples × 8 features",
            file: models_file,
            src: models_src,
            call: "nll(logistic0())",
            params: Logistic::theta0(),
            primal: Box::new(|t| lr1.primal(t)),
            grad: Box::new(|t, g| lr2.grad(t, g)),
        },
        Model {
            name: "RK4 Lotka–Volterra, 200 steps",
            file: models_file,
            src: models_src,
            call: "lv_miss(rates0())",
            params: vec![1.5, 1.0, 3.0, 1.0],
            primal: Box::new(|p| lv1.primal(p)),
            grad: Box::new(|p, g| lv2.grad(p, g)),
        },
        Model {
            name: "1-d heat equation, 100 cells × 200 steps",
            file: models_file,
            src: models_src,
            call: "heat_misfit(profile0())",
            params: Heat::u0(),
            primal: Box::new(|u| ht1.primal(u)),
            grad: Box::new(|u, g| ht2.grad(u, g)),
        },
        Model {
            name: "n-body, 5 bodies × 100 steps",
            file: models_file,
            src: models_src,
            call: "final_energy(positions0())",
            params: NBody::p0(),
            primal: Box::new(|p| nb1.primal(p)),
            grad: Box::new(|p, g| nb2.grad(p, g)),
        },
        Model {
            name: "GRU, hidden 8 × 20 steps",
            file: models_file,
            src: models_src,
            call: "gru_loss(recurrent0())",
            params: Gru::u0(),
            primal: Box::new(|u| gr1.primal(u)),
            grad: Box::new(|u, g| gr2.grad(u, g)),
        },
        Model {
            name: "attention, 8 features × 16 tokens",
            file: models_file,
            src: models_src,
            call: "attention_loss(head0())",
            params: Attention::w0(),
            primal: Box::new(|w| at1.primal(w)),
            grad: Box::new(|w, g| at2.grad(w, g)),
        },
        Model {
            name: "Gaussian process, 64 points",
            file: "examples/bench_gp.jl",
            src: gp_src,
            call: "gp_nlml([0.0, 0.0])",
            params: vec![0.0, 0.0],
            primal: Box::new(|t| gp_primal([t[0], t[1]], &gx, &gy, &mut gw1)),
            grad: Box::new(|t, g| {
                let (v, d) = gp_grad([t[0], t[1]], &gx, &gy, &mut gw2);
                g.copy_from_slice(&d);
                v
            }),
        },
        Model {
            name: "conv1d, 9 taps × 512 samples",
            file: models_file,
            src: models_src,
            call: "conv_loss(kernel0())",
            params: Conv::w0(),
            primal: Box::new(|w| cv1.primal(w)),
            grad: Box::new(|w, g| cv2.grad(w, g)),
        },
    ];
    let time = |f: &mut dyn FnMut()| time_ns(budget, f);
    let mut rows = Vec::new();
    for m in &mut models {
        // Both compute the same value and gradient.
        let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
        s.load_source(m.file, m.src)
            .unwrap_or_else(|e| panic!("{}: {}", m.file, s.render_error(&e)));
        let (v, grads) = s
            .gradient_of_call(m.call)
            .unwrap_or_else(|e| panic!("{}: {}", m.call, s.render_error(&e)));
        let mut ours = Vec::new();
        grads[1..].iter().for_each(|g| flatten(g, &mut ours));
        let mut theirs = vec![0.0; ours.len()];
        let rv = (m.grad)(&m.params, &mut theirs);
        let scale = theirs.iter().fold(1e-300_f64, |a, b| a.max(b.abs()));
        let v = v.as_f64().expect("a float");
        let worst = ours
            .iter()
            .zip(&theirs)
            .map(|(a, b)| (a - b).abs() / scale)
            .fold(0.0, f64::max);
        assert!(
            (v - rv).abs() <= 1e-9 * v.abs().max(1e-3) && worst <= 1e-7,
            "{}: mooncake {v} {ours:?}, Rust {rv} {theirs:?}",
            m.call
        );
        assert!((m.primal)(&m.params) == rv, "{}: Rust primal", m.call);
        let params = m.params.clone();
        let rust_primal = time(&mut || {
            black_box((m.primal)(black_box(&params)));
        });
        let rust_grad = time(&mut || {
            black_box((m.grad)(black_box(&params), &mut theirs));
        });
        let ours = bench(m.file, m.src, m.call, Backend::Native, budget)
            .unwrap_or_else(|e| panic!("{}: {e}", m.call));
        rows.push(Row {
            name: m.name,
            ours,
            rust_primal,
            rust_grad,
        });
    }
    let t = show_ns;
    println!("| model | our primal | Rust primal | our gradient | Rust gradient | our primal ÷ Rust primal | gradient ÷ our primal | our gradient ÷ Rust gradient | first gradient |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for r in &rows {
        let o = &r.ours;
        println!(
            "| {} | {} | {} | {} | {} | {:.2} | {:.2} | {:.2} | {:.1} ms |",
            r.name,
            t(o.primal_ns),
            t(r.rust_primal),
            t(o.reverse_ns),
            t(r.rust_grad),
            o.primal_ns / r.rust_primal,
            o.reverse_ns / o.primal_ns,
            o.reverse_ns / r.rust_grad,
            o.first_gradient_ms,
        );
    }
}
