//! The AD runtime: tangent values and their operations (tangent types are in
//! `ir::tangent`), the cache of derived rules (derived by `ad_transform` on first use),
//! running rules on values, dynamic calls' rules, second order, Jacobians and `test_rule`
//! (see docs/ad-design.md).

pub mod api;
pub mod dynamic;
pub mod jacobian;
pub mod second;
pub mod tangent;
pub mod testing;
pub mod user_rules;

pub use ad_transform::{derive_reverse, rules, AdError, Context, Derived, Mode, RuleOptions};
pub use api::{
    check_fixed_arguments, gradient_by_lanes, input_directions, method_instance, run_dual,
    run_pullback, run_pullback_in, value_and_derivative, value_and_gradient,
    value_and_gradient_forward, value_and_pullback, Ad, LaneReuse, Plan, Reuse, Rule,
};
pub use api::{new_state, DerivedFrom, AD_DEFINITIONS};
pub use jacobian::{value_and_jacobian_forward, value_and_jacobian_reverse, Jacobian};
pub use second::{gradient_and_hvps, value_gradient_and_hessian, Hessian, Hvps};
pub use tangent::{
    add_to_primal, difference, dot, fdata, increment, no_tangent, random_tangent, rdata, scale,
    tangent_approx_eq, tangent_from, zero_tangent,
};
pub use testing::{test_rule, RuleReport, TestOptions};
