//! Reverse-mode gradients of programs, checked against central finite differences and, where
//! easy, analytic values.

use mooncake::{ArrayObj, Session, SharedArray, Value};

fn session(src: &str) -> Session {
    let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
    s.set_verify(true);
    s.load_source("t.jl", src)
        .unwrap_or_else(|e| panic!("{}", s.render_error(&e)));
    s
}

fn vecv(xs: &[f64]) -> Value {
    Value::Array(SharedArray::new(ArrayObj::vector_f64(xs.to_vec())))
}

/// Fresh copies of the arguments (so that functions that mutate them see the originals).
fn fresh(args: &[Value]) -> Vec<Value> {
    args.iter()
        .map(|a| match a {
            Value::Array(x) => Value::Array(SharedArray::new(x.deep_copy())),
            v => v.clone(),
        })
        .collect()
}

/// Checks ∂f/∂x_i for scalar or vector arguments against central differences, and that the
/// arguments hold their original values after the forwards pass and pullback.
fn check(src: &str, fname: &str, args: Vec<Value>) -> Vec<Value> {
    let mut s = session(src);
    let f = s.eval(fname).unwrap();
    let before: Vec<String> = args.iter().map(mooncake::show).collect();
    let (y, g) = s
        .value_and_gradient(&f, &args)
        .unwrap_or_else(|e| panic!("{}", s.render_error(&e)));
    let after: Vec<String> = args.iter().map(mooncake::show).collect();
    assert_eq!(before, after, "arguments are restored");
    let y0 = s
        .call_value(f.clone(), fresh(&args))
        .unwrap()
        .as_f64()
        .unwrap();
    assert_eq!(y.as_f64(), Some(y0), "value");
    let h = 1e-6;
    for (k, a) in args.iter().enumerate() {
        let mut at = |d: f64, idx: Option<usize>| -> f64 {
            let mut xs = fresh(&args);
            xs[k] = match (a, idx) {
                (Value::F64(x), _) => Value::F64(x + d),
                (Value::Array(arr), Some(i)) => {
                    let mut v = arr.to_f64_vec().unwrap();
                    v[i] += d;
                    vecv(&v)
                }
                (other, _) => other.clone(),
            };
            s.call_value(f.clone(), xs).unwrap().as_f64().unwrap()
        };
        match (a, &g[k + 1]) {
            (Value::F64(_), Value::F64(gk)) => {
                let fd = (at(h, None) - at(-h, None)) / (2.0 * h);
                assert!(
                    (fd - gk).abs() <= 1e-5 * (1.0 + fd.abs()),
                    "arg {k}: fd {fd} vs ad {gk}"
                );
            }
            (Value::Array(arr), Value::Array(ga)) => {
                let gv = ga.to_f64_vec().unwrap();
                assert_eq!(gv.len(), arr.len());
                for (i, gi) in gv.iter().enumerate() {
                    let fd = (at(h, Some(i)) - at(-h, Some(i))) / (2.0 * h);
                    assert!(
                        (fd - gi).abs() <= 1e-5 * (1.0 + fd.abs()),
                        "arg {k}[{i}]: fd {fd} vs ad {gi}"
                    );
                }
            }
            (Value::Int(_), t) => assert_eq!(
                mooncake::show(t),
                "NoTangent()",
                "integer arguments have no tangent"
            ),
            (a, t) => panic!("unexpected argument/tangent {a:?} / {t:?}"),
        }
    }
    g
}

#[test]
fn straight_line_scalar() {
    let g = check(
        "f(x, y) = sin(x) * y^2 + exp(x / y) - log(y) + sqrt(x * x + 1.0) / y + tanh(x) * atan(y, x)",
        "f",
        vec![Value::F64(0.7), Value::F64(1.3)],
    );
    assert_eq!(mooncake::show(&g[0]), "NoTangent()");
}

#[test]
fn branches_and_phi() {
    let src = "function f(x)\n  if x > 0.0\n    y = x^3\n  else\n    y = -2x\n  end\n  y * x\nend";
    check(src, "f", vec![Value::F64(1.5)]);
    check(src, "f", vec![Value::F64(-0.5)]);
    let src2 = "g(x, y) = (x > 1.0 && y > 1.0) ? x * y : x + y";
    check(src2, "g", vec![Value::F64(2.0), Value::F64(3.0)]);
    check(src2, "g", vec![Value::F64(0.5), Value::F64(3.0)]);
}

#[test]
fn loops_with_mutually_dependent_phis() {
    let src = "function f(x, n)\n  a, b = x, 1.0\n  for i in 1:n\n    a, b = b, a + b * x\n  end\n  a\nend";
    check(src, "f", vec![Value::F64(0.9), Value::Int(6)]);
    let w = "function w(x)\n  s = 0.0\n  k = 0\n  while s < 10.0\n    s += x * k\n    k += 1\n    k > 500 && break\n  end\n  s\nend";
    check(w, "w", vec![Value::F64(0.37)]);
}

#[test]
fn array_reads_in_the_benchmark_programs() {
    // Programs A and B of the benchmarks, and Rosenbrock.
    let a = "function a(x)\n  s = 0.0\n  for n in eachindex(x)\n    s += cos(exp(x[n]))\n  end\n  s\nend";
    let b = "function b(x)\n  s = 0.0\n  for n in eachindex(x)\n    s += 5 * x[n]\n  end\n  s\nend";
    let r = "function rosen(x)\n  s = 0.0\n  for i in 1:length(x)-1\n    s += 100 * (x[i+1] - x[i]^2)^2 + (1 - x[i])^2\n  end\n  s\nend";
    let x = vecv(&[0.3, -0.2, 0.9, 1.1]);
    check(a, "a", vec![x.clone()]);
    let g = check(b, "b", vec![x.clone()]);
    assert_eq!(mooncake::show(&g[1]), "[5.0, 5.0, 5.0, 5.0]");
    check(r, "rosen", vec![x]);
}

#[test]
fn early_return_from_a_loop() {
    let src = "function f(x)\n  for i in 1:10\n    x = x * 1.5\n    if x > 4.0\n      return x * i\n    end\n  end\n  return -x\nend";
    check(src, "f", vec![Value::F64(0.5)]);
    check(src, "f", vec![Value::F64(0.001)]);
}

#[test]
fn non_float_output_suggests_pullback() {
    let mut s = session("h(x) = x > 0.0");
    let f = s.eval("h").unwrap();
    let e = s.value_and_gradient(&f, &[Value::F64(1.0)]).unwrap_err();
    assert!(e.to_string().contains("value_and_pullback"), "{e}");
}

#[test]
fn small_union_accumulators() {
    let src = "function f(x)\n z = 0\n for v in x\n z += v * v\n end\n z\nend";
    let g = check(src, "f", vec![vecv(&[1.0, -2.0, 3.0])]);
    assert_eq!(mooncake::show(&g[1]), "[2.0, -4.0, 6.0]");
    // Members with different reverse data (Float32 and Float64): reverse data decided at run
    // time (`Any`), converted where it meets a member's.
    let src = "function f(x)\n z = 0f0\n for v in x\n z += v * v\n end\n z\nend";
    let g = check(src, "f", vec![vecv(&[1.5, -2.0])]);
    assert_eq!(mooncake::show(&g[1]), "[3.0, -4.0]");
}

#[test]
fn ad_errors_inside_callees_point_at_the_users_line() {
    // A construct reverse mode does not support (assigning a global) inside `helper`, called
    // from `f`: labelled at the user's line, with the calls listed.
    let src = "calls = 0.0\nfunction helper(x)\n z = 0.0\n for v in x\n z += v * 3.0\n end\n global calls = z\n z\nend\nfunction f(x)\n y = helper(x)\n y * 2.0\nend";
    let mut s = session(src);
    let f = s.eval("f").unwrap();
    let e = s.value_and_gradient(&f, &[vecv(&[1.0])]).unwrap_err();
    let msg = s.render_error(&e);
    assert!(msg.contains("global assignment"), "{msg}");
    assert!(msg.contains("global calls = z\n"), "{msg}");
    assert!(
        msg.contains("[1] helper(Vector{Float64}) at t.jl:7:"),
        "{msg}"
    );
    assert!(msg.contains("[2] f(Vector{Float64}) at t.jl:11:"), "{msg}");
}

#[test]
fn structs_with_undefined_fields() {
    // `new` leaving a reference field `#undef`: its tangent is `#undef` until the field is
    // assigned, in both modes.
    let src = "mutable struct Cell\n w::Float64\n next::Cell\n Cell(w) = new(w)\nend\nf(x) = Cell(x[1] * 2.0).w";
    let mut s = session(src);
    let f = s.eval("f").unwrap();
    let x = vecv(&[1.5]);
    let (_, g) = s.value_and_gradient(&f, std::slice::from_ref(&x)).unwrap();
    assert_eq!(mooncake::show(&g[1]), "[2.0]");
    let (_, g) = s.value_and_gradient_forward(&f, &[x], 8).unwrap();
    assert_eq!(mooncake::show(&g[1]), "[2.0]");
    // A field left `#undef` that would hold floats beside an array is refused at the `new`,
    // never a wrong gradient.
    let src = "mutable struct Hold\n w::Float64\n pair::Tuple{Float64, Vector{Float64}}\n Hold(w) = new(w)\nend\nf(x) = Hold(x[1] * 2.0).w";
    let mut s = session(src);
    let f = s.eval("f").unwrap();
    let x = vecv(&[1.5]);
    let e = s
        .value_and_gradient(&f, std::slice::from_ref(&x))
        .unwrap_err();
    let msg = s.render_error(&e);
    assert!(msg.contains("field left undefined"), "{msg}");
    assert!(msg.contains("Hold(w) = new(w)"), "{msg}");
    let e = s.value_and_gradient_forward(&f, &[x], 8).unwrap_err();
    let msg = s.render_error(&e);
    assert!(msg.contains("field left undefined"), "{msg}");
}

#[test]
fn calls_that_are_not_inlined_and_recursion() {
    // `big` is above the inlining limit, so the caller invokes its derived rule.
    let src = r#"
function big(x, y)
    a = sin(x) * y + cos(y) * x
    b = exp(a / 10) + a^2 - x * y
    c = tanh(b) + b / 3 + a * b
    d = log(1 + c^2) + sqrt(1 + a^2)
    e = atan(d, c) + hypot(a, b) + d * c
    f = e / (1 + e^2) + a - b + c - d
    g = f^3 - 2f + sin(f) * cos(e)
    h = g / 7 + f * e - d * c + b * a
    return h + g + f
end
caller(x) = big(x, 2.0) * big(2.0, x) + x
pow(x, n) = n == 0 ? 1.0 : x * pow(x, n - 1)
function loops_calling(x)
    s = 0.0
    for i in 1:4
        s += big(x, i * 0.5)
    end
    s
end
"#;
    check(src, "caller", vec![Value::F64(0.4)]);
    check(src, "pow", vec![Value::F64(1.1), Value::Int(5)]);
    check(src, "loops_calling", vec![Value::F64(0.3)]);
}

#[test]
fn writing_into_arrays() {
    let src = r#"
function squares(x)
    y = zeros(length(x))
    for i in eachindex(x)
        y[i] = x[i]^2
    end
    sum(y)
end
function inplace!(x)
    x[1] = x[1] * x[2]
    x[2] = sin(x[1])
    x[1] + x[2] * x[3]
end
function stack(x)
    v = Float64[]
    for xi in x
        push!(v, 2xi)
    end
    a = pop!(v)
    a * sum(v)
end
function slices(x)
    y = x[2:end]
    z = copy(x)
    z[1] = 0.0
    sum(y) * x[1] + sum(z)
end
function mymul!(C, A, B)
    n = length(C)
    for i in 1:n
        C[i] = 0.0
        for k in 1:n
            C[i] += A[k] * B[i]
        end
    end
    C
end
function aliased(x)
    C = zeros(length(x))
    mymul!(C, x, x)
    sum(C)
end
"#;
    let x = vecv(&[0.5, -1.2, 0.8]);
    check(src, "squares", vec![x.clone()]);
    check(src, "inplace!", vec![x.clone()]);
    check(src, "stack", vec![x.clone()]);
    check(src, "slices", vec![x.clone()]);
    check(src, "aliased", vec![x]);
}

#[test]
fn immutable_structs_tuples_and_named_tuples() {
    let src = r#"
struct Point
    x::Float64
    y::Float64
end
struct Pair2{T}
    a::T
    b::T
end
norm2(p::Point) = sqrt(p.x^2 + p.y^2)
function f(x, y)
    p = Point(x * y, x - y)
    q = Pair2(p, Point(y, 2.0))
    t = (p.x, q.b.x, (s = x + y, n = 3))
    norm2(q.a) * t[2] + t[3].s * t[1]
end
"#;
    check(src, "f", vec![Value::F64(0.7), Value::F64(-1.3)]);
}

#[test]
fn test_rule_passes_on_correct_rules_and_catches_disagreement() {
    let src = r#"
function w!(x)
    x[1] = x[1] * x[2]
    push!(x, sin(x[1]))
    s = sum(x)
    pop!(x)
    s * x[3]
end
step(x) = x > 0.0 ? 1.0 : 0.0
g(x, y) = atan(y, x) * hypot(x, y)
"#;
    let mut s = session(src);
    for call in ["w!([0.5, -1.2, 0.8])", "g(0.3, -0.4)"] {
        let r = s
            .test_rule(call)
            .unwrap_or_else(|e| panic!("{}", s.render_error(&e)));
        assert!(r.passed(), "{call}:\n{}", r.render());
    }
    // At its jump, a step function's derivative is 0 but finite differences are huge.
    let r = s.test_rule("step(0.0)").unwrap();
    assert!(!r.passed(), "{}", r.render());
    assert!(
        r.render().contains("FAIL finite differences"),
        "{}",
        r.render()
    );
}

#[test]
fn mutable_structs_written_in_loops() {
    let src = r#"
mutable struct Particle
    pos::Float64
    vel::Float64
    hist::Vector{Float64}
end
function simulate(x, k)
    p = Particle(x, 0.5 * x, zeros(3))
    for i in 1:3
        p.vel = p.vel - k * p.pos * 0.1
        p.pos = p.pos + p.vel * 0.1
        p.hist[i] = p.pos * p.vel
    end
    p.pos^2 + sum(p.hist)
end
"#;
    check(src, "simulate", vec![Value::F64(0.8), Value::F64(2.0)]);
    let mut s = session(src);
    let r = s.test_rule("simulate(0.8, 2.0)").unwrap();
    assert!(r.passed(), "{}", r.render());
}

#[test]
fn prepared_caches_reuse_the_rule_and_validate_arguments() {
    let mut s = session("f(x) = sum(x) * x[1]");
    let f = s.eval("f").unwrap();
    let x = vecv(&[1.0, 2.0, 3.0]);
    let cache = s
        .prepare_gradient_cache(&f, std::slice::from_ref(&x))
        .unwrap();
    for _ in 0..3 {
        let (y, g) = s
            .value_and_gradient_cached(&cache, std::slice::from_ref(&x))
            .unwrap();
        assert_eq!(y.as_f64(), Some(6.0));
        assert_eq!(mooncake::show(&g[1]), "[7.0, 1.0, 1.0]");
    }
    // A gradient the caller keeps is never reused (the next call allocates), one it dropped
    // is zeroed and filled again: either way each call's gradient is its own.
    let kept = s
        .value_and_gradient_cached(&cache, std::slice::from_ref(&x))
        .unwrap()
        .1;
    let x2 = vecv(&[2.0, 0.0, 1.0]);
    let (_, g2) = s
        .value_and_gradient_cached(&cache, std::slice::from_ref(&x2))
        .unwrap();
    assert_eq!(mooncake::show(&kept[1]), "[7.0, 1.0, 1.0]");
    assert_eq!(mooncake::show(&g2[1]), "[5.0, 2.0, 2.0]");
    let (Value::Array(a), Value::Array(b)) = (&kept[1], &g2[1]) else {
        panic!("gradients of vectors are vectors");
    };
    assert!(!SharedArray::ptr_eq(a, b));
    drop(kept);
    let (_, g3) = s
        .value_and_gradient_cached(&cache, std::slice::from_ref(&x))
        .unwrap();
    assert_eq!(mooncake::show(&g3[1]), "[7.0, 1.0, 1.0]");
    assert_eq!(mooncake::show(&g2[1]), "[5.0, 2.0, 2.0]");
    let e = s
        .value_and_gradient_cached(&cache, &[vecv(&[1.0, 2.0])])
        .unwrap_err();
    assert!(e.to_string().contains("size [2]"), "{e}");
    let e = s
        .value_and_gradient_cached(&cache, &[Value::F64(1.0)])
        .unwrap_err();
    assert!(e.to_string().contains("has type Float64"), "{e}");
    // A pullback of a vector-valued function.
    let mut s = session("h(x) = [x[1]^2, x[1] * x[2]]");
    let h = s.eval("h").unwrap();
    let c = s.prepare_pullback_cache(&h, &[vecv(&[3.0, 4.0])]).unwrap();
    for _ in 0..2 {
        let (y, g) = s
            .value_and_pullback_cached(&c, &vecv(&[1.0, 10.0]), &[vecv(&[3.0, 4.0])])
            .unwrap();
        assert_eq!(mooncake::show(&y), "[9.0, 12.0]");
        assert_eq!(mooncake::show(&g[1]), "[46.0, 30.0]");
    }
    // A call that raises leaves the cache usable.
    let mut s = session("k(x) = log(x[1]) * x[2]");
    let k = s.eval("k").unwrap();
    let c = s.prepare_gradient_cache(&k, &[vecv(&[2.0, 3.0])]).unwrap();
    let e = s
        .value_and_gradient_cached(&c, &[vecv(&[-1.0, 3.0])])
        .unwrap_err();
    assert!(e.to_string().contains("DomainError"), "{e}");
    for _ in 0..2 {
        let (y, g) = s
            .value_and_gradient_cached(&c, &[vecv(&[1.0, 3.0])])
            .unwrap();
        assert_eq!(y.as_f64(), Some(0.0));
        assert_eq!(mooncake::show(&g[1]), "[3.0, 0.0]");
    }
}

#[test]
fn debug_mode_checks_fdata_at_boundaries() {
    let mut s = session("h(x) = sum(x) * 2.0 + x[1]");
    s.set_ad_debug(true);
    let ir = s.ir("h([1.0, 2.0])", mooncake::Stage::Forward).unwrap();
    assert!(ir.contains("prim ad_check"), "{ir}");
    let (y, g) = s.gradient_of_call("h([1.0, 2.0])").unwrap();
    assert_eq!(y.as_f64(), Some(7.0));
    assert_eq!(mooncake::show(&g[1]), "[3.0, 2.0]");
    // The check itself, on a mismatched pair.
    let e = s
        .eval("Core.ad_check([1.0, 2.0], [0.0], \"x\")")
        .unwrap_err();
    let msg = s.render_error(&e);
    assert!(
        msg.contains("debug mode: x: fdata array of size [1] for a primal array of size [2]"),
        "{msg}"
    );
    let e = s.eval("Core.ad_check([1.0, 2.0], 1.5, \"y\")").unwrap_err();
    assert!(
        e.to_string()
            .contains("fdata of type Float64 for a primal of type Vector{Float64}"),
        "{e}"
    );
}

#[test]
fn an_array_passed_as_two_arguments_has_one_gradient() {
    // `f(x, x)` differentiated as a function of the one array: both arguments' gradients are
    // that array's total derivative (the same array), by reverse and forward mode, prepared
    // or not; also when the array is reached through a struct and directly.
    let src = "twice(x, y) = sum(x .* y) + x[1] * y[2]\nstruct Box1\n v::Vector{Float64}\nend\nboxed(b::Box1, y) = sum(abs2, b.v) * y[3]";
    let mut s = session(src);
    let x = vecv(&[0.3, 0.7, -1.1]);
    let xs = [0.3, 0.7, -1.1];
    // d/dx of sum(x²) + x₁x₂, and of sum(x²)·x₃.
    let want_twice = [2.0 * xs[0] + xs[1], 2.0 * xs[1] + xs[0], 2.0 * xs[2]];
    let ss: f64 = xs.iter().map(|v| v * v).sum();
    let want_boxed = [
        2.0 * xs[0] * xs[2],
        2.0 * xs[1] * xs[2],
        2.0 * xs[2] * xs[2] + ss,
    ];
    let b = s.eval("Box1").unwrap();
    let boxed_arg = s.call_value(b, vec![x.clone()]).unwrap();
    let cases = [
        ("twice", vec![x.clone(), x.clone()], want_twice, 1),
        ("boxed", vec![boxed_arg, x.clone()], want_boxed, 2),
    ];
    for (name, args, want, k) in cases {
        let f = s.eval(name).unwrap();
        let cache = s.prepare_gradient_cache(&f, &args).unwrap();
        let fwd = s.prepare_derivative_cache(&f, &args, 8).unwrap();
        for round in 0..3 {
            let runs = [
                ("reverse", s.value_and_gradient(&f, &args).unwrap().1),
                (
                    "prepared reverse",
                    s.value_and_gradient_cached(&cache, &args).unwrap().1,
                ),
                (
                    "forward",
                    s.value_and_gradient_forward(&f, &args, 3).unwrap().1,
                ),
                (
                    "prepared forward",
                    s.value_and_gradient_forward_cached(&fwd, &args).unwrap().1,
                ),
            ];
            for (how, g) in runs {
                let got = g[k].to_f64_vec().unwrap();
                for (a, b) in got.iter().zip(&want) {
                    assert!(
                        (a - b).abs() < 1e-12,
                        "{name}, {how}, round {round}: {got:?} vs {want:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_try_whose_derivative_would_be_lost_is_refused() {
    // A body that changed an array made before the `try` and then raised an error: its change
    // stays and its derivative has no pullback to come from (reverse mode refuses; forward
    // mode, whose tangents change with the values, differentiates it). A handler whose result
    // depends on the exception's value: refused in both modes. Second order through a `try`:
    // refused. Where the error is not raised, all of these differentiate.
    let src = r#"
function changed_then_raised(x)
    v = [0.0, 0.0]
    try
        v[1] = x^2
        x > 1 && error("too big")
        v[2] = x
    catch
    end
    sum(v)
end
function uses_the_exception(x)
    try
        sqrt(-x)
    catch e
        e.val^2
    end
end
function plain(x)
    try
        log(x) * x
    catch
        0.0
    end
end
"#;
    let mut s = session(src);
    let grad = |s: &mut Session, f: &str, x: f64| {
        let fv = s.eval(f).unwrap();
        s.value_and_gradient(&fv, &[Value::from(x)])
            .map(|(_, g)| g[1].as_f64().unwrap())
            .map_err(|e| s.render_error(&e))
    };
    let forward = |s: &mut Session, f: &str, x: f64| {
        let fv = s.eval(f).unwrap();
        s.value_and_gradient_forward(&fv, &[Value::from(x)], 1)
            .map(|(_, g)| g[1].as_f64().unwrap())
            .map_err(|e| s.render_error(&e))
    };
    assert_eq!(grad(&mut s, "changed_then_raised", 0.5), Ok(2.0));
    let e = grad(&mut s, "changed_then_raised", 2.0).unwrap_err();
    assert!(
        e.contains("not supported yet: reverse mode through a `try` whose body changed"),
        "{e}"
    );
    assert!(e.contains("t.jl:4:5"), "{e}");
    assert_eq!(forward(&mut s, "changed_then_raised", 2.0), Ok(4.0));
    for m in [grad, forward] {
        let e = m(&mut s, "uses_the_exception", 2.0).unwrap_err();
        assert!(
            e.contains("`catch` block whose result depends on the exception's value"),
            "{e}"
        );
    }
    let f = s.eval("plain").unwrap();
    let e = s
        .value_gradient_and_hessian(&f, &Value::from(2.0), 1)
        .unwrap_err();
    let e = s.render_error(&e);
    assert!(
        e.contains("second-order AD") && e.contains("through a `try`"),
        "{e}"
    );
}

/// A gradient with respect to a dictionary is Mooncake's tangent of the table's fields; shown
/// in the argument's form it is a dictionary of the same keys, also inside tuples and structs.
#[test]
fn dictionary_gradients_present_as_dictionaries() {
    let src = "struct Model\n p::Dict{Symbol,Float64}\n w::Vector{Float64}\nend\nm0() = Model(Dict(:a => 1.0, :b => 2.0), [0.5, 1.5])\nf(m) = m.p[:a] * m.w[1] + m.p[:b]^2 * m.w[2]\ng(t) = t[1][:a] * t[2]";
    let mut s = session(src);
    let f = s.eval("f").unwrap();
    let m = s.eval("m0()").unwrap();
    let (y, g) = s.value_and_gradient(&f, std::slice::from_ref(&m)).unwrap();
    assert_eq!(mooncake::show(&y), "6.5");
    assert!(
        mooncake::show(&g[1]).starts_with("Tangent{Model}("),
        "{}",
        mooncake::show(&g[1])
    );
    let shown = mooncake::show(&mooncake::present_gradient(&m, &g[1]));
    assert!(shown.starts_with("Tangent{Model}(Dict("), "{shown}");
    assert!(
        shown.contains(":a => 0.5") && shown.contains(":b => 6.0"),
        "{shown}"
    );
    assert!(shown.ends_with(", [1.0, 4.0])"), "{shown}");
    let gf = s.eval("g").unwrap();
    let t = s.eval("(Dict(:a => 3.0), 2.0)").unwrap();
    let (_, g) = s
        .value_and_gradient_forward(&gf, std::slice::from_ref(&t), 2)
        .unwrap();
    let shown = mooncake::show(&mooncake::present_gradient(&t, &g[1]));
    assert_eq!(shown, "(Dict(:a => 2.0), 3.0)");
}
