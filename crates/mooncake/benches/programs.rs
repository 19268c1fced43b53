//! The README's performance table, from one run: `cargo bench -p mooncake --bench programs`.
//!
//! For the seeds' programs A (`s += cos(exp(x[n]))`) and B (`s += 5 * x[n]`), Rosenbrock and a
//! naive matrix multiply (`examples/bench.jl`), it measures our primal and reverse-mode
//! value+gradient (prepared cache, native code) with `mooncake::bench`, and a hand-written Rust
//! primal and hand-written value+gradient of the same loops with the same median timer, and
//! prints the ratios as a Markdown table. Set `MOONCAKE_BENCH_BUDGET` (seconds per median,
//! default 0.3) to trade time for stability.

use mooncake::bench::{bench, median_ns};
use mooncake::Backend;
use std::hint::black_box;
use std::time::Duration;

fn xs(n: usize) -> Vec<f64> {
    (1..=n).map(|i| 0.5 * (i as f64).sin()).collect()
}

/// Column-major n×n, as `ms(n)` in examples/bench.jl.
fn ms(n: usize) -> Vec<f64> {
    let mut a = vec![0.0; n * n];
    for j in 1..=n {
        for i in 1..=n {
            a[(i - 1) + (j - 1) * n] = 0.5 * ((i + n * j) as f64).sin();
        }
    }
    a
}

fn a_primal(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += v.exp().cos();
    }
    s
}

fn a_grad(x: &[f64], g: &mut [f64]) -> f64 {
    let mut s = 0.0;
    for (v, gi) in x.iter().zip(g.iter_mut()) {
        let e = v.exp();
        s += e.cos();
        *gi = -e.sin() * e;
    }
    s
}

fn b_primal(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x {
        s += 5.0 * v;
    }
    s
}

fn b_grad(x: &[f64], g: &mut [f64]) -> f64 {
    let mut s = 0.0;
    for (v, gi) in x.iter().zip(g.iter_mut()) {
        s += 5.0 * v;
        *gi = 5.0;
    }
    s
}

fn rosen_primal(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        s += 100.0 * a * a + b * b;
    }
    s
}

fn rosen_grad(x: &[f64], g: &mut [f64]) -> f64 {
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

fn matmul_primal(a: &[f64], b: &[f64], n: usize, c: &mut [f64]) -> f64 {
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
fn matmul_grad(
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

struct Row {
    name: String,
    ours_primal: f64,
    ours_grad: f64,
    rust_primal: f64,
    rust_grad: f64,
    first_ms: f64,
    compile_ms: f64,
    functions: usize,
}

fn main() {
    let budget = std::env::var("MOONCAKE_BENCH_BUDGET")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(0.3);
    let budget = Duration::from_secs_f64(budget);
    let src = include_str!("../../../examples/bench.jl");
    let mut rows = Vec::new();
    let mut run = |name: &str, call: &str, rust_primal: f64, rust_grad: f64| {
        let r = bench("examples/bench.jl", src, call, Backend::Native, budget)
            .unwrap_or_else(|e| panic!("{call}: {e}"));
        rows.push(Row {
            name: name.to_string(),
            ours_primal: r.primal_ns,
            ours_grad: r.reverse_ns,
            rust_primal,
            rust_grad,
            first_ms: r.first_gradient_ms,
            compile_ms: r.compile_ms,
            functions: r.native_functions,
        });
    };
    let time = |f: &mut dyn FnMut()| -> f64 {
        median_ns::<()>(budget, || {
            f();
            Ok(())
        })
        .unwrap_or(f64::NAN)
    };
    for n in [1024usize, 1_000_000] {
        let x = xs(n);
        let mut g = vec![0.0; n];
        let rp = time(&mut || {
            black_box(a_primal(black_box(&x)));
        });
        let rg = time(&mut || {
            black_box(a_grad(black_box(&x), &mut g));
        });
        run(
            &format!("A, n = {n}"),
            &format!("program_a(xs({n}))"),
            rp,
            rg,
        );
        let rp = time(&mut || {
            black_box(b_primal(black_box(&x)));
        });
        let rg = time(&mut || {
            black_box(b_grad(black_box(&x), &mut g));
        });
        run(
            &format!("B, n = {n}"),
            &format!("program_b(xs({n}))"),
            rp,
            rg,
        );
        let rp = time(&mut || {
            black_box(rosen_primal(black_box(&x)));
        });
        let rg = time(&mut || {
            black_box(rosen_grad(black_box(&x), &mut g));
        });
        run(
            &format!("Rosenbrock, n = {n}"),
            &format!("rosenbrock(xs({n}))"),
            rp,
            rg,
        );
    }
    for n in [32usize, 64] {
        let (a, b) = (ms(n), ms(n));
        let mut c = vec![0.0; n * n];
        let (mut ga, mut gb) = (vec![0.0; n * n], vec![0.0; n * n]);
        let rp = time(&mut || {
            black_box(matmul_primal(black_box(&a), black_box(&b), n, &mut c));
        });
        let rg = time(&mut || {
            black_box(matmul_grad(
                black_box(&a),
                black_box(&b),
                n,
                &mut c,
                &mut ga,
                &mut gb,
            ));
        });
        run(
            &format!("matmul, {n}×{n}"),
            &format!("matmul_sum(ms({n}), ms({n}))"),
            rp,
            rg,
        );
    }
    println!("| program | our primal | Rust primal | our gradient | Rust gradient | gradient ÷ our primal | gradient ÷ Rust primal | our primal ÷ Rust primal | first gradient | compile (functions) |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let t = |ns: f64| {
        if ns >= 1e6 {
            format!("{:.2} ms", ns / 1e6)
        } else {
            format!("{:.1} µs", ns / 1e3)
        }
    };
    for r in &rows {
        println!(
            "| {} | {} | {} | {} | {} | {:.2} | {:.2} | {:.2} | {:.1} ms | {:.1} ms ({}) |",
            r.name,
            t(r.ours_primal),
            t(r.rust_primal),
            t(r.ours_grad),
            t(r.rust_grad),
            r.ours_grad / r.ours_primal,
            r.ours_grad / r.rust_primal,
            r.ours_primal / r.rust_primal,
            r.first_ms,
            r.compile_ms,
            r.functions
        );
    }
}
