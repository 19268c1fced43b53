//! Expressions: the dispatch over expression kinds, blocks, calls and their arguments,
//! strings, indexing and matrix literals.

use super::*;
use syntax::ast::library_ref;

impl<'a> Lowerer<'a> {
    /// A condition: must be a `Bool` (a `TypeError` otherwise).
    pub(super) fn cond(&mut self, e: &Expr) -> Result<Value, CompileError> {
        let v = self.expr(e)?;
        Ok(self.emit(
            InstData::TypeAssert {
                val: v,
                ty: Type::Bool,
            },
            e.span,
        ))
    }

    /// `Colon()`: a bare `:` in an index, or `:` as a value.
    fn colon(&mut self, sp: Span) -> Value {
        let c = self.emit(InstData::GetGlobal(sym("Colon")), sp);
        self.emit(InstData::Call { args: vec![c] }, sp)
    }

    pub(super) fn block(&mut self, stmts: &[Expr]) -> Result<Value, CompileError> {
        let mut last = None;
        for s in stmts {
            last = Some(self.expr(s)?);
        }
        Ok(match last {
            Some(v) => v,
            None => {
                let sp = stmts.first().map(|s| s.span).unwrap_or_default();
                self.nothing(sp)
            }
        })
    }

    pub(super) fn scoped_block(&mut self, stmts: &[Expr]) -> Result<Value, CompileError> {
        self.scopes.push(Scope {
            vars: FxHashMap::default(),
            hard: false,
        });
        self.predeclare(stmts);
        let r = self.block(stmts);
        self.scopes.pop();
        r
    }

    pub fn expr(&mut self, e: &Expr) -> Result<Value, CompileError> {
        // Deeply nested expressions (a chain `1 + 1 + ...` of many thousand terms) grow the
        // stack on demand.
        stacker::maybe_grow(64 * 1024, 4 << 20, || self.expr_here(e))
    }

    pub(super) fn expr_here(&mut self, e: &Expr) -> Result<Value, CompileError> {
        let sp = e.span;
        if crate::broadcast::is_dotted(e) {
            return self.broadcast(e, None, sp);
        }
        match &e.kind {
            ExprKind::Int(i) => Ok(self.konst(Const::Int(*i), sp)),
            ExprKind::Float(x) => Ok(self.konst(Const::F64(*x), sp)),
            ExprKind::Float32(x) => Ok(self.konst(Const::F32(*x), sp)),
            ExprKind::Bool(b) => Ok(self.konst(Const::Bool(*b), sp)),
            ExprKind::Nothing => Ok(self.nothing(sp)),
            ExprKind::QuoteSym(s) => Ok(self.konst(Const::Sym(*s), sp)),
            ExprKind::Str(segs) => self.string(segs, sp),
            // `:` as a value is Julia's `Colon()` (`sum(A; dims = :)`, `view(A, :, 1)`,
            // `typeof(:)`), which is also what `(:)(a, b)` through a variable calls.
            ExprKind::Ident(name) if name.as_str() == ":" && self.lookup_local(*name).is_none() => {
                Ok(self.colon(sp))
            }
            ExprKind::Ident(name) => self.read_name(*name, sp),
            // `begin`/`end` in an index: the first/last index of the array (along the
            // dimension when there are several indices).
            ExprKind::Begin | ExprKind::End => {
                let (word, whole, along) = match e.kind {
                    ExprKind::Begin => ("begin", "firstindex", "firstindex"),
                    _ => ("end", "lastindex", "size"),
                };
                match self.index_ctx.last().copied() {
                    Some((obj, IndexPos::Computed(d), _)) => Ok(self.call(along, vec![obj, d], sp)),
                    Some((obj, _, 1)) => Ok(self.call(whole, vec![obj], sp)),
                    Some((obj, IndexPos::At(dim), _)) => {
                        let d = self.konst(Const::Int(dim as i64 + 1), sp);
                        Ok(self.call(along, vec![obj, d], sp))
                    }
                    None => Err(CompileError::invalid(
                        sp,
                        format!("`{word}` outside an index expression"),
                    )),
                }
            }
            ExprKind::Colon => Ok(self.colon(sp)),
            // `x isa Union{A, B, ...}` tests each member: a union of an abstract type or of
            // many types has no value (see `ir::prim::apply_type`).
            ExprKind::Call { func, args, kwargs, .. }
                if func.ident().is_some_and(|f| f.as_str() == "isa")
                    && kwargs.is_empty()
                    && matches!(args.as_slice(), [_, t] if union_members(t).is_some()) =>
            {
                let members = union_members(&args[1]).unwrap_or_default();
                let tuple = Expr::new(ExprKind::Tuple(members.to_vec()), args[1].span);
                let call = super::types::call_ast(
                    Expr::new(ExprKind::Ident(sym("_isa_any")), func.span),
                    vec![args[0].clone(), tuple],
                    sp,
                );
                self.expr(&call)
            }
            ExprKind::Call {
                func,
                args,
                kwargs,
                do_block,
            } => self.call_syntax(func, args, kwargs, do_block, sp),
            ExprKind::DotCall { .. } => self.broadcast(e, None, sp),
            ExprKind::And(a, b) => self.short_circuit(a, b, true, sp),
            ExprKind::Or(a, b) => self.short_circuit(a, b, false, sp),
            ExprKind::Comparison { first, rest } => self.comparison(first, rest, sp),
            ExprKind::Ternary { cond, then, else_ } => {
                self.if_expr(cond, |l| l.expr(then), |l| l.expr(else_), sp)
            }
            ExprKind::Assign { lhs, rhs } => {
                let v = self.expr(rhs)?;
                self.assign(lhs, v, sp)?;
                Ok(v)
            }
            ExprKind::OpAssign { op, lhs, rhs } => self.op_assign(*op, lhs, rhs, sp),
            ExprKind::DotAssign { op, lhs, rhs } if matches!(lhs.kind, ExprKind::Index { .. }) => {
                self.indexed_dot_assign(*op, lhs, rhs, sp)
            }
            ExprKind::DotAssign { op, lhs, rhs } => {
                // `x .op= y` is `x .= x .op y`.
                let rhs = if op.as_str() == ".=" {
                    (**rhs).clone()
                } else {
                    call_ast(ident(*op, sp), vec![(**lhs).clone(), (**rhs).clone()], sp)
                };
                self.broadcast(&rhs, Some(lhs), sp)
            }
            ExprKind::Tuple(elems) => {
                // `(a, rest...)` is `tuple(a, rest...)`: a call, which splats.
                if elems.iter().any(|el| matches!(el.kind, ExprKind::Splat(_))) {
                    return self.expr(&call_ast(library_ref(sym("tuple"), sp), elems.clone(), sp));
                }
                let mut vs = Vec::new();
                for el in elems {
                    vs.push(self.expr(el)?);
                }
                Ok(self.emit(InstData::Tuple { args: vs }, sp))
            }
            ExprKind::NamedTuple(fields) => {
                let mut vs = Vec::new();
                let mut names = Vec::new();
                for (n, v) in fields {
                    if names.contains(n) {
                        return Err(CompileError::invalid(
                            sp,
                            format!("field name `{n}` repeated in a named tuple"),
                        ));
                    }
                    names.push(*n);
                    vs.push(self.expr(v)?);
                }
                // Element types are filled in by inference.
                let ty = Type::NamedTuple(names.into(), vec![Type::Any; vs.len()].into());
                Ok(self.emit(InstData::New { ty, args: vs }, sp))
            }
            ExprKind::Vect(elems) => {
                let vs = self.args(elems)?;
                Ok(self.call("vect", vs, sp))
            }
            ExprKind::Matrix(rows) => self.matrix(None, rows, sp),
            ExprKind::TypedMatrix(t, rows) => self.matrix(Some(t), rows, sp),
            ExprKind::Index { obj, indices } => self.index_call("getindex", obj, indices, sp),
            ExprKind::Field { obj, name } => {
                if let Some(m) = obj.ident() {
                    if m.as_str() == "Core" {
                        // `Core.kwcall(kw, f, args...)`: `f(args...; kw...)`.
                        if name.as_str() == "kwcall" {
                            return Ok(self.emit(func_const("#kwcall"), sp));
                        }
                        return Ok(self.emit(InstData::GetGlobal(*name), sp));
                    }
                    if is_module(m) && self.lookup_local(m).is_none() {
                        // Base's types that the prelude names apart from a program's own.
                        if m.as_str() == "Base" && name.as_str() == "Generator" {
                            return Ok(self.module_global(sym("_Base_Generator"), sp));
                        }
                        if let (true, Some(n)) = (
                            m.as_str() == "Mooncake",
                            crate::packages::mooncake_prelude_name(name.as_str()),
                        ) {
                            return Ok(self.module_global(sym(n), sp));
                        }
                        return Ok(self.module_global(*name, sp));
                    }
                }
                // `Mooncake.TestUtils.test_rule`: Mooncake's testing module.
                if let ExprKind::Field { obj: m, name: sub } = &obj.kind {
                    if sub.as_str() == "TestUtils"
                        && m.ident().is_some_and(|m| m.as_str() == "Mooncake")
                        && self.lookup_local(sym("Mooncake")).is_none()
                    {
                        return Ok(self.module_global(*name, sp));
                    }
                }
                if is_iterators(obj) && self.lookup_local(sym("Iterators")).is_none() {
                    let Some(f) = iterators_name(name.as_str()) else {
                        return Err(CompileError::invalid(
                            sp,
                            format!("UndefVarError: `{name}` not defined in `Base.Iterators`"),
                        ));
                    };
                    return Ok(self.module_global(sym(&f), sp));
                }
                if obj.ident().is_some_and(|m| m.as_str() == "Sys")
                    && self.lookup_local(sym("Sys")).is_none()
                {
                    // `Sys.WORD_SIZE` and `Sys.CPU_THREADS`: facts of this machine.
                    let v = match name.as_str() {
                        "WORD_SIZE" => 64,
                        "CPU_THREADS" => {
                            std::thread::available_parallelism().map_or(1, |n| n.get() as i64)
                        }
                        _ => {
                            return Err(CompileError::unsupported(sp, &format!("`Sys.{name}`")));
                        }
                    };
                    return Ok(self.emit(InstData::Const(ir::Const::Int(v)), sp));
                }
                if is_math_constants(obj) && self.lookup_local(sym("MathConstants")).is_none() {
                    let Some(c) = math_constant(name.as_str()) else {
                        return Err(CompileError::invalid(
                            sp,
                            format!("`{name}` is not defined in `Base.MathConstants`"),
                        ));
                    };
                    return Ok(self.module_global(sym(c), sp));
                }
                let o = self.expr(obj)?;
                Ok(self.emit(
                    InstData::GetField {
                        obj: o,
                        field: FieldRef::Name(*name),
                    },
                    sp,
                ))
            }
            ExprKind::Curly { .. } => self.type_value(e),
            ExprKind::SubtypeBound(_) => Err(CompileError::invalid(
                sp,
                "`<:T` is only valid inside `{...}` of a type",
            )),
            ExprKind::TypeAssert { expr, ty } => {
                let v = self.expr(expr)?;
                let t = self.type_value(ty)?;
                Ok(self.call("#typeassert", vec![v, t], sp))
            }
            ExprKind::Where { .. } => Err(CompileError::invalid(
                sp,
                "`where` outside a method signature",
            )),
            ExprKind::Splat(_) => Err(CompileError::invalid(
                sp,
                "`...` is only valid in a call or a signature",
            )),
            ExprKind::Lambda(l) => {
                self.lambda(&l.params, &l.kwparams, &[&l.body], sp, l.local, l.try_block)
            }
            ExprKind::Function(def) if matches!(def.name, FnName::Anonymous) => {
                let body: Vec<&Expr> = def.body.iter().collect();
                self.lambda(&def.params, &[], &body, sp, None, false)
            }
            ExprKind::Block(stmts) => self.block(stmts),
            ExprKind::If { cond, then, else_ } => self.if_expr(
                cond,
                |l| l.block(then),
                |l| match else_ {
                    Some(e) => l.expr(e),
                    None => Ok(l.nothing(sp)),
                },
                sp,
            ),
            ExprKind::While { cond, body } => self.while_loop(cond, body, sp),
            ExprKind::For { iters, body } => {
                let exit = self.f.add_block();
                self.for_loop(iters, body, exit, sp)?;
                self.jump(exit, sp);
                self.cur = exit;
                Ok(self.nothing(sp))
            }
            ExprKind::Break => self.loop_exit(true, sp),
            ExprKind::Continue => self.loop_exit(false, sp),
            ExprKind::Return(v) => {
                if self.toplevel {
                    return Err(CompileError::invalid(sp, "`return` outside a function"));
                }
                let val = match v {
                    Some(v) => self.expr(v)?,
                    None => self.nothing(sp),
                };
                self.ret(val, sp)?;
                Ok(self.nothing(sp))
            }
            ExprKind::Let { bindings, body } => self.let_block(bindings, body),
            ExprKind::Local(decls) => {
                for d in decls {
                    match &d.kind {
                        ExprKind::Assign { lhs, rhs } => {
                            let v = self.expr(rhs)?;
                            self.declare_and_assign(lhs, Some(v))?;
                        }
                        _ => self.declare_and_assign(d, None)?,
                    }
                }
                Ok(self.nothing(sp))
            }
            ExprKind::Global(decls) => {
                for d in decls {
                    let name = match &d.kind {
                        ExprKind::Ident(n) => Some(*n),
                        ExprKind::Assign { lhs, .. } | ExprKind::OpAssign { lhs, .. } => {
                            lhs.ident()
                        }
                        _ => None,
                    };
                    let Some(name) = name else {
                        return Err(CompileError::invalid(
                            d.span,
                            "expected a name after `global`",
                        ));
                    };
                    self.global_decls.push(name);
                    if !matches!(d.kind, ExprKind::Ident(_)) {
                        self.expr(d)?;
                    }
                }
                Ok(self.nothing(sp))
            }
            ExprKind::Const(inner) => {
                if !self.toplevel || self.scopes.len() > 1 {
                    return Err(CompileError::invalid(
                        sp,
                        "unsupported `const` declaration on local variable",
                    ));
                }
                match &inner.kind {
                    // `const x::T = v` converts `v` to `T`, as a typed global does.
                    ExprKind::Assign { lhs, rhs } => {
                        let v = self.expr(rhs)?;
                        self.assign_const(lhs, v, sp)?;
                        Ok(v)
                    }
                    _ => Err(CompileError::invalid(
                        sp,
                        "unsupported `const local` declaration",
                    )),
                }
            }
            ExprKind::Function(_) if self.toplevel => Err(CompileError::unsupported(
                sp,
                "defining a function inside a loop or a `let` block at top level (define it outside)",
            )),
            ExprKind::Function(_) => Err(CompileError::unsupported(
                sp,
                "defining a function inside a function (closures)",
            )),
            ExprKind::Struct(_) | ExprKind::AbstractType { .. } => Err(CompileError::invalid(
                sp,
                "type definitions are only allowed at top level",
            )),
            ExprKind::Macro { name, args } => self.macro_call(*name, args, sp),
            ExprKind::Comprehension {
                body,
                iters,
                cond,
                generator,
            } => self.comprehension(body, iters, cond.as_deref(), *generator, sp),
            ExprKind::Using { .. } => Ok(self.nothing(sp)),
            ExprKind::Error => Err(CompileError::new(ErrorKind::Syntax, sp, "syntax error")),
        }
    }

    /// A call written `f(args...; kwargs...)`, possibly with a `do` block.
    fn call_syntax(
        &mut self,
        func: &Expr,
        args: &[Expr],
        kwargs: &[KwArg],
        do_block: &Option<Box<Lambda>>,
        sp: Span,
    ) -> Result<Value, CompileError> {
        // The arguments are borrowed, never cloned: a chain `1 + 1 + ... + 1` nests
        // calls thousands deep.
        let lambda = do_block
            .as_ref()
            .map(|d| mk(ExprKind::Lambda(d.clone()), d.span));
        let mut all: Vec<&Expr> = Vec::new();
        // `f(args...) do x ... end` is `f(x -> ..., args...)`.
        all.extend(lambda.as_ref());
        all.extend(args.iter());
        if !kwargs.is_empty() {
            // `f(args...; k = v)` is `#kwcall((k = v,), f, args...)`: the keyword
            // arguments travel as a named tuple to the method `f`'s definition made
            // for them (see `keyword_methods`).
            if kwargs.iter().any(|k| k.splat) {
                return self.call_with_kw_splats(func, &all, kwargs, sp);
            }
            let mut names: Vec<Symbol> = Vec::new();
            for k in kwargs {
                if let Some(t) = &k.ty {
                    return Err(CompileError::invalid(
                        t.span,
                        "a keyword argument of a call has no type",
                    ));
                }
                if names.contains(&k.name) {
                    return Err(CompileError::invalid(
                        k.span,
                        format!("keyword argument `{}` repeated", k.name),
                    ));
                }
                names.push(k.name);
            }
            let nt = mk(
                ExprKind::NamedTuple(kwargs.iter().map(|k| (k.name, k.value.clone())).collect()),
                kwargs[0].span,
            );
            let mut full: Vec<&Expr> = vec![&nt, func];
            full.extend(all);
            let kf = self.emit(func_const("#kwcall"), sp);
            return self.call_with(kf, &full, sp);
        }
        self.call_expr(func, &all, sp)
    }

    /// `f(args...; a = 1, kws..., b = 2)`: the keyword arguments are the named tuples of
    /// each run of `k = v` and of each splatted value (`Base._kw_splat`: a named tuple, or a
    /// method's `kws...`) merged in order, a later name replacing an earlier one, as Julia's
    /// `merge`; when they come out empty (only splats, all empty), the plain call `f(args...)`.
    fn call_with_kw_splats(
        &mut self,
        func: &Expr,
        all: &[&Expr],
        kwargs: &[KwArg],
        sp: Span,
    ) -> Result<Value, CompileError> {
        let core = |name: &str, args: Vec<Expr>| core_call(name, args, sp);
        let mut parts: Vec<Expr> = Vec::new();
        let mut run: Vec<(Symbol, Expr)> = Vec::new();
        for k in kwargs {
            if let Some(t) = &k.ty {
                return Err(CompileError::invalid(
                    t.span,
                    "a keyword argument of a call has no type",
                ));
            }
            if k.splat {
                if !run.is_empty() {
                    parts.push(mk(ExprKind::NamedTuple(std::mem::take(&mut run)), sp));
                }
                parts.push(call_ast(
                    library_ref(sym("_kw_splat"), k.span),
                    vec![k.value.clone()],
                    k.span,
                ));
            } else {
                if run.iter().any(|(n, _)| *n == k.name) {
                    return Err(CompileError::invalid(
                        k.span,
                        format!("keyword argument `{}` repeated", k.name),
                    ));
                }
                run.push((k.name, k.value.clone()));
            }
        }
        if !run.is_empty() {
            parts.push(mk(ExprKind::NamedTuple(run), sp));
        }
        let mut parts = parts.into_iter();
        let first = parts
            .next()
            .unwrap_or_else(|| unreachable!("a splat is a part"));
        let nt = parts.fold(first, |acc, p| core("nt_merge", vec![acc, p]));
        let kw = self.expr(&nt)?;
        let f = self.expr(func)?;
        let mut pieces: Vec<(Value, bool)> = Vec::new();
        for a in all {
            pieces.push(match &a.kind {
                ExprKind::Splat(inner) => (self.expr(inner)?, true),
                _ => (self.expr(a)?, false),
            });
        }
        let has = self.call("#kw_extra", vec![kw], sp);
        let tmp = self.temp_slot("kwcall");
        let (tb, eb, join) = (self.f.add_block(), self.f.add_block(), self.f.add_block());
        self.branch(has, tb, eb, sp);
        self.cur = tb;
        let kf = self.emit(func_const("#kwcall"), sp);
        let mut with_kw = vec![(kw, false), (f, false)];
        with_kw.extend(pieces.iter().copied());
        let tv = self.call_pieces(kf, &with_kw, sp);
        self.set_slot(tmp, tv, sp);
        self.jump(join, sp);
        self.cur = eb;
        let ev = self.call_pieces(f, &pieces, sp);
        self.set_slot(tmp, ev, sp);
        self.jump(join, sp);
        self.cur = join;
        Ok(self.get_slot(tmp, sp))
    }

    /// The call of `f` on arguments already computed, each `(value, splatted)`.
    fn call_pieces(&mut self, f: Value, pieces: &[(Value, bool)], sp: Span) -> Value {
        if !pieces.iter().any(|(_, splat)| *splat) {
            let mut all = vec![f];
            all.extend(pieces.iter().map(|(v, _)| *v));
            return self.emit(InstData::Call { args: all }, sp);
        }
        let mut all = vec![f];
        for &(v, splat) in pieces {
            all.push(if splat {
                v
            } else {
                self.emit(InstData::Tuple { args: vec![v] }, sp)
            });
        }
        self.call("#apply", all, sp)
    }

    pub(super) fn args<'e>(
        &mut self,
        es: impl IntoIterator<Item = &'e Expr>,
    ) -> Result<Vec<Value>, CompileError> {
        let mut vs = Vec::new();
        for e in es {
            if let ExprKind::Splat(_) = e.kind {
                return Err(CompileError::unsupported(e.span, "splatting `f(xs...)`"));
            }
            vs.push(self.expr(e)?);
        }
        Ok(vs)
    }

    pub(super) fn string(&mut self, segs: &[StrSeg], sp: Span) -> Result<Value, CompileError> {
        if let [StrSeg::Lit(s)] = segs {
            return Ok(self.konst(Const::Str(Arc::from(s.as_str())), sp));
        }
        if segs.is_empty() {
            return Ok(self.konst(Const::Str(Arc::from("")), sp));
        }
        let mut vs = Vec::new();
        for s in segs {
            vs.push(match s {
                StrSeg::Lit(l) => self.konst(Const::Str(Arc::from(l.as_str())), sp),
                StrSeg::Expr(e) => self.expr(e)?,
            });
        }
        Ok(self.call("string", vs, sp))
    }

    pub(super) fn call_expr(
        &mut self,
        func: &Expr,
        args: &[&Expr],
        sp: Span,
    ) -> Result<Value, CompileError> {
        // `Core.name(args)` is a primitive.
        if let ExprKind::Field { obj, name } = &func.kind {
            if obj.ident().is_some_and(|m| m.as_str() == "Core")
                && self.lookup_local(sym("Core")).is_none()
            {
                if name.as_str() == "kw_error" {
                    let f = self.emit(func_const("#kw_error"), sp);
                    return self.call_with(f, args, sp);
                }
                // `Core.op(a, xs...)`: the primitive applied to the pieces' elements once
                // inference knows the tuples' lengths (see `#apply`).
                if args.iter().any(|a| matches!(a.kind, ExprKind::Splat(_))) {
                    let target = match name.as_str() {
                        n if Prim::from_name(n).is_some() => format!("#Core.{n}"),
                        n @ ("typeassert" | "new" | "return_type" | "kw_has" | "kw_extra"
                        | "nt_merge" | "nt_drop" | "nt_like" | "invoke") => {
                            format!("#{n}")
                        }
                        _ => {
                            return Err(CompileError::invalid(
                                func.span,
                                format!("`Core.{name}` is not a primitive"),
                            ))
                        }
                    };
                    let op = self.emit(func_const(&target), sp);
                    return self.call_with(op, args, sp);
                }
                let vs = self.args(args.iter().copied())?;
                return match Prim::from_name(name.as_str()) {
                    Some(op) => Ok(self.prim(op, vs, sp)),
                    None => match name.as_str() {
                        "typeassert" => Ok(self.call("#typeassert", vs, sp)),
                        "new" => Ok(self.call("#new", vs, sp)),
                        "return_type" => Ok(self.call("#return_type", vs, sp)),
                        "invoke" => Ok(self.call("#invoke", vs, sp)),
                        "kw_has" => Ok(self.call("#kw_has", vs, sp)),
                        "kw_extra" => Ok(self.call("#kw_extra", vs, sp)),
                        "nt_merge" => Ok(self.call("#nt_merge", vs, sp)),
                        "nt_drop" => Ok(self.call("#nt_drop", vs, sp)),
                        "nt_like" => Ok(self.call("#nt_like", vs, sp)),
                        _ => Err(CompileError::invalid(
                            func.span,
                            format!("`Core.{name}` is not a primitive"),
                        )),
                    },
                };
            }
        }
        if let Some(v) = self.field_call(func, args, sp)? {
            return Ok(v);
        }
        // `Array{T}(undef, dims...)`: the array of as many dimensions as `dims` gives
        // (`_array_undef`; `Array{T}` alone, a partially applied type, has no value here).
        if let ExprKind::Curly { base, params } = &func.kind {
            if let ([t], Some(first)) = (params.as_slice(), args.first()) {
                if base.ident().is_some_and(|b| b.as_str() == "Array")
                    && first.ident().is_some_and(|u| u.as_str() == "undef")
                    && self.lookup_local(sym("Array")).is_none()
                {
                    let mut rest = vec![t.clone()];
                    rest.extend(args[1..].iter().map(|a| (*a).clone()));
                    let call = call_ast(library_ref(sym("_array_undef"), func.span), rest, sp);
                    return self.expr(&call);
                }
            }
        }
        // `new{T}(...)`: `new` of the struct with the given parameters.
        if let ExprKind::Curly { base, params } = &func.kind {
            if base.ident().is_some_and(|b| b.as_str() == "new")
                && self.lookup_local(sym("new")).is_none()
            {
                let Some(t) = self.new_type.clone() else {
                    return Err(CompileError::invalid(
                        func.span,
                        "`new` is only available inside a constructor",
                    ));
                };
                let head = match t.kind {
                    ExprKind::Curly { base, .. } => *base,
                    _ => t,
                };
                let applied = Expr::new(
                    ExprKind::Curly {
                        base: Box::new(head),
                        params: params.clone(),
                    },
                    func.span,
                );
                let tv = self.type_value(&applied)?;
                let mut vs = vec![tv];
                vs.extend(self.args(args.iter().copied())?);
                return Ok(self.call("#new", vs, sp));
            }
        }
        if let Some(name) = func.ident() {
            if name.as_str() == "new" && self.lookup_local(name).is_none() {
                let Some(t) = self.new_type.clone() else {
                    return Err(CompileError::invalid(
                        func.span,
                        "`new` is only available inside a constructor",
                    ));
                };
                let tv = self.type_value(&t)?;
                let mut vs = vec![tv];
                vs.extend(self.args(args.iter().copied())?);
                return Ok(self.call("#new", vs, sp));
            }
            // `Val(x)` with a literal integer, `Bool` or symbol, or a static parameter
            // (`where {N}`): `Val{x}()`, the type Julia's constant propagation gives it (with
            // a run-time `x`, the prelude's `Val(x)` says it is not supported).
            if name.as_str() == "Val" && self.lookup_local(name).is_none() {
                if let [x] = args {
                    let known = match &x.kind {
                        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::QuoteSym(_) => true,
                        ExprKind::Ident(n) => {
                            self.sparams.contains(n) && self.lookup_local(*n).is_none()
                        }
                        _ => false,
                    };
                    if known {
                        let applied = Expr::new(
                            ExprKind::Curly {
                                base: Box::new(func.clone()),
                                params: vec![(*x).clone()],
                            },
                            func.span,
                        );
                        return self.call_expr(&applied, &[], sp);
                    }
                }
            }
            if let [g] = args {
                if let Some(v) = self.generator_reduction(name, g, sp)? {
                    return Ok(v);
                }
            }
            if name.as_str() == "throw" && self.lookup_local(name).is_none() && args.len() == 1 {
                let v = self.expr(args[0])?;
                let r = self.prim(Prim::ThrowValue, vec![v], sp);
                self.terminate(InstData::Unreachable, sp);
                return Ok(r);
            }
        }
        if func.ident().is_some_and(|f| f.as_str() == "//")
            && self.lookup_local(sym("//")).is_none()
        {
            return Err(CompileError::unsupported(sp, "rational numbers (`a // b`)"));
        }
        // `x^k` with a literal k in -2..=3 is Julia's `literal_pow`: x*x for k = 2, inv(x)
        // for k = -1, and so on (so `2^-1 == 0.5`); the prelude's `_literal_pow2` etc. do
        // that and give `ℯ^k` as `exp(k)`.
        if func.ident().is_some_and(|f| f.as_str() == "^")
            && self.lookup_local(sym("^")).is_none()
            && !self.env.is_own_function(sym("^"))
        {
            if let (2, Some(ExprKind::Int(k))) = (args.len(), args.get(1).map(|a| &a.kind)) {
                if (-2..=3).contains(k) {
                    let x = self.expr(args[0])?;
                    let f = match k {
                        0 => "_literal_pow0",
                        1 => "_literal_pow1",
                        2 => "_literal_pow2",
                        3 => "_literal_pow3",
                        -1 => "_literal_pow_minus1",
                        _ => "_literal_pow_minus2",
                    };
                    return Ok(self.call(f, vec![x], sp));
                }
            }
        }
        // `a:b` calls the function `:` itself (as a value, `:` is `Colon()`: see `expr_here`).
        let f = match &func.kind {
            ExprKind::Ident(n) if n.as_str() == ":" => self.read_name(*n, func.span)?,
            _ => self.expr(func)?,
        };
        self.call_with(f, args, sp)
    }

    /// The call of function value `f` on `args` (which may splat).
    pub(super) fn call_with(
        &mut self,
        f: Value,
        args: &[&Expr],
        sp: Span,
    ) -> Result<Value, CompileError> {
        if args.iter().any(|a| matches!(a.kind, ExprKind::Splat(_))) {
            // `f(a, xs..., b)` is `#apply(f, (a,), xs, (b,))`: inference flattens tuples of
            // known length into a plain call; anything else is flattened at run time.
            let mut pieces = vec![f];
            for a in args {
                let v = match &a.kind {
                    ExprKind::Splat(inner) => self.expr(inner)?,
                    _ => {
                        let v = self.expr(a)?;
                        self.emit(InstData::Tuple { args: vec![v] }, a.span)
                    }
                };
                pieces.push(v);
            }
            return Ok(self.call("#apply", pieces, sp));
        }
        let mut all = vec![f];
        all.extend(self.args(args.iter().copied())?);
        Ok(self.emit(InstData::Call { args: all }, sp))
    }

    pub(super) fn matrix(
        &mut self,
        ty: Option<&Expr>,
        rows: &[Vec<Expr>],
        sp: Span,
    ) -> Result<Value, CompileError> {
        // As Julia lowers them: `[a b c]` is `hcat(a, b, c)`, `[a; b; c]` is `vcat(a, b, c)`
        // and `[a b; c d e]` is `hvcat((2, 3), a, b, c, d, e)` (`typed_*` with an element
        // type, `T[a b]`).
        let mut vs = Vec::new();
        if let Some(t) = ty {
            vs.push(self.type_value(t)?);
        }
        let typed = |name: &str| {
            if ty.is_some() {
                format!("typed_{name}")
            } else {
                name.to_string()
            }
        };
        if rows.len() == 1 {
            vs.extend(self.args(&rows[0])?);
            return Ok(self.call(&typed("hcat"), vs, sp));
        }
        if rows.iter().all(|r| r.len() == 1) {
            for r in rows {
                vs.extend(self.args(r)?);
            }
            return Ok(self.call(&typed("vcat"), vs, sp));
        }
        let counts: Vec<Value> = rows
            .iter()
            .map(|r| self.konst(Const::Int(r.len() as i64), sp))
            .collect();
        vs.push(self.emit(InstData::Tuple { args: counts }, sp));
        for r in rows {
            vs.extend(self.args(r)?);
        }
        Ok(self.call(&typed("hvcat"), vs, sp))
    }

    /// The array and the indices of `obj[indices...]`, each evaluated once, with `end` in an
    /// index meaning `lastindex(obj, k)`.
    pub(super) fn index_operands(
        &mut self,
        obj: &Expr,
        indices: &[Expr],
    ) -> Result<(Value, Vec<Value>), CompileError> {
        let o = self.expr(obj)?;
        let n = indices.len();
        let mut idx = Vec::with_capacity(n);
        for (k, i) in indices.iter().enumerate() {
            self.index_ctx.push((o, IndexPos::At(k), n));
            let v = self.expr(i);
            self.index_ctx.pop();
            idx.push(v?);
        }
        Ok((o, idx))
    }

    /// `f(obj, indices...)` for `obj[indices...]` (`getindex`, or `view` for `@view`).
    pub(super) fn index_call(
        &mut self,
        f: &str,
        obj: &Expr,
        indices: &[Expr],
        sp: Span,
    ) -> Result<Value, CompileError> {
        if indices.iter().any(|i| matches!(i.kind, ExprKind::Splat(_))) {
            let o = self.expr(obj)?;
            return self.splatted_index_call(f, vec![o], indices, sp);
        }
        let (o, idx) = self.index_operands(obj, indices)?;
        let mut args = vec![o];
        args.extend(idx);
        Ok(self.call(f, args, sp))
    }

    /// `f(fixed..., indices...)` where some index is splatted (`A[I...]`, `A[i, J...] = x`):
    /// `#apply` of `f` on the pieces, as any call with `...`.
    pub(super) fn splatted_index_call(
        &mut self,
        f: &str,
        fixed: Vec<Value>,
        indices: &[Expr],
        sp: Span,
    ) -> Result<Value, CompileError> {
        let o = fixed[0];
        let n = indices.len();
        let fv = self.emit(func_const(f), sp);
        let mut pieces = vec![fv, self.emit(InstData::Tuple { args: fixed }, sp)];
        // After a splatted index, an index's dimension is one more than the number of plain
        // indices before it plus the lengths of the splatted ones (as Julia lowers `end` in
        // `A[I..., end]`).
        let mut splat_lengths: Vec<Value> = vec![];
        for (k, i) in indices.iter().enumerate() {
            let pos = if splat_lengths.is_empty() {
                IndexPos::At(k)
            } else {
                let plain = k - splat_lengths.len();
                let mut d = self.konst(Const::Int(plain as i64 + 1), i.span);
                for &len in &splat_lengths {
                    d = self.call("+", vec![d, len], i.span);
                }
                IndexPos::Computed(d)
            };
            self.index_ctx.push((o, pos, n));
            let v = match &i.kind {
                ExprKind::Splat(inner) => self.expr(inner).inspect(|&v| {
                    splat_lengths.push(self.call("length", vec![v], i.span));
                }),
                _ => self
                    .expr(i)
                    .map(|v| self.emit(InstData::Tuple { args: vec![v] }, i.span)),
            };
            self.index_ctx.pop();
            pieces.push(v?);
        }
        Ok(self.call("#apply", pieces, sp))
    }
}

/// Whether `e` names the module `MathConstants` (also as `Base.MathConstants`).
fn is_math_constants(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ident(m) => m.as_str() == "MathConstants",
        ExprKind::Field { obj, name } => {
            name.as_str() == "MathConstants" && obj.ident().is_some_and(|b| b.as_str() == "Base")
        }
        _ => false,
    }
}

/// Whether `e` names the module `Iterators` (also as `Base.Iterators`).
fn is_iterators(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ident(m) => m.as_str() == "Iterators",
        ExprKind::Field { obj, name } => {
            name.as_str() == "Iterators" && obj.ident().is_some_and(|b| b.as_str() == "Base")
        }
        _ => false,
    }
}

/// The prelude's name for `Iterators.name` (see `prelude/iterators.jl`): the lazy versions of
/// Base's eager `filter`, `map`, `reverse`, `accumulate` and `rest`, and the iterator types,
/// have names of their own there.
fn iterators_name(name: &str) -> Option<String> {
    Some(match name {
        "filter" | "map" | "reverse" | "accumulate" | "rest" | "Take" | "Drop" | "TakeWhile"
        | "DropWhile" | "Flatten" | "Repeated" | "Cycle" | "Count" | "Rest"
        | "PartitionIterator" | "ProductIterator" | "Reverse" | "Filter" | "Accumulate"
        | "Enumerate" => format!("_Iterators_{name}"),
        "enumerate" | "zip" | "take" | "drop" | "takewhile" | "dropwhile" | "flatten"
        | "flatmap" | "repeated" | "cycle" | "countfrom" | "partition" | "product" => {
            name.to_string()
        }
        _ => return None,
    })
}

/// The prelude global holding the constant `MathConstants.name`.
fn math_constant(name: &str) -> Option<&'static str> {
    Some(match name {
        "π" | "pi" => "π",
        "ℯ" | "e" => "ℯ",
        "γ" | "eulergamma" => "_eulergamma",
        "φ" | "golden" => "_golden",
        "catalan" => "_catalan",
        _ => return None,
    })
}

impl Lowerer<'_> {
    /// `getfield(x, :a)`, `getproperty(x, :a)`, `setfield!(x, :a, v)`, `setproperty!(x, :a, v)`
    /// with a quoted field name (or a literal position for `getfield`): the field access
    /// `x.a` / `x.a = v`. A name known only at run time is not supported yet.
    fn field_call(
        &mut self,
        func: &Expr,
        args: &[&Expr],
        sp: Span,
    ) -> Result<Option<Value>, CompileError> {
        let Some(name) = func.ident() else {
            return Ok(None);
        };
        let (getter, arity) = match name.as_str() {
            "getfield" | "getproperty" => (true, 2),
            "setfield!" | "setproperty!" => (false, 3),
            _ => return Ok(None),
        };
        if args.len() != arity || self.lookup_local(name).is_some() {
            return Ok(None);
        }
        let field = match &args[1].kind {
            ExprKind::QuoteSym(f) => FieldRef::Name(*f),
            ExprKind::Int(i) if name.as_str() == "getfield" && *i >= 1 && *i <= u32::MAX as i64 => {
                FieldRef::Index((*i - 1) as u32)
            }
            _ => {
                return Err(CompileError::unsupported(
                    args[1].span,
                    &format!("`{name}` with a field name known only at run time"),
                ))
            }
        };
        let obj = self.expr(args[0])?;
        if getter {
            return Ok(Some(self.emit(InstData::GetField { obj, field }, sp)));
        }
        let val = self.expr(args[2])?;
        self.emit_stmt(InstData::SetField { obj, field, val }, sp);
        Ok(Some(val))
    }
}
