//! Derivatives at the points where a primitive's derivative is zero, infinite or undefined
//! (0 for powers, square roots and logarithms, ±Inf, negative bases with integer-valued
//! exponents, the origin for `hypot`): reverse mode, forward mode (one lane and several, so
//! that one direction's infinite derivative cannot poison another's) and the in-language
//! `derivative` agree with the mathematically right values, on native code and the
//! interpreter.

use mooncake::{show, Backend, Session};

const SRC: &str = r#"
pow_half(v) = v[1]^1.5 + v[2]
pow_zero(v) = v[1]^0.0 + v[2]
powi(v, n) = v[1]^n + v[2]
zero_base(v) = 0.0^v[1] + v[2]
negative_base(v) = v[1]^v[2]
root(v) = sqrt(v[1]) + v[2]
logarithm(v) = log(v[1]) + v[2]
exp_minus_inf(v) = exp(v[1]) + v[2]
tanh_inf(v) = tanh(v[1]) * v[2]
hypot_origin(v) = hypot(v[1], v[2])
abs_zero(v) = abs(v[1]) + v[2]
d_pow_half(x) = derivative(y -> y^1.5, x)
d_pow_2_5(x) = derivative(y -> derivative(z -> z^2.5, y), x)
"#;

fn session(backend: Backend) -> Session {
    let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
    s.set_backend(backend).expect("backend");
    s.load_source("boundary.jl", SRC)
        .unwrap_or_else(|e| panic!("{}", s.render_error(&e)));
    s
}

/// `(call, value, gradient of the first argument)`, as Julia prints them.
const CASES: &[(&str, &str, &str)] = &[
    ("pow_half([0.0, 1.0])", "1.0", "[0.0, 1.0]"),
    ("pow_zero([0.0, 1.0])", "2.0", "[0.0, 1.0]"),
    ("powi([0.0, 1.0], 0)", "2.0", "[0.0, 1.0]"),
    ("powi([0.0, 1.0], 3)", "1.0", "[0.0, 1.0]"),
    ("zero_base([1.5, 1.0])", "1.0", "[0.0, 1.0]"),
    (
        "negative_base([-2.0, 3.0])",
        "-8.0",
        "[12.0, -5.545177444479562]",
    ),
    ("root([0.0, 1.0])", "1.0", "[Inf, 1.0]"),
    ("logarithm([0.0, 1.0])", "-Inf", "[Inf, 1.0]"),
    ("exp_minus_inf([-Inf, 1.0])", "1.0", "[0.0, 1.0]"),
    ("tanh_inf([Inf, 2.0])", "2.0", "[0.0, 1.0]"),
    ("hypot_origin([0.0, 0.0])", "0.0", "[0.0, 0.0]"),
    ("abs_zero([0.0, 1.0])", "1.0", "[0.0, 1.0]"),
];

#[test]
fn gradients_at_boundary_points() {
    let mut failures = Vec::new();
    for backend in [Backend::Native, Backend::Interpreter] {
        let mut s = session(backend);
        for (call, value, grad) in CASES {
            let (f, args) = s.eval_call_parts(call).expect("call");
            let results = [
                ("reverse", s.value_and_gradient(&f, &args)),
                (
                    "forward, 1 lane",
                    s.value_and_gradient_forward(&f, &args, 1),
                ),
                (
                    "forward, 8 lanes",
                    s.value_and_gradient_forward(&f, &args, 8),
                ),
            ];
            for (mode, r) in results {
                match r {
                    Ok((y, g)) => {
                        let (y, g1) = (show(&y), show(&g[1]));
                        if y != *value || g1 != *grad {
                            failures.push(format!(
                                "{backend:?} {mode} {call}: value {y}, gradient {g1}; want {value}, {grad}"
                            ));
                        }
                    }
                    Err(e) => {
                        failures.push(format!("{backend:?} {mode} {call}: {}", s.render_error(&e)))
                    }
                }
            }
        }
        for (call, want) in [("d_pow_half(0.0)", "0.0"), ("d_pow_2_5(0.0)", "0.0")] {
            match s.eval(call) {
                Ok(v) if show(&v) == want => {}
                Ok(v) => failures.push(format!("{backend:?} {call}: {}, want {want}", show(&v))),
                Err(e) => failures.push(format!("{backend:?} {call}: {}", s.render_error(&e))),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hessian_of_a_power_at_zero() {
    for backend in [Backend::Native, Backend::Interpreter] {
        let mut s = session(backend);
        s.load_source("h.jl", "h(x) = x^2.5 + x[1]^3 * 0.0")
            .expect("loads");
        let f = s.eval("x -> x^2.5").expect("f");
        let h = s
            .value_gradient_and_hessian(&f, &mooncake::Value::F64(0.0), 1)
            .unwrap_or_else(|e| panic!("{}", s.render_error(&e)));
        assert_eq!(format!("{:?}", h.hessian), "[[0.0]]", "{backend:?}");
    }
}
