//! Hessians and Hessian-vector products through the API: exact values on a small function,
//! and the errors of what second order does not support (the battery of programs is
//! `hessian_battery.rs`).

mod common;

use common::floats;
use mooncake::{ArrayObj, Session, SharedArray, Value};

#[test]
fn hessian_vector_products_match_hessian_columns() {
    let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
    s.load_source(
        "t.jl",
        "f(x, a) = a * x[1]^2 * x[2] + sin(x[1] * x[2]) * a^2",
    )
    .expect("loads");
    let f = s.eval("f").expect("f");
    let x = Value::Array(SharedArray::new(ArrayObj::vector_f64(vec![0.5, 1.5])));
    let v = Value::Array(SharedArray::new(ArrayObj::vector_f64(vec![1.0, -2.0])));
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
    s.load_source("t.jl", "c = 2.0\nf(x) = c * x[1]^3\nc = 3.0")
        .expect("loads");
    let f = s.eval("f").expect("f");
    let x = Value::Array(SharedArray::new(ArrayObj::vector_f64(vec![1.0, 2.0])));
    let e = s.value_gradient_and_hessian(&f, &x, 2).unwrap_err();
    let msg = s.render_error(&e);
    assert!(msg.contains("declare the global `const`"), "{msg}");
    assert!(msg.contains("t.jl:2"), "{msg}");
}

#[test]
fn hessian_through_a_global_assigned_once() {
    let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
    s.load_source("t.jl", "c = [3.0]\nf(x) = c[1] * x[1]^3 + x[2]")
        .expect("loads");
    let f = s.eval("f").expect("f");
    let x = Value::Array(SharedArray::new(ArrayObj::vector_f64(vec![1.0, 2.0])));
    let h = s.value_gradient_and_hessian(&f, &x, 2).expect("hessian");
    assert_eq!(h.gradient, vec![9.0, 1.0]);
    // d²/dx₁² of 3 x₁³ is 18 x₁; the rest is zero.
    assert_eq!(h.hessian, vec![vec![18.0, 0.0], vec![0.0, 0.0]]);
}
