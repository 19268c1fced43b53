//! Every differentiable primitive has test cases in `crates/ad/src/rules.rs`, and each passes
//! `test_rule` (interface, finite differences, increments, restoration, reuse).

use ad_rules::{is_differentiable, CASES};
use ir::Prim;
use mooncake::Session;

mod ad_rules {
    pub use mooncake::ad_rules::*;
}

#[test]
fn every_differentiable_primitive_has_cases() {
    let missing: Vec<&str> = Prim::ALL
        .iter()
        .filter(|p| is_differentiable(**p) && !CASES.iter().any(|c| c.0 == **p))
        .map(|p| p.name())
        .collect();
    assert!(
        missing.is_empty(),
        "primitives without rule test cases: {missing:?}"
    );
}

#[test]
fn rule_cases_pass_test_rule() {
    let mut failures = Vec::new();
    for (p, defs, call) in CASES {
        let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
        s.compiler().options.verify = true;
        if let Err(e) = s.load_source("rule.jl", defs) {
            failures.push(format!("{}: {}", p.name(), s.render_error(&e)));
            continue;
        }
        match s.test_rule(call) {
            Ok(r) if r.passed() => {}
            Ok(r) => failures.push(format!("{} {call}:\n{}", p.name(), r.render())),
            Err(e) => failures.push(format!("{} {call}: {}", p.name(), s.render_error(&e))),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
