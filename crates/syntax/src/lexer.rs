//! Lexer: source text to tokens. Never fails: bad characters become `Tok::Error` tokens.

use crate::span::{Diagnostic, FileId, Span};
use crate::symbol::{sym, Symbol};

/// One piece of a string literal.
#[derive(Clone, Debug, PartialEq)]
pub enum StrPart {
    Lit(String),
    /// `$name`
    Ident(Symbol, Span),
    /// `$(expr)`: the span of the text between the parentheses, parsed later.
    Expr(Span),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Int(i64),
    Float(f64),
    Float32(f32),
    /// A hexadecimal, binary or octal literal: an unsigned integer type sized by its digits
    /// (`UInt8` to `UInt64`) and the value's bits.
    UInt(&'static str, u64),
    Str(Vec<StrPart>),
    /// A character literal `'a'`.
    Char(char),
    Ident(Symbol),
    /// `@name`
    Macro(Symbol),
    Keyword(Kw),
    /// An operator or punctuation, e.g. `+`, `<=`, `(`, `::`, `.+`.
    Op(&'static str),
    Newline,
    Eof,
    Error(String),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kw {
    Function,
    End,
    If,
    Elseif,
    Else,
    While,
    For,
    Break,
    Continue,
    Return,
    Begin,
    Let,
    Local,
    Global,
    Const,
    Struct,
    Mutable,
    Abstract,
    Where,
    True,
    False,
    Nothing,
    Do,
    Try,
    Catch,
    Finally,
    Module,
    Using,
    Import,
    Quote,
    Macro,
}

fn keyword(s: &str) -> Option<Kw> {
    Some(match s {
        "function" => Kw::Function,
        "end" => Kw::End,
        "if" => Kw::If,
        "elseif" => Kw::Elseif,
        "else" => Kw::Else,
        "while" => Kw::While,
        "for" => Kw::For,
        "break" => Kw::Break,
        "continue" => Kw::Continue,
        "return" => Kw::Return,
        "begin" => Kw::Begin,
        "let" => Kw::Let,
        "local" => Kw::Local,
        "global" => Kw::Global,
        "const" => Kw::Const,
        "struct" => Kw::Struct,
        "mutable" => Kw::Mutable,
        "abstract" => Kw::Abstract,
        "where" => Kw::Where,
        "true" => Kw::True,
        "false" => Kw::False,
        "nothing" => Kw::Nothing,
        "do" => Kw::Do,
        "try" => Kw::Try,
        "catch" => Kw::Catch,
        "finally" => Kw::Finally,
        "module" => Kw::Module,
        "using" => Kw::Using,
        "import" => Kw::Import,
        "quote" => Kw::Quote,
        "macro" => Kw::Macro,
        _ => return None,
    })
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
    /// Whitespace (or a comment) immediately precedes the token.
    pub space_before: bool,
}

/// Operators, longest first so that maximal munch works by trying them in order.
const OPS: &[&str] = &[
    ">>>=", "...", ".+=", ".-=", ".*=", "./=", ".^=", "===", "!==", "÷=", ">>>", "<<=", ">>=",
    "⊻=", "|=", "&=", ".==", ".!=", ".<=", ".>=", "::", "==", "!=", "<<", ">>", "<=", ">=", "&&",
    "||", "+=", "-=", "*=", "/=", "^=", "%=", "//", "->", "=>", "<:", ">:", ".+", ".-", ".*", "./",
    ".^", ".<", ".>", ".=", ".!", ".÷", ".\\", ".≈", ".≤", ".≥", ".≠", ".∈", ".∉", "|>", "≤", "≥",
    "≠", "÷", "∈", "∉", "≈", "⋅", "×", "⊻", "⊆", "⊇", "⊈", "⊉", "⊊", "⊋", "∪", "∩", "√", "∛", "∜",
    "+", "-", "*", "/", "\\", "^", "%", "<", ">", "=", "!", ":", ".", ",", ";", "(", ")", "[", "]",
    "{", "}", "?", "'", "$", "&", "|", "~",
];

pub struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    file: FileId,
    /// Offset added to every span (for sub-lexing an interpolated expression).
    base: usize,
    pub diagnostics: Vec<Diagnostic>,
}

impl<'a> Lexer<'a> {
    /// Lexes `src`, whose first byte is at offset `base` of file `file`.
    pub fn new(src: &'a str, file: FileId, base: usize) -> Lexer<'a> {
        Lexer {
            src,
            pos: 0,
            file,
            base,
            diagnostics: Vec::new(),
        }
    }

    fn span(&self, lo: usize, hi: usize) -> Span {
        Span::new(self.file, (lo + self.base) as u32, (hi + self.base) as u32)
    }

    fn peek_char(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn peek_char_at(&self, n: usize) -> Option<char> {
        self.src[self.pos..].chars().nth(n)
    }

    /// Lexes the whole input. The last token is always `Eof`.
    pub fn tokenize(mut self) -> (Vec<Token>, Vec<Diagnostic>) {
        let mut toks: Vec<Token> = Vec::new();
        loop {
            let space_before = self.skip_space_and_comments();
            let lo = self.pos;
            let Some(c) = self.peek_char() else {
                toks.push(Token {
                    tok: Tok::Eof,
                    span: self.span(lo, lo),
                    space_before,
                });
                break;
            };
            let prev_is_value = toks.last().is_some_and(|t| ends_value(&t.tok)) && !space_before;
            let tok = if c == '\n' {
                self.pos += 1;
                Tok::Newline
            } else if c.is_ascii_digit()
                || (c == '.'
                    && self.peek_char_at(1).is_some_and(|d| d.is_ascii_digit())
                    && !prev_is_value)
            {
                self.number()
            } else if is_ident_start(c) {
                self.ident()
            } else if c == '@' && self.peek_char_at(1) == Some('.') {
                // `@.`: dot every call and assignment of an expression.
                self.pos += 2;
                Tok::Macro(sym("."))
            } else if c == '@' {
                self.pos += 1;
                let start = self.pos;
                while self.peek_char().is_some_and(is_ident_char) {
                    self.pos += self.peek_char().map_or(1, |c| c.len_utf8());
                }
                if start == self.pos {
                    Tok::Error("expected a macro name after `@`".into())
                } else {
                    Tok::Macro(sym(&self.src[start..self.pos]))
                }
            } else if c == '"' {
                self.string()
            } else if c == '\'' && !prev_is_value {
                self.char_literal()
            } else {
                self.op()
            };
            let span = self.span(lo, self.pos);
            if let Tok::Error(msg) = &tok {
                self.diagnostics.push(Diagnostic::new(span, msg.clone()));
            }
            toks.push(Token {
                tok,
                span,
                space_before,
            });
        }
        (toks, self.diagnostics)
    }

    /// Skips spaces, tabs, `\r`, line continuations and comments (not newlines). Returns whether
    /// anything was skipped.
    fn skip_space_and_comments(&mut self) -> bool {
        let start = self.pos;
        loop {
            match self.peek_char() {
                Some(' ') | Some('\t') | Some('\r') => self.pos += 1,
                Some('#') => {
                    if self.peek_char_at(1) == Some('=') {
                        // Nestable block comment.
                        let lo = self.pos;
                        self.pos += 2;
                        let mut depth = 1;
                        while depth > 0 {
                            let rest = &self.src[self.pos..];
                            if rest.is_empty() {
                                let sp = self.span(lo, self.pos);
                                self.diagnostics
                                    .push(Diagnostic::new(sp, "unterminated `#=` comment"));
                                break;
                            }
                            if rest.starts_with("=#") {
                                depth -= 1;
                                self.pos += 2;
                            } else if rest.starts_with("#=") {
                                depth += 1;
                                self.pos += 2;
                            } else {
                                self.pos += rest.chars().next().map_or(1, |c| c.len_utf8());
                            }
                        }
                    } else {
                        while let Some(c) = self.peek_char() {
                            if c == '\n' {
                                break;
                            }
                            self.pos += c.len_utf8();
                        }
                    }
                }
                _ => break,
            }
        }
        self.pos > start
    }

    fn ident(&mut self) -> Tok {
        let start = self.pos;
        // After the first character, `!` is part of an identifier (`push!`, `rrule!!`),
        // unless it starts `!=`.
        while let Some(c) = self.peek_char() {
            if is_ident_char(c) || (c == '!' && self.peek_char_at(1) != Some('=')) {
                self.pos += c.len_utf8();
            } else {
                break;
            }
        }
        let text = &self.src[start..self.pos];
        match keyword(text) {
            Some(kw) => Tok::Keyword(kw),
            None => Tok::Ident(sym(text)),
        }
    }

    fn number(&mut self) -> Tok {
        let start = self.pos;
        let bytes = self.src.as_bytes();
        let digits = |pos: &mut usize| {
            while *pos < bytes.len() && (bytes[*pos].is_ascii_digit() || bytes[*pos] == b'_') {
                *pos += 1;
            }
        };
        if ["0x", "0b", "0o"]
            .iter()
            .any(|p| self.src[self.pos..].starts_with(p))
        {
            return self.unsigned_literal();
        }
        let mut pos = self.pos;
        digits(&mut pos);
        let mut is_float = false;
        // A `.` continues the number unless it starts an operator (`1.+x`), a range `1..`, or a
        // field access; `1.` alone is a float.
        if pos < bytes.len() && bytes[pos] == b'.' {
            let next = bytes.get(pos + 1).copied();
            let starts_dot_op = matches!(
                next,
                Some(b'+' | b'-' | b'*' | b'/' | b'^' | b'=' | b'<' | b'>' | b'!' | b'.')
            );
            let starts_field = next.is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
                && !matches!(next, Some(b'e' | b'E' | b'f'));
            if !starts_dot_op && !starts_field {
                is_float = true;
                pos += 1;
                digits(&mut pos);
            }
        }
        let mut f32_exp = false;
        if pos < bytes.len() && matches!(bytes[pos], b'e' | b'E' | b'f') {
            let mut p = pos + 1;
            if p < bytes.len() && matches!(bytes[p], b'+' | b'-') {
                p += 1;
            }
            if p < bytes.len() && bytes[p].is_ascii_digit() {
                f32_exp = bytes[pos] == b'f';
                is_float = true;
                digits(&mut p);
                pos = p;
            }
        }
        self.pos = pos;
        let text: String = self.src[start..pos].chars().filter(|&c| c != '_').collect();
        if f32_exp {
            let t = text.replace('f', "e");
            match t.parse::<f32>() {
                Ok(v) => Tok::Float32(v),
                Err(_) => Tok::Error(format!("invalid number `{text}`")),
            }
        } else if is_float {
            match text.parse::<f64>() {
                Ok(v) => Tok::Float(v),
                Err(_) => Tok::Error(format!("invalid number `{text}`")),
            }
        } else {
            match text.parse::<i64>() {
                Ok(v) => Tok::Int(v),
                Err(_) => Tok::Error(format!(
                    "integer literal `{text}` does not fit in Int64 (Int128 and BigInt are not supported)"
                )),
            }
        }
    }

    /// A hexadecimal (`0xff`), binary (`0b101`) or octal (`0o17`) literal, its prefix at
    /// `self.pos`: an unsigned integer whose type is decided as Julia decides it, by the
    /// number of digits written (leading zeros count: `0x0001` is a `UInt16`).
    fn unsigned_literal(&mut self) -> Tok {
        let radix = match &self.src[self.pos + 1..self.pos + 2] {
            "x" => 16,
            "b" => 2,
            _ => 8,
        };
        self.pos += 2;
        let start = self.pos;
        while self
            .peek_char()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.pos += 1;
        }
        let text: String = self.src[start..self.pos]
            .chars()
            .filter(|&c| c != '_')
            .collect();
        let prefix = &self.src[start - 2..start];
        if radix == 16 && (self.peek_char() == Some('.') || text.contains(['p', 'P'])) {
            return Tok::Error(format!(
                "not supported yet: hexadecimal floating-point literals (`{prefix}{text}...`)"
            ));
        }
        let value = match u64::from_str_radix(&text, radix) {
            Ok(v) if !text.is_empty() => v,
            Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => {
                return Tok::Error(format!(
                    "not supported yet: `{prefix}{text}` needs more than 64 bits (UInt128 and BigInt are not supported)"
                ))
            }
            _ => return Tok::Error(format!("invalid numeric constant `{prefix}{text}`")),
        };
        let n = text.len();
        let ty = match radix {
            16 => [(2, "UInt8"), (4, "UInt16"), (8, "UInt32"), (16, "UInt64")]
                .into_iter()
                .find(|(d, _)| n <= *d)
                .map(|(_, t)| t),
            2 => [(8, "UInt8"), (16, "UInt16"), (32, "UInt32"), (64, "UInt64")]
                .into_iter()
                .find(|(d, _)| n <= *d)
                .map(|(_, t)| t),
            // Octal: by digits and by value (`0o777` needs a UInt16).
            _ => [
                (3, u8::MAX as u64, "UInt8"),
                (6, u16::MAX as u64, "UInt16"),
                (11, u32::MAX as u64, "UInt32"),
                (22, u64::MAX, "UInt64"),
            ]
            .into_iter()
            .find(|(d, max, _)| n <= *d && value <= *max)
            .map(|(_, _, t)| t),
        };
        match ty {
            Some(t) => Tok::UInt(t, value),
            None => Tok::Error(format!(
                "not supported yet: `{prefix}{text}` is a UInt128 in Julia (UInt128 is not supported)"
            )),
        }
    }

    /// A character literal (`'a'`, `'\\n'`, `'\\u00e9'`), the opening quote at `self.pos`.
    fn char_literal(&mut self) -> Tok {
        let lo = self.pos;
        self.pos += 1;
        let c = match self.peek_char() {
            None | Some('\n') => return Tok::Error("unterminated character literal".into()),
            // `'''` is the apostrophe; `''` is empty.
            Some('\'') if self.peek_char_at(1) == Some('\'') => {
                self.pos += 2;
                return Tok::Char('\'');
            }
            Some('\'') => {
                self.pos += 1;
                return Tok::Error("empty character literal".into());
            }
            Some('\\') => match self.escape() {
                Ok(c) => c,
                Err(d) => {
                    self.skip_char_literal();
                    return Tok::Error(d.message);
                }
            },
            Some(c) => {
                self.pos += c.len_utf8();
                c
            }
        };
        if self.peek_char() == Some('\'') {
            self.pos += 1;
            Tok::Char(c)
        } else {
            self.pos = lo + 1;
            self.skip_char_literal();
            Tok::Error("character literal contains more than one character".into())
        }
    }

    /// Skips to the end of a malformed character literal (its closing quote or the line's end).
    fn skip_char_literal(&mut self) {
        while let Some(ch) = self.peek_char() {
            if ch == '\n' {
                break;
            }
            self.pos += ch.len_utf8();
            if ch == '\\' {
                self.pos += self.peek_char().map_or(0, |e| e.len_utf8());
            } else if ch == '\'' {
                break;
            }
        }
    }

    /// An escape sequence in a string or character literal, the backslash at `self.pos`: the
    /// character it stands for, as Julia reads it (`\\n`, `\\t`, `\\e`, `\\x41`, octal `\\101`,
    /// `\\u00e9`, `\\U0001F600`, ...).
    fn escape(&mut self) -> Result<char, Diagnostic> {
        let lo = self.pos;
        self.pos += 1;
        let Some(e) = self.peek_char() else {
            return Err(Diagnostic::new(
                self.span(lo, self.pos),
                "incomplete escape sequence".to_string(),
            ));
        };
        self.pos += e.len_utf8();
        let simple = match e {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'f' => Some('\u{c}'),
            'v' => Some('\u{b}'),
            'e' => Some('\u{1b}'),
            '\\' | '"' | '$' | '\'' => Some(e),
            _ => None,
        };
        if let Some(c) = simple {
            return Ok(c);
        }
        // Numeric escapes: up to 2 hex digits after `x`, 4 after `u`, 8 after `U`, 3 octal.
        let (radix, max, first) = match e {
            'x' => (16, 2, None),
            'u' => (16, 4, None),
            'U' => (16, 8, None),
            '0'..='7' => (8, 3, e.to_digit(8)),
            _ => {
                return Err(Diagnostic::new(
                    self.span(lo, self.pos),
                    format!("invalid escape sequence `\\{e}`"),
                ))
            }
        };
        let mut value = first.unwrap_or(0);
        let mut digits = u32::from(first.is_some());
        while digits < max {
            match self.peek_char().and_then(|d| d.to_digit(radix)) {
                Some(d) => {
                    value = value * radix + d;
                    digits += 1;
                    self.pos += 1;
                }
                None => break,
            }
        }
        let sp = self.span(lo, self.pos);
        if digits == 0 {
            return Err(Diagnostic::new(
                sp,
                format!("invalid escape sequence `\\{e}`: no digits follow"),
            ));
        }
        // `\\x80`–`\\xff` and octal escapes above `\\177` are single bytes, not characters.
        let byte = matches!(e, 'x' | '0'..='7') && value >= 0x80;
        match char::from_u32(value) {
            Some(c) if !byte => Ok(c),
            _ => Err(Diagnostic::new(
                sp,
                format!(
                    "not supported yet: the escape `{}`, which is not a Unicode character",
                    &self.src[lo..self.pos]
                ),
            )),
        }
    }

    /// A string literal, `"..."` or `\"\"\"...\"\"\"`. A triple-quoted one is dedented as Julia
    /// dedents it: the longest run of spaces and tabs that starts every line after the first
    /// (not counting lines of only spaces and tabs, except the last) is removed from each line
    /// that starts with it, and a newline right after the opening quotes is dropped.
    fn string(&mut self) -> Tok {
        let lo = self.pos;
        let triple = self.src[self.pos..].starts_with("\"\"\"");
        let indent = if triple {
            self.pos += 3;
            let indent = self.triple_indent();
            if self.peek_char() == Some('\n') {
                self.pos += 1;
                self.skip_indent(&indent);
            }
            indent
        } else {
            self.pos += 1;
            String::new()
        };
        let mut parts = Vec::new();
        let mut cur = String::new();
        loop {
            let Some(c) = self.peek_char() else {
                self.diagnostics.push(Diagnostic::new(
                    self.span(lo, self.pos),
                    "unterminated string literal",
                ));
                break;
            };
            match c {
                '"' if !triple => {
                    self.pos += 1;
                    break;
                }
                '"' if self.src[self.pos..].starts_with("\"\"\"") => {
                    self.pos += 3;
                    break;
                }
                '\\' => {
                    if self.src[self.pos..].starts_with("\\\n") {
                        self.pos += 2;
                    } else {
                        match self.escape() {
                            Ok(e) => cur.push(e),
                            Err(d) => self.diagnostics.push(d),
                        }
                    }
                }
                '$' => {
                    self.pos += 1;
                    if !cur.is_empty() {
                        parts.push(StrPart::Lit(std::mem::take(&mut cur)));
                    }
                    match self.peek_char() {
                        Some('(') => {
                            self.pos += 1;
                            let inner_lo = self.pos;
                            let mut depth = 1;
                            while let Some(c) = self.peek_char() {
                                if c == '(' {
                                    depth += 1;
                                } else if c == ')' {
                                    depth -= 1;
                                    if depth == 0 {
                                        break;
                                    }
                                } else if c == '\n' {
                                    break;
                                } else if c == '"' {
                                    // A nested string literal: skip to its closing quote.
                                    self.pos += 1;
                                    while let Some(d) = self.peek_char() {
                                        self.pos += d.len_utf8();
                                        if d == '\\' {
                                            self.pos +=
                                                self.peek_char().map_or(0, |e| e.len_utf8());
                                        } else if d == '"' || d == '\n' {
                                            break;
                                        }
                                    }
                                    continue;
                                }
                                self.pos += c.len_utf8();
                            }
                            let inner_hi = self.pos;
                            if self.peek_char() == Some(')') {
                                self.pos += 1;
                            } else {
                                self.diagnostics.push(Diagnostic::new(
                                    self.span(inner_lo - 2, self.pos),
                                    "unterminated `$(` in string",
                                ));
                            }
                            parts.push(StrPart::Expr(self.span(inner_lo, inner_hi)));
                        }
                        Some(c) if is_ident_start(c) => {
                            let s = self.pos;
                            while self.peek_char().is_some_and(is_ident_char) {
                                self.pos += self.peek_char().map_or(1, |c| c.len_utf8());
                            }
                            parts.push(StrPart::Ident(
                                sym(&self.src[s..self.pos]),
                                self.span(s, self.pos),
                            ));
                        }
                        _ => {
                            self.diagnostics.push(Diagnostic::new(
                                self.span(self.pos - 1, self.pos),
                                "`$` in a string must be followed by a name or `(`; write `\\$` for a dollar sign",
                            ));
                        }
                    }
                }
                c => {
                    self.pos += c.len_utf8();
                    cur.push(c);
                    if c == '\n' && triple {
                        self.skip_indent(&indent);
                    }
                }
            }
        }
        if !cur.is_empty() || parts.is_empty() {
            parts.push(StrPart::Lit(cur));
        }
        Tok::Str(parts)
    }

    /// The indentation a triple-quoted string (its text starting at `self.pos`) loses from each
    /// line: the longest run of spaces and tabs common to its lines after the first, lines of
    /// only spaces and tabs left out except the one that closes the string.
    fn triple_indent(&self) -> String {
        let rest = &self.src[self.pos..];
        let mut end = rest.len();
        let mut chars = rest.char_indices();
        while let Some((i, c)) = chars.next() {
            if c == '\\' {
                chars.next();
            } else if rest[i..].starts_with("\"\"\"") {
                end = i;
                break;
            }
        }
        let lines: Vec<&str> = rest[..end].split('\n').collect();
        let mut common: Option<&str> = None;
        for (k, line) in lines.iter().enumerate().skip(1) {
            let body = line.trim_start_matches([' ', '\t']);
            if body.is_empty() && k + 1 != lines.len() {
                continue;
            }
            let ws = &line[..line.len() - body.len()];
            common = Some(match common {
                None => ws,
                Some(c) => {
                    let n = c
                        .bytes()
                        .zip(ws.bytes())
                        .take_while(|(a, b)| a == b)
                        .count();
                    &c[..n]
                }
            });
        }
        common.unwrap_or("").to_string()
    }

    /// Skips `indent` if the text at `self.pos` starts with it.
    fn skip_indent(&mut self, indent: &str) {
        if !indent.is_empty() && self.src[self.pos..].starts_with(indent) {
            self.pos += indent.len();
        }
    }

    fn op(&mut self) -> Tok {
        let rest = &self.src[self.pos..];
        for op in OPS {
            if rest.starts_with(op) {
                self.pos += op.len();
                return Tok::Op(op);
            }
        }
        let c = rest.chars().next().unwrap_or(' ');
        self.pos += c.len_utf8().max(1);
        Tok::Error(format!("unexpected character `{c}`"))
    }
}

/// Whether a token ends a value, so that a following `'` is a postfix adjoint and a following
/// `.5` is not a number.
fn ends_value(t: &Tok) -> bool {
    matches!(
        t,
        Tok::Int(_)
            | Tok::Float(_)
            | Tok::Float32(_)
            | Tok::UInt(..)
            | Tok::Ident(_)
            | Tok::Str(_)
            | Tok::Char(_)
            | Tok::Op(")")
            | Tok::Op("]")
            | Tok::Op("}")
            | Tok::Op("'")
            | Tok::Keyword(Kw::End | Kw::True | Kw::False | Kw::Nothing)
    )
}

pub fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic() || (!c.is_ascii() && is_math_letter(c))
}

pub fn is_ident_char(c: char) -> bool {
    is_ident_start(c)
        || c.is_ascii_digit()
        || c == '′'
        || ('₀'..='₉').contains(&c)
        || ('\u{0300}'..='\u{036F}').contains(&c)
}

fn is_math_letter(c: char) -> bool {
    // Greek letters are alphabetic already; accept a few symbols Julia treats as identifiers.
    matches!(c, '∇' | '∂' | 'ℓ')
}
