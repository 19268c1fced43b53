//! Parser tests: source in, S-expression and diagnostics out.

use expect_test::{expect, Expect};
use mooncake_syntax::{parse_file, sexpr, FileId, LineIndex};

fn check(src: &str, expect: Expect) {
    let (file, diags) = parse_file(src, FileId(0));
    let mut out = sexpr::render_file(&file);
    let idx = LineIndex::new(src);
    for d in diags {
        let (l, c) = idx.line_col(src, d.span.lo);
        out.push_str(&format!("error {l}:{c}: {}\n", d.message));
    }
    expect.assert_eq(&out);
}

#[test]
fn precedence() {
    check(
        "a + b * c ^ d ^ e\n-x^2\n2x^2 + 3(x + 1)\n1/2x\na:b-1\n1 < x <= 5\na && b || !c\nx > 0 ? 1 : 2\n2^-3\n",
        expect![[r#"
            (call + a (call * b (call ^ c (call ^ d e))))
            (call - (call ^ x 2))
            (call + (call * 2 (call ^ x 2)) (call * 3 (call + x 1)))
            (call / 1 (call * 2 x))
            (call : a (call - b 1))
            (comparison 1 < x <= 5)
            (|| (&& a b) (call ! c))
            (if (call > x 0) 1 2)
            (call ^ 2 -3)
        "#]],
    );
}

#[test]
fn unary_operators_juxtaposition_and_arrows() {
    check(
        "-(2.0)^2\n-(a, b)^2\n+(a)^2\n!(x)\n-(x::Point) = 1\n(x + 1)y\nx'y\n(x - 1)exp(-x)\n(x + 1)(x - 1)\n2^3x\n2(x)\n1e2x\n2 |> x -> x + 1\n",
        expect![[r#"
            (call - (call ^ 2.0 2))
            (call ^ (call - a b) 2)
            (call + (call ^ a 2))
            (call ! x)
            (function - (x::Point) (block 1))
            (call * (call + x 1) y)
            (call * (call (. Base adjoint) x) y)
            (call * (call - x 1) (call exp (call - x)))
            (call (call + x 1) (call - x 1))
            (call ^ 2 (call * 3 x))
            (call * 2 x)
            (call * 100.0 x)
            (call (-> (x) (call + x 1)) 2)
        "#]],
    );
}

#[test]
fn definitions() {
    check(
        r#"
function f(x::Float64, y)::Float64 where {T<:Real}
    return x + y
end
g(x) = 2x
h(x::Vector{T}) where T = x[end]
struct Point{T} <: Shape
    x::T
    y::T
end
mutable struct Acc; total; end
abstract type Shape end
const N = 10
k(x; scale = 2.0) = x * scale
function f end
"#,
        expect![[r#"
            (function f (x::Float64 y) (where T Real) (returns Float64) (block (return (call + x y))))
            (function g (x) (block (call * 2 x)))
            (function h (x::(curly Vector T)) (where T) (block (ref x end)))
            (struct Point {T} (<: Shape) x::T y::T)
            (mutable_struct Acc total)
            (abstract Shape)
            (const (= N 10))
            (function k (x) (kw (scale=2.0)) (block (call * x scale)))
            (function f () (block))
        "#]],
    );
}

#[test]
fn control_flow() {
    check(
        r#"
for i in 1:n, j = 1:m
    if i == j
        continue
    elseif i > j
        break
    else
        s += A[i, j]
    end
end
while x < 10; x *= 2; end
a, b = b, a + b
let y = 1, z
    y
end
for (i, v) in enumerate(xs)
end
"#,
        expect![[r#"
            (for (= i (call : 1 n)) (= j (call : 1 m)) (block (if (call == i j) (block (continue)) (if (call > i j) (block (break)) (block (+= s (ref A i j)))))))
            (while (call < x 10) (block (*= x 2)))
            (= (tuple a b) (tuple b (call + a b)))
            (let (block (= y 1) z) (block y))
            (for (= (tuple i v) (call enumerate xs)) (block))
        "#]],
    );
}

#[test]
fn concatenation_along_higher_dimensions() {
    check(
        r#"
[1; 2;; 3; 4]
[1 2;;; 3 4]
[a; b;;]
[1; 2;; 3;;; 4]
Float64[1;; 2]
"#,
        expect![[r#"
            (call (. Base hcat) (matrix (row 1) (row 2)) (matrix (row 3) (row 4)))
            (call (. Base cat) (matrix (row 1 2)) (matrix (row 3 4)) (kw dims 3))
            (call (. Base hcat) (matrix (row a) (row b)))
            (call (. Base cat) (call (. Base hcat) (matrix (row 1) (row 2)) (matrix (row 3))) (matrix (row 4)) (kw dims 3))
            (call (. Base _typed_collect) Float64 (call (. Base hcat) (matrix (row 1)) (matrix (row 2))))
        "#]],
    );
}

#[test]
fn literals() {
    check(
        r#"
[1, 2, 3]
[1.0 2.0; 3.0 4.0]
[1 -2]
[1 - 2]
Float64[]
Any[1, 2.0]
"x = $x and $(x + 1)\n"
(a = 1, b = 2.0)
(1,)
()
1f0 + 2.5f0 + .5 + 1e-3
x[2:end-1]
A[:, 1]
[
  1.0, 2.0,
  3.0,
]
[1 2
 3 4]
"#,
        expect![[r#"
            (vect 1 2 3)
            (matrix (row 1.0 2.0) (row 3.0 4.0))
            (matrix (row 1 -2))
            (vect (call - 1 2))
            (ref Float64)
            (ref Any 1 2.0)
            (str "x = " x " and " (call + x 1) "\n")
            (namedtuple a=1 b=2.0)
            (tuple 1)
            (tuple)
            (call + (call + (call + 1.0f0 2.5f0) 0.5) 0.001)
            (ref x (call : 2 (call - end 1)))
            (ref A (:) 1)
            (vect 1.0 2.0 3.0)
            (matrix (row 1 2) (row 3 4))
        "#]],
    );
}

#[test]
fn macros_and_misc() {
    check(
        r#"
@assert x > 0 "x must be positive"
@assert(y == 1)
@inbounds for i in 1:3
    s += x[i]
end
x -> x^2
(x, y) -> x * y
map(xs) do x
    x + 1
end
p.x = 3.0
x::Float64
sum(x^2 for x in v)
[i^2 for i in 1:3 if isodd(i)]
"#,
        expect![[r#"
            (@assert (call > x 0) (str "x must be positive"))
            (@assert (call == y 1))
            (@inbounds (for (= i (call : 1 3)) (block (+= s (ref x i)))))
            (-> (x) (call ^ x 2))
            (-> (x y) (call * x y))
            (call map xs (do (x) (block (call + x 1))))
            (= (. p x) 3.0)
            (:: x Float64)
            (call sum (generator (call ^ x 2) (= x v)))
            (comprehension (call ^ i 2) (= i (call : 1 3)) (if (call isodd i)))
        "#]],
    );
}

#[test]
fn errors_recover_and_continue() {
    check(
        "x = (1 + \ny = 2\nfunction f(x)\n  x +* 2\nend\nz = 3 ]\nq = 'cd'\n",
        expect![[r#"
            (= x (error))
            (function f (x) (block (call + x (error))))
            (= z 3)
            (= q (error))
            error 1:6: expected a parameter (`x`, `x::T`, `x = default` or `xs...`)
            error 3:1: expected `)` to close `(`, found `function`
            error 4:6: expected an expression, found `*`
            error 4:8: unexpected `2` after a complete statement
            error 6:7: unexpected `]` after a complete statement
            error 7:5: character literal contains more than one character
        "#]],
    );
}

#[test]
fn character_literals() {
    check(
        "a = 'x'\nb = '\\n'\nc = x'\nd = '\\u00e9' * '''\ne = ''\n",
        expect![[r#"
            (= a (call Char 120))
            (= b (call Char 10))
            (= c (call (. Base adjoint) x))
            (= d (call * (call Char 233) (call Char 39)))
            (= e (error))
            error 5:5: empty character literal
        "#]],
    );
}

#[test]
fn begin_in_indices() {
    check(
        "x[begin]\nA[begin + 1:end, begin]\n",
        expect![[r#"
            (ref x begin)
            (ref A (call : (call + begin 1) end) begin)
        "#]],
    );
}

#[test]
fn kwdef_structs() {
    check(
        "Base.@kwdef struct P\n    a::Float64 = 0.5\n    b\nend\n@kwdef struct Q end\n@kwdef f(x) = x\n",
        expect![[r#"
            (block (struct P a::Float64 b) (function P () (kw (a=0.5 b)) (block (call P a b))))
            (struct Q)
            (error)
            error 6:8: `@kwdef` takes a struct definition
        "#]],
    );
}

#[test]
fn never_panics_on_garbage() {
    let inputs = [
        "(((((((",
        "]]]]",
        "function",
        "struct",
        "\"unterminated",
        "#= open",
        "x = [1, 2; 3",
        "f(x) = ",
        "@",
        "1.2.3",
        "end end end",
        "a ? b",
        "for in",
        "struct S{ end",
        "\"$(\"",
        "x[",
        "99999999999999999999999",
    ];
    for src in inputs {
        let _ = parse_file(src, FileId(0));
    }
    let deep = "(".repeat(5000) + &")".repeat(5000);
    let (_, diags) = parse_file(&deep, FileId(0));
    assert!(diags
        .iter()
        .any(|d| d.message.contains("nested too deeply")));
}

/// Every short sequence of tokens that the parser loops over (brackets, separators, keywords
/// that open or close blocks) parses in time linear in its length: a token nothing can
/// consume is reported and skipped, never parsed again forever.
#[test]
fn token_soup_terminates() {
    const TOKENS: &[&str] = &[
        "[", "]", "(", ")", "{", "}", ",", ";", "end", "begin", "if", "for", "x", "1", "+", "-",
        "'", ":", "=", "->", "@.", "\"", "\n", "::", ".", "...", "where", "?", "in", "do",
    ];
    // A fixed linear congruential sequence: the same inputs on every run.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize
    };
    for _ in 0..20_000 {
        let n = 1 + next() % 10;
        let src: Vec<&str> = (0..n).map(|_| TOKENS[next() % TOKENS.len()]).collect();
        let _ = parse_file(&src.join(" "), FileId(0));
    }
}

/// The arrays a `Threads.@threads` loop's rewriting lists as disjoint between iterations:
/// the third argument of each `_threads_for` call, rendered.
fn check_disjoint(src: &str, expect: Expect) {
    use mooncake_syntax::ast::{children, Expr, ExprKind};
    fn find(e: &Expr, out: &mut Vec<String>) {
        if let ExprKind::Call { func, args, .. } = &e.kind {
            if matches!(&func.kind, ExprKind::Ident(n) if n.as_str() == "_threads_for") {
                out.push(sexpr::render(&args[2]));
            }
        }
        children(e, &mut |c| find(c, out));
    }
    let (file, diags) = parse_file(src, FileId(0));
    assert!(diags.is_empty(), "{diags:?}");
    let mut out = Vec::new();
    file.items.iter().for_each(|e| find(e, &mut out));
    expect.assert_eq(&(out.join("\n") + "\n"));
}

#[test]
fn threaded_loops_list_the_arrays_iterations_index_apart() {
    // Indexed only with the loop variable last: disjoint; anything else is not.
    check_disjoint(
        "Threads.@threads for i in 1:n
             y[i] = X[2, i] * w[1] + z[i + 1] + length(y) + size(X, 1)
             q[i] = q[i] + sum(q)
         end",
        expect![[r#"
            (tuple (tuple :y 1) (tuple :X 2))
        "#]],
    );
    // The same array with different numbers of indices is not.
    check_disjoint(
        "Threads.@threads for i in 1:n; A[i] = A[1, i]; end",
        expect![[r#"
            (tuple)
        "#]],
    );
    // Rebinding the loop variable, or shadowing it in a function, clears the list; a name
    // the body binds is not a captured array.
    check_disjoint(
        "Threads.@threads for i in 1:n; y[i] = 1.0; i = 2; end
         Threads.@threads for i in 1:n; g(i) = y[i]; x[i] = g(i + 1); end
         Threads.@threads for i in 1:n; y[i] = 1.0; v = zeros(3); v[i] = 2.0; end
         Threads.@threads for (i, j) in pairs(x); y[i] = 1.0; end",
        expect![[r#"
            (tuple)
            (tuple)
            (tuple (tuple :y 1))
            (tuple)
        "#]],
    );
}

#[test]
fn named_tuples_of_names_and_property_destructuring() {
    check(
        "(; a, p.w, c = 1)\n(; W, b) = params\n",
        expect![[r#"
            (namedtuple a=a w=(. p w) c=1)
            (block (= #props params) (= W (. #props W)) (= b (. #props b)) #props)
        "#]],
    );
}

#[test]
fn imports_and_methods_of_library_functions() {
    check(
        "using LinearAlgebra, Statistics\nusing Statistics: mean, std\nimport Base: +, show\nimport Base.length\nBase.size(x::Bag) = (1,)\nsize(x) = 2\n",
        expect![[r#"
            (using LinearAlgebra Statistics)
            (using Statistics : mean std)
            (import Base : + show)
            (import Base : length)
            (function (. <module> size) (x::Bag) (block (tuple 1)))
            (function size (x) (block 2))
        "#]],
    );
}
