//! The program's own AD primitives: `@is_primitive Ctx [Mode] sig`, `@zero_adjoint Ctx sig`
//! and `@zero_derivative Ctx sig [Mode]` declare that calls whose signature matches `sig` run
//! a rule (the program's `rrule!!`/`frule!!`, or a zero derivative) instead of being
//! differentiated through their code. The AD runtime asks [`crate::Compiler::user_primitive`].

use crate::error::CompileError;
use crate::typeexpr::TypeExprCtx;
use ir::{Type, TypeEnv, TypePat, TypeVar};
use rustc_hash::FxHashMap;
use syntax::ast::{Expr, ExprKind, FnName, FunctionDef, Param};
use syntax::{Span, Symbol};

/// Which macro declared a primitive, and so which rule its calls run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleKind {
    /// `@is_primitive`: the program's `rrule!!` (reverse mode) or `frule!!` (forward mode);
    /// also `@from_rrule` and `@from_chainrules`, which define those methods.
    Own,
    /// `@zero_adjoint` / `@zero_derivative`: every derivative is zero.
    Zero,
}

/// One declaration: a signature pattern with the contexts and modes it applies in.
#[derive(Clone, Debug)]
pub struct UserPrimitive {
    /// Declared in `MinimalCtx` (a primitive of both contexts), else `DefaultCtx` only.
    pub minimal: bool,
    pub forward: bool,
    pub reverse: bool,
    pub kind: RuleKind,
    /// The signature's element patterns (the function's type first), and the pattern of each
    /// further argument when it ends in `Vararg`.
    pub fixed: Vec<TypePat>,
    pub vararg: Option<TypePat>,
    pub tvars: Vec<TypeVar>,
    /// The declaration (for messages).
    pub span: Span,
    /// The signature as written.
    pub text: String,
}

impl UserPrimitive {
    /// Whether a call with argument types `sig` (the function's type first) matches.
    pub fn matches(&self, sig: &[Type], env: &TypeEnv) -> bool {
        if sig.len() < self.fixed.len() || (self.vararg.is_none() && sig.len() != self.fixed.len())
        {
            return false;
        }
        let mut b = FxHashMap::default();
        let rest = &sig[self.fixed.len()..];
        self.fixed
            .iter()
            .zip(sig)
            .all(|(p, t)| env.matches(t, p, &self.tvars, &mut b, false))
            && rest.iter().all(|t| {
                self.vararg
                    .as_ref()
                    .is_some_and(|p| env.matches(t, p, &self.tvars, &mut b, false))
            })
    }

    /// Whether the declaration applies in a context (`minimal_ctx`: the minimal one) and mode.
    pub fn applies(&self, minimal_ctx: bool, reverse: bool) -> bool {
        (self.minimal || !minimal_ctx) && if reverse { self.reverse } else { self.forward }
    }
}

/// The name a context, mode or module-qualified name is written as (`DefaultCtx`,
/// `Mooncake.DefaultCtx`).
fn plain_name(e: &Expr) -> Option<Symbol> {
    match &e.kind {
        ExprKind::Ident(n) => Some(*n),
        ExprKind::Field { obj, name } if obj.ident().is_some_and(syntax::ast::is_module) => {
            Some(*name)
        }
        _ => None,
    }
}

/// Parses the arguments of `@is_primitive`, `@zero_adjoint`, `@zero_derivative`,
/// `@from_rrule` or `@from_chainrules` (named `macro_name`): the declaration, and whether it
/// covers calls with keyword arguments too (`has_kwargs` of the last two).
pub fn parse(
    macro_name: &str,
    args: &[Expr],
    span: Span,
    src: &str,
    env: &TypeEnv,
) -> Result<(UserPrimitive, bool), CompileError> {
    let usage = || {
        CompileError::invalid(
            span,
            match macro_name {
                "is_primitive" => "usage: `@is_primitive Ctx [Mode] Tuple{typeof(f), ArgTypes...}` with Ctx `MinimalCtx` or `DefaultCtx` and Mode `ForwardMode` or `ReverseMode`",
                "zero_adjoint" => "usage: `@zero_adjoint Ctx Tuple{typeof(f), ArgTypes...}` with Ctx `MinimalCtx` or `DefaultCtx`",
                "from_rrule" => "usage: `@from_rrule Ctx Tuple{typeof(f), ArgTypes...} [has_kwargs]` with Ctx `MinimalCtx` or `DefaultCtx` and has_kwargs `true` or `false`",
                "from_chainrules" => "usage: `@from_chainrules Ctx Tuple{typeof(f), ArgTypes...} [has_kwargs [Mode]]` with Ctx `MinimalCtx` or `DefaultCtx`, has_kwargs `true` or `false` and Mode `ForwardMode` or `ReverseMode`",
                _ => "usage: `@zero_derivative Ctx Tuple{typeof(f), ArgTypes...} [Mode]` with Ctx `MinimalCtx` or `DefaultCtx` and Mode `ForwardMode` or `ReverseMode`",
            },
        )
    };
    let (ctx, mode, sig, kw) = match (macro_name, args) {
        (
            "is_primitive" | "zero_adjoint" | "zero_derivative" | "from_rrule" | "from_chainrules",
            [c, s],
        ) => (c, None, s, None),
        ("is_primitive", [c, m, s]) | ("zero_derivative", [c, s, m]) => (c, Some(m), s, None),
        ("from_rrule" | "from_chainrules", [c, s, k]) => (c, None, s, Some(k)),
        ("from_chainrules", [c, s, k, m]) => (c, Some(m), s, Some(k)),
        _ => return Err(usage()),
    };
    let has_kwargs = match kw.map(|k| &k.kind) {
        None | Some(ExprKind::Bool(false)) => false,
        Some(ExprKind::Bool(true)) => true,
        Some(_) => return Err(usage()),
    };
    let minimal = match plain_name(ctx).map(|n| n.as_str()) {
        Some("MinimalCtx") => true,
        Some("DefaultCtx") => false,
        _ => {
            return Err(CompileError::invalid(
                ctx.span,
                "the context of a primitive is `MinimalCtx` or `DefaultCtx`",
            ))
        }
    };
    let (mut forward, mut reverse) = (true, true);
    if let Some(m) = mode {
        match plain_name(m).map(|n| n.as_str()) {
            Some("ForwardMode") => reverse = false,
            Some("ReverseMode") => forward = false,
            Some("Mode") => {}
            _ => {
                return Err(CompileError::invalid(
                    m.span,
                    "the mode of a primitive is `ForwardMode` or `ReverseMode`",
                ))
            }
        }
    }
    if macro_name == "zero_adjoint" || macro_name == "from_rrule" {
        forward = false;
    }
    let (body, where_vars) = match &sig.kind {
        ExprKind::Where { expr, vars } => (&**expr, vars.as_slice()),
        _ => (sig, &[][..]),
    };
    let names: Vec<Symbol> = where_vars.iter().map(|v| v.name).collect();
    let tctx = TypeExprCtx { env, vars: &names };
    let tvars = tctx.type_vars(where_vars)?;
    let params = match &body.kind {
        ExprKind::Curly { base, params } if base.ident().is_some_and(|b| b.as_str() == "Tuple") => {
            params
        }
        _ => {
            return Err(CompileError::invalid(
                sig.span,
                "the signature of a primitive is a tuple type: `Tuple{typeof(f), ArgTypes...}`",
            ))
        }
    };
    if params.is_empty() {
        return Err(CompileError::invalid(
            sig.span,
            "the signature of a primitive starts with the function's type: `Tuple{typeof(f), ...}`",
        ));
    }
    let mut fixed = Vec::new();
    let mut vararg = None;
    for (k, p) in params.iter().enumerate() {
        let var_elem = match &p.kind {
            ExprKind::Ident(n) if n.as_str() == "Vararg" => Some(None),
            ExprKind::Curly { base, params: vp }
                if base.ident().is_some_and(|b| b.as_str() == "Vararg") =>
            {
                match vp.as_slice() {
                    [t] => Some(Some(t)),
                    _ => {
                        return Err(CompileError::unsupported(
                            p.span,
                            "`Vararg` with a count in the signature of a primitive",
                        ))
                    }
                }
            }
            _ => None,
        };
        match var_elem {
            Some(elem) => {
                if k + 1 != params.len() {
                    return Err(CompileError::invalid(
                        p.span,
                        "`Vararg` may only be the last element of a signature",
                    ));
                }
                vararg = Some(match elem {
                    Some(t) => tctx.eval(t)?,
                    None => TypePat::any(),
                });
            }
            None => fixed.push(tctx.eval(p)?),
        }
    }
    let up = UserPrimitive {
        minimal,
        forward,
        reverse,
        kind: match macro_name {
            "is_primitive" | "from_rrule" | "from_chainrules" => RuleKind::Own,
            _ => RuleKind::Zero,
        },
        fixed,
        vararg,
        tvars,
        span,
        text: src
            .get(sig.span.lo as usize..sig.span.hi as usize)
            .unwrap_or("")
            .to_string(),
    };
    Ok((up, has_kwargs))
}

/// The declaration of the calls with keyword arguments of a declared signature
/// (`Core.kwcall(kw::NamedTuple, f, args...)`, which is `#kwcall` here).
pub fn with_keywords(up: &UserPrimitive, env: &TypeEnv) -> Result<UserPrimitive, CompileError> {
    let tctx = TypeExprCtx { env, vars: &[] };
    let named = tctx.eval(&Expr::new(
        ExprKind::Ident(syntax::sym("NamedTuple")),
        up.span,
    ))?;
    let mut fixed = vec![TypePat::Ty(Type::Function(syntax::sym("#kwcall"))), named];
    fixed.extend(up.fixed.iter().cloned());
    Ok(UserPrimitive {
        fixed,
        ..up.clone()
    })
}

/// Applies `f` to every function type named in a pattern (`typeof(f)`), in place.
pub fn rename_functions(p: &mut TypePat, f: &mut dyn FnMut(Symbol) -> Symbol) {
    match p {
        TypePat::Ty(Type::Function(n)) => *n = f(*n),
        TypePat::Ty(_) | TypePat::Var(_) => {}
        TypePat::App(_, ps) => ps.iter_mut().for_each(|q| rename_functions(q, f)),
        TypePat::Below(q) => rename_functions(q, f),
    }
}

/// The `rrule!!` (and, for `@from_chainrules` in forward mode, `frule!!`) methods that
/// `@from_rrule Ctx sig` and `@from_chainrules Ctx sig` define for the signature `sig`
/// (`Tuple{T0, T1, ...} where {...}`): `rrule!!(x0::CoDual{<:T0}, x1::CoDual{<:T1}, ...)`
/// calls the prelude's `_cr_rrule(x0, x1, ...)`, which runs the program's
/// `ChainRulesCore.rrule`. With `has_kwargs`, also the methods for calls with keyword
/// arguments (`Core.kwcall(kw, f, args...)`), calling `_cr_rrule_kw`.
pub fn chainrules_methods(sig: &Expr, up: &UserPrimitive, has_kwargs: bool) -> Vec<Expr> {
    let sp = sig.span;
    let mk = |kind| Expr::new(kind, sp);
    let ident = |n: &str| Expr::new(ExprKind::Ident(syntax::sym(n)), sp);
    let (body, where_vars) = match &sig.kind {
        ExprKind::Where { expr, vars } => (&**expr, vars.clone()),
        _ => (sig, Vec::new()),
    };
    let ExprKind::Curly { params: types, .. } = &body.kind else {
        return Vec::new();
    };
    let method = |rule: &str, wrap: &str, adapter: &str, keywords: bool| {
        let wrapped = |t: Option<&Expr>| match t {
            Some(t) => mk(ExprKind::Curly {
                base: Box::new(ident(wrap)),
                params: vec![mk(ExprKind::SubtypeBound(Box::new(t.clone())))],
            }),
            None => ident(wrap),
        };
        let mut params = Vec::new();
        if keywords {
            let kwcall = mk(ExprKind::Call {
                func: Box::new(ident("typeof")),
                args: vec![ident("#kwcall")],
                kwargs: vec![],
                do_block: None,
            });
            for (name, t) in [("_kwcall", kwcall), ("_kwargs", ident("NamedTuple"))] {
                params.push(Param {
                    name: Some(syntax::sym(name)),
                    ty: Some(wrapped(Some(&t))),
                    default: None,
                    vararg: false,
                    span: sp,
                });
            }
        }
        for (k, t) in types.iter().enumerate() {
            let (elem, vararg) = match &t.kind {
                ExprKind::Ident(n) if n.as_str() == "Vararg" => (None, true),
                ExprKind::Curly { base, params: vp }
                    if base.ident().is_some_and(|b| b.as_str() == "Vararg") =>
                {
                    (vp.first(), true)
                }
                _ => (Some(t), false),
            };
            params.push(Param {
                name: Some(syntax::sym(&format!("_x{k}"))),
                ty: Some(wrapped(elem)),
                default: None,
                vararg,
                span: sp,
            });
        }
        let args = params
            .iter()
            .map(|p| {
                let x = Expr::new(ExprKind::Ident(p.name.unwrap_or(syntax::sym("_"))), sp);
                if p.vararg {
                    mk(ExprKind::Splat(Box::new(x)))
                } else {
                    x
                }
            })
            .collect();
        let call = mk(ExprKind::Call {
            func: Box::new(ident(adapter)),
            args,
            kwargs: vec![],
            do_block: None,
        });
        mk(ExprKind::Function(Box::new(FunctionDef {
            name: FnName::Name(syntax::sym(rule)),
            name_span: sp,
            params,
            kwparams: vec![],
            where_vars: where_vars.clone(),
            ret_type: None,
            body: vec![call],
            declaration_only: false,
            qualified: true,
            span: sp,
        })))
    };
    let mut out = Vec::new();
    for keywords in [false, true] {
        if keywords && !has_kwargs {
            continue;
        }
        let suffix = if keywords { "_kw" } else { "" };
        if up.reverse {
            out.push(method(
                "rrule!!",
                "CoDual",
                &format!("_cr_rrule{suffix}"),
                keywords,
            ));
        }
        if up.forward {
            out.push(method(
                "frule!!",
                "Dual",
                &format!("_cr_frule{suffix}"),
                keywords,
            ));
        }
    }
    out
}

/// The `ChainRulesCore.rrule` and `ChainRulesCore.frule` methods `@scalar_rule f(x, y)
/// [@setup(...)] (∂x, ∂y)` defines: for `Number` arguments, `Ω = f(x, y)` and the setup
/// statements, then the partial derivatives (which may use `Ω`) go to the prelude's
/// `_ScalarPullback` (the pullback `ΔΩ -> (NoTangent(), ΔΩ * conj(∂x), ...)`) and
/// `_scalar_pushforward` (`∂x * Δx + ∂y * Δy`).
pub fn scalar_rule_methods(args: &[Expr], span: Span) -> Result<Vec<Expr>, CompileError> {
    let mk = |kind| Expr::new(kind, span);
    let ident = |n: &str| mk(ExprKind::Ident(syntax::sym(n)));
    let call = |f: Expr, args: Vec<Expr>| {
        mk(ExprKind::Call {
            func: Box::new(f),
            args,
            kwargs: vec![],
            do_block: None,
        })
    };
    let usage = "`@scalar_rule f(x, ...) (∂f_∂x, ...)` (with an optional `@setup(...)` before the partial derivatives)";
    let Some((head, rest)) = args.split_first() else {
        return Err(CompileError::invalid(span, format!("expected {usage}")));
    };
    let (f, xs) = match &head.kind {
        ExprKind::Call {
            func, args, kwargs, ..
        } if kwargs.is_empty() => {
            let names: Option<Vec<Symbol>> = args.iter().map(|a| a.ident()).collect();
            match (func.ident(), names) {
                (Some(f), Some(xs)) if !xs.is_empty() => (f, xs),
                _ => {
                    return Err(CompileError::invalid(
                        head.span,
                        format!("expected {usage}"),
                    ))
                }
            }
        }
        _ => {
            return Err(CompileError::invalid(
                head.span,
                format!("expected {usage}"),
            ))
        }
    };
    let (setup, partials) = match rest {
        [Expr {
            kind: ExprKind::Macro { name, args: s },
            ..
        }, p]
            if name.as_str() == "setup" =>
        {
            (s.clone(), p)
        }
        [p] => (Vec::new(), p),
        [] => return Err(CompileError::invalid(span, format!("expected {usage}"))),
        _ => {
            return Err(CompileError::unsupported(
                span,
                "`@scalar_rule` of a function with several outputs",
            ))
        }
    };
    let partials = match &partials.kind {
        ExprKind::Tuple(ps) if xs.len() > 1 || ps.len() == 1 => ps.clone(),
        _ => vec![partials.clone()],
    };
    if partials.len() != xs.len() {
        return Err(CompileError::invalid(
            span,
            format!(
                "`@scalar_rule {f}(...)` of {} arguments needs {} partial derivatives, got {}",
                xs.len(),
                xs.len(),
                partials.len()
            ),
        ));
    }
    let param = |name: &str, ty: Expr| Param {
        name: Some(syntax::sym(name)),
        ty: Some(ty),
        default: None,
        vararg: false,
        span,
    };
    let mut params = vec![param("_f", call(ident("typeof"), vec![ident(f.as_str())]))];
    params.extend(xs.iter().map(|x| param(x.as_str(), ident("Number"))));
    let mut body = vec![mk(ExprKind::Assign {
        lhs: Box::new(ident("Ω")),
        rhs: Box::new(call(
            ident(f.as_str()),
            xs.iter().map(|x| ident(x.as_str())).collect(),
        )),
    })];
    body.extend(setup);
    let partials = mk(ExprKind::Tuple(partials));
    let method = |name: &str, params: Vec<Param>, result: Expr, body: &[Expr]| {
        let mut body = body.to_vec();
        body.push(mk(ExprKind::Return(Some(Box::new(mk(ExprKind::Tuple(
            vec![ident("Ω"), result],
        )))))));
        mk(ExprKind::Function(Box::new(FunctionDef {
            name: FnName::Name(syntax::sym(name)),
            name_span: span,
            params,
            kwparams: vec![],
            where_vars: vec![],
            ret_type: None,
            body,
            declaration_only: false,
            qualified: true,
            span,
        })))
    };
    let rrule = method(
        "rrule",
        params.clone(),
        call(ident("_ScalarPullback"), vec![partials.clone()]),
        &body,
    );
    let mut fparams = vec![Param {
        ty: None,
        ..param("_Δs", ident("Any"))
    }];
    fparams.extend(params);
    let frule = method(
        "frule",
        fparams,
        call(ident("_scalar_pushforward"), vec![partials, ident("_Δs")]),
        &body,
    );
    Ok(vec![rrule, frule])
}
