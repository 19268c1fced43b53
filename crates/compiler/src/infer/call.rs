//! Call resolution: which method a call reaches for the inferred argument types (splitting
//! small unions into one branch per member), and the typed IR it becomes.

use super::*;

/// How a call (or field access) was resolved.
#[derive(Clone, Debug)]
pub(crate) enum Resolution {
    /// A static call of a method instance (`pack` = number of fixed arguments when the
    /// remaining ones are packed into a vararg tuple).
    Invoke {
        key: MiKey,
        pack: Option<usize>,
    },
    Dynamic,
    /// A call with no applicable method: throws `MethodError` at run time.
    NoMethod,
    /// A call with several equally specific methods.
    Ambiguous(String),
    /// Always throws an `ErrorException` with this message (e.g. a primitive misused).
    Error(String),
    New(Type),
    /// `new` whose arguments need `convert(field_type, x)` first (per argument, if any).
    NewConvert(Type, Vec<Option<MiKey>>),
    TypeAssert(Type),
    /// Union splitting: a call whose arguments are small unions, compiled to a type test per
    /// combination of member types, each followed by a static call of that combination's
    /// method instance (the last combination needs no test).
    Split(Vec<SplitCase>),
    FieldIndex(u32),
    /// `indexed_iterate(t, k[, state])` of a tuple, named tuple or pair with a constant `k`:
    /// the tuple of field `k` (0-based here) and the next index, `k + 2`.
    IndexedField(u32),
    /// `#apply(f, pieces...)` of tuples of known length: the plain call of `f` on their
    /// elements, resolved as given.
    Apply(Box<Resolution>),
    /// `#invoke(f, T, args...)`: the static call `f(args...)` of the method instance chosen
    /// for the declared argument types `T` (Julia's `invoke`).
    InvokeAs {
        key: MiKey,
        pack: Option<usize>,
    },
    /// `SetField` that needs `convert(T, v)` first, through this method instance.
    SetFieldConvert(u32, MiKey),
    /// `SetField` of a value whose type is known only at run time: `convert(T, v)` by a
    /// dynamic call, asserted to be a `T` (the field's type), as Julia's `setproperty!`.
    SetFieldDynamicConvert(u32, Type),
    Constant(Const),
    /// `Core.op(xs...)` with its pieces flattened (see `#apply`): the primitive itself.
    Prim(Prim),
    /// `#module_global(:name)` that is not a prelude type or function: a plain read of
    /// global `name`.
    Global(Symbol),
    /// `Core.nt_merge(a, b)` / `Core.nt_drop(a, "k"...)` of named tuples of known names, or
    /// the slurped tail of a tuple or named tuple (`_slurp`): the (named) tuple of these
    /// fields, each `(argument, field)` (arguments counted from 1, after the function); or
    /// Mooncake's `t.fields` of a struct's tangent (the object is argument 0).
    NamedTupleOf(Vec<(u32, u32)>),
}

/// One combination of argument member types of a union-split call.
#[derive(Clone, Debug)]
pub(crate) struct SplitCase {
    /// Argument types (function first) of this combination.
    pub types: Vec<Type>,
    pub call: CaseCall,
    pub ret: Type,
}

/// What one combination of a union-split call does.
#[derive(Clone, Debug)]
pub(crate) enum CaseCall {
    Invoke(MiKey),
    /// `getindex(t, k)` of a tuple or named tuple member with a constant `k`: field `k`
    /// (0-based here), with its own type.
    Field(u32),
    /// No method applies: throws `MethodError`, as the call would.
    NoMethod,
}

/// Most combinations a call is union-split into; beyond this it dispatches at run time.
pub(super) const MAX_SPLIT: usize = 4;

/// Argument type combinations of a call with small-union arguments (`None` if too many).
pub(super) fn combinations(ts: &[Type]) -> Option<Vec<Vec<Type>>> {
    let mut out: Vec<Vec<Type>> = vec![vec![]];
    for t in ts {
        let ms = match t {
            Type::Union(ms) => ms.to_vec(),
            t if t.is_concrete() => vec![t.clone()],
            Type::Bottom => return Some(vec![]),
            _ => return None,
        };
        let mut next = Vec::new();
        for prefix in &out {
            for m in &ms {
                let mut p = prefix.clone();
                p.push(m.clone());
                next.push(p);
            }
        }
        out = next;
        if out.len() > 16 {
            return None;
        }
    }
    Some(out)
}

/// Emits a union-split call at the end of `from`: for each case but the last, a chain of
/// `isa` tests on the union-typed arguments; on success the arguments are narrowed and the
/// case's method instance is invoked; every case jumps to a new join block whose one
/// parameter is the call's result (of the result type of `r`). Returns the join block; the
/// blocks created are recorded in `added` in order.
pub(super) fn split_call(
    f: &mut Function,
    from: Block,
    args: &[Value],
    cases: &[SplitCase],
    r: Value,
    loc: syntax::Span,
    added: &mut Vec<Block>,
) -> Block {
    let join = f.add_block();
    let rt = f.types[r].clone();
    f.add_block_param(join, rt);
    let mut at = from;
    for (k, case) in cases.iter().enumerate() {
        let next = if k + 1 < cases.len() {
            let n = f.add_block();
            added.push(n);
            Some(n)
        } else {
            None
        };
        let mut narrowed = Vec::with_capacity(args.len());
        for (a, t) in args.iter().zip(&case.types) {
            if f.types[*a] == *t {
                narrowed.push(*a);
                continue;
            }
            if let Some(n) = next {
                let tc = f
                    .append(
                        at,
                        InstData::Const(Const::Type(t.clone())),
                        Type::type_of_type(t.clone()),
                        loc,
                    )
                    .unwrap_or_else(|| unreachable!());
                let cond = f
                    .append(
                        at,
                        InstData::Prim {
                            op: Prim::Isa,
                            args: vec![*a, tc],
                        },
                        Type::Bool,
                        loc,
                    )
                    .unwrap_or_else(|| unreachable!());
                let pass = f.add_block();
                added.push(pass);
                f.append(
                    at,
                    InstData::Branch {
                        cond,
                        then_dest: pass,
                        then_args: vec![],
                        else_dest: n,
                        else_args: vec![],
                    },
                    Type::Bottom,
                    loc,
                );
                at = pass;
            }
            let nv = f
                .append(
                    at,
                    InstData::TypeAssert {
                        val: *a,
                        ty: t.clone(),
                    },
                    t.clone(),
                    loc,
                )
                .unwrap_or_else(|| unreachable!());
            narrowed.push(nv);
        }
        let res = match &case.call {
            CaseCall::Invoke(key) => f.append(
                at,
                InstData::Invoke {
                    callee: Callee {
                        func: key.table,
                        method: key.method,
                        sig: key.sig.clone(),
                    },
                    args: narrowed,
                },
                case.ret.clone(),
                loc,
            ),
            CaseCall::Field(k) => f.append(
                at,
                InstData::GetField {
                    obj: narrowed[1],
                    field: FieldRef::Index(*k),
                },
                case.ret.clone(),
                loc,
            ),
            CaseCall::NoMethod => f.append(
                at,
                InstData::Prim {
                    op: Prim::ThrowMethodError,
                    args: narrowed,
                },
                Type::Bottom,
                loc,
            ),
        };
        if case.ret == Type::Bottom {
            f.append(at, InstData::Unreachable, Type::Bottom, loc);
        } else {
            let res = res.unwrap_or_else(|| unreachable!());
            f.append(
                at,
                InstData::Jump {
                    dest: join,
                    args: vec![res],
                },
                Type::Bottom,
                loc,
            );
        }
        if let Some(n) = next {
            at = n;
        }
    }
    added.push(join);
    join
}

/// What a field `new` was given no value for holds, with its type: a number field some number
/// (Julia leaves its bits as they were; here they are zero), any other field `#undef` (reading
/// it is Julia's `UndefRefError`, `isdefined` says it is not defined).
fn undefined_field(ft: &Type) -> (Const, Type) {
    match ft {
        Type::Float64 => (Const::F64(0.0), Type::Float64),
        Type::Float32 => (Const::F32(0.0), Type::Float32),
        Type::Int64 => (Const::Int(0), Type::Int64),
        Type::Bool => (Const::Bool(false), Type::Bool),
        _ => (Const::Undef, Type::Bottom),
    }
}

/// Emits `convert(T, v)` through the method instance `key` (whose signature is
/// `(typeof(convert), Type{T}, typeof(v))`) and returns the converted value.
pub(super) fn emit_convert(
    c: &Compiler,
    f: &mut Function,
    out: &mut Vec<Inst>,
    key: &MiKey,
    v: Value,
    loc: syntax::Span,
) -> Value {
    let (fi, fv) = f.make_inst(
        InstData::Const(Const::Func(sym("convert"))),
        Type::Function(sym("convert")),
        loc,
    );
    out.push(fi);
    let target = match &key.sig[1] {
        Type::Type(t) => (**t).clone(),
        _ => Type::Any,
    };
    let (ti, tv) = f.make_inst(
        InstData::Const(Const::Type(target.clone())),
        Type::type_of_type(target),
        loc,
    );
    out.push(ti);
    let rt = c.mis.get(key).map(|m| m.ret.clone()).unwrap_or(Type::Any);
    let (ci, cv) = f.make_inst(
        InstData::Invoke {
            callee: Callee {
                func: key.table,
                method: key.method,
                sig: key.sig.clone(),
            },
            args: vec![
                fv.unwrap_or_else(|| unreachable!()),
                tv.unwrap_or_else(|| unreachable!()),
                v,
            ],
        },
        rt,
        loc,
    );
    out.push(ci);
    cv.unwrap_or_else(|| unreachable!())
}

/// Instructions that throw an `ErrorException` with `msg`.
pub(super) fn throw_error(f: &mut Function, msg: &str, loc: syntax::Span) -> [Inst; 2] {
    let (ci, cv) = f.make_inst(
        InstData::Const(Const::Str(Arc::from(msg))),
        Type::String,
        loc,
    );
    let (ti, _) = f.make_inst(
        InstData::Prim {
            op: Prim::ThrowError,
            args: vec![cv.unwrap_or_else(|| unreachable!())],
        },
        Type::Bottom,
        loc,
    );
    [ci, ti]
}

pub(super) fn head_name(t: &Type) -> String {
    match t {
        Type::Struct(n, _) => n.to_string(),
        t => t.to_string(),
    }
}

pub(super) fn fname_of(t: &Type) -> String {
    match t {
        Type::Function(n) => ir::types::function_name(*n).to_string(),
        Type::Type(t) => t.to_string(),
        t => format!("(::{t})"),
    }
}

/// Julia's message for a call with keyword arguments no method takes; `tys` are the types of
/// `#kwcall`'s arguments (`#kwcall`, the named tuple, the function, the positional ones).
pub(super) fn runtime_kw_message(tys: &[Type]) -> String {
    format!(
        "{}\nThis method does not support all of the given keyword arguments (and may not support any).",
        ir::types::kwcall_signature(&tys[1..]).unwrap_or_default()
    )
}

impl Compiler {
    /// Dispatches `table` on concrete `args` and infers the method instance.
    pub(crate) fn dispatch_and_infer(
        &mut self,
        table: Symbol,
        args: &[Type],
    ) -> Result<Option<(MiKey, usize, Type)>, CompileError> {
        if !self.tables.contains_key(&table) {
            return Ok(None);
        }
        match self.dispatch(table, args) {
            Dispatch::Found {
                index,
                sparams: _,
                mi_sig,
            } => {
                let fixed = mi_sig.len();
                let key = MiKey {
                    table,
                    method: index,
                    sig: mi_sig.into(),
                };
                let rt = self.infer_mi(&key)?;
                Ok(Some((key, fixed, rt)))
            }
            _ => Ok(None),
        }
    }

    /// Infers `#invoke(f, T, args...)` (`ats`: the types of those): dispatch on the declared
    /// types `T`, then the chosen method's instance for the actual argument types.
    fn infer_invoke(&mut self, ats: &[Type]) -> Result<(Type, Resolution), CompileError> {
        let (Some(ft), Some(Type::Type(tt))) = (ats.get(1), ats.get(2)) else {
            return Ok((
                Type::Bottom,
                Resolution::Error(
                    "TypeError: in invoke, expected a function and a tuple type of arguments"
                        .into(),
                ),
            ));
        };
        let actual = &ats[3..];
        let Type::Tuple(declared) = &**tt else {
            return Ok((
                Type::Bottom,
                Resolution::Error(format!(
                    "not supported yet: `invoke` with argument types `{tt}` (a tuple type of one type per argument is supported)"
                )),
            ));
        };
        if declared.len() != actual.len()
            || !actual
                .iter()
                .zip(declared.iter())
                .all(|(a, d)| self.env.subtype(a, d))
        {
            return Ok((
                Type::Bottom,
                Resolution::Error(format!(
                    "TypeError: in invoke: argument type error, expected {tt}, got a value of type {}",
                    Type::tuple(actual.to_vec())
                )),
            ));
        }
        if !actual.iter().all(|t| t.is_concrete()) {
            return Ok((
                Type::Any,
                Resolution::Error(
                    "not supported yet: `invoke` on arguments whose types are known only at run time"
                        .into(),
                ),
            ));
        }
        let Some(table) = crate::typeexpr::callee_table(ft).filter(|t| self.tables.contains_key(t))
        else {
            return Ok((Type::Bottom, Resolution::NoMethod));
        };
        // A parametric type named without parameters (`AbstractVector`, `Vector`) stands for
        // its instance with `Any` parameters in the dispatch: the methods it selects are those
        // whose parameter admits every instance.
        let widest = |t: &Type| -> Type {
            if let Type::UnionAll(_) = t {
                for n in 1..=3 {
                    if let Ok(w) = ir::prim::apply_type(t, vec![Type::Any; n], &self.env) {
                        return w;
                    }
                }
            }
            t.clone()
        };
        let mut sig = vec![ft.clone()];
        sig.extend(declared.iter().map(widest));
        let index = match self.dispatch(table, &sig) {
            Dispatch::Found { index, .. } => index,
            Dispatch::NoMethod => return Ok((Type::Bottom, Resolution::NoMethod)),
            Dispatch::Ambiguous(_) => {
                return Ok((
                    Type::Bottom,
                    Resolution::Error(format!(
                        "MethodError: {} is ambiguous for argument types {tt}",
                        fname_of(ft)
                    )),
                ))
            }
        };
        let m = &self.tables[&table].methods[index as usize];
        let mut args = vec![ft.clone()];
        args.extend(actual.iter().cloned());
        let mi_sig = crate::methods::instance_sig(m, &args);
        let pack = m.vararg.then(|| m.sig.len() - 1);
        let key = MiKey {
            table,
            method: index,
            sig: mi_sig.into(),
        };
        let rt = self.infer_mi(&key)?;
        Ok((rt, Resolution::InvokeAs { key, pack }))
    }

    /// Whether values of types `a` and `b` are `===`, when the types alone decide it: values
    /// of different concrete types never are; the values of one field-less immutable type
    /// (`nothing`, a function, a type, `Val(:x)`, `()`) always are.
    fn egal_by_type(&self, a: &Type, b: &Type) -> Option<bool> {
        if !a.is_concrete() || !b.is_concrete() {
            return None;
        }
        if a != b {
            return Some(false);
        }
        let singleton = match a {
            Type::Nothing | Type::Function(_) | Type::Type(_) => true,
            Type::Tuple(ts) | Type::NamedTuple(_, ts) => ts.is_empty(),
            Type::Struct(n, _) => self
                .env
                .struct_def(*n)
                .is_some_and(|d| !d.mutable && d.fields.is_empty()),
            _ => false,
        };
        singleton.then_some(true)
    }

    /// Infers a call; returns its result type and how to resolve it.
    pub(super) fn infer_call(
        &mut self,
        fr: &mut Frame,
        args: &[Value],
        ats: &[Type],
        span: syntax::Span,
    ) -> Result<(Type, Resolution), CompileError> {
        let _ = span;
        let ft = &ats[0];
        // Builtins.
        if let Type::Function(name) = ft {
            if let Some(op) = name
                .as_str()
                .strip_prefix("#Core.")
                .and_then(Prim::from_name)
            {
                let (t, err) = super::prim_type(op, &ats[1..], &self.env);
                return Ok((t, err.map_or(Resolution::Prim(op), Resolution::Error)));
            }
            match name.as_str() {
                // `Core.return_type(f, T)`: the inferred type of `f(::T)` (`Any` when
                // inference cannot tell), a constant; `map` uses it for empty inputs.
                "#return_type" => {
                    let mut t = Type::Any;
                    let mut sig: Vec<Type> = ats.get(1).cloned().into_iter().collect();
                    for a in ats.iter().skip(2) {
                        match a {
                            Type::Type(at) => sig.push((**at).clone()),
                            _ => sig.push(Type::Any),
                        }
                    }
                    let table = sig.first().and_then(crate::typeexpr::callee_table);
                    // No value has type `Union{}`: a call on one returns `Union{}` (what
                    // `map` over an empty `Union{}[]` makes).
                    if sig.iter().skip(1).any(|t| *t == Type::Bottom) {
                        t = Type::Bottom;
                    } else if let Some(table) =
                        table.filter(|_| sig.iter().all(|t| t.is_concrete()))
                    {
                        if let Some((_, _, rt)) = self.dispatch_and_infer(table, &sig)? {
                            if rt.is_concrete() {
                                t = rt;
                            }
                        }
                    }
                    return Ok((
                        Type::type_of_type(t.clone()),
                        Resolution::Constant(Const::Type(t)),
                    ));
                }
                // `Base.name` (or another module's): the prelude's binding of `name`, even
                // where the program has a variable of that name.
                "#module_global" => {
                    let Some(&Const::Sym(g)) = args.get(1).and_then(|a| fr.f.const_value(*a))
                    else {
                        unreachable!("lowering passes `#module_global` a quoted name")
                    };
                    let (t, c) = self.global_read(g, true);
                    return Ok((t, c.map_or(Resolution::Global(g), Resolution::Constant)));
                }
                // `invoke(f, Tuple{A, B}, a, b)`: the method of `f` that a call with arguments
                // of types `A` and `B` would run, run on `a` and `b` (of subtypes of them).
                "#invoke" => return self.infer_invoke(ats),
                // `Core.kw_has(kw, "k")`: whether named tuple `kw` has field `k`.
                "#kw_has" => {
                    if let (Some(Type::NamedTuple(names, _)), Some(Const::Str(n))) =
                        (ats.get(1), args.get(2).and_then(|a| fr.f.const_value(*a)))
                    {
                        let has = names.iter().any(|x| x.as_str() == &**n);
                        return Ok((Type::Bool, Resolution::Constant(Const::Bool(has))));
                    }
                    return Ok((Type::Bool, Resolution::Dynamic));
                }
                // `Core.kw_extra(kw, "k1", ...)`: whether `kw` has a field not listed.
                "#kw_extra" => {
                    let listed = listed_names(fr, &args[2..]);
                    if let (Some(Type::NamedTuple(names, _)), Some(listed)) = (ats.get(1), listed) {
                        let extra = names
                            .iter()
                            .any(|x| !listed.iter().any(|l| l == x.as_str()));
                        return Ok((Type::Bool, Resolution::Constant(Const::Bool(extra))));
                    }
                    return Ok((Type::Bool, Resolution::Dynamic));
                }
                // `Core.nt_merge(a, b)`: Julia's `merge` of two named tuples (`b`'s value of
                // a name in both, at `a`'s position; then `b`'s other names).
                "#nt_merge" => {
                    let (Some(Type::NamedTuple(an, at)), Some(Type::NamedTuple(bn, bt))) =
                        (ats.get(1), ats.get(2))
                    else {
                        return Ok(named_tuple_operands_unknown(&ats[1..]));
                    };
                    let from = crate::named_tuples::merge_fields(an, bn);
                    let pick = |&(o, k): &(u32, u32)| {
                        let (ns, ts) = if o == 1 { (an, at) } else { (bn, bt) };
                        (ns[k as usize], ts[k as usize].clone())
                    };
                    let (names, types): (Vec<Symbol>, Vec<Type>) = from.iter().map(pick).unzip();
                    return Ok((
                        Type::NamedTuple(names.into(), types.into()),
                        Resolution::NamedTupleOf(from),
                    ));
                }
                // `Core.nt_drop(a, "k1", ...)`: `a` without the fields listed (a method's
                // `kws...`: the keywords it does not declare).
                "#nt_drop" => {
                    let listed = listed_names(fr, &args[2..]);
                    let (Some(Type::NamedTuple(an, at)), Some(listed)) = (ats.get(1), listed)
                    else {
                        return Ok(named_tuple_operands_unknown(&ats[1..2]));
                    };
                    let listed: Vec<&str> = listed.iter().map(|s| s.as_str()).collect();
                    let from = crate::named_tuples::drop_fields(an, &listed);
                    let names: Vec<Symbol> = from.iter().map(|&(_, k)| an[k as usize]).collect();
                    let types: Vec<Type> =
                        from.iter().map(|&(_, k)| at[k as usize].clone()).collect();
                    return Ok((
                        Type::NamedTuple(names.into(), types.into()),
                        Resolution::NamedTupleOf(from),
                    ));
                }
                // `Core.nt_like(a, vals)`: the named tuple of `a`'s names and the values of
                // tuple `vals` (`map` over a named tuple).
                "#nt_like" => {
                    let (Some(Type::NamedTuple(an, _)), Some(Type::Tuple(vt))) =
                        (ats.get(1), ats.get(2))
                    else {
                        return Ok(named_tuple_operands_unknown(&ats[1..2]));
                    };
                    if an.len() != vt.len() {
                        let msg = crate::named_tuples::lengths_differ(an.len(), vt.len());
                        return Ok((Type::Bottom, Resolution::Error(msg)));
                    }
                    let from = (0..vt.len() as u32).map(|k| (2, k)).collect();
                    return Ok((
                        Type::NamedTuple(an.clone(), vt.clone()),
                        Resolution::NamedTupleOf(from),
                    ));
                }
                // `Core.kw_error(kw, f, args...)`: the call had a keyword the method lacks.
                "#kw_error" => {
                    let mut tys = vec![Type::Function(sym("#kwcall"))];
                    tys.extend(ats[1..].iter().cloned());
                    let msg = runtime_kw_message(&tys);
                    return Ok((Type::Bottom, Resolution::Error(msg)));
                }
                // `#apply(f, pieces...)`: a call whose arguments are the pieces' elements.
                "#apply" => {
                    let mut flat_ts = vec![ats[1].clone()];
                    let mut flat_args = vec![args[1]];
                    for (k, t) in ats[2..].iter().enumerate() {
                        // A named tuple splats its values.
                        let (Type::Tuple(ts) | Type::NamedTuple(_, ts)) = t else {
                            if let Type::Function(n) = &ats[1] {
                                if let Some(op) = n.as_str().strip_prefix("#Core.") {
                                    let msg = format!("not supported yet: splatting a value of unknown length into `Core.{op}`");
                                    return Ok((Type::Bottom, Resolution::Error(msg)));
                                }
                            }
                            return Ok((Type::Any, Resolution::Dynamic));
                        };
                        flat_ts.extend(ts.iter().cloned());
                        match fr.f.def_inst(args[k + 2]).map(|d| &fr.f.insts[d]) {
                            Some(InstData::Tuple { args: elems }) if elems.len() == ts.len() => {
                                flat_args.extend(elems.iter().copied())
                            }
                            // Elements read at run time: no constant known.
                            _ => flat_args.extend(std::iter::repeat_n(args[k + 2], ts.len())),
                        }
                    }
                    let (t, r) = self.infer_call(fr, &flat_args, &flat_ts, span)?;
                    return Ok((t, Resolution::Apply(Box::new(r))));
                }
                "#typeassert" => {
                    return Ok(match ats.get(2) {
                        Some(Type::Type(t)) if ats.len() == 3 => {
                            let rt = self.assert_type(&ats[1], t);
                            (rt, Resolution::TypeAssert((**t).clone()))
                        }
                        _ => (
                            Type::Bottom,
                            Resolution::Error("typeassert: expected a type".into()),
                        ),
                    });
                }
                "#new" => {
                    return Ok(match ats.get(1) {
                        // The field-less AD types (`NoRData()`): their one value.
                        Some(Type::Type(t))
                            if ats.len() == 2
                                && matches!(
                                    **t,
                                    Type::NoTangent | Type::NoFData | Type::NoRData
                                ) =>
                        {
                            (
                                (**t).clone(),
                                Resolution::Constant(Const::Singleton((**t).clone())),
                            )
                        }
                        // A struct, or a struct's tangent, fdata or rdata.
                        Some(Type::Type(t))
                            if t.is_concrete()
                                && matches!(
                                    **t,
                                    Type::Struct(..)
                                        | Type::Tangent(_)
                                        | Type::MutableTangent(_)
                                        | Type::FData(_)
                                        | Type::RData(_)
                                ) =>
                        {
                            let fts = self.env.field_types(t).unwrap_or_default();
                            // Fewer values than fields: the rest are left undefined (Julia's
                            // `#undef`; see `undefined_field`).
                            // (Plain data other than a number has no value to hold.)
                            let plain = fts.iter().skip(ats.len() - 2).find(|ft| {
                                ft.is_bits(&self.env) && undefined_field(ft).1 == Type::Bottom
                            });
                            if let Some(ft) = plain {
                                (
                                    Type::Bottom,
                                    Resolution::Error(format!(
                                        "not supported yet: `new` without a value for a field of type {ft} (plain data that Julia leaves uninitialised)"
                                    )),
                                )
                            } else if fts.len() < ats.len() - 2 {
                                (
                                    Type::Bottom,
                                    Resolution::Error(format!(
                                        "new: {} has {} fields, got {} values",
                                        t,
                                        fts.len(),
                                        ats.len() - 2
                                    )),
                                )
                            } else {
                                // `new` converts each argument to its field's type.
                                let mut convs = Vec::new();
                                let mut failed = None;
                                for (a, ft) in ats[2..].iter().zip(fts.iter()) {
                                    if self.env.subtype(a, ft) || !a.is_concrete() {
                                        convs.push(None);
                                        continue;
                                    }
                                    let cargs = vec![
                                        Type::Function(sym("convert")),
                                        Type::type_of_type(ft.clone()),
                                        a.clone(),
                                    ];
                                    match self.dispatch_and_infer(sym("convert"), &cargs)? {
                                        Some((key, _, rt)) if self.env.subtype(&rt, ft) => {
                                            convs.push(Some(key))
                                        }
                                        _ => {
                                            failed = Some(format!(
                                                "MethodError: Cannot `convert` an object of type {a} to an object of type {ft}"
                                            ));
                                            break;
                                        }
                                    }
                                }
                                match failed {
                                    Some(m) => (Type::Bottom, Resolution::Error(m)),
                                    None if convs.iter().any(|c| c.is_some())
                                        || convs.len() < fts.len() =>
                                    {
                                        (
                                            (**t).clone(),
                                            Resolution::NewConvert((**t).clone(), convs),
                                        )
                                    }
                                    None => ((**t).clone(), Resolution::New((**t).clone())),
                                }
                            }
                        }
                        Some(Type::Type(t)) => (
                            Type::Bottom,
                            Resolution::Error(format!("new: cannot construct a value of type {t}")),
                        ),
                        _ => (Type::Any, Resolution::Dynamic),
                    });
                }
                // Destructuring (`a, b = t`) of a tuple, named tuple or pair takes field k
                // with its own type, as `getfield(t, k)` does in Julia's `indexed_iterate`.
                "indexed_iterate"
                    if (ats.len() == 3 || ats.len() == 4) && destructures_by_field(&ats[1]) =>
                {
                    if let Some(Const::Int(k)) = fr.f.const_value(args[2]) {
                        let fts = self.env.field_types(&ats[1]).unwrap_or_default();
                        if *k >= 1 && *k as usize <= fts.len() {
                            return Ok((
                                Type::tuple(vec![fts[(*k - 1) as usize].clone(), Type::Int64]),
                                Resolution::IndexedField((*k - 1) as u32),
                            ));
                        }
                    }
                }
                // `a, rest... = t` of a tuple or named tuple: the fields from `k` on (`k`, a
                // constant, counts from 1), each with its own type.
                "_slurp"
                    if ats.len() == 4
                        && matches!(ats[1], Type::Tuple(_) | Type::NamedTuple(..)) =>
                {
                    if let Some(Const::Int(k)) = fr.f.const_value(args[2]) {
                        let fts = self.env.field_types(&ats[1]).unwrap_or_default();
                        let k = (*k).max(1) as usize - 1;
                        let from: Vec<(u32, u32)> = (k..fts.len()).map(|j| (1, j as u32)).collect();
                        let ty = match &ats[1] {
                            Type::NamedTuple(ns, _) => Type::NamedTuple(
                                ns[k.min(ns.len())..].to_vec().into(),
                                fts[k.min(fts.len())..].to_vec().into(),
                            ),
                            _ => Type::tuple(fts[k.min(fts.len())..].to_vec()),
                        };
                        return Ok((ty, Resolution::NamedTupleOf(from)));
                    }
                }
                "getindex"
                    if ats.len() == 3
                        && matches!(ats[1], Type::Tuple(_) | Type::NamedTuple(..)) =>
                {
                    if let Some(Const::Int(k)) = fr.f.const_value(args[2]) {
                        let n = match &ats[1] {
                            Type::Tuple(ts) | Type::NamedTuple(_, ts) => ts.len() as i64,
                            _ => 0,
                        };
                        if *k >= 1 && *k <= n {
                            let fts = self.env.field_types(&ats[1]).unwrap_or_default();
                            return Ok((
                                fts[(*k - 1) as usize].clone(),
                                Resolution::FieldIndex((*k - 1) as u32),
                            ));
                        }
                        return Ok((
                            Type::Bottom,
                            Resolution::Error(format!(
                                "BoundsError: attempt to access {} at index [{k}]",
                                ats[1]
                            )),
                        ));
                    }
                }
                _ => {}
            }
        }
        // `a === b` (and `!==`) of values whose types decide it, as Julia's inference folds
        // it: so `x === nothing ? d : x` takes one branch when `x::Nothing`.
        if let (Type::Function(name), [_, a, b]) = (ft, ats) {
            let negated = name.as_str() == "!==";
            if negated || name.as_str() == "===" {
                if let Some(eq) = self.egal_by_type(a, b) {
                    return Ok((Type::Bool, Resolution::Constant(Const::Bool(eq != negated))));
                }
            }
        }
        let table = match crate::typeexpr::callee_table(ft) {
            Some(n) => n,
            None if ft.is_concrete() || matches!(ft, Type::Type(_)) => {
                return Ok((Type::Bottom, Resolution::NoMethod))
            }
            None => return Ok((Type::Any, Resolution::Dynamic)),
        };
        if !self.tables.contains_key(&table) {
            return Ok((Type::Bottom, Resolution::NoMethod));
        }
        if ats.iter().all(|t| t.is_concrete()) {
            let disp = self.dispatch(table, ats);
            return Ok(match disp {
                Dispatch::Found { index, mi_sig, .. } => {
                    let m = &self.tables[&table].methods[index as usize];
                    let pack = if m.vararg {
                        Some(m.sig.len() - 1)
                    } else {
                        None
                    };
                    let key = MiKey {
                        table,
                        method: index,
                        sig: mi_sig.into(),
                    };
                    let rt = self.infer_mi(&key)?;
                    (rt, Resolution::Invoke { key, pack })
                }
                Dispatch::NoMethod => (Type::Bottom, Resolution::NoMethod),
                Dispatch::Ambiguous(ms) => {
                    let list: Vec<String> = ms
                        .iter()
                        .map(|&k| self.tables[&table].methods[k as usize].signature_string())
                        .collect();
                    (Type::Bottom, Resolution::Ambiguous(list.join("\n  ")))
                }
            });
        }
        // Small unions: infer each combination; the call dispatches at run time.
        match combinations(ats) {
            Some(combos) => {
                let mut t = Type::Bottom;
                let mut cases = Vec::new();
                let mut splittable = combos.len() <= MAX_SPLIT;
                // The constant index of `getindex(t, k)`, for members that are tuples.
                let const_index = match (table.as_str(), args) {
                    ("getindex", [_, _, k]) => match fr.f.const_value(*k) {
                        Some(Const::Int(k)) => Some(*k),
                        _ => None,
                    },
                    _ => None,
                };
                for c in combos {
                    if let (Some(k), Type::Tuple(fts) | Type::NamedTuple(_, fts)) =
                        (const_index, &c[1])
                    {
                        if k >= 1 && k as usize <= fts.len() {
                            let rt = fts[k as usize - 1].clone();
                            t = t.join(&rt);
                            cases.push(SplitCase {
                                types: c,
                                call: CaseCall::Field(k as u32 - 1),
                                ret: rt,
                            });
                            continue;
                        }
                    }
                    match self.dispatch(table, &c) {
                        Dispatch::Found { index, mi_sig, .. } => {
                            if self.tables[&table].methods[index as usize].vararg {
                                splittable = false;
                            }
                            let key = MiKey {
                                table,
                                method: index,
                                sig: mi_sig.into(),
                            };
                            let rt = self.infer_mi(&key)?;
                            t = t.join(&rt);
                            cases.push(SplitCase {
                                types: c,
                                call: CaseCall::Invoke(key),
                                ret: rt,
                            });
                        }
                        // (A member no method takes throws where the call would.)
                        Dispatch::NoMethod => cases.push(SplitCase {
                            types: c,
                            call: CaseCall::NoMethod,
                            ret: Type::Bottom,
                        }),
                        Dispatch::Ambiguous(_) => splittable = false,
                    }
                }
                if splittable
                    && t != Type::Bottom
                    && cases.iter().any(|c| !matches!(c.call, CaseCall::NoMethod))
                {
                    Ok((t, Resolution::Split(cases)))
                } else {
                    Ok((t, Resolution::Dynamic))
                }
            }
            None => Ok((Type::Any, Resolution::Dynamic)),
        }
    }

    /// Builds the typed function from the inference results.
    pub(super) fn resolve(&mut self, fr: &Frame, name: String) -> Function {
        let src = fr.f;
        let mut f = src.clone();
        f.name = name;
        f.phase = Phase::Typed;
        f.layout.retain(|b| fr.reached.contains(b));
        for (v, _) in src.values.iter() {
            f.types[v] = fr.ty(v);
        }
        f.ret_type = fr.ret.clone();
        // Blocks created by union splitting, placed after the block they were split from.
        let mut extra: FxHashMap<Block, Vec<Block>> = FxHashMap::default();
        // Results of split calls, replaced by the join block's parameter at the end.
        let mut split_results: FxHashMap<Value, Value> = FxHashMap::default();
        for b in f.layout.clone() {
            let insts = std::mem::take(&mut f.blocks[b].insts);
            let mut out: Vec<Inst> = Vec::with_capacity(insts.len());
            let mut cur = b;
            let mut ended = false;
            for i in insts {
                if ended {
                    break;
                }
                let loc = f.locs[i];
                let mut data = f.insts[i].clone();
                let rt = f.result(i).map(|v| f.types[v].clone());
                let mut res = fr.res.get(&i).cloned();
                if let (InstData::Call { args }, Some(Resolution::Apply(inner))) = (&data, &res) {
                    // The pieces' elements: those of tuples built here, else read.
                    let mut flat = vec![args[1]];
                    for &piece in &args[2..] {
                        let ts = match &f.types[piece] {
                            Type::Tuple(ts) | Type::NamedTuple(_, ts) => ts.clone(),
                            _ => unreachable!("inference flattens tuples only"),
                        };
                        match src.def_inst(piece).map(|d| &src.insts[d]) {
                            Some(InstData::Tuple { args: elems }) if elems.len() == ts.len() => {
                                flat.extend(elems.iter().copied())
                            }
                            _ => {
                                for (k, t) in ts.iter().enumerate() {
                                    let (gi, gv) = f.make_inst(
                                        InstData::GetField {
                                            obj: piece,
                                            field: FieldRef::Index(k as u32),
                                        },
                                        t.clone(),
                                        loc,
                                    );
                                    out.push(gi);
                                    flat.push(gv.unwrap_or_else(|| unreachable!()));
                                }
                            }
                        }
                    }
                    let inner = (**inner).clone();
                    f.insts[i] = InstData::Call { args: flat };
                    data = f.insts[i].clone();
                    res = Some(inner);
                }
                // Whether the resolution is `invoke`'s (its call drops `invoke` and the types).
                let res_kind = res
                    .as_ref()
                    .map(|r| matches!(r, Resolution::InvokeAs { .. }));
                match (&data, res) {
                    (_, Some(Resolution::Error(msg))) => {
                        out.extend(throw_error(&mut f, &msg, loc));
                        ended = true;
                        continue;
                    }
                    (InstData::Call { args }, Some(Resolution::NoMethod)) => {
                        let (ti, _) = f.make_inst(
                            InstData::Prim {
                                op: Prim::ThrowMethodError,
                                args: args.clone(),
                            },
                            Type::Bottom,
                            loc,
                        );
                        out.push(ti);
                        ended = true;
                        continue;
                    }
                    (InstData::Call { .. }, Some(Resolution::Ambiguous(list))) => {
                        let fname = fr.ty(data.args()[0]);
                        let msg = format!(
                            "MethodError: {} is ambiguous. Candidates:\n  {list}",
                            fname_of(&fname)
                        );
                        out.extend(throw_error(&mut f, &msg, loc));
                        ended = true;
                        continue;
                    }
                    (
                        InstData::Call { args },
                        Some(Resolution::Invoke { key, pack } | Resolution::InvokeAs { key, pack }),
                    ) => {
                        let mut new_args = args.clone();
                        // `#invoke(f, T, xs...)` is the call `f(xs...)`.
                        if matches!(res_kind, Some(true)) {
                            new_args = vec![args[1]];
                            new_args.extend(args[3..].iter().copied());
                        }
                        if let Some(fixed) = pack {
                            let rest: Vec<Value> = new_args.split_off(fixed);
                            let tt =
                                Type::tuple(rest.iter().map(|a| f.types[*a].clone()).collect());
                            let (ti, tv) = f.make_inst(InstData::Tuple { args: rest }, tt, loc);
                            out.push(ti);
                            new_args.push(tv.unwrap_or_else(|| unreachable!()));
                        }
                        f.insts[i] = InstData::Invoke {
                            callee: Callee {
                                func: key.table,
                                method: key.method,
                                sig: key.sig.clone(),
                            },
                            args: new_args,
                        };
                    }
                    (InstData::Call { args }, Some(Resolution::Split(cases))) => {
                        let r = f.result(i).unwrap_or_else(|| unreachable!());
                        f.blocks[cur].insts = std::mem::take(&mut out);
                        let added = extra.entry(b).or_default();
                        let join = split_call(&mut f, cur, args, &cases, r, loc, added);
                        split_results.insert(r, f.blocks[join].params[0]);
                        cur = join;
                        continue;
                    }
                    (InstData::Call { args }, Some(Resolution::Prim(op))) => {
                        f.insts[i] = InstData::Prim {
                            op,
                            args: args[1..].to_vec(),
                        };
                    }
                    (InstData::Call { args }, Some(Resolution::TypeAssert(t))) => {
                        f.insts[i] = InstData::TypeAssert {
                            val: args[1],
                            ty: t,
                        };
                    }
                    (InstData::Call { args }, Some(Resolution::New(t))) => {
                        f.insts[i] = InstData::New {
                            ty: t,
                            args: args[2..].to_vec(),
                        };
                    }
                    (InstData::Call { args }, Some(Resolution::NewConvert(t, convs))) => {
                        let mut vals = Vec::new();
                        for (a, conv) in args[2..].iter().zip(convs) {
                            match conv {
                                None => vals.push(*a),
                                Some(key) => {
                                    vals.push(emit_convert(self, &mut f, &mut out, &key, *a, loc))
                                }
                            }
                        }
                        let fts = self.env.field_types(&t).unwrap_or_default();
                        for ft in fts.iter().skip(vals.len()) {
                            let (c, ct) = undefined_field(ft);
                            let (ci, cv) = f.make_inst(InstData::Const(c), ct, loc);
                            out.push(ci);
                            vals.extend(cv);
                        }
                        f.insts[i] = InstData::New { ty: t, args: vals };
                    }
                    (
                        InstData::Call { .. } | InstData::GetGlobal(_),
                        Some(Resolution::Global(g)),
                    ) => {
                        f.insts[i] = InstData::GetGlobal(g);
                    }
                    (InstData::SetGlobal(_, v), Some(Resolution::Global(g))) => {
                        f.insts[i] = InstData::SetGlobal(g, *v);
                    }
                    (InstData::Call { args }, Some(Resolution::IndexedField(k))) => {
                        let ft =
                            match f.types[f.result(i).unwrap_or_else(|| unreachable!())].clone() {
                                Type::Tuple(ts) => ts[0].clone(),
                                _ => unreachable!("an indexed field is inferred as a pair"),
                            };
                        let (gi, gv) = f.make_inst(
                            InstData::GetField {
                                obj: args[1],
                                field: FieldRef::Index(k),
                            },
                            ft,
                            loc,
                        );
                        let (ci, cv) = f.make_inst(
                            InstData::Const(Const::Int(k as i64 + 2)),
                            Type::Int64,
                            loc,
                        );
                        out.extend([gi, ci]);
                        f.insts[i] = InstData::Tuple {
                            args: vec![
                                gv.unwrap_or_else(|| unreachable!()),
                                cv.unwrap_or_else(|| unreachable!()),
                            ],
                        };
                    }
                    (
                        InstData::Call { .. } | InstData::GetField { .. },
                        Some(Resolution::NamedTupleOf(from)),
                    ) => {
                        // Arguments counted from 1 after the function; a field read's object
                        // is 0.
                        let args = match &f.insts[i] {
                            InstData::Call { args } => args.clone(),
                            InstData::GetField { obj, .. } => vec![*obj],
                            _ => unreachable!(),
                        };
                        let ty = f.types[f.result(i).unwrap_or_else(|| unreachable!())].clone();
                        let (Type::NamedTuple(_, fts) | Type::Tuple(fts)) = &ty else {
                            unreachable!("fields taken are a tuple or a named tuple")
                        };
                        let mut vals = Vec::new();
                        for (&(a, k), ft) in from.iter().zip(fts.iter()) {
                            let (gi, gv) = f.make_inst(
                                InstData::GetField {
                                    obj: args[a as usize],
                                    field: FieldRef::Index(k),
                                },
                                ft.clone(),
                                loc,
                            );
                            out.push(gi);
                            vals.push(gv.unwrap_or_else(|| unreachable!()));
                        }
                        f.insts[i] = match ty {
                            Type::Tuple(_) => InstData::Tuple { args: vals },
                            _ => InstData::New { ty, args: vals },
                        };
                    }
                    (InstData::Call { args }, Some(Resolution::FieldIndex(k))) => {
                        f.insts[i] = InstData::GetField {
                            obj: args[1],
                            field: FieldRef::Index(k),
                        };
                    }
                    (InstData::New { args, .. }, Some(Resolution::New(t))) => {
                        f.insts[i] = InstData::New {
                            ty: t,
                            args: args.clone(),
                        };
                    }
                    (InstData::GetField { obj, .. }, Some(Resolution::FieldIndex(k))) => {
                        f.insts[i] = InstData::GetField {
                            obj: *obj,
                            field: FieldRef::Index(k),
                        };
                    }
                    (InstData::SetField { obj, val, .. }, Some(Resolution::FieldIndex(k))) => {
                        f.insts[i] = InstData::SetField {
                            obj: *obj,
                            field: FieldRef::Index(k),
                            val: *val,
                        };
                    }
                    (
                        InstData::SetField { obj, val, .. },
                        Some(Resolution::SetFieldConvert(k, key)),
                    ) => {
                        let v = emit_convert(self, &mut f, &mut out, &key, *val, loc);
                        f.insts[i] = InstData::SetField {
                            obj: *obj,
                            field: FieldRef::Index(k),
                            val: v,
                        };
                    }
                    (
                        InstData::SetField { obj, val, .. },
                        Some(Resolution::SetFieldDynamicConvert(k, ft)),
                    ) => {
                        let (obj, val) = (*obj, *val);
                        let conv = sym("convert");
                        let (fi, fv) = f.make_inst(
                            InstData::Const(Const::Func(conv)),
                            Type::Function(conv),
                            loc,
                        );
                        let (ti, tv) = f.make_inst(
                            InstData::Const(Const::Type(ft.clone())),
                            Type::type_of_type(ft.clone()),
                            loc,
                        );
                        let (ci, cv) = f.make_inst(
                            InstData::Call {
                                args: vec![
                                    fv.unwrap_or_else(|| unreachable!()),
                                    tv.unwrap_or_else(|| unreachable!()),
                                    val,
                                ],
                            },
                            Type::Any,
                            loc,
                        );
                        let (ai, av) = f.make_inst(
                            InstData::TypeAssert {
                                val: cv.unwrap_or_else(|| unreachable!()),
                                ty: ft.clone(),
                            },
                            ft,
                            loc,
                        );
                        out.extend([fi, ti, ci, ai]);
                        f.insts[i] = InstData::SetField {
                            obj,
                            field: FieldRef::Index(k),
                            val: av.unwrap_or_else(|| unreachable!()),
                        };
                    }
                    (_, Some(Resolution::Constant(c))) => {
                        f.insts[i] = InstData::Const(c);
                    }
                    (InstData::StaticParam(_), None) => {
                        f.insts[i] = InstData::Const(Const::Undef);
                    }
                    (
                        InstData::Branch {
                            cond,
                            then_dest,
                            then_args,
                            else_dest,
                            else_args,
                        },
                        _,
                    ) => match src.const_value(*cond).or_else(|| fr.known.get(cond)) {
                        Some(Const::Bool(true)) => {
                            f.insts[i] = InstData::Jump {
                                dest: *then_dest,
                                args: then_args.clone(),
                            };
                        }
                        Some(Const::Bool(false)) => {
                            f.insts[i] = InstData::Jump {
                                dest: *else_dest,
                                args: else_args.clone(),
                            };
                        }
                        _ => {}
                    },
                    _ => {}
                }
                out.push(i);
                let never_returns = matches!(rt, Some(Type::Bottom))
                    && !matches!(f.insts[i], InstData::Const(Const::Undef));
                if never_returns && !f.insts[i].is_terminator() {
                    ended = true;
                }
            }
            if ended {
                let (u, _) = f.make_inst(
                    InstData::Unreachable,
                    Type::Bottom,
                    out.last().map(|i| f.locs[*i]).unwrap_or_default(),
                );
                out.push(u);
            }
            f.blocks[cur].insts.extend(out);
        }
        if !split_results.is_empty() {
            f.map_all_args(|v| split_results.get(&v).copied().unwrap_or(v));
            // `add_block` appended the new blocks to the layout; move each after its origin.
            let moved: FxHashSet<Block> = extra.values().flatten().copied().collect();
            let mut layout = Vec::with_capacity(f.layout.len());
            for b in f.layout.iter().filter(|b| !moved.contains(b)) {
                layout.push(*b);
                layout.extend(extra.get(b).into_iter().flatten().copied());
            }
            f.layout = layout;
        }
        f
    }
}

/// Whether destructuring a value of type `t` reads its fields directly: Julia's
/// `indexed_iterate` methods of tuples, named tuples and pairs call `getfield`, and the
/// library's `Eigen` and `SVD` objects iterate their first fields in order (values and vectors;
/// U, S and V).
fn destructures_by_field(t: &Type) -> bool {
    match t {
        Type::Tuple(_) | Type::NamedTuple(..) => true,
        Type::Struct(n, _) => matches!(n.as_str(), "Pair" | "Eigen" | "SVD"),
        _ => false,
    }
}

/// `Core.nt_merge`/`Core.nt_drop` of operands not known to be named tuples: merged when the
/// call runs if their types are not known yet, else an error.
fn named_tuple_operands_unknown(ts: &[Type]) -> (Type, Resolution) {
    match ts
        .iter()
        .find(|t| t.is_concrete() && !matches!(t, Type::NamedTuple(..)))
    {
        Some(t) => (
            Type::Bottom,
            Resolution::Error(crate::named_tuples::not_a_named_tuple(t)),
        ),
        None => (Type::Any, Resolution::Dynamic),
    }
}

/// The names a `Core.kw_extra`/`Core.nt_drop` call lists (string constants), or `None` when
/// one is not a constant.
fn listed_names(fr: &Frame, args: &[Value]) -> Option<Vec<String>> {
    args.iter()
        .map(|a| match fr.f.const_value(*a) {
            Some(Const::Str(n)) => Some(n.to_string()),
            _ => None,
        })
        .collect()
}
