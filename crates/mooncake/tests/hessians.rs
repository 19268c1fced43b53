//! The Hessian battery: every `tests/hessians/*.jl` program's `# hessian: CALL` lines compute
//! the value, gradient and Hessian of a function of one float or float vector by
//! forward-over-reverse (3 columns per pass, so chunks are full and padded), and check them
//! against central finite differences of reverse-mode gradients, against reverse mode's
//! gradient, for symmetry, and against the same computation in the interpreter.

mod common;

use mooncake::{ArrayObj, Backend, Session, Value};
use std::sync::Arc;

fn floats(v: &Value) -> Vec<f64> {
    match v {
        Value::F64(x) => vec![*x],
        Value::Array(a) => a.to_f64_vec().unwrap_or_default(),
        _ => vec![],
    }
}

/// `x` with entry `j` moved by `h` (a new value: the function may mutate its argument).
fn shifted(x: &Value, j: usize, h: f64) -> Value {
    match x {
        Value::F64(v) => Value::F64(v + h),
        _ => {
            let mut xs = floats(x);
            xs[j] += h;
            Value::Array(Arc::new(ArrayObj::vector_f64(xs)))
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

#[test]
fn hessian_battery() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for (name, src) in common::jl_programs("hessians") {
        let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
        s.compiler().options.verify = true;
        let mut si = Session::with_output(Box::new(std::io::sink())).expect("prelude");
        si.set_backend(Backend::Interpreter).expect("interpreter");
        if let Err(e) = s
            .load_source(&name, &src)
            .and_then(|_| si.load_source(&name, &src))
        {
            failures.push(format!("{name}: {}", s.render_error(&e)));
            continue;
        }
        for call in src.lines().filter_map(|l| l.strip_prefix("# hessian: ")) {
            checked += 1;
            if let Err(e) = check_call(&mut s, &mut si, call) {
                failures.push(format!("{name}: {call}\n{e}"));
            }
        }
    }
    assert!(checked >= 15, "only {checked} Hessians checked");
    assert!(
        failures.is_empty(),
        "{} of {checked} Hessians failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn hessian_vector_products_match_hessian_columns() {
    let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
    s.load_source(
        "t.jl",
        "f(x, a) = a * x[1]^2 * x[2] + sin(x[1] * x[2]) * a^2",
    )
    .expect("loads");
    let f = s.eval("f").expect("f");
    let x = Value::Array(Arc::new(ArrayObj::vector_f64(vec![0.5, 1.5])));
    let v = Value::Array(Arc::new(ArrayObj::vector_f64(vec![1.0, -2.0])));
    let r = s
        .gradient_and_hvps(
            &f,
            &[x.clone(), Value::F64(2.0)],
            &[vec![mooncake::no_tangent(), v, Value::F64(0.5)]],
        )
        .expect("hvp");
    let (y, g, hv) = (r.value, r.gradient, r.products);
    // f = a x1² x2 + a² sin(x1 x2); the product of the Hessian in (x, a) with (1, -2, 0.5).
    let (x1, x2, a): (f64, f64, f64) = (0.5, 1.5, 2.0);
    let (sn, cs) = ((x1 * x2).sin(), (x1 * x2).cos());
    assert!((floats(&y)[0] - (a * x1 * x1 * x2 + a * a * sn)).abs() < 1e-12);
    assert!((floats(&g[2])[0] - (x1 * x1 * x2 + 2.0 * a * sn)).abs() < 1e-12);
    let h11 = 2.0 * a * x2 - a * a * x2 * x2 * sn;
    let h12 = 2.0 * a * x1 + a * a * (cs - x1 * x2 * sn);
    let h22 = -a * a * x1 * x1 * sn;
    let h1a = 2.0 * x1 * x2 + 2.0 * a * x2 * cs;
    let h2a = x1 * x1 + 2.0 * a * x1 * cs;
    let haa = 2.0 * sn;
    let d = [1.0, -2.0, 0.5];
    let want_x = [
        h11 * d[0] + h12 * d[1] + h1a * d[2],
        h12 * d[0] + h22 * d[1] + h2a * d[2],
    ];
    let want_a = h1a * d[0] + h2a * d[1] + haa * d[2];
    let got_x = floats(&hv[0][1]);
    assert!(
        (got_x[0] - want_x[0]).abs() < 1e-10,
        "{got_x:?} vs {want_x:?}"
    );
    assert!(
        (got_x[1] - want_x[1]).abs() < 1e-10,
        "{got_x:?} vs {want_x:?}"
    );
    assert!((floats(&hv[0][2])[0] - want_a).abs() < 1e-10);
}

#[test]
fn hessian_of_a_non_float_argument_is_a_clear_error() {
    let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
    s.load_source("t.jl", "f(n) = n * 2.0").expect("loads");
    let f = s.eval("f").expect("f");
    let e = s
        .value_gradient_and_hessian(&f, &Value::Int(3), 8)
        .unwrap_err();
    assert!(
        s.render_error(&e)
            .contains("one float or one array of floats"),
        "{}",
        s.render_error(&e)
    );
}

#[test]
fn hessian_of_a_call_on_a_non_constant_global_is_a_clear_error() {
    let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
    s.load_source("t.jl", "c = 3.0\nf(x) = c * x[1]^3")
        .expect("loads");
    let f = s.eval("f").expect("f");
    let x = Value::Array(Arc::new(ArrayObj::vector_f64(vec![1.0, 2.0])));
    let e = s.value_gradient_and_hessian(&f, &x, 2).unwrap_err();
    let msg = s.render_error(&e);
    assert!(msg.contains("declare the global `const`"), "{msg}");
    assert!(msg.contains("t.jl:2"), "{msg}");
}
