//! `Threads.@threads for ... end`, rewritten as Julia's macro expands it: the loop body
//! becomes a function of a range of iteration numbers, which the prelude's `_threads_for`
//! runs on the threads (so scoping and capture are those of a closure, as in Julia).

use super::*;

/// Names the rewritten loop introduces (not spellable in source).
const RANGE: &str = "#threads_range";
const FIRST: &str = "#threads_first";
const LAST: &str = "#threads_last";
const INDEX: &str = "#threads_index";

impl Parser<'_> {
    /// The expression `@threads [schedule] for var in iter; body; end` stands for:
    /// ```text
    /// let #range = iter
    ///     _threads_for((#first, #last) -> for #k in #first:#last
    ///                      local var = #range[#k]
    ///                      body
    ///                  end, #range)
    /// end; nothing
    /// ```
    /// (`schedule` is `:static`, `:dynamic` or `:greedy`; every schedule divides the
    /// iterations as `:static` does, which each of them may.)
    pub(super) fn threads_loop(&mut self, args: Vec<Expr>, span: Span) -> Expr {
        let (sched, looped) = match args.as_slice() {
            [l] => (None, l),
            [s, l] => (Some(s), l),
            _ => {
                self.error(span, "wrong number of arguments in @threads");
                return Expr::new(ExprKind::Error, span);
            }
        };
        if let Some(s) = sched {
            let known = matches!(&s.kind, ExprKind::QuoteSym(n)
                if matches!(n.as_str(), "static" | "dynamic" | "greedy"));
            if !known {
                self.error(s.span, "unrecognized schedule argument");
                return Expr::new(ExprKind::Error, span);
            }
        }
        let ExprKind::For { iters, body } = &looped.kind else {
            self.error(looped.span, "@threads requires a `for` loop expression");
            return Expr::new(ExprKind::Error, span);
        };
        let [(var, iter)] = iters.as_slice() else {
            self.error(
                looped.span,
                "nested outer loops are not currently supported by @threads",
            );
            return Expr::new(ExprKind::Error, span);
        };
        let sp = looped.span;
        let id = |s: &str| Expr::new(ExprKind::Ident(sym(s)), sp);
        let call = |f: &str, args: Vec<Expr>| {
            Expr::new(
                ExprKind::Call {
                    func: Box::new(id(f)),
                    args,
                    kwargs: vec![],
                    do_block: None,
                },
                sp,
            )
        };
        let assign = |lhs: Expr, rhs: Expr| {
            let s = lhs.span;
            Expr::new(
                ExprKind::Assign {
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                s,
            )
        };
        let element = Expr::new(
            ExprKind::Index {
                obj: Box::new(id(RANGE)),
                indices: vec![id(INDEX)],
            },
            var.span,
        );
        let mut each = vec![Expr::new(
            ExprKind::Local(vec![assign(var.clone(), element)]),
            var.span,
        )];
        each.extend(body.iter().cloned());
        let chunk = Expr::new(
            ExprKind::For {
                iters: vec![(id(INDEX), call(":", vec![id(FIRST), id(LAST)]))],
                body: each,
            },
            sp,
        );
        let param = |s: &str| Param {
            name: Some(sym(s)),
            ty: None,
            default: None,
            vararg: false,
            destructure: None,
            span: sp,
        };
        let body_fn = Expr::new(
            ExprKind::Lambda(Box::new(Lambda {
                params: vec![param(FIRST), param(LAST)],
                body: Expr::new(
                    ExprKind::Block(vec![chunk, Expr::new(ExprKind::Nothing, sp)]),
                    sp,
                ),
                span: sp,
            })),
            sp,
        );
        let run = Expr::new(
            ExprKind::Let {
                bindings: vec![assign(id(RANGE), iter.clone())],
                body: vec![call("_threads_for", vec![body_fn, id(RANGE)])],
            },
            span,
        );
        Expr::new(
            ExprKind::Block(vec![run, Expr::new(ExprKind::Nothing, span)]),
            span,
        )
    }
}
