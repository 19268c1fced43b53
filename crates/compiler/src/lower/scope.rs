//! Variables: Julia's scope rules (which assignment makes a new local), reads and writes of
//! names, and conversion to a declared type.

use super::*;

impl<'a> Lowerer<'a> {
    pub(super) fn lookup_local(&self, name: Symbol) -> Option<Slot> {
        for s in self.scopes.iter().rev() {
            if let Some(&slot) = s.vars.get(&name) {
                return Some(slot);
            }
        }
        None
    }

    /// A new local in the current scope; a boxed one gets its (empty) box here, so each
    /// entry into the scope (each loop iteration) makes a fresh variable.
    pub(super) fn declare_local(&mut self, name: Symbol) -> Slot {
        let s = self.new_slot(name);
        if let Some(scope) = self.scopes.last_mut() {
            scope.vars.insert(name, s);
        }
        if self.boxed_names.contains(&name) {
            let sp = Span::DUMMY;
            let t = self.konst(Const::Type(box_type()), sp);
            let nothing = self.nothing(sp);
            let b = self.call("#new", vec![t, nothing], sp);
            self.emit_stmt(InstData::SetSlot(s, b), sp);
            self.boxed_slots.insert(s);
        }
        s
    }

    /// Resolves a scope block before lowering it, as Julia does: every name its own
    /// statements assign (or declare `local`) is a local of the block from its first line —
    /// unless it is a local of an enclosing block (then it is that variable, wherever in the
    /// enclosing block it is assigned), declared `global`, or the block is the global scope.
    /// So `println(k); k += 1` in a function reads the local `k` (an `UndefVarError`), never a
    /// global `k`. Each entry into the block (each loop iteration) starts its locals
    /// unassigned.
    pub(super) fn predeclare(&mut self, stmts: &[Expr]) {
        let names = closure::scope_names(stmts);
        for g in names.globals {
            if !self.global_decls.contains(&g) {
                self.global_decls.push(g);
            }
        }
        if self.toplevel && self.scopes.len() == 1 {
            return;
        }
        let explicit = closure::explicit_locals(stmts);
        // Soft scopes (loops) of a top-level statement, not inside a `let`.
        let soft_toplevel = self.toplevel && self.scopes.iter().skip(1).all(|s| !s.hard);
        for (n, span) in names.locals.into_iter().zip(names.local_spans) {
            if self.global_decls.contains(&n) {
                continue;
            }
            let here = self.scopes.last().is_some_and(|s| s.vars.contains_key(&n));
            if here || (self.lookup_local(n).is_some() && !explicit.contains(&n)) {
                continue;
            }
            if soft_toplevel && !explicit.contains(&n) {
                self.soft_scope_locals.push((n, span));
            }
            let s = self.declare_local(n);
            if !self.boxed_slots.contains(&s) {
                let sp = Span::DUMMY;
                let undef = self.konst(Const::Undef, sp);
                self.emit_stmt(InstData::SetSlot(s, undef), sp);
            }
        }
    }

    /// `Base.name` (or `LinearAlgebra.name`, ...): the prelude's binding of `name`, not a
    /// local or user global that shadows it (inference resolves which).
    pub(super) fn module_global(&mut self, name: Symbol, span: Span) -> Value {
        let q = self.emit(InstData::Const(ir::Const::Sym(name)), span);
        self.call("#module_global", vec![q], span)
    }

    pub(super) fn read_name(&mut self, name: Symbol, span: Span) -> Result<Value, CompileError> {
        if let Some(s) = self.lookup_local(name) {
            return Ok(self.get_slot(s, span));
        }
        if let Some(i) = self.sparams.iter().position(|p| *p == name) {
            return Ok(self.emit(InstData::StaticParam(i as u32), span));
        }
        if name.as_str() == "Core" {
            return Err(CompileError::invalid(
                span,
                "`Core` can only be used as `Core.name(...)`",
            ));
        }
        Ok(self.emit(InstData::GetGlobal(name), span))
    }

    pub(super) fn assign_name(
        &mut self,
        name: Symbol,
        v: Value,
        span: Span,
    ) -> Result<(), CompileError> {
        if self.global_decls.contains(&name) {
            self.emit_stmt(InstData::SetGlobal(name, v), span);
            return Ok(());
        }
        if let Some(s) = self.lookup_local(name) {
            let v = self.convert_for_slot(s, v, span)?;
            self.set_slot(s, v, span);
            return Ok(());
        }
        if self.toplevel && self.scopes.len() == 1 {
            self.emit_stmt(InstData::SetGlobal(name, v), span);
            return Ok(());
        }
        let s = self.declare_local(name);
        self.set_slot(s, v, span);
        Ok(())
    }

    /// The local `name` of the innermost scope: the one its resolution made (see
    /// `predeclare`), or a new one.
    pub(super) fn local_here(&mut self, name: Symbol) -> Slot {
        match self.scopes.last().and_then(|s| s.vars.get(&name)).copied() {
            Some(s) => s,
            None => self.declare_local(name),
        }
    }

    pub(super) fn declare_and_assign(
        &mut self,
        lhs: &Expr,
        v: Option<Value>,
    ) -> Result<(), CompileError> {
        match &lhs.kind {
            ExprKind::Ident(n) => {
                let s = self.local_here(*n);
                match v {
                    Some(v) => self.set_slot(s, v, lhs.span),
                    None if !self.boxed_slots.contains(&s) => {
                        // A declaration without a value: unassigned at each entry.
                        let undef = self.konst(Const::Undef, lhs.span);
                        self.emit_stmt(InstData::SetSlot(s, undef), lhs.span);
                    }
                    None => {}
                }
                Ok(())
            }
            ExprKind::TypeAssert { expr, ty } if expr.ident().is_some() => {
                let n = expr.ident().unwrap_or_else(|| sym("_"));
                let s = self.local_here(n);
                self.slot_types.insert(s, (**ty).clone());
                if let Some(v) = v {
                    let v = self.convert_for_slot(s, v, lhs.span)?;
                    self.set_slot(s, v, lhs.span);
                }
                Ok(())
            }
            ExprKind::Tuple(_) => {
                let Some(v) = v else {
                    return Err(CompileError::invalid(lhs.span, "expected names"));
                };
                if let ExprKind::Tuple(elems) = &lhs.kind {
                    for (i, el) in elems.iter().enumerate() {
                        let k = self.konst(Const::Int(i as i64 + 1), el.span);
                        let x = self.call("getindex", vec![v, k], el.span);
                        self.declare_and_assign(el, Some(x))?;
                    }
                }
                Ok(())
            }
            _ => Err(CompileError::invalid(lhs.span, "expected a variable name")),
        }
    }

    pub(super) fn convert_for_slot(
        &mut self,
        s: Slot,
        v: Value,
        span: Span,
    ) -> Result<Value, CompileError> {
        match self.slot_types.get(&s).cloned() {
            Some(te) => self.convert_to(&te, v, span),
            None => Ok(v),
        }
    }

    /// `typeassert(convert(T, v), T)`
    pub(super) fn convert_to(
        &mut self,
        ty: &Expr,
        v: Value,
        span: Span,
    ) -> Result<Value, CompileError> {
        let t = self.type_value(ty)?;
        let c = self.call("convert", vec![t, v], span);
        Ok(self.call("#typeassert", vec![c, t], span))
    }

    /// A type expression evaluated as a value.
    pub(super) fn type_value(&mut self, e: &Expr) -> Result<Value, CompileError> {
        match &e.kind {
            // `NTuple{3, T}` is `Tuple{T, T, T}`.
            ExprKind::Curly { base, params }
                if base.ident().is_some_and(|b| b.as_str() == "NTuple")
                    && matches!(params.as_slice(), [Expr { kind: ExprKind::Int(n), .. }, _] if (0..=64).contains(n)) =>
            {
                let n = match params[0].kind {
                    ExprKind::Int(n) => n as usize,
                    _ => 0,
                };
                let tuple = Expr::new(
                    ExprKind::Curly {
                        base: Box::new(Expr::new(ExprKind::Ident(sym("Tuple")), base.span)),
                        params: vec![params[1].clone(); n],
                    },
                    e.span,
                );
                self.type_value(&tuple)
            }
            ExprKind::Curly { base, params } => {
                let b = self.type_value(base)?;
                let mut args = vec![b];
                for p in params {
                    let v = match &p.kind {
                        ExprKind::Int(n) => self.konst(Const::Type(Type::Val(*n)), p.span),
                        ExprKind::Bool(b) => self.konst(Const::Type(Type::ValBool(*b)), p.span),
                        ExprKind::QuoteSym(s) => self.konst(Const::Type(Type::ValSym(*s)), p.span),
                        ExprKind::SubtypeBound(_) => {
                            return Err(CompileError::unsupported(
                                p.span,
                                "`<:` in a type used as a value",
                            ))
                        }
                        _ => self.type_value(p)?,
                    };
                    args.push(v);
                }
                Ok(self.prim(Prim::ApplyType, args, e.span))
            }
            _ => self.expr(e),
        }
    }

    /// `let bindings...; body end`.
    pub(super) fn let_block(
        &mut self,
        bindings: &[Expr],
        body: &[Expr],
    ) -> Result<Value, CompileError> {
        // Bindings are made in order, each right-hand side evaluated before its own
        // variable exists but after the earlier ones: `let a = a + 1, b = a` reads
        // the outer `a`, then gives `b` the new one.
        self.scopes.push(Scope {
            vars: FxHashMap::default(),
            hard: true,
        });
        let r = (|| -> Result<Value, CompileError> {
            for b in bindings {
                match &b.kind {
                    ExprKind::Assign { lhs, rhs } => {
                        let v = self.expr(rhs)?;
                        self.declare_and_assign(lhs, Some(v))?;
                    }
                    ExprKind::Ident(_) | ExprKind::TypeAssert { .. } => {
                        self.declare_and_assign(b, None)?;
                    }
                    _ => {
                        return Err(CompileError::invalid(
                            b.span,
                            "expected `name` or `name = value` in `let`",
                        ))
                    }
                }
            }
            self.predeclare(body);
            self.block(body)
        })();
        self.scopes.pop();
        r
    }
}
