//! The command-line contract: exit codes, `error:` with `file:line:col`, and the JSON of
//! `grad --json`.

use std::process::Command;

fn mooncake(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mooncake"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn run_prints_and_exits_zero() {
    let (code, out, _) = mooncake(&[
        "run",
        "examples/rosenbrock.jl",
        "--call",
        "rosenbrock(x0())",
    ]);
    assert_eq!(code, 0);
    assert_eq!(out, "f(x0) = 532.4000000000001\n532.4000000000001\n");
}

#[test]
fn user_errors_exit_one_with_location() {
    let (code, _, err) = mooncake(&["run", "tests/programs/err_bounds.jl"]);
    assert_eq!(code, 1);
    assert!(err.starts_with("error: BoundsError"), "{err}");
    assert!(err.contains("tests/programs/err_bounds.jl:3:5"), "{err}");
    let (code, _, err) = mooncake(&["run", "no/such/file.jl"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("error: cannot read no/such/file.jl"),
        "{err}"
    );
}

/// An error raised while differentiating points at the user's line with the user's call chain
/// (the derived code carries the inline sites of the code it derives from), in both modes and
/// on both backends.
#[test]
fn errors_in_derived_code_point_at_user_lines() {
    let dir = std::env::temp_dir().join(format!("mooncake-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("derived_error.jl");
    std::fs::write(
        &file,
        "inner(x) = sqrt(x - 2.0)\nfunction outer(x)\n    s = 0.0\n    for v in x\n        s += inner(v) * 2.0\n    end\n    s\nend\n",
    )
    .expect("writable");
    let file = file.to_str().expect("utf-8 path");
    for extra in [&[][..], &["--mode", "forward"], &["--interpret"]] {
        let mut args = vec!["grad", file, "--call", "outer([3.0, 1.0])"];
        args.extend_from_slice(extra);
        let (code, _, err) = mooncake(&args);
        assert_eq!(code, 1, "{extra:?}");
        assert!(
            err.starts_with("error: DomainError with -1.0"),
            "{extra:?}: {err}"
        );
        assert!(err.contains("derived_error.jl:1:12"), "{extra:?}: {err}");
        assert!(
            err.contains("[1] inner(Float64) at ")
                && err.contains("[2] outer(Vector{Float64}) at ")
                && err.contains("derived_error.jl:5:14"),
            "{extra:?}: {err}"
        );
    }
}

#[test]
fn grad_json_contract() {
    let (code, out, err) = mooncake(&[
        "grad",
        "examples/rosenbrock.jl",
        "--call",
        "rosenbrock(x0())",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let json = out.lines().last().unwrap_or("");
    assert_eq!(
        json,
        r#"{"value":532.4000000000001,"gradient":[null,[-215.59999999999997,792.0000000000001,-655.6,-87.99999999999999]]}"#
    );
}

/// The gradient with respect to a dictionary of parameters is a dictionary of the same keys,
/// printed and in JSON, in both modes.
#[test]
fn dictionary_gradients_are_dictionaries() {
    for mode in ["reverse", "forward"] {
        let call = [
            "examples/dict_parameters.jl",
            "--call",
            "loss(params0())",
            "--mode",
            mode,
        ];
        let (code, out, err) = mooncake(&[&["grad"][..], &call].concat());
        assert_eq!(code, 0, "{err}");
        let line = out.lines().find(|l| l.contains("argument 1")).unwrap_or("");
        assert!(line.contains(": Dict(:"), "{mode}: {out}");
        for (key, value) in [
            (":slope", "-20.925"),
            (":intercept", "-11.45"),
            (":log_noise", "-26.9175"),
        ] {
            assert!(line.contains(&format!("{key} => {value}")), "{mode}: {out}");
        }
        let (code, out, err) = mooncake(&[&["grad"][..], &call, &["--json"]].concat());
        assert_eq!(code, 0, "{err}");
        let json: serde_json::Value =
            serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON");
        assert_eq!(
            json["gradient"][1]["slope"],
            serde_json::json!(-20.925),
            "{mode}: {out}"
        );
        assert_eq!(
            json["gradient"][1]["log_noise"],
            serde_json::json!(-26.9175),
            "{mode}: {out}"
        );
    }
}

#[test]
fn ir_stages() {
    for stage in [
        "lowered",
        "typed",
        "optimised",
        "forward",
        "pullback",
        "dual",
    ] {
        let (code, out, err) = mooncake(&[
            "ir",
            "examples/rosenbrock.jl",
            "--call",
            "rosenbrock(x0())",
            "--stage",
            stage,
        ]);
        assert_eq!(code, 0, "{stage}: {err}");
        assert!(out.contains("function "), "{stage}: {out}");
    }
}

#[test]
fn check_reports_and_sets_the_exit_code() {
    let (code, out, err) = mooncake(&[
        "check",
        "examples/rosenbrock.jl",
        "--call",
        "rosenbrock(x0())",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("ok   finite differences"), "{out}");
}

#[test]
fn rule_contexts_give_the_same_gradient() {
    let args = |ctx: &'static str| {
        [
            "grad",
            "tests/gradients/sum_dot_rules.jl",
            "--call",
            "loss([1.0, -2.0, 0.5], [0.3, 0.2, -1.0])",
            "--json",
            "--context",
            ctx,
        ]
    };
    let (c1, default, e1) = mooncake(&args("default"));
    let (c2, minimal, e2) = mooncake(&args("minimal"));
    assert_eq!((c1, c2), (0, 0), "{e1}{e2}");
    assert_eq!(default, minimal);
    let ir = |ctx| {
        mooncake(&[
            "ir",
            "tests/gradients/sum_dot_rules.jl",
            "--call",
            "loss([1.0], [2.0])",
            "--stage",
            "pullback",
            "--context",
            ctx,
        ])
        .1
    };
    assert!(ir("default").contains("prim array_axpy"));
    assert!(!ir("minimal").contains("prim array_axpy"));
}

#[test]
fn bench_json_contract() {
    let (code, out, err) = mooncake(&[
        "bench",
        "examples/bench.jl",
        "--call",
        "program_b(xs(64))",
        "--json",
        "--budget",
        "0.02",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    let keys: Vec<&str> = v
        .as_object()
        .expect("an object")
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(
        keys,
        [
            "primal_ns",
            "reverse_ns",
            "forward_ns",
            "first_gradient_ms",
            "compile_ms",
            "ratio_reverse",
            "ratio_forward"
        ]
    );
    for k in [
        "primal_ns",
        "reverse_ns",
        "forward_ns",
        "first_gradient_ms",
        "ratio_reverse",
        "ratio_forward",
    ] {
        assert!(v[k].as_f64().is_some_and(|x| x > 0.0), "{k}: {out}");
    }
}

#[test]
fn both_backends_give_the_same_output_and_gradient() {
    let grad = |extra: &[&str]| {
        let mut args = vec![
            "grad",
            "examples/bench.jl",
            "--call",
            "rosenbrock(xs(5))",
            "--json",
        ];
        args.extend_from_slice(extra);
        mooncake(&args)
    };
    let (c1, native, e1) = grad(&[]);
    let (c2, interp, e2) = grad(&["--interpret"]);
    assert_eq!((c1, c2), (0, 0), "{e1}{e2}");
    assert_eq!(native, interp);
    // Errors raised in native code read as the interpreter's.
    let (c1, _, native) = mooncake(&["run", "tests/programs/err_bounds.jl", "--verbose"]);
    let (c2, _, interp) = mooncake(&["run", "tests/programs/err_bounds.jl", "--interpret"]);
    assert_eq!((c1, c2), (1, 1));
    assert_eq!(native, interp);
}

#[test]
fn forward_mode_gives_the_reverse_gradient() {
    let args = [
        "grad",
        "examples/rosenbrock.jl",
        "--call",
        "rosenbrock(x0())",
        "--json",
    ];
    let (code, rev, err) = mooncake(&args);
    assert_eq!(code, 0, "{err}");
    let parse = |s: &str| -> Vec<f64> {
        let v: serde_json::Value =
            serde_json::from_str(s.lines().last().unwrap_or("")).expect("json");
        v["gradient"][1]
            .as_array()
            .expect("a vector")
            .iter()
            .map(|x| x.as_f64().expect("a float"))
            .collect()
    };
    for chunk in ["1", "3", "8"] {
        let mut a = args.to_vec();
        a.extend(["--mode", "forward", "--chunk", chunk]);
        let (code, fwd, err) = mooncake(&a);
        assert_eq!(code, 0, "{err}");
        for (x, y) in parse(&rev).iter().zip(parse(&fwd)) {
            assert!(
                (x - y).abs() <= 1e-9 * x.abs().max(1.0),
                "chunk {chunk}: {rev} vs {fwd}"
            );
        }
    }
}

#[test]
fn hessian_json_contract_and_bad_input() {
    let (code, out, err) = mooncake(&[
        "hessian",
        "tests/hessians/loops_and_branches.jl",
        "--call",
        "rosenbrock([1.2, 0.9, 1.1, -0.4])",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    let keys: Vec<&str> = v
        .as_object()
        .expect("object")
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(keys, ["value", "gradient", "hessian"]);
    assert_eq!(v["hessian"][0][0].as_f64(), Some(1370.0));
    assert_eq!(v["hessian"][0][1].as_f64(), Some(-480.0));
    assert_eq!(v["gradient"].as_array().map(|g| g.len()), Some(4));
    let (code, out, _) = mooncake(&[
        "hessian",
        "tests/hessians/loops_and_branches.jl",
        "--call",
        "while_poly(0.8)",
        "--json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert!(
        v["hessian"].is_number() && v["gradient"].is_number(),
        "{out}"
    );
    let (code, _, err) = mooncake(&[
        "hessian",
        "tests/hessians/loops_and_branches.jl",
        "--call",
        "length([1, 2])",
    ]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("error: ") && err.contains("one float or one array of floats"),
        "{err}"
    );
}

/// A file in this test run's temporary directory.
fn temp_program(name: &str, src: &str) -> String {
    let dir = std::env::temp_dir().join(format!("mooncake-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(name);
    std::fs::write(&file, src).expect("writable");
    file.to_str().expect("utf-8 path").to_string()
}

/// With `--json`, standard output holds exactly one JSON object; what the program prints goes
/// to standard error.
#[test]
fn json_output_is_one_object_and_program_output_goes_to_stderr() {
    let file = temp_program(
        "prints.jl",
        "println(\"loading\")\nf(x) = (println(\"in f\"); x[1]^2)\n",
    );
    for args in [
        vec!["grad", &file, "--call", "f([3.0])", "--json"],
        vec![
            "grad", &file, "--call", "f([3.0])", "--json", "--mode", "forward",
        ],
        vec!["hessian", &file, "--call", "f([3.0])", "--json"],
    ] {
        let (code, out, err) = mooncake(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
        assert!(v.is_object(), "{out}");
        assert_eq!(out.trim().lines().count(), 1, "{out}");
        assert!(err.contains("loading") && err.contains("in f"), "{err}");
    }
    // Without --json the program prints to standard output.
    let (_, out, _) = mooncake(&["grad", &file, "--call", "f([3.0])"]);
    assert!(out.starts_with("loading\n"), "{out}");
}

/// Exit status 2 for a wrong command line, 1 for an error of the program.
#[test]
fn usage_errors_exit_two() {
    for args in [
        vec!["run", "examples/rosenbrock.jl", "--no-such-flag"],
        vec!["grad", "examples/rosenbrock.jl"],
        vec![
            "grad",
            "examples/rosenbrock.jl",
            "--call",
            "rosenbrock(x0())",
            "--chunk",
            "0",
        ],
        vec![
            "bench",
            "examples/rosenbrock.jl",
            "--call",
            "rosenbrock(x0())",
            "--budget",
            "NaN",
        ],
        vec![
            "bench",
            "examples/rosenbrock.jl",
            "--call",
            "rosenbrock(x0())",
            "--budget=-1",
        ],
        vec!["run", "examples/rosenbrock.jl", "--max-memory", "12X"],
    ] {
        let (code, _, err) = mooncake(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
    }
}

/// Past `--max-memory`, arrays raise `OutOfMemoryError()`: a large allocation, and a vector
/// that grows forever (in native code and in the interpreter).
#[test]
fn memory_limit_raises_out_of_memory() {
    let big = temp_program(
        "big.jl",
        "x = zeros(10^6)\nprintln(length(x))\ny = zeros(10^8)\n",
    );
    let (code, out, err) = mooncake(&["run", &big, "--max-memory", "64M"]);
    assert_eq!((code, out.as_str()), (1, "1000000\n"), "{err}");
    assert!(err.starts_with("error: OutOfMemoryError()"), "{err}");
    assert!(err.contains("big.jl:3:5"), "{err}");
    let grow = temp_program(
        "grow.jl",
        "v = Float64[]\nwhile true\n    push!(v, 1.0)\nend\n",
    );
    for extra in [None, Some("--interpret")] {
        let mut args = vec!["run", &grow, "--max-memory", "32M"];
        args.extend(extra);
        let (code, _, err) = mooncake(&args);
        assert_eq!(code, 1, "{err}");
        assert!(err.starts_with("error: OutOfMemoryError()"), "{err}");
    }
}

/// Inputs that once ran away end quickly with a bounded report: thousands of syntax errors on
/// one huge line, and a sum of thousands of terms.
#[test]
fn huge_inputs_end_with_bounded_reports() {
    let ends = temp_program("ends.jl", &"end ".repeat(5000));
    let (code, _, err) = mooncake(&["run", &ends]);
    assert_eq!(code, 1);
    assert!(err.lines().count() < 60, "{} lines", err.lines().count());
    assert!(err.contains("more syntax errors"), "{err}");
    assert!(err.contains("the line is too long to show"), "{err}");
    let sum = temp_program(
        "sum.jl",
        &format!("x = {}\nprintln(x)\n", vec!["1"; 5000].join(" + ")),
    );
    let (code, out, err) = mooncake(&["run", &sum]);
    assert_eq!((code, out.as_str()), (0, "5000\n"), "{err}");
}

/// A mistake in differentiated code reads exactly as `run` reports it (error type, primal
/// types, candidates, line, stack trace) under `grad` (both modes), `check` and `hessian`.
#[test]
fn errors_under_differentiation_read_as_run() {
    let file = temp_program(
        "mistakes.jl",
        r#"minus_string(x) = x - "a"
copy_minus(x) = copy(x) - x[1]
boom(xs) = (length(xs); error("boom"))
function typo(x)
    total = 0.0
    for v in x
        total += v
    end
    return totl
end
function unpack(θ)
    w, b = θ
    w * b
end
first_sq(x) = x[end]^2
x0() = [1.0, 2.0]
"#,
    );
    let calls = [
        "minus_string(1.0)",
        "copy_minus([1.0])",
        "boom([1.0])",
        "typo([1.0])",
        "unpack(2.0)",
        "first_sq(x0)",
        "first_sq(x0(), 1.0)",
    ];
    for call in calls {
        let (code, _, want) = mooncake(&["run", &file, "--call", call]);
        assert_eq!(code, 1, "{call}: {want}");
        let mut commands = vec![
            vec!["grad", &file, "--call", call],
            vec!["grad", &file, "--call", call, "--mode", "forward"],
            vec!["grad", &file, "--call", call, "--interpret"],
            vec!["check", &file, "--call", call],
        ];
        if !call.contains(',') {
            commands.push(vec!["hessian", &file, "--call", call]);
        }
        for args in commands {
            let (code, _, err) = mooncake(&args);
            assert_eq!(code, 1, "{args:?}");
            assert_eq!(err, want, "{args:?}");
        }
    }
    // Programs that fail (or warn) while loading do so the same way whatever the command.
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/programs"));
    let mut errs: Vec<String> = std::fs::read_dir(dir)
        .expect("tests/programs")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "err"))
        .map(|p| p.with_extension("jl").display().to_string())
        .collect();
    errs.sort();
    for prog in &errs {
        let (run_code, _, want) = mooncake(&["run", prog]);
        for cmd in ["grad", "check"] {
            let (code, _, err) = mooncake(&[cmd, prog, "--call", "identity(1.0)"]);
            assert_eq!(code, run_code, "{cmd} {prog}");
            assert_eq!(err, want, "{cmd} {prog}");
        }
    }
}
