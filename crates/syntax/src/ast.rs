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
    /// `f(; kws...)`: the keyword arguments of `value` (a named tuple or the `kws` of a
    /// definition), passed on; in a signature, `kws...` collects the keywords not declared.
    /// `name` is the splatted variable's name (`...` for another expression).
    pub splat: bool,
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
    /// `begin` inside an index expression (the first index).
    Begin,
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
    /// `using M`, `using M: f, g`, `import M: f`, `import M.f`, `import M as A`: the
    /// modules, the names listed one by one, whether it is `import` (which lets the program
    /// add methods to the names it lists), and the name `as` gives the module.
    Using {
        modules: Vec<Symbol>,
        names: Vec<Symbol>,
        import: bool,
        alias: Option<Symbol>,
    },
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
    /// Named with its module (`Base.size(...) = ...`): a method of the library's function,
    /// never a new function of the program.
    pub qualified: bool,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Lambda {
    pub params: Vec<Param>,
    /// Keyword parameters (only a local named function's methods have them).
    pub kwparams: Vec<Param>,
    pub body: Expr,
    pub span: Span,
    /// A method of a named function defined inside a function (`g(x) = ...`, which becomes
    /// `g = <this closure>`): the function's name and the span of its first method in its
    /// block, which identifies the closure type all its methods share. `None` for an anonymous
    /// function.
    pub local: Option<(Symbol, Span)>,
    /// A block of a `try` run as a function (`_try_catch`'s arguments): named `#f#try#N`, and
    /// a backtrace shows its frames as the function around the `try`.
    pub try_block: bool,
    /// A local named function's `where` variables and return type (`g(y::T)::T where {T}`).
    pub where_vars: Vec<TypeVarDecl>,
    pub ret_type: Option<Box<Expr>>,
}

impl Lambda {
    /// The anonymous function `(params...) -> body` spanning `span`.
    pub fn anonymous(params: Vec<Param>, body: Expr, span: Span) -> Expr {
        Expr::new(
            ExprKind::Lambda(Box::new(Lambda {
                params,
                body,
                span,
                local: None,
                try_block: false,
                where_vars: vec![],
                ret_type: None,
                kwparams: vec![],
            })),
            span,
        )
    }
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
/// `Base.name`: the library's function (or type) `name`, whatever the program means by
/// `name` — what syntax sugar calls (`x'` is `Base.adjoint(x)`, a comprehension
/// `Base.map(...)`), as Julia's lowering does.
pub fn library_ref(name: Symbol, span: Span) -> Expr {
    Expr::new(
        ExprKind::Field {
            obj: Box::new(Expr::new(ExprKind::Ident(crate::sym("Base")), span)),
            name,
        },
        span,
    )
}

/// A call of the library's function `name` (see [`library_ref`], whose span is `at`) spanning
/// `span`.
pub fn library_call(name: &str, args: Vec<Expr>, kwargs: Vec<KwArg>, at: Span, span: Span) -> Expr {
    Expr::new(
        ExprKind::Call {
            func: Box::new(library_ref(crate::sym(name), at)),
            args,
            kwargs,
            do_block: None,
        },
        span,
    )
}

pub fn is_module(s: Symbol) -> bool {
    matches!(
        s.as_str(),
        "Base"
            | "LinearAlgebra"
            | "Random"
            | "Math"
            | "Statistics"
            | "Threads"
            | "SpecialFunctions"
            | "LogExpFunctions"
            | "Distributions"
            | "Mooncake"
            | "TestUtils"
            | "ChainRulesCore"
    )
}

/// The names bound by parameters.
pub fn param_names(params: &[Param]) -> Vec<Symbol> {
    let mut out = Vec::new();
    for p in params {
        out.extend(p.name);
    }
    out
}

/// The names a loop variable or `let` target binds (`i`, `(a, b)`, `x::T`).
pub fn target_names(e: &Expr, out: &mut Vec<Symbol>) {
    match &e.kind {
        ExprKind::Ident(n) => out.push(*n),
        ExprKind::Tuple(es) => es.iter().for_each(|x| target_names(x, out)),
        ExprKind::TypeAssert { expr, .. } => target_names(expr, out),
        ExprKind::Assign { lhs, .. } => target_names(lhs, out),
        _ => {}
    }
}

/// The names a `const` statement binds as constants: every name its assignment's left side
/// binds (`const a, b = 1, 2`, `const x::Float64 = 1`).
pub fn const_names(inner: &Expr) -> Vec<Symbol> {
    let mut out = Vec::new();
    if let ExprKind::Assign { lhs, .. } = &inner.kind {
        target_names(lhs, &mut out);
    }
    out
}

/// Calls `f` on the parts of a call evaluated where the call is — its callee, arguments and
/// keyword values — and not on a `do` block's body, which is a scope of its own.
pub fn call_operands<'e>(
    func: &'e Expr,
    args: &'e [Expr],
    kwargs: &'e [KwArg],
    f: &mut dyn FnMut(&'e Expr),
) {
    f(func);
    args.iter().for_each(&mut *f);
    kwargs.iter().for_each(|k| f(&k.value));
}

/// Calls `f` on each direct subexpression of `e` (binding constructs included: callers that
/// care about scopes handle those first).
pub fn children<'e>(e: &'e Expr, f: &mut dyn FnMut(&'e Expr)) {
    use ExprKind::*;
    match &e.kind {
        Int(_)
        | Float(_)
        | Float32(_)
        | Bool(_)
        | Nothing
        | Ident(_)
        | QuoteSym(_)
        | End
        | Begin
        | Colon
        | Break
        | Continue
        | Using { .. }
        | Error => {}
        Str(segs) => {
            for s in segs {
                if let StrSeg::Expr(x) = s {
                    f(x)
                }
            }
        }
        Call {
            func,
            args,
            kwargs,
            do_block,
        } => {
            f(func);
            args.iter().for_each(&mut *f);
            kwargs.iter().for_each(|k| f(&k.value));
            if let Some(l) = do_block {
                f(&l.body);
            }
        }
        DotCall { func, args, kwargs } => {
            f(func);
            args.iter().for_each(&mut *f);
            kwargs.iter().for_each(|k| f(&k.value));
        }
        And(a, b) | Or(a, b) => {
            f(a);
            f(b);
        }
        Comparison { first, rest } => {
            f(first);
            rest.iter().for_each(|(_, _, x)| f(x));
        }
        Ternary { cond, then, else_ } => {
            f(cond);
            f(then);
            f(else_);
        }
        Assign { lhs, rhs } | OpAssign { lhs, rhs, .. } | DotAssign { lhs, rhs, .. } => {
            f(lhs);
            f(rhs);
        }
        Tuple(es) | Vect(es) | Block(es) | Local(es) | Global(es) => es.iter().for_each(f),
        NamedTuple(kvs) => kvs.iter().for_each(|(_, x)| f(x)),
        Matrix(rows) => rows.iter().flatten().for_each(f),
        TypedMatrix(t, rows) => {
            f(t);
            rows.iter().flatten().for_each(f);
        }
        Index { obj, indices } => {
            f(obj);
            indices.iter().for_each(f);
        }
        Field { obj, .. } => f(obj),
        Curly { base, params } => {
            f(base);
            params.iter().for_each(f);
        }
        SubtypeBound(x) | Splat(x) | Const(x) => f(x),
        TypeAssert { expr, ty } => {
            f(expr);
            f(ty);
        }
        Where { expr, .. } => f(expr),
        Lambda(l) => f(&l.body),
        If { cond, then, else_ } => {
            f(cond);
            then.iter().for_each(&mut *f);
            if let Some(x) = else_ {
                f(x);
            }
        }
        While { cond, body } => {
            f(cond);
            body.iter().for_each(f);
        }
        For { iters, body } => {
            iters.iter().for_each(|(v, it)| {
                f(v);
                f(it);
            });
            body.iter().for_each(f);
        }
        Return(x) => {
            if let Some(x) = x {
                f(x)
            }
        }
        Let { bindings, body } => {
            bindings.iter().for_each(&mut *f);
            body.iter().for_each(f);
        }
        Function(def) => def.body.iter().for_each(f),
        Struct(_) | AbstractType { .. } => {}
        Macro { args, .. } => args.iter().for_each(f),
        Comprehension {
            body, iters, cond, ..
        } => {
            iters.iter().for_each(|(v, it)| {
                f(v);
                f(it);
            });
            f(body);
            if let Some(c) = cond {
                f(c);
            }
        }
    }
}

/// [`children`], each subexpression given mutably.
pub fn children_mut(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    use ExprKind::*;
    match &mut e.kind {
        Int(_)
        | Float(_)
        | Float32(_)
        | Bool(_)
        | Nothing
        | Ident(_)
        | QuoteSym(_)
        | End
        | Begin
        | Colon
        | Break
        | Continue
        | Using { .. }
        | Error => {}
        Str(segs) => {
            for s in segs {
                if let StrSeg::Expr(x) = s {
                    f(x)
                }
            }
        }
        Call {
            func,
            args,
            kwargs,
            do_block,
        } => {
            f(func);
            args.iter_mut().for_each(&mut *f);
            kwargs.iter_mut().for_each(|k| f(&mut k.value));
            if let Some(l) = do_block {
                f(&mut l.body);
            }
        }
        DotCall { func, args, kwargs } => {
            f(func);
            args.iter_mut().for_each(&mut *f);
            kwargs.iter_mut().for_each(|k| f(&mut k.value));
        }
        And(a, b) | Or(a, b) => {
            f(a);
            f(b);
        }
        Comparison { first, rest } => {
            f(first);
            rest.iter_mut().for_each(|(_, _, x)| f(x));
        }
        Ternary { cond, then, else_ } => {
            f(cond);
            f(then);
            f(else_);
        }
        Assign { lhs, rhs } | OpAssign { lhs, rhs, .. } | DotAssign { lhs, rhs, .. } => {
            f(lhs);
            f(rhs);
        }
        Tuple(es) | Vect(es) | Block(es) | Local(es) | Global(es) => es.iter_mut().for_each(f),
        NamedTuple(kvs) => kvs.iter_mut().for_each(|(_, x)| f(x)),
        Matrix(rows) => rows.iter_mut().flatten().for_each(f),
        TypedMatrix(t, rows) => {
            f(t);
            rows.iter_mut().flatten().for_each(f);
        }
        Index { obj, indices } => {
            f(obj);
            indices.iter_mut().for_each(f);
        }
        Field { obj, .. } => f(obj),
        Curly { base, params } => {
            f(base);
            params.iter_mut().for_each(f);
        }
        SubtypeBound(x) | Splat(x) | Const(x) => f(x),
        TypeAssert { expr, ty } => {
            f(expr);
            f(ty);
        }
        Where { expr, .. } => f(expr),
        Lambda(l) => f(&mut l.body),
        If { cond, then, else_ } => {
            f(cond);
            then.iter_mut().for_each(&mut *f);
            if let Some(x) = else_ {
                f(x);
            }
        }
        While { cond, body } => {
            f(cond);
            body.iter_mut().for_each(f);
        }
        For { iters, body } => {
            iters.iter_mut().for_each(|(v, it)| {
                f(v);
                f(it);
            });
            body.iter_mut().for_each(f);
        }
        Return(x) => {
            if let Some(x) = x {
                f(x)
            }
        }
        Let { bindings, body } => {
            bindings.iter_mut().for_each(&mut *f);
            body.iter_mut().for_each(f);
        }
        Function(def) => def.body.iter_mut().for_each(f),
        Struct(_) | AbstractType { .. } => {}
        Macro { args, .. } => args.iter_mut().for_each(f),
        Comprehension {
            body, iters, cond, ..
        } => {
            iters.iter_mut().for_each(|(v, it)| {
                f(v);
                f(it);
            });
            f(body);
            if let Some(c) = cond {
                f(c);
            }
        }
    }
}
