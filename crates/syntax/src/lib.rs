//! Front end of the mooncake Julia subset: lexing and parsing into an AST with spans.
//!
//! Parsing never fails: [`parse_file`] returns the tree together with diagnostics, and every
//! malformed region is an [`ast::ExprKind::Error`] node.

pub mod ast;
pub mod lexer;
pub mod parser;
pub mod sexpr;
pub mod span;
pub mod symbol;

pub use parser::{parse_expr_str, parse_file};
pub use span::{Diagnostic, FileId, LineIndex, Span};
pub use symbol::{sym, Symbol};
