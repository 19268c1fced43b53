//! No input may panic: every test program, cut at many points (mostly into syntax errors,
//! sometimes into shorter valid programs), loads without a panic, and so does assorted garbage;
//! so do programs mutated at random (a fixed seed, a few seconds' worth), loaded and, for the
//! gradient battery's programs, differentiated in both modes. A panic the session caught
//! (an internal error) counts as a panic.

mod common;

use mooncake::{Error, Session};

/// Loads `src`; `Err` describes a panic or an internal error.
fn load(src: &str) -> Result<Session, String> {
    let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude loads");
    s.set_warning_output(Box::new(std::io::sink()));
    s.set_fuel(Some(200_000));
    match s.load_source("fuzz.jl", src) {
        Err(e @ Error::Internal { .. }) => Err(s.render_error(&e)),
        Err(e) => {
            // Rendering must not panic either.
            let _ = s.render_error(&e);
            Ok(s)
        }
        Ok(()) => Ok(s),
    }
}

fn try_load(src: &str) {
    if let Err(e) = load(src) {
        panic!("{e}");
    }
}

#[test]
fn truncated_programs_do_not_panic() {
    // The programs are shared out over the machine's cores (each load is independent).
    let programs = common::jl_programs("programs");
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for w in 0..workers {
            let programs = &programs;
            scope.spawn(move || {
                for (name, src) in programs.iter().skip(w).step_by(workers) {
                    truncations_do_not_panic(name, src);
                }
            });
        }
    });
}

/// `src` cut at five points loads without a panic.
fn truncations_do_not_panic(name: &str, src: &str) {
    let cuts: Vec<usize> = (1..6).map(|k| src.len() * k / 6).collect();
    for cut in cuts {
        let mut c = cut;
        while !src.is_char_boundary(c) {
            c -= 1;
        }
        let piece = src[..c].to_string();
        let r = std::thread::Builder::new()
            .stack_size(16 << 20)
            .spawn(move || try_load(&piece))
            .expect("spawn")
            .join();
        assert!(r.is_ok(), "panic on {name} cut at byte {c}");
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

/// A fixed pseudo-random sequence (the same mutations on every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize
    }
    fn below(&mut self, n: usize) -> usize {
        self.next() % n.max(1)
    }
}

/// One random edit of `src`: a span deleted, a line repeated or swapped with the next, a
/// token inserted, an operator or digit replaced.
fn mutate(src: &str, rng: &mut Lcg) -> String {
    const TOKENS: &[&str] = &[
        "end", "(", ")", "[", "]", ",", ";", "x", "1", "0.0", "-", "^", "'", ".", "::Int", "...",
        "nothing", "\"s\"", "\n", " ", "=", "->", "[1, 2]", "begin", "if true",
    ];
    const SWAPS: &[char] = &[
        '+', '-', '*', '/', '^', '<', '>', '=', '0', '1', '2', '9', '.',
    ];
    let chars: Vec<char> = src.chars().collect();
    let at = rng.below(chars.len() + 1);
    let mut out: Vec<char> = chars.clone();
    match rng.below(6) {
        0 => {
            let len = 1 + rng.below(8);
            let end = (at + len).min(out.len());
            out.drain(at..end);
        }
        1 | 2 => {
            let tok: Vec<char> = TOKENS[rng.below(TOKENS.len())].chars().collect();
            out.splice(at..at, tok);
        }
        3 => {
            if let Some(c) = out.get_mut(at) {
                if SWAPS.contains(c) || c.is_ascii_digit() {
                    *c = SWAPS[rng.below(SWAPS.len())];
                } else {
                    *c = ' ';
                }
            }
        }
        _ => {
            let mut lines: Vec<&str> = src.lines().collect();
            if !lines.is_empty() {
                let k = rng.below(lines.len());
                if rng.below(2) == 0 {
                    lines.insert(k, lines[k]);
                } else if k + 1 < lines.len() {
                    lines.swap(k, k + 1);
                }
            }
            return lines.join("\n");
        }
    }
    out.into_iter().collect()
}

/// Only the numbers of `src` change (so that a program more often stays valid and reaches
/// differentiation): a digit replaced, or a sign added.
fn mutate_numbers(src: &str, rng: &mut Lcg) -> String {
    let mut lines: Vec<Vec<char>> = src.lines().map(|l| l.chars().collect()).collect();
    // Digits outside comments (the `# check:` lines stay as they are).
    let digits: Vec<(usize, usize)> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.first() != Some(&'#'))
        .flat_map(|(k, l)| {
            l.iter()
                .enumerate()
                .filter(|(_, c)| c.is_ascii_digit())
                .map(move |(i, _)| (k, i))
        })
        .collect();
    if !digits.is_empty() {
        for _ in 0..2 {
            let (k, i) = digits[rng.below(digits.len())];
            lines[k][i] = char::from(b'0' + rng.below(10) as u8);
        }
    }
    lines
        .into_iter()
        .map(|l| l.into_iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// `n`, or `MOONCAKE_FUZZ_ROUNDS` when set (for longer runs by hand).
fn rounds(n: usize) -> usize {
    std::env::var("MOONCAKE_FUZZ_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n)
}

#[test]
fn mutated_programs_do_not_panic() {
    let mut rng = Lcg(0x9e37_79b9_7f4a_7c15);
    let corpus = common::jl_programs("programs");
    for round in 0..rounds(120) {
        let (name, src) = &corpus[rng.below(corpus.len())];
        let mut m = src.clone();
        for _ in 0..1 + rng.below(3) {
            m = mutate(&m, &mut rng);
        }
        let piece = m.clone();
        let r = std::thread::Builder::new()
            .stack_size(16 << 20)
            .spawn(move || load(&piece))
            .expect("spawn")
            .join();
        match r {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => panic!("round {round}, {name} mutated to:\n{m}\n{e}"),
            Err(_) => panic!("round {round}: panic on {name} mutated to:\n{m}"),
        }
    }
}

/// Programs written with the newer syntax forms (destructuring parameters, `const` of several
/// names, prefix radicals, slurping, tuple broadcasting, `@views` on a tuple assignment,
/// `try`/`catch`/`else`/`finally`, the set operators, unsigned literals, `invoke`),
/// mutated with tokens of those forms.
#[test]
fn mutated_new_syntax_does_not_panic() {
    const PROGRAMS: &[&str] = &[
        "smile(K, (a, b, c)) = a + b * K + c * K^2\nsmile(2.0, (1.0, 2.0, 3.0))",
        "f = ((a, b), c) -> a * b + c\nf((2.0, 3.0), 1.0)\nmap([(1, 2)]) do (i, x)\n i * x\nend",
        "const a, b = 1, 2\nconst t::Float64 = 1\nglobal const g = a + b + t",
        "x = 4.0\ny = √x^2 + 2√x + ∛-8.0 + ∜16.0 + √2x\nmap(√, [1.0, 4.0])",
        "h, rest... = (1, 2.0, 3)\nu, vs... = [1.0, 2.0]\nhead((p, q...)) = q",
        "t = (1.0, 2.0) .* 3.0 .+ (1, 2)\n[1, 2] .+ (10, 20)",
        "X = ones(3, 2); y = ones(3)\n@views Xb, yb = X[[1, 3], :], y[1:2]\n@show Xb, yb",
        "v = [1.0]\npush!(v, 2.0, 3)\nappend!(v, [4.0], (5,))\npushfirst!(v, 0.0, -1.0)",
        "x = try\n sqrt(-1.0)\ncatch e\n println(e)\n e isa DomainError || rethrow()\nelse\n 1\nfinally\n println(2)\nend",
        "function f(v)\n for x in v\n try\n x < 0 && continue\n x > 2 && break\n return x\n catch\n end\n end\nend\nf([1.0])",
        "d = Dict(:a => 1.0)\nd[:b] = 2.0\ns = Set([1, 2]) ∪ [3]\nt = s ∩ Set(1:2)\n(s ⊆ t, get!(d, :c, 0.5), sum(values(d)))",
        "x = 0xff + 0b101 * 0o17\ny = Int8(-3) >>> 0x02\nBase.:(==)(a::Int8, b::String) = false\nz = invoke(+, Tuple{Integer, Integer}, x, 0x0001)",
    ];
    const TOKENS: &[&str] = &[
        "√",
        "∛",
        "∜",
        "(a, b)",
        "((a, b), c)",
        "...",
        ",",
        "const ",
        "global ",
        "@views ",
        "(",
        ")",
        "=",
        "::Tuple",
        " do (x, y)\n",
        "end",
        ".+",
        "(1,)",
        "_",
        "try ",
        "catch ",
        "\ncatch e\n",
        "finally\n",
        "else\n",
        "rethrow()",
        "return ",
        "∪",
        "∩",
        "⊆",
        "⊋",
        " => ",
        "Dict(",
        "Set(",
        "0x",
        "0xff",
        "0b1_0",
        "0o7",
        "0x1p3",
        "UInt8(",
        ".:(==)",
        "invoke(",
        "Tuple{Real}, ",
        ".≈",
        ".∈",
    ];
    let mut rng = Lcg(0x5851_f42d_4c95_7f2d);
    for round in 0..rounds(48) {
        let src = PROGRAMS[round % PROGRAMS.len()];
        let mut m: Vec<char> = src.chars().collect();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(m.len() + 1);
            if rng.below(3) == 0 {
                let end = (at + 1 + rng.below(6)).min(m.len());
                m.drain(at..end);
            } else {
                let tok = TOKENS[rng.below(TOKENS.len())];
                m.splice(at..at, tok.chars());
            }
        }
        let piece: String = m.into_iter().collect();
        let p = piece.clone();
        let r = std::thread::Builder::new()
            .stack_size(16 << 20)
            .spawn(move || load(&p))
            .expect("spawn")
            .join();
        match r {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => panic!("round {round} mutated to:\n{piece}\n{e}"),
            Err(_) => panic!("round {round}: panic on:\n{piece}"),
        }
    }
}

#[test]
fn mutated_gradient_programs_do_not_panic() {
    let mut rng = Lcg(0x2545_f491_4f6c_dd1d);
    let corpus = common::jl_programs("gradients");
    for round in 0..rounds(60) {
        let (name, src) = &corpus[rng.below(corpus.len())];
        let calls: Vec<String> = src
            .lines()
            .filter_map(|l| l.strip_prefix("# check: "))
            .map(|c| c.split(" => ").next().unwrap_or(c).to_string())
            .collect();
        let m = mutate_numbers(src, &mut rng);
        let piece = m.clone();
        let r = std::thread::Builder::new()
            .stack_size(16 << 20)
            .spawn(move || -> Result<(), String> {
                let mut s = load(&piece)?;
                for call in &calls {
                    let results = [
                        s.gradient_of_call(call).map(|_| ()),
                        s.eval_call_parts(call)
                            .and_then(|(f, args)| s.value_and_gradient_forward(&f, &args, 3))
                            .map(|_| ()),
                    ];
                    for r in results {
                        if let Err(e @ Error::Internal { .. }) = r {
                            return Err(format!("{call}: {}", s.render_error(&e)));
                        }
                    }
                }
                Ok(())
            })
            .expect("spawn")
            .join();
        match r {
            Ok(Ok(())) => {}
            Ok(Err(e)) => panic!("round {round}, {name} mutated to:\n{m}\n{e}"),
            Err(_) => panic!("round {round}: panic on {name} mutated to:\n{m}"),
        }
    }
}
