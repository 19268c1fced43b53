//! Rules of the program's own primitives (`@is_primitive`, `@zero_adjoint`,
//! `@zero_derivative`): the derived functions of a matching call run the program's `rrule!!` or
//! `frule!!` (or a zero derivative) through the prelude's adapters. This module resolves and
//! infers the adapters' calls; `ad_transform::user_rule` builds the functions around them.

use crate::api::Rule;
use ad_transform::user_rule::{self, AdapterCall};
use ad_transform::{AdError, Context, RuleOptions};
use compiler::user_rules::RuleKind;
use compiler::{Compiler, MiKey};
use ir::function::Callee;
use ir::tangent::{fdata_type, rdata_type};
use ir::{Const, Type};
use std::sync::Arc;
use syntax::sym;

/// The argument types of the call a method instance stands for: the instance's, with the
/// tuple a vararg method collects its last arguments in spread out; and whether it was.
fn call_signature(compiler: &Compiler, key: &MiKey) -> (Vec<Type>, bool) {
    let mut sig = key.sig.to_vec();
    let packed = compiler
        .method(key.table, key.method)
        .is_some_and(|m| m.vararg);
    if packed {
        if let Some(Type::Tuple(ts)) = sig.pop() {
            sig.extend(ts.iter().cloned());
        }
    }
    (sig, packed)
}

/// The declaration that makes `key` a primitive of the program's in this context and mode:
/// the kind of its rule.
fn declared(
    compiler: &Compiler,
    key: &MiKey,
    opts: RuleOptions,
    reverse: bool,
) -> Option<RuleKind> {
    let minimal = opts.context == Context::Minimal;
    let (sig, _) = call_signature(compiler, key);
    compiler
        .user_primitive(minimal, reverse, &sig)
        .map(|u| u.kind)
}

/// The prelude function an adapter calls as the rule of a declared call in a mode: the
/// program's `rrule!!`/`frule!!` (which `@from_rrule` and `@from_chainrules` define), or the
/// zero rules.
fn rule_function(kind: RuleKind, reverse: bool) -> syntax::Symbol {
    sym(match (kind, reverse) {
        (RuleKind::Own, true) => "rrule!!",
        (RuleKind::Own, false) => "frule!!",
        (RuleKind::Zero, true) => "zero_adjoint",
        (RuleKind::Zero, false) => "zero_derivative",
    })
}

/// Where the program defined the method a call of rule function `table` on values of types
/// `args` (the function's first) runs: the derived rule's instructions carry it, so that an
/// error in what the rule returned shows the rule's definition above the call site.
fn rule_definition(compiler: &Compiler, table: syntax::Symbol, args: &[Type]) -> syntax::Span {
    let mut all = vec![Type::Function(table)];
    all.extend(args.iter().cloned());
    match compiler.dispatch(table, &all) {
        compiler::Dispatch::Found { index, .. } => compiler
            .method(table, index)
            .filter(|m| !m.in_prelude)
            .map_or(syntax::Span::DUMMY, |m| m.span),
        _ => syntax::Span::DUMMY,
    }
}

/// Resolves and infers a call of the prelude function `name` on `consts` (constant
/// arguments) then values of types `rest`.
fn adapter(
    compiler: &mut Compiler,
    name: &str,
    consts: Vec<Const>,
    rest: &[Type],
) -> Result<AdapterCall, AdError> {
    let table = sym(name);
    let mut args = vec![Type::Function(table)];
    args.extend(consts.iter().map(|c| c.ty()));
    args.extend(rest.iter().cloned());
    let mi = compiler.resolve_call(table, &args).map_err(|d| {
        AdError::internal(
            format!("the rule adapter `{name}` has no method for {args:?}: {d:?}"),
            syntax::Span::DUMMY,
        )
    })?;
    let ret = compiler.infer_mi(&mi).map_err(AdError::from_compile)?;
    let pack = compiler
        .method(mi.table, mi.method)
        .filter(|m| m.vararg)
        .map(|m| m.sig.len() - 1);
    Ok(AdapterCall {
        callee: Callee {
            func: mi.table,
            method: mi.method,
            sig: mi.sig,
        },
        consts,
        ret,
        pack,
    })
}

/// The struct type `name{x, t}` (`CoDual`, `Dual`).
fn pair_type(name: &str, x: &Type, t: &Type) -> Type {
    Type::structure(name, vec![x.clone(), t.clone()])
}

/// The reverse-mode rule of `key` when the program declared it a primitive.
pub fn reverse_rule(
    compiler: &mut Compiler,
    key: &MiKey,
    opts: RuleOptions,
) -> Result<Option<Rule>, AdError> {
    let Some(kind) = declared(compiler, key, opts, true) else {
        return Ok(None);
    };
    let env = compiler.env.clone();
    let y = compiler.infer_mi(key).map_err(AdError::from_compile)?;
    let (fy, ry) = (fdata_type(&y, &env), rdata_type(&y, &env));
    let sig: Vec<Type> = key.sig.to_vec();
    let fdata: Vec<Type> = sig.iter().map(|t| fdata_type(t, &env)).collect();
    let rdata: Vec<Type> = sig.iter().map(|t| rdata_type(t, &env)).collect();
    let (flat, packed) = call_signature(compiler, key);
    let flat_rdata: Vec<Type> = flat.iter().map(|t| rdata_type(t, &env)).collect();
    let coduals: Vec<Type> = flat
        .iter()
        .map(|t| pair_type("CoDual", t, &fdata_type(t, &env)))
        .collect();
    let rule_fn = rule_function(kind, true);
    let fwd = adapter(
        compiler,
        "_user_rrule_fwd",
        vec![
            Const::Func(rule_fn),
            Const::Type(y.clone()),
            Const::Type(fy.clone()),
        ],
        &coduals,
    )?;
    let name = key.display();
    let rvs = match &fwd.ret {
        Type::Tuple(ts) if ts.len() == 2 => Some(adapter(
            compiler,
            "_user_rrule_rvs",
            vec![],
            &[
                ts[1].clone(),
                ry.clone(),
                Type::type_of_type(Type::tuple(flat_rdata.clone())),
                Type::tuple(flat_rdata.iter().cloned().map(Type::type_of_type).collect()),
                Type::String,
            ],
        )?),
        _ => None,
    };
    // The pullback adapter's constant (the rdata's type) follows its two values.
    let rvs = rvs.map(|mut a| {
        a.consts = vec![Const::Type(Type::tuple(flat_rdata.clone()))];
        a
    });
    let (f, g) = user_rule::reverse(&user_rule::ReverseRule {
        name: &name,
        sig: &sig,
        fdata: &fdata,
        coduals: &coduals,
        y: &y,
        fy: &fy,
        ry: &ry,
        fwd: &fwd,
        rvs: rvs.as_ref(),
        rdata: &rdata,
        flat_rdata: &flat_rdata,
        loc: rule_definition(compiler, rule_fn, &coduals),
        packed,
        env: &env,
    });
    let fwd = compiler.optimise(f).map_err(AdError::from_compile)?;
    let rvs = compiler.optimise(g).map_err(AdError::from_compile)?;
    Ok(Some(Rule {
        fwd: Arc::new(fwd),
        rvs: Arc::new(rvs),
    }))
}

/// Whether every argument of `sig` is a float or has no tangent, the function has no tangent
/// and the result `y` is a float: forward mode can then run a reverse-mode rule.
fn scalar_signature(sig: &[Type], y: &Type, env: &ir::TypeEnv) -> bool {
    let none = |t: &Type| ad_transform::tangent_of(t, env) == Type::NoTangent;
    y.is_float()
        && sig.first().is_some_and(none)
        && sig[1..].iter().all(|t| t.is_float() || none(t))
}

/// The forward-mode rule of `key` with `width` lanes when the program declared it a
/// primitive: its `frule!!`; without one, when an `rrule!!` applies, forward mode through that
/// rule for a function of floats returning a float, else `None` (through the function's code);
/// with neither, the adapter's call of `frule!!` raises Julia's `MethodError`.
pub fn forward_rule(
    compiler: &mut Compiler,
    key: &MiKey,
    opts: RuleOptions,
    width: usize,
) -> Result<Option<ir::Function>, AdError> {
    let Some(kind) = declared(compiler, key, opts, false) else {
        return Ok(None);
    };
    let env = compiler.env.clone();
    let y = compiler.infer_mi(key).map_err(AdError::from_compile)?;
    let ty = ad_transform::tangent_of(&y, &env);
    let sig: Vec<Type> = key.sig.to_vec();
    let tangents: Vec<Type> = sig
        .iter()
        .map(|t| ad_transform::tangent_of(t, &env))
        .collect();
    let (flat, packed) = call_signature(compiler, key);
    let flat_tangents: Vec<Type> = flat
        .iter()
        .map(|t| ad_transform::tangent_of(t, &env))
        .collect();
    let duals: Vec<Type> = flat
        .iter()
        .zip(&flat_tangents)
        .map(|(t, tt)| pair_type("Dual", t, tt))
        .collect();
    let has = |compiler: &Compiler, name: &str, wrap: &str, ts: &[Type]| {
        let table = sym(name);
        let mut args = vec![Type::Function(table)];
        args.extend(flat.iter().zip(ts).map(|(t, tt)| pair_type(wrap, t, tt)));
        compiler.resolve_call(table, &args).is_ok()
    };
    let fdata: Vec<Type> = flat.iter().map(|t| fdata_type(t, &env)).collect();
    let (own_frule, own_rrule) = match kind {
        RuleKind::Zero => (true, false),
        RuleKind::Own => (
            has(compiler, "frule!!", "Dual", &flat_tangents),
            has(compiler, "rrule!!", "CoDual", &fdata),
        ),
    };
    let by_rrule = !own_frule && own_rrule && scalar_signature(&flat, &y, &env);
    if !own_frule && own_rrule && !by_rrule {
        // Only a reverse-mode rule, of arrays or structs: forward mode goes through the
        // function's code, as for any function.
        return Ok(None);
    }
    let call = if by_rrule {
        adapter(
            compiler,
            "_user_frule_by_rrule",
            vec![
                Const::Func(rule_function(kind, true)),
                Const::Type(y.clone()),
            ],
            &duals,
        )?
    } else {
        adapter(
            compiler,
            "_user_frule",
            vec![
                Const::Func(rule_function(kind, false)),
                Const::Type(y.clone()),
                Const::Type(ty.clone()),
            ],
            &duals,
        )?
    };
    let name = key.display();
    let loc = if by_rrule {
        let coduals: Vec<Type> = flat
            .iter()
            .zip(&fdata)
            .map(|(t, ft)| pair_type("CoDual", t, ft))
            .collect();
        rule_definition(compiler, rule_function(kind, true), &coduals)
    } else {
        rule_definition(compiler, rule_function(kind, false), &duals)
    };
    let f = user_rule::forward(&user_rule::ForwardRule {
        name: &name,
        sig: &sig,
        tangents: &tangents,
        duals: &duals,
        y: &y,
        ty: &ty,
        adapter: &call,
        width,
        loc,
        packed,
        env: &env,
    });
    Ok(Some(compiler.optimise(f).map_err(AdError::from_compile)?))
}

/// `test_rule`'s check that a call asserted to be a primitive is one: a program's own
/// function must have a declaration (`@is_primitive`, `@zero_adjoint`, ...) matching the call
/// in the session's context; the library's functions have the built-in rules.
pub fn is_primitive_check(
    m: &mut interp::Machine,
    ad: &crate::Ad,
    f: &runtime::Value,
    args: &[runtime::Value],
) -> Result<String, String> {
    let key = crate::api::method_instance(m, f, args).map_err(|e| e.message)?;
    let compiler = &m.compiler;
    let library = compiler
        .method(key.table, key.method)
        .is_some_and(|meth| meth.in_prelude);
    if library {
        return Ok(format!("{} has the library's rules", key.display()));
    }
    let minimal = ad.opts.context == Context::Minimal;
    let (sig, _) = call_signature(compiler, &key);
    match compiler.user_primitive(minimal, true, &sig) {
        Some(u) => Ok(format!(
            "{} is declared a primitive by `{}`",
            key.display(),
            u.text
        )),
        None => Err(format!(
            "{} is not a primitive: no `@is_primitive` declaration matches it in this context, so its code is differentiated (pass `is_primitive = false` to test that)",
            key.display()
        )),
    }
}
