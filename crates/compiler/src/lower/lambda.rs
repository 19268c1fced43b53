//! Anonymous functions and `do` blocks: closures over captured variables (boxed when
//! reassigned).

use super::*;

impl<'a> Lowerer<'a> {
    /// An anonymous function: a closure type with one field per captured variable, a call
    /// method whose body reads the captures from the object, and here the construction of the
    /// object (see `closure`).
    pub(super) fn lambda(
        &mut self,
        params: &[Param],
        body: &[&Expr],
        sp: Span,
    ) -> Result<Value, CompileError> {
        let mut caps: Vec<(Symbol, Value, bool)> = Vec::new();
        for n in closure::free_names(params, body) {
            if self.global_decls.contains(&n) {
                continue;
            }
            if let Some(s) = self.lookup_local(n) {
                // The box itself, for a boxed variable: the closure shares it.
                let v = self.emit(InstData::GetSlot(s), sp);
                caps.push((n, v, self.boxed_slots.contains(&s)));
            } else if self.sparams.contains(&n) {
                let v = self.read_name(n, sp)?;
                caps.push((n, v, false));
            }
        }
        let id = CLOSURE_COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let base = self
            .f
            .name
            .split('(')
            .next()
            .unwrap_or("")
            .trim_start_matches('#');
        let name = sym(&format!("#{base}#{id}"));
        let tparams: Vec<TypeVarDecl> = (0..caps.len())
            .map(|k| TypeVarDecl {
                name: sym(&format!("T{}", k + 1)),
                upper: None,
                span: sp,
            })
            .collect();
        let ty = StructDef {
            name,
            name_span: sp,
            params: tparams.clone(),
            supertype: Some(ident(sym("Function"), sp)),
            fields: caps
                .iter()
                .zip(&tparams)
                .map(|((n, ..), t)| FieldDecl {
                    name: *n,
                    ty: Some(ident(t.name, sp)),
                    span: sp,
                })
                .collect(),
            mutable: false,
            constructors: vec![],
            span: sp,
        };
        let boxed: FxHashMap<Symbol, bool> = caps.iter().map(|(n, _, b)| (*n, *b)).collect();
        let read_capture = |n: Symbol, at: Span| {
            boxed.get(&n).map(|is_boxed| {
                let field = |obj: Expr, name: Symbol| {
                    mk(
                        ExprKind::Field {
                            obj: Box::new(obj),
                            name,
                        },
                        at,
                    )
                };
                let f = field(ident(closure::self_name(), at), n);
                if *is_boxed {
                    field(f, closure::box_field())
                } else {
                    f
                }
            })
        };
        let mut bound: Vec<Symbol> = params.iter().filter_map(|p| p.name).collect();
        let new_body: Vec<Expr> = body
            .iter()
            .map(|b| closure::rewrite(b, &read_capture, &mut bound))
            .collect();
        let self_ty = if tparams.is_empty() {
            ident(name, sp)
        } else {
            mk(
                ExprKind::Curly {
                    base: Box::new(ident(name, sp)),
                    params: tparams.iter().map(|t| ident(t.name, sp)).collect(),
                },
                sp,
            )
        };
        let method = FunctionDef {
            name: FnName::Type(mk(
                ExprKind::TypeAssert {
                    expr: Box::new(ident(closure::self_name(), sp)),
                    ty: Box::new(self_ty),
                },
                sp,
            )),
            name_span: sp,
            params: params.to_vec(),
            kwparams: vec![],
            where_vars: tparams,
            ret_type: None,
            body: new_body,
            declaration_only: false,
            span: sp,
        };
        self.closures.push(ClosureDef { ty, method });
        let ctor = self.emit(InstData::GetGlobal(name), sp);
        let mut args = vec![ctor];
        args.extend(caps.iter().map(|(_, v, _)| *v));
        Ok(self.emit(InstData::Call { args }, sp))
    }
}
