//! Forward mode of primitives: the partial derivatives of the rule registry applied to each
//! lane's tangents, memory primitives done to the tangents as to the primal, and the
//! primitives of reverse-mode code (forward over reverse).

use super::tangents::{build_static_zero, elem_tangent, lanes, narrow, strong_zero, zero};
use super::Dual;
use crate::emit::Emit;
use crate::rules::{reverse_rule, Partial, Rule};
use crate::AdError;
use ir::{Const, Inst, InstData, Prim, Type, Value};

impl Dual<'_> {
    /// A primitive, by its rule.
    pub(super) fn prim(
        &mut self,
        e: &mut Emit,
        i: Inst,
        op: Prim,
        args: &[Value],
        res: Option<Value>,
    ) -> Result<Option<Vec<Value>>, AdError> {
        let (cx, n, env) = (self.cx, self.n, self.cx.env);
        let tmap = &self.tmap;
        let t = |v: &Value, l: usize| tmap[v][l];
        // The AD runtime's primitives for values known only at run time (those
        // forward mode emits itself have their own arms above).
        let is_try = |v: &Value| {
            matches!(
                cx.p.const_value(*v).and_then(|c| match c {
                    Const::Int(b) => crate::DualCallOp::from_bits(*b),
                    _ => None,
                }),
                Some(crate::DualCallOp {
                    kind: crate::DualCallKind::TryCatch | crate::DualCallKind::TryFinally,
                    ..
                })
            )
        };
        if op == Prim::DynFwd && args.get(1).is_some_and(is_try) {
            return Err(cx.err(
                i,
                "not supported yet: second-order AD (hessian, forward mode over a gradient) through a `try`; first derivatives through it work in both modes".into(),
            ));
        }
        // Reverse mode's raw read of a part (possibly `#undef`): the same part of the tangent.
        if op == Prim::GetFieldRaw {
            let tt = res.map_or(Type::Any, |r| cx.tt(r));
            if super::tangents::no_data(&tt) {
                let z = e.konst(Const::Singleton(tt.clone()));
                return Ok(res.map(|_| vec![z; n]));
            }
            let kv = self.vmap[&args[1]];
            let tv = e.konst(Const::Type(tt.clone()));
            let ts = lanes(n, e, &mut |e, l| {
                e.prim(Prim::GetFieldRaw, vec![t(&args[0], l), kv, tv], tt.clone())
            });
            return Ok(res.map(|_| ts));
        }
        if matches!(op, Prim::DynFwd | Prim::DynRvs) {
            return Err(cx.err(
                i,
                "second-order AD (hessian, forward mode over a gradient) of a call whose argument types are known only at run time is not supported yet: a value read from a global the program assigns more than once (or in a loop or function), or from a field or container of abstract type, is such a value (declare the global `const`, assign it once, or give the value a concrete type)".into(),
            ));
        }
        // The AD runtime's joining, splitting and adding of tangents (of values known by
        // their primal, such as a struct holding floats in a mutable struct's field) is linear
        // in the tangent parts: each lane does the same to its tangents (`L`), the primal,
        // field name, position or type (`P`) giving only the structure.
        if let Some(kinds) = linear_runtime_operands(op) {
            // (A result not used still changes a mutable tangent in place.)
            let tt = res.map_or(Type::Any, |r| cx.tt(r));
            let mut margs: Vec<Value> = args.iter().map(|a| self.vmap[a]).collect();
            // A tangent of reverse data converts to the tangent type (whose leaves without
            // data are `NoTangent`, where the reverse data's are `NoRData`).
            if op == Prim::RdataConvert && tt != Type::Any {
                margs[1] = e.konst(Const::Type(tt.clone()));
            }
            let ts = lanes(n, e, &mut |e, l| {
                let a: Vec<Value> = kinds
                    .iter()
                    .zip(args.iter().zip(&margs))
                    .map(|(k, (x, m))| if *k == L { t(x, l) } else { *m })
                    .collect();
                let x = e.prim(op, a, Type::Any);
                narrow(e, x, &Type::Any, &tt)
            });
            return Ok(res.map(|_| ts));
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
        let margs: Vec<Value> = args.iter().map(|a| self.vmap[a]).collect();
        let ats: Vec<Type> = args.iter().map(|a| cx.ty(*a)).collect();
        let out = res.map(|r| self.vmap[&r]);
        let rt = res.map(|r| cx.ty(r)).unwrap_or_default();
        let has_t = |a: &Value| cx.tt(*a) != Type::NoTangent;
        let rule = match out {
            Some(o) => reverse_rule(op, &margs, &ats, o, &rt, e),
            None => reverse_rule(op, &margs, &ats, margs[0], &rt, e),
        };
        let Some(rule) = rule else {
            return Err(cx.err(i, format!("`Core.{}` has no forward rule yet", op.name())));
        };
        Ok(match rule {
            Rule::NonDifferentiable => match res {
                Some(r) if op == Prim::ArrayNew => {
                    let tt = cx.tt(r);
                    if tt == Type::NoTangent {
                        Some(vec![e.konst(Const::Singleton(Type::NoTangent)); n])
                    } else {
                        let tc = e.konst(Const::Type(tt.clone()));
                        let mut targs = vec![tc];
                        targs.extend(margs[1..].iter().copied());
                        Some(lanes(n, e, &mut |e, _| {
                            e.prim(Prim::ArrayNew, targs.clone(), tt.clone())
                        }))
                    }
                }
                Some(r) => {
                    let z = zero(e, self.vmap[&r], &rt, env);
                    let _ = r;
                    Some(vec![z; n])
                }
                None => None,
            },
            Rule::Scalar(parts) => {
                let r = res.unwrap_or_else(|| unreachable!());
                let tt = cx.tt(r);
                Some(lanes(n, e, &mut |e, l| {
                    let mut acc: Option<Value> = None;
                    for (j, p) in parts.iter().enumerate() {
                        // A constant's tangent is zero: no term (as reverse mode gives it no
                        // partial), so `0.1 * x` is `0.1 * ẋ` even where `x` is infinite.
                        if cx.p.is_constant(args[j]) {
                            continue;
                        }
                        let dx = tmap[&args[j]][l];
                        let term = match p {
                            Partial::Zero => continue,
                            Partial::One => dx,
                            Partial::MinusOne => e.prim(Prim::NegFloat, vec![dx], tt.clone()),
                            Partial::Val(v) => e.prim(Prim::MulFloat, vec![*v, dx], tt.clone()),
                            Partial::Convert => {
                                let tc = e.konst(Const::Type(tt.clone()));
                                e.prim(Prim::Fpconvert, vec![tc, dx], tt.clone())
                            }
                            Partial::If(c) => {
                                let zero = build_static_zero(e, &tt, env);
                                e.prim(Prim::SelectFloat, vec![*c, dx, zero], tt.clone())
                            }
                            Partial::Singular(v) => {
                                let m = e.prim(Prim::MulFloat, vec![*v, dx], tt.clone());
                                strong_zero(e, dx, m, &tt)
                            }
                        };
                        acc = Some(match acc {
                            None => term,
                            Some(a) => e.prim(Prim::AddFloat, vec![a, term], tt.clone()),
                        });
                    }
                    acc.unwrap_or_else(|| build_static_zero(e, &tt, env))
                }))
            }
            Rule::ArrayRead => {
                let r = res.unwrap_or_else(|| unreachable!());
                let tt = cx.tt(r);
                if !has_t(&args[0]) || tt == Type::NoTangent {
                    let z = zero(e, self.vmap[&r], &cx.ty(r), env);
                    Some(vec![z; n])
                } else {
                    let et = elem_tangent(&cx.tt(args[0]));
                    Some(lanes(n, e, &mut |e, l| {
                        let mut a = vec![t(&args[0], l)];
                        a.extend(margs[1..].iter().copied());
                        let x = e.prim(op, a, et.clone());
                        narrow(e, x, &et, &tt)
                    }))
                }
            }
            Rule::ArrayWrite | Rule::ArrayPush => {
                if has_t(&args[0]) {
                    for l in 0..n {
                        let mut a = vec![t(&args[0], l), t(&args[1], l)];
                        a.extend(margs[2..].iter().copied());
                        e.inst(InstData::Prim { op, args: a }, Type::Any);
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
                    let z = zero(e, self.vmap[&r], &cx.ty(r), env);
                    Some(vec![z; n])
                } else {
                    let et = elem_tangent(&cx.tt(args[0]));
                    Some(lanes(n, e, &mut |e, l| {
                        let x = e.prim(Prim::ArrayPop, vec![t(&args[0], l)], et.clone());
                        narrow(e, x, &et, &tt)
                    }))
                }
            }
            Rule::Matrix(rule) => {
                let o = self.vmap[&res.unwrap_or_else(|| unreachable!())];
                Some(lanes(n, e, &mut |e, l| {
                    let d: Vec<Option<Value>> =
                        args.iter().map(|a| has_t(a).then(|| t(a, l))).collect();
                    rule.tangent(e, &margs, &d, o)
                }))
            }
            Rule::ArrayCopy | Rule::ArrayShare => {
                let r = res.unwrap_or_else(|| unreachable!());
                let tt = cx.tt(r);
                if tt == Type::NoTangent {
                    Some(vec![e.konst(Const::Singleton(Type::NoTangent)); n])
                } else {
                    Some(lanes(n, e, &mut |e, l| {
                        let mut a = vec![t(&args[0], l)];
                        a.extend(margs[1..].iter().copied());
                        e.prim(op, a, tt.clone())
                    }))
                }
            }
            Rule::ArrayResize => {
                if has_t(&args[0]) {
                    for l in 0..n {
                        let mut a = vec![t(&args[0], l)];
                        a.extend(margs[1..].iter().copied());
                        e.inst(InstData::Prim { op, args: a }, Type::Any);
                    }
                }
                None
            }
            Rule::TupleIndex => {
                let r = res.unwrap_or_else(|| unreachable!());
                let tt = cx.tt(r);
                match cx.tt(args[0]) {
                    Type::NoTangent => {
                        let z = zero(e, self.vmap[&r], &cx.ty(r), env);
                        Some(vec![z; n])
                    }
                    Type::Tuple(ets) | Type::NamedTuple(_, ets) => {
                        // The element's tangent: one of the tuple's (a union of
                        // them), narrowed to the result's tangent type.
                        let ut = Type::union_of(ets.iter().cloned());
                        Some(lanes(n, e, &mut |e, l| {
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
        })
    }

    /// The tangents of a primitive of reverse-mode code (forward-over-reverse): rule states and
    /// their stacks have tangent states and stacks; the pullback's updates of fdata arrays are
    /// linear, so their tangents update the tangent arrays the same way.
    pub(super) fn reverse_code_prim(
        &self,
        e: &mut Emit,
        op: Prim,
        args: &[Value],
        res: Option<Value>,
    ) -> Option<Vec<Value>> {
        let (cx, n) = (self.cx, self.n);
        let (vmap, tmap) = (&self.vmap, &self.tmap);
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
                            crate::rule_state_type(),
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
            // `a + Σ B .* C` down to a's shape: ȧ + Σ Ḃ .* C + Σ B .* Ċ (in place on an
            // array's tangent, which each call returns; a new value for a float's).
            Prim::ArrayMulAdd => {
                let tt = cx.tt(args[0]);
                let ts: Vec<Value> = (0..n)
                    .map(|l| {
                        let mut acc = t(&args[0], l);
                        if has_t(&args[1]) {
                            let a = vec![acc, t(&args[1], l), vmap[&args[2]]];
                            acc = e.prim(op, a, tt.clone());
                        }
                        if has_t(&args[2]) {
                            let a = vec![acc, vmap[&args[1]], t(&args[2], l)];
                            acc = e.prim(op, a, tt.clone());
                        }
                        acc
                    })
                    .collect();
                res.map(|_| ts)
            }
            Prim::ArrayAccumulate
            | Prim::ArrayAddScalar
            | Prim::ArrayAxpy
            | Prim::ArrayGemmAdd
            | Prim::ArrayUnresize => {
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
                            // C += op(A) op(B): Ċ += op(Ȧ) op(B) + op(A) op(Ḃ).
                            Prim::ArrayGemmAdd => {
                                let flags = args[3..].iter().map(|f| vmap[f]);
                                let mut calls = Vec::new();
                                if has_t(&args[1]) {
                                    let mut c =
                                        vec![t(&args[0], l), t(&args[1], l), vmap[&args[2]]];
                                    c.extend(flags.clone());
                                    calls.push(c);
                                }
                                if has_t(&args[2]) {
                                    let mut c =
                                        vec![t(&args[0], l), vmap[&args[1]], t(&args[2], l)];
                                    c.extend(flags);
                                    calls.push(c);
                                }
                                calls
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
}

/// The primitives [`reverse_code_prim`] handles.
pub(super) fn is_reverse_code_prim(op: Prim) -> bool {
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
            | ArrayMulAdd
            | ArrayGemmAdd
            | ArrayUnresize
    )
}

/// An operand of an AD-runtime primitive that is linear in its tangent operands.
#[derive(Clone, Copy, PartialEq)]
enum Operand {
    /// Linear: each lane passes its tangent.
    L,
    /// Structure: every lane passes the value itself.
    P,
}
use Operand::{L, P};

/// The operands of an AD-runtime primitive linear in its tangent parts, or `None`.
fn linear_runtime_operands(op: Prim) -> Option<&'static [Operand]> {
    Some(match op {
        Prim::TangentOf | Prim::TangentFdata | Prim::TangentRdata => &[P, L],
        Prim::TangentAddRdata => &[P, L, L],
        Prim::FieldFdata | Prim::TangentField => &[P, L, P],
        Prim::FieldCotangent => &[P, L, P, L],
        Prim::RdataAdd => &[L, L],
        Prim::RdataConvert => &[L, P],
        Prim::RdataAddAt => &[L, P, L],
        Prim::ZeroTangent => &[P],
        _ => return None,
    })
}
