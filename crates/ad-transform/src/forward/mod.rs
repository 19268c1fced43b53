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

mod prim;
mod tangents;

use crate::emit::{Emit, SiteMarks};
use crate::{AdError, DerivedKey, DualCallKind, DualCallOp, Mode, RuleOptions};
use compiler::MiKey;
use ir::{
    Block, Callee, Const, FieldRef, Function, Inst, InstData, Phase, Prim, Type, TypeEnv, Value,
};
use rustc_hash::FxHashMap;
use syntax::Symbol;
use tangents::{dual_call, lanes, narrow, shared_tangent, tangent_check, with_tangents, zero};

pub(crate) use tangents::strong_zero;
pub use tangents::tangent_of;

/// The most lanes a forward rule computes at once.
pub const MAX_WIDTH: usize = 8;

#[derive(Clone, Copy)]
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

/// Derives the forward rule of `primal` with `width` lanes. `names` gives the name under which
/// a callee's forward rule is invoked (resolved, and derived, when first executed).
pub fn derive_forward(
    primal: &Function,
    env: &TypeEnv,
    width: usize,
    names: &mut dyn FnMut(DerivedKey) -> Symbol,
    opts: RuleOptions,
) -> Result<Function, AdError> {
    let layout = primal.reverse_postorder();
    let mut f = Function::new(format!("dual{width} {}", primal.name), Phase::Typed);
    // The union of what its returns return (see `Dual::inst`); `Union{}` if none returns.
    f.ret_type = Type::Bottom;
    let mut marks = SiteMarks::new(&mut f, primal);
    let fblocks: FxHashMap<Block, Block> = layout.iter().map(|b| (*b, f.add_block())).collect();
    let mut d = Dual {
        cx: Cx { p: primal, env },
        n: width,
        opts,
        names,
        fblocks,
        vmap: FxHashMap::default(),
        tmap: FxHashMap::default(),
    };
    d.params(&mut f, &layout);
    if opts.debug {
        d.check_arguments(&mut f, layout[0]);
    }
    for &b in &layout {
        let fb = d.fblocks[&b];
        for &i in &primal.blocks[b].insts {
            marks.start(&f, primal.inlined_at[i]);
            let mut e = Emit {
                f: &mut f,
                block: fb,
                loc: primal.locs[i],
            };
            d.inst(&mut e, i)?;
        }
    }
    marks.finish(&mut f);
    Ok(f)
}

/// A forward rule under construction.
struct Dual<'a> {
    cx: Cx<'a>,
    /// The lanes.
    n: usize,
    opts: RuleOptions,
    /// The name under which derived code invokes a derived function.
    names: &'a mut dyn FnMut(DerivedKey) -> Symbol,
    fblocks: FxHashMap<Block, Block>,
    /// Each primal value's value in the rule, and its tangent in each lane.
    vmap: FxHashMap<Value, Value>,
    tmap: FxHashMap<Value, Vec<Value>>,
}

impl Dual<'_> {
    /// Each block parameter, then its tangent in each lane.
    fn params(&mut self, f: &mut Function, layout: &[Block]) {
        let cx = self.cx;
        for &b in layout {
            for &p in &cx.p.blocks[b].params {
                let pv = f.add_block_param(self.fblocks[&b], cx.ty(p));
                self.vmap.insert(p, pv);
                let tt = cx.tt(p);
                let ts = (0..self.n)
                    .map(|_| f.add_block_param(self.fblocks[&b], tt.clone()))
                    .collect();
                self.tmap.insert(p, ts);
            }
        }
    }

    /// Debug mode: each argument's tangents match it.
    fn check_arguments(&self, f: &mut Function, entry: Block) {
        let primal = self.cx.p;
        let Some(&i0) = primal.blocks[entry].insts.first() else {
            return;
        };
        let mut e = Emit {
            f,
            block: self.fblocks[&entry],
            loc: primal.locs[i0],
        };
        for (k, &p) in primal.blocks[entry].params.iter().enumerate() {
            if self.cx.tt(p) != Type::NoTangent {
                for (l, &t) in self.tmap[&p].iter().enumerate() {
                    let what = format!("argument {k} of {} (lane {})", primal.name, l + 1);
                    tangent_check(&mut e, self.vmap[&p], t, &what);
                }
            }
        }
    }

    /// The rule's code for primal instruction `i`: the primal instruction (or the callee's
    /// forward rule) and the result's tangents.
    fn inst(&mut self, e: &mut Emit, i: Inst) -> Result<(), AdError> {
        let cx = self.cx;
        let n = self.n;
        let data = cx.p.insts[i].clone();
        let res = cx.p.result(i);
        // The primal instruction, re-emitted on mapped operands (calls run the callee's
        // forward rule instead).
        let is_call = matches!(
            data,
            InstData::Invoke { .. }
                | InstData::Call { .. }
                | InstData::Prim {
                    op: Prim::DualApply
                        | Prim::GradApply
                        | Prim::ThreadsRun
                        | Prim::TryCatch
                        | Prim::TryFinally,
                    ..
                }
        ) || data.is_terminator();
        if !is_call {
            let mut pd = data.clone();
            pd.map_args(|a| self.vmap.get(&a).copied().unwrap_or(a));
            let ty = res.map(|r| cx.ty(r)).unwrap_or_default();
            let nv = e.inst(pd, ty);
            if let (Some(r), Some(nv)) = (res, nv) {
                self.vmap.insert(r, nv);
            }
        }
        let r = || res.unwrap_or_else(|| unreachable!("the instruction has a result"));
        let ts: Option<Vec<Value>> = match &data {
            // An undefined value (a variable not assigned on this path) has an undefined
            // tangent: read, like the value, only behind a definedness check.
            InstData::Const(Const::Undef) => Some(vec![e.konst(Const::Undef); n]),
            InstData::Const(_) => {
                let z = zero(e, self.vmap[&r()], &cx.ty(r()), cx.env);
                Some(vec![z; n])
            }
            InstData::Prim {
                op: op @ (Prim::DualApply | Prim::GradApply),
                args,
            } => {
                // AD inside the language, differentiated again: `Core.dual_call` runs the
                // forward rule of its forward (or reverse) rule (see the AD runtime). The
                // primal result is recomputed by the nested rule: its value is used.
                let kind = match op {
                    Prim::DualApply => DualCallKind::DualApply,
                    _ => DualCallKind::GradApply,
                };
                Some(self.dual_call(e, r(), args, kind))
            }
            InstData::Prim {
                op: op @ (Prim::TryCatch | Prim::TryFinally),
                args,
            } => {
                // A `try`: the AD runtime runs the forward rule of the body, and of the
                // handler (or cleanup) when the body raises an error (see `Core.dual_call`).
                let kind = match op {
                    Prim::TryCatch => DualCallKind::TryCatch,
                    _ => DualCallKind::TryFinally,
                };
                Some(self.dual_call(e, r(), args, kind))
            }
            InstData::Prim {
                op: Prim::ThreadsRun,
                args,
            } => {
                // A threaded loop: the AD runtime runs each share's forward rule of the body
                // (`Core.threads_dual`); tangents travel with their values, so the shares
                // need nothing of each other.
                let w = e.konst(Const::Int(n as i64));
                let o = e.konst(Const::Int(self.opts.to_bits()));
                let mut targs = vec![w, o, self.vmap[&args[0]]];
                targs.extend(self.tmap[&args[0]].iter().copied());
                targs.extend(args[1..].iter().map(|a| self.vmap[a]));
                let y = e.prim(Prim::ThreadsDual, targs, Type::Nothing);
                self.vmap.insert(r(), y);
                Some(vec![e.konst(Const::Singleton(Type::NoTangent)); n])
            }
            InstData::Prim {
                op: Prim::ZeroTangent,
                ..
            } => {
                // A zero is a constant: its tangent is a zero of its own type.
                let z = e.prim(Prim::ZeroTangent, vec![self.vmap[&r()]], Type::Any);
                let z = narrow(e, z, &Type::Any, &cx.tt(r()));
                Some(vec![z; n])
            }
            // In reverse-mode code, the fdata of a global (one object per gradient, shared
            // by every read of the global), like a global's value.
            InstData::Prim {
                op: Prim::GlobalFdata,
                ..
            } => Some(shared_tangent(e, self.vmap[&r()], &cx.tt(r()), n, cx.env)),
            InstData::Prim { op, args } if prim::is_reverse_code_prim(*op) => {
                self.reverse_code_prim(e, *op, args, res)
            }
            InstData::Prim {
                op: Prim::DualCall, ..
            } => {
                return Err(cx.err(
                    i,
                    "forward mode of forward mode's dynamic calls is not supported yet (this is a third level of AD: `derivative` or `gradient` nested twice inside differentiated code, or a dynamic call inside a nested `derivative`)".into(),
                ))
            }
            InstData::Prim { op, args } => self.prim(e, i, *op, args, res)?,
            InstData::Invoke { callee, args } => self.invoke(e, r(), callee, args)?,
            InstData::Call { args } => Some(self.dual_call(e, r(), args, DualCallKind::Call)),
            InstData::New { ty, args } if !crate::undefined_fields_ok(cx.env, ty, args, |a| cx.ty(a)) => {
                return Err(cx.err(i, crate::UNDEFINED_FIELDS.into()))
            }
            InstData::New { ty, args } => self.new_struct(e, i, ty, args)?,
            InstData::Tuple { args } => {
                let tt = cx.tt(r());
                if tt == Type::NoTangent {
                    Some(vec![e.konst(Const::Singleton(Type::NoTangent)); n])
                } else {
                    let tmap = &self.tmap;
                    Some(lanes(n, e, &mut |e, l| {
                        let fs = args.iter().map(|a| tmap[a][l]).collect();
                        e.val(InstData::Tuple { args: fs }, tt.clone())
                    }))
                }
            }
            InstData::GetField { obj, field } => self.get_field(e, r(), *obj, field)?,
            InstData::SetField { obj, field, val } => self.set_field(e, i, *obj, field, *val)?,
            InstData::TypeAssert { val, .. } => {
                let (from, to) = (cx.tt(*val), cx.tt(r()));
                let tv = &self.tmap[val];
                Some(lanes(n, e, &mut |e, l| narrow(e, tv[l], &from, &to)))
            }
            InstData::GetGlobal(_) => {
                Some(shared_tangent(e, self.vmap[&r()], &cx.tt(r()), n, cx.env))
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
                let a = with_tangents(args, &self.vmap, &self.tmap);
                e.jump(self.fblocks[dest], a);
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
                        cond: self.vmap[cond],
                        then_dest: self.fblocks[then_dest],
                        then_args: with_tangents(then_args, &self.vmap, &self.tmap),
                        else_dest: self.fblocks[else_dest],
                        else_args: with_tangents(else_args, &self.vmap, &self.tmap),
                    },
                    Type::Any,
                );
                None
            }
            InstData::Return(v) => {
                let mut parts = vec![self.vmap[v]];
                parts.extend(self.tmap[v].iter().copied());
                let mut rts = vec![cx.ty(*v)];
                rts.extend((0..n).map(|_| cx.tt(*v)));
                let tt = Type::tuple(rts);
                let tup = e.val(InstData::Tuple { args: parts }, tt.clone());
                e.inst(InstData::Return(tup), Type::Any);
                // Returns of different types (a union-typed primal): the union of the tuples.
                e.f.ret_type = match e.f.ret_type {
                    Type::Bottom => tt,
                    _ => Type::union_of([e.f.ret_type.clone(), tt]),
                };
                None
            }
            InstData::Unreachable => {
                e.inst(InstData::Unreachable, Type::Any);
                None
            }
        };
        if let (Some(r), Some(ts)) = (res, ts) {
            self.tmap.insert(r, ts);
        }
        Ok(())
    }

    /// `r = call(args...)` through `Core.dual_call` (see [`dual_call`]).
    fn dual_call(
        &mut self,
        e: &mut Emit,
        r: Value,
        args: &[Value],
        kind: DualCallKind,
    ) -> Vec<Value> {
        let call = DualCallOp {
            opts: self.opts,
            kind,
        };
        dual_call(
            e,
            &self.cx,
            r,
            args,
            &mut self.vmap,
            &self.tmap,
            self.n,
            call,
        )
    }

    /// A static call: the callee's forward rule with as many lanes.
    fn invoke(
        &mut self,
        e: &mut Emit,
        r: Value,
        callee: &Callee,
        args: &[Value],
    ) -> Result<Option<Vec<Value>>, AdError> {
        let (cx, n) = (self.cx, self.n);
        let tmap = &self.tmap;
        let t = |v: &Value, l: usize| tmap[v][l];
        let key = MiKey::of(callee);
        let mut fargs = Vec::new();
        let mut fsig = Vec::new();
        for a in args {
            fargs.push(self.vmap[a]);
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
            func: (self.names)(DerivedKey {
                primal: key.clone(),
                mode: Mode::Dual(n as u8),
                opts: self.opts,
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
        self.vmap.insert(r, y);
        let tt = cx.tt(r);
        let ts = lanes(n, e, &mut |e, l| e.field(tup, 1 + l as u32, tt.clone()));
        if self.opts.debug && tt != Type::NoTangent {
            for (l, &tv) in ts.iter().enumerate() {
                let what = format!("the result of calling {} (lane {})", callee.func, l + 1);
                tangent_check(e, y, tv, &what);
            }
        }
        Ok(Some(ts))
    }

    /// A struct: its tangent is built from the fields' tangents.
    fn new_struct(
        &mut self,
        e: &mut Emit,
        i: Inst,
        ty: &Type,
        args: &[Value],
    ) -> Result<Option<Vec<Value>>, AdError> {
        let (cx, n, env) = (self.cx, self.n, self.cx.env);
        let tmap = &self.tmap;
        let t = |v: &Value, l: usize| tmap[v][l];
        let tt = tangent_of(ty, env);
        Ok(if tt == Type::NoTangent {
            Some(vec![e.konst(Const::Singleton(Type::NoTangent)); n])
        } else {
            let fts = env.field_types(&tt).unwrap_or_default();
            if fts.len() != args.len() {
                return Err(cx.internal(i, format!("the tangent of {ty} has {} fields", fts.len())));
            }
            Some(lanes(n, e, &mut |e, l| {
                let fs = args
                    .iter()
                    .zip(fts.iter())
                    .map(|(a, ft)| {
                        let at = cx.tt(*a);
                        if cx.ty(*a) == Type::Bottom {
                            // A field `new` leaves `#undef`: so is its tangent.
                            e.konst(Const::Undef)
                        } else if at == *ft || *ft == Type::Any || at == Type::Bottom {
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
        })
    }

    /// A field of a struct or tuple: the field of its tangent (found by name at run time
    /// when the tangent's type is known only then).
    fn get_field(
        &mut self,
        e: &mut Emit,
        r: Value,
        obj: Value,
        field: &FieldRef,
    ) -> Result<Option<Vec<Value>>, AdError> {
        let (cx, n, env) = (self.cx, self.n, self.cx.env);
        let tmap = &self.tmap;
        let t = |v: &Value, l: usize| tmap[v][l];
        let obj = &obj;
        let tt = cx.tt(r);
        let ot = cx.tt(*obj);
        Ok(match field {
            _ if tt == Type::NoTangent || ot == Type::NoTangent => {
                let z = zero(e, self.vmap[&r], &cx.ty(r), env);
                Some(vec![z; n])
            }
            FieldRef::Index(k) if ot != Type::Any => {
                let ft = env
                    .field_types(&ot)
                    .and_then(|fs| fs.get(*k as usize).cloned())
                    .unwrap_or(Type::Any);
                Some(lanes(n, e, &mut |e, l| {
                    let x = e.field(t(obj, l), *k, ft.clone());
                    narrow(e, x, &ft, &tt)
                }))
            }
            _ => {
                let name: std::sync::Arc<str> = match field {
                    FieldRef::Name(s) => std::sync::Arc::from(s.as_str()),
                    FieldRef::Index(k) => std::sync::Arc::from(format!("{}", k + 1).as_str()),
                };
                let nv = e.konst(Const::Str(name));
                Some(lanes(n, e, &mut |e, l| {
                    let x = e.prim(
                        Prim::TangentField,
                        vec![self.vmap[obj], t(obj, l), nv],
                        Type::Any,
                    );
                    narrow(e, x, &Type::Any, &tt)
                }))
            }
        })
    }

    /// A field of a mutable struct assigned: the field of its tangent too.
    fn set_field(
        &mut self,
        e: &mut Emit,
        i: Inst,
        obj: Value,
        field: &FieldRef,
        val: Value,
    ) -> Result<Option<Vec<Value>>, AdError> {
        let (cx, n, env) = (self.cx, self.n, self.cx.env);
        let tmap = &self.tmap;
        let t = |v: &Value, l: usize| tmap[v][l];
        let (obj, val) = (&obj, &val);
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
                        narrow(e, t(val, l), &vt, &ft)
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
        Ok(None)
    }
}
