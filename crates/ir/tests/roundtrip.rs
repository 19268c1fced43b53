//! The IR text form reads back to the same text, and the verifier catches broken IR.

use mooncake_ir::{read_function, verify, write_function, TypeEnv};

fn roundtrip(text: &str) {
    let env = TypeEnv::new();
    let f = read_function(text, &env).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(write_function(&f, None), text);
}

fn verify_errors(text: &str) -> Vec<String> {
    let env = TypeEnv::new();
    let f = read_function(text, &env).unwrap_or_else(|e| panic!("{e}"));
    match verify(&f, &env) {
        Ok(()) => vec![],
        Err(es) => es.into_iter().map(|e| e.message).collect(),
    }
}

const LOOP: &str = "function sumsq(Vector{Float64}) -> Float64 [typed]
block0(v0: typeof(sumsq), v1: Vector{Float64}):
    v2: Int64 = prim arraylen(v1)
    v3: Float64 = const 0.0
    v4: Int64 = const 1
    jump block1(v4, v3)
block1(v5: Int64, v6: Float64):
    v7: Bool = prim sle_int(v5, v2)
    br v7, block2, block3
block2:
    v8: Float64 = prim arrayref(v1, v5)
    v9: Float64 = prim mul_float(v8, v8)
    v10: Float64 = prim add_float(v6, v9)
    v11: Int64 = prim add_int(v5, v4)
    jump block1(v11, v10)
block3:
    return v6
end
";

#[test]
fn typed_loop_roundtrips_and_verifies() {
    roundtrip(LOOP);
    assert_eq!(verify_errors(LOOP), Vec::<String>::new());
}

#[test]
fn every_instruction_kind_roundtrips() {
    roundtrip(
        "function kinds -> Any [lowered]
    slot s0 x
block0(v0, v1):
    v2 = const 2.5
    v3 = const \"hi\\n\"
    v4 = const type Vector{Float64}
    v5 = const fn +
    v6 = invoke +#3(typeof(+), Float64, Float64)(v5, v2, v2)
    v7 = call(v5, v1, v2)
    v8 = new Point{Float64}(v2, v2)
    v9 = tuple(v2, v3)
    v10 = getfield v8.x
    v11 = getfield v9.1
    setfield v8.0 = v2
    v12 = typeassert v7::Float64
    v13 = global N
    setglobal N = v13
    v14 = static_param 0
    v15 = slot s0
    setslot s0 = v15
    v16 = const undef
    v17 = const nothing
    v18 = const true
    v19 = const type UnionAll{Point}
    v20 = const -Inf
    v21 = invoke :#0(typeof(:), Int64, Int64)(v5, v1, v1)
    br v18, block1(v2), block2
block1(v22):
    return v22
block2:
    unreachable
end
",
    );
}

#[test]
fn verifier_reports_broken_ir() {
    let errs = verify_errors(
        "function bad(Int64) -> Int64 [typed]
block0(v0: typeof(bad), v1: Int64):
    v2: Float64 = prim add_int(v1, v1)
    br v1, block1(v2), block1
block1(v3: Int64):
    return v4
end
",
    );
    let joined = errs.join("\n");
    assert!(
        joined.contains("prim add_int returns Int64 but v2 has type Float64"),
        "{joined}"
    );
    assert!(
        joined.contains("branch condition v1 has type Int64"),
        "{joined}"
    );
    assert!(
        joined.contains("passes 0 arguments for 1 parameters"),
        "{joined}"
    );
    assert!(
        joined.contains("v2: Float64 flows into v3: Int64"),
        "{joined}"
    );
    assert!(joined.contains("v4 is used but not defined"), "{joined}");
}

#[test]
fn verifier_checks_dominance() {
    let errs = verify_errors(
        "function dom(Bool) -> Int64 [typed]
block0(v0: typeof(dom), v1: Bool):
    br v1, block1, block2
block1:
    v2: Int64 = const 1
    jump block3
block2:
    jump block3
block3:
    return v2
end
",
    );
    assert!(errs.iter().any(|e| e.contains("not dominated")), "{errs:?}");
}

#[test]
fn verifier_errors_print_under_their_instruction() {
    let env = TypeEnv::new();
    let f = read_function(
        "function bad(Int64) -> Int64 [typed]
block0(v0: typeof(bad), v1: Int64):
    br v1, block1, block1
block1:
    v2: Float64 = const 1
    return v2
end
",
        &env,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let errs = verify(&f, &env).expect_err("the function is ill-typed");
    expect_test::expect![[r#"
        function bad(Int64) -> Int64 [typed]
        block0(v0: typeof(bad), v1: Int64):
            br v1, block1, block1
            ; error: block0: branch condition v1 has type Int64
        block1:
            v2: Float64 = const 1
            ; error: block1: constant of type Int64 in v2: Float64
            return v2
            ; error: block1: returns v2: Float64 from a function returning Int64
        end
    "#]]
    .assert_eq(&mooncake_ir::verify::write_with_errors(&f, &errs));
}

#[test]
fn programs_own_functions_named_like_library_ones_roundtrip() {
    roundtrip(
        "function Main.sum(Vector{Float64}) -> Float64 [typed]
block0(v0: typeof(Main.sum), v1: Vector{Float64}):
    v2: typeof(Main.+) = const fn Main.+
    v3: Float64 = invoke Main.+#0(typeof(Main.+), Float64, Float64)(v2, v1, v1)
    return v3
end
",
    );
}
