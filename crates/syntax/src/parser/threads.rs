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
    ///                  end, #range, disjoint)
    /// end; nothing
    /// ```
    /// where `disjoint` names the arrays whose elements no two iterations share (reverse mode
    /// runs the iterations' pullbacks in parallel on those arrays' tangents directly).
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
                local: None,
                try_block: false,
                where_vars: vec![],
                ret_type: None,
                kwparams: vec![],
            })),
            sp,
        );
        // `((:name, k), ...)`: the captured arrays only indexed with the loop variable
        // last (see `disjoint_arrays`).
        let disjoint = Expr::new(
            ExprKind::Tuple(
                disjoint_arrays(body, var)
                    .into_iter()
                    .map(|(n, k)| {
                        Expr::new(
                            ExprKind::Tuple(vec![
                                Expr::new(ExprKind::QuoteSym(n), sp),
                                Expr::new(ExprKind::Int(k as i64), sp),
                            ]),
                            sp,
                        )
                    })
                    .collect(),
            ),
            sp,
        );
        let run = Expr::new(
            ExprKind::Let {
                bindings: vec![assign(id(RANGE), iter.clone())],
                body: vec![call("_threads_for", vec![body_fn, id(RANGE), disjoint])],
            },
            span,
        );
        Expr::new(
            ExprKind::Block(vec![run, Expr::new(ExprKind::Nothing, span)]),
            span,
        )
    }
}

/// The names `body` uses only as `name[i_1, ..., i_k]` with the loop variable `var` as the
/// last index (always the same number `k` of indices), or as the argument of a size query
/// (`length(name)`, `size(name, d)`, ...), with `k`. If `name` is an array and the loop runs
/// over distinct integers, two iterations never touch the same element of it (the elements
/// of `name[..., i]` for different `i` lie in different slabs of the array). Empty when
/// `var` is not a plain name or anything in `body` binds it (it would not stay the loop's
/// value); a name something in `body` binds is left out.
fn disjoint_arrays(body: &[Expr], var: &Expr) -> Vec<(Symbol, usize)> {
    let ExprKind::Ident(v) = var.kind else {
        return Vec::new();
    };
    #[derive(Clone, Copy, PartialEq)]
    enum Use {
        Indexed(usize),
        Other,
    }
    struct Scan {
        var: Symbol,
        uses: Vec<(Symbol, Use)>,
        bound: Vec<Symbol>,
    }
    impl Scan {
        fn mark(&mut self, n: Symbol, u: Use) {
            match self.uses.iter_mut().find(|(m, _)| *m == n) {
                Some((_, old)) if *old != u => *old = Use::Other,
                Some(_) => {}
                None => self.uses.push((n, u)),
            }
        }
        fn visit(&mut self, e: &Expr) {
            const SIZE_QUERIES: &[&str] = &[
                "length",
                "size",
                "axes",
                "eachindex",
                "firstindex",
                "lastindex",
                "ndims",
                "eltype",
            ];
            match &e.kind {
                ExprKind::Ident(n) => self.mark(*n, Use::Other),
                ExprKind::Index { obj, indices } => {
                    let last_is_var = matches!(indices.last(),
                        Some(Expr { kind: ExprKind::Ident(n), .. }) if *n == self.var);
                    let splat = indices.iter().any(|i| matches!(i.kind, ExprKind::Splat(_)));
                    match &obj.kind {
                        ExprKind::Ident(a) if last_is_var && !splat && *a != self.var => {
                            self.mark(*a, Use::Indexed(indices.len()));
                            indices[..indices.len() - 1]
                                .iter()
                                .for_each(|i| self.visit(i));
                        }
                        _ => children(e, &mut |c| self.visit(c)),
                    }
                }
                ExprKind::Call {
                    func,
                    args,
                    kwargs,
                    do_block: None,
                } if kwargs.is_empty()
                    && matches!(&func.kind, ExprKind::Ident(f) if SIZE_QUERIES.contains(&f.as_str()))
                    && matches!(
                        args.first(),
                        Some(Expr {
                            kind: ExprKind::Ident(_),
                            ..
                        })
                    ) =>
                {
                    args[1..].iter().for_each(|a| self.visit(a));
                }
                ExprKind::Lambda(l) => {
                    self.bound.extend(param_names(&l.params));
                    children(e, &mut |c| self.visit(c));
                }
                ExprKind::Function(def) => {
                    self.bound.extend(param_names(&def.params));
                    self.bound.extend(param_names(&def.kwparams));
                    children(e, &mut |c| self.visit(c));
                }
                ExprKind::Call {
                    do_block: Some(l), ..
                } => {
                    self.bound.extend(param_names(&l.params));
                    children(e, &mut |c| self.visit(c));
                }
                ExprKind::For { iters, .. } | ExprKind::Comprehension { iters, .. } => {
                    iters
                        .iter()
                        .for_each(|(t, _)| target_names(t, &mut self.bound));
                    children(e, &mut |c| self.visit(c));
                }
                ExprKind::Let { bindings: ts, .. } | ExprKind::Local(ts) | ExprKind::Global(ts) => {
                    ts.iter().for_each(|t| target_names(t, &mut self.bound));
                    children(e, &mut |c| self.visit(c));
                }
                ExprKind::Assign { lhs, .. } | ExprKind::OpAssign { lhs, .. } => {
                    match &lhs.kind {
                        // `g(x) = ...`: a function whose parameters may shadow anything.
                        ExprKind::Call { .. } | ExprKind::Where { .. } => {
                            all_names(lhs, &mut self.bound)
                        }
                        _ => target_names(lhs, &mut self.bound),
                    }
                    children(e, &mut |c| self.visit(c));
                }
                _ => children(e, &mut |c| self.visit(c)),
            }
        }
    }
    let mut scan = Scan {
        var: v,
        uses: Vec::new(),
        bound: Vec::new(),
    };
    body.iter().for_each(|e| scan.visit(e));
    if scan.bound.contains(&v) {
        return Vec::new();
    }
    scan.uses
        .into_iter()
        .filter_map(|(n, u)| match u {
            Use::Indexed(k) if !scan.bound.contains(&n) => Some((n, k)),
            _ => None,
        })
        .collect()
}

/// Every name `e` mentions.
fn all_names(e: &Expr, out: &mut Vec<Symbol>) {
    if let ExprKind::Ident(n) = e.kind {
        out.push(n);
    }
    children(e, &mut |c| all_names(c, out));
}
