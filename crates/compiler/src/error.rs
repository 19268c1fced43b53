//! Compile errors: typed, with the source span they are about.

use syntax::Span;

#[derive(Debug, Clone, PartialEq, Eq, Copy)]
pub enum ErrorKind {
    /// The parser reported a problem.
    Syntax,
    /// A construct that is valid Julia but outside the supported subset.
    Unsupported,
    /// A construct that is invalid (e.g. `break` outside a loop).
    Invalid,
    /// A type name that is not defined.
    UndefType,
    /// Inference could not finish (e.g. unbounded recursion of signatures).
    Inference,
    /// A broken invariant of mooncake itself (IR that does not verify): a bug, not the
    /// program's mistake.
    Internal,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}")]
pub struct CompileError {
    pub kind: ErrorKind,
    pub message: String,
    pub span: Span,
    /// Where the error arose, innermost first, as (function, span) pairs through inlined and
    /// called functions (empty: just `span`).
    pub trace: Vec<(String, Span)>,
}

impl CompileError {
    pub fn new(kind: ErrorKind, span: Span, message: impl Into<String>) -> CompileError {
        CompileError {
            kind,
            message: message.into(),
            span,
            trace: Vec::new(),
        }
    }
    pub fn unsupported(span: Span, what: &str) -> CompileError {
        CompileError::new(
            ErrorKind::Unsupported,
            span,
            format!("not supported yet: {what}"),
        )
    }
    pub fn invalid(span: Span, message: impl Into<String>) -> CompileError {
        CompileError::new(ErrorKind::Invalid, span, message)
    }
}

/// Something legal but likely unintended, reported as Julia reports it, without stopping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub message: String,
    pub span: Span,
}

impl Warning {
    /// Julia's warning for a loop at top level that assigns a name a global already has: in a
    /// file the assignment makes a local of the loop, leaving the global unchanged.
    pub fn ambiguous_soft_scope(name: syntax::Symbol, span: Span) -> Warning {
        Warning {
            message: format!(
                "Assignment to `{name}` in soft scope is ambiguous because a global variable by \
                 the same name exists: `{name}` will be treated as a new local. Disambiguate by \
                 using `local {name}` to suppress this warning or `global {name}` to assign to \
                 the existing global variable."
            ),
            span,
        }
    }
}
