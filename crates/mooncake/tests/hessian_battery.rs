//! The Hessian battery: every `tests/hessians/*.jl` program's `# hessian: CALL` lines compute
//! the value, gradient and Hessian of a function of one float or float vector by
//! forward-over-reverse (3 columns per pass, so chunks are full and padded), and check them
//! against central finite differences of reverse-mode gradients, against reverse mode's
//! gradient, for symmetry, and against the same computation in the interpreter. One test per
//! program.

mod common;

use common::floats;
use mooncake::{ArrayObj, Backend, Session, SharedArray, Value};
use std::path::Path;

/// `x` with entry `j` moved by `h` (a new value: the function may mutate its argument).
fn shifted(x: &Value, j: usize, h: f64) -> Value {
    match x {
        Value::F64(v) => Value::F64(v + h),
        _ => {
            let mut xs = floats(x);
            xs[j] += h;
            Value::Array(SharedArray::new(ArrayObj::vector_f64(xs)))
        }
    }
}

/// Why Hessian `h` of `f` at `x` disagrees with finite differences of gradients, if it does.
fn check_call(s: &mut Session, si: &mut Session, call: &str) -> Result<usize, String> {
    let (f, args) = s.eval_call_parts(call).map_err(|e| s.render_error(&e))?;
    let x = args[0].clone();
    let r = s
        .value_gradient_and_hessian(&f, &x, 3)
        .map_err(|e| s.render_error(&e))?;
    let (g, h) = (r.gradient, r.hessian);
    let n = g.len();
    let grad = |s: &mut Session, x: Value| -> Result<Vec<f64>, String> {
        let (_, g) = s
            .value_and_gradient(&f, &[x])
            .map_err(|e| s.render_error(&e))?;
        Ok(floats(&g[1]))
    };
    let g_rev = grad(s, shifted(&x, 0, 0.0))?;
    for i in 0..n {
        if (g[i] - g_rev[i]).abs() > 1e-10 * (1.0 + g_rev[i].abs()) {
            return Err(format!(
                "gradient entry {i}: {} vs reverse mode's {}",
                g[i], g_rev[i]
            ));
        }
    }
    let xs = floats(&x);
    for j in 0..n {
        let step = 1e-5 * xs[j].abs().max(1.0);
        let gp = grad(s, shifted(&x, j, step))?;
        let gm = grad(s, shifted(&x, j, -step))?;
        for i in 0..n {
            let fd = (gp[i] - gm[i]) / (2.0 * step);
            if (h[i][j] - fd).abs() > 1e-4 * (1.0 + h[i][j].abs().max(fd.abs())) {
                return Err(format!(
                    "H[{i}][{j}] = {} but finite differences give {fd}",
                    h[i][j]
                ));
            }
            if (h[i][j] - h[j][i]).abs() > 1e-9 * (1.0 + h[i][j].abs()) {
                return Err(format!(
                    "H[{i}][{j}] = {} but H[{j}][{i}] = {}",
                    h[i][j], h[j][i]
                ));
            }
        }
    }
    let (fi, ai) = si.eval_call_parts(call).map_err(|e| si.render_error(&e))?;
    let hi = si
        .value_gradient_and_hessian(&fi, &ai[0], 3)
        .map_err(|e| si.render_error(&e))?
        .hessian;
    for i in 0..n {
        for j in 0..n {
            if (h[i][j] - hi[i][j]).abs() > 1e-12 * (1.0 + h[i][j].abs()) {
                return Err(format!(
                    "H[{i}][{j}] = {} in native code but {} in the interpreter",
                    h[i][j], hi[i][j]
                ));
            }
        }
    }
    Ok(n)
}

/// Checks every `# hessian:` line of one program.
fn check(path: &Path) -> Result<(), String> {
    let (name, src) = testkit::read(path)?;
    let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
    s.set_verify(true);
    let mut si = Session::with_output(Box::new(std::io::sink())).expect("prelude");
    si.set_backend(Backend::Interpreter).expect("interpreter");
    if let Err(e) = s
        .load_source(&name, &src)
        .and_then(|_| si.load_source(&name, &src))
    {
        return Err(s.render_error(&e));
    }
    let mut failures = Vec::new();
    let mut checked = 0;
    for call in src.lines().filter_map(|l| l.strip_prefix("# hessian: ")) {
        checked += 1;
        if let Err(e) = check_call(&mut s, &mut si, call) {
            failures.push(format!("{call}\n{e}"));
        }
    }
    if checked == 0 {
        return Err("no `# hessian:` line".into());
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n\n"))
    }
}

fn main() {
    // Threaded loops divide their iterations among 4 threads whatever the machine has, so
    // what a program prints does not depend on it.
    mooncake::set_threads(4);
    testkit::run_suite("hessians", "jl", check)
}
