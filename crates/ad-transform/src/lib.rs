//! The AD transform: from the typed IR of a method instance, the reverse-mode rule (a
//! forwards pass and a pullback) and the forward-mode rule, both typed IR; the rule registry
//! they consult for primitives and the default context's array functions. It knows IR and the
//! compiler's types only: running derived code is the AD runtime's job (see
//! docs/ad-design.md).

pub mod emit;
pub mod error;
pub mod forward;
pub mod options;
pub mod reverse;
pub mod rules;

pub use error::AdError;
pub use forward::{derive_forward, MAX_WIDTH};
pub use options::{DerivedKey, DualCallKind, DualCallOp, Mode, RuleOptions};
pub use reverse::{derive_reverse, rule_state_type, Derived};
pub use rules::Context;

/// Why a `new` that leaves fields undefined cannot be differentiated.
pub(crate) const UNDEFINED_FIELDS: &str = "differentiating a struct built by `new` with fields left undefined (fewer values than fields) is not supported yet";
