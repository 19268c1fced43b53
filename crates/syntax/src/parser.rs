//! Recursive-descent parser with Julia's operator precedence. Never fails: errors become
//! diagnostics plus `ExprKind::Error` nodes, and parsing resumes at the next statement.

use crate::ast::*;
use crate::lexer::{Kw, Lexer, StrPart, Tok, Token};
use crate::span::{Diagnostic, FileId, Span};
use crate::symbol::{sym, Symbol};

/// Parses a whole file.
pub fn parse_file(src: &str, file: FileId) -> (SourceFile, Vec<Diagnostic>) {
    let mut p = Parser::new(src, file, 0, src);
    let items = p.parse_toplevel();
    let mut diags = p.lex_diags;
    diags.extend(p.diags);
    diags.sort_by_key(|d| d.span.lo);
    (SourceFile { items }, diags)
}

/// Parses a single expression (as given to `--call`).
pub fn parse_expr_str(src: &str, file: FileId) -> (Expr, Vec<Diagnostic>) {
    let mut p = Parser::new(src, file, 0, src);
    p.skip_newlines();
    let e = p.parse_expr_stmt();
    p.skip_newlines();
    if !p.at_eof() {
        let sp = p.peek_span();
        p.error(sp, "unexpected input after the expression");
    }
    let mut diags = p.lex_diags;
    diags.extend(p.diags);
    (e, diags)
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Mode {
    /// Newlines end statements.
    Statement,
    /// Inside `( )` or `{ }` or an index: newlines are whitespace.
    Paren,
    /// Inside `[ ]` of a literal: newlines separate rows, spaces separate elements.
    Bracket,
}

const MAX_DEPTH: u32 = 100;

struct Parser<'a> {
    /// The whole file's text (for sub-parsing string interpolations).
    full_src: &'a str,
    toks: Vec<Token>,
    pos: usize,
    file: FileId,
    modes: Vec<Mode>,
    /// Inside the `then` part of a ternary: a `:` surrounded by spaces ends it.
    ternary_then: bool,
    /// Inside an index: `end` and a lone `:` are expressions.
    in_index: u32,
    depth: u32,
    diags: Vec<Diagnostic>,
    lex_diags: Vec<Diagnostic>,
    /// Where the last expression started, and how many expressions have started there since a
    /// token was last consumed: a parser loop that keeps asking for an expression at a token
    /// nothing can consume is stopped (see `parse_unary`).
    stall_pos: usize,
    stalls: u32,
}

/// The syntax errors a parse reports at most.
pub const MAX_DIAGNOSTICS: usize = 100;

/// Expressions started at one token before the parser gives up on it and skips it.
const MAX_STALLS: u32 = 64;

fn is_comparison_op(op: &str) -> bool {
    matches!(
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
            | ".=="
            | ".!="
            | ".<"
            | ".<="
            | ".>"
            | ".>="
    )
}

fn is_operator_name(op: &str) -> bool {
    matches!(
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
            | "&"
            | "|"
            | ":"
            | "≤"
            | "≥"
            | "≠"
            | "<:"
            | "∈"
    )
}

fn canonical_op(op: &str) -> &str {
    match op {
        "≤" => "<=",
        "≥" => ">=",
        "≠" => "!=",
        "∈" => "in",
        o => o,
    }
}

impl<'a> Parser<'a> {
    fn new(src: &'a str, file: FileId, base: usize, full_src: &'a str) -> Parser<'a> {
        let (toks, lex_diags) = Lexer::new(src, file, base).tokenize();
        Parser {
            full_src,
            toks,
            pos: 0,
            file,
            modes: vec![Mode::Statement],
            ternary_then: false,
            in_index: 0,
            depth: 0,
            diags: Vec::new(),
            lex_diags,
            stall_pos: usize::MAX,
            stalls: 0,
        }
    }

    // ----- token access -----

    fn mode(&self) -> Mode {
        *self.modes.last().unwrap_or(&Mode::Statement)
    }

    /// Index of the next significant token (skipping newlines in paren mode).
    fn next_index(&self) -> usize {
        let mut i = self.pos;
        if self.mode() == Mode::Paren {
            while i + 1 < self.toks.len() && self.toks[i].tok == Tok::Newline {
                i += 1;
            }
        }
        i.min(self.toks.len() - 1)
    }

    fn peek(&self) -> &Tok {
        &self.toks[self.next_index()].tok
    }

    fn peek_token(&self) -> &Token {
        &self.toks[self.next_index()]
    }

    fn peek_nth(&self, n: usize) -> &Tok {
        let mut i = self.next_index();
        for _ in 0..n {
            i = (i + 1).min(self.toks.len() - 1);
            if self.mode() == Mode::Paren {
                while i + 1 < self.toks.len() && self.toks[i].tok == Tok::Newline {
                    i += 1;
                }
            }
        }
        &self.toks[i].tok
    }

    fn peek_span(&self) -> Span {
        self.toks[self.next_index()].span
    }

    fn prev_span(&self) -> Span {
        if self.pos == 0 {
            self.toks[0].span
        } else {
            self.toks[self.pos - 1].span
        }
    }

    fn bump(&mut self) -> Token {
        let i = self.next_index();
        let t = self.toks[i].clone();
        if t.tok != Tok::Eof {
            self.pos = i + 1;
        } else {
            self.pos = i;
        }
        t
    }

    fn at_eof(&self) -> bool {
        *self.peek() == Tok::Eof
    }

    fn at_op(&self, op: &str) -> bool {
        matches!(self.peek(), Tok::Op(o) if *o == op)
    }

    fn at_kw(&self, kw: Kw) -> bool {
        matches!(self.peek(), Tok::Keyword(k) if *k == kw)
    }

    fn eat_op(&mut self, op: &str) -> bool {
        if self.at_op(op) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn eat_kw(&mut self, kw: Kw) -> bool {
        if self.at_kw(kw) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn skip_newlines(&mut self) {
        while self.toks[self.pos].tok == Tok::Newline {
            self.pos += 1;
        }
    }

    fn skip_terminators(&mut self) {
        while matches!(self.toks[self.pos].tok, Tok::Newline | Tok::Op(";")) {
            self.pos += 1;
        }
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        // One diagnostic per position is enough, and past `MAX_DIAGNOSTICS` more say nothing
        // new (a line of 5,000 stray `end`s).
        if self.diags.len() >= MAX_DIAGNOSTICS
            || self.diags.last().is_some_and(|d| d.span.lo == span.lo)
        {
            return;
        }
        self.diags.push(Diagnostic::new(span, msg.into()));
    }

    fn describe(t: &Tok) -> String {
        match t {
            Tok::Int(i) => format!("`{i}`"),
            Tok::Float(f) => format!("`{f}`"),
            Tok::Float32(f) => format!("`{f}f0`"),
            Tok::Str(_) => "a string".into(),
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Macro(s) => format!("`@{s}`"),
            Tok::Keyword(k) => format!("`{}`", format!("{k:?}").to_lowercase()),
            Tok::Op(o) => format!("`{o}`"),
            Tok::Newline => "end of line".into(),
            Tok::Eof => "end of file".into(),
            Tok::Error(_) => "an invalid token".into(),
        }
    }

    fn expect_op(&mut self, op: &str, what: &str) -> bool {
        if self.eat_op(op) {
            true
        } else {
            let sp = self.peek_span();
            let d = Self::describe(self.peek());
            self.error(sp, format!("expected `{op}` {what}, found {d}"));
            false
        }
    }

    fn expect_end(&mut self, opener: &str, open_span: Span) {
        self.skip_terminators();
        if !self.eat_kw(Kw::End) {
            let sp = self.peek_span();
            let d = Self::describe(self.peek());
            let _ = open_span;
            self.error(
                sp,
                format!("expected `end` to close `{opener}` (opened earlier), found {d}"),
            );
        }
    }

    fn ident_sym(&mut self, what: &str) -> Option<(Symbol, Span)> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                let sp = self.bump().span;
                Some((s, sp))
            }
            t => {
                let sp = self.peek_span();
                self.error(sp, format!("expected {what}, found {}", Self::describe(&t)));
                None
            }
        }
    }

    fn with_mode<T>(&mut self, m: Mode, f: impl FnOnce(&mut Self) -> T) -> T {
        self.modes.push(m);
        let saved_tern = std::mem::replace(&mut self.ternary_then, false);
        let r = f(self);
        self.ternary_then = saved_tern;
        self.modes.pop();
        r
    }

    /// Skips to the start of the next statement after an error.
    fn recover(&mut self) {
        let mut depth = 0i32;
        loop {
            match &self.toks[self.pos].tok {
                Tok::Eof => break,
                Tok::Newline | Tok::Op(";") if depth <= 0 => break,
                Tok::Op("(") | Tok::Op("[") | Tok::Op("{") => depth += 1,
                Tok::Op(")") | Tok::Op("]") | Tok::Op("}") => depth -= 1,
                Tok::Keyword(Kw::End) if depth <= 0 => break,
                _ => {}
            }
            self.pos += 1;
        }
    }

    // ----- statements -----

    fn parse_toplevel(&mut self) -> Vec<Expr> {
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
    fn finish_stmt(&mut self) {
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
    fn parse_block(&mut self, stops: &[Kw]) -> Vec<Expr> {
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

    fn parse_stmt(&mut self) -> Expr {
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
                self.bump();
                let mut names = Vec::new();
                loop {
                    match self.ident_sym("a module name") {
                        Some((s, _)) => names.push(s),
                        None => {
                            self.recover();
                            break;
                        }
                    }
                    // `using LinearAlgebra: dot` imports names of a module we provide anyway.
                    if self.eat_op(":") {
                        while !matches!(self.peek(), Tok::Newline | Tok::Eof | Tok::Op(";")) {
                            self.bump();
                        }
                        break;
                    }
                    if !self.eat_op(",") {
                        break;
                    }
                }
                Expr::new(ExprKind::Using(names), start.to(self.prev_span()))
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
            Tok::Keyword(Kw::Try) => {
                self.bump();
                self.error(start, "`try`/`catch` is not supported");
                let _ = self.parse_block(&[Kw::Catch, Kw::Finally, Kw::End]);
                while self.eat_kw(Kw::Catch) || self.eat_kw(Kw::Finally) {
                    let _ = self.parse_block(&[Kw::Catch, Kw::Finally, Kw::End]);
                }
                self.eat_kw(Kw::End);
                Expr::new(ExprKind::Error, start)
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
    fn parse_expr_stmt(&mut self) -> Expr {
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
    fn parse_assign_tail(&mut self, lhs: Expr, stmt_level: bool) -> Expr {
        let op = match self.peek() {
            Tok::Op(o) => *o,
            _ => return lhs,
        };
        let is_update = matches!(op, "+=" | "-=" | "*=" | "/=" | "^=" | "÷=" | "%=");
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

    fn skip_newlines_in_stmt(&mut self) {
        if self.mode() != Mode::Bracket {
            self.skip_newlines();
        }
    }

    fn short_function(&mut self, sig: Expr, body: Expr, span: Span) -> Expr {
        match self.signature_to_def(sig, vec![body], span) {
            Some(def) => Expr::new(ExprKind::Function(Box::new(def)), span),
            None => Expr::new(ExprKind::Error, span),
        }
    }

    // ----- expressions -----

    /// Full expression including assignment, but no bare comma tuples.
    fn parse_expr(&mut self) -> Expr {
        let lhs = self.parse_expr_no_assign();
        self.parse_assign_tail(lhs, false)
    }

    /// Everything above assignment: `->`, `where`, ternary and below.
    fn parse_expr_no_assign(&mut self) -> Expr {
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

    fn parse_where_vars(&mut self) -> Vec<TypeVarDecl> {
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

    fn parse_type_var(&mut self) -> Option<TypeVarDecl> {
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

    fn lambda_from(&mut self, params: Expr, body: Expr) -> Expr {
        let span = params.span.to(body.span);
        let plist = match params.kind {
            ExprKind::Tuple(elems) => elems,
            ExprKind::Block(ref b) if b.is_empty() => vec![],
            _ => vec![params],
        };
        let mut ps = Vec::new();
        for p in plist {
            if let Some(param) = self.expr_to_param(p) {
                ps.push(param);
            }
        }
        Expr::new(
            ExprKind::Lambda(Box::new(Lambda {
                params: ps,
                body,
                span,
            })),
            span,
        )
    }

    fn parse_pair(&mut self) -> Expr {
        let lhs = self.parse_ternary();
        if self.at_op("=>") {
            let op_span = self.bump().span;
            self.skip_newlines_in_stmt();
            let rhs = self.parse_pair();
            return self.binop("=>", op_span, lhs, rhs);
        }
        lhs
    }

    fn parse_ternary(&mut self) -> Expr {
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

    fn parse_or(&mut self) -> Expr {
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

    fn parse_and(&mut self) -> Expr {
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
    fn peek_comparison(&self) -> Option<&'static str> {
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

    fn parse_comparison(&mut self) -> Expr {
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

    fn binop(&mut self, op: &str, op_span: Span, lhs: Expr, rhs: Expr) -> Expr {
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

    fn parse_pipe(&mut self) -> Expr {
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
    fn space_sensitive_break(&self) -> bool {
        if self.mode() != Mode::Bracket {
            return false;
        }
        let i = self.next_index();
        let t = &self.toks[i];
        let next = self.toks.get(i + 1);
        t.space_before && next.is_some_and(|n| !n.space_before)
    }

    fn at_range_colon(&self) -> bool {
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

    fn parse_range(&mut self) -> Expr {
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

    fn parse_plus(&mut self) -> Expr {
        let mut lhs = self.parse_times();
        while let Tok::Op(o @ ("+" | "-" | ".+" | ".-" | "|")) = self.peek() {
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

    fn parse_times(&mut self) -> Expr {
        let mut lhs = self.parse_unary();
        while let Tok::Op(o @ ("*" | "/" | "÷" | "%" | "\\" | "&" | ".*" | "./" | ".÷")) =
            self.peek()
        {
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

    fn parse_unary(&mut self) -> Expr {
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
    fn operator_call_name(&mut self) -> Option<Expr> {
        let Tok::Op(o) = self.peek() else { return None };
        let o = *o;
        if !is_operator_name(o) {
            return None;
        }
        let i = self.next_index();
        let next = self.toks.get(i + 1)?;
        if next.tok != Tok::Op("(") || next.space_before {
            return None;
        }
        if matches!(o, "-" | "+" | "!") && !self.paren_is_arglist(i + 1) {
            return None;
        }
        let sp = self.bump().span;
        Some(Expr::new(ExprKind::Ident(sym(canonical_op(o))), sp))
    }

    /// Whether the parenthesised group opening at token `open` is an argument list: it is
    /// empty or holds a comma, a `;` or a splat `...` at its own nesting level.
    fn paren_is_arglist(&self, open: usize) -> bool {
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

    fn parse_unary_inner(&mut self) -> Expr {
        if let Some(f) = self.operator_call_name() {
            let e = self.postfix_tail(f);
            return self.parse_power_tail(e);
        }
        let op = match self.peek() {
            Tok::Op(o @ ("-" | "+" | "!" | ".-" | ".!")) => *o,
            Tok::Op("<:") if self.in_index == 0 && self.mode() == Mode::Paren => {
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
    fn parse_juxtapose(&mut self) -> Expr {
        let mut lhs = self.parse_power();
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
                _ => false,
            };
            if !(adjacent && glued) {
                return lhs;
            }
            let rhs = self.parse_power();
            let op_span = Span::new(self.file, lhs.span.hi, lhs.span.hi);
            lhs = self.binop("*", op_span, lhs, rhs);
        }
    }

    fn parse_power(&mut self) -> Expr {
        let base = self.parse_decl();
        self.parse_power_tail(base)
    }

    fn parse_power_tail(&mut self, base: Expr) -> Expr {
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

    fn parse_decl(&mut self) -> Expr {
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

    /// Whether the token at the cursor is glued to the previous one (no whitespace).
    fn adjacent(&self) -> bool {
        let i = self.next_index();
        i == self.pos && !self.toks[i].space_before
    }

    fn parse_postfix(&mut self) -> Expr {
        let e = self.parse_primary();
        self.postfix_tail(e)
    }

    fn postfix_tail(&mut self, e: Expr) -> Expr {
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
                if self.at_op("(") {
                    // Broadcast call `f.(x)`.
                    let call = self.parse_call(e);
                    if let ExprKind::Call { func, args, .. } = call.kind {
                        e = Expr::new(ExprKind::DotCall { func, args }, call.span);
                    } else {
                        e = call;
                    }
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
                e = Expr::new(
                    ExprKind::Call {
                        func: Box::new(Expr::new(ExprKind::Ident(sym("adjoint")), sp)),
                        args: vec![e],
                        kwargs: vec![],
                        do_block: None,
                    },
                    span,
                );
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

    fn parse_call(&mut self, func: Expr) -> Expr {
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
                                span: a.span,
                            });
                        } else if matches!(a.kind, ExprKind::Splat(_)) {
                            p.error(
                                a.span,
                                "not supported yet: splatting keyword arguments (`kws...`)",
                            );
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
            // Parameters up to the end of the line.
            while !matches!(self.peek(), Tok::Newline | Tok::Op(";") | Tok::Eof) {
                let e = self.parse_expr_no_assign();
                if let Some(param) = self.expr_to_param(e) {
                    params.push(param);
                }
                if !self.eat_op(",") {
                    break;
                }
            }
            let body = self.parse_block(&[Kw::End]);
            self.expect_end("do", do_span);
            let bspan = do_span.to(self.prev_span());
            span = span.to(bspan);
            Some(Box::new(Lambda {
                params,
                body: Expr::new(ExprKind::Block(body), bspan),
                span: bspan,
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

    fn parse_index(&mut self, obj: Expr) -> Expr {
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
            // `T[f(x) for x in v]`: the comprehension, its elements converted to `T` (the
            // prelude's `_typed_collect`).
            BracketBody::Comprehension(c) => Expr::new(
                ExprKind::Call {
                    func: Box::new(Expr::new(ExprKind::Ident(sym("_typed_collect")), obj.span)),
                    args: vec![obj, c],
                    kwargs: vec![],
                    do_block: None,
                },
                span,
            ),
        }
    }

    fn parse_primary(&mut self) -> Expr {
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
            Tok::Op(":") if self.in_index > 0 => {
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
                }
            }
            Tok::Op(":") => {
                self.bump();
                if let Tok::Ident(_) = self.peek() {
                    self.error(sp, "quoted symbols (`:name`) are not supported");
                    self.bump();
                    return Expr::new(ExprKind::Error, sp);
                }
                Expr::new(ExprKind::Ident(sym(":")), sp)
            }
            Tok::Macro(name) => self.parse_macro(name, sp),
            Tok::Keyword(Kw::If) => self.parse_if(),
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
                let e = self.parse_expr_stmt();
                let span = sp.to(e.span);
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
            Tok::Op("<:") if self.mode() == Mode::Paren => {
                self.bump();
                let inner = self.parse_unary();
                let span = sp.to(inner.span);
                Expr::new(ExprKind::SubtypeBound(Box::new(inner)), span)
            }
            // An operator used as a value, e.g. `reduce(+, x)` or `(+)`.
            Tok::Op(
                o @ ("+" | "-" | "*" | "/" | "^" | "==" | "<" | ">" | "<=" | ">=" | "÷" | "%"),
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

    fn string_expr(&mut self, parts: Vec<StrPart>, sp: Span) -> Expr {
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

    fn parse_paren(&mut self) -> Expr {
        let open = self.bump().span;
        let e = self.with_mode(Mode::Paren, |p| {
            if p.eat_op(")") {
                return Expr::new(ExprKind::Tuple(vec![]), open.to(p.prev_span()));
            }
            // `(; a = 1)` named tuple
            if p.at_op(";") {
                p.bump();
                let mut fields = Vec::new();
                while !p.at_op(")") && !p.at_eof() {
                    let e = p.parse_expr();
                    p.push_named_field(e, &mut fields);
                    if !p.eat_op(",") {
                        break;
                    }
                }
                p.expect_op(")", "to close `(`");
                return Expr::new(ExprKind::NamedTuple(fields), open.to(p.prev_span()));
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

    fn push_named_field(&mut self, e: Expr, fields: &mut Vec<(Symbol, Expr)>) {
        match e.kind {
            ExprKind::Assign { lhs, rhs } if lhs.ident().is_some() => {
                fields.push((lhs.ident().unwrap_or_else(|| sym("_")), *rhs));
            }
            _ => self.error(e.span, "expected `name = value` in a named tuple"),
        }
    }

    fn parse_comprehension_tail(&mut self, body: Expr, generator: bool) -> Expr {
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

    fn parse_bracket_body(&mut self, open: Span, is_index: bool) -> BracketBody {
        if is_index {
            self.in_index += 1;
        }
        let r = self.with_mode(Mode::Bracket, |p| {
            let mut rows: Vec<Vec<Expr>> = vec![vec![]];
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
                        p.skip_terminators();
                        if p.at_op("]") {
                            break;
                        }
                        saw_space_or_semi = true;
                        rows.push(vec![]);
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
            if saw_space_or_semi {
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

    fn recover_in_brackets(&mut self) {
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

    fn parse_macro(&mut self, name: Symbol, sp: Span) -> Expr {
        self.bump();
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
            // Space-separated arguments up to the end of the line.
            self.modes.push(Mode::Bracket);
            loop {
                match self.toks[self.pos].tok {
                    Tok::Newline | Tok::Eof | Tok::Op(";") | Tok::Op(")") | Tok::Op("]") => break,
                    Tok::Keyword(Kw::End) => break,
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
                args.push(e);
                if self.pos == before {
                    break;
                }
            }
            self.modes.pop();
        }
        let span = sp.to(self.prev_span());
        Expr::new(ExprKind::Macro { name, args }, span)
    }

    fn parse_if(&mut self) -> Expr {
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
    fn parse_if_elseif(&mut self) -> Expr {
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

    fn parse_iteration_spec(&mut self) -> (Expr, Expr) {
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

    fn parse_for(&mut self) -> Expr {
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

    fn parse_function(&mut self) -> Expr {
        let sp = self.bump().span;
        // `function f end`
        if let Tok::Ident(_) = self.peek() {
            if matches!(self.peek_nth(1), Tok::Keyword(Kw::End)) {
                let (name, nsp) = self.ident_sym("a function name").unwrap_or((sym("_"), sp));
                self.bump();
                return Expr::new(
                    ExprKind::Function(Box::new(FunctionDef {
                        name: FnName::Name(name),
                        name_span: nsp,
                        params: vec![],
                        kwparams: vec![],
                        where_vars: vec![],
                        ret_type: None,
                        body: vec![],
                        declaration_only: true,
                        span: sp.to(self.prev_span()),
                    })),
                    sp.to(self.prev_span()),
                );
            }
        }
        let sig = self.with_mode(Mode::Statement, |p| p.parse_expr_no_assign());
        let body = self.parse_block(&[Kw::End]);
        self.expect_end("function", sp);
        let span = sp.to(self.prev_span());
        match self.signature_to_def(sig, body, span) {
            Some(def) => Expr::new(ExprKind::Function(Box::new(def)), span),
            None => Expr::new(ExprKind::Error, span),
        }
    }

    /// Turns a parsed signature expression (`f(x::T)::R where T`) into a definition.
    fn signature_to_def(&mut self, sig: Expr, body: Vec<Expr>, span: Span) -> Option<FunctionDef> {
        let mut sig = sig;
        let mut where_vars = Vec::new();
        let mut ret_type = None;
        loop {
            match sig.kind {
                ExprKind::Where { expr, vars } => {
                    let mut vs = vars;
                    vs.extend(where_vars);
                    where_vars = vs;
                    sig = *expr;
                }
                ExprKind::TypeAssert { expr, ty } if ret_type.is_none() => {
                    ret_type = Some(*ty);
                    sig = *expr;
                }
                _ => break,
            }
        }
        let sig_span = sig.span;
        match sig.kind {
            ExprKind::Call {
                func, args, kwargs, ..
            } => {
                let name_span = func.span;
                let name = match func.kind {
                    ExprKind::Ident(s) => FnName::Name(s),
                    ExprKind::Curly { .. } => FnName::Type(*func),
                    ExprKind::TypeAssert { .. } => FnName::Type(*func),
                    _ => {
                        self.error(func.span, "expected a function name");
                        return None;
                    }
                };
                let mut params = Vec::new();
                for a in args {
                    params.push(self.expr_to_param(a)?);
                }
                // `y = 1` before the `;` is a positional parameter with a default: after the
                // ones without, before a final `xs...`.
                let at = if params.last().is_some_and(|p: &Param| p.vararg) {
                    params.len() - 1
                } else {
                    params.len()
                };
                let (positional, kwargs): (Vec<KwArg>, Vec<KwArg>) =
                    kwargs.into_iter().partition(|k| !k.after_semicolon);
                let defaults: Vec<Param> = positional
                    .into_iter()
                    .map(|k| Param {
                        name: Some(k.name),
                        ty: k.ty,
                        default: Some(k.value),
                        vararg: false,
                        destructure: None,
                        span: k.span,
                    })
                    .collect();
                params.splice(at..at, defaults);
                let mut kwparams = Vec::new();
                for k in kwargs {
                    kwparams.push(Param {
                        name: Some(k.name),
                        ty: k.ty,
                        default: (!k.bare).then_some(k.value),
                        vararg: false,
                        destructure: None,
                        span: k.span,
                    });
                }
                Some(FunctionDef {
                    name,
                    name_span,
                    params,
                    kwparams,
                    where_vars,
                    ret_type,
                    body,
                    declaration_only: false,
                    span,
                })
            }
            ExprKind::Tuple(elems) => {
                // `function (x, y) ... end`
                let mut params = Vec::new();
                for a in elems {
                    params.push(self.expr_to_param(a)?);
                }
                Some(FunctionDef {
                    name: FnName::Anonymous,
                    name_span: sig_span,
                    params,
                    kwparams: vec![],
                    where_vars,
                    ret_type,
                    body,
                    declaration_only: false,
                    span,
                })
            }
            ExprKind::Ident(_) => {
                let p = self.expr_to_param(sig)?;
                Some(FunctionDef {
                    name: FnName::Anonymous,
                    name_span: sig_span,
                    params: vec![p],
                    kwparams: vec![],
                    where_vars,
                    ret_type,
                    body,
                    declaration_only: false,
                    span,
                })
            }
            _ => {
                self.error(sig_span, "expected a function signature like `f(x, y)`");
                None
            }
        }
    }

    /// Converts an argument expression of a signature into a parameter.
    fn expr_to_param(&mut self, e: Expr) -> Option<Param> {
        let span = e.span;
        match e.kind {
            ExprKind::Ident(s) => Some(Param {
                name: Some(s),
                ty: None,
                default: None,
                vararg: false,
                destructure: None,
                span,
            }),
            ExprKind::TypeAssert { expr, ty } => {
                let name = match expr.kind {
                    ExprKind::Ident(s) if s.as_str() == "_" => None,
                    ExprKind::Ident(s) => Some(s),
                    _ => {
                        self.error(expr.span, "expected a parameter name before `::`");
                        return None;
                    }
                };
                // `xs::T...` parses as `xs::(T...)`.
                let (ty, vararg) = match ty.kind {
                    ExprKind::Splat(inner) => (*inner, true),
                    _ => (*ty, false),
                };
                Some(Param {
                    name,
                    ty: Some(ty),
                    default: None,
                    vararg,
                    destructure: None,
                    span,
                })
            }
            ExprKind::Assign { lhs, rhs } => {
                let mut p = self.expr_to_param(*lhs)?;
                p.default = Some(*rhs);
                p.span = span;
                Some(p)
            }
            ExprKind::Splat(inner) => {
                let mut p = self.expr_to_param(*inner)?;
                p.vararg = true;
                p.span = span;
                Some(p)
            }
            ExprKind::Tuple(elems) => {
                let mut names = Vec::new();
                for el in elems {
                    match el.ident() {
                        Some(s) => names.push(s),
                        None => {
                            self.error(el.span, "expected a name in a destructuring parameter");
                            return None;
                        }
                    }
                }
                Some(Param {
                    name: None,
                    ty: None,
                    default: None,
                    vararg: false,
                    destructure: Some(names),
                    span,
                })
            }
            _ => {
                self.error(
                    span,
                    "expected a parameter (`x`, `x::T`, `x = default` or `xs...`)",
                );
                None
            }
        }
    }

    fn parse_struct(&mut self, mutable: bool) -> Expr {
        let sp = self.bump().span; // struct
        let Some((name, name_span)) = self.ident_sym("a struct name") else {
            self.recover();
            return Expr::new(ExprKind::Error, sp);
        };
        let params = self.parse_type_params();
        let supertype = if self.eat_op("<:") {
            Some(self.parse_postfix())
        } else {
            None
        };
        let mut fields = Vec::new();
        let mut constructors = Vec::new();
        self.with_mode(Mode::Statement, |p| loop {
            p.skip_terminators();
            match p.peek().clone() {
                Tok::Keyword(Kw::End) | Tok::Eof => break,
                Tok::Keyword(Kw::Function) => {
                    let e = p.parse_function();
                    if let ExprKind::Function(def) = e.kind {
                        constructors.push(*def);
                    }
                }
                Tok::Ident(fname) => {
                    let e = p.parse_expr_stmt();
                    match e.kind {
                        ExprKind::Ident(_) => fields.push(FieldDecl {
                            name: fname,
                            ty: None,
                            span: e.span,
                        }),
                        ExprKind::TypeAssert { expr, ty } if expr.ident().is_some() => {
                            fields.push(FieldDecl {
                                name: expr.ident().unwrap_or(fname),
                                ty: Some(*ty),
                                span: e.span,
                            })
                        }
                        ExprKind::Function(def) => constructors.push(*def),
                        _ => p.error(e.span, "expected a field `name` or `name::Type`"),
                    }
                }
                t => {
                    let s = p.peek_span();
                    let d = Self::describe(&t);
                    p.error(s, format!("expected a field declaration, found {d}"));
                    p.recover();
                    if p.at_eof() {
                        break;
                    }
                    if !p.at_kw(Kw::End) {
                        p.bump();
                    }
                }
            }
        });
        self.expect_end("struct", sp);
        let span = sp.to(self.prev_span());
        Expr::new(
            ExprKind::Struct(Box::new(StructDef {
                name,
                name_span,
                params,
                supertype,
                fields,
                mutable,
                constructors,
                span,
            })),
            span,
        )
    }

    fn parse_type_params(&mut self) -> Vec<TypeVarDecl> {
        let mut params = Vec::new();
        if self.at_op("{") && self.adjacent() {
            self.bump();
            self.with_mode(Mode::Paren, |p| {
                while !p.at_op("}") && !p.at_eof() {
                    match p.parse_type_var() {
                        Some(v) => params.push(v),
                        None => break,
                    }
                    if !p.eat_op(",") {
                        break;
                    }
                }
                p.expect_op("}", "to close the type parameters");
            });
        }
        params
    }

    fn parse_abstract(&mut self) -> Expr {
        let sp = self.bump().span;
        match self.peek() {
            Tok::Ident(s) if s.as_str() == "type" => {
                self.bump();
            }
            _ => {
                let s = self.peek_span();
                self.error(s, "expected `type` after `abstract`");
                self.recover();
                return Expr::new(ExprKind::Error, sp);
            }
        }
        let Some((name, _)) = self.ident_sym("an abstract type name") else {
            self.recover();
            return Expr::new(ExprKind::Error, sp);
        };
        let params = self.parse_type_params();
        let supertype = if self.eat_op("<:") {
            Some(Box::new(self.parse_postfix()))
        } else {
            None
        };
        self.skip_terminators();
        self.expect_end("abstract type", sp);
        Expr::new(
            ExprKind::AbstractType {
                name,
                params,
                supertype,
            },
            sp.to(self.prev_span()),
        )
    }
}

enum BracketBody {
    List(Vec<Expr>),
    Rows(Vec<Vec<Expr>>),
    Comprehension(Expr),
}

fn is_call_signature(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Call { func, .. } => matches!(
            func.kind,
            ExprKind::Ident(_) | ExprKind::Curly { .. } | ExprKind::TypeAssert { .. }
        ),
        ExprKind::Where { expr, .. } => is_call_signature(expr),
        ExprKind::TypeAssert { expr, .. } => {
            matches!(&expr.kind, ExprKind::Call { .. } | ExprKind::Where { .. })
                && is_call_signature(expr)
        }
        _ => false,
    }
}
