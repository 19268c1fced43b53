//! Recursive-descent parser with Julia's operator precedence. Never fails: errors become
//! diagnostics plus `ExprKind::Error` nodes, and parsing resumes at the next statement.
//!
//! The parser's state, its token-level helpers and error recovery are here; `stmt` parses
//! statements and blocks, `ops` operator expressions by precedence, `primary` atoms, calls,
//! indexing, brackets and macros, and `defs` function, struct and abstract type definitions.

mod defs;
mod ops;
mod primary;
mod stmt;
mod threads;
mod try_catch;

use defs::*;
use ops::is_operator_name;

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
    /// Spans of the named tuples written with names alone (`(; a, b)`), which may be assigned
    /// to (`(; a, b) = x` sets `a` and `b` to `x.a` and `x.b`).
    property_lists: Vec<Span>,
}

/// The syntax errors a parse reports at most.
pub const MAX_DIAGNOSTICS: usize = 100;

/// Expressions started at one token before the parser gives up on it and skips it.
const MAX_STALLS: u32 = 64;

fn canonical_op(op: &str) -> &str {
    match op {
        "≤" => "<=",
        "≥" => ">=",
        "≠" => "!=",
        "∈" => "in",
        ".≤" => ".<=",
        ".≥" => ".>=",
        ".≠" => ".!=",
        ".∈" => ".in",
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
            property_lists: Vec::new(),
        }
    }

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
            Tok::UInt(_, v) => format!("`{v:#x}`"),
            Tok::Str(_) => "a string".into(),
            Tok::Char(_) => "a character".into(),
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

    /// `:op` right after a `.` (`Base.:+`): the operator's name.
    fn quoted_operator(&mut self) -> Option<(Symbol, Span)> {
        if !self.at_op(":") {
            return None;
        }
        // `:(==)`: the operator in parentheses.
        if self.peek_nth(1) == &Tok::Op("(") && self.peek_nth(3) == &Tok::Op(")") {
            if let Tok::Op(op) = self.peek_nth(2).clone() {
                if is_operator_name(op) {
                    let start = self.bump().span;
                    self.bump();
                    self.bump();
                    let end = self.bump().span;
                    return Some((sym(canonical_op(op)), start.to(end)));
                }
            }
        }
        let Tok::Op(op) = self.peek_nth(1).clone() else {
            return None;
        };
        if !is_operator_name(op) {
            return None;
        }
        let start = self.bump().span;
        let end = self.bump().span;
        Some((sym(canonical_op(op)), start.to(end)))
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
}
