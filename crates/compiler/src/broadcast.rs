//! Broadcast fusion on the AST: a dotted expression (`f.(x)`, `x .+ y`, `x .< y`, and what
//! `@.` makes of an expression) becomes one scalar expression over fresh argument names plus
//! the list of its non-dotted operands, which `Lowerer::broadcast` turns into
//! `broadcast(args -> scalar expression, operands...)`: Julia's fusion, one loop and no
//! temporary arrays inside the dotted expression.

use syntax::ast::*;
use syntax::{sym, Span, Symbol};

/// Most operands the prelude's `broadcast` methods take; a fused expression with more passes
/// the rest packed (see [`pack`]).
pub const MAX_ARGS: usize = 4;

/// `func(args...)`, a plain call.
fn call(func: Expr, args: Vec<Expr>, sp: Span) -> Expr {
    Expr::new(
        ExprKind::Call {
            func: Box::new(func),
            args,
            kwargs: vec![],
            do_block: None,
        },
        sp,
    )
}

/// The identifier `name`.
fn named(name: &str, sp: Span) -> Expr {
    Expr::new(ExprKind::Ident(sym(name)), sp)
}

/// `_bpack(l1, ..., lk)` of operands beyond the ones `broadcast` takes (the first of them the
/// fused function's parameter `first`), at most `MAX_ARGS` to a pack, the last one a pack of the
/// rest when there are more: with, for each operand, its parameter number and the path of
/// tuple indices that reaches its element.
pub fn pack(leaves: &[Expr], first: usize, sp: Span) -> (Expr, Vec<(usize, Vec<i64>)>) {
    let bpack = |args: Vec<Expr>| call(named("_bpack", sp), args, sp);
    if leaves.len() <= MAX_ARGS {
        let bindings = (0..leaves.len())
            .map(|i| (first + i, vec![i as i64 + 1]))
            .collect();
        return (bpack(leaves.to_vec()), bindings);
    }
    let direct = MAX_ARGS - 1;
    let (inner, inner_bindings) = pack(&leaves[direct..], first + direct, sp);
    let mut args = leaves[..direct].to_vec();
    args.push(inner);
    let mut bindings: Vec<(usize, Vec<i64>)> = (0..direct)
        .map(|i| (first + i, vec![i as i64 + 1]))
        .collect();
    for (k, path) in inner_bindings {
        let mut p = vec![MAX_ARGS as i64];
        p.extend(path);
        bindings.push((k, p));
    }
    (bpack(args), bindings)
}

/// The name of the fused function's `k`-th parameter.
pub fn arg_name(k: usize) -> Symbol {
    sym(&format!("#b{}", k + 1))
}

/// `.+` → `+`, for a dotted operator.
fn undotted(op: Symbol) -> Option<Symbol> {
    let s = op.as_str();
    let rest = s.strip_prefix('.')?;
    // (`.∈` is read as `.in`.)
    let is_op = rest == "in"
        || !rest.is_empty()
            && rest != "."
            && !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '.');
    is_op.then(|| sym(rest))
}

/// Whether `e` is a dotted call or operator (the root of a fused expression).
pub fn is_dotted(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::DotCall { .. } => true,
        ExprKind::Call {
            func,
            kwargs,
            do_block: None,
            ..
        } if kwargs.is_empty() => func.ident().and_then(undotted).is_some(),
        ExprKind::Comparison { rest, .. } => rest.iter().any(|(op, _, _)| undotted(*op).is_some()),
        _ => false,
    }
}

/// The operands of a fused expression, with whether each is an operand of arithmetic
/// (`+`, `-`, `*`, `/`, `\`, directly or through unary minus): Julia evaluates such arithmetic
/// on a range as range arithmetic, not element by element.
#[derive(Default)]
pub struct Leaves {
    pub exprs: Vec<Expr>,
    pub arith: Vec<bool>,
}

/// The scalar expression of the fused dotted expression `e` over `#b1, #b2, ...`, and the
/// operands those names stand for (a variable used twice is one operand; literals stay in the
/// expression).
pub fn fuse(e: &Expr) -> (Expr, Leaves) {
    let mut leaves = Leaves::default();
    let body = fuse_in(e, &mut leaves, false);
    (body, leaves)
}

/// The fused scalar expression `body` of [`fuse`] as whole operations, when it is made only of
/// `+`, `-`, `*`, `/` and `\` over operands and literals: each `op(a, b)` (and unary `-a`,
/// `+a`) becomes `_bcr(op, a, b)`, which performs the operation on whole values as Julia's
/// `broadcasted` does (on a range, range arithmetic; see the prelude). `None` when the
/// expression applies anything else, or no operation at all.
pub fn whole_arith(body: &Expr) -> Option<Expr> {
    plain_call(body)?;
    arith_operand(body)
}

/// The callee and arguments of a call without keywords or `do` block.
fn plain_call(e: &Expr) -> Option<(&Expr, &[Expr])> {
    match &e.kind {
        ExprKind::Call {
            func,
            args,
            kwargs,
            do_block: None,
        } if kwargs.is_empty() => Some((func, args)),
        _ => None,
    }
}

/// An operand of [`whole_arith`]'s operations: an operation itself, an operand name, a literal.
fn arith_operand(body: &Expr) -> Option<Expr> {
    let sp = body.span;
    if let Some((func, args)) = plain_call(body) {
        let op = func.ident()?;
        let unary = matches!(op.as_str(), "+" | "-") && args.len() == 1;
        if !(is_range_arith(op, args.len()) || unary) {
            return None;
        }
        let mut operands = vec![func.clone()];
        for a in args {
            operands.push(arith_operand(a)?);
        }
        return Some(call(named("_bcr", sp), operands, sp));
    }
    match &body.kind {
        ExprKind::Ident(n) if is_arg_name(*n) => Some(body.clone()),
        ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Float32(_) | ExprKind::Bool(_) => {
            Some(body.clone())
        }
        _ => None,
    }
}

/// Whether `n` is the name [`arg_name`] gives an operand.
fn is_arg_name(n: Symbol) -> bool {
    n.as_str()
        .strip_prefix("#b")
        .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
}

/// The fused scalar expression `body` of [`fuse`] for operands among which a range is an
/// operand of arithmetic: each maximal part of it made only of arithmetic becomes whole
/// operations ([`whole_arith`]); everything else is dotted again (fused over those parts'
/// values, as Julia fuses around an operation it evaluates whole). `None` when no part is
/// arithmetic, or the expression passes keyword arguments.
pub fn by_operation(body: &Expr) -> Option<Expr> {
    fn conv(e: &Expr, found: &mut bool) -> Option<Expr> {
        if let Some(t) = whole_arith(e) {
            *found = true;
            return Some(t);
        }
        let sp = e.span;
        if let Some((func, args)) = plain_call(e) {
            let args = args
                .iter()
                .map(|a| conv(a, found))
                .collect::<Option<Vec<_>>>()?;
            let func = Box::new(func.clone());
            return Some(Expr::new(
                ExprKind::DotCall {
                    func,
                    args,
                    kwargs: vec![],
                },
                sp,
            ));
        }
        match &e.kind {
            ExprKind::Comparison { first, rest } => {
                let first = Box::new(conv(first, found)?);
                let rest = rest
                    .iter()
                    .map(|(op, osp, x)| Some((sym(&format!(".{op}")), *osp, conv(x, found)?)))
                    .collect::<Option<Vec<_>>>()?;
                Some(Expr::new(ExprKind::Comparison { first, rest }, sp))
            }
            ExprKind::Ident(_)
            | ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Float32(_)
            | ExprKind::Bool(_)
            | ExprKind::Nothing => Some(e.clone()),
            _ => None,
        }
    }
    let mut found = false;
    let out = conv(body, &mut found)?;
    found.then_some(out)
}

/// Whether `op` (undotted) is arithmetic that Julia performs on ranges as a whole.
fn is_range_arith(op: Symbol, nargs: usize) -> bool {
    matches!(op.as_str(), "+" | "-" | "*" | "/" | "\\") && nargs == 2
}

fn fuse_in(e: &Expr, leaves: &mut Leaves, arith: bool) -> Expr {
    let sp = e.span;
    match &e.kind {
        ExprKind::DotCall { func, args, kwargs } => {
            let args = args.iter().map(|a| fuse_in(a, leaves, false)).collect();
            // Each keyword value is evaluated once, outside the loop, and passed whole to every
            // call: an operand wrapped in `Ref`, which broadcasting treats as one scalar.
            let kwargs = kwargs
                .iter()
                .map(|k| {
                    let value = if matches!(k.value.kind, ExprKind::Splat(_)) {
                        k.value.clone()
                    } else {
                        let vsp = k.value.span;
                        let wrapped = call(named("Ref", vsp), vec![k.value.clone()], vsp);
                        leaves.exprs.push(wrapped);
                        leaves.arith.push(false);
                        Expr::new(ExprKind::Ident(arg_name(leaves.exprs.len() - 1)), vsp)
                    };
                    KwArg { value, ..k.clone() }
                })
                .collect();
            Expr::new(
                ExprKind::Call {
                    func: func.clone(),
                    args,
                    kwargs,
                    do_block: None,
                },
                sp,
            )
        }
        ExprKind::Call {
            func,
            args,
            kwargs,
            do_block: None,
        } if kwargs.is_empty() && func.ident().and_then(undotted).is_some() => {
            let op = func.ident().and_then(undotted).unwrap_or_else(|| sym("?"));
            let unary_minus = op.as_str() == "-" && args.len() == 1;
            let arith = is_range_arith(op, args.len()) || (unary_minus && arith);
            let args = args.iter().map(|a| fuse_in(a, leaves, arith)).collect();
            call(Expr::new(ExprKind::Ident(op), func.span), args, sp)
        }
        ExprKind::Comparison { first, rest } if is_dotted(e) => Expr::new(
            ExprKind::Comparison {
                first: Box::new(fuse_in(first, leaves, false)),
                rest: rest
                    .iter()
                    .map(|(op, osp, x)| {
                        (
                            undotted(*op).unwrap_or(*op),
                            *osp,
                            fuse_in(x, leaves, false),
                        )
                    })
                    .collect(),
            },
            sp,
        ),
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Float32(_)
        | ExprKind::Bool(_)
        | ExprKind::Nothing => e.clone(),
        _ => {
            let same = leaves.exprs.iter().position(|l| match (&l.kind, &e.kind) {
                (ExprKind::Ident(a), ExprKind::Ident(b)) => a == b,
                _ => false,
            });
            let k = same.unwrap_or_else(|| {
                leaves.exprs.push(e.clone());
                leaves.arith.push(false);
                leaves.exprs.len() - 1
            });
            leaves.arith[k] |= arith;
            Expr::new(ExprKind::Ident(arg_name(k)), sp)
        }
    }
}

/// What `@.` makes of `e`: every call and operator dotted, every assignment `.=`.
pub fn dotify(e: &Expr) -> Expr {
    let sp = e.span;
    let all = |es: &[Expr]| es.iter().map(dotify).collect::<Vec<_>>();
    match &e.kind {
        ExprKind::Call {
            func,
            args,
            kwargs,
            do_block: None,
        } if kwargs.is_empty() => match func.ident() {
            Some(f) if undotted(f).is_some() => call((**func).clone(), all(args), sp),
            Some(f)
                if !f
                    .as_str()
                    .starts_with(|c: char| c.is_alphanumeric() || c == '_') =>
            {
                call(named(&format!(".{f}"), func.span), all(args), sp)
            }
            _ => Expr::new(
                ExprKind::DotCall {
                    func: func.clone(),
                    args: all(args),
                    kwargs: vec![],
                },
                sp,
            ),
        },
        // `@. round(x; digits = 2)`: a call with keywords is dotted too (keyword values as well).
        ExprKind::Call {
            func,
            args,
            kwargs,
            do_block: None,
        }
        | ExprKind::DotCall { func, args, kwargs } => Expr::new(
            ExprKind::DotCall {
                func: func.clone(),
                args: all(args),
                kwargs: kwargs
                    .iter()
                    .map(|k| KwArg {
                        value: dotify(&k.value),
                        ..k.clone()
                    })
                    .collect(),
            },
            sp,
        ),
        ExprKind::Comparison { first, rest } => Expr::new(
            ExprKind::Comparison {
                first: Box::new(dotify(first)),
                rest: rest
                    .iter()
                    .map(|(op, osp, x)| {
                        let op = if undotted(*op).is_some() {
                            *op
                        } else {
                            sym(&format!(".{op}"))
                        };
                        (op, *osp, dotify(x))
                    })
                    .collect(),
            },
            sp,
        ),
        ExprKind::Assign { lhs, rhs } => Expr::new(
            ExprKind::DotAssign {
                op: sym(".="),
                lhs: lhs.clone(),
                rhs: Box::new(dotify(rhs)),
            },
            sp,
        ),
        ExprKind::OpAssign { op, lhs, rhs } => Expr::new(
            ExprKind::DotAssign {
                op: sym(&format!(".{op}")),
                lhs: lhs.clone(),
                rhs: Box::new(dotify(rhs)),
            },
            sp,
        ),
        ExprKind::Block(es) => Expr::new(ExprKind::Block(all(es)), sp),
        _ => e.clone(),
    }
}
