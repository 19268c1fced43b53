//! Atoms and postfix forms: literals, names, strings, parentheses and tuples, brackets
//! (vectors, matrices, comprehensions), calls, indexing, field access and macros.

use super::*;

pub(super) enum BracketBody {
    List(Vec<Expr>),
    Rows(Vec<Vec<Expr>>),
    Comprehension(Expr),
    /// Concatenation along dimensions 2 and up written with `;;`, `;;;`, ...: the calls of
    /// `hcat`/`cat` it stands for.
    Concat(Expr),
}

impl<'a> Parser<'a> {
    /// Whether the token at the cursor is glued to the previous one (no whitespace).
    pub(super) fn adjacent(&self) -> bool {
        let i = self.next_index();
        i == self.pos && !self.toks[i].space_before
    }

    /// Whether the token after the cursor is a name glued to it (`:name`).
    fn quoted_name_follows(&self) -> bool {
        let i = self.next_index() + 1;
        self.toks
            .get(i)
            .is_some_and(|t| matches!(t.tok, Tok::Ident(_)) && !t.space_before)
    }

    pub(super) fn parse_postfix(&mut self) -> Expr {
        let e = self.parse_primary();
        self.postfix_tail(e)
    }

    pub(super) fn postfix_tail(&mut self, e: Expr) -> Expr {
        let mut e = e;
        loop {
            if self.at_op("(") && self.adjacent() {
                if matches!(
                    e.kind,
                    ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Float32(_)
                ) {
                    break;
                }
                e = self.parse_call(e);
            } else if self.at_op("[") && self.adjacent() {
                if matches!(
                    e.kind,
                    ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Float32(_)
                ) {
                    break;
                }
                e = self.parse_index(e);
            } else if self.at_op("{") && self.adjacent() {
                self.bump();
                let params = self.with_mode(Mode::Paren, |p| {
                    let mut params = Vec::new();
                    while !p.at_op("}") && !p.at_eof() {
                        params.push(p.parse_expr_no_assign());
                        if !p.eat_op(",") {
                            break;
                        }
                    }
                    p.expect_op("}", "to close `{`");
                    params
                });
                let span = e.span.to(self.prev_span());
                e = Expr::new(
                    ExprKind::Curly {
                        base: Box::new(e),
                        params,
                    },
                    span,
                );
            } else if self.at_op(".") && self.adjacent() {
                self.bump();
                if let Tok::Macro(name) = *self.peek() {
                    // A macro of a module: `Threads.@threads`.
                    let sp = self.peek_span();
                    if !e.ident().is_some_and(is_module) {
                        self.error(e.span, "not supported yet: macros of modules other than Base, Threads, LinearAlgebra, Random, Statistics and Math");
                    }
                    return self.parse_macro(name, e.span.to(sp));
                }
                if self.at_op("(") {
                    // Broadcast call `f.(x)`.
                    let call = self.parse_call(e);
                    if let ExprKind::Call {
                        func, args, kwargs, ..
                    } = call.kind
                    {
                        e = Expr::new(ExprKind::DotCall { func, args, kwargs }, call.span);
                    } else {
                        e = call;
                    }
                } else if let Some((name, sp)) = self.quoted_operator() {
                    // `Base.:+`: the function named by an operator.
                    let span = e.span.to(sp);
                    e = Expr::new(
                        ExprKind::Field {
                            obj: Box::new(e),
                            name,
                        },
                        span,
                    );
                } else {
                    match self.ident_sym("a field name after `.`") {
                        Some((name, sp)) => {
                            let span = e.span.to(sp);
                            e = Expr::new(
                                ExprKind::Field {
                                    obj: Box::new(e),
                                    name,
                                },
                                span,
                            );
                        }
                        None => return Expr::new(ExprKind::Error, e.span),
                    }
                }
            } else if self.at_op("'") && self.adjacent() {
                let sp = self.bump().span;
                let span = e.span.to(sp);
                e = library_call("adjoint", vec![e], vec![], sp, span);
            } else if self.at_op("...") {
                let sp = self.bump().span;
                let span = e.span.to(sp);
                e = Expr::new(ExprKind::Splat(Box::new(e)), span);
            } else {
                break;
            }
        }
        e
    }

    pub(super) fn parse_call(&mut self, func: Expr) -> Expr {
        self.bump(); // (
        let (args, kwargs) = self.with_mode(Mode::Paren, |p| {
            let mut args = Vec::new();
            let mut kwargs = Vec::new();
            let mut in_kw = false;
            loop {
                if p.at_op(")") || p.at_eof() {
                    break;
                }
                if p.eat_op(";") {
                    in_kw = true;
                    continue;
                }
                let a = p.parse_expr();
                // `k::T` (in a definition's signature): the name and the type.
                let typed_name = |e: &Expr| match &e.kind {
                    ExprKind::TypeAssert { expr, ty } => {
                        expr.ident().map(|n| (n, Some((**ty).clone())))
                    }
                    _ => e.ident().map(|n| (n, None)),
                };
                match a.kind {
                    ExprKind::Assign { lhs, rhs } if typed_name(&lhs).is_some() => {
                        let (name, ty) = typed_name(&lhs).unwrap_or_else(|| unreachable!());
                        kwargs.push(KwArg {
                            name,
                            value: *rhs,
                            ty,
                            bare: false,
                            after_semicolon: in_kw,
                            splat: false,
                            span: a.span,
                        });
                    }
                    _ if in_kw => {
                        if let Some((name, ty)) = typed_name(&a) {
                            // `f(; x)` is `f(; x = x)`.
                            kwargs.push(KwArg {
                                name,
                                value: Expr::new(ExprKind::Ident(name), a.span),
                                ty,
                                bare: true,
                                after_semicolon: true,
                                splat: false,
                                span: a.span,
                            });
                        } else if let ExprKind::Splat(inner) = a.kind {
                            kwargs.push(KwArg {
                                name: inner.ident().unwrap_or_else(|| sym("...")),
                                value: *inner,
                                ty: None,
                                bare: false,
                                after_semicolon: true,
                                splat: true,
                                span: a.span,
                            });
                        } else {
                            p.error(a.span, "expected a keyword argument `name = value`");
                        }
                    }
                    _ => {
                        // A generator as the only argument: `sum(x^2 for x in v)`.
                        if p.at_kw(Kw::For) {
                            let g = p.parse_comprehension_tail(a, true);
                            args.push(g);
                            continue;
                        }
                        args.push(a)
                    }
                }
                if !p.eat_op(",") {
                    if p.at_op(";") {
                        continue;
                    }
                    break;
                }
            }
            p.expect_op(")", "to close the argument list");
            (args, kwargs)
        });
        let mut span = func.span.to(self.prev_span());
        let do_block = if self.at_kw(Kw::Do) && self.mode() != Mode::Bracket {
            let do_span = self.bump().span;
            let mut params = Vec::new();
            let mut prologue = Vec::new();
            // Parameters up to the end of the line.
            while !matches!(self.peek(), Tok::Newline | Tok::Op(";") | Tok::Eof) {
                let e = self.parse_expr_no_assign();
                if let Some(param) = self.expr_to_param(e, &mut prologue) {
                    params.push(param);
                }
                if !self.eat_op(",") {
                    break;
                }
            }
            let body = Self::with_prologue(prologue, self.parse_block(&[Kw::End]));
            self.expect_end("do", do_span);
            let bspan = do_span.to(self.prev_span());
            span = span.to(bspan);
            Some(Box::new(Lambda {
                params,
                body: Expr::new(ExprKind::Block(body), bspan),
                span: bspan,
                local: None,
                try_block: false,
                where_vars: vec![],
                ret_type: None,
                kwparams: vec![],
            }))
        } else {
            None
        };
        Expr::new(
            ExprKind::Call {
                func: Box::new(func),
                args,
                kwargs,
                do_block,
            },
            span,
        )
    }

    pub(super) fn parse_index(&mut self, obj: Expr) -> Expr {
        let open = self.bump().span; // [
                                     // `T[a b; c d]` is a typed matrix literal; `T[a, b]` and `x[i, j]` are index forms.
        let lit = self.parse_bracket_body(open, true);
        let span = obj.span.to(self.prev_span());
        match lit {
            BracketBody::List(indices) => Expr::new(
                ExprKind::Index {
                    obj: Box::new(obj),
                    indices,
                },
                span,
            ),
            BracketBody::Rows(rows) => Expr::new(ExprKind::TypedMatrix(Box::new(obj), rows), span),
            // `T[f(x) for x in v]`, `T[a;; b]`: the comprehension or concatenation, its
            // elements converted to `T` (the prelude's `_typed_collect`).
            BracketBody::Comprehension(e) | BracketBody::Concat(e) => {
                let at = obj.span;
                library_call("_typed_collect", vec![obj, e], vec![], at, span)
            }
        }
    }

    pub(super) fn parse_primary(&mut self) -> Expr {
        let t = self.peek_token().clone();
        let sp = t.span;
        match t.tok {
            Tok::Int(i) => {
                self.bump();
                Expr::new(ExprKind::Int(i), sp)
            }
            Tok::Float(f) => {
                self.bump();
                Expr::new(ExprKind::Float(f), sp)
            }
            Tok::Float32(f) => {
                self.bump();
                Expr::new(ExprKind::Float32(f), sp)
            }
            // An unsigned literal is its type built from the bits (`Core.new(UInt8, 255)`).
            Tok::UInt(ty, v) => {
                self.bump();
                let new = Expr::new(
                    ExprKind::Field {
                        obj: Box::new(Expr::new(ExprKind::Ident(sym("Core")), sp)),
                        name: sym("new"),
                    },
                    sp,
                );
                Expr::new(
                    ExprKind::Call {
                        func: Box::new(new),
                        args: vec![
                            Expr::new(ExprKind::Ident(sym(ty)), sp),
                            Expr::new(ExprKind::Int(v as i64), sp),
                        ],
                        kwargs: vec![],
                        do_block: None,
                    },
                    sp,
                )
            }
            // A character is a `Char` built from its code point.
            Tok::Char(c) => {
                self.bump();
                let func = Expr::new(ExprKind::Ident(sym("Char")), sp);
                Expr::new(
                    ExprKind::Call {
                        func: Box::new(func),
                        args: vec![Expr::new(ExprKind::Int(c as i64), sp)],
                        kwargs: vec![],
                        do_block: None,
                    },
                    sp,
                )
            }
            Tok::Str(parts) => {
                self.bump();
                self.string_expr(parts, sp)
            }
            Tok::Ident(s) => {
                self.bump();
                Expr::new(ExprKind::Ident(s), sp)
            }
            Tok::Keyword(Kw::True) => {
                self.bump();
                Expr::new(ExprKind::Bool(true), sp)
            }
            Tok::Keyword(Kw::False) => {
                self.bump();
                Expr::new(ExprKind::Bool(false), sp)
            }
            Tok::Keyword(Kw::Nothing) => {
                self.bump();
                Expr::new(ExprKind::Nothing, sp)
            }
            Tok::Keyword(Kw::End) if self.in_index > 0 => {
                self.bump();
                Expr::new(ExprKind::End, sp)
            }
            Tok::Keyword(Kw::Begin) if self.in_index > 0 => {
                self.bump();
                Expr::new(ExprKind::Begin, sp)
            }
            // A colon glued to a name is a quoted symbol there too (`t[:name]`).
            Tok::Op(":") if self.in_index > 0 && !self.quoted_name_follows() => {
                self.bump();
                Expr::new(ExprKind::Colon, sp)
            }
            Tok::Op("(") => self.parse_paren(),
            Tok::Op("[") => {
                self.bump();
                match self.parse_bracket_body(sp, false) {
                    BracketBody::List(elems) => {
                        Expr::new(ExprKind::Vect(elems), sp.to(self.prev_span()))
                    }
                    BracketBody::Rows(rows) => {
                        Expr::new(ExprKind::Matrix(rows), sp.to(self.prev_span()))
                    }
                    BracketBody::Comprehension(mut c) => {
                        c.span = sp.to(self.prev_span());
                        c
                    }
                    BracketBody::Concat(e) => e,
                }
            }
            Tok::Op(":") => {
                self.bump();
                if let Tok::Ident(name) = self.peek() {
                    let name = *name;
                    self.bump();
                    return Expr::new(ExprKind::QuoteSym(name), sp.to(self.prev_span()));
                }
                if let Tok::Op("(") = self.peek() {
                    self.error(sp, "quoted expressions (`:(...)`) are not supported yet");
                }
                Expr::new(ExprKind::Ident(sym(":")), sp)
            }
            Tok::Macro(name) => self.parse_macro(name, sp),
            Tok::Keyword(Kw::If) => self.parse_if(),
            Tok::Keyword(Kw::Try) => self.parse_try(),
            Tok::Keyword(Kw::While) => {
                self.bump();
                let cond = self.with_mode(Mode::Statement, |p| p.parse_expr_no_assign());
                let body = self.parse_block(&[Kw::End]);
                self.expect_end("while", sp);
                Expr::new(
                    ExprKind::While {
                        cond: Box::new(cond),
                        body,
                    },
                    sp.to(self.prev_span()),
                )
            }
            Tok::Keyword(Kw::For) => self.parse_for(),
            Tok::Keyword(Kw::Begin) => {
                self.bump();
                let body = self.parse_block(&[Kw::End]);
                self.expect_end("begin", sp);
                Expr::new(ExprKind::Block(body), sp.to(self.prev_span()))
            }
            Tok::Keyword(Kw::Let) => {
                self.bump();
                let mut bindings = Vec::new();
                self.with_mode(Mode::Statement, |p| {
                    while !matches!(p.peek(), Tok::Newline | Tok::Op(";") | Tok::Eof) {
                        bindings.push(p.parse_expr());
                        if !p.eat_op(",") {
                            break;
                        }
                    }
                });
                let body = self.parse_block(&[Kw::End]);
                self.expect_end("let", sp);
                Expr::new(ExprKind::Let { bindings, body }, sp.to(self.prev_span()))
            }
            Tok::Keyword(Kw::Function) => self.parse_function(),
            Tok::Keyword(Kw::Return) => {
                self.bump();
                let value = if matches!(
                    self.peek(),
                    Tok::Newline
                        | Tok::Eof
                        | Tok::Op(";")
                        | Tok::Op(")")
                        | Tok::Keyword(Kw::End | Kw::Else | Kw::Elseif)
                ) {
                    None
                } else {
                    Some(Box::new(
                        self.with_mode(Mode::Statement, |p| p.parse_expr_stmt()),
                    ))
                };
                let span = sp.to(self.prev_span());
                Expr::new(ExprKind::Return(value), span)
            }
            Tok::Keyword(Kw::Break) => {
                self.bump();
                Expr::new(ExprKind::Break, sp)
            }
            Tok::Keyword(Kw::Continue) => {
                self.bump();
                Expr::new(ExprKind::Continue, sp)
            }
            Tok::Keyword(Kw::Global) if self.peek_nth(1) == &Tok::Keyword(Kw::Const) => {
                // `global const x = 1` is `const x = 1`.
                self.bump();
                let c = self.parse_primary();
                let span = sp.to(c.span);
                Expr::new(c.kind, span)
            }
            Tok::Keyword(kw @ (Kw::Local | Kw::Global)) => {
                self.bump();
                let mut decls = Vec::new();
                loop {
                    decls.push(self.parse_expr());
                    if !self.eat_op(",") {
                        break;
                    }
                }
                let span = sp.to(self.prev_span());
                if kw == Kw::Local {
                    Expr::new(ExprKind::Local(decls), span)
                } else {
                    Expr::new(ExprKind::Global(decls), span)
                }
            }
            Tok::Keyword(Kw::Const) => {
                self.bump();
                // `const global x = 1` is `const x = 1`.
                if self.peek() == &Tok::Keyword(Kw::Global) {
                    self.bump();
                }
                let e = self.parse_expr_stmt();
                let span = sp.to(e.span);
                // `const local x = 1` is left to lowering, which refuses a local constant.
                if !matches!(e.kind, ExprKind::Assign { .. } | ExprKind::Local(_)) {
                    self.error(span, "expected assignment after `const`");
                }
                Expr::new(ExprKind::Const(Box::new(e)), span)
            }
            Tok::Op("::") => {
                // `::T` in a parameter list (an unnamed argument).
                self.bump();
                let ty = self.parse_postfix();
                let span = sp.to(ty.span);
                Expr::new(
                    ExprKind::TypeAssert {
                        expr: Box::new(Expr::new(ExprKind::Ident(sym("_")), sp)),
                        ty: Box::new(ty),
                    },
                    span,
                )
            }
            // `(<:)` and `(>:)`: the subtype relations as functions.
            Tok::Op(o @ ("<:" | ">:"))
                if matches!(self.peek_nth(1), Tok::Op(")") | Tok::Op(",")) =>
            {
                self.bump();
                Expr::new(ExprKind::Ident(sym(o)), sp)
            }
            Tok::Op("<:") if self.mode() == Mode::Paren => {
                self.bump();
                let inner = self.parse_unary();
                let span = sp.to(inner.span);
                Expr::new(ExprKind::SubtypeBound(Box::new(inner)), span)
            }
            // An operator used as a value, e.g. `reduce(+, x)` or `(+)`.
            Tok::Op(
                o @ ("+" | "-" | "*" | "/" | "^" | "==" | "<" | ">" | "<=" | ">=" | "÷" | "%" | "|"
                | "&" | "⊻" | "\\" | "!=" | "≤" | "≥" | "≠"),
            ) if matches!(self.peek_nth(1), Tok::Op(")") | Tok::Op(",")) => {
                self.bump();
                Expr::new(ExprKind::Ident(sym(canonical_op(o))), sp)
            }
            Tok::Error(_) => {
                self.bump();
                Expr::new(ExprKind::Error, sp)
            }
            other => {
                let d = Self::describe(&other);
                self.error(sp, format!("expected an expression, found {d}"));
                if !matches!(
                    other,
                    Tok::Newline
                        | Tok::Eof
                        | Tok::Keyword(Kw::End)
                        | Tok::Op(")")
                        | Tok::Op("]")
                        | Tok::Op("}")
                ) {
                    self.bump();
                }
                Expr::new(ExprKind::Error, sp)
            }
        }
    }

    pub(super) fn string_expr(&mut self, parts: Vec<StrPart>, sp: Span) -> Expr {
        let mut segs = Vec::new();
        for part in parts {
            match part {
                StrPart::Lit(s) => segs.push(StrSeg::Lit(s)),
                StrPart::Ident(name, isp) => {
                    segs.push(StrSeg::Expr(Expr::new(ExprKind::Ident(name), isp)))
                }
                StrPart::Expr(isp) => {
                    let text = self
                        .full_src
                        .get(isp.lo as usize..isp.hi as usize)
                        .unwrap_or("");
                    let mut sub = Parser::new(text, self.file, isp.lo as usize, self.full_src);
                    sub.modes = vec![Mode::Paren];
                    let e = sub.parse_expr();
                    if !sub.at_eof() {
                        let s = sub.peek_span();
                        sub.error(s, "unexpected input in string interpolation");
                    }
                    self.lex_diags.extend(sub.lex_diags);
                    self.diags.extend(sub.diags);
                    segs.push(StrSeg::Expr(e));
                }
            }
        }
        Expr::new(ExprKind::Str(segs), sp)
    }

    pub(super) fn parse_paren(&mut self) -> Expr {
        let open = self.bump().span;
        let e = self.with_mode(Mode::Paren, |p| {
            if p.eat_op(")") {
                return Expr::new(ExprKind::Tuple(vec![]), open.to(p.prev_span()));
            }
            // `(; a = 1)` named tuple; `(; a, x.b)` takes names from variables and fields.
            if p.at_op(";") {
                p.bump();
                let mut fields = Vec::new();
                let mut names_only = true;
                while !p.at_op(")") && !p.at_eof() {
                    let e = p.parse_expr();
                    names_only &= matches!(e.kind, ExprKind::Ident(_));
                    p.push_named_field(e, &mut fields);
                    if !p.eat_op(",") {
                        break;
                    }
                }
                p.expect_op(")", "to close `(`");
                let span = open.to(p.prev_span());
                if names_only && !fields.is_empty() {
                    p.property_lists.push(span);
                }
                return Expr::new(ExprKind::NamedTuple(fields), span);
            }
            let first = p.parse_expr();
            if p.at_kw(Kw::For) {
                let mut g = p.parse_comprehension_tail(first, true);
                p.expect_op(")", "to close `(`");
                g.span = open.to(p.prev_span());
                return g;
            }
            if p.at_op(",") {
                let mut elems = vec![first];
                while p.eat_op(",") {
                    if p.at_op(")") {
                        break;
                    }
                    elems.push(p.parse_expr());
                }
                p.expect_op(")", "to close the tuple");
                let span = open.to(p.prev_span());
                let named = elems.iter().all(
                    |e| matches!(&e.kind, ExprKind::Assign { lhs, .. } if lhs.ident().is_some()),
                );
                if named {
                    let mut fields = Vec::new();
                    for e in elems {
                        p.push_named_field(e, &mut fields);
                    }
                    return Expr::new(ExprKind::NamedTuple(fields), span);
                }
                return Expr::new(ExprKind::Tuple(elems), span);
            }
            if p.at_op(";") {
                // `(a; b)` is a block.
                let mut stmts = vec![first];
                while p.eat_op(";") {
                    if p.at_op(")") {
                        break;
                    }
                    stmts.push(p.parse_expr());
                }
                p.expect_op(")", "to close `(`");
                return Expr::new(ExprKind::Block(stmts), open.to(p.prev_span()));
            }
            p.expect_op(")", "to close `(`");
            // `(x)` is `x`; `(a = 1)` alone is an assignment, as in Julia.
            first
        });
        e
    }

    pub(super) fn push_named_field(&mut self, e: Expr, fields: &mut Vec<(Symbol, Expr)>) {
        match e.kind {
            ExprKind::Assign { lhs, rhs } if lhs.ident().is_some() => {
                fields.push((lhs.ident().unwrap_or_else(|| sym("_")), *rhs));
            }
            // `(; a)` is `(; a = a)`, `(; x.b)` is `(; b = x.b)`.
            ExprKind::Ident(name) => fields.push((name, e)),
            ExprKind::Field { name, .. } => fields.push((name, e)),
            _ => self.error(e.span, "expected `name = value` in a named tuple"),
        }
    }

    pub(super) fn parse_comprehension_tail(&mut self, body: Expr, generator: bool) -> Expr {
        let start = body.span;
        self.bump(); // for
        let mut iters = Vec::new();
        loop {
            let (lhs, it) = self.parse_iteration_spec();
            iters.push((lhs, it));
            if !self.eat_op(",") {
                break;
            }
        }
        let cond = if matches!(self.peek(), Tok::Keyword(Kw::If)) {
            self.bump();
            Some(Box::new(self.parse_expr_no_assign()))
        } else {
            None
        };
        if self.at_kw(Kw::For) {
            // `[e for x in a for y in b(x)]`: for each `x`, the elements of the inner
            // comprehension, one after another (Julia's `Iterators.flatten`), collected by
            // `_flatten_collect` from the vector of the inner comprehensions.
            let inner = self.parse_comprehension_tail(body, false);
            let span = start.to(self.prev_span());
            let outer = Expr::new(
                ExprKind::Comprehension {
                    body: Box::new(inner),
                    iters,
                    cond,
                    generator: false,
                },
                span,
            );
            return library_call("_flatten_collect", vec![outer], vec![], span, span);
        }
        Expr::new(
            ExprKind::Comprehension {
                body: Box::new(body),
                iters,
                cond,
                generator,
            },
            start.to(self.prev_span()),
        )
    }

    pub(super) fn parse_bracket_body(&mut self, open: Span, is_index: bool) -> BracketBody {
        if is_index {
            self.in_index += 1;
        }
        let r = self.with_mode(Mode::Bracket, |p| {
            let mut rows: Vec<Vec<Expr>> = vec![vec![]];
            // Parts closed by `;;` (or more semicolons: the dimension they join along).
            let mut parts: Vec<(Vec<Vec<Expr>>, usize)> = vec![];
            let mut saw_comma = false;
            let mut saw_space_or_semi = false;
            p.skip_newlines();
            loop {
                if p.at_op("]") || p.at_eof() {
                    break;
                }
                let before = p.pos;
                let e = if saw_comma || is_index {
                    // Commas: newlines are plain whitespace.
                    p.modes.push(Mode::Paren);
                    let e = p.parse_expr();
                    p.modes.pop();
                    e
                } else {
                    p.parse_expr()
                };
                if p.at_kw(Kw::For) && rows.len() == 1 && rows[0].is_empty() {
                    p.modes.push(Mode::Paren);
                    let c = p.parse_comprehension_tail(e, false);
                    p.skip_newlines();
                    p.expect_op("]", "to close the comprehension");
                    p.modes.pop();
                    return BracketBody::Comprehension(c);
                }
                if let Some(row) = rows.last_mut() {
                    row.push(e);
                }
                if p.pos == before {
                    // Nothing here is an expression (`[ )`): skip to the closing bracket.
                    let sp = p.peek_span();
                    let d = Self::describe(p.peek());
                    p.error(sp, format!("unexpected {d} in brackets"));
                    p.recover_in_brackets();
                    break;
                }
                match p.toks[p.pos].tok {
                    Tok::Op(",") => {
                        p.pos += 1;
                        saw_comma = true;
                        p.skip_newlines();
                    }
                    Tok::Op(";") | Tok::Newline => {
                        // Semicolons written together: `;;` joins along dimension 2, `;;;`
                        // along 3, ... (one, or a newline, separates rows).
                        let mut run = 0;
                        while matches!(p.toks[p.pos + run].tok, Tok::Op(";"))
                            && (run == 0 || !p.toks[p.pos + run].space_before)
                        {
                            run += 1;
                        }
                        p.skip_terminators();
                        saw_space_or_semi = true;
                        if run >= 2 {
                            parts.push((std::mem::replace(&mut rows, vec![vec![]]), run));
                        } else {
                            rows.push(vec![]);
                        }
                        if p.at_op("]") {
                            break;
                        }
                    }
                    Tok::Op("]") => {}
                    _ if p.toks[p.pos].space_before => {
                        saw_space_or_semi = true;
                    }
                    _ => {
                        let sp = p.peek_span();
                        let d = Self::describe(p.peek());
                        p.error(sp, format!("unexpected {d} in brackets"));
                        p.recover_in_brackets();
                        break;
                    }
                }
            }
            p.skip_newlines();
            if !p.eat_op("]") {
                let sp = p.peek_span();
                p.error(sp, "expected `]` to close `[`");
            }
            if saw_comma && saw_space_or_semi && !is_index {
                let sp = open.to(p.prev_span());
                p.error(sp, "cannot mix `,` with spaces or `;` in an array literal");
            }
            if !parts.is_empty() {
                parts.push((rows, 0));
                let parts: Vec<(Expr, usize)> = parts
                    .into_iter()
                    .filter_map(|(mut rows, level)| {
                        rows.retain(|r| !r.is_empty());
                        let sp = rows.first()?.first()?.span;
                        Some((Expr::new(ExprKind::Matrix(rows), sp), level))
                    })
                    .collect();
                let sp = open.to(p.prev_span());
                BracketBody::Concat(concat_parts(&parts, sp))
            } else if saw_space_or_semi {
                rows.retain(|r| !r.is_empty());
                BracketBody::Rows(rows)
            } else {
                BracketBody::List(rows.into_iter().flatten().collect())
            }
        });
        if is_index {
            self.in_index -= 1;
        }
        r
    }

    pub(super) fn recover_in_brackets(&mut self) {
        let mut depth = 0;
        loop {
            match &self.toks[self.pos].tok {
                Tok::Eof => break,
                Tok::Op("[") | Tok::Op("(") => depth += 1,
                Tok::Op("]") if depth == 0 => break,
                Tok::Op("]") | Tok::Op(")") => depth -= 1,
                _ => {}
            }
            self.pos += 1;
        }
    }

    /// A macro argument followed by a comma at statement level takes the comma, as Julia
    /// parses it: `@views a, b = X[i, :], y[i]` has one argument, an assignment of tuples, and
    /// `@show a, b` one tuple.
    fn macro_tuple_arg(&mut self, first: Expr) -> Expr {
        let (lhs, rhs_first) = match first.kind {
            ExprKind::Assign { lhs, rhs } => (None, Some((*lhs, *rhs))),
            _ => (Some(first), None),
        };
        if let Some((lhs, rhs)) = rhs_first {
            // `a = x, y`: the right side is the tuple.
            let rhs = self.comma_tuple_tail(rhs);
            let span = lhs.span.to(rhs.span);
            return Expr::new(
                ExprKind::Assign {
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span,
            );
        }
        let lhs = self
            .comma_tuple_tail(lhs.unwrap_or_else(|| Expr::new(ExprKind::Error, self.peek_span())));
        if !self.at_op("=") {
            return lhs;
        }
        self.bump();
        let first = self.parse_expr();
        let rhs = self.comma_tuple_tail(first);
        let span = lhs.span.to(rhs.span);
        Expr::new(
            ExprKind::Assign {
                lhs: Box::new(lhs),
                rhs: Box::new(rhs),
            },
            span,
        )
    }

    /// `first, b, c` up to the end of the line, an `=` or a closing bracket: a tuple (`first`
    /// alone when no comma follows it).
    fn comma_tuple_tail(&mut self, first: Expr) -> Expr {
        if !self.at_op(",") {
            return first;
        }
        let mut elems = vec![first];
        while self.eat_op(",") {
            if matches!(
                self.peek(),
                Tok::Newline | Tok::Eof | Tok::Op("=" | ";" | ")" | "]" | "}")
            ) {
                break;
            }
            elems.push(self.parse_expr_no_assign());
        }
        let span = elems[0].span.to(self.prev_span());
        Expr::new(ExprKind::Tuple(elems), span)
    }

    pub(super) fn parse_macro(&mut self, name: Symbol, sp: Span) -> Expr {
        self.bump();
        if name.as_str() == "kwdef" {
            return self.parse_kwdef_struct(sp);
        }
        let mut args = Vec::new();
        if self.at_op("(") && self.adjacent() {
            self.bump();
            self.with_mode(Mode::Paren, |p| {
                while !p.at_op(")") && !p.at_eof() {
                    args.push(p.parse_expr());
                    if !p.eat_op(",") {
                        break;
                    }
                }
                p.expect_op(")", "to close the macro arguments");
            });
        } else {
            // Space-separated arguments up to the end of the line (inside brackets or
            // parentheses, up to a comprehension's or generator's `for`).
            let nested = !matches!(self.modes.last(), None | Some(Mode::Statement));
            self.modes.push(Mode::Bracket);
            loop {
                match self.toks[self.pos].tok {
                    Tok::Newline | Tok::Eof | Tok::Op(";") | Tok::Op(")") | Tok::Op("]") => break,
                    Tok::Keyword(Kw::End) => break,
                    // `[@spawn f(x) for x in xs]`: the comprehension's `for`.
                    Tok::Keyword(Kw::For) if nested && !args.is_empty() => break,
                    _ => {}
                }
                let before = self.pos;
                let e = if matches!(
                    self.peek(),
                    Tok::Keyword(Kw::For | Kw::While | Kw::If | Kw::Begin | Kw::Let | Kw::Function)
                ) {
                    self.parse_primary()
                } else {
                    self.parse_expr()
                };
                let e = if !nested && self.at_op(",") {
                    self.macro_tuple_arg(e)
                } else {
                    e
                };
                args.push(e);
                if self.pos == before {
                    break;
                }
            }
            self.modes.pop();
        }
        let span = sp.to(self.prev_span());
        if name.as_str() == "threads" {
            return self.threads_loop(args, span);
        }
        Expr::new(ExprKind::Macro { name, args }, span)
    }
}

/// The concatenation of parts written between runs of semicolons (each part with the length
/// of the run after it; 0 after the last): split at the longest run, each piece built the same
/// way, joined by `hcat` (`;;`) or `cat(...; dims = k)`.
fn concat_parts(parts: &[(Expr, usize)], sp: Span) -> Expr {
    // (A run after the last part, as in `[a; b;;]`, still says the dimension.)
    let top = parts.iter().map(|(_, l)| *l).max().unwrap_or(0);
    let mut pieces = vec![];
    let mut start = 0;
    for (k, (_, level)) in parts.iter().enumerate() {
        if *level == top || k + 1 == parts.len() {
            let group = &parts[start..=k];
            pieces.push(if group.len() == 1 {
                group[0].0.clone()
            } else {
                concat_parts(&strip_last_level(group), sp)
            });
            start = k + 1;
        }
    }
    let (name, kwargs) = if top <= 2 {
        ("hcat", vec![])
    } else {
        (
            "cat",
            vec![KwArg {
                name: sym("dims"),
                value: Expr::new(ExprKind::Int(top as i64), sp),
                ty: None,
                bare: false,
                after_semicolon: true,
                splat: false,
                span: sp,
            }],
        )
    };
    library_call(name, pieces, kwargs, sp, sp)
}

/// A group of parts between two runs of the longest length: its last part ends the group.
fn strip_last_level(group: &[(Expr, usize)]) -> Vec<(Expr, usize)> {
    let mut g = group.to_vec();
    if let Some(last) = g.last_mut() {
        last.1 = 0;
    }
    g
}
