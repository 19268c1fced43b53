//! No input may panic: every test program, cut at many points (mostly into syntax errors,
//! sometimes into shorter valid programs), loads without a panic, and so does assorted garbage.

use mooncake::Session;
use std::path::PathBuf;

fn try_load(src: &str) {
    let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude loads");
    s.set_fuel(Some(200_000));
    if let Err(e) = s.load_source("fuzz.jl", src) {
        // Rendering must not panic either.
        let _ = s.render_error(&e);
    }
}

#[test]
fn truncated_programs_do_not_panic() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/programs");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/programs exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jl"))
        .collect();
    paths.sort();
    for p in paths {
        let src = std::fs::read_to_string(&p).expect("readable");
        let cuts: Vec<usize> = (1..6).map(|k| src.len() * k / 6).collect();
        for cut in cuts {
            let mut c = cut;
            while !src.is_char_boundary(c) {
                c -= 1;
            }
            let piece = src[..c].to_string();
            let name = p.display().to_string();
            let r = std::thread::Builder::new()
                .stack_size(16 << 20)
                .spawn(move || try_load(&piece))
                .expect("spawn")
                .join();
            assert!(r.is_ok(), "panic on {name} cut at byte {c}");
        }
    }
}

#[test]
fn garbage_does_not_panic() {
    let inputs = [
        "end",
        "function",
        "f(",
        "x[",
        "struct S x::Nope end",
        "abstract type",
        "[1 2; 3]",
        "f(x) = x; f()",
        "1 + \"a\"",
        "nothing.x",
        "(1, 2)[3]",
        "Core.nope(1)",
        "Core.add_int(1.0, 2)",
        "x::Int = 1",
        "const c = 1; c = 2",
        "struct P{T} x::T end; P{1}(2)",
        "Vector{Float64}(undef, -1)",
        "zeros(2)[0]",
        "a = [1, 2]; a[1, 2, 3]",
        "typeof()",
        "g(x::T) where T = T; g(1)(2)",
        "f(x) = f(x, x); f(1)",
        "for i in 5 end",
        "while false end; break",
        "1:2:3:4",
        "@foo 1",
        "\"$(\"",
        "mutable struct M end; M().x = 1",
        "s = \"x\"; s[1]",
        "[1, 2] * [3, 4]",
        "h(x::Vector{<:Real}) = 1; h([\"a\"])",
        "Int(\"3\")",
        "f() = return; f()",
        "-(\"a\")",
        "let x = 1 end",
        "local y",
        "global z; z",
        "a, b = 1",
        "(a = 1, a = 2)",
    ];
    for src in inputs {
        let s = src.to_string();
        let r = std::thread::Builder::new()
            .stack_size(16 << 20)
            .spawn(move || try_load(&s))
            .expect("spawn")
            .join();
        assert!(r.is_ok(), "panic on {src:?}");
    }
}
