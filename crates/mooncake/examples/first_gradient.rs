//! Time to first gradient in fresh sessions, for profilers (`perf`, `valgrind --tool=callgrind`):
//! `cargo run --release --example first_gradient -- FILE 'f(args)' [SESSIONS]` loads FILE into
//! a new session and takes one gradient, SESSIONS times, and prints the mean time of load and
//! first gradient (session start-up, which loads the prelude, is not counted) and of the
//! compile time in it, then the mean time of each compiler phase (`mooncake::timing`; with
//! `--untimed`, phases are not timed, as in `mooncake bench`).

// The same allocator as the `mooncake` command line.
#[global_allocator]
static ALLOCATOR: mooncake_alloc::Allocator = mooncake_alloc::Allocator;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let [_, file, call, rest @ ..] = args.as_slice() else {
        return Err("usage: first_gradient FILE 'f(args)' [SESSIONS] [--untimed]".into());
    };
    let untimed = rest.iter().any(|a| a == "--untimed");
    let sessions: usize = match rest.iter().find(|a| *a != "--untimed") {
        Some(n) => n.parse().map_err(|e| format!("SESSIONS: {e}"))?,
        None => 100,
    };
    let src = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    mooncake::timing::enable(!untimed);
    let mut total = std::time::Duration::ZERO;
    let mut compile = std::time::Duration::ZERO;
    let mut acc = std::collections::BTreeMap::new();
    let mut faults = 0;
    for _ in 0..sessions {
        let mut s = mooncake::Session::new().map_err(|e| e.to_string())?;
        mooncake::timing::take();
        let f0 = minor_faults();
        let t = std::time::Instant::now();
        let c0 = s.compile_stats().compile_ns;
        let n0 = s.native_stats().unwrap_or_default().compile_time;
        first_gradient(&mut s, file, &src, call)?;
        total += t.elapsed();
        faults += minor_faults() - f0;
        compile += std::time::Duration::from_nanos((s.compile_stats().compile_ns - c0) as u64)
            + (s.native_stats().unwrap_or_default().compile_time - n0);
        for (phase, d) in mooncake::timing::take() {
            *acc.entry(phase).or_insert(std::time::Duration::ZERO) += d;
        }
    }
    let ms = total.as_secs_f64() * 1e3 / sessions as f64;
    let cms = compile.as_secs_f64() * 1e3 / sessions as f64;
    let faults = faults / sessions.max(1) as u64;
    println!(
        "{ms:.2} ms per first gradient ({sessions} sessions), of which compiling {cms:.2} ms; \
         {faults} page faults"
    );
    for (phase, d) in acc {
        let ms = d.as_secs_f64() * 1e3 / sessions as f64;
        println!("  {phase:<20} {ms:.3} ms");
    }
    Ok(())
}

/// Minor page faults of this process so far (Linux; 0 elsewhere): touching memory or code for
/// the first time costs one each.
fn minor_faults() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which is in parentheses): the 8th is minflt.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    rest.split_whitespace()
        .nth(7)
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// Loads `src` and takes the gradient of `call`: the part of a session a profiler looks at.
#[inline(never)]
fn first_gradient(
    s: &mut mooncake::Session,
    name: &str,
    src: &str,
    call: &str,
) -> Result<(), String> {
    let show = |s: &mooncake::Session, e: mooncake::Error| s.render_error(&e);
    // What the compiler's phases leave of each step: running code, dispatch, set-up.
    use mooncake::timing::phase;
    phase("rest of loading", || s.load_source(name, src)).map_err(|e| show(s, e))?;
    let (f, a) = phase("rest of arguments", || s.eval_call_parts(call)).map_err(|e| show(s, e))?;
    let g = phase("rest of gradient", || s.value_and_gradient(&f, &a)).map_err(|e| show(s, e))?;
    std::hint::black_box(g);
    Ok(())
}
