//! The derived-program battery: every `tests/gradients/*.jl` program's (and every example
//! model's, `examples/models/*.jl` and `examples/bench_models.jl`) `# check: CALL` lines
//! run `test_rule` on that call (interface, central finite differences, increments, argument
//! restoration, reuse) with the verifier on after every pass, in native code (the default);
//! and the value and gradient of each call from native code and from the interpreter agree
//! (identical values, gradients within 1e-12 relative). `test_rule` checks forward mode too;
//! beyond it, the chunked forward-mode gradient (3 lanes per pass) agrees with reverse mode's
//! (within 1e-9 relative) and with the interpreter's forward-mode gradient (within 1e-12).
//! One test per program. A check line may end in `=> VALUE`: the value Julia prints for the call, which both
//! backends must print (a wrong value has a consistent wrong gradient, so finite differences
//! alone cannot catch it).

use mooncake::{algorithms_rtol, tangent_approx_eq, Backend, Session};
use std::path::Path;

/// Runs every `# check:` line of one battery program; the failures, if any, in one message.
fn check(path: &Path) -> Result<(), String> {
    let (name, src) = testkit::read(path)?;
    let mut failures = Vec::new();
    let mut checked = 0;
    {
        let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
        s.set_verify(true);
        if let Err(e) = s.load_source(&name, &src) {
            return Err(s.render_error(&e));
        }
        let mut si = Session::with_output(Box::new(std::io::sink())).expect("prelude");
        si.set_backend(Backend::Interpreter).expect("interpreter");
        if let Err(e) = si.load_source(&name, &src) {
            return Err(format!("(interpreter) {}", si.render_error(&e)));
        }
        for line in src.lines().filter_map(|l| l.strip_prefix("# check: ")) {
            let (call, julia_value) = match line.split_once(" => ") {
                Some((call, value)) => (call.trim(), Some(value.trim())),
                None => (line.trim(), None),
            };
            checked += 1;
            match s.test_rule(call) {
                Ok(r) if r.passed() => {}
                Ok(r) => failures.push(format!("{name}: {call}\n{}", r.render())),
                Err(e) => failures.push(format!("{name}: {call}\n{}", s.render_error(&e))),
            }
            match (s.gradient_of_call(call), si.gradient_of_call(call)) {
                (Ok((y, g)), Ok((yi, gi))) => {
                    let (y, yi) = (mooncake::show(&y), mooncake::show(&yi));
                    let close = g.len() == gi.len()
                        && g.iter()
                            .zip(&gi)
                            .all(|(a, b)| tangent_approx_eq(a, b, 1e-12, 1e-300));
                    if let Some(want) = julia_value.filter(|want| *want != y) {
                        failures.push(format!("{name}: {call}: value {y}, Julia gives {want}"));
                    }
                    if y != yi || !close {
                        let show = |g: &[mooncake::Value]| {
                            g.iter().map(mooncake::show).collect::<Vec<_>>().join(", ")
                        };
                        failures.push(format!(
                            "{name}: {call}: backends disagree\nnative:      {y}; {}\ninterpreter: {yi}; {}",
                            show(&g),
                            show(&gi)
                        ));
                    }
                }
                (Err(e), _) => failures.push(format!("{name}: {call}\n{}", s.render_error(&e))),
                (_, Err(e)) => failures.push(format!("{name}: {call}\n{}", si.render_error(&e))),
            }
            let forward = |s: &mut Session| {
                s.eval_call_parts(call)
                    .and_then(|(f, args)| s.value_and_gradient_forward(&f, &args, 3))
            };
            match (s.gradient_of_call(call), forward(&mut s), forward(&mut si)) {
                (Ok((_, g)), Ok((_, gf)), Ok((_, gfi))) => {
                    let close = |a: &[mooncake::Value], b: &[mooncake::Value], tol: f64| {
                        a.len() == b.len()
                            && a.iter()
                                .zip(b)
                                .all(|(x, y)| tangent_approx_eq(x, y, tol, 1e-12))
                    };
                    // Reverse and forward mode are different algorithms: `Float32` gradients
                    // agree to single precision only.
                    let modes = g
                        .iter()
                        .zip(&gf)
                        .all(|(x, y)| tangent_approx_eq(x, y, algorithms_rtol(x, 1e-9), 1e-12));
                    if g.len() != gf.len() || !modes || !close(&gf, &gfi, 1e-12) {
                        let show = |g: &[mooncake::Value]| {
                            g.iter().map(mooncake::show).collect::<Vec<_>>().join(", ")
                        };
                        failures.push(format!(
                            "{name}: {call}: modes disagree\nreverse:                 {}\nforward:                 {}\nforward (interpreter):   {}",
                            show(&g),
                            show(&gf),
                            show(&gfi)
                        ));
                    }
                }
                (Err(e), _, _) | (_, Err(e), _) => {
                    failures.push(format!("{name}: {call} (forward)\n{}", s.render_error(&e)))
                }
                (_, _, Err(e)) => failures.push(format!(
                    "{name}: {call} (forward, interpreter)\n{}",
                    si.render_error(&e)
                )),
            }
        }
    }
    if checked == 0 {
        return Err("no `# check:` line".into());
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{} of {checked} checks failed:\n\n{}",
            failures.len(),
            failures.join("\n\n")
        ))
    }
}

fn main() {
    // Threaded loops divide their iterations among 4 threads whatever the machine has, so
    // what a program prints does not depend on it.
    mooncake::set_threads(4);
    // The example models and the benchmark's models are checked the same way: each has a
    // `# check:` line for the call its header shows.
    testkit::run_paths(
        &[
            "tests/gradients",
            "examples/models",
            "examples/bench_models.jl",
        ],
        "jl",
        check,
    )
}
