//! Algorithmic differentiation. This crate holds the tangent system (types in
//! `ir::tangent`, values and their operations here); the rule registry and the reverse- and
//! forward-mode transforms of typed IR build on it (see docs/ad-design.md).

pub mod api;
pub mod dynamic;
pub mod emit;
pub mod forward;
pub mod jacobian;
pub mod reverse;
pub mod rules;
pub mod second;
pub mod tangent;
pub mod testing;

pub use api::{
    gradient_by_lanes, input_directions, method_instance, run_dual, run_pullback, run_pullback_in,
    value_and_derivative, value_and_gradient, value_and_gradient_forward, value_and_pullback, Ad,
    Plan, Reuse, Rule, RuleOptions,
};
pub use jacobian::{value_and_jacobian_forward, value_and_jacobian_reverse, Jacobian};
pub use reverse::{derive_reverse, new_state, AdError, Derived, Mode};
pub use second::{gradient_and_hvps, value_gradient_and_hessian, Hessian, Hvps};
pub use tangent::{
    add_to_primal, difference, dot, fdata, increment, no_tangent, random_tangent, rdata, scale,
    tangent_approx_eq, tangent_from, zero_tangent,
};
pub use testing::{test_rule, RuleReport};
