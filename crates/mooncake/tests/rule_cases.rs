//! Every differentiable primitive has test cases in `crates/ad-transform/src/rules/`, and each passes
//! `test_rule` (interface, finite differences, increments, restoration, reuse).

use ad_rules::{cases, is_differentiable};
use ir::Prim;
use mooncake::Session;

mod ad_rules {
    pub use mooncake::ad_rules::*;
}

#[test]
fn every_differentiable_primitive_has_cases() {
    let missing: Vec<&str> = Prim::ALL
        .iter()
        .filter(|p| is_differentiable(**p) && !cases().any(|c| c.0 == **p))
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
    for (p, defs, call) in cases() {
        let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
        s.set_verify(true);
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

/// The gradients of `call` (after `defs`) in the default and the minimal context, each
/// passing `test_rule`; the pullback of `marker.0` uses primitive `marker.1` in the default
/// context only (the rule in use). Problems go to `failures`.
fn in_both_contexts(
    defs: &str,
    call: &str,
    marker: (&str, &str),
    failures: &mut Vec<String>,
) -> [Vec<mooncake::Value>; 2] {
    use ad_rules::Context;
    [Context::Default, Context::Minimal].map(|ctx| {
        let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
        s.set_verify(true);
        s.set_ad_context(ctx);
        s.load_source("rule.jl", defs).expect("case loads");
        let (mcall, prim) = marker;
        let ir = s.ir(mcall, mooncake::Stage::Pullback).expect("pullback IR");
        if ir.contains(prim) != (ctx == Context::Default) {
            failures.push(format!("{mcall} ({ctx:?}): {prim} use wrong:\n{ir}"));
        }
        match s.test_rule(call) {
            Ok(r) if r.passed() => {}
            Ok(r) => failures.push(format!("{call} ({ctx:?}):\n{}", r.render())),
            Err(e) => failures.push(format!("{call}: {}", s.render_error(&e))),
        }
        s.gradient_of_call(call).expect("gradient").1
    })
}

/// The default context's speed-only rules: each case passes `test_rule` with the rule in use
/// (its pullback contains the rule's primitive), and gives the same gradient as the minimal
/// context, which differentiates the prelude code instead.
#[test]
fn default_context_rules_pass_test_rule_and_agree_with_minimal() {
    use ad_rules::{FastRule, FAST_CASES};
    let mut failures = Vec::new();
    for rule in [FastRule::Sum, FastRule::Dot] {
        assert!(
            FAST_CASES.iter().any(|c| c.0 == rule),
            "{rule:?} has no test case"
        );
    }
    for (rule, defs, call) in FAST_CASES {
        let marker = match rule {
            FastRule::Sum => "array_add_scalar",
            FastRule::Dot => "array_axpy",
        };
        let grads = in_both_contexts(defs, call, (call, marker), &mut failures)
            .map(|g| g.iter().map(mooncake::show).collect::<Vec<_>>());
        if grads[0] != grads[1] {
            failures.push(format!(
                "{rule:?} {call}: default {:?} vs minimal {:?}",
                grads[0], grads[1]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The default context's rule for broadcasts: each case passes `test_rule` with the rule in
/// use (the broadcast loop's pullback multiplies by the elements' partials, `array_muladd`)
/// and without it (the minimal context differentiates the loop), and both give the same
/// gradient up to rounding (the rule multiplies the partials in another order).
#[test]
fn broadcast_rule_passes_test_rule_and_agrees_with_minimal() {
    use ad_rules::BROADCAST_CASES;
    let floats = |v: &mooncake::Value| -> Vec<f64> {
        match v {
            mooncake::Value::F64(x) => vec![*x],
            mooncake::Value::F32(x) => vec![*x as f64],
            mooncake::Value::Array(a) => (0..a.len())
                .filter_map(|k| match a.get(k) {
                    Some(mooncake::Value::F64(x)) => Some(x),
                    Some(mooncake::Value::F32(x)) => Some(x as f64),
                    _ => None,
                })
                .collect(),
            _ => vec![],
        }
    };
    let mut failures = Vec::new();
    for (defs, call, loop_call) in BROADCAST_CASES {
        let grads = in_both_contexts(defs, call, (loop_call, "array_muladd"), &mut failures)
            .map(|g| g.iter().flat_map(floats).collect::<Vec<f64>>());
        // (Single precision keeps about 7 digits.)
        let tol = if call.contains("Float32") || defs.contains("Float32") {
            1e-5
        } else {
            1e-12
        };
        let close = grads[0].len() == grads[1].len()
            && grads[0]
                .iter()
                .zip(&grads[1])
                .all(|(a, b)| (a - b).abs() <= tol * (1.0 + b.abs()));
        if !close || grads[0].is_empty() {
            failures.push(format!("{call}: default and minimal gradients differ"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
