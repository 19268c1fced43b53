//! The abstract syntax tree. Operators are calls (`a + b` is `Call(+, [a, b])`), as in Julia.

use crate::span::Span;
use crate::symbol::Symbol;

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
    pub fn ident(&self) -> Option<Symbol> {
        match self.kind {
            ExprKind::Ident(s) => Some(s),
            _ => None,
        }
    }
}

/// A segment of an interpolated string.
#[derive(Clone, Debug, PartialEq)]
pub enum StrSeg {
    Lit(String),
    Expr(Expr),
}

/// A call argument.
#[derive(Clone, Debug, PartialEq)]
pub struct KwArg {
    pub name: Symbol,
    pub value: Expr,
    /// `k::T = v` (or `k::T`): only meaningful in the signature of a definition.
    pub ty: Option<Expr>,
    /// Written as `k` (or `k::T`) alone: `f(; k)` passes `k = k`; in a definition's signature
    /// it is a keyword parameter without a default.
    pub bare: bool,
    /// Written after the `;`. In a call it makes no difference; in a definition's signature
    /// `f(x, y = 1)` has a positional parameter with a default, `f(x; y = 1)` a keyword one.
    pub after_semicolon: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Float(f64),
    Float32(f32),
    Bool(bool),
    Nothing,
    Str(Vec<StrSeg>),
    Ident(Symbol),
    /// `end` inside an index expression.
    End,
    /// `:` alone inside an index expression (all of a dimension).
    Colon,
    /// `:name`: a quoted symbol.
    QuoteSym(Symbol),
    /// `f(args...; kwargs...)`, also every operator. `do_block` is the lambda of a `do` block.
    Call {
        func: Box<Expr>,
        args: Vec<Expr>,
        kwargs: Vec<KwArg>,
        do_block: Option<Box<Lambda>>,
    },
    /// `f.(args...; kwargs...)`: broadcast call (the keyword arguments are passed unchanged to
    /// every call).
    DotCall {
        func: Box<Expr>,
        args: Vec<Expr>,
        kwargs: Vec<KwArg>,
    },
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    /// `a < b <= c`: a chain of two or more comparisons (a single one is a `Call`).
    Comparison {
        first: Box<Expr>,
        rest: Vec<(Symbol, Span, Expr)>,
    },
    /// `c ? a : b` (also the expression form of `if`).
    Ternary {
        cond: Box<Expr>,
        then: Box<Expr>,
        else_: Box<Expr>,
    },
    Assign {
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `a op= b`, with `op` the operator without `=`.
    OpAssign {
        op: Symbol,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    /// `a .= b` and dotted updating operators (`op` is e.g. `.+`, or `.=` for plain).
    DotAssign {
        op: Symbol,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Tuple(Vec<Expr>),
    NamedTuple(Vec<(Symbol, Expr)>),
    /// `[a, b]`
    Vect(Vec<Expr>),
    /// `[a b; c d]`: rows of space-separated elements (a single row is an hcat).
    Matrix(Vec<Vec<Expr>>),
    /// `T[a b; c d]`
    TypedMatrix(Box<Expr>, Vec<Vec<Expr>>),
    /// `x[i, j]` (also `T[a, b]`, a typed array literal, decided at lowering).
    Index {
        obj: Box<Expr>,
        indices: Vec<Expr>,
    },
    Field {
        obj: Box<Expr>,
        name: Symbol,
    },
    /// `T{A, B}`
    Curly {
        base: Box<Expr>,
        params: Vec<Expr>,
    },
    /// `<: T` inside braces (`Vector{<:Real}`).
    SubtypeBound(Box<Expr>),
    /// `x::T`
    TypeAssert {
        expr: Box<Expr>,
        ty: Box<Expr>,
    },
    /// `expr where {T, S <: Real}`
    Where {
        expr: Box<Expr>,
        vars: Vec<TypeVarDecl>,
    },
    Splat(Box<Expr>),
    Lambda(Box<Lambda>),
    Block(Vec<Expr>),
    If {
        cond: Box<Expr>,
        then: Vec<Expr>,
        else_: Option<Box<Expr>>,
    },
    While {
        cond: Box<Expr>,
        body: Vec<Expr>,
    },
    For {
        iters: Vec<(Expr, Expr)>,
        body: Vec<Expr>,
    },
    Break,
    Continue,
    Return(Option<Box<Expr>>),
    Let {
        bindings: Vec<Expr>,
        body: Vec<Expr>,
    },
    Local(Vec<Expr>),
    Global(Vec<Expr>),
    Const(Box<Expr>),
    Function(Box<FunctionDef>),
    Struct(Box<StructDef>),
    AbstractType {
        name: Symbol,
        params: Vec<TypeVarDecl>,
        supertype: Option<Box<Expr>>,
    },
    /// `@name args...`
    Macro {
        name: Symbol,
        args: Vec<Expr>,
    },
    /// `[expr for x in xs, y in ys if cond]` (`generator: true` for `(expr for ...)`).
    Comprehension {
        body: Box<Expr>,
        iters: Vec<(Expr, Expr)>,
        cond: Option<Box<Expr>>,
        generator: bool,
    },
    Using(Vec<Symbol>),
    /// A parse error was reported here.
    Error,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TypeVarDecl {
    pub name: Symbol,
    pub upper: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// `None` for `::T` without a name.
    pub name: Option<Symbol>,
    pub ty: Option<Expr>,
    pub default: Option<Expr>,
    pub vararg: bool,
    /// A destructuring parameter `(a, b)` of an anonymous function.
    pub destructure: Option<Vec<Symbol>>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FnName {
    /// `function f(...)`
    Name(Symbol),
    /// `function (::T)(...)` or `Point{T}(...)`: a method of a callable type.
    Type(Expr),
    /// `function (x) ... end`: anonymous.
    Anonymous,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    pub name: FnName,
    pub name_span: Span,
    pub params: Vec<Param>,
    pub kwparams: Vec<Param>,
    pub where_vars: Vec<TypeVarDecl>,
    pub ret_type: Option<Expr>,
    pub body: Vec<Expr>,
    /// `function f end`: declares the function without adding a method.
    pub declaration_only: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Lambda {
    pub params: Vec<Param>,
    pub body: Expr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FieldDecl {
    pub name: Symbol,
    pub ty: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StructDef {
    pub name: Symbol,
    pub name_span: Span,
    pub params: Vec<TypeVarDecl>,
    pub supertype: Option<Expr>,
    pub fields: Vec<FieldDecl>,
    pub mutable: bool,
    /// Inner constructors.
    pub constructors: Vec<FunctionDef>,
    pub span: Span,
}

/// A parsed file: top-level statements in order.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SourceFile {
    pub items: Vec<Expr>,
}

/// Module names whose members are plain globals (`Base.sum`, `LinearAlgebra.dot`): methods may
/// be defined through them (`Base.size(a::A) = ...`).
pub fn is_module(s: Symbol) -> bool {
    matches!(
        s.as_str(),
        "Base" | "LinearAlgebra" | "Random" | "Math" | "Statistics" | "Threads"
    )
}
