//! Threaded loops (`Threads.@threads`, `threaded_map!`) give what the same loops give run
//! serially — values and forward-mode gradients exactly, reverse-mode gradients and Hessians
//! (whose shares' cotangents of shared data are added per share) up to rounding, or exactly
//! where the shares' pullbacks run one after another — for 1, 2 and 4 threads on both
//! backends; an error inside iterations is reported and never hangs; repeated gradients are
//! identical.
//!
//! The number of threads is the process's, so the tests here take turns (`TURN`).

use mooncake::{set_threads, show, Backend, Session, Value};
use std::sync::Mutex;

static TURN: Mutex<()> = Mutex::new(());

const SRC: &str = r#"
const XS = [sin(0.3k) for k in 1:24]
loss_term(w, k) = (tanh(w[1] * XS[k] + w[2]) * w[3] - cos(0.1k))^2

function batch_threaded(w)
    losses = zeros(24)
    Threads.@threads for k in 1:24
        losses[k] = loss_term(w, k)
    end
    sum(losses)
end
function batch_serial(w)
    losses = zeros(24)
    for k in 1:24
        losses[k] = loss_term(w, k)
    end
    sum(losses)
end

struct Pt
    a::Float64
    b::Float64
end
function mapped_threaded(w)
    pts = [Pt(w[1] * k, w[2] - k) for k in 1:7]
    out = zeros(7)
    threaded_map!(p -> p.a * p.b + w[3] * p.a^2, out, pts)
    sum(out)
end
function mapped_serial(w)
    pts = [Pt(w[1] * k, w[2] - k) for k in 1:7]
    out = zeros(7)
    map!(p -> p.a * p.b + w[3] * p.a^2, out, pts)
    sum(out)
end

function per_thread(w)
    acc = zeros(Threads.nthreads())
    Threads.@threads :static for k in 1:24
        acc[Threads.threadid()] += loss_term(w, k)
    end
    sum(acc)
end

# Shared weights, a global array and a captured float read by every iteration.
const OFFSETS = [0.1 * k for k in 1:24]
function shared_threaded(w)
    c = w[3]^2
    out = zeros(24)
    Threads.@threads for k in 1:24
        out[k] = c * sin(w[1] * OFFSETS[k] + w[2]) + w[1] * w[2]
    end
    sum(out)
end
function shared_serial(w)
    c = w[3]^2
    out = zeros(24)
    for k in 1:24
        out[k] = c * sin(w[1] * OFFSETS[k] + w[2]) + w[1] * w[2]
    end
    sum(out)
end

# Weights in a mutable struct (its tangent is a mutable object), and a global mutable struct
# read by every iteration: the shares' pullbacks run one after another.
mutable struct Scale
    s::Float64
end
const GLOBAL_SCALE = Scale(1.5)
function mutable_threaded(w)
    p = Scale(w[1])
    out = zeros(24)
    Threads.@threads for k in 1:24
        out[k] = p.s * cos(w[2] * k) * GLOBAL_SCALE.s
    end
    sum(out)
end
function mutable_serial(w)
    p = Scale(w[1])
    out = zeros(24)
    for k in 1:24
        out[k] = p.s * cos(w[2] * k) * GLOBAL_SCALE.s
    end
    sum(out)
end
function global_threaded(w)
    out = zeros(24)
    Threads.@threads for k in 1:24
        out[k] = w[1] * GLOBAL_SCALE.s * k + w[3] * w[2]
    end
    sum(out)
end
function global_serial(w)
    out = zeros(24)
    for k in 1:24
        out[k] = w[1] * GLOBAL_SCALE.s * k + w[3] * w[2]
    end
    sum(out)
end

# Single precision, with the weights in a struct of vectors.
struct Weights32
    a::Vector{Float32}
    b::Vector{Float32}
end
function f32_threaded(w)
    p = Weights32(Float32.(w), Float32.(2 .* w))
    out = zeros(Float32, 24)
    Threads.@threads for k in 1:24
        out[k] = tanh(p.a[1] * k / 24 + p.b[2]) * p.a[3]
    end
    Float64(sum(out))
end
function f32_serial(w)
    p = Weights32(Float32.(w), Float32.(2 .* w))
    out = zeros(Float32, 24)
    for k in 1:24
        out[k] = tanh(p.a[1] * k / 24 + p.b[2]) * p.a[3]
    end
    Float64(sum(out))
end

function failing(n)
    x = zeros(5)
    Threads.@threads for i in 1:n
        x[i] = i
    end
    x
end
"#;

fn session(backend: Backend) -> Session {
    let mut s = Session::new().expect("prelude loads");
    s.set_backend(backend).expect("backend");
    s.load_source("threads.jl", SRC).expect("loads");
    s
}

/// Value and forward gradient of `f` at `w`, printed (exact: tangents travel forward, nothing
/// is accumulated); the reverse gradient, the Hessian's gradient and the Hessian (whose
/// cotangents add up per share).
fn derivatives(s: &mut Session, f: &str, w: &[f64]) -> (Vec<String>, Vec<f64>) {
    let fv = s.eval(f).expect("defined");
    let x = Value::from(w.to_vec());
    let (v, g) = s
        .value_and_gradient(&fv, std::slice::from_ref(&x))
        .expect("reverse");
    let (vf, gf) = s
        .value_and_gradient_forward(&fv, std::slice::from_ref(&x), 3)
        .expect("forward");
    let h = s.value_gradient_and_hessian(&fv, &x, 3).expect("hessian");
    let exact = vec![show(&v), show(&vf), show(&gf[1])];
    let mut summed = g[1].to_f64_vec().expect("a vector gradient");
    summed.extend(h.gradient);
    summed.extend(h.hessian.into_iter().flatten());
    (exact, summed)
}

/// Whether two gradients agree to relative tolerance `tol` (a few units in the last place).
fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| (x - y).abs() <= tol * (1.0 + x.abs().max(y.abs())))
}

/// The threaded and the serial version of a loop, compared; `exact`: the summed derivatives
/// too.
fn compare(s: &mut Session, name: &str, w: &[f64], exact: bool, what: &str) {
    let (t, gt) = derivatives(s, &format!("{name}_threaded"), w);
    let (u, gu) = derivatives(s, &format!("{name}_serial"), w);
    assert_eq!(t, u, "{name}: {what}");
    if exact {
        assert_eq!(gt, gu, "{name} summed: {what}");
    } else {
        // (`f32` loops compute in single precision.)
        let tol = if name.starts_with("f32") { 1e-6 } else { 1e-13 };
        assert!(
            close(&gt, &gu, tol),
            "{name} summed: {what}: {gt:?} vs {gu:?}"
        );
    }
}

#[test]
fn threaded_loops_match_serial_loops_for_any_thread_count() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let w = [0.7, -0.3, 1.4];
    let mut per_thread = Vec::new();
    for threads in [1, 2, 4] {
        set_threads(threads);
        for backend in [Backend::Native, Backend::Interpreter] {
            let mut s = session(backend);
            let what = format!("{threads} threads, {backend:?}");
            for name in ["batch", "mapped", "shared", "f32"] {
                compare(&mut s, name, &w, false, &what);
            }
            // Pullbacks that run one after another (a mutable tangent, a global's mutable
            // tangent) give the serial loop's gradient exactly.
            for name in ["mutable", "global"] {
                compare(&mut s, name, &w, true, &what);
            }
            // Accumulators per thread add in an order that depends on the thread count,
            // but not on the backend or the run.
            let d = derivatives(&mut s, "per_thread", &w);
            match backend {
                Backend::Native => per_thread.push(d),
                _ => {
                    let last = per_thread.last().expect("native ran first");
                    assert_eq!(d.0, last.0, "{what}");
                    assert!(close(&d.1, &last.1, 1e-13), "{what}");
                }
            }
        }
    }
    // With one thread, the accumulator loop is the serial sum.
    set_threads(1);
    let mut s = session(Backend::Native);
    let serial = derivatives(&mut s, "batch_serial", &w);
    assert_eq!(per_thread[0].0[0], serial.0[0]);
    assert_eq!(per_thread[0].1, serial.1);
}

#[test]
fn reverse_mode_says_which_loops_it_cannot_run_in_parallel() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    set_threads(2);
    let mut s = session(Backend::Native);
    let x = [Value::from(vec![0.7, -0.3, 1.4])];
    let gradient = |s: &mut Session, f: &str| {
        let fv = s.eval(f).expect("defined");
        s.value_and_gradient(&fv, &x).expect("reverse");
    };
    // Shared weights, a global array, per-thread accumulators, Float32 structs: parallel.
    for f in [
        "batch_threaded",
        "shared_threaded",
        "per_thread",
        "f32_threaded",
    ] {
        gradient(&mut s, f);
    }
    assert_eq!(s.ad_notices(), Vec::<String>::new());
    gradient(&mut s, "mutable_threaded");
    gradient(&mut s, "global_threaded");
    gradient(&mut s, "mapped_threaded");
    assert_eq!(
        s.ad_notices(),
        [
            "reverse mode of the threaded loop in `mutable_threaded` runs its shares one after another: its captured `p` holds a mutable struct",
            "reverse mode of the threaded loop in `global_threaded` runs its pullbacks one after another: an iteration reads a global holding a mutable struct (or an array of structs or arrays)",
            "reverse mode of the threaded loop in `threaded_map!` runs its shares one after another: its captured `x` holds an array of structs, tuples or arrays",
        ]
    );
}

#[test]
fn an_error_in_some_iterations_is_reported_on_every_backend() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    for threads in [1, 2, 4] {
        set_threads(threads);
        for backend in [Backend::Native, Backend::Interpreter] {
            let mut s = session(backend);
            let e = s.eval("failing(9)").expect_err("out of bounds");
            let text = s.render_error(&e);
            assert!(
                text.contains("TaskFailedException")
                    && text.contains(
                        "BoundsError: attempt to access 5-element Vector{Float64} at index [6]"
                    ),
                "{threads} threads, {backend:?}: {text}"
            );
            // The session is usable afterwards.
            assert_eq!(
                show(&s.eval("failing(5)").expect("runs")),
                "[1.0, 2.0, 3.0, 4.0, 5.0]"
            );
        }
    }
}

/// Repeats a threaded gradient through a prepared cache, `n` times, looking for any
/// difference between runs.
fn repeated_gradients_agree(n: usize) {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    set_threads(2);
    let mut s = session(Backend::Native);
    let x = [Value::from(vec![0.7, -0.3, 1.4])];
    for f in [
        "batch_threaded",
        "per_thread",
        "mapped_threaded",
        "shared_threaded",
        "f32_threaded",
    ] {
        let fv = s.eval(f).expect("defined");
        let cache = s.prepare_gradient_cache(&fv, &x).expect("cache");
        let first = s.value_and_gradient_cached(&cache, &x).expect("gradient");
        let first = (show(&first.0), show(&first.1[1]));
        let value = s.call_value(fv.clone(), x.to_vec()).expect("primal");
        assert_eq!(show(&value), first.0);
        for _ in 0..n {
            let (v, g) = s.value_and_gradient_cached(&cache, &x).expect("gradient");
            assert_eq!((show(&v), show(&g[1])), first, "{f}");
            let value = s.call_value(fv.clone(), x.to_vec()).expect("primal");
            assert_eq!(show(&value), first.0, "{f}");
        }
    }
}

#[test]
fn repeated_gradients_are_identical() {
    repeated_gradients_agree(50);
}

/// The same, 10^4 times (slow: `cargo test --release --test threads -- --ignored`).
#[test]
#[ignore]
fn stress_repeated_gradients_are_identical() {
    repeated_gradients_agree(10_000);
}
