//! Anonymous functions and `do` blocks: closures over captured variables (boxed when
//! reassigned).

use super::*;

impl<'a> Lowerer<'a> {
    /// An anonymous function, or a method of a local named function: a closure type with one
    /// field per captured variable, a call method whose body reads the captures from the
    /// object (every method of a local function, on the type its methods share), and here
    /// the construction of the object (see `closure`).
    pub(super) fn lambda(
        &mut self,
        params: &[Param],
        kwparams: &[Param],
        body: &[&Expr],
        sp: Span,
        local: Option<(Symbol, Span)>,
        try_block: bool,
    ) -> Result<Value, CompileError> {
        // The methods the closure type gets: this one, or every method of the local function.
        let this = || LocalMethod {
            params: params.to_vec(),
            kwparams: kwparams.to_vec(),
            body: body.iter().map(|b| (*b).clone()).collect(),
            where_vars: vec![],
            ret_type: None,
        };
        let methods: Vec<LocalMethod> = match local {
            Some((_, first)) => self
                .local_methods
                .get(&first)
                .cloned()
                .unwrap_or_else(|| vec![this()]),
            None => vec![this()],
        };
        // A local function's later methods make an object of the type its first one made.
        if let Some((name, caps)) =
            local.and_then(|(_, first)| self.local_types.get(&first).cloned())
        {
            let ctor = self.emit(InstData::GetGlobal(name), sp);
            let mut args = vec![ctor];
            for n in &caps {
                args.push(self.capture_value(*n, sp)?.0);
            }
            return Ok(self.emit(InstData::Call { args }, sp));
        }
        let mut caps: Vec<(Symbol, Value, bool)> = Vec::new();
        let mut seen: Vec<Symbol> = Vec::new();
        for m in &methods {
            let mut parts: Vec<&Expr> = m
                .params
                .iter()
                .chain(&m.kwparams)
                .filter_map(|p| p.default.as_ref())
                .collect();
            parts.extend(m.body.iter());
            for n in closure::free_names_of(m.bound_names(), &parts) {
                if seen.contains(&n) || self.global_decls.contains(&n) {
                    continue;
                }
                seen.push(n);
                if self.lookup_local(n).is_some() || self.sparams.contains(&n) {
                    let (v, is_boxed) = self.capture_value(n, sp)?;
                    caps.push((n, v, is_boxed));
                }
            }
        }
        let base = self
            .f
            .name
            .split('(')
            .next()
            .unwrap_or("")
            .trim_start_matches('#');
        // A `try`'s block is `#f#try#N` (backtraces show it as `f`).
        let tag = local
            .map(|(f, _)| f)
            .or_else(|| try_block.then(|| sym("try")));
        let name = self.env.closure_name(base, tag);
        if let Some((_, first)) = local {
            self.local_types
                .insert(first, (name, caps.iter().map(|(n, ..)| *n).collect()));
        }
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
        let methods = methods
            .iter()
            .map(|m| {
                let mut bound = m.bound_names();
                // Defaults are evaluated where the parameters are bound, as the body is.
                let mut rewrite_defaults = |ps: &[Param]| -> Vec<Param> {
                    ps.iter()
                        .map(|p| Param {
                            default: p
                                .default
                                .as_ref()
                                .map(|d| closure::rewrite(d, &read_capture, &mut bound)),
                            ..p.clone()
                        })
                        .collect()
                };
                let ps = rewrite_defaults(&m.params);
                let kws = rewrite_defaults(&m.kwparams);
                FunctionDef {
                    name: FnName::Type(mk(
                        ExprKind::TypeAssert {
                            expr: Box::new(ident(closure::self_name(), sp)),
                            ty: Box::new(self_ty.clone()),
                        },
                        sp,
                    )),
                    name_span: sp,
                    params: ps,
                    kwparams: kws,
                    where_vars: tparams.iter().chain(&m.where_vars).cloned().collect(),
                    ret_type: m.ret_type.clone(),
                    body: m
                        .body
                        .iter()
                        .map(|x| closure::rewrite(x, &read_capture, &mut bound))
                        .collect(),
                    declaration_only: false,
                    qualified: false,
                    span: sp,
                }
            })
            .collect();
        self.closures.push(ClosureDef { ty, methods });
        let ctor = self.emit(InstData::GetGlobal(name), sp);
        let mut args = vec![ctor];
        args.extend(caps.iter().map(|(_, v, _)| *v));
        Ok(self.emit(InstData::Call { args }, sp))
    }

    /// What a closure made here captures of variable `n`: its value, or its box when boxed
    /// (the closure shares it), and whether boxed.
    fn capture_value(&mut self, n: Symbol, sp: Span) -> Result<(Value, bool), CompileError> {
        if let Some(s) = self.lookup_local(n) {
            let v = self.emit(InstData::GetSlot(s), sp);
            return Ok((v, self.boxed_slots.contains(&s)));
        }
        Ok((self.read_name(n, sp)?, false))
    }
}

/// A function body with its local named functions (`helper(y) = y^2 + x` inside a function)
/// turned into closures bound to a local of that name, as Julia makes them: `helper =
/// (y) -> y^2 + x`. The methods of one name in one block (`g(x::Int) = ...`, `g(x::Float64) =
/// ...`, or `g(x, s = 2)`, which Julia makes two methods) are methods of one closure type:
/// each definition assigns `g` an object of that type. Also returns each local function's
/// methods, by the span of its first (see `Lambda::local`). `kws...` keyword parameters of
/// local functions are not supported yet, nor methods of one name in several blocks.
pub(super) fn local_functions_as_closures(
    body: &[Expr],
) -> Result<(Vec<Expr>, LocalMethods), CompileError> {
    let mut out = body.to_vec();
    let mut cx = LocalFns::default();
    rewrite_statements(&mut out, &mut cx);
    if let Some(e) = cx.err {
        return Err(e);
    }
    let mut methods = LocalMethods::default();
    for e in &out {
        collect_local_methods(e, &mut methods);
    }
    Ok((out, methods))
}

/// The methods of each local function, by the span of its first.
pub(super) type LocalMethods = FxHashMap<Span, Vec<LocalMethod>>;

/// A method of a local function (or an anonymous function's one method).
#[derive(Clone)]
pub(super) struct LocalMethod {
    params: Vec<Param>,
    kwparams: Vec<Param>,
    body: Vec<Expr>,
    where_vars: Vec<TypeVarDecl>,
    ret_type: Option<Expr>,
}

impl LocalMethod {
    /// The names its parameters (and `where` variables) bind, keyword parameters included.
    fn bound_names(&self) -> Vec<Symbol> {
        let mut names = param_names(&self.params);
        names.extend(param_names(&self.kwparams));
        names.extend(self.where_vars.iter().map(|v| v.name));
        names
    }
}

/// Collects the methods of the local functions in `e` (the closures `rewrite_statements`
/// made, as they are now: a closure's own body has its captures rewritten by then).
fn collect_local_methods(e: &Expr, out: &mut LocalMethods) {
    if let ExprKind::Lambda(l) = &e.kind {
        if let Some((_, first)) = l.local {
            out.entry(first).or_default().push(LocalMethod {
                params: l.params.clone(),
                kwparams: l.kwparams.clone(),
                body: vec![l.body.clone()],
                where_vars: l.where_vars.clone(),
                ret_type: l.ret_type.as_deref().cloned(),
            });
        }
    }
    children(e, &mut |c| collect_local_methods(c, out));
}

#[derive(Default)]
struct LocalFns {
    /// Names defined as local functions so far, in any block.
    defined: Vec<Symbol>,
    err: Option<CompileError>,
}

/// Rewrites the local function definitions among `stmts` (a block's statements), then those
/// nested in each statement.
fn rewrite_statements(stmts: &mut [Expr], cx: &mut LocalFns) {
    if cx.err.is_some() {
        return;
    }
    // This block's definitions, by name: the statements defining each.
    let mut here: Vec<(Symbol, Vec<usize>)> = Vec::new();
    for (i, e) in stmts.iter().enumerate() {
        if let ExprKind::Function(def) = &e.kind {
            if let FnName::Name(name) = def.name {
                match here.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, is)) => is.push(i),
                    None => here.push((name, vec![i])),
                }
            }
        }
    }
    for (name, is) in here {
        let defs: Vec<FunctionDef> = is
            .iter()
            .filter_map(|&i| match &stmts[i].kind {
                ExprKind::Function(def) => Some((**def).clone()),
                _ => None,
            })
            .collect();
        let why = defs.iter().find_map(|def| {
            if def.declaration_only || cx.defined.contains(&name) {
                Some((
                    def.span,
                    "methods of one local function in several blocks of a function",
                ))
            } else {
                None
            }
        });
        if let Some((at, why)) = why {
            cx.err = Some(CompileError::unsupported(at, why));
            return;
        }
        cx.defined.push(name);
        let first = defs[0].span;
        for (&i, def) in is.iter().zip(&defs) {
            let sp = def.span;
            let lambda = Lambda {
                params: def.params.clone(),
                kwparams: def.kwparams.clone(),
                body: mk(ExprKind::Block(def.body.clone()), sp),
                span: sp,
                local: Some((name, first)),
                try_block: false,
                where_vars: def.where_vars.clone(),
                ret_type: def.ret_type.clone().map(Box::new),
            };
            stmts[i] = mk(
                ExprKind::Assign {
                    lhs: Box::new(mk(ExprKind::Ident(name), def.name_span)),
                    rhs: Box::new(mk(ExprKind::Lambda(Box::new(lambda)), sp)),
                },
                sp,
            );
        }
    }
    for e in stmts.iter_mut() {
        rewrite_nested(e, cx);
    }
}

/// Rewrites the local function definitions inside `e`: each block's statements together, and
/// a definition that is not a block's statement by itself.
fn rewrite_nested(e: &mut Expr, cx: &mut LocalFns) {
    if cx.err.is_some() {
        return;
    }
    match &mut e.kind {
        ExprKind::Block(stmts) => rewrite_statements(stmts, cx),
        ExprKind::Function(def) if matches!(def.name, FnName::Name(_)) => {
            let mut one = [e.clone()];
            rewrite_statements(&mut one, cx);
            let [r] = one;
            *e = r;
        }
        _ => crate::closure::children_mut(e, &mut |c| rewrite_nested(c, cx)),
    }
}
