//! The pullback of each instruction kind: emitted from the `Rev` the forwards pass recorded,
//! reading the values it saved.

use super::rdata::{add_rdata, rdata_as, rdata_leafwise, recast, tangent_plus_rdata, zero_rdata};
use super::rev::{ArrayPush, ArrayWrite, Cotangent, MutableWrite, Rev, RevPartial};
use super::saved::{rule_state_type, SavedVals};
use super::{tangent_elem, Ctx};
use crate::emit::Emit;
use crate::rules::BroadcastRule;
use ir::{Callee, Const, FieldRef, InstData, Prim, Slot, Type, Value};
use rustc_hash::FxHashMap;

/// Emits the pullback of one instruction (`r`) at `e`.
pub(super) fn emit_pullback(
    e: &mut Emit,
    r: &Rev,
    acc: &FxHashMap<Value, Slot>,
    saved: &SavedVals,
    cx: &Ctx,
    state: Value,
) {
    let p = PullbackInst {
        acc,
        saved,
        cx,
        state,
    };
    p.emit(e, r);
}

/// What the pullback of an instruction reads: the accumulators, the block's saved values,
/// the primal, and the rule state.
struct PullbackInst<'a> {
    acc: &'a FxHashMap<Value, Slot>,
    saved: &'a SavedVals<'a>,
    cx: &'a Ctx<'a>,
    state: Value,
}

impl PullbackInst<'_> {
    fn emit(&self, e: &mut Emit, r: &Rev) {
        match r {
            Rev::Scalar { out, args } => self.scalar(e, out, args),
            Rev::ArrayRead {
                out,
                fdata,
                idx,
                elem,
                primal,
            } => self.array_read(e, out, fdata, idx, elem, primal),
            Rev::Pass { out, val } => self.pass(e, out, val),
            Rev::ArrayWrite(w) => self.array_write(e, w),
            Rev::Fast { out, rule, arrays } => self.fast(e, out, rule, arrays),
            Rev::Broadcast { fy, elem, inputs } => {
                // (The result's fdata is not reset: only the broadcast's pullback reads it,
                // the array being new.)
                let fy = self.saved[*fy];
                for (to, p) in inputs {
                    let p = self.saved[*p];
                    match to {
                        Cotangent::Fdata(fx) => {
                            BroadcastRule::pullback(e, fy, p, Some(self.saved[*fx]), elem);
                        }
                        Cotangent::Acc(x) => {
                            let dx = BroadcastRule::pullback(e, fy, p, None, elem);
                            self.add(e, *x, dx);
                        }
                    }
                }
            }
            Rev::ArrayPush(w) => self.array_push(e, w),
            Rev::ArrayResize {
                arr,
                saved,
                n,
                fdata,
            } => self.array_resize(e, arr, saved, n, fdata),
            Rev::ArrayPop {
                out,
                arr,
                val,
                fdata,
            } => self.array_pop(e, out, arr, val, fdata),
            Rev::MutableNew { tangent, fields } => self.mutable_new(e, tangent, fields),
            Rev::MutableRead {
                out,
                tangent,
                k,
                primal,
            } => self.mutable_read(e, out, tangent, k, primal),
            Rev::MutableWrite(w) => self.mutable_write(e, w),
            Rev::TupleIndex { out, tuple, idx } => self.tuple_index(e, out, tuple, idx),
            Rev::ArrayCopy { src, dst } => self.array_copy(e, src, dst),
            Rev::Matrix { rule, args, out } => {
                let s = |k: usize| self.saved[k];
                let primals: Vec<Value> = args.iter().map(|a| s(a.0)).collect();
                let fdata: Vec<Option<Value>> = args.iter().map(|a| a.1.map(s)).collect();
                rule.pullback(e, &primals, &fdata, s(out.0), s(out.1));
            }
            Rev::Dynamic { out, site, args } => self.dynamic(e, out, site, args),
            Rev::Threads { site, body } => {
                let kv = e.konst(Const::Int(*site as i64));
                let cs = e.prim(Prim::RuleChild, vec![self.state, kv], rule_state_type());
                let rd = e.prim(Prim::ThreadsRvs, vec![cs], Type::Any);
                self.add(e, *body, rd);
            }
            Rev::DynField {
                out,
                obj,
                primal,
                fdata,
                name,
            } => self.dyn_field(e, out, obj, primal, fdata, name),
            Rev::Invoke {
                out,
                site,
                callee,
                ret,
                args,
            } => self.invoke(e, out, site, callee, ret, args),
            Rev::Build { out, args } => self.build(e, out, args),
            Rev::Field { out, obj, k } => self.field(e, out, obj, k),
        }
    }

    /// The cotangent of `v` (with its type), its accumulator reset; `None` if it has none.
    fn take(&self, e: &mut Emit, v: Value) -> Option<(Value, Type)> {
        let s = *self.acc.get(&v)?;
        let t = self.cx.rt(v);
        let a = e.val(InstData::GetSlot(s), t.clone());
        let z = zero_rdata(&t, e, self.cx.env);
        e.inst(InstData::SetSlot(s, z), Type::Any);
        Some((a, t))
    }

    /// `acc[v] += x` (converted to the accumulator's type), if `v` has an accumulator.
    fn add(&self, e: &mut Emit, v: Value, x: Value) {
        if let Some(&s) = self.acc.get(&v) {
            let t = self.cx.rt(v);
            let xt = e.f.types[x].clone();
            let x = rdata_as(x, &xt, &t, e);
            let old = e.val(InstData::GetSlot(s), t.clone());
            let new = add_rdata(old, x, &t, e, self.cx.env);
            e.inst(InstData::SetSlot(s, new), Type::Any);
        }
    }

    fn scalar(&self, e: &mut Emit, out: &Value, args: &[(Value, RevPartial)]) {
        let Some((a, t)) = self.take(e, *out) else {
            return;
        };
        for (arg, p) in args {
            let c = match p {
                RevPartial::One => a,
                RevPartial::MinusOne => e.prim(Prim::NegFloat, vec![a], t.clone()),
                RevPartial::Saved(k) => e.prim(Prim::MulFloat, vec![a, self.saved[*k]], t.clone()),
                RevPartial::SavedIf(k) => {
                    let zero = e.konst(match &t {
                        Type::Float32 => Const::F32(0.0),
                        _ => Const::F64(0.0),
                    });
                    e.prim(Prim::SelectFloat, vec![self.saved[*k], a, zero], t.clone())
                }
                RevPartial::SavedSingular(k) => {
                    let m = e.prim(Prim::MulFloat, vec![a, self.saved[*k]], t.clone());
                    crate::forward::strong_zero(e, a, m, &t)
                }
                RevPartial::Convert => {
                    let at = self.cx.rt(*arg);
                    let tt = e.konst(Const::Type(at.clone()));
                    e.prim(Prim::Fpconvert, vec![tt, a], at)
                }
            };
            self.add(e, *arg, c);
        }
    }

    fn array_read(
        &self,
        e: &mut Emit,
        out: &Value,
        fdata: &usize,
        idx: &[usize],
        elem: &Type,
        primal: &Option<usize>,
    ) {
        let Some((a, _)) = self.take(e, *out) else {
            return;
        };
        let fa = self.saved[*fdata];
        let is: Vec<Value> = idx.iter().map(|k| self.saved[*k]).collect();
        let tte = tangent_elem(&e.f.types[fa]);
        let mut ra = vec![fa];
        ra.extend(is.iter().copied());
        let old = e.prim(Prim::ArrayRef, ra, tte.clone());
        let new = match primal {
            Some(x) => e.prim(
                Prim::TangentAddRdata,
                vec![self.saved[*x], old, a],
                Type::Any,
            ),
            None => tangent_plus_rdata(old, &tte, a, elem, e, self.cx.env),
        };
        let mut wa = vec![fa, new];
        wa.extend(is);
        let at = e.f.types[fa].clone();
        e.prim(Prim::ArraySet, wa, at);
    }

    fn pass(&self, e: &mut Emit, out: &Value, val: &Value) {
        if let Some((a, _)) = self.take(e, *out) {
            self.add(e, *val, a);
        }
    }

    fn array_write(&self, e: &mut Emit, w: &ArrayWrite) {
        let ArrayWrite {
            val,
            arr,
            idx,
            old_p,
            fdata,
            ert,
            val_p,
        } = w;
        let a = self.saved[*arr];
        let is: Vec<Value> = idx.iter().map(|k| self.saved[*k]).collect();
        let at = e.f.types[a].clone();
        if let Some((fa, of)) = fdata {
            let (fa, of) = (self.saved[*fa], self.saved[*of]);
            let ft = e.f.types[fa].clone();
            let tte = tangent_elem(&ft);
            let mut ra = vec![fa];
            ra.extend(is.iter().copied());
            let dv = e.prim(Prim::ArrayRef, ra, tte.clone());
            let mut wf = vec![fa, of];
            wf.extend(is.iter().copied());
            e.prim(Prim::ArraySet, wf, ft);
            let dv = match val_p {
                Some(x) => e.prim(Prim::TangentRdata, vec![self.saved[*x], dv], Type::Any),
                None => recast(dv, &tte, ert, e, self.cx.env),
            };
            self.add(e, *val, dv);
        }
        let mut wa = vec![a, self.saved[*old_p]];
        wa.extend(is);
        e.prim(Prim::ArraySet, wa, at);
    }

    fn fast(
        &self,
        e: &mut Emit,
        out: &Value,
        rule: &crate::rules::FastRule,
        arrays: &[(usize, usize)],
    ) {
        let Some((a, _)) = self.take(e, *out) else {
            return;
        };
        let arrays: Vec<(Value, Value)> = arrays
            .iter()
            .map(|&(x, fx)| (self.saved[x], self.saved[fx]))
            .collect();
        rule.pullback(e, a, &arrays);
    }

    fn array_push(&self, e: &mut Emit, w: &ArrayPush) {
        let ArrayPush {
            val,
            arr,
            fdata,
            elem,
            ert,
            val_p,
        } = w;
        if let Some(fa) = fdata {
            let tte = tangent_elem(&e.f.types[self.saved[*fa]]);
            let dv = e.prim(Prim::ArrayPop, vec![self.saved[*fa]], tte.clone());
            let dv = match val_p {
                Some(x) => e.prim(Prim::TangentRdata, vec![self.saved[*x], dv], Type::Any),
                None => recast(dv, &tte, ert, e, self.cx.env),
            };
            self.add(e, *val, dv);
        }
        e.prim(Prim::ArrayPop, vec![self.saved[*arr]], elem.clone());
    }

    fn array_resize(
        &self,
        e: &mut Emit,
        arr: &usize,
        copy: &usize,
        n: &usize,
        fdata: &Option<(usize, usize)>,
    ) {
        let n = self.saved[*n];
        let pairs = std::iter::once((self.saved[*arr], self.saved[*copy]))
            .chain(fdata.map(|(fa, fc)| (self.saved[fa], self.saved[fc])));
        for (a, c) in pairs {
            let t = e.f.types[a].clone();
            e.prim(Prim::ArrayUnresize, vec![a, c, n], t);
        }
    }

    fn array_pop(
        &self,
        e: &mut Emit,
        out: &Value,
        arr: &usize,
        val: &usize,
        fdata: &Option<(usize, usize)>,
    ) {
        let a_out = self.take(e, *out);
        let at = e.f.types[self.saved[*arr]].clone();
        e.prim(
            Prim::ArrayPush,
            vec![self.saved[*arr], self.saved[*val]],
            at,
        );
        if let Some((fa, of)) = fdata {
            let ft = e.f.types[self.saved[*fa]].clone();
            let tte = tangent_elem(&ft);
            let restored = match a_out {
                Some((a, _)) if tte == Type::Any => e.prim(
                    Prim::TangentAddRdata,
                    vec![self.saved[*val], self.saved[*of], a],
                    Type::Any,
                ),
                Some((a, t)) => tangent_plus_rdata(self.saved[*of], &tte, a, &t, e, self.cx.env),
                None => self.saved[*of],
            };
            e.prim(Prim::ArrayPush, vec![self.saved[*fa], restored], ft);
        }
    }

    fn mutable_new(&self, e: &mut Emit, tangent: &usize, fields: &[(Value, u32, Option<usize>)]) {
        let mt = self.saved[*tangent];
        let tts = self.cx.env.field_types(&e.f.types[mt]).unwrap_or_default();
        for (arg, k, primal) in fields {
            let t = tts[*k as usize].clone();
            let x = e.field(mt, *k, t.clone());
            let z = match primal {
                Some(p) => {
                    let p = self.saved[*p];
                    let r = e.prim(Prim::TangentRdata, vec![p, x], Type::Any);
                    self.add(e, *arg, r);
                    let f = e.prim(Prim::TangentFdata, vec![p, x], Type::Any);
                    let z = e.prim(Prim::TangentOf, vec![p, f], Type::Any);
                    as_type(e, z, &t)
                }
                None => {
                    self.add(e, *arg, x);
                    zero_rdata(&t, e, self.cx.env)
                }
            };
            e.inst(
                InstData::SetField {
                    obj: mt,
                    field: FieldRef::Index(*k),
                    val: z,
                },
                Type::Any,
            );
        }
    }

    fn mutable_read(
        &self,
        e: &mut Emit,
        out: &Value,
        tangent: &usize,
        k: &u32,
        primal: &Option<usize>,
    ) {
        let Some((a, t)) = self.take(e, *out) else {
            return;
        };
        let mt = self.saved[*tangent];
        let new = match primal {
            Some(p) => {
                let ft = field_type_at(e, mt, *k, self.cx.env);
                let old = e.field(mt, *k, ft.clone());
                let new = e.prim(
                    Prim::TangentAddRdata,
                    vec![self.saved[*p], old, a],
                    Type::Any,
                );
                as_type(e, new, &ft)
            }
            None => {
                let old = e.field(mt, *k, t.clone());
                add_rdata(old, a, &t, e, self.cx.env)
            }
        };
        e.inst(
            InstData::SetField {
                obj: mt,
                field: FieldRef::Index(*k),
                val: new,
            },
            Type::Any,
        );
    }

    fn mutable_write(&self, e: &mut Emit, w: &MutableWrite) {
        let MutableWrite {
            val,
            obj,
            k,
            old_p,
            tangent,
            float,
            val_p,
        } = w;
        if let Some((mt, old_t)) = tangent {
            let (mt, old_t) = (self.saved[*mt], self.saved[*old_t]);
            if let Some(p) = val_p {
                let t = e.field(mt, *k, field_type_at(e, mt, *k, self.cx.env));
                let dv = e.prim(Prim::TangentRdata, vec![self.saved[*p], t], Type::Any);
                self.add(e, *val, dv);
            } else if *float {
                let t = e.f.types[old_t].clone();
                let dv = e.field(mt, *k, t);
                self.add(e, *val, dv);
            }
            e.inst(
                InstData::SetField {
                    obj: mt,
                    field: FieldRef::Index(*k),
                    val: old_t,
                },
                Type::Any,
            );
        }
        e.inst(
            InstData::SetField {
                obj: self.saved[*obj],
                field: FieldRef::Index(*k),
                val: self.saved[*old_p],
            },
            Type::Any,
        );
    }

    fn tuple_index(&self, e: &mut Emit, out: &Value, tuple: &Value, idx: &usize) {
        let Some((a, at)) = self.take(e, *out) else {
            return;
        };
        let Some(&s) = self.acc.get(tuple) else {
            return;
        };
        let t = self.cx.rt(*tuple);
        let Type::Tuple(ets) = &t else { return };
        let i = self.saved[*idx];
        let old = e.val(InstData::GetSlot(s), t.clone());
        if !ets.contains(&at) {
            // The element types differ in their reverse data (the read's is decided at
            // run time): element i gets it at run time.
            let new = e.prim(Prim::RdataAddAt, vec![old, i, a], t.clone());
            e.inst(InstData::SetSlot(s, new), Type::Any);
            return;
        }
        // Element j gets acc[out] when j == i: a 0/1 mask on every float leaf keeps this
        // branch-free.
        let mut parts = Vec::new();
        for (j, et) in ets.iter().enumerate() {
            let x = e.field(old, j as u32, et.clone());
            if *et != at {
                parts.push(x);
                continue;
            }
            let jv = e.konst(Const::Int(j as i64 + 1));
            let hit = e.prim(Prim::EqInt, vec![jv, i], Type::Bool);
            let hi = e.prim(Prim::BoolToInt, vec![hit], Type::Int64);
            parts.push(rdata_leafwise(
                &[x, a],
                et,
                e,
                self.cx.env,
                &mut |e, v, t| {
                    if !t.is_float() {
                        return v[0];
                    }
                    let ft = e.konst(Const::Type(t.clone()));
                    let m = e.prim(Prim::Sitofp, vec![ft, hi], t.clone());
                    let c = e.prim(Prim::MulFloat, vec![m, v[1]], t.clone());
                    e.prim(Prim::AddFloat, vec![v[0], c], t.clone())
                },
            ));
        }
        let new = e.val(InstData::Tuple { args: parts }, t.clone());
        e.inst(InstData::SetSlot(s, new), Type::Any);
    }

    fn array_copy(&self, e: &mut Emit, src: &usize, dst: &usize) {
        let t = e.f.types[self.saved[*src]].clone();
        e.prim(
            Prim::ArrayAccumulate,
            vec![self.saved[*src], self.saved[*dst]],
            t,
        );
    }

    fn dynamic(&self, e: &mut Emit, out: &Value, site: &u32, args: &[Value]) {
        let dy = match self.take(e, *out) {
            Some((a, _)) => a,
            None => e.konst(Const::Singleton(Type::NoRData)),
        };
        let kv = e.konst(Const::Int(*site as i64));
        let cs = e.prim(Prim::RuleChild, vec![self.state, kv], rule_state_type());
        let tt = Type::tuple(vec![Type::Any; args.len()]);
        let tv = e.konst(Const::Type(tt.clone()));
        let rd = e.prim(Prim::DynRvs, vec![cs, dy, tv], tt);
        for (j, arg) in args.iter().enumerate() {
            if self.acc.contains_key(arg) {
                let x = e.field(rd, j as u32, Type::Any);
                self.add(e, *arg, x);
            }
        }
    }

    fn dyn_field(
        &self,
        e: &mut Emit,
        out: &Value,
        obj: &Value,
        primal: &usize,
        fdata: &usize,
        name: &std::sync::Arc<str>,
    ) {
        let Some((a, _)) = self.take(e, *out) else {
            return;
        };
        let nv = e.konst(Const::Str(name.clone()));
        let r = e.prim(
            Prim::FieldCotangent,
            vec![self.saved[*primal], self.saved[*fdata], nv, a],
            Type::Any,
        );
        if self.acc.contains_key(obj) {
            self.add(e, *obj, r);
        }
    }

    fn invoke(
        &self,
        e: &mut Emit,
        out: &Value,
        site: &u32,
        callee: &Callee,
        ret: &Type,
        args: &[Value],
    ) {
        let dy = match self.take(e, *out) {
            Some((a, _)) => a,
            None => e.konst(Const::Singleton(Type::NoRData)),
        };
        let kv = e.konst(Const::Int(*site as i64));
        let cs = e.prim(Prim::RuleChild, vec![self.state, kv], rule_state_type());
        let rd = e.val(
            InstData::Invoke {
                callee: callee.clone(),
                args: vec![cs, dy],
            },
            ret.clone(),
        );
        let Type::Tuple(rts) = ret else { return };
        for (j, arg) in args.iter().enumerate() {
            if self.acc.contains_key(arg) {
                let x = e.field(rd, j as u32, rts[j].clone());
                self.add(e, *arg, x);
            }
        }
    }

    fn build(&self, e: &mut Emit, out: &Value, args: &[Value]) {
        let Some((a, t)) = self.take(e, *out) else {
            return;
        };
        let fts = self.cx.env.field_types(&t).unwrap_or_default();
        for (k, arg) in args.iter().enumerate() {
            if self.acc.contains_key(arg) {
                let x = e.field(a, k as u32, fts.get(k).cloned().unwrap_or_default());
                self.add(e, *arg, x);
            }
        }
    }

    fn field(&self, e: &mut Emit, out: &Value, obj: &Value, k: &u32) {
        let Some((a, _)) = self.take(e, *out) else {
            return;
        };
        if let Some(&s) = self.acc.get(obj) {
            let t = self.cx.rt(*obj);
            let old = e.val(InstData::GetSlot(s), t.clone());
            let fts = self.cx.env.field_types(&t).unwrap_or_default();
            let parts: Vec<Value> = fts
                .iter()
                .enumerate()
                .map(|(j, ft)| {
                    let x = e.field(old, j as u32, ft.clone());
                    if j as u32 == *k {
                        add_rdata(x, a, ft, e, self.cx.env)
                    } else {
                        x
                    }
                })
                .collect();
            let new = match &t {
                Type::Tuple(_) => e.val(InstData::Tuple { args: parts }, t.clone()),
                _ => e.val(
                    InstData::New {
                        ty: t.clone(),
                        args: parts,
                    },
                    t.clone(),
                ),
            };
            e.inst(InstData::SetSlot(s, new), Type::Any);
        }
    }
}

/// The declared type of field `k` of the mutable tangent `mt` (`Any` if unknown).
fn field_type_at(e: &Emit, mt: Value, k: u32, env: &ir::TypeEnv) -> Type {
    env.field_types(&e.f.types[mt])
        .and_then(|ts| ts.get(k as usize).cloned())
        .unwrap_or(Type::Any)
}

/// `x` (of type `Any`) asserted to be a `t`, to be stored in a field of that type.
fn as_type(e: &mut Emit, x: Value, t: &Type) -> Value {
    if *t == Type::Any {
        return x;
    }
    e.val(
        InstData::TypeAssert {
            val: x,
            ty: t.clone(),
        },
        t.clone(),
    )
}
