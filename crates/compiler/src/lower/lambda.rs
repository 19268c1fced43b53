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

/// A function body with its local named functions (`helper(y) = y^2 + x` inside a function)
/// turned into closures bound to a local of that name, as Julia makes them: `helper =
/// (y) -> y^2 + x`. A local function with several methods, keyword arguments, `where`
/// clauses or a return type is not supported yet.
pub(super) fn local_functions_as_closures(body: &[Expr]) -> Result<Vec<Expr>, CompileError> {
    let mut out = body.to_vec();
    let mut defined: Vec<Symbol> = Vec::new();
    let mut err = None;
    for e in &mut out {
        rewrite_local_functions(e, &mut defined, &mut err);
    }
    match err {
        Some(e) => Err(e),
        None => Ok(out),
    }
}

fn rewrite_local_functions(
    e: &mut Expr,
    defined: &mut Vec<Symbol>,
    err: &mut Option<CompileError>,
) {
    if err.is_some() {
        return;
    }
    if let ExprKind::Function(def) = &e.kind {
        if let FnName::Name(name) = def.name {
            let why = if !def.kwparams.is_empty() {
                Some("keyword arguments of a function defined inside a function")
            } else if !def.where_vars.is_empty() {
                Some("`where` clauses of a function defined inside a function")
            } else if def.ret_type.is_some() {
                Some("return types of a function defined inside a function")
            } else if def.declaration_only || defined.contains(&name) {
                Some("several methods of a function defined inside a function")
            } else if def.params.iter().any(|p| p.default.is_some()) {
                Some("default arguments of a function defined inside a function")
            } else {
                None
            };
            if let Some(why) = why {
                *err = Some(CompileError::unsupported(def.span, why));
                return;
            }
            defined.push(name);
            let sp = def.span;
            let lambda = Lambda {
                params: def.params.clone(),
                body: mk(ExprKind::Block(def.body.clone()), sp),
                span: sp,
            };
            *e = mk(
                ExprKind::Assign {
                    lhs: Box::new(mk(ExprKind::Ident(name), def.name_span)),
                    rhs: Box::new(mk(ExprKind::Lambda(Box::new(lambda)), sp)),
                },
                sp,
            );
        }
    }
    crate::closure::children_mut(e, &mut |c| rewrite_local_functions(c, defined, err));
}
