//! `try`/`catch`/`else`/`finally`, rewritten into calls of the prelude's `_try_catch` and
//! `_try_finally` with the blocks as functions (so each block is a scope of its own, as in
//! Julia, and assigns the variables around it as a closure does). A `return`, and a `break`
//! or `continue` of a loop around the `try`, inside a block becomes a returned marker that
//! the code after the call acts on.

use super::*;

/// Names the rewrite introduces (not spellable in source).
const RESULT: &str = "#try_result";
const INNER: &str = "#try_inner";
const EXCEPTION: &str = "#exception";

/// A `catch` block: its variable (if named) and statements.
type Handler = (Option<(Symbol, Span)>, Vec<Expr>);

/// Which ways out of a `try` its blocks take.
#[derive(Default, Clone, Copy)]
struct Escapes {
    ret: bool,
    brk: bool,
    cont: bool,
}

impl Escapes {
    fn any(self) -> bool {
        self.ret || self.brk || self.cont
    }
}

impl Parser<'_> {
    /// `try body [catch [e] handler] [else otherwise] [finally cleanup] end` stands for:
    /// ```text
    /// let #result = _try_catch(() -> (body; [_TryElse()]), (e) -> handler)
    ///     #result isa _TryReturn && return _try_returned(#result)   # if a block returns
    ///     #result isa _TryBreak && break                            # if one breaks
    ///     #result isa _TryContinue && continue                      # if one continues
    ///     #result isa _TryElse ? (let; otherwise end) : _try_value(#result)
    /// end
    /// ```
    /// where each `return x` in `body` and `handler` is `return _TryReturn(x)` (likewise
    /// `break` and `continue` of a loop outside the `try`). With `finally`, the call is
    /// `_try_finally(() -> (what the catch and else parts make), () -> (cleanup; nothing))`.
    pub(super) fn parse_try(&mut self) -> Expr {
        let start = self.bump().span; // try
        let mut body = self.parse_block(&[Kw::Catch, Kw::Else, Kw::Finally, Kw::End]);
        let mut handler: Option<Handler> = None;
        if self.eat_kw(Kw::Catch) {
            let var = match self.peek() {
                Tok::Newline | Tok::Op(";") | Tok::Eof => None,
                Tok::Keyword(Kw::End | Kw::Else | Kw::Finally) => None,
                Tok::Ident(n) => {
                    let n = *n;
                    let sp = self.bump().span;
                    Some((n, sp))
                }
                _ => {
                    let sp = self.peek_span();
                    self.error(sp, "a variable name is expected after `catch`");
                    None
                }
            };
            let block = self.parse_block(&[Kw::Else, Kw::Finally, Kw::End]);
            handler = Some((var, block));
        }
        let mut otherwise = None;
        if self.at_kw(Kw::Else) {
            let sp = self.bump().span;
            if handler.is_none() {
                self.error(sp, "Expected `catch` before `else`");
            }
            otherwise = Some(self.parse_block(&[Kw::Finally, Kw::End]));
        }
        let mut cleanup = None;
        if self.eat_kw(Kw::Finally) {
            cleanup = Some(self.parse_block(&[Kw::Catch, Kw::End]));
        }
        if handler.is_none() && self.at_kw(Kw::Catch) {
            let sp = self.peek_span();
            self.error(
                sp,
                "not supported yet: `catch` after `finally` (Julia runs the blocks out of order); put `catch` first",
            );
            self.bump();
            let _ = self.parse_block(&[Kw::End]);
        }
        self.expect_end("try", start);
        let span = start.to(self.prev_span());
        if handler.is_none() && cleanup.is_none() {
            self.error(span, "try without catch or finally");
            return Expr::new(ExprKind::Error, span);
        }

        // The blocks run as functions: their ways out become markers.
        let mut esc = Escapes::default();
        for e in body.iter_mut() {
            mark_escapes(e, 0, &mut esc);
        }
        if let Some((_, block)) = &mut handler {
            for e in block.iter_mut() {
                mark_escapes(e, 0, &mut esc);
            }
        }
        if let Some(block) = &mut cleanup {
            let mut fin = Escapes::default();
            for e in block.iter_mut() {
                mark_escapes(e, 0, &mut fin);
            }
            if fin.any() {
                self.error(
                    span,
                    "not supported yet: `return`, `break` or `continue` leaving a `finally` block",
                );
                return Expr::new(ExprKind::Error, span);
            }
        }
        let sp = start;
        let id = |s: &str| Expr::new(ExprKind::Ident(sym(s)), sp);
        let block = |es: Vec<Expr>| Expr::new(ExprKind::Block(es), sp);
        let lambda = |params: Vec<Param>, body: Vec<Expr>| {
            Expr::new(
                ExprKind::Lambda(Box::new(Lambda {
                    params,
                    body: block(body),
                    span: sp,
                    local: None,
                    try_block: true,
                    where_vars: vec![],
                    ret_type: None,
                    kwparams: vec![],
                })),
                sp,
            )
        };
        let marker = |name: &str| library_call(name, vec![], vec![], sp, sp);
        let isa = |x: Expr, t: &str| {
            Expr::new(
                ExprKind::Call {
                    func: Box::new(id("isa")),
                    args: vec![x, library_ref(sym(t), sp)],
                    kwargs: vec![],
                    do_block: None,
                },
                sp,
            )
        };
        let if_then = |cond: Expr, then: Vec<Expr>, else_: Option<Expr>| {
            Expr::new(
                ExprKind::If {
                    cond: Box::new(cond),
                    then,
                    else_: else_.map(Box::new),
                },
                sp,
            )
        };

        // `() -> (body; _TryElse())`: the body, telling an `else` block to run.
        if otherwise.is_some() {
            body.push(marker("_TryElse"));
        }
        let body_fn = lambda(vec![], body);
        let protected = match handler {
            Some((var, block)) => {
                let (name, psp) = var.unwrap_or((sym(EXCEPTION), sp));
                let param = Param {
                    name: Some(name),
                    ty: None,
                    default: None,
                    vararg: false,
                    span: psp,
                };
                let handler_fn = lambda(vec![param], block);
                library_call("_try_catch", vec![body_fn, handler_fn], vec![], sp, sp)
            }
            None => Expr::new(
                ExprKind::Call {
                    func: Box::new(body_fn),
                    args: vec![],
                    kwargs: vec![],
                    do_block: None,
                },
                sp,
            ),
        };
        // `#r isa _TryElse ? (let; otherwise end) : x`, the value of the `try`.
        let run_else = |r: &str, otherwise: Vec<Expr>, x: Expr| {
            let scoped = Expr::new(
                ExprKind::Let {
                    bindings: vec![],
                    body: otherwise,
                },
                sp,
            );
            if_then(isa(id(r), "_TryElse"), vec![scoped], Some(x))
        };
        let (call, otherwise) = match cleanup {
            None => (protected, otherwise),
            Some(fin) => {
                // The `else` block runs inside the `finally`'s protection: its ways out are
                // markers too.
                let mut inner = vec![assign(id(INNER), protected)];
                match otherwise {
                    Some(mut o) => {
                        for e in o.iter_mut() {
                            mark_escapes(e, 0, &mut esc);
                        }
                        inner.push(run_else(INNER, o, id(INNER)));
                    }
                    None => inner.push(id(INNER)),
                }
                let mut fin = fin;
                fin.push(Expr::new(ExprKind::Nothing, sp));
                let call = library_call(
                    "_try_finally",
                    vec![lambda(vec![], inner), lambda(vec![], fin)],
                    vec![],
                    sp,
                    sp,
                );
                (call, None)
            }
        };
        let mut after = Vec::new();
        if esc.ret {
            let returned = library_call("_try_returned", vec![id(RESULT)], vec![], sp, sp);
            let ret = Expr::new(ExprKind::Return(Some(Box::new(returned))), sp);
            after.push(if_then(isa(id(RESULT), "_TryReturn"), vec![ret], None));
        }
        if esc.brk {
            let brk = Expr::new(ExprKind::Break, sp);
            after.push(if_then(isa(id(RESULT), "_TryBreak"), vec![brk], None));
        }
        if esc.cont {
            let cont = Expr::new(ExprKind::Continue, sp);
            after.push(if_then(isa(id(RESULT), "_TryContinue"), vec![cont], None));
        }
        let value = library_call("_try_value", vec![id(RESULT)], vec![], sp, sp);
        after.push(match otherwise {
            Some(o) => run_else(RESULT, o, value),
            None => value,
        });
        Expr::new(
            ExprKind::Let {
                bindings: vec![assign(id(RESULT), call)],
                body: after,
            },
            span,
        )
    }
}

fn assign(lhs: Expr, rhs: Expr) -> Expr {
    let sp = lhs.span;
    Expr::new(
        ExprKind::Assign {
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
        sp,
    )
}

/// Rewrites, in a block that will run as a function, each `return x` into `return
/// _TryReturn(x)` and each `break`/`continue` of a loop outside the block (`loops` counts the
/// loops of the block around `e`) into a returned `_TryBreak()`/`_TryContinue()`, noting in
/// `found` which it met. Functions defined inside are left alone: their `return`s are their
/// own.
fn mark_escapes(e: &mut Expr, loops: usize, found: &mut Escapes) {
    let sp = e.span;
    let marker = |name: &str, args: Vec<Expr>| {
        let m = library_call(name, args, vec![], sp, sp);
        ExprKind::Return(Some(Box::new(m)))
    };
    match &mut e.kind {
        ExprKind::Return(v) => {
            let mut x = v
                .take()
                .map(|b| *b)
                .unwrap_or_else(|| Expr::new(ExprKind::Nothing, sp));
            mark_escapes(&mut x, loops, found);
            e.kind = marker("_TryReturn", vec![x]);
            found.ret = true;
        }
        ExprKind::Break if loops == 0 => {
            e.kind = marker("_TryBreak", vec![]);
            found.brk = true;
        }
        ExprKind::Continue if loops == 0 => {
            e.kind = marker("_TryContinue", vec![]);
            found.cont = true;
        }
        ExprKind::For { iters, body } => {
            for (v, it) in iters.iter_mut() {
                mark_escapes(v, loops, found);
                mark_escapes(it, loops, found);
            }
            body.iter_mut()
                .for_each(|x| mark_escapes(x, loops + 1, found));
        }
        ExprKind::While { cond, body } => {
            mark_escapes(cond, loops, found);
            body.iter_mut()
                .for_each(|x| mark_escapes(x, loops + 1, found));
        }
        ExprKind::Lambda(_) | ExprKind::Function(_) | ExprKind::Struct(_) => {}
        // A `do` block is a function of its own.
        ExprKind::Call {
            func, args, kwargs, ..
        } => {
            mark_escapes(func, loops, found);
            args.iter_mut().for_each(|x| mark_escapes(x, loops, found));
            kwargs
                .iter_mut()
                .for_each(|k| mark_escapes(&mut k.value, loops, found));
        }
        _ => children_mut(e, &mut |c| mark_escapes(c, loops, found)),
    }
}
