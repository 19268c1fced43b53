//! The benchmarks' inputs and hand-written Rust versions of `examples/bench.jl`'s programs
//! (primal and value+gradient), shared by both bench targets.

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
