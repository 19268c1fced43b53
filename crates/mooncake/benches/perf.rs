//! Three quick measurements, printed: for program A (`s += cos(exp(x[n]))`, n = 1024) on each
//! backend, the gradient time ÷ the primal time; the time to the first gradient of a 20-line
//! function; and 10^6 inserts into a `Dict{Int, Float64}` ÷ the same inserts into a Rust
//! `HashMap`. Run with `cargo bench -p mooncake --bench perf`.

use mooncake::{ArrayObj, Backend, Session, SharedArray, Value};
use std::time::Instant;

const PROGRAM_A: &str = "function a(x)\n    s = 0.0\n    for n in eachindex(x)\n        s += cos(exp(x[n]))\n    end\n    s\nend\n";

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn program_a_gradient_over_primal() {
    for backend in [Backend::Native, Backend::Interpreter] {
        let mut s = Session::with_output(Box::new(std::io::sink())).unwrap();
        s.set_backend(backend).unwrap();
        s.set_verify(false);
        s.load_source("a.jl", PROGRAM_A).unwrap();
        let f = s.eval("a").unwrap();
        let x = Value::Array(SharedArray::new(ArrayObj::vector_f64(
            (0..1024).map(|i| (i as f64) / 1024.0).collect(),
        )));
        let args = vec![x];
        let cache = s.prepare_gradient_cache(&f, &args).unwrap();
        let mut tp = Vec::new();
        let mut tg = Vec::new();
        for _ in 0..15 {
            let t = Instant::now();
            s.call_value(f.clone(), args.clone()).unwrap();
            tp.push(t.elapsed().as_secs_f64());
            let t = Instant::now();
            s.value_and_gradient_cached(&cache, &args).unwrap();
            tg.push(t.elapsed().as_secs_f64());
        }
        let (p, g) = (median(tp), median(tg));
        println!(
            "program A, n = 1024, {backend:?}: primal {:.3} ms, value+gradient {:.3} ms, ratio {:.2}",
            p * 1e3,
            g * 1e3,
            g / p
        );
    }
}

fn time_to_first_gradient() {
    let src = "function f(x, y)\n    s = 0.0\n    for i in 1:length(x)\n        a = x[i] * y\n        if a > 0.0\n            s += sin(a) * exp(-a)\n        else\n            s -= a^2\n        end\n    end\n    t = s * y\n    u = t / (1 + t^2)\n    v = u + log1p(u^2)\n    for k in 1:3\n        v = v * 0.5 + sqrt(1 + v^2)\n    end\n    w = tanh(v) * x[1]\n    w = w + 0.0\n    return w + s\nend\n";
    assert_eq!(src.lines().count(), 20);
    let mut times = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        let mut s = Session::with_output(Box::new(std::io::sink())).unwrap();
        s.set_verify(false);
        let after_prelude = t.elapsed().as_secs_f64();
        s.load_source("f.jl", src).unwrap();
        let (_, _g) = s.gradient_of_call("f([0.5, -1.0, 2.0], 0.7)").unwrap();
        times.push((after_prelude, t.elapsed().as_secs_f64()));
    }
    let prelude = median(times.iter().map(|t| t.0).collect());
    let total = median(times.iter().map(|t| t.1).collect());
    println!("time to first gradient of a 20-line function: {:.1} ms after the prelude ({:.1} ms including the prelude)", (total - prelude) * 1e3, total * 1e3);
}

const DICT_INSERTS: &str = "function inserts(n)\n    d = Dict{Int,Float64}()\n    for i in 1:n\n        d[i * 7919] = 1.0\n    end\n    d[7919] * length(d)\nend\n";

fn dictionary_inserts() {
    let n: i64 = 1_000_000;
    let mut s = Session::with_output(Box::new(std::io::sink())).unwrap();
    s.set_verify(false);
    s.load_source("inserts.jl", DICT_INSERTS).unwrap();
    let f = s.eval("inserts").unwrap();
    let args = vec![Value::Int(n)];
    s.call_value(f.clone(), args.clone()).unwrap();
    let mut ours = Vec::new();
    let mut rust = Vec::new();
    for _ in 0..7 {
        let t = Instant::now();
        s.call_value(f.clone(), args.clone()).unwrap();
        ours.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let mut d = std::collections::HashMap::<i64, f64>::new();
        for i in 1..=n {
            d.insert(i * 7919, 1.0);
        }
        std::hint::black_box(d[&7919] * d.len() as f64);
        rust.push(t.elapsed().as_secs_f64());
    }
    let (o, r) = (median(ours), median(rust));
    println!(
        "10^6 Dict inserts: {:.1} ms, Rust HashMap {:.1} ms, ratio {:.2}",
        o * 1e3,
        r * 1e3,
        o / r
    );
}

fn main() {
    program_a_gradient_over_primal();
    time_to_first_gradient();
    dictionary_inserts();
}
