//! Type inference: abstract interpretation of an SSA function for concrete argument types, to a
//! fixpoint over loops (types only grow; unions wider than `MAX_UNION` become `Any`), followed
//! by resolution into typed IR: static calls become `invoke`, field names become indices,
//! constant globals become constants, calls that cannot succeed become throws.
//!
//! The fixpoint and the transfer function of each instruction are here; `call` resolves calls
//! (dispatch, union splitting, conversions) and rewrites them into typed IR.

mod call;

pub(crate) use call::Resolution;
use call::*;

use crate::error::CompileError;
use crate::methods::Dispatch;
use crate::{Compiler, MiKey};
use ir::{Block, Callee, Const, FieldRef, Function, Inst, InstData, Phase, Prim, Type, Value};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;
use syntax::{sym, Symbol};

pub(crate) struct Frame<'a> {
    pub f: &'a Function,
    pub sparams: &'a [Type],
    pub types: FxHashMap<Value, Type>,
    pub reached: FxHashSet<Block>,
    pub res: FxHashMap<Inst, Resolution>,
    pub ret: Type,
    /// Values that calls resolved to constants (`Core.kw_has`): branches on them take one way.
    pub known: FxHashMap<Value, Const>,
}

impl Frame<'_> {
    fn ty(&self, v: Value) -> Type {
        self.types.get(&v).cloned().unwrap_or(Type::Bottom)
    }
}

impl Compiler {
    /// Infers `f` (phase `Ssa`) for argument types `args` and returns the typed function.
    pub(crate) fn infer_function(
        &mut self,
        f: &Function,
        args: &[Type],
        sparams: &[Type],
        name: String,
    ) -> Result<Function, CompileError> {
        let mut fr = Frame {
            f,
            sparams,
            types: FxHashMap::default(),
            reached: FxHashSet::default(),
            res: FxHashMap::default(),
            ret: Type::Bottom,
            known: FxHashMap::default(),
        };
        let entry = f.entry();
        for (p, t) in f.params().iter().zip(args) {
            fr.types.insert(*p, t.clone());
        }
        let order = f.reverse_postorder();
        let rank: FxHashMap<Block, usize> =
            order.iter().enumerate().map(|(i, b)| (*b, i)).collect();
        // Blocks that use each value: they are revisited when the value's type grows.
        let mut users: FxHashMap<Value, Vec<usize>> = FxHashMap::default();
        for &b in &order {
            for &i in &f.blocks[b].insts {
                f.insts[i].for_each_arg(|a| {
                    let e = users.entry(a).or_default();
                    if e.last() != Some(&rank[&b]) {
                        e.push(rank[&b]);
                    }
                });
            }
        }
        let mut work: std::collections::BTreeSet<usize> = std::collections::BTreeSet::new();
        work.insert(rank[&entry]);
        fr.reached.insert(entry);
        let mut visits = 0usize;
        while let Some(r) = work.pop_first() {
            visits += 1;
            if visits > 100_000 {
                return Err(CompileError::new(
                    crate::error::ErrorKind::Inference,
                    f.locs[f.blocks[entry].insts[0]],
                    format!("type inference of {name} did not converge"),
                ));
            }
            let b = order[r];
            for &i in &f.blocks[b].insts {
                let data = &f.insts[i];
                if data.is_terminator() {
                    for (dest, dargs) in self.edges(&fr, data) {
                        let mut changed = fr.reached.insert(dest);
                        for (a, p) in dargs.iter().zip(f.blocks[dest].params.iter()) {
                            let at = fr.ty(*a);
                            let old = fr.ty(*p);
                            let new = old.join(&at);
                            if new != old {
                                fr.types.insert(*p, new);
                                changed = true;
                                if let Some(us) = users.get(p) {
                                    for &u in us {
                                        work.insert(u);
                                    }
                                }
                            }
                        }
                        if changed {
                            if let Some(&rk) = rank.get(&dest) {
                                work.insert(rk);
                            }
                        }
                    }
                    if let InstData::Return(v) = data {
                        fr.ret = fr.ret.join(&fr.ty(*v));
                    }
                    break;
                }
                let t = self.transfer(&mut fr, i)?;
                if let Some(v) = f.result(i) {
                    let old = fr.ty(v);
                    let new = old.join(&t);
                    if new != old {
                        fr.types.insert(v, new);
                        if let Some(us) = users.get(&v) {
                            for &u in us {
                                if u != r {
                                    work.insert(u);
                                }
                            }
                        }
                    }
                }
                // Code after an instruction that never returns is dead.
                if t == Type::Bottom
                    && data.has_result()
                    && !matches!(data, InstData::Const(Const::Undef))
                {
                    break;
                }
                if t == Type::Bottom && matches!(data, InstData::SetField { .. }) {
                    break;
                }
            }
        }
        Ok(self.resolve(&fr, name))
    }

    /// Successor edges of a terminator that can be taken given the known types.
    fn edges<'d>(&self, fr: &Frame, data: &'d InstData) -> ir::Successors<'d> {
        match data {
            InstData::Branch {
                cond,
                then_dest,
                then_args,
                else_dest,
                else_args,
            } => match fr.f.const_value(*cond).or_else(|| fr.known.get(cond)) {
                Some(Const::Bool(true)) => smallvec::smallvec![(*then_dest, then_args.as_slice())],
                Some(Const::Bool(false)) => smallvec::smallvec![(*else_dest, else_args.as_slice())],
                _ => {
                    if fr.ty(*cond) == Type::Bottom {
                        ir::Successors::new()
                    } else {
                        smallvec::smallvec![
                            (*then_dest, then_args.as_slice()),
                            (*else_dest, else_args.as_slice()),
                        ]
                    }
                }
            },
            d => d.successors(),
        }
    }

    /// The type of global `name`, and its constant value if known.
    pub fn global_type(&self, name: Symbol) -> (Type, Option<Const>) {
        if let Some(g) = self.globals.get(&name) {
            return match g {
                crate::GlobalInfo::Const { ty, value } | crate::GlobalInfo::Bound { ty, value } => {
                    (ty.clone(), value.clone())
                }
                crate::GlobalInfo::Var => (Type::Any, None),
            };
        }
        if let Some(t) = self.type_named(name) {
            let tt = Type::type_of_type(t.clone());
            return (tt, Some(Const::Type(t)));
        }
        if self.tables.contains_key(&name) {
            return (Type::Function(name), Some(Const::Func(name)));
        }
        (Type::Bottom, None)
    }

    /// The type (and constant value, if known) of reading global `name`; with
    /// `prelude_binding`, a prelude type or function of that name wins over a user variable
    /// (the binding prelude code sees, and `Base.name` names).
    pub(crate) fn global_read(&self, name: Symbol, prelude_binding: bool) -> (Type, Option<Const>) {
        match self.type_named(name) {
            _ if !prelude_binding => self.global_type(name),
            Some(ty) => (Type::type_of_type(ty.clone()), Some(Const::Type(ty))),
            None if self.tables.contains_key(&name) => {
                (Type::Function(name), Some(Const::Func(name)))
            }
            None => self.global_type(name),
        }
    }

    /// A type name as a type value (`Float64`, `Vector`, `Point`).
    pub fn type_named(&self, name: Symbol) -> Option<Type> {
        if let Some(t) = crate::typeexpr::builtin_type(name.as_str()) {
            return Some(t);
        }
        if crate::typeexpr::builtin_unionall(name.as_str()) {
            return Some(Type::UnionAll(name));
        }
        if let Some(d) = self.env.struct_def(name) {
            return Some(if d.params.is_empty() {
                Type::Struct(name, vec![].into())
            } else {
                Type::UnionAll(name)
            });
        }
        if let Some(d) = self.env.abstract_def(name) {
            return Some(if d.params.is_empty() {
                Type::Abstract(name, vec![].into())
            } else {
                Type::UnionAll(name)
            });
        }
        None
    }

    fn transfer(&mut self, fr: &mut Frame, i: Inst) -> Result<Type, CompileError> {
        let f = fr.f;
        let span = f.locs[i];
        // What was known of the result on an earlier visit may not hold for wider argument
        // types (a loop's `n !== nothing` once `n` may be `nothing`).
        if let Some(v) = f.result(i) {
            fr.known.remove(&v);
        }
        Ok(match &f.insts[i] {
            InstData::Const(c) => c.ty(),
            InstData::Prim { op, args } => {
                let mut ats: Vec<Type> = args.iter().map(|a| fr.ty(*a)).collect();
                if *op == Prim::ApplyType {
                    // A known integer, `Bool` or symbol is a type parameter (`Irrational{sym}`
                    // with the static parameter `sym`).
                    for (t, a) in ats.iter_mut().zip(args.iter()).skip(1) {
                        let param = match fr.f.const_value(*a).or_else(|| fr.known.get(a)) {
                            Some(Const::Int(n)) => Type::Val(*n),
                            Some(Const::Bool(b)) => Type::ValBool(*b),
                            Some(Const::Sym(s)) => Type::ValSym(*s),
                            _ => continue,
                        };
                        *t = Type::type_of_type(param);
                    }
                }
                if ats.contains(&Type::Bottom) {
                    return Ok(Type::Bottom);
                }
                // A `try`: what its functions return (the handler takes an exception of
                // any type).
                if let (Prim::TryCatch | Prim::TryFinally, [body, other]) = (op, ats.as_slice()) {
                    let mut t = self.call_result_type(body, &[])?;
                    if *op == Prim::TryCatch {
                        t = t.join(&self.call_result_type(other, &[Type::Any])?);
                    }
                    return Ok(t);
                }
                let (t, err) = prim_type(*op, &ats, &self.env);
                if let Some(m) = err {
                    fr.res.insert(i, Resolution::Error(m));
                }
                // (Only `isa` and `apply_type` are folded further, when every argument type is
                // concrete enough to enumerate.)
                if matches!(op, Prim::Isa | Prim::ApplyType) && combinations(&ats).is_some() {
                    // `x isa T` is known when x's type is concrete or already below T.
                    if let (Prim::Isa, [xt, Type::Type(target)]) = (op, ats.as_slice()) {
                        let below = self.env.subtype(xt, target);
                        if below || xt.is_concrete() {
                            let c = Const::Bool(below);
                            if let Some(v) = f.result(i) {
                                fr.known.insert(v, c.clone());
                            }
                            fr.res.insert(i, Resolution::Constant(c));
                        }
                    }
                    // A type built from constants is a constant (also when a parameter
                    // was a known value, which the verifier cannot see).
                    if let (Prim::ApplyType, Type::Type(applied)) = (op, &t) {
                        if applied.is_concrete() {
                            let c = Const::Type((**applied).clone());
                            if let Some(v) = f.result(i) {
                                fr.known.insert(v, c.clone());
                            }
                            fr.res.insert(i, Resolution::Constant(c));
                        }
                    }
                }
                t
            }
            InstData::Call { args } => {
                let ats: Vec<Type> = args.iter().map(|a| fr.ty(*a)).collect();
                if ats.contains(&Type::Bottom) {
                    return Ok(Type::Bottom);
                }
                let (t, r) = self.infer_call(fr, args, &ats, span)?;
                let known = match &r {
                    Resolution::Constant(c) => Some(c.clone()),
                    Resolution::Invoke { key, .. } | Resolution::InvokeAs { key, .. } => {
                        self.known_return(key)
                    }
                    _ => None,
                };
                if let (Some(c), Some(v)) = (known, f.result(i)) {
                    fr.known.insert(v, c);
                }
                fr.res.insert(i, r);
                t
            }
            InstData::Invoke { callee, .. } => {
                let key = MiKey::of(callee);
                let t = self.infer_mi(&key)?;
                if let (Some(c), Some(v)) = (self.known_return(&key), f.result(i)) {
                    fr.known.insert(v, c);
                }
                t
            }
            InstData::New { ty, args } => match ty {
                Type::NamedTuple(names, _) => {
                    let ts: Vec<Type> = args.iter().map(|a| fr.ty(*a)).collect();
                    if ts.contains(&Type::Bottom) {
                        return Ok(Type::Bottom);
                    }
                    let t = Type::NamedTuple(names.clone(), ts.into());
                    fr.res.insert(i, Resolution::New(t.clone()));
                    t
                }
                t => t.clone(),
            },
            InstData::Tuple { args } => {
                let ts: Vec<Type> = args.iter().map(|a| fr.ty(*a)).collect();
                if ts.contains(&Type::Bottom) {
                    return Ok(Type::Bottom);
                }
                Type::tuple(ts)
            }
            InstData::GetField { obj, field } => {
                let ot = fr.ty(*obj);
                self.field_type(fr, i, &ot, *field)
            }
            InstData::SetField { obj, field, val } => {
                let ot = fr.ty(*obj);
                let vt = fr.ty(*val);
                if ot == Type::Bottom || vt == Type::Bottom {
                    return Ok(Type::Bottom);
                }
                if ot.is_concrete() {
                    if !self.env.is_mutable(&ot) || matches!(ot, Type::Array(..)) {
                        let msg = match &ot {
                            Type::Struct(..) => format!(
                                "setfield!: immutable struct of type {} cannot be changed",
                                head_name(&ot)
                            ),
                            t => format!("setfield!: cannot set a field of a value of type {t}"),
                        };
                        fr.res.insert(i, Resolution::Error(msg));
                        return Ok(Type::Bottom);
                    }
                    let idx = match field {
                        FieldRef::Index(k) => Some(*k as usize),
                        FieldRef::Name(n) => self.env.field_index(&ot, *n),
                    };
                    let Some(idx) = idx else {
                        let n = match field {
                            FieldRef::Name(n) => n.to_string(),
                            FieldRef::Index(k) => k.to_string(),
                        };
                        fr.res.insert(
                            i,
                            Resolution::Error(format!(
                                "FieldError: type {} has no field `{n}`",
                                head_name(&ot)
                            )),
                        );
                        return Ok(Type::Bottom);
                    };
                    let fts = self.env.field_types(&ot).unwrap_or_default();
                    let ft = fts.get(idx).cloned().unwrap_or(Type::Any);
                    if self.env.subtype(&vt, &ft) {
                        fr.res.insert(i, Resolution::FieldIndex(idx as u32));
                    } else {
                        // convert(ft, v) first.
                        let conv_args = vec![
                            Type::Function(sym("convert")),
                            Type::type_of_type(ft.clone()),
                            vt.clone(),
                        ];
                        match self.dispatch_and_infer(sym("convert"), &conv_args)? {
                            Some((key, _, rt)) if rt != Type::Bottom && vt.is_concrete() => {
                                fr.res
                                    .insert(i, Resolution::SetFieldConvert(idx as u32, key));
                            }
                            _ => {
                                if vt.is_concrete() {
                                    fr.res.insert(i, Resolution::Error(format!("MethodError: Cannot `convert` an object of type {vt} to an object of type {ft}")));
                                    return Ok(Type::Bottom);
                                }
                                fr.res
                                    .insert(i, Resolution::SetFieldDynamicConvert(idx as u32, ft));
                            }
                        }
                    }
                } else {
                    fr.res.insert(i, Resolution::Dynamic);
                }
                Type::Nothing
            }
            InstData::TypeAssert { val, ty } => {
                let t = self.assert_type(&fr.ty(*val), ty);
                // A known value that passes the assertion stays known (a condition
                // `Core.kw_has(...)`, asserted `Bool`, still decides its branch).
                let known =
                    fr.f.const_value(*val)
                        .or_else(|| fr.known.get(val))
                        .cloned();
                if let (Some(c), Some(v)) = (known, f.result(i)) {
                    if t != Type::Bottom {
                        fr.known.insert(v, c);
                    }
                }
                t
            }
            InstData::GetGlobal(name) => {
                // Prelude code refers to prelude definitions even where a user variable of
                // the same name shadows them (as Base code does in Julia); the program's code
                // to its own functions where it has defined some named like library ones.
                let in_prelude = self.in_prelude(span.file);
                let read = if in_prelude {
                    *name
                } else {
                    self.program_name(*name)
                };
                let (t, c) = self.global_read(read, in_prelude);
                match c {
                    Some(c) => {
                        fr.res.insert(i, Resolution::Constant(c));
                    }
                    // The program's own global named like a library constant.
                    None if read != *name => {
                        fr.res.insert(i, Resolution::Global(read));
                    }
                    None => {}
                }
                t
            }
            InstData::SetGlobal(name, _) => {
                // Inside a function, `global I = ...` writes the program's own global once
                // it has one.
                if !self.in_prelude(span.file) {
                    if let Some(&g) = self.own_globals.get(name) {
                        fr.res.insert(i, Resolution::Global(g));
                    }
                }
                Type::Nothing
            }
            InstData::StaticParam(k) => match fr.sparams.get(*k as usize) {
                // An integer parameter (the `N` of `Array{T, N}`) is an Int value.
                // An integer, `Bool` or symbol parameter (the `N` of `Array{T, N}`, the `sym`
                // of `Irrational{sym}`) is a value.
                Some(p) if value_param(p).is_some() => {
                    let Some((c, t)) = value_param(p) else {
                        return Ok(Type::Bottom);
                    };
                    if let Some(v) = f.result(i) {
                        fr.known.insert(v, c.clone());
                    }
                    fr.res.insert(i, Resolution::Constant(c));
                    t
                }
                Some(t) => {
                    fr.res
                        .insert(i, Resolution::Constant(Const::Type(t.clone())));
                    Type::type_of_type(t.clone())
                }
                None => Type::Bottom,
            },
            InstData::GetSlot(_) | InstData::SetSlot(..) => Type::Any,
            InstData::Jump { .. }
            | InstData::Branch { .. }
            | InstData::Return(_)
            | InstData::Unreachable => Type::Bottom,
        })
    }

    /// The result type of `val::ty`.
    pub(crate) fn assert_type(&self, vt: &Type, ty: &Type) -> Type {
        if self.env.subtype(vt, ty) {
            return vt.clone();
        }
        match vt {
            Type::Union(ms) => {
                Type::union_of(ms.iter().filter(|m| self.env.subtype(m, ty)).cloned())
            }
            t if t.is_concrete() => Type::Bottom,
            _ => ty.clone(),
        }
    }

    fn field_type(&mut self, fr: &mut Frame, i: Inst, ot: &Type, field: FieldRef) -> Type {
        match ot {
            Type::Bottom => Type::Bottom,
            Type::Union(ms) => {
                let mut t = Type::Bottom;
                for m in ms.iter() {
                    if let Some((_, ft)) = self.field_of(m, field) {
                        t = t.join(&ft);
                    }
                }
                fr.res.insert(i, Resolution::Dynamic);
                if t == Type::Bottom {
                    Type::Any
                } else {
                    t
                }
            }
            t if t.is_concrete() || matches!(t, Type::Tuple(_) | Type::NamedTuple(..)) => {
                if let Some(nt) = self.tangent_fields_type(t, field) {
                    let Type::NamedTuple(names, _) = &nt else {
                        unreachable!("the fields of a tangent are a named tuple")
                    };
                    let from = (0..names.len() as u32).map(|k| (0, k)).collect();
                    fr.res.insert(i, Resolution::NamedTupleOf(from));
                    return nt;
                }
                match self.field_of(t, field) {
                    Some((idx, ft)) => {
                        fr.res.insert(i, Resolution::FieldIndex(idx));
                        ft
                    }
                    None => {
                        let n = match field {
                            FieldRef::Name(n) => n.to_string(),
                            FieldRef::Index(k) => (k + 1).to_string(),
                        };
                        let msg = match t {
                            Type::Tuple(_) => {
                                format!("BoundsError: attempt to access {t} at index [{n}]")
                            }
                            _ => format!("FieldError: type {} has no field `{n}`", head_name(t)),
                        };
                        fr.res.insert(i, Resolution::Error(msg));
                        Type::Bottom
                    }
                }
            }
            _ => {
                fr.res.insert(i, Resolution::Dynamic);
                Type::Any
            }
        }
    }

    /// Mooncake's fields of a struct's tangent (`t.fields` of a `Tangent` or
    /// `MutableTangent`, `t.data` of an `FData` or `RData`): the named tuple type of the
    /// fields.
    fn tangent_fields_type(&self, t: &Type, field: FieldRef) -> Option<Type> {
        let FieldRef::Name(n) = field else {
            return None;
        };
        let wanted = match t {
            Type::Tangent(_) | Type::MutableTangent(_) => "fields",
            Type::FData(_) | Type::RData(_) => "data",
            _ => return None,
        };
        if n.as_str() != wanted {
            return None;
        }
        let names = self.env.field_names(t)?;
        let types = self.env.field_types(t)?;
        Some(Type::NamedTuple(names.into(), types.into()))
    }

    /// The index and type of a field of a concrete type.
    pub fn field_of(&self, t: &Type, field: FieldRef) -> Option<(u32, Type)> {
        let fts = self.env.field_types(t)?;
        let idx = match field {
            FieldRef::Index(k) => k as usize,
            FieldRef::Name(n) => self.env.field_index(t, n)?,
        };
        fts.get(idx).map(|ft| (idx as u32, ft.clone()))
    }
}

/// The value and type of a type parameter that is a value (`3`, `true`, `:π`).
fn value_param(p: &Type) -> Option<(Const, Type)> {
    Some(match p {
        Type::Val(n) => (Const::Int(*n), Type::Int64),
        Type::ValBool(b) => (Const::Bool(*b), Type::Bool),
        Type::ValSym(s) => (Const::Sym(*s), Type::Symbol),
        _ => return None,
    })
}

/// The result type of primitive `op` on arguments of types `ats` (none `Bottom`), and the
/// message of the error it always raises when no combination of their members is valid.
impl Compiler {
    /// The type of what calling a value of type `f` on arguments of types `args` returns, as
    /// inference finds it (`Any` when it cannot tell).
    fn call_result_type(&mut self, f: &Type, args: &[Type]) -> Result<Type, CompileError> {
        let Some(table) = crate::typeexpr::callee_table(f) else {
            return Ok(Type::Any);
        };
        if !f.is_concrete() {
            return Ok(Type::Any);
        }
        let mut sig = vec![f.clone()];
        sig.extend(args.iter().cloned());
        Ok(match self.dispatch_and_infer(table, &sig)? {
            Some((_, _, rt)) => rt,
            None => Type::Any,
        })
    }
}

pub(crate) fn prim_type(op: Prim, ats: &[Type], env: &ir::TypeEnv) -> (Type, Option<String>) {
    match combinations(ats) {
        Some(combos) => {
            let mut t = Type::Bottom;
            let mut last_err = None;
            for c in &combos {
                match op.result_type(c, env) {
                    Ok(r) => t = t.join(&r),
                    Err(m) => last_err = Some(m),
                }
            }
            let err = if t == Type::Bottom && !op.is_throw() {
                last_err
            } else {
                None
            };
            (t, err)
        }
        None => (
            match op {
                Prim::Egal | Prim::Isa => Type::Bool,
                Prim::ToString | Prim::Repr | Prim::Sprintf => Type::String,
                Prim::Print | Prim::Show => Type::Nothing,
                _ if op.is_throw() => Type::Bottom,
                _ => Type::Any,
            },
            None,
        ),
    }
}
