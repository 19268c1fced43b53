//! The forwards pass of each instruction kind: the primal instruction (or the callee's
//! forwards pass) on primal values, the result's fdata, and the pullback work recorded for it.

use super::forwards::{child_state, fdata_const, Forwards};
use super::rdata::{rdata_build, rdata_compatible, recast, tangent_of_fdata};
use super::rev::{ArrayPush, ArrayWrite, Cotangent, MutableWrite, Rev, RevPartial};
use super::saved::{rule_state_type, IvSpec};
use super::{
    ad_check, field_tangent, inst_kind, new_tangent_array_ok, runtime_tangent_field, tangent_elem,
};
use crate::emit::Emit;
use crate::forward::tangent_of;
use crate::rules::{returns_type_value, reverse_rule, MatrixRule, Partial, Rule};
use crate::{AdError, DerivedKey, DualCallKind, DualCallOp, Mode};
use compiler::MiKey;
use ir::tangent::{fdata_type, rdata_type};
use ir::{Block, Callee, Const, FieldRef, Inst, InstData, Prim, Type, Value};
use syntax::Span;

/// Where the forwards code of a primal instruction goes.
#[derive(Clone, Copy)]
struct At {
    /// The primal instruction.
    i: Inst,
    /// The forwards block.
    fb: Block,
    loc: Span,
}

/// An emitter at `at` in the forwards pass (a macro, so that the other fields of the pass
/// stay usable while it lives).
macro_rules! emit {
    ($s:ident, $at:expr) => {
        Emit {
            f: &mut $s.f,
            block: $at.fb,
            loc: $at.loc,
        }
    };
}

impl Forwards<'_> {
    /// The forwards code of body instruction `i` of a live block, emitted in `fb`.
    pub(super) fn inst(&mut self, fb: Block, i: Inst) -> Result<(), AdError> {
        let primal = self.cx.p;
        self.marks.start(&self.f, primal.inlined_at[i]);
        let at = At {
            i,
            fb,
            loc: primal.locs[i],
        };
        let data = primal.insts[i].clone();
        self.primal_inst(at, &data);
        let res = primal.result(i);
        let r = || res.unwrap_or_else(|| unreachable!("the instruction has a result"));
        match &data {
            InstData::Const(c) => self.konst(at, r(), c),
            InstData::Prim {
                op: Prim::DualApply | Prim::GradApply | Prim::ZeroTangent,
                ..
            } => Err(self.cx.err(
                i,
                "`derivative` and `gradient` called inside differentiated code are not supported by reverse mode yet; use forward mode (`grad --mode forward`, `value_and_gradient_forward`)".into(),
            )),
            InstData::Prim {
                op: Prim::VjpApply | Prim::JvpApply | Prim::TestRuleApply,
                ..
            } => Err(self.cx.err(
                i,
                "not supported yet: differentiating Mooncake's `value_and_gradient!!`, `value_and_pullback!!` or `value_and_derivative!!` (use `gradient` or `derivative`)".into(),
            )),
            InstData::Prim { op, args } => self.prim(at, r(), *op, args),
            InstData::TypeAssert { val, .. } => self.type_assert(at, r(), *val),
            // Tuples and immutable structs: fdata and rdata built part by part.
            InstData::Tuple { args } => self.build(at, r(), args),
            InstData::New { ty, args } if !crate::undefined_fields_ok(self.cx.env, ty, args, |a| self.cx.ty(a)) => {
                Err(self.cx.err(i, crate::UNDEFINED_FIELDS.into()))
            }
            InstData::New { ty, args } if !self.cx.env.is_mutable(ty) => self.build(at, r(), args),
            InstData::New { ty, args } => self.new_mutable(at, r(), ty, args),
            InstData::GetField {
                obj,
                field: FieldRef::Index(k),
            } if !self.cx.env.is_mutable(&self.cx.ty(*obj)) && self.cx.ty(*obj).is_concrete() => {
                self.field(at, r(), *obj, *k)
            }
            InstData::GetField { obj, field }
                if matches!(field, FieldRef::Name(_)) || !self.cx.ty(*obj).is_concrete() =>
            {
                self.dynamic_field(at, r(), *obj, field)
            }
            InstData::GetField {
                obj,
                field: FieldRef::Index(k),
            } if self.cx.env.is_mutable(&self.cx.ty(*obj)) => self.mutable_read(at, r(), *obj, *k),
            InstData::SetField {
                obj,
                field: FieldRef::Index(k),
                val,
            } if self.cx.env.is_mutable(&self.cx.ty(*obj)) => {
                self.mutable_write(at, *obj, *k, *val)
            }
            InstData::GetGlobal(_) => self.global(at, r()),
            InstData::Invoke { callee, args } => self.invoke(at, r(), callee, args),
            InstData::Call { args } => self.call(at, r(), args),
            other @ (InstData::GetField { .. }
            | InstData::SetField { .. }
            | InstData::SetGlobal(..)
            | InstData::StaticParam(_)
            | InstData::GetSlot(_)
            | InstData::SetSlot(..)
            | InstData::Jump { .. }
            | InstData::Branch { .. }
            | InstData::Return(_)
            | InstData::Unreachable) => Err(self.cx.err(
                i,
                format!(
                    "`{}` is not supported by reverse mode yet",
                    inst_kind(other)
                ),
            )),
        }
    }

    /// The primal instruction re-emitted on mapped operands, except calls (which run the
    /// callee's forwards pass instead) and writes (which save the old contents first): both
    /// are emitted by their own method.
    fn primal_inst(&mut self, at: At, data: &InstData) {
        let primal = self.cx.p;
        let res = primal.result(at.i);
        let mut pd = data.clone();
        pd.map_args(|a| self.vmap.get(&a).copied().unwrap_or(a));
        let is_call = matches!(
            data,
            InstData::Invoke { .. }
                | InstData::Call { .. }
                | InstData::SetField { .. }
                | InstData::Prim {
                    op: Prim::ArraySet
                        | Prim::ArrayPush
                        | Prim::ArrayPop
                        | Prim::ArrayResize
                        | Prim::ThreadsRun
                        | Prim::TryCatch
                        | Prim::TryFinally,
                    ..
                }
        );
        if is_call {
            return;
        }
        let mut e = emit!(self, at);
        let Some(r) = res else {
            e.inst(pd, Type::Any);
            return;
        };
        let nv = e.val(pd, self.cx.ty(r));
        self.vmap.insert(r, nv);
        // An induction variable plus or minus a constant is one too (`x[i + 1]`).
        if let InstData::Prim {
            op: op @ (Prim::AddInt | Prim::SubInt),
            args,
        } = data
        {
            let int = |v: Value| match primal.const_value(v) {
                Some(Const::Int(k)) => Some(*k),
                _ => None,
            };
            let mut ivs = self.invariants.ivs.borrow_mut();
            let iv = |v: Value| self.vmap.get(&v).and_then(|fv| ivs.get(fv)).cloned();
            let derived = match (op, iv(args[0]), iv(args[1])) {
                (_, Some(s), None) => int(args[1]).map(|k| (s, k, *op == Prim::SubInt)),
                (Prim::AddInt, None, Some(s)) => int(args[0]).map(|k| (s, k, false)),
                _ => None,
            };
            if let Some((s, k, minus)) = derived {
                let offset = if minus {
                    s.offset.wrapping_sub(k)
                } else {
                    s.offset.wrapping_add(k)
                };
                ivs.insert(nv, IvSpec { offset, ..s });
            }
        }
    }

    fn konst(&mut self, at: At, r: Value, c: &Const) -> Result<(), AdError> {
        let ft = self.cx.ft(r);
        if ft != Type::NoFData {
            return Err(self.cx.err(
                at.i,
                format!(
                    "constant {c:?} with fdata of type {ft} is not supported by reverse mode yet"
                ),
            ));
        }
        let fv = fdata_const(&mut emit!(self, at), &ft);
        self.fmap.insert(r, fv);
        Ok(())
    }

    /// A primitive: its rule says what the forwards pass and the pullback do.
    fn prim(&mut self, at: At, r: Value, op: Prim, args: &[Value]) -> Result<(), AdError> {
        if op == Prim::ThreadsRun {
            self.threads(at, r, args);
            return Ok(());
        }
        if let Prim::TryCatch | Prim::TryFinally = op {
            let kind = match op {
                Prim::TryCatch => DualCallKind::TryCatch,
                _ => DualCallKind::TryFinally,
            };
            return self.dynamic(at, r, args, kind);
        }
        let cx = self.cx;
        let ats: Vec<Type> = args.iter().map(|a| cx.ty(*a)).collect();
        // (Writes are emitted by their rule; their result is not needed by it.)
        let nv = match self.vmap.get(&r) {
            Some(v) => *v,
            None => match args.first() {
                Some(a) => self.vmap[a],
                None => {
                    return Err(AdError::internal(
                        "a primitive without operands has no result",
                        at.loc,
                    ))
                }
            },
        };
        let margs: Vec<Value> = args.iter().map(|a| self.vmap[a]).collect();
        let rt_out = cx.ty(r);
        // A primitive that writes nothing and has no tangent in or out needs no rule.
        let no_tangent = |v: Value| cx.ft(v) == Type::NoFData && cx.rt(v) == Type::NoRData;
        let inert = !op.effects().writes && no_tangent(r) && args.iter().all(|a| no_tangent(*a));
        let rule = if inert {
            Some(Rule::NonDifferentiable)
        } else {
            reverse_rule(op, &margs, &ats, nv, &rt_out, &mut emit!(self, at))
        };
        let rule = rule.ok_or_else(|| {
            cx.err(
                at.i,
                format!(
                    "the primitive `Core.{}` has no reverse-mode rule yet; add one in crates/ad-transform/src/rules/",
                    op.name()
                ),
            )
        })?;
        let p = PrimAt {
            at,
            r,
            op,
            args,
            margs: &margs,
            nv,
        };
        match rule {
            Rule::NonDifferentiable => self.non_differentiable(p),
            Rule::Scalar(parts) => {
                self.scalar(p, parts);
                Ok(())
            }
            Rule::ArrayWrite => {
                self.array_write(p);
                Ok(())
            }
            Rule::ArrayPush => {
                self.array_push(p);
                Ok(())
            }
            Rule::ArrayPop => {
                self.array_pop(p);
                Ok(())
            }
            Rule::ArrayResize => {
                self.array_resize(p);
                Ok(())
            }
            Rule::TupleIndex => self.tuple_index(p),
            Rule::ArrayShare => {
                self.array_share(p);
                Ok(())
            }
            Rule::ArrayCopy => self.array_copy(p),
            Rule::Matrix(rule) => {
                self.matrix(p, rule);
                Ok(())
            }
            Rule::ArrayRead => {
                self.array_read(p);
                Ok(())
            }
        }
    }

    fn non_differentiable(&mut self, p: PrimAt) -> Result<(), AdError> {
        let ft = self.cx.ft(p.r);
        let at_ty = self.cx.ty(p.r);
        let env = self.cx.env;
        let mut e = emit!(self, p.at);
        let fv = if ft == Type::NoFData || (ft == Type::Any && returns_type_value(p.op)) {
            // (A type known only at run time still has no fdata.)
            fdata_const(&mut e, &Type::NoFData)
        } else if p.op == Prim::ArrayNew && new_tangent_array_ok(&at_ty, &ft, env) {
            // A new array's fdata is a new array of zero tangents (float arrays are
            // zero-filled when allocated; slots of other arrays are unassigned, as are the
            // primal's).
            let tt = e.konst(Const::Type(ft.clone()));
            let mut a = vec![tt];
            a.extend(p.margs[1..].iter().copied());
            e.prim(Prim::ArrayNew, a, ft.clone())
        } else {
            return Err(self.cx.err(
                p.at.i,
                format!(
                    "`Core.{}` returns a value with fdata ({ft}); not supported by reverse mode yet",
                    p.op.name()
                ),
            ));
        };
        self.fmap.insert(p.r, fv);
        Ok(())
    }

    /// A scalar primitive: `acc[arg] += acc[out] * ∂out/∂arg` in the pullback, with the
    /// partials the rule computed saved.
    fn scalar(&mut self, p: PrimAt, parts: Vec<Partial>) {
        let cx = self.cx;
        let primal = cx.p;
        let fv = fdata_const(&mut emit!(self, p.at), &cx.ft(p.r));
        self.fmap.insert(p.r, fv);
        if cx.rt(p.r) == Type::NoRData {
            return;
        }
        let mut ra = Vec::new();
        for (a, part) in p.args.iter().zip(parts) {
            // A constant's cotangent is never read: no partial.
            if cx.rt(*a) == Type::NoRData || primal.is_constant(*a) {
                continue;
            }
            let rp = match part {
                Partial::Zero => continue,
                Partial::One => RevPartial::One,
                Partial::MinusOne => RevPartial::MinusOne,
                Partial::Convert => RevPartial::Convert,
                Partial::Val(v) => RevPartial::Saved(self.sv.add(v)),
                Partial::Singular(v) => RevPartial::SavedSingular(self.sv.add(v)),
                Partial::If(c) => RevPartial::SavedIf(self.sv.add(c)),
            };
            ra.push((*a, rp));
        }
        if !ra.is_empty() {
            self.rv.push(Rev::Scalar { out: p.r, args: ra });
        }
    }

    /// What writing an element of array `p.args[0]` involves.
    fn element(&self, p: &PrimAt) -> Element {
        let cx = self.cx;
        let arr = p.args[0];
        let at = cx.ty(arr);
        let elem = match &at {
            Type::Array(el, _) => (**el).clone(),
            _ => unreachable!("an array primitive's first operand is an array"),
        };
        // The fdata array's element: the element's whole tangent.
        let tte = tangent_elem(&cx.ft(arr));
        Element {
            fa: self.fmap[&arr],
            has_f: cx.ft(arr) != Type::NoFData,
            ert: rdata_type(&elem, cx.env),
            eft: fdata_type(&elem, cx.env),
            // Elements whose tangent is known only at run time: the tangent array holds whole
            // tangents, split and rebuilt at run time with the element's primal.
            dynamic: tte == Type::Any,
            tte,
            // Slots of non-bits arrays may be unassigned: saved as `#undef`.
            read_old: if elem.is_bits(cx.env) {
                Prim::ArrayRef
            } else {
                Prim::ArrayRefRaw
            },
            elem,
            at,
        }
    }

    /// `A[idx] = v`: the old element and its tangent are saved; the pullback restores them
    /// and gives `v` the element's cotangent.
    fn array_write(&mut self, p: PrimAt) {
        let el = self.element(&p);
        let env = self.cx.env;
        let (a_p, fa, arr_ft) = (p.margs[0], el.fa, self.cx.ft(p.args[0]));
        let idx: Vec<Value> = p.margs[2..].to_vec();
        let val_f = el.has_f.then(|| self.fmap[&p.args[1]]);
        let in_try = self.opts.in_try && el.has_f;
        let mut e = emit!(self, p.at);
        note_write(&mut e, in_try, a_p);
        let mut ra = vec![a_p];
        ra.extend(idx.iter().copied());
        let old_p = e.prim(el.read_old, ra, el.elem.clone());
        let old_f = el.has_f.then(|| {
            let mut fa_args = vec![fa];
            fa_args.extend(idx.iter().copied());
            e.prim(el.read_old, fa_args, el.tte.clone())
        });
        let mut wa = vec![a_p, p.margs[1]];
        wa.extend(idx.iter().copied());
        let nv = e.prim(Prim::ArraySet, wa, el.at.clone());
        if let Some(fv) = val_f {
            let z = element_tangent(&mut e, &el, p.margs[1], fv, env);
            let mut wf = vec![fa, z];
            wf.extend(idx.iter().copied());
            e.prim(Prim::ArraySet, wf, arr_ft);
        }
        self.vmap.insert(p.r, nv);
        self.fmap.insert(p.r, fa);
        let sv = &mut self.sv;
        let rev = Rev::ArrayWrite(ArrayWrite {
            val: p.args[1],
            arr: sv.add(a_p),
            idx: idx.iter().map(|v| sv.add(*v)).collect(),
            old_p: sv.add(old_p),
            fdata: old_f.map(|of| (sv.add(fa), sv.add(of))),
            ert: el.ert.clone(),
            val_p: el.dynamic.then(|| sv.add(p.margs[1])),
        });
        self.rv.push(rev);
    }

    /// `push!(A, v)`: the pullback pops the element and its tangent, giving `v` the latter.
    fn array_push(&mut self, p: PrimAt) {
        let el = self.element(&p);
        let env = self.cx.env;
        let (a_p, fa, arr_ft) = (p.margs[0], el.fa, self.cx.ft(p.args[0]));
        let val_f = el.has_f.then(|| self.fmap[&p.args[1]]);
        let in_try = self.opts.in_try && el.has_f;
        let mut e = emit!(self, p.at);
        note_write(&mut e, in_try, a_p);
        let nv = e.prim(Prim::ArrayPush, vec![a_p, p.margs[1]], el.at.clone());
        if let Some(fv) = val_f {
            let z = element_tangent(&mut e, &el, p.margs[1], fv, env);
            e.prim(Prim::ArrayPush, vec![fa, z], arr_ft);
        }
        self.vmap.insert(p.r, nv);
        self.fmap.insert(p.r, fa);
        let sv = &mut self.sv;
        let rev = Rev::ArrayPush(ArrayPush {
            val: p.args[1],
            arr: sv.add(a_p),
            fdata: el.has_f.then(|| sv.add(fa)),
            elem: el.elem.clone(),
            ert: el.ert.clone(),
            val_p: el.dynamic.then(|| sv.add(p.margs[1])),
        });
        self.rv.push(rev);
    }

    /// `v = pop!(A)`: the pullback pushes the element and its tangent back (plus `v`'s
    /// cotangent).
    fn array_pop(&mut self, p: PrimAt) {
        let el = self.element(&p);
        let env = self.cx.env;
        let (a_p, fa) = (p.margs[0], el.fa);
        let in_try = self.opts.in_try && el.has_f;
        let mut e = emit!(self, p.at);
        note_write(&mut e, in_try, a_p);
        let old_f = el
            .has_f
            .then(|| e.prim(Prim::ArrayPop, vec![fa], el.tte.clone()));
        let nv = e.prim(Prim::ArrayPop, vec![a_p], el.elem.clone());
        let fv = match old_f {
            Some(of) if el.dynamic => e.prim(Prim::TangentFdata, vec![nv, of], Type::Any),
            Some(of) if el.eft != Type::NoFData => recast(of, &el.tte, &el.eft, &mut e, env),
            _ => fdata_const(&mut e, &el.eft),
        };
        self.vmap.insert(p.r, nv);
        self.fmap.insert(p.r, fv);
        let sv = &mut self.sv;
        let rev = Rev::ArrayPop {
            out: p.r,
            arr: sv.add(a_p),
            val: sv.add(nv),
            fdata: old_f.map(|of| (sv.add(fa), sv.add(of))),
        };
        self.rv.push(rev);
    }

    /// `resize!(A, n)`: copies of the array and its fdata (slots a shrink cuts off come back
    /// from them), then both are resized.
    fn array_resize(&mut self, p: PrimAt) {
        let cx = self.cx;
        let arr = p.args[0];
        let (a_p, at, fat) = (p.margs[0], cx.ty(arr), cx.ft(arr));
        let fa = self.fmap[&arr];
        let has_f = fat != Type::NoFData;
        let in_try = self.opts.in_try && has_f;
        let mut e = emit!(self, p.at);
        note_write(&mut e, in_try, a_p);
        let saved_a = e.prim(Prim::ArrayCopy, vec![a_p], at.clone());
        let saved_f = has_f.then(|| e.prim(Prim::ArrayCopy, vec![fa], fat.clone()));
        let nv = e.prim(Prim::ArrayResize, vec![a_p, p.margs[1]], at);
        if has_f {
            e.prim(Prim::ArrayResize, vec![fa, p.margs[1]], fat);
        }
        self.vmap.insert(p.r, nv);
        self.fmap.insert(p.r, fa);
        let sv = &mut self.sv;
        let n = sv.add(p.margs[1]);
        let rev = Rev::ArrayResize {
            arr: sv.add(a_p),
            saved: sv.add(saved_a),
            n,
            fdata: saved_f.map(|s| (sv.add(fa), sv.add(s))),
        };
        self.rv.push(rev);
    }

    /// `t[i]` with a run-time index.
    fn tuple_index(&mut self, p: PrimAt) -> Result<(), AdError> {
        let cx = self.cx;
        let ft = cx.ft(p.r);
        let tt = cx.ty(p.args[0]);
        // The fdata tuple is indexed like the tuple: its elements share the result's fdata
        // type, or that is decided at run time (`Any`); the elements' rdata must form a tuple.
        let same_fdata = match cx.ft(p.args[0]) {
            Type::NoFData => true,
            Type::Tuple(fs) => ft == Type::Any || fs.iter().all(|f| *f == ft),
            _ => false,
        };
        if !same_fdata || !matches!(cx.rt(p.args[0]), Type::Tuple(_) | Type::NoRData) {
            return Err(cx.err(
                p.at.i,
                format!("indexing a {tt} by a run-time index is not supported by reverse mode yet"),
            ));
        }
        let ftuple = self.fmap.get(&p.args[0]).copied();
        let mut e = emit!(self, p.at);
        let fv = match ftuple {
            Some(fa) if ft != Type::NoFData => {
                e.prim(Prim::TupleGetIndex, vec![fa, p.margs[1]], ft.clone())
            }
            _ => fdata_const(&mut e, &ft),
        };
        self.fmap.insert(p.r, fv);
        if cx.rt(p.r) != Type::NoRData {
            let idx = self.sv.add(p.margs[1]);
            self.rv.push(Rev::TupleIndex {
                out: p.r,
                tuple: p.args[0],
                idx,
            });
        }
        Ok(())
    }

    /// A reshape sharing the array's memory: its fdata is the same reshape of the array's
    /// fdata (a cotangent added through either is the other's).
    fn array_share(&mut self, p: PrimAt) {
        let cx = self.cx;
        let arr = p.args[0];
        let ft = cx.ft(p.r);
        let fa = self.fmap[&arr];
        let mut e = emit!(self, p.at);
        let fv = if cx.ft(arr) == Type::NoFData {
            fdata_const(&mut e, &ft)
        } else {
            let mut a = vec![fa];
            a.extend(p.margs[1..].iter().copied());
            e.prim(p.op, a, ft.clone())
        };
        self.fmap.insert(p.r, fv);
    }

    /// A copy of an array: a new fdata array whose cotangent the pullback adds to the
    /// source's (element by element, or float field by float field for tangents that are
    /// isbits aggregates of floats, as those of complex numbers).
    fn array_copy(&mut self, p: PrimAt) -> Result<(), AdError> {
        let cx = self.cx;
        let arr = p.args[0];
        let ft = cx.ft(p.r);
        let fa = self.fmap[&arr];
        if cx.ft(arr) == Type::NoFData {
            let fv = fdata_const(&mut emit!(self, p.at), &ft);
            self.fmap.insert(p.r, fv);
        } else if rdata_type(&tangent_elem(&cx.ty(arr)), cx.env) == Type::NoRData {
            // Elements identified by address (arrays, mutable structs): the copy shares them,
            // and so shares their tangents.
            let mut a = vec![fa];
            a.extend(p.margs[1..].iter().copied());
            let fv = emit!(self, p.at).prim(p.op, a, ft.clone());
            self.fmap.insert(p.r, fv);
        } else {
            let te = tangent_elem(&cx.ft(arr));
            let floats = matches!(te, Type::Float64 | Type::Float32)
                || matches!(
                    te,
                    Type::Struct(..) | Type::Tuple(_) | Type::NamedTuple(..) | Type::Tangent(_)
                ) && te.is_bits(cx.env);
            if !floats {
                return Err(cx.err(
                    p.at.i,
                    format!(
                        "copying an array of {} is not supported by reverse mode yet",
                        cx.ty(arr)
                    ),
                ));
            }
            // A zero array like the source's fdata (of tangent elements; for floats, the
            // primal's own element type).
            let like = if matches!(te, Type::Float64 | Type::Float32) {
                p.nv
            } else {
                fa
            };
            let fb = emit!(self, p.at).prim(Prim::ArrayZeroLike, vec![like], ft.clone());
            self.fmap.insert(p.r, fb);
            let (src, dst) = (self.sv.add(fa), self.sv.add(fb));
            self.rv.push(Rev::ArrayCopy { src, dst });
        }
        Ok(())
    }

    /// A primitive with a matrix rule: a new fdata array for the result; the pullback adds the
    /// arguments' cotangents into their fdata as the rule says, from the saved arguments, their
    /// fdata and the result.
    fn matrix(&mut self, p: PrimAt, rule: MatrixRule) {
        let cx = self.cx;
        let ft = cx.ft(p.r);
        let fout = emit!(self, p.at).prim(Prim::ArrayZeroLike, vec![p.nv], ft);
        self.fmap.insert(p.r, fout);
        let args = (0..p.args.len())
            .map(|k| {
                let x = p.args[k];
                let fx = (cx.ft(x) != Type::NoFData).then(|| self.sv.add(self.fmap[&x]));
                (self.sv.add(p.margs[k]), fx)
            })
            .collect();
        let out = (self.sv.add(p.nv), self.sv.add(fout));
        self.rv.push(Rev::Matrix { rule, args, out });
    }

    /// `A[idx]`: the element's fdata is read from the fdata array; the pullback adds the
    /// cotangent into it.
    fn array_read(&mut self, p: PrimAt) {
        let cx = self.cx;
        let arr = p.args[0];
        let fa = self.fmap[&arr];
        let elem_ft = cx.ft(p.r);
        let tte = tangent_elem(&cx.ft(arr));
        let mut e = emit!(self, p.at);
        let fv = if elem_ft == Type::NoFData {
            fdata_const(&mut e, &elem_ft)
        } else {
            // The element's tangent, of which the fdata part is taken.
            let mut a = vec![fa];
            a.extend(p.margs[1..].iter().copied());
            let t = e.prim(p.op, a, tte.clone());
            if tte == Type::Any {
                e.prim(Prim::TangentFdata, vec![p.nv, t], Type::Any)
            } else {
                recast(t, &tte, &elem_ft, &mut e, cx.env)
            }
        };
        self.fmap.insert(p.r, fv);
        if cx.rt(p.r) != Type::NoRData {
            let sv = &mut self.sv;
            let fi = sv.add(fa);
            let idx: Vec<usize> = p.margs[1..].iter().map(|v| sv.add(*v)).collect();
            let primal = (tte == Type::Any).then(|| sv.add(p.nv));
            self.rv.push(Rev::ArrayRead {
                out: p.r,
                fdata: fi,
                idx,
                elem: cx.rt(p.r),
                primal,
            });
        }
    }

    /// Narrowing a value narrows its fdata (from `Any` to the member's).
    fn type_assert(&mut self, at: At, r: Value, val: Value) -> Result<(), AdError> {
        let cx = self.cx;
        let (ft_r, ft_v) = (cx.ft(r), cx.ft(val));
        let fval = self.fmap[&val];
        let mut e = emit!(self, at);
        let fv = if ft_r == ft_v {
            fval
        } else if ft_r == Type::NoFData {
            fdata_const(&mut e, &ft_r)
        } else {
            narrow(&mut e, fval, ft_r.clone())
        };
        self.fmap.insert(r, fv);
        if cx.rt(r) != Type::NoRData && rdata_compatible(&cx.rt(r), &cx.rt(val)) {
            self.rv.push(Rev::Pass { out: r, val });
        } else if cx.rt(r) != Type::NoRData {
            return Err(cx.err(at.i, format!(
                "a value of type {} narrowed to {}: reverse mode supports unions in which at most one kind of reverse data occurs (e.g. Union{{Int64, Float64}}), not this one yet",
                cx.ty(val),
                cx.ty(r)
            )));
        }
        Ok(())
    }

    /// A tuple or an immutable struct.
    fn build(&mut self, at: At, r: Value, args: &[Value]) -> Result<(), AdError> {
        let cx = self.cx;
        let ft = cx.ft(r);
        let mut e = emit!(self, at);
        // A field `new` leaves `#undef` has an `#undef` tangent.
        let fs: Vec<Value> = if ft == Type::NoFData {
            vec![]
        } else {
            args.iter()
                .map(|a| match cx.ty(*a) {
                    Type::Bottom => e.konst(Const::Undef),
                    _ => self.fmap[a],
                })
                .collect()
        };
        let fv = if ft == Type::NoFData {
            fdata_const(&mut e, &ft)
        } else {
            rdata_build(&ft, fs, &mut e)
        };
        self.fmap.insert(r, fv);
        if self.cx.rt(r) != Type::NoRData {
            self.rv.push(Rev::Build {
                out: r,
                args: args.to_vec(),
            });
        }
        Ok(())
    }

    /// Field `k` of an immutable value of concrete type.
    fn field(&mut self, at: At, r: Value, obj: Value, k: u32) -> Result<(), AdError> {
        let ft = self.cx.ft(r);
        let fo = self.fmap.get(&obj).copied();
        let mut e = emit!(self, at);
        let fv = match fo {
            Some(fo) if ft != Type::NoFData => e.field(fo, k, ft.clone()),
            _ => fdata_const(&mut e, &ft),
        };
        self.fmap.insert(r, fv);
        if self.cx.rt(r) != Type::NoRData {
            self.rv.push(Rev::Field { out: r, obj, k });
        }
        Ok(())
    }

    /// A field of an object whose type is known only at run time: its fdata and, in the
    /// pullback, the cotangent of the object are found by name (a position, `"2"`, for a
    /// field read by index: `a, b = t` of an untyped `t`).
    fn dynamic_field(
        &mut self,
        at: At,
        r: Value,
        obj: Value,
        field: &FieldRef,
    ) -> Result<(), AdError> {
        let cx = self.cx;
        let name: std::sync::Arc<str> = match field {
            FieldRef::Name(n) => std::sync::Arc::from(n.as_str()),
            FieldRef::Index(k) => std::sync::Arc::from((k + 1).to_string()),
        };
        let (vo, fo) = (self.vmap[&obj], self.fmap[&obj]);
        let mut e = emit!(self, at);
        let nv = e.konst(Const::Str(name.clone()));
        let fv = match cx.ft(r) {
            Type::NoFData => fdata_const(&mut e, &Type::NoFData),
            ft => {
                let x = e.prim(Prim::FieldFdata, vec![vo, fo, nv], Type::Any);
                narrow(&mut e, x, ft)
            }
        };
        self.fmap.insert(r, fv);
        if cx.rt(r) != Type::NoRData {
            let (primal, fdata) = (self.sv.add(vo), self.sv.add(fo));
            self.rv.push(Rev::DynField {
                out: r,
                obj,
                primal,
                fdata,
                name,
            });
        }
        Ok(())
    }

    /// A new mutable struct: its fdata is a new mutable tangent holding each field's tangent;
    /// a float field's cotangent returns to its argument, and so does the reverse data of a
    /// field holding a struct or tuple of floats (split from its tangent when the code runs).
    fn new_mutable(&mut self, at: At, r: Value, _ty: &Type, args: &[Value]) -> Result<(), AdError> {
        let cx = self.cx;
        let ft = cx.ft(r);
        if ft == Type::NoFData {
            let fv = fdata_const(&mut emit!(self, at), &ft);
            self.fmap.insert(r, fv);
            return Ok(());
        }
        let tts = cx.env.field_types(&ft).unwrap_or_default();
        let mut e = emit!(self, at);
        let mut fields = Vec::new();
        for (a, tt) in args.iter().zip(tts.iter()) {
            fields.push(field_tangent(&mut e, cx, *a, tt, &self.vmap, &self.fmap));
        }
        let mt = e.val(
            InstData::New {
                ty: ft.clone(),
                args: fields,
            },
            ft.clone(),
        );
        self.fmap.insert(r, mt);
        // Fields whose cotangent returns to the argument: floats, and fields whose tangent is
        // known only at run time (with the primal saved).
        let mut back: Vec<(Value, u32, Option<usize>)> = Vec::new();
        for (k, (a, tt)) in args.iter().zip(tts.iter()).enumerate() {
            if cx.ty(*a) == Type::Bottom {
                // A field left `#undef`: nothing returns to it.
            } else if runtime_tangent_field(cx, *a, tt) && cx.rt(*a) != Type::NoRData {
                back.push((*a, k as u32, Some(self.sv.add(self.vmap[a]))));
            } else if cx.rt(*a).is_float() {
                back.push((*a, k as u32, None));
            }
        }
        if !back.is_empty() {
            let tangent = self.sv.add(mt);
            self.rv.push(Rev::MutableNew {
                tangent,
                fields: back,
            });
        }
        Ok(())
    }

    /// Field `k` of a mutable struct: read from its mutable tangent.
    fn mutable_read(&mut self, at: At, r: Value, obj: Value, k: u32) -> Result<(), AdError> {
        let cx = self.cx;
        let ft = cx.ft(r);
        let mt = self.fmap[&obj];
        let vr = self.vmap[&r];
        // The field's tangent type: `Any` when known only at run time.
        let tt = cx
            .env
            .field_types(&cx.ft(obj))
            .unwrap_or_default()
            .get(k as usize)
            .cloned()
            .unwrap_or(Type::NoTangent);
        let has_t = cx.ft(obj) != Type::NoFData;
        let dynamic = has_t && runtime_tangent_field(cx, r, &tt);
        let mut e = emit!(self, at);
        let fv = if ft == Type::NoFData {
            fdata_const(&mut e, &ft)
        } else if dynamic {
            let t = e.field(mt, k, tt.clone());
            let x = e.prim(Prim::TangentFdata, vec![vr, t], Type::Any);
            narrow(&mut e, x, ft)
        } else if has_t && cx.ty(r) != Type::Any {
            // A field whose tangent is its fdata (an array, a mutable struct).
            e.field(mt, k, ft.clone())
        } else {
            return Err(cx.err(
                at.i,
                format!(
                    "reading a field of type {} from a mutable struct is not supported by reverse mode yet",
                    cx.ty(r)
                ),
            ));
        };
        self.fmap.insert(r, fv);
        if has_t && (cx.rt(r).is_float() || (dynamic && cx.rt(r) != Type::NoRData)) {
            let tangent = self.sv.add(mt);
            let primal = dynamic.then(|| self.sv.add(vr));
            self.rv.push(Rev::MutableRead {
                out: r,
                tangent,
                k,
                primal,
            });
        }
        Ok(())
    }

    /// `obj.k = val` of a mutable struct: the old field and its tangent are saved; the
    /// pullback restores them (giving a float `val` the field's cotangent).
    fn mutable_write(&mut self, at: At, obj: Value, k: u32, val: Value) -> Result<(), AdError> {
        let cx = self.cx;
        let env = cx.env;
        let (o, v) = (self.vmap[&obj], self.vmap[&val]);
        let field_type = |t: &Type| {
            env.field_types(t)
                .unwrap_or_default()
                .get(k as usize)
                .cloned()
        };
        let pt = field_type(&cx.ty(obj)).unwrap_or_default();
        let has_t = cx.ft(obj) != Type::NoFData;
        let mt = has_t.then(|| self.fmap[&obj]);
        let in_try = self.opts.in_try
            && has_t
            && field_type(&cx.ft(obj)).is_some_and(|tt| tt != Type::NoTangent);
        let mut e = emit!(self, at);
        note_write(&mut e, in_try, o);
        // A field that can be `#undef` (not of a bits type: `new` may have left it so) is
        // saved as it is, `#undef` included, and restored so.
        let raw = !pt.is_bits(env);
        let read_old = |e: &mut Emit, x: Value, t: Type| {
            if raw {
                let kv = e.konst(Const::Int(k as i64 + 1));
                let tv = e.konst(Const::Type(t.clone()));
                e.prim(Prim::GetFieldRaw, vec![x, kv, tv], t)
            } else {
                e.field(x, k, t)
            }
        };
        let old_p = read_old(&mut e, o, pt);
        let (old_t, new_t) = match mt {
            Some(mt) => {
                let tt = field_type(&cx.ft(obj)).unwrap_or_default();
                let old_t = read_old(&mut e, mt, tt.clone());
                let new_t = field_tangent(&mut e, cx, val, &tt, &self.vmap, &self.fmap);
                (Some(old_t), Some(new_t))
            }
            None => (None, None),
        };
        let dynamic =
            has_t && field_type(&cx.ft(obj)).is_some_and(|tt| runtime_tangent_field(cx, val, &tt));
        e.inst(
            InstData::SetField {
                obj: o,
                field: FieldRef::Index(k),
                val: v,
            },
            Type::Any,
        );
        if let (Some(mt), Some(nt)) = (mt, new_t) {
            e.inst(
                InstData::SetField {
                    obj: mt,
                    field: FieldRef::Index(k),
                    val: nt,
                },
                Type::Any,
            );
        }
        let sv = &mut self.sv;
        let rev = Rev::MutableWrite(MutableWrite {
            val,
            obj: sv.add(o),
            k,
            old_p: sv.add(old_p),
            tangent: match (mt, old_t) {
                (Some(mt), Some(ot)) => Some((sv.add(mt), sv.add(ot))),
                _ => None,
            },
            float: cx.rt(val).is_float(),
            val_p: (dynamic && cx.rt(val) != Type::NoRData).then(|| sv.add(v)),
        });
        self.rv.push(rev);
        Ok(())
    }

    /// A global's tangent starts at zero in each gradient and is shared by every read of its
    /// value (so a derivative written into a global array and read back elsewhere is kept); no
    /// derivative with respect to a global is returned.
    fn global(&mut self, at: At, r: Value) -> Result<(), AdError> {
        let ft = self.cx.ft(r);
        let vr = self.vmap[&r];
        let mut e = emit!(self, at);
        let fv = if ft == Type::NoFData {
            fdata_const(&mut e, &ft)
        } else {
            let x = e.prim(Prim::GlobalFdata, vec![vr], Type::Any);
            narrow(&mut e, x, ft)
        };
        self.fmap.insert(r, fv);
        Ok(())
    }

    /// A static call: the callee's forwards pass on a child of the rule state, or a rule of
    /// the default context.
    fn invoke(&mut self, at: At, r: Value, callee: &Callee, args: &[Value]) -> Result<(), AdError> {
        let cx = self.cx;
        let ats: Vec<Type> = args[1..].iter().map(|a| cx.ty(*a)).collect();
        if let Some(rule) = crate::rules::broadcast_rule(
            self.opts.context,
            crate::rules::AdMode::Reverse,
            callee.func.as_str(),
            &ats,
            cx.env,
            &|k| cx.p.is_constant(args[1 + k]),
        ) {
            self.broadcast(at, r, callee, args, &rule);
            return Ok(());
        }
        if let Some(rule) = crate::rules::fast_rule(
            self.opts.context,
            crate::rules::AdMode::Reverse,
            callee.func.as_str(),
            &ats,
        ) {
            self.fast_call(at, r, callee, args, rule);
            return Ok(());
        }
        let key = MiKey::of(callee);
        let site = self.sites;
        self.sites += 1;
        let mut fsig = vec![rule_state_type()];
        for a in args {
            fsig.push(cx.ty(*a));
            fsig.push(cx.ft(*a));
        }
        let opts = self.opts;
        let fcallee = Callee {
            func: (self.names)(DerivedKey {
                primal: key.clone(),
                mode: Mode::Forward,
                opts,
            }),
            method: 0,
            sig: fsig.into(),
        };
        let mut e = emit!(self, at);
        let cs = child_state(&mut e, self.state, site);
        let mut fargs = vec![cs];
        for a in args {
            fargs.push(self.vmap[a]);
            fargs.push(self.fmap[a]);
        }
        let rt = Type::tuple(vec![cx.ty(r), cx.ft(r)]);
        let pair = e.val(
            InstData::Invoke {
                callee: fcallee,
                args: fargs,
            },
            rt,
        );
        let y = e.field(pair, 0, cx.ty(r));
        let fy = e.field(pair, 1, cx.ft(r));
        if opts.debug && cx.ft(r) != Type::NoFData {
            ad_check(
                &mut e,
                y,
                fy,
                &format!("result of the call of {}", key.display()),
            );
        }
        self.vmap.insert(r, y);
        self.fmap.insert(r, fy);
        // The callee's pullback always runs, so that its stacks stay balanced.
        let rsig: Vec<Type> = vec![rule_state_type(), cx.rt(r)];
        let rret = Type::tuple(args.iter().map(|a| cx.rt(*a)).collect());
        let rcallee = Callee {
            func: (self.names)(DerivedKey {
                primal: key,
                mode: Mode::Pullback,
                opts,
            }),
            method: 0,
            sig: rsig.into(),
        };
        self.rv.push(Rev::Invoke {
            out: r,
            site,
            callee: rcallee,
            ret: rret,
            args: args.to_vec(),
        });
        Ok(())
    }

    /// A rule of the default context: the call runs as in the primal; the pullback updates
    /// the array arguments' fdata directly.
    fn fast_call(
        &mut self,
        at: At,
        r: Value,
        callee: &Callee,
        args: &[Value],
        rule: crate::rules::FastRule,
    ) {
        let cx = self.cx;
        let margs: Vec<Value> = args.iter().map(|a| self.vmap[a]).collect();
        let mut e = emit!(self, at);
        let y = e.val(
            InstData::Invoke {
                callee: callee.clone(),
                args: margs,
            },
            cx.ty(r),
        );
        let fv = fdata_const(&mut e, &cx.ft(r));
        self.vmap.insert(r, y);
        self.fmap.insert(r, fv);
        let arrays = args[1..]
            .iter()
            .map(|a| (self.sv.add(self.vmap[a]), self.sv.add(self.fmap[a])))
            .collect();
        self.rv.push(Rev::Fast {
            out: r,
            rule,
            arrays,
        });
    }

    /// A broadcast by its rule (`rules::BroadcastRule`): the loop's forward-mode rule with a
    /// lane per differentiable argument computes the elements and, in the lanes' tangents of
    /// the result, their partial derivatives, which the pullback multiplies by the result's
    /// cotangent.
    fn broadcast(
        &mut self,
        at: At,
        r: Value,
        callee: &Callee,
        args: &[Value],
        rule: &crate::rules::BroadcastRule,
    ) {
        let cx = self.cx;
        let n = rule.width;
        let Type::Array(elem, _) = cx.ty(args[2]) else {
            unreachable!("a broadcast's rule writes into an array")
        };
        let elem = (*elem).clone();
        let mut e = emit!(self, at);
        let nt = e.konst(Const::Singleton(Type::NoTangent));
        let scalar = |e: &mut Emit, x: f64| e.konst(crate::rules::fconst(&elem, x));
        let (mut dargs, mut dsig) = (Vec::new(), Vec::new());
        for (k, a) in args.iter().enumerate() {
            let (v, t, tt) = (self.vmap[a], cx.ty(*a), tangent_of(&cx.ty(*a), cx.env));
            let lane = k.checked_sub(3).and_then(|j| rule.lanes[j]);
            let ts: Vec<Value> = if k == 2 {
                // Each lane's tangent of the result, written by the loop: its partials.
                (0..n)
                    .map(|_| e.prim(Prim::ArrayZeroLike, vec![v], tt.clone()))
                    .collect()
            } else if tt == Type::NoTangent {
                vec![nt; n]
            } else if matches!(t, Type::Array(..)) {
                // Ones in the argument's lane, zeros (one array) in the others.
                let one = lane.map(|_| {
                    let z = e.prim(Prim::ArrayZeroLike, vec![v], tt.clone());
                    let c = scalar(&mut e, 1.0);
                    e.prim(Prim::ArrayAddScalar, vec![z, c], tt.clone())
                });
                let zero = (lane.is_none() || n > 1)
                    .then(|| e.prim(Prim::ArrayZeroLike, vec![v], tt.clone()));
                (0..n)
                    .map(|l| match (lane == Some(l), one, zero) {
                        (true, Some(x), _) | (false, _, Some(x)) => x,
                        _ => unreachable!("a seed for every lane"),
                    })
                    .collect()
            } else {
                let (zero, one) = (scalar(&mut e, 0.0), scalar(&mut e, 1.0));
                (0..n)
                    .map(|l| if lane == Some(l) { one } else { zero })
                    .collect()
            };
            dargs.push(v);
            dsig.push(t);
            dargs.extend(ts);
            dsig.extend(std::iter::repeat_n(tt, n));
        }
        let rtt = tangent_of(&cx.ty(r), cx.env);
        let mut rts = vec![cx.ty(r)];
        rts.extend(std::iter::repeat_n(rtt.clone(), n));
        let dcallee = Callee {
            func: (self.names)(DerivedKey {
                primal: MiKey::of(callee),
                mode: Mode::Dual(n as u8),
                opts: self.opts,
            }),
            method: 0,
            sig: dsig.into(),
        };
        let tup = e.val(
            InstData::Invoke {
                callee: dcallee,
                args: dargs,
            },
            Type::tuple(rts),
        );
        let y = e.field(tup, 0, cx.ty(r));
        let partials: Vec<Value> = (0..n)
            .map(|l| e.field(tup, 1 + l as u32, rtt.clone()))
            .collect();
        // The result is the destination: the same fdata.
        let fy = self.fmap[&args[2]];
        self.vmap.insert(r, y);
        self.fmap.insert(r, fy);
        let sv = &mut self.sv;
        let inputs = args[3..]
            .iter()
            .zip(&rule.lanes)
            .filter_map(|(a, lane)| {
                let l = (*lane)?;
                let to = if matches!(cx.ty(*a), Type::Array(..)) {
                    Cotangent::Fdata(sv.add(self.fmap[a]))
                } else {
                    Cotangent::Acc(*a)
                };
                Some((to, sv.add(partials[l])))
            })
            .collect();
        self.rv.push(Rev::Broadcast {
            fy: sv.add(fy),
            elem,
            inputs,
        });
    }

    /// A threaded loop, `Core.threads_run(body, first, n, nt, rngs, disjoint)`: the AD
    /// runtime runs each share's forwards pass of the body on a child state of its own call
    /// site (`Core.threads_fwd`), and their pullbacks (`Core.threads_rvs`).
    fn threads(&mut self, at: At, r: Value, args: &[Value]) {
        let site = self.sites;
        self.sites += 1;
        let mut e = emit!(self, at);
        let cs = child_state(&mut e, self.state, site);
        let ov = e.konst(Const::Int(self.opts.to_bits()));
        let mut fargs = vec![cs, ov, self.vmap[&args[0]], self.fmap[&args[0]]];
        fargs.extend(args[1..].iter().map(|a| self.vmap[a]));
        let y = e.prim(Prim::ThreadsFwd, fargs, Type::Nothing);
        let fy = fdata_const(&mut e, &Type::NoFData);
        self.vmap.insert(r, y);
        self.fmap.insert(r, fy);
        self.rv.push(Rev::Threads {
            site,
            body: args[0],
        });
    }

    /// A dynamic call: the rule of the method the run-time types select (see the AD
    /// runtime's dynamic rules), run on a child state of its own call site.
    fn call(&mut self, at: At, r: Value, args: &[Value]) -> Result<(), AdError> {
        self.dynamic(at, r, args, DualCallKind::Call)
    }

    /// What the AD runtime runs for `kind` (`Core.dyn_fwd`, see `DualCallOp`): a dynamic
    /// call `args[0](args[1..]...)`, or a `try` (`Core.try_catch(body, handler)`, whose
    /// pullback gives the reverse data of its two functions as a call's gives the function's
    /// and its argument's).
    fn dynamic(
        &mut self,
        at: At,
        r: Value,
        args: &[Value],
        kind: DualCallKind,
    ) -> Result<(), AdError> {
        let cx = self.cx;
        let site = self.sites;
        self.sites += 1;
        let mut e = emit!(self, at);
        let cs = child_state(&mut e, self.state, site);
        let op = DualCallOp {
            opts: self.opts,
            kind,
        };
        let ov = e.konst(Const::Int(op.to_bits()));
        let mut fargs = vec![cs, ov];
        for a in args {
            fargs.push(self.vmap[a]);
            fargs.push(self.fmap[a]);
        }
        let pair = e.prim(Prim::DynFwd, fargs, Type::tuple(vec![Type::Any, Type::Any]));
        // Narrowed to what inference knows of the result.
        let y = e.field(pair, 0, Type::Any);
        let y = narrow(&mut e, y, cx.ty(r));
        let fy = match cx.ft(r) {
            Type::NoFData => fdata_const(&mut e, &Type::NoFData),
            t => {
                let x = e.field(pair, 1, Type::Any);
                narrow(&mut e, x, t)
            }
        };
        self.vmap.insert(r, y);
        self.fmap.insert(r, fy);
        self.rv.push(Rev::Dynamic {
            out: r,
            site,
            args: args.to_vec(),
        });
        Ok(())
    }
}

/// A primitive instruction being derived.
struct PrimAt<'a> {
    at: At,
    r: Value,
    op: Prim,
    /// The primal operands and the forwards pass's.
    args: &'a [Value],
    margs: &'a [Value],
    /// The forwards pass's result (the array, for writes).
    nv: Value,
}

/// What writing an element of an array involves.
struct Element {
    /// The array's primal type and element type.
    at: Type,
    elem: Type,
    /// The array's fdata (a tangent array) and whether it has one.
    fa: Value,
    has_f: bool,
    /// The element's reverse data, forward data and whole tangent types.
    ert: Type,
    eft: Type,
    tte: Type,
    /// The element's tangent is known only at run time.
    dynamic: bool,
    /// How the old element is read.
    read_old: Prim,
}

/// Inside a `try` body (`in_try`): `Core.note_write(obj)` before a write into `obj` that can
/// carry a derivative (see `RuleOptions::in_try`).
fn note_write(e: &mut Emit, in_try: bool, obj: Value) {
    if in_try {
        e.inst(
            InstData::Prim {
                op: Prim::NoteWrite,
                args: vec![obj],
            },
            Type::Nothing,
        );
    }
}

/// `x` (typed `Any`) asserted to be of type `t` (no assertion when `t` is `Any`).
fn narrow(e: &mut Emit, x: Value, t: Type) -> Value {
    if t == Type::Any {
        x
    } else {
        e.val(
            InstData::TypeAssert {
                val: x,
                ty: t.clone(),
            },
            t,
        )
    }
}

/// The tangent stored in the fdata array for the value `x` (with fdata `fv`) written.
fn element_tangent(e: &mut Emit, el: &Element, x: Value, fv: Value, env: &ir::TypeEnv) -> Value {
    if el.dynamic {
        e.prim(Prim::TangentOf, vec![x, fv], Type::Any)
    } else {
        tangent_of_fdata(fv, &el.eft, &el.tte, e, env)
    }
}
