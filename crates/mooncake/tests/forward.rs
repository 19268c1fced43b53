//! Forward mode through the Rust API: `value_and_derivative`, prepared derivative caches,
//! chunked gradients, Jacobians (forward and reverse against finite differences), and errors
//! labelled at the user's line.

use mooncake::{ArrayObj, Session, SharedArray, Value};

fn session(src: &str) -> Session {
    let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
    s.set_verify(true);
    s.load_source("t.jl", src).expect("loads");
    s
}

fn vecv(xs: &[f64]) -> Value {
    Value::Array(SharedArray::new(ArrayObj::vector_f64(xs.to_vec())))
}

fn floats(v: &Value) -> Vec<f64> {
    match v {
        Value::F64(x) => vec![*x],
        Value::Array(a) => a.to_f64_vec().unwrap_or_default(),
        _ => vec![],
    }
}

#[test]
fn derivative_with_given_tangents() {
    let mut s = session("f(x, y) = sin(x) * y^2");
    let f = s.eval("f").unwrap();
    let (y, dy) = s
        .value_and_derivative(
            &f,
            &[
                (Value::F64(0.5), Value::F64(1.0)),
                (Value::F64(2.0), Value::F64(0.5)),
            ],
        )
        .unwrap();
    let want = 0.5f64.cos() * 4.0 + 0.5f64.sin() * 2.0 * 2.0 * 0.5;
    assert_eq!(floats(&y), vec![0.5f64.sin() * 4.0]);
    assert!((floats(&dy)[0] - want).abs() < 1e-14, "{dy:?}");
}

#[test]
fn derivative_cache_checks_its_arguments_and_gives_the_same_answers() {
    let mut s = session("g(x) = sum(x .^ 3) * x[1]");
    let f = s.eval("g").unwrap();
    let x = vecv(&[1.0, 2.0, 3.0]);
    let c = s
        .prepare_derivative_cache(&f, std::slice::from_ref(&x), 2)
        .unwrap();
    let (_, g1) = s
        .value_and_gradient_forward_cached(&c, std::slice::from_ref(&x))
        .unwrap();
    let (_, g2) = s.value_and_gradient(&f, std::slice::from_ref(&x)).unwrap();
    assert!(mooncake::tangent_approx_eq(&g1[1], &g2[1], 1e-12, 1e-12));
    let (_, d) = s
        .value_and_derivative_cached(&c, &[(x.clone(), vecv(&[1.0, 0.0, 0.0]))])
        .unwrap();
    assert!((floats(&d)[0] - floats(&g2[1])[0]).abs() < 1e-12);
    let e = s
        .value_and_gradient_forward_cached(&c, &[vecv(&[1.0, 2.0])])
        .unwrap_err();
    assert!(e.to_string().contains("prepared for size [3]"), "{e}");
}

#[test]
fn prepared_forward_gradients_stay_right_when_the_function_writes_or_keeps_its_arguments() {
    // `scale!` writes its argument (so every pass must start from the caller's values again);
    // `keep` stores it in a global (so the array a pass ran on is not refilled afterwards).
    let src = "function scale!(x)\n for i in eachindex(x)\n x[i] = 2x[i]\n end\n sum(abs2, x) * x[1]\nend\nkept = Any[]\nfunction keep(x)\n push!(kept, x)\n sum(sin, x) * x[end]\nend";
    let mut s = session(src);
    let x = vecv(&[0.5, -1.0, 2.0, 0.25, 1.5]);
    for name in ["scale!", "keep"] {
        let f = s.eval(name).unwrap();
        let (_, g) = s.value_and_gradient(&f, std::slice::from_ref(&x)).unwrap();
        let c = s
            .prepare_derivative_cache(&f, std::slice::from_ref(&x), 2)
            .unwrap();
        for _ in 0..3 {
            let (_, gf) = s
                .value_and_gradient_forward_cached(&c, std::slice::from_ref(&x))
                .unwrap();
            assert!(
                mooncake::tangent_approx_eq(&g[1], &gf[1], 1e-12, 1e-12),
                "{name}: {:?} vs {:?}",
                floats(&g[1]),
                floats(&gf[1])
            );
        }
    }
    assert_eq!(floats(&x), vec![0.5, -1.0, 2.0, 0.25, 1.5]);
}

#[test]
fn prepared_forward_gradients_of_mixed_arguments_match_reverse_mode() {
    // A struct of parameters (a float and a vector), a float, an integer and a vector; then
    // one vector passed twice (its tangent entries are those of one array, not two).
    let src = "struct Params\n a::Float64\n w::Vector{Float64}\nend\nloss(p::Params, s, k, x) = p.a * sum(p.w .* x) * s + k * x[1]^2\ntwice(x, y) = sum(x .* y) + x[1] * y[2]";
    let mut s = session(src);
    let p = s.eval("Params(0.5, [1.0, -2.0, 0.25])").unwrap();
    let x = vecv(&[0.3, 0.7, -1.1]);
    let cases = [
        ("loss", vec![p, Value::F64(1.5), Value::Int(3), x.clone()]),
        ("twice", vec![x.clone(), x.clone()]),
    ];
    for (name, args) in cases {
        let f = s.eval(name).unwrap();
        let (y, g) = s.value_and_gradient(&f, &args).unwrap();
        for width in [2, 8] {
            let c = s.prepare_derivative_cache(&f, &args, width).unwrap();
            for _ in 0..3 {
                let (yf, gf) = s.value_and_gradient_forward_cached(&c, &args).unwrap();
                assert_eq!(floats(&y), floats(&yf), "{name}");
                for (k, (a, b)) in g.iter().zip(&gf).enumerate().skip(1) {
                    assert!(
                        mooncake::tangent_approx_eq(a, b, 1e-12, 1e-12),
                        "{name}, width {width}, argument {k}: {:?} vs {:?}",
                        floats(a),
                        floats(b)
                    );
                }
            }
        }
    }
}

#[test]
fn every_chunk_width_gives_the_reverse_gradient() {
    let src = "function h(x)\n s = 0.0\n for i in eachindex(x)\n s += sin(x[i]) * x[end - i + 1]\n end\n s\nend";
    let mut s = session(src);
    let f = s.eval("h").unwrap();
    let x = vecv(&(0..11).map(|i| 0.1 * i as f64 - 0.4).collect::<Vec<_>>());
    let (_, g) = s.value_and_gradient(&f, std::slice::from_ref(&x)).unwrap();
    for w in 1..=8 {
        let (_, gf) = s
            .value_and_gradient_forward(&f, std::slice::from_ref(&x), w)
            .unwrap();
        assert!(
            mooncake::tangent_approx_eq(&g[1], &gf[1], 1e-12, 1e-12),
            "width {w}: {:?} vs {:?}",
            floats(&gf[1]),
            floats(&g[1])
        );
    }
}

#[test]
fn jacobians_by_both_modes_match_finite_differences() {
    let src = "F(x) = [x[1] * x[2], sin(x[3]) + x[1]^2, exp(x[2]) * x[3], x[1] - x[3]]\nG(t) = [t, t^2, cos(t)]\nH(x) = sum(x .^ 2)";
    let mut s = session(src);
    for (name, x) in [
        ("F", vecv(&[0.5, -1.0, 2.0])),
        ("G", Value::F64(0.7)),
        ("H", vecv(&[1.0, 2.0])),
    ] {
        let f = s.eval(name).unwrap();
        let jf = s.value_and_jacobian(&f, &x, true, 2).unwrap().jacobian;
        let jr = s.value_and_jacobian(&f, &x, false, 0).unwrap().jacobian;
        let xs = floats(&x);
        for j in 0..xs.len() {
            let at = |h: f64| {
                let mut v = xs.clone();
                v[j] += h;
                if let Value::F64(_) = x {
                    Value::F64(v[0])
                } else {
                    vecv(&v)
                }
            };
            let yp = floats(&s.call_value(f.clone(), vec![at(1e-6)]).unwrap());
            let ym = floats(&s.call_value(f.clone(), vec![at(-1e-6)]).unwrap());
            for i in 0..yp.len() {
                let fd = (yp[i] - ym[i]) / 2e-6;
                assert!(
                    (jf[i][j] - fd).abs() < 1e-6,
                    "{name}: J[{i}][{j}] {} vs {fd}",
                    jf[i][j]
                );
                assert!(
                    (jr[i][j] - jf[i][j]).abs() < 1e-12,
                    "{name}: modes disagree at [{i}][{j}]"
                );
            }
        }
    }
}

#[test]
fn constructs_without_a_forward_rule_are_labelled_at_the_users_line() {
    let src = "c = 0.0\nfunction f(x)\n global c = x\n x * 2.0\nend";
    let mut s = session(src);
    let f = s.eval("f").unwrap();
    let e = s
        .value_and_gradient_forward(&f, &[Value::F64(1.0)], 1)
        .unwrap_err();
    let msg = s.render_error(&e);
    assert!(msg.contains("global assignment"), "{msg}");
    assert!(msg.contains("forward mode"), "{msg}");
    assert!(msg.contains("t.jl:3:"), "{msg}");
}

#[test]
fn derivative_and_gradient_inside_the_language() {
    let src = "D(f, x) = derivative(f, x)\nconfusion() = D(x -> x * D(y -> x + y, 1.0), 1.0)\nsecond() = derivative(x -> derivative(sin, x), 1.0)\nhess(x) = sum(gradient(v -> v[1]^2 * v[2], x))";
    let mut s = session(src);
    assert_eq!(floats(&s.eval("confusion()").unwrap()), vec![1.0]);
    assert_eq!(floats(&s.eval("second()").unwrap()), vec![-(1.0f64.sin())]);
    // Forward over the reverse mode that `gradient` runs.
    let f = s.eval("hess").unwrap();
    let (_, g) = s
        .value_and_gradient_forward(&f, &[vecv(&[1.5, 2.0])], 2)
        .unwrap();
    assert_eq!(floats(&g[1]), vec![2.0 * 2.0 + 2.0 * 1.5, 2.0 * 1.5]);
    // Reverse mode over `gradient` is reported, not silently wrong.
    let e = s.value_and_gradient(&f, &[vecv(&[1.5, 2.0])]).unwrap_err();
    assert!(
        s.render_error(&e).contains("use forward mode"),
        "{}",
        s.render_error(&e)
    );
}

#[test]
fn debug_mode_checks_tangents_without_false_alarms() {
    let src = "struct P\n a::Float64\n v::Vector{Float64}\nend\nscale(p::P, k) = p.a * sum(p.v) * k\nfunction f(x)\n p = P(x[1], copy(x))\n scale(p, 2.0) + x[2]^2\nend";
    let mut s = session(src);
    s.set_ad_debug(true);
    let f = s.eval("f").unwrap();
    let x = vecv(&[1.5, -0.5, 2.0]);
    let (_, gf) = s
        .value_and_gradient_forward(&f, std::slice::from_ref(&x), 2)
        .unwrap();
    let (_, g) = s.value_and_gradient(&f, std::slice::from_ref(&x)).unwrap();
    assert!(mooncake::tangent_approx_eq(&g[1], &gf[1], 1e-12, 1e-12));
    // The debug rule checks every argument's tangent: a tangent of the wrong size is named.
    let e = s
        .value_and_derivative(&f, &[(x.clone(), vecv(&[1.0, 0.0]))])
        .unwrap_err();
    let msg = s.render_error(&e);
    assert!(
        msg.contains("debug mode") && msg.contains("argument 1"),
        "{msg}"
    );
}
