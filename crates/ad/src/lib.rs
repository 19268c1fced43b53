//! Algorithmic differentiation. This crate holds the tangent system (types in
//! `ir::tangent`, values and their operations here); the rule registry and the reverse- and
//! forward-mode transforms of typed IR build on it (see docs/ad-design.md).

pub mod tangent;

pub use tangent::{
    add_to_primal, difference, dot, fdata, increment, no_tangent, random_tangent, rdata, scale,
    tangent_approx_eq, tangent_from, zero_tangent,
};
