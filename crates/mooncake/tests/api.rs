//! The public Rust API: sessions, evaluation, calls with values, globals, IR dumps, and errors
//! as values.

use mooncake::{ArrayObj, Error, Exception, OutputBuffer, Session, SharedArray, Stage, Value};

fn session() -> (Session, OutputBuffer) {
    let out = OutputBuffer::new();
    let s = Session::with_output(Box::new(out.clone())).expect("prelude loads");
    (s, out)
}

#[test]
fn load_eval_and_call() {
    let (mut s, out) = session();
    s.load_source("m.jl", "f(x) = 2x^2 + 1\nconst K = 3\nprintln(\"loaded\")")
        .unwrap();
    assert_eq!(out.contents(), "loaded\n");
    assert_eq!(s.eval("f(3.0)").unwrap().as_f64(), Some(19.0));
    assert_eq!(s.eval("f(K)").unwrap().as_int(), Some(19));
    let v = s.call("f", vec![Value::F64(0.5)]).unwrap();
    assert_eq!(v.as_f64(), Some(1.5));
    assert_eq!(s.global("K").and_then(|v| v.as_int()), Some(3));
}

#[test]
fn arrays_cross_the_api_boundary() {
    let (mut s, _) = session();
    s.load_source(
        "m.jl",
        "function scale!(v, a)\n for i in eachindex(v)\n v[i] *= a\n end\n sum(v)\nend",
    )
    .unwrap();
    let arr = SharedArray::new(ArrayObj::vector_f64(vec![1.0, 2.0, 3.0]));
    let r = s
        .call("scale!", vec![Value::Array(arr.clone()), Value::F64(2.0)])
        .unwrap();
    assert_eq!(r.as_f64(), Some(12.0));
    assert_eq!(arr.to_f64_vec(), Some(vec![2.0, 4.0, 6.0]));
    assert_eq!(mooncake::show(&Value::Array(arr)), "[2.0, 4.0, 6.0]");
}

#[test]
fn prepared_code_is_stale_once_a_global_it_read_is_assigned_again() {
    let (mut s, _) = session();
    s.load_source("m.jl", "w = [2.0, 3.0]\nf(x) = sum(w .* x)")
        .unwrap();
    let f = s.eval("f").unwrap();
    let x = Value::Array(SharedArray::new(ArrayObj::vector_f64(vec![1.0, 1.0])));
    let call = s.prepare_call(&f, std::slice::from_ref(&x)).unwrap();
    let cache = s
        .prepare_gradient_cache(&f, std::slice::from_ref(&x))
        .unwrap();
    assert_eq!(
        s.call_prepared(&call, std::slice::from_ref(&x))
            .unwrap()
            .as_f64(),
        Some(5.0)
    );
    // Still one assignment of `w`: nothing changes.
    s.load_source("n.jl", "v = 1").unwrap();
    assert_eq!(
        s.call_prepared(&call, std::slice::from_ref(&x))
            .unwrap()
            .as_f64(),
        Some(5.0)
    );
    // `w` is assigned again (with another type): the prepared code read it as a vector.
    s.load_source("o.jl", "w = 4").unwrap();
    let stale = "prepared before a global it may read was assigned again";
    let e = s
        .call_prepared(&call, std::slice::from_ref(&x))
        .unwrap_err();
    assert!(e.to_string().contains(stale), "{e}");
    let e = s
        .value_and_gradient_cached(&cache, std::slice::from_ref(&x))
        .unwrap_err();
    assert!(e.to_string().contains(stale), "{e}");
    let call = s.prepare_call(&f, std::slice::from_ref(&x)).unwrap();
    assert_eq!(
        s.call_prepared(&call, std::slice::from_ref(&x))
            .unwrap()
            .as_f64(),
        Some(8.0)
    );
    let (_, g) = s.value_and_gradient(&f, std::slice::from_ref(&x)).unwrap();
    assert_eq!(g[1].to_f64_vec(), Some(vec![4.0, 4.0]));
}

#[test]
fn prepared_calls_check_argument_types() {
    let (mut s, _) = session();
    s.load_source("m.jl", "g(v, a) = sum(v) * a").unwrap();
    let g = s.eval("g").unwrap();
    let v = |xs: Vec<f64>| Value::Array(SharedArray::new(ArrayObj::vector_f64(xs)));
    let call = s
        .prepare_call(&g, &[v(vec![1.0]), Value::F64(1.0)])
        .unwrap();
    let r = s.call_prepared(&call, &[v(vec![1.0, 2.0, 3.0]), Value::F64(2.0)]);
    assert_eq!(r.unwrap().as_f64(), Some(12.0));
    // Sizes may change; types may not.
    let r = s.call_prepared(&call, &[v(vec![4.0]), Value::F64(0.5)]);
    assert_eq!(r.unwrap().as_f64(), Some(2.0));
    let e = s
        .call_prepared(&call, &[v(vec![4.0]), Value::Int(2)])
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "argument 2 has type Int64, but the call was prepared for Float64"
    );
    let e = s.call_prepared(&call, &[v(vec![4.0])]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the call was prepared for 2 arguments, got 1"
    );
}

#[test]
fn errors_are_values_with_locations() {
    let (mut s, _) = session();
    s.load_source("m.jl", "g(v) = v[10]").unwrap();
    let e = s.eval("g([1.0])").unwrap_err();
    match &e {
        Error::Runtime(r) => assert!(matches!(r.exception, Exception::Bounds { .. })),
        other => panic!("expected a runtime error, got {other:?}"),
    }
    let text = s.render_error(&e);
    assert!(
        text.contains("BoundsError: attempt to access 1-element Vector{Float64} at index [10]"),
        "{text}"
    );
    assert!(text.contains("m.jl:1:8"), "{text}");

    let e = s.load_source("bad.jl", "x = (1 +\n").unwrap_err();
    assert!(matches!(e, Error::Syntax(_)));
    assert!(s.render_error(&e).contains("bad.jl:2:1"));

    let e = s.call("nope", vec![]).unwrap_err();
    assert!(e.to_string().contains("`nope` not defined"));

    // A number is a container of itself: index 10 is out of its bounds.
    let e = s.call("g", vec![Value::F64(1.0)]).unwrap_err();
    assert!(
        e.to_string()
            .contains("BoundsError: attempt to access Float64 at index [10]"),
        "{e}"
    );
    let e = s.call("g", vec![Value::Nothing]).unwrap_err();
    assert!(
        e.to_string()
            .contains("MethodError: no method matching getindex(::Nothing, ::Int64)"),
        "{e}"
    );
}

#[test]
fn ir_dumps_at_each_stage() {
    let (mut s, _) = session();
    s.load_source("m.jl", "h(x) = x > 0 ? x : -x").unwrap();
    let lowered = s.ir("h(1.5)", Stage::Lowered).unwrap();
    assert!(lowered.contains("[ssa]"), "{lowered}");
    let typed = s.ir("h(1.5)", Stage::Typed).unwrap();
    assert!(typed.contains("h(Float64) -> Float64 [typed]"), "{typed}");
    assert!(typed.contains("invoke"), "{typed}");
    let opt = s.ir("h(1.5)", Stage::Optimised).unwrap();
    assert!(opt.contains("prim lt_float"), "{opt}");
    assert!(opt.contains("m.jl:1:"), "locations are shown: {opt}");
    // `1 + 2` is a call of `+`; a literal is not a call.
    assert!(s
        .ir("1 + 2", Stage::Typed)
        .unwrap()
        .contains("+(Int64, Int64)"));
    assert!(matches!(
        s.ir("42", Stage::Typed).unwrap_err(),
        Error::Usage(_)
    ));
}

#[test]
fn structs_and_tuples_as_values() {
    let (mut s, _) = session();
    s.load_source(
        "m.jl",
        "struct P\n x::Float64\n y::Int\nend\nmk() = (P(1.5, 2), (a = 1, b = \"s\"))",
    )
    .unwrap();
    let v = s.eval("mk()").unwrap();
    assert_eq!(mooncake::show(&v), "(P(1.5, 2), (a = 1, b = \"s\"))");
    assert_eq!(
        v.ty().to_string(),
        "Tuple{P, @NamedTuple{a::Int64, b::String}}"
    );
}

#[test]
fn arrays_of_isbits_aggregates_are_stored_inline() {
    let (mut s, _) = session();
    s.load_source("m.jl", "struct P\n x::Float64\n y::Float64\nend\nmk() = Vector{P}(undef, 2)\nmt() = Vector{Tuple{Int, Float64}}(undef, 1)").unwrap();
    for call in ["mk()", "mt()"] {
        let Value::Array(a) = s.eval(call).unwrap() else {
            panic!("array expected")
        };
        a.with(|inner| {
            assert!(
                matches!(inner.data, mooncake::ArrayData::Bits { .. }),
                "{call}"
            )
        });
    }
}

#[test]
fn repeated_gradients_reuse_nothing_the_caller_still_holds() {
    // The gradient of a struct of arrays, through a global array of arrays that the function
    // writes its argument into: each run starts from zero fdata for both, whether it made
    // them anew or zeroed the last run's.
    let (mut s, _) = session();
    s.load_source(
        "m.jl",
        "struct P\n w::Vector{Float64}\n b::Float64\nend\n\
         G = [[0.0, 0.0], [1.0, 2.0]]\n\
         function f(p)\n G[1][1] = p.b\n sum(p.w .* G[2]) + sum(abs2, G[1]) * p.b\nend\n\
         p0() = P([3.0, 4.0], 2.0)",
    )
    .unwrap();
    let f = s.eval("f").unwrap();
    let p = s.eval("p0()").unwrap();
    let cache = s
        .prepare_gradient_cache(&f, std::slice::from_ref(&p))
        .unwrap();
    let grad = |s: &mut Session| {
        let (y, g) = s
            .value_and_gradient_cached(&cache, std::slice::from_ref(&p))
            .unwrap();
        (y.as_f64(), g[1].clone())
    };
    let parts = |g: &Value| {
        (
            g.field(0).and_then(|w| w.to_f64_vec()),
            g.field(1).and_then(|b| b.as_f64()),
        )
    };
    // f = w⋅[1, 2] + b³: ∂w = [1, 2], ∂b = 3b² = 12.
    let expected = (Some(vec![1.0, 2.0]), Some(12.0));
    let (y1, g1) = grad(&mut s);
    assert_eq!(y1, Some(19.0));
    assert_eq!(parts(&g1), expected);
    // The first gradient is still held: the second gets arrays of its own.
    let (_, g2) = grad(&mut s);
    assert_eq!(parts(&g2), expected);
    assert_eq!(parts(&g1), expected);
    drop((g1, g2));
    // Nothing holds them now: later runs may zero and reuse them.
    for _ in 0..3 {
        let (y, g) = grad(&mut s);
        assert_eq!(y, Some(19.0));
        assert_eq!(parts(&g), expected);
    }
}

#[test]
fn a_programs_own_function_named_like_a_library_one_is_called_and_differentiated() {
    let (mut s, _) = session();
    s.load_source("m.jl", "sum(x) = x[1]^2 + 3x[2]").unwrap();
    let x = Value::from(vec![2.0, 5.0]);
    let v = s.call("sum", vec![x.clone()]).unwrap();
    assert_eq!(v.as_f64(), Some(19.0));
    let f = s.eval("sum").unwrap();
    let (y, g) = s.value_and_gradient(&f, std::slice::from_ref(&x)).unwrap();
    assert_eq!(y.as_f64(), Some(19.0));
    assert_eq!(g[1].to_f64_vec(), Some(vec![4.0, 3.0]));
    // The library's `sum` is still `Base.sum`.
    assert_eq!(s.eval("Base.sum([1, 2])").unwrap().as_int(), Some(3));
}
