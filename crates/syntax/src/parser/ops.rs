//! Operator expressions, one method per precedence level from `where` and `=>` down to `^`
//! and `::`, with Julia's rules for unary operators, juxtaposition and ranges.

use super::*;

/// The set relations, which Julia parses as comparisons (`a ⊆ b`).
const SET_RELATIONS: &[&str] = &["⊆", "⊇", "⊈", "⊉", "⊊", "⊋"];

pub(super) fn is_comparison_op(op: &str) -> bool {
    SET_RELATIONS.contains(&op)
        || matches!(
            op,
            "==" | "!="
                | "<"
                | "<="
                | ">"
                | ">="
                | "==="
                | "!=="
                | "≤"
                | "≥"
                | "≠"
                | "<:"
                | ">:"
                | "∈"
                | "∉"
                | "≈"
                | ".=="
                | ".!="
                | ".<"
                | ".<="
                | ".>"
                | ".>="
                | ".≈"
                | ".≤"
                | ".≥"
                | ".≠"
                | ".∈"
                | ".∉"
        )
}

/// The library function a prefix radical names.
pub(super) fn radical_function(op: &str) -> Option<&'static str> {
    match op {
        "√" => Some("sqrt"),
        "∛" => Some("cbrt"),
        "∜" => Some("fourthroot"),
        _ => None,
    }
}

pub(super) fn is_operator_name(op: &str) -> bool {
    SET_RELATIONS.contains(&op)
        || matches!(
            op,
            "+" | "-"
                | "*"
                | "/"
                | "^"
                | "\\"
                | "÷"
                | "%"
                | "=="
                | "!="
                | "<"
                | "<="
                | ">"
                | ">="
                | "==="
                | "!=="
                | "!"
                | "~"
                | "&"
                | "|"
                | ":"
                | "≤"
                | "≥"
                | "≠"
                | "<:"
                | ">:"
                | "∈"
                | "∉"
                | "≈"
                | "⋅"
                | "×"
                | "⊻"
                | "∪"
                | "∩"
                | "<<"
                | ">>"
                | ">>>"
                | "=>"
        )
}

impl<'a> Parser<'a> {
    /// Full expression including assignment, but no bare comma tuples.
    pub(super) fn parse_expr(&mut self) -> Expr {
        let lhs = self.parse_expr_no_assign();
        self.parse_assign_tail(lhs, false)
    }

    /// Everything above assignment: `->`, `where`, ternary and below.
    pub(super) fn parse_expr_no_assign(&mut self) -> Expr {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let sp = self.peek_span();
            self.error(sp, "expression is nested too deeply");
            self.depth -= 1;
            self.recover();
            return Expr::new(ExprKind::Error, sp);
        }
        let mut e = self.parse_pair();
        loop {
            if self.at_op("->") {
                self.bump();
                self.skip_newlines_in_stmt();
                let body = self.parse_expr();
                e = self.lambda_from(e, body);
            } else if self.at_kw(Kw::Where) {
                self.bump();
                let vars = self.parse_where_vars();
                let span = e.span.to(self.prev_span());
                e = Expr::new(
                    ExprKind::Where {
                        expr: Box::new(e),
                        vars,
                    },
                    span,
                );
            } else {
                break;
            }
        }
        self.depth -= 1;
        e
    }

    pub(super) fn parse_where_vars(&mut self) -> Vec<TypeVarDecl> {
        let mut vars = Vec::new();
        if self.at_op("{") {
            self.bump();
            self.with_mode(Mode::Paren, |p| {
                while !p.at_op("}") && !p.at_eof() {
                    if let Some(v) = p.parse_type_var() {
                        vars.push(v);
                    } else {
                        break;
                    }
                    if !p.eat_op(",") {
                        break;
                    }
                }
                p.expect_op("}", "to close `where {`");
            });
        } else if let Some(v) = self.parse_type_var() {
            vars.push(v);
        }
        vars
    }

    pub(super) fn parse_type_var(&mut self) -> Option<TypeVarDecl> {
        let (name, sp) = self.ident_sym("a type variable name")?;
        let upper = if self.eat_op("<:") {
            Some(self.parse_range())
        } else {
            None
        };
        Some(TypeVarDecl {
            name,
            upper,
            span: sp.to(self.prev_span()),
        })
    }

    pub(super) fn lambda_from(&mut self, params: Expr, body: Expr) -> Expr {
        let span = params.span.to(body.span);
        let plist = match params.kind {
            ExprKind::Tuple(elems) => elems,
            ExprKind::Block(ref b) if b.is_empty() => vec![],
            _ => vec![params],
        };
        let mut ps = Vec::new();
        let mut prologue = Vec::new();
        for p in plist {
            if let Some(param) = self.expr_to_param(p, &mut prologue) {
                ps.push(param);
            }
        }
        let body = if prologue.is_empty() {
            body
        } else {
            let sp = body.span;
            Expr::new(
                ExprKind::Block(Self::with_prologue(prologue, vec![body])),
                sp,
            )
        };
        Lambda::anonymous(ps, body, span)
    }

    pub(super) fn parse_pair(&mut self) -> Expr {
        let lhs = self.parse_ternary();
        if self.at_op("=>") {
            let op_span = self.bump().span;
            self.skip_newlines_in_stmt();
            let rhs = self.parse_pair();
            return self.binop("=>", op_span, lhs, rhs);
        }
        lhs
    }

    pub(super) fn parse_ternary(&mut self) -> Expr {
        let cond = self.parse_or();
        if self.at_op("?") {
            self.bump();
            self.skip_newlines_in_stmt();
            let saved = std::mem::replace(&mut self.ternary_then, true);
            let then = self.parse_ternary();
            self.ternary_then = saved;
            self.skip_newlines_in_stmt();
            if !self.expect_op(":", "in the ternary `cond ? a : b`") {
                return Expr::new(ExprKind::Error, cond.span);
            }
            self.skip_newlines_in_stmt();
            let else_ = self.parse_ternary();
            let span = cond.span.to(else_.span);
            return Expr::new(
                ExprKind::Ternary {
                    cond: Box::new(cond),
                    then: Box::new(then),
                    else_: Box::new(else_),
                },
                span,
            );
        }
        cond
    }

    pub(super) fn parse_or(&mut self) -> Expr {
        let lhs = self.parse_and();
        if self.at_op("||") {
            self.bump();
            self.skip_newlines_in_stmt();
            let rhs = self.parse_or();
            let span = lhs.span.to(rhs.span);
            return Expr::new(ExprKind::Or(Box::new(lhs), Box::new(rhs)), span);
        }
        lhs
    }

    pub(super) fn parse_and(&mut self) -> Expr {
        let lhs = self.parse_comparison();
        if self.at_op("&&") {
            self.bump();
            self.skip_newlines_in_stmt();
            let rhs = self.parse_and();
            let span = lhs.span.to(rhs.span);
            return Expr::new(ExprKind::And(Box::new(lhs), Box::new(rhs)), span);
        }
        lhs
    }

    /// The comparison operator at the cursor, if any (`in` and `isa` are words).
    pub(super) fn peek_comparison(&self) -> Option<&'static str> {
        match self.peek() {
            Tok::Op(o) if is_comparison_op(o) => {
                if self.space_sensitive_break() {
                    return None;
                }
                Some(canonical_op(o))
            }
            Tok::Ident(s) if s.as_str() == "in" => Some("in"),
            Tok::Ident(s) if s.as_str() == "isa" => Some("isa"),
            _ => None,
        }
    }

    pub(super) fn parse_comparison(&mut self) -> Expr {
        let first = self.parse_pipe();
        let mut rest = Vec::new();
        while let Some(op) = self.peek_comparison() {
            let sp = self.bump().span;
            self.skip_newlines_in_stmt();
            let rhs = self.parse_pipe();
            rest.push((sym(op), sp, rhs));
        }
        match rest.len() {
            0 => first,
            1 => {
                let (op, sp, rhs) = rest.pop().unwrap_or_else(|| unreachable!());
                self.binop(op.as_str(), sp, first, rhs)
            }
            _ => {
                let span = first.span.to(rest.last().map_or(first.span, |r| r.2.span));
                Expr::new(
                    ExprKind::Comparison {
                        first: Box::new(first),
                        rest,
                    },
                    span,
                )
            }
        }
    }

    pub(super) fn binop(&mut self, op: &str, op_span: Span, lhs: Expr, rhs: Expr) -> Expr {
        let span = lhs.span.to(rhs.span);
        Expr::new(
            ExprKind::Call {
                func: Box::new(Expr::new(ExprKind::Ident(sym(op)), op_span)),
                args: vec![lhs, rhs],
                kwargs: vec![],
                do_block: None,
            },
            span,
        )
    }

    pub(super) fn parse_pipe(&mut self) -> Expr {
        let mut lhs = self.parse_range();
        while self.at_op("|>") && !self.space_sensitive_break() {
            self.bump();
            self.skip_newlines_in_stmt();
            let rhs = self.parse_range();
            // `x |> f` is `f(x)`.
            let span = lhs.span.to(rhs.span);
            lhs = Expr::new(
                ExprKind::Call {
                    func: Box::new(rhs),
                    args: vec![lhs],
                    kwargs: vec![],
                    do_block: None,
                },
                span,
            );
        }
        lhs
    }

    /// In a `[a b]` literal, `a -b` ends the element `a`: an operator with a space before and
    /// none after starts a new element.
    pub(super) fn space_sensitive_break(&self) -> bool {
        if self.mode() != Mode::Bracket {
            return false;
        }
        let i = self.next_index();
        let t = &self.toks[i];
        let next = self.toks.get(i + 1);
        t.space_before && next.is_some_and(|n| !n.space_before)
    }

    pub(super) fn at_range_colon(&self) -> bool {
        if !self.at_op(":") {
            return false;
        }
        let t = self.peek_token();
        if self.ternary_then && t.space_before {
            return false;
        }
        if self.space_sensitive_break() {
            return false;
        }
        true
    }

    pub(super) fn parse_range(&mut self) -> Expr {
        let first = self.parse_plus();
        if !self.at_range_colon() {
            return first;
        }
        let sp = self.bump().span;
        self.skip_newlines_in_stmt();
        let second = self.parse_plus();
        if self.at_range_colon() {
            self.bump();
            self.skip_newlines_in_stmt();
            let third = self.parse_plus();
            let span = first.span.to(third.span);
            return Expr::new(
                ExprKind::Call {
                    func: Box::new(Expr::new(ExprKind::Ident(sym(":")), sp)),
                    args: vec![first, second, third],
                    kwargs: vec![],
                    do_block: None,
                },
                span,
            );
        }
        self.binop(":", sp, first, second)
    }

    pub(super) fn parse_plus(&mut self) -> Expr {
        let mut lhs = self.parse_times();
        while let Tok::Op(o @ ("+" | "-" | ".+" | ".-" | "|" | "⊻" | "∪")) = self.peek() {
            let op = *o;
            if self.space_sensitive_break() {
                break;
            }
            let sp = self.bump().span;
            self.skip_newlines_in_stmt();
            let rhs = self.parse_times();
            lhs = self.binop(op, sp, lhs, rhs);
        }
        lhs
    }

    pub(super) fn parse_times(&mut self) -> Expr {
        let mut lhs = self.parse_shift();
        while let Tok::Op(
            o @ ("*" | "/" | "//" | "÷" | "%" | "\\" | "&" | "⋅" | "×" | "∩" | ".*" | "./" | ".÷"
            | ".\\"),
        ) = self.peek()
        {
            let op = *o;
            if self.space_sensitive_break() {
                break;
            }
            let sp = self.bump().span;
            self.skip_newlines_in_stmt();
            let rhs = self.parse_shift();
            lhs = self.binop(op, sp, lhs, rhs);
        }
        lhs
    }

    /// Bit shifts `<<`, `>>`, `>>>`: tighter than `*`, looser than unary operators,
    /// left-associative.
    pub(super) fn parse_shift(&mut self) -> Expr {
        let mut lhs = self.parse_unary();
        while let Tok::Op(o @ ("<<" | ">>" | ">>>")) = self.peek() {
            let op = *o;
            if self.space_sensitive_break() {
                break;
            }
            let sp = self.bump().span;
            self.skip_newlines_in_stmt();
            let rhs = self.parse_unary();
            lhs = self.binop(op, sp, lhs, rhs);
        }
        lhs
    }

    pub(super) fn parse_unary(&mut self) -> Expr {
        // Every loop of the parser either consumes a token or parses an expression; one that
        // parses expressions at the same token forever (an error left it there) is broken
        // here by skipping the token.
        if self.pos == self.stall_pos {
            self.stalls += 1;
            if self.stalls > MAX_STALLS {
                let sp = self.peek_span();
                let d = Self::describe(self.peek());
                self.error(sp, format!("unexpected {d}"));
                if self.at_eof() {
                    return Expr::new(ExprKind::Error, sp);
                }
                self.bump();
                self.stalls = 0;
                return Expr::new(ExprKind::Error, sp);
            }
        } else {
            self.stall_pos = self.pos;
            self.stalls = 0;
        }
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let sp = self.peek_span();
            self.error(sp, "expression is nested too deeply");
            self.depth -= 1;
            self.recover();
            return Expr::new(ExprKind::Error, sp);
        }
        let e = self.parse_unary_inner();
        self.depth -= 1;
        e
    }

    /// An operator glued to `(` names the operator's function: `+(1, 2)`, `==(a, b)`. For an
    /// operator that is also unary (`-`, `+`, `!`), the parentheses are an argument list only
    /// when they hold a comma, a splat, a `;` or nothing: otherwise they group, and `^` binds
    /// tighter than the operator, as in Julia (`-(2.0)^2 == -4.0`, `-(a, b)^2 == (a - b)^2`).
    pub(super) fn operator_call_name(&mut self) -> Option<Expr> {
        let Tok::Op(o) = self.peek() else { return None };
        let o = *o;
        // `:(...)` is a quoted expression in Julia, not a call of `:`.
        if !is_operator_name(o) || o == ":" {
            return None;
        }
        let i = self.next_index();
        let next = self.toks.get(i + 1)?;
        if next.tok != Tok::Op("(") || next.space_before {
            return None;
        }
        if matches!(o, "-" | "+" | "!" | "~") && !self.paren_is_arglist(i + 1) {
            return None;
        }
        let sp = self.bump().span;
        Some(Expr::new(ExprKind::Ident(sym(canonical_op(o))), sp))
    }

    /// Whether the parenthesised group opening at token `open` is an argument list: it is
    /// empty or holds a comma, a `;` or a splat `...` at its own nesting level.
    pub(super) fn paren_is_arglist(&self, open: usize) -> bool {
        let mut depth = 0usize;
        let mut empty = true;
        for t in self.toks.iter().skip(open) {
            match &t.tok {
                Tok::Op("(" | "[" | "{") => depth += 1,
                Tok::Op(")" | "]" | "}") => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return empty;
                    }
                }
                Tok::Op("," | ";" | "...") if depth == 1 => return true,
                Tok::Eof => return true,
                _ => {}
            }
            if t.tok != Tok::Newline && !(depth == 1 && t.tok == Tok::Op("(")) {
                empty = false;
            }
        }
        true
    }

    pub(super) fn parse_unary_inner(&mut self) -> Expr {
        if let Some(f) = self.operator_call_name() {
            let e = self.postfix_tail(f);
            return self.parse_power_tail(e);
        }
        let op = match self.peek() {
            Tok::Op(o @ ("-" | "+" | "!" | "~" | ".-" | ".!")) => *o,
            Tok::Op("<:")
                if self.in_index == 0
                    && self.mode() == Mode::Paren
                    && !matches!(self.peek_nth(1), Tok::Op(")") | Tok::Op(",")) =>
            {
                // `{<:Real}`
                let sp = self.bump().span;
                let inner = self.parse_unary();
                let span = sp.to(inner.span);
                return Expr::new(ExprKind::SubtypeBound(Box::new(inner)), span);
            }
            _ => return self.parse_juxtapose(),
        };
        // `-` followed by `)`/`,` is the function itself, e.g. `map(-, x)` or `reduce(+, x)`.
        if matches!(self.peek_nth(1), Tok::Op(")") | Tok::Op(",")) {
            let sp = self.bump().span;
            return Expr::new(ExprKind::Ident(sym(op)), sp);
        }
        let sp = self.bump().span;
        // A negative numeric literal binds tighter than `^` only in the literal itself: Julia
        // parses `-2^2` as `-(2^2)`, so treat it like any operand.
        let operand = self.parse_unary();
        let span = sp.to(operand.span);
        if op == "-" {
            match operand.kind {
                ExprKind::Int(i) if operand.span.lo == sp.hi => {
                    return Expr::new(ExprKind::Int(i.wrapping_neg()), span)
                }
                ExprKind::Float(f) if operand.span.lo == sp.hi => {
                    return Expr::new(ExprKind::Float(-f), span)
                }
                ExprKind::Float32(f) if operand.span.lo == sp.hi => {
                    return Expr::new(ExprKind::Float32(-f), span)
                }
                _ => {}
            }
        }
        if op == "+" {
            if let ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Float32(_) = operand.kind {
                return Expr::new(operand.kind, span);
            }
        }
        Expr::new(
            ExprKind::Call {
                func: Box::new(Expr::new(ExprKind::Ident(sym(op)), sp)),
                args: vec![operand],
                kwargs: vec![],
                do_block: None,
            },
            span,
        )
    }

    /// Juxtaposition is multiplication, binding tighter than `*` and looser than `^`: a numeric
    /// literal glued to a name or `(` (`2x`, `3(x + 1)`, `2x^2 == 2 * x^2`), or any operand
    /// glued to a name (`(x + 1)y`, `x'y`, `(16x^2 - 24x + 5)exp(-x)`). An operand other than a
    /// literal glued to `(` is a call, as in Julia (`(x + 1)(x - 1)` calls `x + 1`).
    pub(super) fn parse_juxtapose(&mut self) -> Expr {
        let mut lhs = self.parse_radical_or_power();
        loop {
            let is_num = matches!(
                lhs.kind,
                ExprKind::Int(_) | ExprKind::Float(_) | ExprKind::Float32(_)
            );
            let is_str = matches!(lhs.kind, ExprKind::Str(_));
            let t = self.peek_token();
            let adjacent = !t.space_before && self.next_index() == self.pos;
            let glued = match t.tok {
                Tok::Ident(_) => !is_str,
                Tok::Op("(") => is_num,
                // `2√x`, `x√y`
                Tok::Op(o) => radical_function(o).is_some() && !is_str,
                _ => false,
            };
            if !(adjacent && glued) {
                return lhs;
            }
            let rhs = self.parse_radical_or_power();
            let op_span = Span::new(self.file, lhs.span.hi, lhs.span.hi);
            lhs = self.binop("*", op_span, lhs, rhs);
        }
    }

    /// A prefix radical (`√x`, `∛x`, `∜x`: Base's `sqrt`, `cbrt` and `fourthroot`) or a power.
    /// As in Julia, a radical takes the unary operators and the power after it (`√x^2` is
    /// `√(x^2)`, `√-x` is `√(-x)`) but not a juxtaposition (`√2x` is `(√2)x`); written alone
    /// (`map(√, v)`) it is the function, and glued to parentheses holding a comma it calls the
    /// function with those arguments.
    fn parse_radical_or_power(&mut self) -> Expr {
        let Tok::Op(o) = self.peek() else {
            return self.parse_power();
        };
        let Some(fname) = radical_function(o) else {
            return self.parse_power();
        };
        let sp = self.peek_span();
        let i = self.next_index();
        if matches!(
            self.peek_nth(1),
            Tok::Op(")" | "," | ";" | "]" | "}") | Tok::Newline | Tok::Eof
        ) {
            self.bump();
            return library_ref(sym(fname), sp);
        }
        if self
            .toks
            .get(i + 1)
            .is_some_and(|t| t.tok == Tok::Op("(") && !t.space_before)
            && self.paren_is_arglist(i + 1)
        {
            self.bump();
            let f = library_ref(sym(fname), sp);
            let e = self.postfix_tail(f);
            return self.parse_power_tail(e);
        }
        self.bump();
        let operand = self.parse_radical_operand();
        let span = sp.to(operand.span);
        library_call(fname, vec![operand], vec![], sp, span)
    }

    /// What a radical applies to: another radical, a unary operator applied to such an
    /// operand, or a power.
    fn parse_radical_operand(&mut self) -> Expr {
        match self.peek() {
            Tok::Op(o) if radical_function(o).is_some() => self.parse_radical_or_power(),
            Tok::Op(o @ ("-" | "+" | "!")) => {
                let op = *o;
                let sp = self.bump().span;
                let operand = self.parse_radical_operand();
                let span = sp.to(operand.span);
                match operand.kind {
                    ExprKind::Int(i) if op == "-" && operand.span.lo == sp.hi => {
                        Expr::new(ExprKind::Int(i.wrapping_neg()), span)
                    }
                    ExprKind::Float(f) if op == "-" && operand.span.lo == sp.hi => {
                        Expr::new(ExprKind::Float(-f), span)
                    }
                    _ => Expr::new(
                        ExprKind::Call {
                            func: Box::new(Expr::new(ExprKind::Ident(sym(op)), sp)),
                            args: vec![operand],
                            kwargs: vec![],
                            do_block: None,
                        },
                        span,
                    ),
                }
            }
            _ => self.parse_power(),
        }
    }

    pub(super) fn parse_power(&mut self) -> Expr {
        let base = self.parse_decl();
        self.parse_power_tail(base)
    }

    pub(super) fn parse_power_tail(&mut self, base: Expr) -> Expr {
        if let Tok::Op(op @ ("^" | ".^")) = self.peek() {
            let op = *op;
            if self.space_sensitive_break() {
                return base;
            }
            let sp = self.bump().span;
            self.skip_newlines_in_stmt();
            // The exponent is parsed at the level of unary operators and juxtaposition, so
            // it may carry a sign (`2^-3`) and `2^3x == 2^(3x)`; `^` is right-associative.
            let exp = self.parse_unary();
            return self.binop(op, sp, base, exp);
        }
        base
    }

    pub(super) fn parse_decl(&mut self) -> Expr {
        let mut e = self.parse_postfix();
        while self.at_op("::") {
            self.bump();
            let ty = self.parse_postfix();
            let span = e.span.to(ty.span);
            e = Expr::new(
                ExprKind::TypeAssert {
                    expr: Box::new(e),
                    ty: Box::new(ty),
                },
                span,
            );
        }
        // `->` binds tightly on its left and loosely on its right: `2 |> x -> x + 1` is
        // `2 |> (x -> x + 1)`, `a::T -> body` takes `a::T` as its parameter.
        if self.at_op("->") {
            self.bump();
            self.skip_newlines_in_stmt();
            let body = self.parse_expr();
            e = self.lambda_from(e, body);
        }
        e
    }
}
