//! Repeated gradients through a prepared cache, for profilers (`perf`, `valgrind --tool=callgrind`):
//! `cargo run --release --example gradient_loop -- FILE 'f(args)' [ITERATIONS]` prints the mean
//! time per gradient (reverse mode; forward mode in passes of 8 lanes with
//! `MOONCAKE_FORWARD=1`; the Hessian of a one-argument function, 8 columns per pass, with
//! `MOONCAKE_HESSIAN=1`; the primal call alone with `MOONCAKE_PRIMAL=1`), on
//! `MOONCAKE_NUM_THREADS` threads if set.

// The same allocator as the `mooncake` command line.
#[global_allocator]
static ALLOCATOR: mooncake_alloc::Allocator = mooncake_alloc::Allocator;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let [_, file, call, rest @ ..] = args.as_slice() else {
        return Err("usage: gradient_loop FILE 'f(args)' [ITERATIONS]".into());
    };
    let iters: usize = match rest.first() {
        Some(n) => n.parse().map_err(|e| format!("ITERATIONS: {e}"))?,
        None => 100_000,
    };
    if let Ok(n) = std::env::var("MOONCAKE_NUM_THREADS") {
        let n: usize = n
            .parse()
            .map_err(|e| format!("MOONCAKE_NUM_THREADS: {e}"))?;
        mooncake::set_threads(n.clamp(1, 1024));
    }
    let mut s = mooncake::Session::new().map_err(|e| e.to_string())?;
    let show = |s: &mooncake::Session, e: mooncake::Error| s.render_error(&e);
    s.load_file(std::path::Path::new(file))
        .map_err(|e| show(&s, e))?;
    let (f, a) = s.eval_call_parts(call).map_err(|e| show(&s, e))?;
    if std::env::var_os("MOONCAKE_PRIMAL").is_some() {
        // A prepared call, as `mooncake bench` times the primal.
        let call = s.prepare_call(&f, &a).map_err(|e| show(&s, e))?;
        time(iters, "primal call", || {
            let r = s.call_prepared(&call, &a);
            std::hint::black_box(r.map_err(|e| show(&s, e))?);
            Ok(())
        })
    } else if std::env::var_os("MOONCAKE_HESSIAN").is_some() {
        let x = a.first().cloned().ok_or("a Hessian needs one argument")?;
        time(iters, "Hessian", || {
            let r = s.value_gradient_and_hessian(&f, &x, 8);
            std::hint::black_box(r.map_err(|e| show(&s, e))?);
            Ok(())
        })
    } else if std::env::var_os("MOONCAKE_FORWARD").is_some() {
        let cache = s
            .prepare_derivative_cache(&f, &a, 8)
            .map_err(|e| show(&s, e))?;
        time(iters, "forward-mode gradient", || {
            let r = s.value_and_gradient_forward_cached(&cache, &a);
            std::hint::black_box(r.map_err(|e| show(&s, e))?);
            Ok(())
        })
    } else {
        let cache = s.prepare_gradient_cache(&f, &a).map_err(|e| show(&s, e))?;
        time(iters, "gradient", || {
            let r = s.value_and_gradient_cached(&cache, &a);
            std::hint::black_box(r.map_err(|e| show(&s, e))?);
            Ok(())
        })
    }
}

/// Runs `one` `iters` times and prints the mean time per run.
fn time(
    iters: usize,
    what: &str,
    mut one: impl FnMut() -> Result<(), String>,
) -> Result<(), String> {
    let t = std::time::Instant::now();
    for _ in 0..iters {
        one()?;
    }
    let ns = t.elapsed().as_nanos() as f64 / iters as f64;
    println!("{ns:.1} ns per {what} ({iters} gradients)");
    Ok(())
}
