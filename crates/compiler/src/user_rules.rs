//! The program's own AD primitives: `@is_primitive Ctx [Mode] sig`, `@zero_adjoint Ctx sig`
//! and `@zero_derivative Ctx sig [Mode]` declare that calls whose signature matches `sig` run
//! a rule (the program's `rrule!!`/`frule!!`, or a zero derivative) instead of being
//! differentiated through their code. The AD runtime asks [`crate::Compiler::user_primitive`].

use crate::error::CompileError;
use crate::typeexpr::TypeExprCtx;
use ir::{Type, TypeEnv, TypePat, TypeVar};
use rustc_hash::FxHashMap;
use syntax::ast::{Expr, ExprKind};
use syntax::{Span, Symbol};

/// Which macro declared a primitive, and so which rule its calls run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleKind {
    /// `@is_primitive`: the program's `rrule!!` (reverse mode) or `frule!!` (forward mode).
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

/// Parses the arguments of `@is_primitive` (`kind` `Own`, `zero_name` `None`),
/// `@zero_adjoint` or `@zero_derivative` (`zero_name` the macro's name). `functions`
/// receives the names in the signature's `typeof(f)`, so the caller can resolve them.
pub fn parse(
    macro_name: &str,
    args: &[Expr],
    span: Span,
    src: &str,
    env: &TypeEnv,
) -> Result<UserPrimitive, CompileError> {
    let usage = || {
        CompileError::invalid(
            span,
            match macro_name {
                "is_primitive" => "usage: `@is_primitive Ctx [Mode] Tuple{typeof(f), ArgTypes...}` with Ctx `MinimalCtx` or `DefaultCtx` and Mode `ForwardMode` or `ReverseMode`",
                "zero_adjoint" => "usage: `@zero_adjoint Ctx Tuple{typeof(f), ArgTypes...}` with Ctx `MinimalCtx` or `DefaultCtx`",
                _ => "usage: `@zero_derivative Ctx Tuple{typeof(f), ArgTypes...} [Mode]` with Ctx `MinimalCtx` or `DefaultCtx` and Mode `ForwardMode` or `ReverseMode`",
            },
        )
    };
    let (ctx, mode, sig) = match (macro_name, args) {
        ("is_primitive", [c, s]) | ("zero_adjoint", [c, s]) | ("zero_derivative", [c, s]) => {
            (c, None, s)
        }
        ("is_primitive", [c, m, s]) | ("zero_derivative", [c, s, m]) => (c, Some(m), s),
        _ => return Err(usage()),
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
    if macro_name == "zero_adjoint" {
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
    Ok(UserPrimitive {
        minimal,
        forward,
        reverse,
        kind: if macro_name == "is_primitive" {
            RuleKind::Own
        } else {
            RuleKind::Zero
        },
        fixed,
        vararg,
        tvars,
        span,
        text: src
            .get(sig.span.lo as usize..sig.span.hi as usize)
            .unwrap_or("")
            .to_string(),
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
