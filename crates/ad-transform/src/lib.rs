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
pub mod user_rule;

pub use error::AdError;
pub use forward::{derive_forward, tangent_of, MAX_WIDTH};
pub use options::{DerivedKey, DualCallKind, DualCallOp, Mode, RuleOptions};
pub use reverse::{derive_reverse, rule_state_type, Derived};
pub use rules::Context;

/// Why a `new` that leaves fields undefined cannot be differentiated.
pub(crate) const UNDEFINED_FIELDS: &str = "differentiating a struct built by `new` with a field left undefined that would hold floats (a tuple or immutable struct with floats beside arrays or references) is not supported yet";

/// Whether a `new` of `ty` (operands `args`, typed by `ty_of`) can be differentiated: every
/// field it leaves `#undef` (an operand of type `Union{}`) carries no reverse data, so its
/// tangent can be `#undef` too until the field is assigned.
pub(crate) fn undefined_fields_ok(
    env: &ir::TypeEnv,
    ty: &ir::Type,
    args: &[ir::Value],
    ty_of: impl Fn(ir::Value) -> ir::Type,
) -> bool {
    let fts = env.field_types(ty).unwrap_or_default();
    args.iter().enumerate().all(|(k, a)| {
        ty_of(*a) != ir::Type::Bottom
            || fts
                .get(k)
                .is_some_and(|ft| ir::tangent::rdata_type(ft, env) == ir::Type::NoRData)
    })
}
