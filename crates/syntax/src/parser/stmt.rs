//! Statements: the top level, blocks, assignments, `if`, `for` and short function
//! definitions.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn parse_toplevel(&mut self) -> Vec<Expr> {
        let mut items = Vec::new();
        loop {
            self.skip_terminators();
            if self.at_eof() {
                break;
            }
            if self.at_kw(Kw::End) {
                let sp = self.bump().span;
                self.error(sp, "unexpected `end`");
                continue;
            }
            let before = self.pos;
            let e = self.parse_stmt();
            self.finish_stmt();
            items.push(e);
            if self.pos == before {
                self.bump();
            }
        }
        items
    }

    /// After a statement: expect a newline, `;`, or something that closes a block.
    pub(super) fn finish_stmt(&mut self) {
        match self.peek() {
            Tok::Newline | Tok::Op(";") | Tok::Eof => {}
            Tok::Keyword(Kw::End | Kw::Else | Kw::Elseif | Kw::Catch | Kw::Finally) => {}
            Tok::Op(")") | Tok::Op("]") if self.mode() != Mode::Statement => {}
            t => {
                let sp = self.peek_span();
                let d = Self::describe(t);
                self.error(sp, format!("unexpected {d} after a complete statement"));
                self.recover();
            }
        }
    }

    /// Statements until one of `stops` (not consumed).
    pub(super) fn parse_block(&mut self, stops: &[Kw]) -> Vec<Expr> {
        self.with_mode(Mode::Statement, |p| {
            let mut body = Vec::new();
            loop {
                p.skip_terminators();
                match p.peek() {
                    Tok::Eof => break,
                    Tok::Keyword(k) if stops.contains(k) => break,
                    _ => {}
                }
                let before = p.pos;
                let e = p.parse_stmt();
                p.finish_stmt();
                body.push(e);
                if p.pos == before {
                    p.bump();
                }
            }
            body
        })
    }

    pub(super) fn parse_stmt(&mut self) -> Expr {
        let start = self.peek_span();
        match self.peek().clone() {
            Tok::Keyword(Kw::Struct) => self.parse_struct(false),
            Tok::Keyword(Kw::Mutable) => {
                self.bump();
                if !self.at_kw(Kw::Struct) {
                    let sp = self.peek_span();
                    self.error(sp, "expected `struct` after `mutable`");
                    self.recover();
                    return Expr::new(ExprKind::Error, start);
                }
                self.parse_struct(true)
            }
            Tok::Keyword(Kw::Abstract) => self.parse_abstract(),
            Tok::Keyword(Kw::Using) | Tok::Keyword(Kw::Import) => {
                let using = matches!(self.bump().tok, Tok::Keyword(Kw::Using));
                let mut names = Vec::new();
                // Functions named one by one (`import Base: +, show`, `import Base.show`).
                let mut functions = Vec::new();
                // Names listed after `:` (`using Base.MathConstants: γ`), per module.
                let mut listed: Vec<(Symbol, Vec<(Symbol, Span)>)> = Vec::new();
                let mut alias = None;
                loop {
                    match self.ident_sym("a module name") {
                        Some((s, _)) => names.push(s),
                        None => {
                            self.recover();
                            break;
                        }
                    }
                    // A submodule (`using Base.Threads`): its last name; a name that is not a
                    // module (`import Base.show`): a function.
                    while self.at_op(".") && self.adjacent() {
                        self.bump();
                        match self.ident_sym("a module name after `.`") {
                            Some((s, _)) if !is_module(s) && !using => functions.push(s),
                            Some((s, _)) => {
                                if let Some(last) = names.last_mut() {
                                    *last = s;
                                }
                            }
                            None => {
                                self.recover();
                                break;
                            }
                        }
                    }
                    // `using LinearAlgebra: dot` imports names of a module we provide anyway.
                    if self.eat_op(":") {
                        let module = names.last().copied().unwrap_or_else(|| sym("Main"));
                        let mut these = Vec::new();
                        // The list goes on past the end of a line that ends with a comma.
                        let mut after_comma = false;
                        loop {
                            match self.peek() {
                                Tok::Newline if after_comma => {
                                    self.bump();
                                    continue;
                                }
                                Tok::Newline | Tok::Eof | Tok::Op(";") => break,
                                _ => {}
                            }
                            let t = self.bump();
                            after_comma = matches!(t.tok, Tok::Op(","));
                            match t.tok {
                                Tok::Ident(n) => these.push((n, t.span)),
                                Tok::Op(op) if op != "," => these.push((sym(op), t.span)),
                                _ => {}
                            }
                        }
                        functions.extend(these.iter().map(|(n, _)| *n));
                        listed.push((module, these));
                        break;
                    }
                    // `import LinearAlgebra as LA`: the module under a name of the program's.
                    if matches!(self.peek(), Tok::Ident(n) if n.as_str() == "as") {
                        let sp = self.bump().span;
                        if using {
                            self.error(
                                sp,
                                "`using` with `as` renaming requires a `:` and a name; write `import M as A`",
                            );
                        }
                        if let Some((a, _)) = self.ident_sym("a name after `as`") {
                            alias = Some(a);
                        }
                        break;
                    }
                    if !self.eat_op(",") {
                        break;
                    }
                }
                let span = start.to(self.prev_span());
                let using_stmt = Expr::new(
                    ExprKind::Using {
                        modules: names.clone(),
                        names: functions,
                        import: !using,
                        alias,
                    },
                    span,
                );
                if !using || !names.iter().any(|n| n.as_str() == "MathConstants") {
                    return using_stmt;
                }
                // `using Base.MathConstants` makes its constants names of their own
                // (`γ`, `φ`, `e`, ...), as constants of the program.
                let wanted: Vec<(Symbol, Span)> =
                    match listed.iter().find(|(m, _)| m.as_str() == "MathConstants") {
                        Some((_, these)) => these.clone(),
                        None => ["e", "γ", "eulergamma", "φ", "golden", "catalan"]
                            .iter()
                            .map(|n| (sym(n), span))
                            .collect(),
                    };
                let mut block = vec![using_stmt];
                for (n, sp) in wanted {
                    if matches!(n.as_str(), "π" | "pi" | "ℯ") {
                        continue;
                    }
                    let value = Expr::new(
                        ExprKind::Field {
                            obj: Box::new(Expr::new(ExprKind::Ident(sym("MathConstants")), sp)),
                            name: n,
                        },
                        sp,
                    );
                    let assign = Expr::new(
                        ExprKind::Assign {
                            lhs: Box::new(Expr::new(ExprKind::Ident(n), sp)),
                            rhs: Box::new(value),
                        },
                        sp,
                    );
                    block.push(Expr::new(ExprKind::Const(Box::new(assign)), sp));
                }
                Expr::new(ExprKind::Block(block), span)
            }
            Tok::Keyword(Kw::Module) => {
                self.bump();
                let sp = start;
                self.error(
                    sp,
                    "modules are not supported; put the definitions at top level",
                );
                self.recover();
                Expr::new(ExprKind::Error, sp)
            }
            Tok::Keyword(Kw::Macro) | Tok::Keyword(Kw::Quote) => {
                self.bump();
                self.error(start, "defining macros and quoting are not supported");
                let _ = self.parse_block(&[Kw::End]);
                self.eat_kw(Kw::End);
                Expr::new(ExprKind::Error, start)
            }
            _ => self.parse_expr_stmt(),
        }
    }

    /// An expression at statement level: comma lists form tuples, and `=` assigns.
    pub(super) fn parse_expr_stmt(&mut self) -> Expr {
        let first = self.parse_expr_no_assign();
        let mut lhs = first;
        if self.at_op(",") && self.mode() == Mode::Statement {
            let mut elems = vec![lhs];
            while self.eat_op(",") {
                if matches!(self.peek(), Tok::Newline | Tok::Eof | Tok::Op("=")) {
                    break;
                }
                elems.push(self.parse_expr_no_assign());
            }
            let span = elems[0].span.to(self.prev_span());
            lhs = Expr::new(ExprKind::Tuple(elems), span);
        }
        self.parse_assign_tail(lhs, true)
    }

    /// Given a parsed left side, parses `= rhs` / `op= rhs` if present.
    pub(super) fn parse_assign_tail(&mut self, lhs: Expr, stmt_level: bool) -> Expr {
        let op = match self.peek() {
            Tok::Op(o) => *o,
            _ => return lhs,
        };
        let is_update = matches!(
            op,
            "+=" | "-="
                | "*="
                | "/="
                | "^="
                | "÷="
                | "%="
                | "<<="
                | ">>="
                | ">>>="
                | "⊻="
                | "|="
                | "&="
        );
        let is_dot = matches!(op, ".=" | ".+=" | ".-=" | ".*=" | "./=" | ".^=");
        if op != "=" && !is_update && !is_dot {
            return lhs;
        }
        self.bump();
        self.skip_newlines_in_stmt();
        let rhs = if stmt_level {
            self.parse_expr_stmt()
        } else {
            self.parse_expr()
        };
        let span = lhs.span.to(rhs.span);
        if op == "=" {
            // `f(x) = body` defines a method.
            if is_call_signature(&lhs) {
                return self.short_function(lhs, rhs, span);
            }
            if let ExprKind::NamedTuple(fields) = &lhs.kind {
                if self.property_lists.contains(&lhs.span) {
                    return destructure_properties(fields, rhs, span);
                }
            }
            Expr::new(
                ExprKind::Assign {
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span,
            )
        } else if is_update {
            Expr::new(
                ExprKind::OpAssign {
                    op: sym(&op[..op.len() - 1]),
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span,
            )
        } else {
            Expr::new(
                ExprKind::DotAssign {
                    op: sym(if op == ".=" {
                        ".="
                    } else {
                        &op[..op.len() - 1]
                    }),
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span,
            )
        }
    }

    pub(super) fn skip_newlines_in_stmt(&mut self) {
        if self.mode() != Mode::Bracket {
            self.skip_newlines();
        }
    }

    pub(super) fn short_function(&mut self, sig: Expr, body: Expr, span: Span) -> Expr {
        match self.signature_to_def(sig, vec![body], span) {
            Some(def) => Expr::new(ExprKind::Function(Box::new(def)), span),
            None => Expr::new(ExprKind::Error, span),
        }
    }

    pub(super) fn parse_if(&mut self) -> Expr {
        let sp = self.bump().span; // if / elseif
        let cond = self.with_mode(Mode::Statement, |p| p.parse_expr_no_assign());
        let then = self.parse_block(&[Kw::Elseif, Kw::Else, Kw::End]);
        let else_ = if self.at_kw(Kw::Elseif) {
            Some(Box::new(self.parse_if_elseif()))
        } else if self.eat_kw(Kw::Else) {
            let esp = self.prev_span();
            let body = self.parse_block(&[Kw::End]);
            self.expect_end("if", sp);
            Some(Box::new(Expr::new(
                ExprKind::Block(body),
                esp.to(self.prev_span()),
            )))
        } else {
            self.expect_end("if", sp);
            None
        };
        Expr::new(
            ExprKind::If {
                cond: Box::new(cond),
                then,
                else_,
            },
            sp.to(self.prev_span()),
        )
    }

    /// `elseif` shares the closing `end` of its `if`.
    pub(super) fn parse_if_elseif(&mut self) -> Expr {
        let sp = self.bump().span;
        let cond = self.with_mode(Mode::Statement, |p| p.parse_expr_no_assign());
        let then = self.parse_block(&[Kw::Elseif, Kw::Else, Kw::End]);
        let else_ = if self.at_kw(Kw::Elseif) {
            Some(Box::new(self.parse_if_elseif()))
        } else if self.eat_kw(Kw::Else) {
            let esp = self.prev_span();
            let body = self.parse_block(&[Kw::End]);
            self.expect_end("if", sp);
            Some(Box::new(Expr::new(
                ExprKind::Block(body),
                esp.to(self.prev_span()),
            )))
        } else {
            self.expect_end("if", sp);
            None
        };
        Expr::new(
            ExprKind::If {
                cond: Box::new(cond),
                then,
                else_,
            },
            sp.to(self.prev_span()),
        )
    }

    pub(super) fn parse_iteration_spec(&mut self) -> (Expr, Expr) {
        // The loop variable: a name or a parenthesised tuple; then `in`, `=` or `∈`.
        let lhs = self.parse_postfix();
        let ok = match self.peek() {
            Tok::Ident(s) if s.as_str() == "in" => true,
            Tok::Op("=") | Tok::Op("∈") => true,
            _ => false,
        };
        if !ok {
            let sp = self.peek_span();
            let d = Self::describe(self.peek());
            self.error(
                sp,
                format!("expected `in` or `=` in the loop header, found {d}"),
            );
            return (lhs, Expr::new(ExprKind::Error, sp));
        }
        self.bump();
        let it = self.parse_expr_no_assign();
        (lhs, it)
    }

    pub(super) fn parse_for(&mut self) -> Expr {
        let sp = self.bump().span;
        let iters = self.with_mode(Mode::Statement, |p| {
            let mut iters = Vec::new();
            loop {
                iters.push(p.parse_iteration_spec());
                if !p.eat_op(",") {
                    break;
                }
                p.skip_newlines();
            }
            iters
        });
        let body = self.parse_block(&[Kw::End]);
        self.expect_end("for", sp);
        Expr::new(ExprKind::For { iters, body }, sp.to(self.prev_span()))
    }
}

/// `(; a, b) = rhs`: `a` and `b` set to the properties of those names of the value of `rhs`,
/// which is the value of the whole (`#props = rhs; a = #props.a; b = #props.b; #props`).
fn destructure_properties(fields: &[(Symbol, Expr)], rhs: Expr, span: Span) -> Expr {
    let tmp = sym("#props");
    let at = |k: ExprKind, sp: Span| Expr::new(k, sp);
    let mut stmts = vec![at(
        ExprKind::Assign {
            lhs: Box::new(at(ExprKind::Ident(tmp), rhs.span)),
            rhs: Box::new(rhs),
        },
        span,
    )];
    for (name, e) in fields {
        let prop = at(
            ExprKind::Field {
                obj: Box::new(at(ExprKind::Ident(tmp), e.span)),
                name: *name,
            },
            e.span,
        );
        stmts.push(at(
            ExprKind::Assign {
                lhs: Box::new(at(ExprKind::Ident(*name), e.span)),
                rhs: Box::new(prop),
            },
            e.span,
        ));
    }
    stmts.push(at(ExprKind::Ident(tmp), span));
    at(ExprKind::Block(stmts), span)
}
