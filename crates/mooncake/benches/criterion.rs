//! Criterion benchmarks of `examples/bench.jl`'s programs: `cargo bench -p mooncake --bench
//! criterion`.
//!
//! Each group (program A, program B, Rosenbrock at n = 1024 and 10^6, naive matrix multiply at
//! 32×32 and 64×64, `sum(A * B)` on the product kernel and a perceptron on a batch) times four things on the same input: our primal (a prepared call,
//! `Session::call_prepared`, native code), our value+gradient with a prepared cache, and the
//! hand-written Rust primal and value+gradient. Criterion gives confidence intervals per
//! function; the README's table of ratios comes from the one-run harness `benches/programs.rs`.

// Each bench target uses part of the shared versions.
#[allow(dead_code)]
mod common;

use common::*;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use mooncake::{Backend, Session};
use std::hint::black_box;

/// A session with `examples/bench.jl` and `examples/bench_gp.jl` loaded (native code) and the
/// parts of `call`.
fn prepared(call: &str) -> (Session, mooncake::Value, Vec<mooncake::Value>) {
    let mut s = Session::with_output(Box::new(std::io::sink())).expect("session");
    s.set_backend(Backend::Native).expect("native backend");
    for (file, src) in [
        (
            "examples/bench.jl",
            include_str!("../../../examples/bench.jl"),
        ),
        (
            "examples/bench_gp.jl",
            include_str!("../../../examples/bench_gp.jl"),
        ),
    ] {
        s.load_source(file, src)
            .unwrap_or_else(|e| panic!("{}", s.render_error(&e)));
    }
    let (f, args) = s
        .eval_call_parts(call)
        .unwrap_or_else(|e| panic!("{}", s.render_error(&e)));
    (s, f, args)
}

/// Adds our primal and gradient of `call` to group `c` under `label`.
fn ours(
    c: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    label: &str,
    call: &str,
) {
    let (mut s, f, args) = prepared(call);
    let primal = s.prepare_call(&f, &args).expect("prepared call");
    c.bench_function(BenchmarkId::new("ours primal", label), |b| {
        b.iter(|| black_box(s.call_prepared(&primal, &args).expect("primal")))
    });
    let cache = s.prepare_gradient_cache(&f, &args).expect("gradient cache");
    c.bench_function(BenchmarkId::new("ours gradient", label), |b| {
        b.iter(|| {
            black_box(
                s.value_and_gradient_cached(&cache, &args)
                    .expect("gradient"),
            )
        })
    });
}

fn vectors(c: &mut Criterion) {
    type Primal = fn(&[f64]) -> f64;
    type Grad = fn(&[f64], &mut [f64]) -> f64;
    let programs: [(&str, &str, Primal, Grad); 3] = [
        ("A", "program_a", a_primal, a_grad),
        ("B", "program_b", b_primal, b_grad),
        ("Rosenbrock", "rosenbrock", rosen_primal, rosen_grad),
    ];
    for (name, fname, primal, grad) in programs {
        let mut g = c.benchmark_group(name);
        for n in [1024usize, 1_000_000] {
            if n > 1024 {
                g.sample_size(10);
            }
            let label = format!("n = {n}");
            ours(&mut g, &label, &format!("{fname}(xs({n}))"));
            let x = xs(n);
            let mut gx = vec![0.0; n];
            g.bench_function(BenchmarkId::new("Rust primal", &label), |b| {
                b.iter(|| black_box(primal(black_box(&x))))
            });
            g.bench_function(BenchmarkId::new("Rust gradient", &label), |b| {
                b.iter(|| black_box(grad(black_box(&x), &mut gx)))
            });
        }
        g.finish();
    }
}

fn matmul(c: &mut Criterion) {
    let mut g = c.benchmark_group("matmul");
    for n in [32usize, 64] {
        let label = format!("{n}×{n}");
        ours(&mut g, &label, &format!("matmul_sum(ms({n}), ms({n}))"));
        let (a, b) = (ms(n), ms(n));
        let mut cm = vec![0.0; n * n];
        let (mut ga, mut gb) = (vec![0.0; n * n], vec![0.0; n * n]);
        g.bench_function(BenchmarkId::new("Rust primal", &label), |bch| {
            bch.iter(|| black_box(matmul_primal(black_box(&a), black_box(&b), n, &mut cm)))
        });
        g.bench_function(BenchmarkId::new("Rust gradient", &label), |bch| {
            bch.iter(|| {
                black_box(matmul_grad(
                    black_box(&a),
                    black_box(&b),
                    n,
                    &mut cm,
                    &mut ga,
                    &mut gb,
                ))
            })
        });
    }
    g.finish();
}

fn matrix_kernel(c: &mut Criterion) {
    let mut g = c.benchmark_group("matrix kernel");
    let n = 64;
    let label = "sum(A * B), 64×64";
    ours(&mut g, label, "matprod_sum(ms(64), ms(64))");
    let (a, b) = (ms(n), ms(n));
    let mut cm = vec![0.0; n * n];
    let (mut ga, mut gb) = (vec![0.0; n * n], vec![0.0; n * n]);
    g.bench_function(BenchmarkId::new("Rust primal", label), |bch| {
        bch.iter(|| black_box(matprod_primal(black_box(&a), black_box(&b), n, &mut cm)))
    });
    g.bench_function(BenchmarkId::new("Rust gradient", label), |bch| {
        bch.iter(|| {
            black_box(matprod_grad(
                black_box(&a),
                black_box(&b),
                n,
                &mut cm,
                &mut ga,
                &mut gb,
            ))
        })
    });
    let label = "MLP, batch of 64";
    ours(&mut g, label, "mlp_batch(w1(), batch())");
    let [w1, x, y, w2] = mlp_inputs();
    let (mut h, mut p) = (vec![0.0; 64 * 64], vec![0.0; 8 * 64]);
    let mut gm = MlpGrad::new();
    g.bench_function(BenchmarkId::new("Rust primal", label), |bch| {
        bch.iter(|| black_box(mlp_primal(black_box(&w1), &x, &y, &w2, &mut h, &mut p)))
    });
    g.bench_function(BenchmarkId::new("Rust gradient", label), |bch| {
        bch.iter(|| black_box(mlp_grad(black_box(&w1), &x, &y, &w2, &mut gm)))
    });
    let label = "Gaussian-process likelihood, 64 points";
    ours(&mut g, label, "gp_nlml([0.0, 0.0])");
    let (gx, gy) = gp_data();
    let mut gw = GpWork::new(gx.len());
    g.bench_function(BenchmarkId::new("Rust primal", label), |bch| {
        bch.iter(|| black_box(gp_primal(black_box([0.0, 0.0]), &gx, &gy, &mut gw)))
    });
    g.bench_function(BenchmarkId::new("Rust gradient", label), |bch| {
        bch.iter(|| black_box(gp_grad(black_box([0.0, 0.0]), &gx, &gy, &mut gw)))
    });
    g.finish();
}

criterion_group!(benches, vectors, matmul, matrix_kernel);
criterion_main!(benches);
