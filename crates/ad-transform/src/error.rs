//! Errors of the AD transform.

use syntax::Span;

/// An error of the AD transform: what is not supported (or has no rule) and where.
#[derive(Debug, Clone, PartialEq)]
pub struct AdError {
    pub message: String,
    pub span: Span,
    /// (function, span) pairs from `span` outwards through inlined and calling functions, to
    /// the function being differentiated (empty when only `span` is known).
    pub trace: Vec<(String, Span)>,
    /// A broken invariant of mooncake itself (a bug), not a limitation or the program's error.
    pub internal: bool,
}

impl AdError {
    pub fn new(message: impl Into<String>, span: Span) -> AdError {
        AdError {
            message: message.into(),
            span,
            trace: Vec::new(),
            internal: false,
        }
    }

    /// A bug in mooncake found while differentiating at `span`.
    pub fn internal(message: impl Into<String>, span: Span) -> AdError {
        AdError {
            internal: true,
            ..AdError::new(message, span)
        }
    }

    /// A compile error met while deriving (internal if the compiler says so).
    pub fn from_compile(e: compiler::CompileError) -> AdError {
        AdError {
            internal: e.kind == compiler::ErrorKind::Internal,
            message: e.message,
            span: e.span,
            trace: e.trace,
        }
    }
}

impl std::fmt::Display for AdError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}
