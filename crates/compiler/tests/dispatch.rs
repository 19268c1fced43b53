//! Method tables: Julia's specificity and ambiguity rules, from source definitions.

use ir::Type;
use mooncake_compiler::{Compiler, Dispatch, TopLevel};
use syntax::{parse_file, sym, FileId};

fn define(src: &str) -> Compiler {
    let mut c = Compiler::new();
    let (ast, diags) = parse_file(src, FileId(1));
    assert!(diags.is_empty(), "{diags:?}");
    for item in &ast.items {
        match c.toplevel(item, src).unwrap() {
            TopLevel::Defined => {}
            TopLevel::Run(_) => panic!("only definitions expected"),
        }
    }
    c
}

/// The signature string of the method `f(args...)` dispatches to.
fn pick(c: &Compiler, f: &str, args: &[Type]) -> String {
    let mut all = vec![Type::Function(sym(f))];
    all.extend(args.iter().cloned());
    match c.dispatch(sym(f), &all) {
        Dispatch::Found { index, .. } => c.method(sym(f), index).unwrap().signature_string(),
        Dispatch::NoMethod => "no method".into(),
        Dispatch::Ambiguous(_) => "ambiguous".into(),
    }
}

#[test]
fn most_specific_method_wins() {
    let c = define(
        "f(x) = 1\nf(x::Number) = 2\nf(x::Real) = 3\nf(x::AbstractFloat) = 4\nf(x::Float64) = 5\nf(x::Integer) = 6\n",
    );
    assert_eq!(pick(&c, "f", &[Type::Float64]), "f(::Float64)");
    assert_eq!(pick(&c, "f", &[Type::Float32]), "f(::AbstractFloat)");
    assert_eq!(pick(&c, "f", &[Type::Int64]), "f(::Integer)");
    assert_eq!(pick(&c, "f", &[Type::Bool]), "f(::Integer)");
    assert_eq!(pick(&c, "f", &[Type::String]), "f(::Any)");
}

#[test]
fn parametric_methods_and_where_bounds() {
    let c = define(
        "g(v::Vector{T}) where {T} = 1\ng(v::Vector{Float64}) = 2\ng(v::AbstractVector{<:Real}) = 3\nh(x::T, y::T) where {T<:Real} = 1\nh(x, y) = 2\n",
    );
    assert_eq!(
        pick(&c, "g", &[Type::vector(Type::Float64)]),
        "g(::Vector{Float64})"
    );
    assert_eq!(
        pick(&c, "g", &[Type::vector(Type::Int64)]),
        "g(::Vector{T}) where T"
    );
    assert_eq!(
        pick(&c, "g", &[Type::vector(Type::String)]),
        "g(::Vector{T}) where T"
    );
    assert_eq!(
        pick(&c, "h", &[Type::Int64, Type::Int64]),
        "h(::T, ::T) where T<:Real"
    );
    assert_eq!(
        pick(&c, "h", &[Type::Int64, Type::Float64]),
        "h(::Any, ::Any)"
    );
    assert_eq!(
        pick(&c, "h", &[Type::String, Type::String]),
        "h(::Any, ::Any)"
    );
}

#[test]
fn ambiguity_and_no_method() {
    let c = define("k(x::Int, y) = 1\nk(x, y::Int) = 2\nm(x::Float64) = 1\n");
    assert_eq!(pick(&c, "k", &[Type::Int64, Type::Int64]), "ambiguous");
    assert_eq!(
        pick(&c, "k", &[Type::Int64, Type::Float64]),
        "k(::Int64, ::Any)"
    );
    assert_eq!(pick(&c, "m", &[Type::Int64]), "no method");
}

#[test]
fn varargs_collect_into_a_tuple() {
    let c = define("v(xs...) = 1\nv(x::Int) = 2\n");
    assert_eq!(pick(&c, "v", &[Type::Int64]), "v(::Int64)");
    let all = vec![Type::Function(sym("v")), Type::Int64, Type::Float64];
    match c.dispatch(sym("v"), &all) {
        Dispatch::Found { mi_sig, .. } => {
            assert_eq!(mi_sig[1], Type::tuple(vec![Type::Int64, Type::Float64]));
        }
        d => panic!("{d:?}"),
    }
}
