//! Forward mode by IR transformation (Mooncake's: each statement rewritten to run on duals):
//! from the optimised typed IR of a method instance, build one function that computes the
//! primal and `N` tangents of every value at once (`N` lanes: N-lane duals, `N` ≤ 8).
//!
//! - `dual(x0, t0_1, ..., t0_N, x1, t1_1, ..., t1_N, ...) -> Tuple{y, ty_1, ..., ty_N}`.
//! - Each primal value `v` has `N` tangent values of type `tangent_type(typeof(v))` (one per
//!   lane), so the tangent arithmetic of a lane is plain scalar code that Cranelift keeps in
//!   registers; the primal computation is shared by the lanes. Block parameters get their
//!   tangents as extra parameters, terminators pass them along.
//! - Primitives use the partial derivatives of `rules::reverse_rule` (one formula per
//!   primitive for both modes): `ṫ = Σ ∂out/∂arg · ṫ_arg`; memory primitives do to the tangent
//!   what they do to the primal (a tangent array is written where its array is written).
//! - A static call invokes the callee's forward rule, derived when the call first runs; a
//!   dynamic call (`Core.dual_call`) derives the rule of the method the run-time types select.

use crate::emit::Emit;
use crate::rules::{reverse_rule, Partial, Rule};
use crate::{AdError, DerivedKey, DualCallKind, DualCallOp, Mode, RuleOptions};
use compiler::MiKey;
use ir::tangent::tangent_type;
use ir::{Callee, Const, FieldRef, Function, Inst, InstData, Phase, Prim, Type, TypeEnv, Value};
use rustc_hash::FxHashMap;

/// The most lanes a forward rule computes at once.
pub const MAX_WIDTH: usize = 8;

struct Cx<'a> {
    p: &'a Function,
    env: &'a TypeEnv,
}

impl Cx<'_> {
    fn ty(&self, v: Value) -> Type {
        self.p.types[v].clone()
    }
    /// Tangent type of a value (code after a `Union{}` value never runs: no tangent).
    fn tt(&self, v: Value) -> Type {
        tangent_of(&self.ty(v), self.env)
    }
    fn err(&self, i: Inst, what: String) -> AdError {
        AdError {
            trace: self.p.source_chain(i),
            ..AdError::new(what, self.p.locs[i])
        }
    }

    fn internal(&self, i: Inst, what: String) -> AdError {
        AdError {
            internal: true,
            ..self.err(i, what)
        }
    }
}

/// The tangent type of primal type `t`. A reverse-mode rule state's tangent is another rule
/// state (holding the tangents of what the state's stacks hold): forward-over-reverse.
fn tangent_of(t: &Type, env: &TypeEnv) -> Type {
    if *t == crate::reverse::rule_state_type() {
        return t.clone();
    }
    match tangent_type(t, env) {
        Type::Bottom => Type::NoTangent,
        t => t,
    }
}

/// Whether `t` is one of the field-less "no data" types (their only value is a singleton).
fn no_data(t: &Type) -> bool {
    matches!(t, Type::NoTangent | Type::NoFData | Type::NoRData)
}

/// `x` as a value of tangent type `to` (a run-time check when `to` is narrower). A tangent of
/// reverse-mode data (`FData{P}`, `RData{P}` are their own tangent types) has `NoFData` and
/// `NoRData` parts where the tangent of those parts' values is `NoTangent`: a singleton of the
/// expected type stands for them.
fn narrow(e: &mut Emit, x: Value, from: &Type, to: &Type) -> Value {
    if from == to || *to == Type::Any {
        x
    } else if no_data(to) {
        e.konst(Const::Singleton(to.clone()))
    } else {
        e.val(
            InstData::TypeAssert {
                val: x,
                ty: to.clone(),
            },
            to.clone(),
        )
    }
}

/// Whether the zero of tangent type `t` can be built without the primal (no arrays, no
/// run-time types).
/// The tangents (one per lane) of a value shared by every read of it in one run (a global, a
/// global's fdata): zero at first and the same object at every read, so a write through one
/// read is seen by the others.
fn shared_tangent(e: &mut Emit, primal: Value, tt: &Type, n: usize, env: &TypeEnv) -> Vec<Value> {
    if static_zero(tt, env) {
        let z = build_static_zero(e, tt, env);
        return vec![z; n];
    }
    (0..n)
        .map(|l| {
            let lv = e.konst(Const::Int(l as i64));
            let x = e.prim(Prim::GlobalTangent, vec![primal, lv], Type::Any);
            narrow(e, x, &Type::Any, tt)
        })
        .collect()
}

fn static_zero(t: &Type, env: &TypeEnv) -> bool {
    match t {
        Type::NoTangent | Type::Float64 | Type::Float32 => true,
        Type::Tuple(ts) | Type::NamedTuple(_, ts) => ts.iter().all(|t| static_zero(t, env)),
        Type::Tangent(_) | Type::FData(_) | Type::RData(_) => env
            .field_types(t)
            .is_some_and(|fs| fs.iter().all(|t| static_zero(t, env))),
        t => no_data(t),
    }
}

fn build_static_zero(e: &mut Emit, t: &Type, env: &TypeEnv) -> Value {
    match t {
        Type::Float64 => e.konst(Const::F64(0.0)),
        Type::Float32 => e.konst(Const::F32(0.0)),
        Type::Tuple(ts) => {
            let args = ts.iter().map(|t| build_static_zero(e, t, env)).collect();
            e.val(InstData::Tuple { args }, t.clone())
        }
        Type::NamedTuple(_, ts) => {
            let args = ts.iter().map(|t| build_static_zero(e, t, env)).collect();
            e.val(
                InstData::New {
                    ty: t.clone(),
                    args,
                },
                t.clone(),
            )
        }
        Type::Tangent(_) | Type::FData(_) | Type::RData(_) => {
            let fs = env.field_types(t).unwrap_or_default();
            let args = fs.iter().map(|f| build_static_zero(e, f, env)).collect();
            e.val(
                InstData::New {
                    ty: t.clone(),
                    args,
                },
                t.clone(),
            )
        }
        t if no_data(t) => e.konst(Const::Singleton(t.clone())),
        _ => e.konst(Const::Singleton(Type::NoTangent)),
    }
}

/// A zero tangent of the value `x` (of primal type `pt`).
fn zero(e: &mut Emit, x: Value, pt: &Type, env: &TypeEnv) -> Value {
    let t = tangent_of(pt, env);
    if static_zero(&t, env) {
        build_static_zero(e, &t, env)
    } else {
        let z = e.prim(Prim::ZeroTangent, vec![x], Type::Any);
        narrow(e, z, &Type::Any, &t)
    }
}

/// The primitives [`reverse_code_prim`] handles.
fn is_reverse_code_prim(op: Prim) -> bool {
    use Prim::*;
    matches!(
        op,
        RuleChild
            | RuleStack
            | AdCheck
            | TangentCheck
            | ArrayZeroLike
            | ArrayAccumulate
            | ArrayAddScalar
            | ArrayAxpy
            | ArrayUnresize
    )
}

/// The tangents of a primitive of reverse-mode code (forward-over-reverse): rule states and
/// their stacks have tangent states and stacks; the pullback's updates of fdata arrays are
/// linear, so their tangents update the tangent arrays the same way.
#[allow(clippy::too_many_arguments)]
fn reverse_code_prim(
    e: &mut Emit,
    cx: &Cx,
    op: Prim,
    args: &[Value],
    res: Option<Value>,
    vmap: &FxHashMap<Value, Value>,
    tmap: &FxHashMap<Value, Vec<Value>>,
    n: usize,
) -> Option<Vec<Value>> {
    let t = |v: &Value, l: usize| tmap[v][l];
    let none = |e: &mut Emit| vec![e.konst(Const::Singleton(Type::NoTangent)); n];
    let has_t = |v: &Value| cx.tt(*v) != Type::NoTangent;
    let same_as_first = |e: &mut Emit| {
        if has_t(&args[0]) {
            (0..n).map(|l| t(&args[0], l)).collect()
        } else {
            none(e)
        }
    };
    match op {
        Prim::RuleChild => Some(
            (0..n)
                .map(|l| {
                    e.prim(
                        Prim::RuleChild,
                        vec![t(&args[0], l), vmap[&args[1]]],
                        crate::reverse::rule_state_type(),
                    )
                })
                .collect(),
        ),
        Prim::RuleStack => {
            let r = res.unwrap_or_else(|| unreachable!());
            let tt = cx.tt(r);
            if tt == Type::NoTangent {
                Some(none(e))
            } else {
                let tc = e.konst(Const::Type(tt.clone()));
                Some(
                    (0..n)
                        .map(|l| {
                            e.prim(
                                Prim::RuleStack,
                                vec![t(&args[0], l), vmap[&args[1]], tc],
                                tt.clone(),
                            )
                        })
                        .collect(),
                )
            }
        }
        Prim::AdCheck | Prim::TangentCheck => None,
        Prim::ArrayZeroLike => {
            let r = res.unwrap_or_else(|| unreachable!());
            if cx.tt(r) == Type::NoTangent {
                Some(none(e))
            } else {
                let tt = cx.tt(r);
                Some(
                    (0..n)
                        .map(|l| e.prim(Prim::ArrayZeroLike, vec![t(&args[0], l)], tt.clone()))
                        .collect(),
                )
            }
        }
        Prim::ArrayAccumulate | Prim::ArrayAddScalar | Prim::ArrayAxpy | Prim::ArrayUnresize => {
            // In place on the tangent array, per lane: Ȧ += Ḃ; Ȧ += ȧ; for `A += a B`,
            // Ȧ += ȧ B + a Ḃ; `array_unresize` undoes the tangent's `resize!` from its copy.
            if has_t(&args[0]) {
                for l in 0..n {
                    let calls = match op {
                        Prim::ArrayAxpy => vec![
                            vec![t(&args[0], l), t(&args[1], l), vmap[&args[2]]],
                            vec![t(&args[0], l), vmap[&args[1]], t(&args[2], l)],
                        ],
                        Prim::ArrayUnresize => {
                            vec![vec![t(&args[0], l), t(&args[1], l), vmap[&args[2]]]]
                        }
                        _ => vec![vec![t(&args[0], l), t(&args[1], l)]],
                    };
                    for a in calls {
                        e.inst(InstData::Prim { op, args: a }, Type::Any);
                    }
                }
            }
            res.map(|_| same_as_first(e))
        }
        _ => None,
    }
}

/// `product` (a derivative times `factor`), or zero when `factor` is zero: a zero tangent
/// times an infinite derivative is zero.
pub(crate) fn strong_zero(e: &mut Emit, factor: Value, product: Value, t: &Type) -> Value {
    let zero = e.konst(match t {
        Type::Float32 => Const::F32(0.0),
        _ => Const::F64(0.0),
    });
    let z = e.prim(Prim::EqFloat, vec![factor, zero], Type::Bool);
    e.prim(Prim::SelectFloat, vec![z, zero, product], t.clone())
}

/// Derives the forward rule of `primal` with `width` lanes. `names` gives the name under which
/// a callee's forward rule is invoked (resolved, and derived, when first executed).
pub fn derive_forward(
    primal: &Function,
    env: &TypeEnv,
    width: usize,
    names: &mut dyn FnMut(DerivedKey) -> syntax::Symbol,
    opts: RuleOptions,
) -> Result<Function, AdError> {
    let n = width;
    let cx = Cx { p: primal, env };
    let layout = primal.reverse_postorder();
    let mut f = Function::new(format!("dual{n} {}", primal.name), Phase::Typed);
    let mut site_marks = crate::emit::SiteMarks::new(&mut f, primal);
    let fblocks: FxHashMap<ir::Block, ir::Block> =
        layout.iter().map(|b| (*b, f.add_block())).collect();
    let mut vmap: FxHashMap<Value, Value> = FxHashMap::default();
    let mut tmap: FxHashMap<Value, Vec<Value>> = FxHashMap::default();
    for &b in &layout {
        for &p in &primal.blocks[b].params {
            let pv = f.add_block_param(fblocks[&b], cx.ty(p));
            vmap.insert(p, pv);
            let tt = cx.tt(p);
            let ts = (0..n)
                .map(|_| f.add_block_param(fblocks[&b], tt.clone()))
                .collect();
            tmap.insert(p, ts);
        }
    }
    if opts.debug {
        if let Some(&i0) = primal.blocks[layout[0]].insts.first() {
            let mut e = Emit {
                f: &mut f,
                block: fblocks[&layout[0]],
                loc: primal.locs[i0],
            };
            for (k, &p) in primal.blocks[layout[0]].params.iter().enumerate() {
                if cx.tt(p) != Type::NoTangent {
                    for (l, &t) in tmap[&p].iter().enumerate() {
                        let what = format!("argument {k} of {} (lane {})", primal.name, l + 1);
                        tangent_check(&mut e, vmap[&p], t, &what);
                    }
                }
            }
        }
    }
    for &b in &layout {
        let fb = fblocks[&b];
        for &i in &primal.blocks[b].insts {
            site_marks.start(&f, primal.inlined_at[i]);
            let mut e = Emit {
                f: &mut f,
                block: fb,
                loc: primal.locs[i],
            };
            let data = primal.insts[i].clone();
            let res = primal.result(i);
            let mut pd = data.clone();
            pd.map_args(|a| vmap.get(&a).copied().unwrap_or(a));
            pd.map_successors(|s| fblocks[&s]);
            // The primal instruction, re-emitted on mapped operands (calls run the callee's
            // forward rule instead).
            let is_call = matches!(
                data,
                InstData::Invoke { .. }
                    | InstData::Call { .. }
                    | InstData::Prim {
                        op: Prim::DualApply | Prim::GradApply,
                        ..
                    }
            ) || data.is_terminator();
            if !is_call {
                let ty = res.map(|r| cx.ty(r)).unwrap_or_default();
                let nv = e.inst(pd.clone(), ty);
                if let (Some(r), Some(nv)) = (res, nv) {
                    vmap.insert(r, nv);
                }
            }
            let t = |v: &Value, l: usize| tmap[v][l];
            let lanes = |e: &mut Emit, g: &mut dyn FnMut(&mut Emit, usize) -> Value| {
                (0..n).map(|l| g(e, l)).collect::<Vec<Value>>()
            };
            let ts: Option<Vec<Value>> = match &data {
                // An undefined value (a variable not assigned on this path) has an undefined
                // tangent: read, like the value, only behind a definedness check.
                InstData::Const(Const::Undef) => Some(vec![e.konst(Const::Undef); n]),
                InstData::Const(_) => {
                    let r = res.unwrap_or_else(|| unreachable!());
                    let z = zero(&mut e, vmap[&r], &cx.ty(r), env);
                    Some(vec![z; n])
                }
                InstData::Prim {
                    op: op @ (Prim::DualApply | Prim::GradApply),
                    args,
                } => {
                    // AD inside the language, differentiated again: `Core.dual_call` runs the
                    // forward rule of its forward (or reverse) rule (see `dynamic`).
                    // The primal result is recomputed by the nested rule: its value is used.
                    let r = res.unwrap_or_else(|| unreachable!());
                    let kind = match op {
                        Prim::DualApply => DualCallKind::DualApply,
                        _ => DualCallKind::GradApply,
                    };
                    let call = DualCallOp { opts, kind };
                    Some(dual_call(&mut e, &cx, r, args, &mut vmap, &tmap, n, call))
                }
                InstData::Prim {
                    op: Prim::ZeroTangent,
                    ..
                } => {
                    // A zero is a constant: its tangent is a zero of its own type.
                    let r = res.unwrap_or_else(|| unreachable!());
                    let z = e.prim(Prim::ZeroTangent, vec![vmap[&r]], Type::Any);
                    let tt = cx.tt(r);
                    let z = narrow(&mut e, z, &Type::Any, &tt);
                    Some(vec![z; n])
                }
                // In reverse-mode code, the fdata of a global (one object per gradient, shared
                // by every read of the global), like a global's value.
                InstData::Prim {
                    op: Prim::GlobalFdata,
                    ..
                } => {
                    let r = res.unwrap_or_else(|| unreachable!());
                    Some(shared_tangent(&mut e, vmap[&r], &cx.tt(r), n, env))
                }
                InstData::Prim { op, args } if is_reverse_code_prim(*op) => {
                    reverse_code_prim(&mut e, &cx, *op, args, res, &vmap, &tmap, n)
                }
                InstData::Prim {
                    op: Prim::DualCall, ..
                } => {
                    return Err(cx.err(
                        i,
                        "forward mode of forward mode's dynamic calls is not supported yet (this is a third level of AD: `derivative` or `gradient` nested twice inside differentiated code, or a dynamic call inside a nested `derivative`)".into(),
                    ))
                }
                InstData::Prim { op, args } => {
                    // The AD runtime's primitives for values known only at run time (those
                    // forward mode emits itself have their own arms above).
                    if matches!(op, Prim::DynFwd | Prim::DynRvs) {
                        return Err(cx.err(
                            i,
                            "second-order AD (hessian, forward mode over a gradient) of a call whose argument types are known only at run time is not supported yet: a value read from a non-constant global, or from a field or container of abstract type, is such a value (declare the global `const`, or give the value a concrete type)".into(),
                        ));
                    }
                    if op.is_ad_runtime() {
                        return Err(cx.err(
                            i,
                            format!(
                                "forward mode of AD code for values known only at run time (`Core.{}`) is not supported yet",
                                op.name()
                            ),
                        ));
                    }
                    let margs: Vec<Value> = args.iter().map(|a| vmap[a]).collect();
                    let ats: Vec<Type> = args.iter().map(|a| cx.ty(*a)).collect();
                    let out = res.map(|r| vmap[&r]);
                    let rt = res.map(|r| cx.ty(r)).unwrap_or_default();
                    let has_t = |a: &Value| cx.tt(*a) != Type::NoTangent;
                    let rule = match out {
                        Some(o) => reverse_rule(*op, &margs, &ats, o, &rt, &mut e),
                        None => reverse_rule(*op, &margs, &ats, margs[0], &rt, &mut e),
                    };
                    let Some(rule) = rule else {
                        return Err(
                            cx.err(i, format!("`Core.{}` has no forward rule yet", op.name()))
                        );
                    };
                    match rule {
                        Rule::NonDifferentiable => match res {
                            Some(r) if *op == Prim::ArrayNew => {
                                let tt = cx.tt(r);
                                if tt == Type::NoTangent {
                                    Some(vec![e.konst(Const::Singleton(Type::NoTangent)); n])
                                } else {
                                    let tc = e.konst(Const::Type(tt.clone()));
                                    let mut targs = vec![tc];
                                    targs.extend(margs[1..].iter().copied());
                                    Some(lanes(&mut e, &mut |e, _| {
                                        e.prim(Prim::ArrayNew, targs.clone(), tt.clone())
                                    }))
                                }
                            }
                            Some(r) => {
                                let z = zero(&mut e, vmap[&r], &rt, env);
                                let _ = r;
                                Some(vec![z; n])
                            }
                            None => None,
                        },
                        Rule::Scalar(parts) => {
                            let r = res.unwrap_or_else(|| unreachable!());
                            let tt = cx.tt(r);
                            Some(lanes(&mut e, &mut |e, l| {
                                let mut acc: Option<Value> = None;
                                for (j, p) in parts.iter().enumerate() {
                                    let dx = tmap[&args[j]][l];
                                    let term = match p {
                                        Partial::Zero => continue,
                                        Partial::One => dx,
                                        Partial::MinusOne => {
                                            e.prim(Prim::NegFloat, vec![dx], tt.clone())
                                        }
                                        Partial::Val(v) => {
                                            e.prim(Prim::MulFloat, vec![*v, dx], tt.clone())
                                        }
                                        Partial::Convert => {
                                            let tc = e.konst(Const::Type(tt.clone()));
                                            e.prim(Prim::Fpconvert, vec![tc, dx], tt.clone())
                                        }
                                        Partial::If(c) => {
                                            let zero = build_static_zero(e, &tt, env);
                                            e.prim(
                                                Prim::SelectFloat,
                                                vec![*c, dx, zero],
                                                tt.clone(),
                                            )
                                        }
                                        Partial::Singular(v) => {
                                            let m = e.prim(Prim::MulFloat, vec![*v, dx], tt.clone());
                                            strong_zero(e, dx, m, &tt)
                                        }
                                    };
                                    acc = Some(match acc {
                                        None => term,
                                        Some(a) => {
                                            e.prim(Prim::AddFloat, vec![a, term], tt.clone())
                                        }
                                    });
                                }
                                acc.unwrap_or_else(|| build_static_zero(e, &tt, env))
                            }))
                        }
                        Rule::ArrayRead => {
                            let r = res.unwrap_or_else(|| unreachable!());
                            let tt = cx.tt(r);
                            if !has_t(&args[0]) || tt == Type::NoTangent {
                                let z = zero(&mut e, vmap[&r], &cx.ty(r), env);
                                Some(vec![z; n])
                            } else {
                                let et = elem_tangent(&cx.tt(args[0]));
                                Some(lanes(&mut e, &mut |e, l| {
                                    let mut a = vec![t(&args[0], l)];
                                    a.extend(margs[1..].iter().copied());
                                    let x = e.prim(*op, a, et.clone());
                                    narrow(e, x, &et, &tt)
                                }))
                            }
                        }
                        Rule::ArrayWrite | Rule::ArrayPush => {
                            if has_t(&args[0]) {
                                for l in 0..n {
                                    let mut a = vec![t(&args[0], l), t(&args[1], l)];
                                    a.extend(margs[2..].iter().copied());
                                    e.inst(InstData::Prim { op: *op, args: a }, Type::Any);
                                }
                            }
                            // The result is the array written: its tangent is the array's.
                            res.map(|_| match has_t(&args[0]) {
                                true => (0..n).map(|l| t(&args[0], l)).collect(),
                                false => vec![e.konst(Const::Singleton(Type::NoTangent)); n],
                            })
                        }
                        Rule::ArrayPop => {
                            let r = res.unwrap_or_else(|| unreachable!());
                            let tt = cx.tt(r);
                            if !has_t(&args[0]) || tt == Type::NoTangent {
                                let z = zero(&mut e, vmap[&r], &cx.ty(r), env);
                                Some(vec![z; n])
                            } else {
                                let et = elem_tangent(&cx.tt(args[0]));
                                Some(lanes(&mut e, &mut |e, l| {
                                    let x =
                                        e.prim(Prim::ArrayPop, vec![t(&args[0], l)], et.clone());
                                    narrow(e, x, &et, &tt)
                                }))
                            }
                        }
                        Rule::ArrayCopy | Rule::ArrayShare => {
                            let r = res.unwrap_or_else(|| unreachable!());
                            let tt = cx.tt(r);
                            if tt == Type::NoTangent {
                                Some(vec![e.konst(Const::Singleton(Type::NoTangent)); n])
                            } else {
                                Some(lanes(&mut e, &mut |e, l| {
                                    let mut a = vec![t(&args[0], l)];
                                    a.extend(margs[1..].iter().copied());
                                    e.prim(*op, a, tt.clone())
                                }))
                            }
                        }
                        Rule::ArrayResize => {
                            if has_t(&args[0]) {
                                for l in 0..n {
                                    let mut a = vec![t(&args[0], l)];
                                    a.extend(margs[1..].iter().copied());
                                    e.inst(InstData::Prim { op: *op, args: a }, Type::Any);
                                }
                            }
                            None
                        }
                        Rule::TupleIndex => {
                            let r = res.unwrap_or_else(|| unreachable!());
                            let tt = cx.tt(r);
                            match cx.tt(args[0]) {
                                Type::NoTangent => {
                                    let z = zero(&mut e, vmap[&r], &cx.ty(r), env);
                                    Some(vec![z; n])
                                }
                                Type::Tuple(ets) | Type::NamedTuple(_, ets) => {
                                    // The element's tangent: one of the tuple's (a union of
                                    // them), narrowed to the result's tangent type.
                                    let ut = Type::union_of(ets.iter().cloned());
                                    Some(lanes(&mut e, &mut |e, l| {
                                        let x = e.prim(
                                            Prim::TupleGetIndex,
                                            vec![t(&args[0], l), margs[1]],
                                            ut.clone(),
                                        );
                                        narrow(e, x, &ut, &tt)
                                    }))
                                }
                                _ => {
                                    // A tuple whose tangent is known only at run time.
                                    return Err(cx.err(
                                        i,
                                        "run-time indexing of a tuple whose tangent is known only at run time is not supported by forward mode yet".into(),
                                    ));
                                }
                            }
                        }
                    }
                }
                InstData::Invoke { callee, args } => {
                    let r = res.unwrap_or_else(|| unreachable!());
                    let key = MiKey {
                        table: callee.func,
                        method: callee.method,
                        sig: callee.sig.clone(),
                    };
                    let mut fargs = Vec::new();
                    let mut fsig = Vec::new();
                    for a in args {
                        fargs.push(vmap[a]);
                        fsig.push(cx.ty(*a));
                        for l in 0..n {
                            fargs.push(t(a, l));
                            fsig.push(cx.tt(*a));
                        }
                    }
                    let mut rts = vec![cx.ty(r)];
                    rts.extend((0..n).map(|_| cx.tt(r)));
                    let rt = Type::tuple(rts);
                    let fcallee = Callee {
                        func: names(DerivedKey {
                            primal: key.clone(),
                            mode: Mode::Dual(n as u8),
                            opts,
                        }),
                        method: 0,
                        sig: fsig.into(),
                    };
                    let tup = e.val(
                        InstData::Invoke {
                            callee: fcallee,
                            args: fargs,
                        },
                        rt,
                    );
                    let y = e.field(tup, 0, cx.ty(r));
                    vmap.insert(r, y);
                    let tt = cx.tt(r);
                    let ts = lanes(&mut e, &mut |e, l| e.field(tup, 1 + l as u32, tt.clone()));
                    if opts.debug && tt != Type::NoTangent {
                        for (l, &tv) in ts.iter().enumerate() {
                            let what =
                                format!("the result of calling {} (lane {})", callee.func, l + 1);
                            tangent_check(&mut e, y, tv, &what);
                        }
                    }
                    Some(ts)
                }
                InstData::Call { args } => {
                    let r = res.unwrap_or_else(|| unreachable!());
                    Some(dual_call(
                        &mut e,
                        &cx,
                        r,
                        args,
                        &mut vmap,
                        &tmap,
                        n,
                        DualCallOp {
                            opts,
                            kind: DualCallKind::Call,
                        },
                    ))
                }
                InstData::New { ty, args } => {
                    let tt = tangent_of(ty, env);
                    if tt == Type::NoTangent {
                        Some(vec![e.konst(Const::Singleton(Type::NoTangent)); n])
                    } else {
                        let fts = env.field_types(&tt).unwrap_or_default();
                        if fts.len() != args.len() {
                            return Err(cx.internal(
                                i,
                                format!(
                                    "the tangent of {ty} has {} fields",
                                    fts.len()
                                ),
                            ));
                        }
                        Some(lanes(&mut e, &mut |e, l| {
                            let fs = args
                                .iter()
                                .zip(fts.iter())
                                .map(|(a, ft)| {
                                    let at = cx.tt(*a);
                                    if at == *ft || *ft == Type::Any || at == Type::Bottom {
                                        t(a, l)
                                    } else {
                                        narrow(e, t(a, l), &at, ft)
                                    }
                                })
                                .collect();
                            e.val(
                                InstData::New {
                                    ty: tt.clone(),
                                    args: fs,
                                },
                                tt.clone(),
                            )
                        }))
                    }
                }
                InstData::Tuple { args } => {
                    let r = res.unwrap_or_else(|| unreachable!());
                    let tt = cx.tt(r);
                    if tt == Type::NoTangent {
                        Some(vec![e.konst(Const::Singleton(Type::NoTangent)); n])
                    } else {
                        Some(lanes(&mut e, &mut |e, l| {
                            let fs = args.iter().map(|a| t(a, l)).collect();
                            e.val(InstData::Tuple { args: fs }, tt.clone())
                        }))
                    }
                }
                InstData::GetField { obj, field } => {
                    let r = res.unwrap_or_else(|| unreachable!());
                    let tt = cx.tt(r);
                    let ot = cx.tt(*obj);
                    match field {
                        _ if tt == Type::NoTangent || ot == Type::NoTangent => {
                            let z = zero(&mut e, vmap[&r], &cx.ty(r), env);
                            Some(vec![z; n])
                        }
                        FieldRef::Index(k) if ot != Type::Any => {
                            let ft = env
                                .field_types(&ot)
                                .and_then(|fs| fs.get(*k as usize).cloned())
                                .unwrap_or(Type::Any);
                            Some(lanes(&mut e, &mut |e, l| {
                                let x = e.field(t(obj, l), *k, ft.clone());
                                narrow(e, x, &ft, &tt)
                            }))
                        }
                        _ => {
                            let name: std::sync::Arc<str> = match field {
                                FieldRef::Name(s) => std::sync::Arc::from(s.as_str()),
                                FieldRef::Index(k) => {
                                    std::sync::Arc::from(format!("{}", k + 1).as_str())
                                }
                            };
                            let nv = e.konst(Const::Str(name));
                            Some(lanes(&mut e, &mut |e, l| {
                                let x = e.prim(
                                    Prim::TangentField,
                                    vec![vmap[obj], t(obj, l), nv],
                                    Type::Any,
                                );
                                narrow(e, x, &Type::Any, &tt)
                            }))
                        }
                    }
                }
                InstData::SetField { obj, field, val } => {
                    let ot = cx.tt(*obj);
                    match field {
                        _ if ot == Type::NoTangent => {}
                        FieldRef::Index(k) if ot != Type::Any => {
                            let ft = env
                                .field_types(&ot)
                                .and_then(|fs| fs.get(*k as usize).cloned())
                                .unwrap_or(Type::Any);
                            let vt = cx.tt(*val);
                            for l in 0..n {
                                let tv = if vt == ft || ft == Type::Any {
                                    t(val, l)
                                } else {
                                    narrow(&mut e, t(val, l), &vt, &ft)
                                };
                                e.inst(
                                    InstData::SetField {
                                        obj: t(obj, l),
                                        field: FieldRef::Index(*k),
                                        val: tv,
                                    },
                                    Type::Any,
                                );
                            }
                        }
                        _ => {
                            return Err(cx.err(
                                i,
                                "assigning a field of a value whose type is known only at run time is not supported by forward mode yet".into(),
                            ))
                        }
                    }
                    None
                }
                InstData::TypeAssert { val, .. } => {
                    let r = res.unwrap_or_else(|| unreachable!());
                    let (from, to) = (cx.tt(*val), cx.tt(r));
                    Some(lanes(&mut e, &mut |e, l| narrow(e, t(val, l), &from, &to)))
                }
                InstData::GetGlobal(_) => {
                    let r = res.unwrap_or_else(|| unreachable!());
                    Some(shared_tangent(&mut e, vmap[&r], &cx.tt(r), n, env))
                }
                InstData::SetGlobal(..) => {
                    return Err(cx.err(
                        i,
                        "`global assignment` is not supported by forward mode yet".into(),
                    ))
                }
                InstData::StaticParam(_) | InstData::GetSlot(_) | InstData::SetSlot(..) => {
                    return Err(cx.internal(i, "forward mode of untyped IR".into()))
                }
                InstData::Jump { dest, args } => {
                    let a = with_tangents(args, &vmap, &tmap);
                    e.jump(fblocks[dest], a);
                    None
                }
                InstData::Branch {
                    cond,
                    then_dest,
                    then_args,
                    else_dest,
                    else_args,
                } => {
                    e.inst(
                        InstData::Branch {
                            cond: vmap[cond],
                            then_dest: fblocks[then_dest],
                            then_args: with_tangents(then_args, &vmap, &tmap),
                            else_dest: fblocks[else_dest],
                            else_args: with_tangents(else_args, &vmap, &tmap),
                        },
                        Type::Any,
                    );
                    None
                }
                InstData::Return(v) => {
                    let mut parts = vec![vmap[v]];
                    parts.extend(tmap[v].iter().copied());
                    let mut rts = vec![cx.ty(*v)];
                    rts.extend((0..n).map(|_| cx.tt(*v)));
                    let tup = e.val(InstData::Tuple { args: parts }, Type::tuple(rts));
                    e.inst(InstData::Return(tup), Type::Any);
                    None
                }
                InstData::Unreachable => {
                    e.inst(InstData::Unreachable, Type::Any);
                    None
                }
            };
            if let (Some(r), Some(ts)) = (res, ts) {
                tmap.insert(r, ts);
            }
        }
    }
    site_marks.finish(&mut f);
    Ok(f)
}

/// `r = call(args...)` through `Core.dual_call(n, op, a1, ȧ1..., ...)` (`op` says what the call
/// runs: a dynamic call, or AD inside the language): maps `r` to the call's value and returns
/// its tangents.
#[allow(clippy::too_many_arguments)]
fn dual_call(
    e: &mut Emit,
    cx: &Cx,
    r: Value,
    args: &[Value],
    vmap: &mut FxHashMap<Value, Value>,
    tmap: &FxHashMap<Value, Vec<Value>>,
    n: usize,
    call: DualCallOp,
) -> Vec<Value> {
    let w = e.konst(Const::Int(n as i64));
    let o = e.konst(Const::Int(call.to_bits()));
    let mut dargs = vec![w, o];
    dargs.extend(with_tangents(args, vmap, tmap));
    let any = e.prim(Prim::DualCall, dargs, Type::Any);
    let tup = narrow(e, any, &Type::Any, &Type::tuple(vec![Type::Any; n + 1]));
    let y0 = e.field(tup, 0, Type::Any);
    let y = narrow(e, y0, &Type::Any, &cx.ty(r));
    vmap.insert(r, y);
    let tt = cx.tt(r);
    (0..n)
        .map(|l| {
            let x = e.field(tup, 1 + l as u32, Type::Any);
            narrow(e, x, &Type::Any, &tt)
        })
        .collect()
}

/// The element type of a tangent array type (`Any` if it is not one).
fn elem_tangent(t: &Type) -> Type {
    match t {
        Type::Array(et, _) => (**et).clone(),
        _ => Type::Any,
    }
}

/// Each value followed by its tangents (block arguments).
fn with_tangents(
    args: &[Value],
    vmap: &FxHashMap<Value, Value>,
    tmap: &FxHashMap<Value, Vec<Value>>,
) -> Vec<Value> {
    let mut out = Vec::new();
    for a in args {
        out.push(vmap[a]);
        out.extend(tmap[a].iter().copied());
    }
    out
}

/// Debug mode: `Core.tangent_check` (its type and array sizes match the primal's).
fn tangent_check(e: &mut Emit, x: Value, t: Value, what: &str) {
    let w = e.konst(Const::Str(std::sync::Arc::from(what)));
    e.inst(
        InstData::Prim {
            op: Prim::TangentCheck,
            args: vec![x, t, w],
        },
        Type::Any,
    );
}
