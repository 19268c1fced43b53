//! `@views` on the AST: every `A[...]` read in the expression becomes a view of `A` (a copy
//! for scalar indices and non-arrays, as `getindex`), as Julia's `@views`.
//!
//! An indexing expression is wrapped in the internal macro `@#maybeview`, which the lowering
//! turns into `_maybeview(A, indices...)` with `end` bound as in `A[...]`. The target of an
//! assignment (`A[i] = x`, `A[i] .= x`, `A[i] += x`) stays an assignment into `A`; its array
//! and indices are rewritten like any other expression, so `A[1:2][1] = x` writes into `A`.

use syntax::ast::*;
use syntax::{sym, Symbol};

/// The internal macro a rewritten `A[...]` is wrapped in.
pub fn maybeview_macro() -> Symbol {
    sym("#maybeview")
}

/// Rewrites `e` in place for `@views`.
pub fn viewify(e: &mut Expr) {
    match &mut e.kind {
        ExprKind::Index { obj, indices } => {
            viewify(obj);
            indices.iter_mut().for_each(viewify);
            let span = e.span;
            let inner = std::mem::replace(e, Expr::new(ExprKind::Error, span));
            *e = Expr::new(
                ExprKind::Macro {
                    name: maybeview_macro(),
                    args: vec![inner],
                },
                span,
            );
        }
        ExprKind::Assign { lhs, rhs }
        | ExprKind::OpAssign { lhs, rhs, .. }
        | ExprKind::DotAssign { lhs, rhs, .. } => {
            match &mut lhs.kind {
                ExprKind::Index { obj, indices } => {
                    viewify(obj);
                    indices.iter_mut().for_each(viewify);
                }
                _ => viewify(lhs),
            }
            viewify(rhs);
        }
        // Already rewritten (a nested `@views`).
        ExprKind::Macro { name, .. } if *name == maybeview_macro() => {}
        _ => crate::closure::children_mut(e, &mut viewify),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{expect, Expect};

    /// The rewritten expression, with `@#maybeview` shown as `mv(...)`.
    fn check(src: &str, expect: Expect) {
        let (file, diags) = syntax::parse_file(src, syntax::FileId(0));
        assert!(diags.is_empty(), "{diags:?}");
        let mut e = file.items[0].clone();
        viewify(&mut e);
        expect.assert_eq(&show(&e));
    }

    fn show(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Macro { name, args } if *name == maybeview_macro() => {
                format!("mv({})", show(&args[0]))
            }
            ExprKind::Index { obj, indices } => {
                let is: Vec<String> = indices.iter().map(show).collect();
                format!("{}[{}]", show(obj), is.join(", "))
            }
            ExprKind::Assign { lhs, rhs } => format!("{} = {}", show(lhs), show(rhs)),
            ExprKind::DotAssign { lhs, rhs, .. } => format!("{} .= {}", show(lhs), show(rhs)),
            ExprKind::OpAssign { lhs, rhs, .. } => format!("{} op= {}", show(lhs), show(rhs)),
            ExprKind::Call { func, args, .. } => {
                let a: Vec<String> = args.iter().map(show).collect();
                format!("{}({})", show(func), a.join(", "))
            }
            ExprKind::Block(es) => {
                let a: Vec<String> = es.iter().map(show).collect();
                a.join("; ")
            }
            ExprKind::Function(def) => {
                let a: Vec<String> = def.body.iter().map(show).collect();
                format!("function {}", a.join("; "))
            }
            _ => match e.ident() {
                Some(s) => s.to_string(),
                None => "…".into(),
            },
        }
    }

    #[test]
    fn reads_become_views() {
        check(
            "sum(A[:, 1]) + x[1]",
            expect!["+(sum(mv(A[…, …])), mv(x[…]))"],
        );
    }

    #[test]
    fn assignment_targets_stay_assignments() {
        check("A[1:2][1] = B[3]", expect!["mv(A[:(…, …)])[…] = mv(B[…])"]);
        check("y[i] .= x[i]", expect!["y[i] .= mv(x[i])"]);
        check("y[i] += x[j][k]", expect!["y[i] op= mv(mv(x[j])[k])"]);
    }

    #[test]
    fn nested_indices_and_function_bodies() {
        check(
            "function f(x)\n    s = x[x[1]:end]\nend",
            expect!["function s = mv(x[:(mv(x[…]), …)])"],
        );
    }
}
