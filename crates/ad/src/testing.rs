//! `test_rule`: checks a reverse-mode rule's interface, its correctness against
//! central finite differences, that the pullback increments (does not overwrite) cotangents,
//! that arguments are restored after the forwards pass and pullback, and that reusing the rule
//! gives the same answers; and the forward-mode rule's interface, its correctness against the
//! same finite differences, its lanes (an N-lane run gives each lane's one-lane answer), and
//! that forward and reverse mode agree with each other.

use crate::api::{method_instance, run_dual, run_pullback, run_pullback_with, Ad};
use crate::tangent::{
    add_to_primal, difference, dot, fdata, increment, random_tangent, scale, tangent_approx_eq,
};
use ad_transform::AdError;
use interp::Machine;
use ir::{Type, TypeEnv};
use rand::{rngs::StdRng, SeedableRng};
use runtime::show::show_string;
use runtime::Value;

/// The outcome of each check.
#[derive(Debug, Clone)]
pub struct RuleReport {
    pub checks: Vec<(&'static str, Result<String, String>)>,
}

impl RuleReport {
    pub fn passed(&self) -> bool {
        self.checks.iter().all(|(_, r)| r.is_ok())
    }

    /// One line per check: `ok   name: detail` or `FAIL name: reason`.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for (name, r) in &self.checks {
            match r {
                Ok(d) => out.push_str(&format!("ok   {name}: {d}\n")),
                Err(e) => out.push_str(&format!("FAIL {name}: {e}\n")),
            }
        }
        out
    }
}

/// Copies of the arguments sharing no mutable memory with them (the rule may mutate its
/// inputs); aliasing among the arguments is kept.
fn fresh(vs: &[Value]) -> Vec<Value> {
    match Value::tuple(vs.to_vec()).deepcopy() {
        Value::Tuple(t) => t.to_vec(),
        _ => unreachable!("the deep copy of a tuple is a tuple"),
    }
}

fn call(m: &mut Machine, all: &[Value]) -> Result<Value, AdError> {
    m.call_dynamic(all.to_vec())
        .map_err(crate::api::runtime_error)
}

/// Which checks `test_rule` runs, and the finite differences' tolerances.
#[derive(Debug, Clone, Copy)]
pub struct TestOptions {
    /// Check the reverse-mode rule.
    pub reverse: bool,
    /// Check the forward-mode rule.
    pub forward: bool,
    /// Check interfaces only (types, restored arguments, increments, reuse), not derivatives.
    pub interface_only: bool,
    /// A derivative agrees with finite differences within `atol + rtol * magnitude`.
    pub atol: f64,
    pub rtol: f64,
}

impl Default for TestOptions {
    fn default() -> Self {
        TestOptions {
            reverse: true,
            forward: true,
            interface_only: false,
            atol: 1e-3,
            rtol: 1e-3,
        }
    }
}

/// Runs the checks `opts` selects on the rules of `f(args...)`.
pub fn test_rule(
    m: &mut Machine,
    ad: &Ad,
    f: &Value,
    args: &[Value],
    seed: u64,
    opts: TestOptions,
) -> Result<RuleReport, AdError> {
    let env = m.compiler.env.clone();
    let key = method_instance(m, f, args)?;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut all = vec![f.clone()];
    all.extend(fresh(args));
    let y0 = call(m, &fresh(&all))?;
    let dy = random_tangent(&y0, &env, &mut rng);
    let dx: Vec<Value> = all
        .iter()
        .map(|x| random_tangent(x, &env, &mut rng))
        .collect();
    let mut checker = Checker {
        m,
        ad,
        key: &key,
        all: &all,
        y0: &y0,
        dx: &dx,
        dy: &dy,
        fds: FiniteDifferences {
            steps: Vec::new(),
            atol: opts.atol,
            rtol: opts.rtol,
        },
        opts,
        rng,
        checks: Vec::new(),
    };
    let ad_val = if opts.reverse {
        checker.reverse()?
    } else {
        None
    };
    if opts.forward {
        checker.forward(ad_val)?;
    }
    Ok(RuleReport {
        checks: checker.checks,
    })
}

/// What the checks of both modes share: the call (`all`, the function first) and its value,
/// the random directions, the finite differences (computed once per step), the options, and
/// the checks made so far.
struct Checker<'a> {
    m: &'a mut Machine,
    ad: &'a Ad,
    key: &'a compiler::MiKey,
    all: &'a [Value],
    y0: &'a Value,
    dx: &'a [Value],
    dy: &'a Value,
    fds: FiniteDifferences,
    opts: TestOptions,
    rng: StdRng,
    checks: Vec<(&'static str, Result<String, String>)>,
}

impl Checker<'_> {
    /// The reverse-mode rule's checks; ⟨J'ȳ, ẋ⟩ by its pullback, unless interfaces only.
    fn reverse(&mut self) -> Result<Option<f64>, AdError> {
        let Checker {
            m,
            ad,
            key,
            all,
            y0,
            dx,
            dy,
            fds,
            opts,
            rng,
            checks,
        } = self;
        let env = m.compiler.env.clone();
        let rule = ad.rule(&mut m.compiler, key)?;
        let f = &all[0];

        // Arguments restored after the forwards pass and pullback.
        let before: Vec<String> = all.iter().map(show_string).collect();
        let (y, grads) = run_pullback(m, &rule, f, &all[1..], Some(dy.clone()))?;
        let all = all.to_vec();
        let after: Vec<String> = all.iter().map(show_string).collect();
        checks.push((
            "restores arguments",
            if before == after {
                Ok("arguments hold their original values after forwards pass + pullback".into())
            } else {
                Err(format!(
                    "before: {}\nafter:  {}",
                    before.join(", "),
                    after.join(", ")
                ))
            },
        ));

        // Interface: value and tangent types.
        let mut iface = Ok(format!(
            "value {} and tangents of the expected types",
            show_string(&y)
        ));
        if show_string(&y) != show_string(y0) {
            iface = Err(format!(
                "the rule's value {} differs from the primal's {}",
                show_string(&y),
                show_string(y0)
            ));
        }
        for (k, (x, g)) in all.iter().zip(grads.iter()).enumerate() {
            let want = ir::tangent::tangent_type(&x.ty(), &env);
            if want != ir::Type::Any && g.ty() != want {
                iface = Err(format!("tangent {k} has type {}, expected {want}", g.ty()));
            }
        }
        checks.push(("interface", iface));

        // Correctness: ⟨ȳ, J ẋ⟩ by central differences against ⟨J'ȳ, ẋ⟩ from the pullback.
        let ad_val: f64 = grads.iter().zip(dx.iter()).map(|(g, d)| dot(g, d)).sum();
        if !opts.interface_only {
            checks.push(("finite differences", fds.check(m, &all, dx, dy, ad_val)?));
        }

        // Increment, not overwrite: start the pullback from non-zero fdata.
        let init: Vec<Value> = all
            .iter()
            .map(|x| fdata(&random_tangent(x, &env, rng), &x.ty(), &env))
            .collect();
        let init_copy: Vec<Value> = init.iter().map(|t| scale(1.0, t)).collect();
        let args2 = fresh(&all);
        let (_, grads2) = run_pullback_with(m, &rule, &args2, init, Some(dy.clone()))?;
        let mut inc = Ok("the pullback adds to existing cotangents".to_string());
        for (k, ((x, g), (g2, i0))) in all
            .iter()
            .zip(grads.iter())
            .zip(grads2.iter().zip(init_copy.iter()))
            .enumerate()
        {
            let xt = x.ty();
            let want = increment(&scale(1.0, i0), &fdata(g, &xt, &env));
            let got = fdata(g2, &xt, &env);
            // Only rounding may differ (summation order), which is larger for Float32 tangents;
            // overwriting instead of incrementing is off by the initial fdata, of order one.
            let tol = if mentions_f32(&xt, &env, 0) {
                1e-5
            } else {
                1e-10
            };
            if !tangent_approx_eq(&got, &want, tol, tol) {
                let shown = [got.clone(), want.clone()];
                let (got, want) = runtime::show::in_program_scope(&shown, &env, || {
                    (show_string(&got), show_string(&want))
                });
                inc = Err(format!(
                    "argument {k}: fdata after the pullback is {got}, expected {want}"
                ));
            }
        }
        checks.push(("increments", inc));

        // Reuse: the same rule again gives the same answers.
        let (_, grads3) = run_pullback(m, &rule, f, &fresh(&all[1..]), Some(dy.clone()))?;
        let same = grads
            .iter()
            .zip(grads3.iter())
            .all(|(a, b)| tangent_approx_eq(a, b, 0.0, 0.0));
        checks.push((
            "reuse",
            if same {
                Ok("a second run gives identical tangents".into())
            } else {
                Err("a second run of the rule gave different tangents".into())
            },
        ));
        Ok((!opts.interface_only).then_some(ad_val))
    }

    /// The forward-mode rule's checks, and its agreement with reverse mode's ⟨J'ȳ, ẋ⟩ when
    /// that was computed.
    fn forward(&mut self, ad_val: Option<f64>) -> Result<(), AdError> {
        let Checker {
            m,
            ad,
            key,
            all,
            y0,
            dx,
            dy,
            fds,
            opts,
            rng,
            checks,
        } = self;
        let env = m.compiler.env.clone();
        // Forward mode: the rule's value and tangent type, ⟨ȳ, ẏ⟩ against finite differences and
        // against reverse mode's ⟨J'ȳ, ẋ⟩, and an N-lane run against one-lane runs.
        let code = ad.dual_rule(&mut m.compiler, key, 1)?;
        let copies = |ts: &[Value]| -> Vec<Value> { ts.iter().map(|t| scale(1.0, t)).collect() };
        let (yf, ty) = run_dual(m, &code, &fresh(all), &[copies(dx)])?;
        let ty = ty
            .into_iter()
            .next()
            .unwrap_or_else(crate::tangent::no_tangent);
        let want = ir::tangent::tangent_type(&yf.ty(), &env);
        checks.push((
            "forward interface",
            if show_string(&yf) != show_string(y0) {
                Err(format!(
                    "the forward rule's value {} differs from the primal's {}",
                    show_string(&yf),
                    show_string(y0)
                ))
            } else if want != Type::Any && ty.ty() != want {
                Err(format!(
                    "the output's tangent has type {}, expected {want}",
                    ty.ty()
                ))
            } else {
                Ok(format!(
                    "value {} and a tangent of type {want}",
                    show_string(&yf)
                ))
            },
        ));
        if opts.interface_only {
            return Ok(());
        }
        let fwd_val = dot(dy, &ty);
        checks.push((
            "forward finite differences",
            fds.check(m, all, dx, dy, fwd_val)?,
        ));
        // Both are exact up to rounding, which differs between the modes (summation order, and
        // `Float32` intermediates rounding tangents in one mode and cotangents in the other).
        let tol = if mentions_f32(&yf.ty(), &env, 0)
            || all.iter().any(|x| mentions_f32(&x.ty(), &env, 0))
        {
            1e-4
        } else {
            1e-6
        };
        if let Some(ad_val) = ad_val {
            checks.push((
                "forward and reverse agree",
                if (fwd_val - ad_val).abs() <= tol * (1.0 + fwd_val.abs().max(ad_val.abs())) {
                    Ok(format!(
                        "⟨ȳ, J ẋ⟩ = {fwd_val} (forward), ⟨J'ȳ, ẋ⟩ = {ad_val} (reverse)"
                    ))
                } else {
                    Err(format!(
                    "⟨ȳ, J ẋ⟩ = {fwd_val} by forward mode but ⟨J'ȳ, ẋ⟩ = {ad_val} by reverse mode"
                ))
                },
            ));
        }
        let dx2: Vec<Value> = all.iter().map(|x| random_tangent(x, &env, rng)).collect();
        let (_, ty2) = run_dual(m, &code, &fresh(all), &[copies(&dx2)])?;
        let code3 = ad.dual_rule(&mut m.compiler, key, 3)?;
        let (_, t3) = run_dual(
            m,
            &code3,
            &fresh(all),
            &[copies(dx), copies(&dx2), copies(dx)],
        )?;
        let lane_ok = |a: &Value, b: Option<&Value>| {
            b.is_some_and(|b| tangent_approx_eq(a, b, 1e-12, 1e-300))
        };
        checks.push((
            "forward lanes",
            if lane_ok(&ty, t3.first()) && lane_ok(&ty2[0], t3.get(1)) && lane_ok(&ty, t3.get(2)) {
                Ok("a 3-lane run gives each lane's one-lane tangent".into())
            } else {
                Err("a 3-lane run's tangents differ from one-lane runs".into())
            },
        ));
        Ok(())
    }
}

/// Central differences `⟨ȳ, (f(x + hẋ) − f(x − hẋ)) / 2h⟩` at steps 1e-2 … 1e-8, computed once
/// per step and shared by the checks of both modes.
struct FiniteDifferences {
    steps: Vec<(f64, f64)>,
    atol: f64,
    rtol: f64,
}

impl FiniteDifferences {
    fn at(
        &mut self,
        k: usize,
        m: &mut Machine,
        all: &[Value],
        dx: &[Value],
        dy: &Value,
    ) -> Result<(f64, f64), AdError> {
        const STEPS: [f64; 7] = [1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8];
        while self.steps.len() <= k {
            let h = STEPS[self.steps.len()];
            let shifted = |s: f64| -> Vec<Value> {
                all.iter()
                    .zip(dx.iter())
                    .map(|(x, d)| add_to_primal(x, &scale(s, d)))
                    .collect()
            };
            let env = m.compiler.env.clone();
            let yp = call(m, &shifted(h))?;
            let ym = call(m, &shifted(-h))?;
            self.steps
                .push((h, dot(dy, &difference(&yp, &ym, &env)) / (2.0 * h)));
        }
        Ok(self.steps[k])
    }

    /// Whether some step agrees with `ad_val` within the tolerances.
    fn check(
        &mut self,
        m: &mut Machine,
        all: &[Value],
        dx: &[Value],
        dy: &Value,
        ad_val: f64,
    ) -> Result<Result<String, String>, AdError> {
        let mut best = f64::INFINITY;
        for k in 0..7 {
            let (h, fd) = self.at(k, m, all, dx, dy)?;
            let e = (fd - ad_val).abs();
            best = best.min(e);
            if e <= self.atol + self.rtol * fd.abs().max(ad_val.abs()) {
                return Ok(Ok(format!("agrees at step {h:e}: fd {fd} vs ad {ad_val}")));
            }
        }
        let tols = if self.atol == self.rtol {
            format!("rtol = atol = {:e}", self.atol)
        } else {
            format!("atol = {:e}, rtol = {:e}", self.atol, self.rtol)
        };
        Ok(Err(format!(
            "no step from 1e-2 to 1e-8 agrees to {tols} (ad {ad_val}, closest difference {best})"
        )))
    }
}

/// Whether a value of type `t` holds `Float32`s (whose rounding the increment check allows).
fn mentions_f32(t: &Type, env: &TypeEnv, depth: usize) -> bool {
    if depth > 16 {
        return false;
    }
    match t {
        Type::Float32 => true,
        Type::Array(e, _) => mentions_f32(e, env, depth + 1),
        Type::Tuple(ts) | Type::NamedTuple(_, ts) => {
            ts.iter().any(|t| mentions_f32(t, env, depth + 1))
        }
        Type::Struct(..) => env
            .field_types(t)
            .is_some_and(|fs| fs.iter().any(|f| mentions_f32(f, env, depth + 1))),
        _ => false,
    }
}
