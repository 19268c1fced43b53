//! The README's performance table, from one run: `cargo bench -p mooncake --bench programs`.
//!
//! For programs A (`s += cos(exp(x[n]))`) and B (`s += 5 * x[n]`), Rosenbrock, a naive
//! matrix multiply and `sum(A * B)` (`examples/bench.jl`), it measures our primal and reverse-mode
//! value+gradient (prepared cache, native code) with `mooncake::bench`, and a hand-written Rust
//! primal and hand-written value+gradient of the same loops with the same median timer, and
//! prints the ratios as a Markdown table. Set `MOONCAKE_BENCH_BUDGET` (seconds per median,
//! default 0.3) to trade time for stability.

use mooncake::bench::{bench, median_ns};
use mooncake::{Backend, Session};
use std::hint::black_box;

// The same allocator as the `mooncake` command line.
#[global_allocator]
static ALLOCATOR: mooncake_alloc::Allocator = mooncake_alloc::Allocator;

// Each bench target uses part of the shared versions.
#[allow(dead_code)]
mod common;
use common::*;

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
    let budget = budget();
    let src = include_str!("../../../examples/bench.jl");
    let mut rows = Vec::new();
    let mut run_in =
        |file: &str, src: &str, name: &str, call: &str, rust_primal: f64, rust_grad: f64| {
            let r = bench(file, src, call, Backend::Native, budget)
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
    let mut run = |name: &str, call: &str, rust_primal: f64, rust_grad: f64| {
        run_in("examples/bench.jl", src, name, call, rust_primal, rust_grad)
    };
    let time = |f: &mut dyn FnMut()| time_ns(budget, f);
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
    {
        let n = 64;
        let (a, b) = (ms(n), ms(n));
        let mut c = vec![0.0; n * n];
        let (mut ga, mut gb) = (vec![0.0; n * n], vec![0.0; n * n]);
        let rp = time(&mut || {
            black_box(matprod_primal(black_box(&a), black_box(&b), n, &mut c));
        });
        let rg = time(&mut || {
            black_box(matprod_grad(
                black_box(&a),
                black_box(&b),
                n,
                &mut c,
                &mut ga,
                &mut gb,
            ));
        });
        run("`sum(A * B)`, 64×64", "matprod_sum(ms(64), ms(64))", rp, rg);
    }
    // Dynamic dispatch and a fused broadcast, each beside the same
    // computation written with static types (in the language), from the same run.
    let pairs = [
        (
            "dynamic dispatch over a Vector{Any}, n = 10^4",
            "dyn_sum(anys(10000))",
            "dyn_sum(xs(10000))",
        ),
        (
            "fused broadcast then sum, n = 10^6",
            "fused(xs(1000000))",
            "fused_loop(xs(1000000))",
        ),
    ];
    let mut dynamic_rows = Vec::new();
    for (name, call, static_call) in pairs {
        let r = bench("examples/bench.jl", src, call, Backend::Native, budget)
            .unwrap_or_else(|e| panic!("{call}: {e}"));
        let s = bench(
            "examples/bench.jl",
            src,
            static_call,
            Backend::Native,
            budget,
        )
        .unwrap_or_else(|e| panic!("{static_call}: {e}"));
        dynamic_rows.push((name, r, s));
    }
    // The forward-mode gradient of a 16-input function (two 8-lane
    // passes), and Rosenbrock's Hessian by forward over reverse, beside the reverse gradient.
    let sixteen = bench(
        "examples/bench.jl",
        src,
        "sixteen(xs(16))",
        Backend::Native,
        budget,
    )
    .unwrap_or_else(|e| panic!("sixteen: {e}"));
    let mut hessian_rows = Vec::new();
    for n in [16usize, 256] {
        let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
        s.load_source("examples/bench.jl", src).expect("loads");
        let (f, args) = s
            .eval_call_parts(&format!("rosenbrock(xs({n}))"))
            .expect("call");
        let cache = s.prepare_gradient_cache(&f, &args).expect("cache");
        let grad = median_ns(budget, || {
            s.value_and_gradient_cached(&cache, &args).map(|_| ())
        })
        .expect("gradient");
        let hess = median_ns(budget, || {
            s.value_gradient_and_hessian(&f, &args[0], 8).map(|_| ())
        })
        .expect("hessian");
        hessian_rows.push((n, grad, hess));
    }
    println!("| program | our primal | Rust primal | our gradient | Rust gradient | gradient ÷ our primal | gradient ÷ Rust primal | our primal ÷ Rust primal | first gradient | compile (functions) |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let t = show_ns;
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
    println!();
    println!("| program | primal | statically typed primal | gradient | gradient ÷ primal | primal ÷ statically typed primal |");
    println!("|---|---|---|---|---|---|");
    for (name, r, st) in &dynamic_rows {
        println!(
            "| {} | {} | {} | {} | {:.2} | {:.2} |",
            name,
            t(r.primal_ns),
            t(st.primal_ns),
            t(r.reverse_ns),
            r.reverse_ns / r.primal_ns,
            r.primal_ns / st.primal_ns
        );
    }
    println!();
    let fwd = sixteen.forward_ns.unwrap_or(f64::NAN);
    println!("| forward mode | primal | forward gradient (2 passes of 8 lanes) | per pass ÷ primal | reverse gradient | reverse ÷ primal |");
    println!("|---|---|---|---|---|---|");
    println!(
        "| sixteen(x), 16 inputs | {} | {} | {:.2} | {} | {:.2} |",
        t(sixteen.primal_ns),
        t(fwd),
        fwd / 2.0 / sixteen.primal_ns,
        t(sixteen.reverse_ns),
        sixteen.reverse_ns / sixteen.primal_ns
    );
    println!();
    println!("| Hessian (forward over reverse, 8 columns per pass) | gradient | Hessian | Hessian ÷ gradient |");
    println!("|---|---|---|---|");
    for (n, g, h) in &hessian_rows {
        println!(
            "| Rosenbrock, n = {n} | {} | {} | {:.1} |",
            t(*g),
            t(*h),
            h / g
        );
    }
}
