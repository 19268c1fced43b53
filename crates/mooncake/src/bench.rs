//! `mooncake bench`: medians of the primal, of reverse-mode value+gradient and of the
//! forward-mode gradient (8 directions per pass), each with a prepared cache, time to first
//! gradient in a fresh session, and compile time — measured in one run so that the ratios
//! compare like with like.

use crate::{Backend, Error, Session};
use std::time::{Duration, Instant};

/// `bench` times the forward-mode gradient of functions with at most this many input
/// directions (float entries of the arguments): 32 passes of 8 lanes.
pub const MAX_FORWARD_DIRECTIONS: usize = 256;

/// The figures of one benchmark (times per call; medians over repeated batches).
#[derive(Debug, Clone)]
pub struct BenchReport {
    /// The primal call.
    pub primal_ns: f64,
    /// Reverse-mode value and gradient through a prepared cache.
    pub reverse_ns: f64,
    /// Forward-mode gradient through a prepared cache, 8 input directions per pass (`None`
    /// when the function has no forward rule or more than [`MAX_FORWARD_DIRECTIONS`] input
    /// directions).
    pub forward_ns: Option<f64>,
    /// A fresh session (prelude loaded): load the source, then the first gradient.
    pub first_gradient_ms: f64,
    /// Of that: compiling (parse, inference, optimisation, AD derivation, native code).
    pub compile_ms: f64,
    /// Functions compiled to native code for the first gradient.
    pub native_functions: usize,
    pub backend: Backend,
}

impl BenchReport {
    pub fn ratio_reverse(&self) -> f64 {
        self.reverse_ns / self.primal_ns
    }

    pub fn ratio_forward(&self) -> Option<f64> {
        self.forward_ns.map(|f| f / self.primal_ns)
    }

    /// The JSON object of `mooncake bench --json`.
    pub fn to_json(&self) -> String {
        let num = |x: Option<f64>| match x {
            Some(x) if x.is_finite() => serde_json::json!(x),
            _ => serde_json::Value::Null,
        };
        serde_json::json!({
            "primal_ns": num(Some(self.primal_ns)),
            "reverse_ns": num(Some(self.reverse_ns)),
            "forward_ns": num(self.forward_ns),
            "first_gradient_ms": num(Some(self.first_gradient_ms)),
            "compile_ms": num(Some(self.compile_ms)),
            "ratio_reverse": num(Some(self.ratio_reverse())),
            "ratio_forward": num(self.ratio_forward()),
        })
        .to_string()
    }
}

/// The median time per call of `run` in nanoseconds, over batches of calls sized to take
/// about a millisecond each, for about `budget` in all (at least 5 batches). Used for our code
/// and for hand-written baselines alike, so that their ratios are like for like.
pub fn median_ns<E>(budget: Duration, mut run: impl FnMut() -> Result<(), E>) -> Result<f64, E> {
    let mut batch = 1usize;
    loop {
        let t = Instant::now();
        for _ in 0..batch {
            run()?;
        }
        if t.elapsed() >= Duration::from_micros(1000) || batch >= 1 << 20 {
            break;
        }
        batch *= 2;
    }
    let start = Instant::now();
    let mut samples = Vec::new();
    while samples.len() < 5 || (start.elapsed() < budget && samples.len() < 101) {
        let t = Instant::now();
        for _ in 0..batch {
            run()?;
        }
        samples.push(t.elapsed().as_nanos() as f64 / batch as f64);
    }
    samples.sort_by(|a, b| a.total_cmp(b));
    Ok(samples[samples.len() / 2])
}

/// Benchmarks `call` in the program `src` (named `name`) on `backend`; `budget` bounds the
/// time spent on each median. Errors come rendered, with their source locations.
pub fn bench(
    name: &str,
    src: &str,
    call: &str,
    backend: Backend,
    budget: Duration,
) -> Result<BenchReport, String> {
    let mut s = Session::with_output(Box::new(std::io::sink())).map_err(|e| e.to_string())?;
    s.set_backend(backend).map_err(|e| e.to_string())?;
    let fail = |s: &Session, e: Error| s.render_error(&e);
    // Time to first gradient, in this fresh session.
    let c0 = s.compiler().stats.compile_ns;
    let n0 = s.native_stats().unwrap_or_default();
    let t0 = Instant::now();
    if let Err(e) = s.load_source(name, src) {
        return Err(fail(&s, e));
    }
    if let Err(e) = s.gradient_of_call(call) {
        return Err(fail(&s, e));
    }
    let first_gradient_ms = t0.elapsed().as_secs_f64() * 1e3;
    let n1 = s.native_stats().unwrap_or_default();
    let compile_ms = (s.compiler().stats.compile_ns - c0) as f64 / 1e6
        + (n1.compile_time - n0.compile_time).as_secs_f64() * 1e3;
    let (f, args) = s.eval_call_parts(call).map_err(|e| fail(&s, e))?;
    let mut all = vec![f.clone()];
    all.extend(args.iter().cloned());
    let primal = s.prepare_call(&f, &args).map_err(|e| fail(&s, e))?;
    let primal_ns = {
        let s = &mut s;
        median_ns(budget, || s.call_prepared(&primal, &args).map(|_| ()))
    }
    .map_err(|e| fail(&s, e))?;
    let cache = s
        .prepare_gradient_cache(&f, &args)
        .map_err(|e| fail(&s, e))?;
    let reverse_ns = {
        let s = &mut s;
        median_ns(budget, || {
            s.value_and_gradient_cached(&cache, &args).map(|_| ())
        })
    }
    .map_err(|e| fail(&s, e))?;
    // Forward mode costs a pass per 8 input directions: measured up to `MAX_FORWARD_DIRECTIONS`.
    let directions = ad::input_directions(&f, &args, &s.compiler().env);
    let forward = if directions <= MAX_FORWARD_DIRECTIONS {
        s.prepare_derivative_cache(&f, &args, 8).ok()
    } else {
        None
    };
    let forward_ns = match forward {
        Some(fc) => {
            let s = &mut s;
            Some(median_ns(budget, || {
                s.value_and_gradient_forward_cached(&fc, &args).map(|_| ())
            }))
        }
        None => None,
    }
    .transpose()
    .map_err(|e| fail(&s, e))?;
    Ok(BenchReport {
        primal_ns,
        reverse_ns,
        forward_ns,
        first_gradient_ms,
        compile_ms,
        native_functions: n1.functions - n0.functions,
        backend,
    })
}
