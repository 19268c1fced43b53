//! Entry points: top-level statements, method definitions (optional and keyword arguments
//! become several methods), constructors.

use super::*;
use syntax::ast::library_ref;

/// Lowers one top-level statement into a thunk (a function of no arguments besides itself).
/// Also returns the closures of the anonymous functions in it, and the names its loops make
/// local by assignment (with where each is first assigned): Julia warns when such a name is
/// also a global, since in a file the assignment does not update the global.
pub fn lower_toplevel(
    stmt: &Expr,
    src: &str,
    env: &TypeEnv,
) -> Result<LoweredToplevel, CompileError> {
    let mut l = Lowerer::new("top-level".into(), src, env, true);
    l.boxed_names = closure::boxed_names(&[], std::slice::from_ref(stmt));
    let self_v = l.f.add_block_param(l.cur, Type::Any);
    l.f.names[self_v] = Some(sym("#self"));
    let v = l.expr(stmt)?;
    let closures = std::mem::take(&mut l.closures);
    let soft_scope_locals = std::mem::take(&mut l.soft_scope_locals);
    Ok(LoweredToplevel {
        thunk: l.finish(v, stmt.span)?,
        closures,
        soft_scope_locals,
    })
}

/// A lowered top-level statement.
pub struct LoweredToplevel {
    pub thunk: Function,
    pub closures: Vec<ClosureDef>,
    /// Names assigned in a top-level loop that became locals of the loop, with the place of
    /// the first assignment.
    pub soft_scope_locals: Vec<(Symbol, Span)>,
}

/// Lowers a function definition into methods (several when there are default arguments).
pub fn lower_function(
    def: &FunctionDef,
    src: &str,
    env: &TypeEnv,
) -> Result<Vec<LoweredMethod>, CompileError> {
    lower_method_def(def, src, env, None)
}

/// Lowers a constructor: inside it, `new(...)` builds `new_type`.
pub fn lower_constructor(
    def: &FunctionDef,
    new_type: Expr,
    src: &str,
    env: &TypeEnv,
) -> Result<Vec<LoweredMethod>, CompileError> {
    lower_method_def(def, src, env, Some(new_type))
}

pub(super) fn lower_method_def(
    def: &FunctionDef,
    src: &str,
    env: &TypeEnv,
    new_type: Option<Expr>,
) -> Result<Vec<LoweredMethod>, CompileError> {
    if let Some(d) = vararg_params(def)? {
        return lower_method_def(&d, src, env, new_type);
    }
    if !def.kwparams.is_empty() {
        return keyword_methods(def, src, env, new_type);
    }
    let where_names: Vec<Symbol> = def.where_vars.iter().map(|v| v.name).collect();
    let tctx = TypeExprCtx {
        env,
        vars: &where_names,
    };
    let tvars = tctx.type_vars(&def.where_vars)?;
    let mut self_name = None;
    let (table, self_pat, display) = match &def.name {
        FnName::Name(n) => {
            // A method named after a type is a constructor of that type.
            if let Some(t) = crate::typeexpr::builtin_type(n.as_str()) {
                let key = crate::typeexpr::constructor_table_name(&t).unwrap_or(*n);
                (key, TypePat::Ty(Type::type_of_type(t)), n.to_string())
            } else if matches!(
                n.as_str(),
                "Vector" | "Matrix" | "Array" | "Tuple" | "NamedTuple"
            ) {
                // `Matrix(A) = ...`: a constructor of the unapplied array type.
                let t = Type::UnionAll(*n);
                let key = crate::typeexpr::constructor_table_name(&t).unwrap_or(*n);
                (key, TypePat::Ty(Type::type_of_type(t)), n.to_string())
            } else if let Some(sd) = env.struct_def(*n) {
                let t = if sd.params.is_empty() {
                    Type::Struct(*n, vec![].into())
                } else {
                    Type::UnionAll(*n)
                };
                (*n, TypePat::Ty(Type::type_of_type(t)), n.to_string())
            } else if let Some(ad) = env.abstract_def(*n) {
                // `Ref(x) = ...`: a method called through an abstract type.
                let t = if ad.params.is_empty() {
                    Type::abstract_(n.as_str())
                } else {
                    Type::UnionAll(*n)
                };
                (*n, TypePat::Ty(Type::type_of_type(t)), n.to_string())
            } else {
                (*n, TypePat::Ty(Type::Function(*n)), n.to_string())
            }
        }
        // `(p::T)(...)` or `(::T)(...)`: a method of callable objects of struct type `T`
        // (closures are such objects); `p` names the object in the body.
        FnName::Type(Expr {
            kind: ExprKind::TypeAssert { expr, ty },
            ..
        }) => {
            self_name = expr.ident().filter(|n| n.as_str() != "_");
            let pat = tctx.eval(ty)?;
            let table = match &pat {
                TypePat::Ty(Type::Struct(n, _)) | TypePat::App(Head::Struct(n), _) => *n,
                _ => {
                    return Err(CompileError::unsupported(
                        ty.span,
                        "callable objects of types other than structs",
                    ))
                }
            };
            let display = format!(
                "(::{})",
                src.get(ty.span.lo as usize..ty.span.hi as usize)
                    .unwrap_or("?")
            );
            (table, pat, display)
        }
        FnName::Type(te) => {
            let pat = tctx.eval(te)?;
            let key = match &pat {
                TypePat::Ty(t) => crate::typeexpr::constructor_table_name(t),
                TypePat::App(Head::Struct(n), _) | TypePat::App(Head::Abstract(n), _) => Some(*n),
                TypePat::App(Head::Array, _) => Some(sym("Array")),
                _ => None,
            };
            let Some(key) = key else {
                return Err(CompileError::unsupported(
                    te.span,
                    "this kind of callable-object method",
                ));
            };
            (key, TypePat::App(Head::Type, vec![pat]), key.to_string())
        }
        FnName::Anonymous => {
            return Err(CompileError::unsupported(def.span, "anonymous functions"))
        }
    };
    if def.declaration_only {
        return Ok(vec![]);
    }
    // Parameter patterns.
    let mut pats = Vec::new();
    let mut names = Vec::new();
    let mut vararg = false;
    let mut vararg_count = None;
    for (i, p) in def.params.iter().enumerate() {
        if p.vararg {
            if i + 1 != def.params.len() {
                return Err(CompileError::invalid(
                    p.span,
                    "only the last parameter can be `...`",
                ));
            }
            if p.default.is_some() {
                return Err(CompileError::invalid(
                    p.span,
                    "a `...` parameter cannot have a default",
                ));
            }
            vararg = true;
        }
        pats.push(match &p.ty {
            Some(Expr {
                kind: ExprKind::Curly { params, .. },
                ..
            }) if p.vararg && params.len() == 2 => {
                vararg_count = Some(tctx.eval(&params[1])?);
                tctx.eval(&params[0])?
            }
            Some(t) => tctx.eval(t)?,
            None => TypePat::any(),
        });
        names.push(p.name.unwrap_or_else(|| sym(&format!("#unused{i}"))));
    }
    // Default arguments: f(a, b = 1) also defines f(a) = f(a, 1).
    let first_default = def.params.iter().position(|p| p.default.is_some());
    if let Some(fd) = first_default {
        if def.params[fd..]
            .iter()
            .any(|p| p.default.is_none() && !p.vararg)
        {
            return Err(CompileError::invalid(
                def.params[fd].span,
                "parameters after one with a default need defaults too",
            ));
        }
    }
    let mut all_params = names.clone();
    all_params.extend(self_name);
    let (body, local_methods) = super::lambda::local_functions_as_closures(&def.body)?;
    let boxed = closure::boxed_names(&all_params, &body);
    let mut methods = Vec::new();
    let mut counts: Vec<usize> = Vec::new();
    if let Some(fd) = first_default {
        counts.extend(fd..def.params.len());
    }
    for &k in &counts {
        // Method with the first k parameters, forwarding to the full one.
        let mut l = Lowerer::new(display.clone(), src, env, false);
        l.sparams = where_names.clone();
        l.boxed_names = boxed.clone();
        let entry = l.cur;
        let self_v = l.f.add_block_param(entry, Type::Any);
        // Defaults may read the object (a closure's defaults read its captures).
        if let Some(n) = self_name {
            l.f.names[self_v] = Some(n);
            let s = l.declare_local(n);
            l.set_slot(s, self_v, def.name_span);
        }
        let mut params = Vec::new();
        for name in names.iter().take(k) {
            let v = l.f.add_block_param(entry, Type::Any);
            l.f.names[v] = Some(*name);
            let s = l.declare_local(*name);
            l.set_slot(s, v, def.span);
            params.push(v);
        }
        let mut args = vec![self_v];
        args.extend(params);
        for p in &def.params[k..] {
            if let Some(d) = &p.default {
                let v = l.expr(d)?;
                args.push(v);
            }
        }
        let r = l.emit(InstData::Call { args }, def.span);
        let closures = std::mem::take(&mut l.closures);
        let f = l.finish(r, def.span)?;
        let mut sig = vec![self_pat.clone()];
        sig.extend(pats.iter().take(k).cloned());
        methods.push(LoweredMethod {
            table,
            sig,
            vararg: false,
            vararg_count: None,
            tvars: tvars.clone(),
            arg_names: names[..k].to_vec(),
            body: f,
            span: def.span,
            closures,
        });
    }
    // The full method.
    let mut l = Lowerer::new(display.clone(), src, env, false);
    l.sparams = where_names.clone();
    l.boxed_names = boxed;
    l.local_methods = local_methods;
    l.ret_type = def.ret_type.clone();
    l.new_type = new_type;
    let entry = l.cur;
    let self_v = l.f.add_block_param(entry, Type::Any);
    if let Some(n) = self_name {
        l.f.names[self_v] = Some(n);
        let s = l.declare_local(n);
        l.set_slot(s, self_v, def.name_span);
    }
    for (i, name) in names.iter().enumerate() {
        let v = l.f.add_block_param(entry, Type::Any);
        l.f.names[v] = Some(*name);
        let s = l.declare_local(*name);
        l.set_slot(s, v, def.params[i].span);
    }
    l.predeclare(&body);
    let v = l.block(&body)?;
    let closures = std::mem::take(&mut l.closures);
    let f = l.finish(v, def.span)?;
    let mut sig = vec![self_pat];
    sig.extend(pats);
    methods.push(LoweredMethod {
        table,
        sig,
        vararg,
        vararg_count,
        tvars,
        arg_names: names,
        body: f,
        span: def.span,
        closures,
    });
    Ok(methods)
}

/// A definition with keyword parameters, `f(ps...; k1 = d1, k2::T = d2) = body`, becomes
/// three, as in Julia (for a method of callable objects `(o::T)(ps...; ...)`, a closure's
/// among them, the object is passed on after the keywords, and `#kwcall` takes it as `o::T`):
/// - `#f#kwF_N(k1, k2::T, ps...) = body`: the body, every parameter positional (hidden; `F_N`
///   is where the definition is, so that each definition has its own);
/// - `f(ps...)`: evaluates the defaults in order (each sees the parameters and the keywords
///   before it) and calls `#f#kw`;
/// - `#kwcall(kw, ::typeof(f), ps...)`, which a call with keyword arguments invokes (see
///   `Lowerer::expr`): each keyword comes from the named tuple `kw` when it has that field
///   (`Core.kw_has`, decided by inference from `kw`'s type) and from its default otherwise;
///   a keyword the method does not declare is a `MethodError` (`Core.kw_extra`,
///   `Core.kw_error`).
pub(super) fn keyword_methods(
    def: &FunctionDef,
    src: &str,
    env: &TypeEnv,
    new_type: Option<Expr>,
) -> Result<Vec<LoweredMethod>, CompileError> {
    let sp = def.span;
    // A method of callable objects (a closure's among them) passes the object on: its name
    // in the body and its type.
    let (fname, callable) = match &def.name {
        FnName::Name(n)
            if new_type.is_none()
                && crate::typeexpr::builtin_type(n.as_str()).is_none()
                && env.struct_def(*n).is_none() =>
        {
            (*n, None)
        }
        // An outer constructor (`Dense(m, n; init = randn) = Dense(init(n, m), zeros(n))`):
        // the method for keyword calls takes the type itself (`#f::Type{Dense}`).
        FnName::Name(n) if new_type.is_none() && env.struct_def(*n).is_some() => (*n, None),
        FnName::Type(Expr {
            kind: ExprKind::TypeAssert { expr, ty },
            ..
        }) if new_type.is_none() => {
            let Some(table) = ty.ident().or_else(|| match &ty.kind {
                ExprKind::Curly { base, .. } => base.ident(),
                _ => None,
            }) else {
                return Err(CompileError::unsupported(
                    ty.span,
                    "keyword arguments of this kind of callable object",
                ));
            };
            let obj = expr
                .ident()
                .filter(|n| n.as_str() != "_")
                .unwrap_or_else(|| sym("#obj"));
            (table, Some((obj, (**ty).clone())))
        }
        _ => {
            return Err(CompileError::unsupported(
                def.kwparams[0].span,
                "keyword arguments of inner constructors and of constructors of built-in types",
            ))
        }
    };
    // `kws...`: the keywords the method does not declare, as `pairs` of a named tuple.
    let (declared, rest): (Vec<&Param>, Vec<&Param>) = def.kwparams.iter().partition(|k| !k.vararg);
    let rest = rest
        .first()
        .map(|k| (k.name.unwrap_or_else(|| sym("_")), k.span));
    let core = |name: &str, args: Vec<Expr>| core_call(name, args, sp);
    let str_lit = |s: &str| mk(ExprKind::Str(vec![StrSeg::Lit(s.to_string())]), sp);
    // One body per definition (two keyword methods of `f` may have bodies of the same
    // signature: `f(a; b)` and `f(; a, b)`), named by where the definition is.
    let body_name = sym(&format!("#{fname}#kw{}_{}", sp.file.0, sp.lo));
    // Positional parameters, every one named, and the arguments that pass them on (a `...`
    // parameter is splatted).
    let params: Vec<Param> = def
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| Param {
            name: Some(p.name.unwrap_or_else(|| sym(&format!("#p{i}")))),
            ..p.clone()
        })
        .collect();
    let pass: Vec<Expr> = params
        .iter()
        .map(|p| {
            let v = ident(p.name.unwrap_or_else(|| unreachable!()), p.span);
            if p.vararg {
                mk(ExprKind::Splat(Box::new(v)), p.span)
            } else {
                v
            }
        })
        .collect();
    let kw_names: Vec<Symbol> = declared
        .iter()
        .map(|k| k.name.unwrap_or_else(|| sym("_")))
        .collect();
    // `k = value` for each keyword, `value` given the keyword's default.
    let bind = |value: &dyn Fn(&Param, Expr) -> Expr| -> Vec<Expr> {
        declared
            .iter()
            .copied()
            .zip(&kw_names)
            .map(|(k, n)| {
                let default = match &k.default {
                    Some(d) => d.clone(),
                    None => call_ast(
                        library_ref(sym("error"), k.span),
                        vec![str_lit(&format!(
                            "UndefKeywordError: keyword argument `{n}` not assigned"
                        ))],
                        k.span,
                    ),
                };
                let mut v = value(k, default);
                if let Some(t) = &k.ty {
                    v = mk(
                        ExprKind::TypeAssert {
                            expr: Box::new(v),
                            ty: Box::new(t.clone()),
                        },
                        k.span,
                    );
                }
                mk(
                    ExprKind::Assign {
                        lhs: Box::new(ident(*n, k.span)),
                        rhs: Box::new(v),
                    },
                    k.span,
                )
            })
            .collect()
    };
    // The callable object as a parameter named as the definition names it.
    let obj_param = callable.as_ref().map(|(obj, ty)| Param {
        name: Some(*obj),
        ty: Some(ty.clone()),
        default: None,
        vararg: false,
        span: sp,
    });
    // `kws = pairs(named tuple)`: of the keywords not declared (`Core.nt_drop`), or empty.
    let bind_rest = |nt: Expr| -> Option<Expr> {
        rest.map(|(n, span)| {
            mk(
                ExprKind::Assign {
                    lhs: Box::new(ident(n, span)),
                    rhs: Box::new(call_ast(library_ref(sym("pairs"), span), vec![nt], span)),
                },
                span,
            )
        })
    };
    let call_body = {
        let mut args: Vec<Expr> = kw_names.iter().map(|n| ident(*n, sp)).collect();
        args.extend(rest.map(|(n, span)| ident(n, span)));
        args.extend(callable.as_ref().map(|(obj, _)| ident(*obj, sp)));
        args.extend(pass.iter().cloned());
        call_ast(ident(body_name, sp), args, sp)
    };
    // The body.
    let mut body_params: Vec<Param> = def
        .kwparams
        .iter()
        .map(|k| Param {
            default: None,
            vararg: false,
            ..k.clone()
        })
        .collect();
    body_params.extend(obj_param.clone());
    body_params.extend(params.iter().map(|p| Param {
        default: None,
        ..p.clone()
    }));
    let body_def = FunctionDef {
        name: FnName::Name(body_name),
        params: body_params,
        kwparams: vec![],
        body: def.body.clone(),
        ..def.clone()
    };
    // The positional method.
    let mut pos_body = bind(&|_, d| d);
    pos_body.extend(bind_rest(mk(ExprKind::NamedTuple(vec![]), sp)));
    pos_body.push(call_body.clone());
    let pos_def = FunctionDef {
        name: match &callable {
            Some((obj, ty)) => FnName::Type(mk(
                ExprKind::TypeAssert {
                    expr: Box::new(ident(*obj, sp)),
                    ty: Box::new(ty.clone()),
                },
                sp,
            )),
            None => def.name.clone(),
        },
        params: params.clone(),
        kwparams: vec![],
        ret_type: None,
        body: pos_body,
        ..def.clone()
    };
    // The method for calls with keyword arguments.
    let kw = ident(sym("#kw"), sp);
    let mut kw_body = bind(&|k, d| {
        let n = k.name.unwrap_or_else(|| sym("_"));
        let field = mk(
            ExprKind::Field {
                obj: Box::new(kw.clone()),
                name: n,
            },
            k.span,
        );
        mk(
            ExprKind::Ternary {
                cond: Box::new(core("kw_has", vec![kw.clone(), str_lit(n.as_str())])),
                then: Box::new(field),
                else_: Box::new(d),
            },
            k.span,
        )
    });
    let mut extra_args = vec![kw.clone()];
    extra_args.extend(kw_names.iter().map(|n| str_lit(n.as_str())));
    let f_name = callable.as_ref().map_or(sym("#f"), |(obj, _)| *obj);
    let mut err_args = vec![kw.clone(), ident(f_name, sp)];
    err_args.extend(pass.iter().cloned());
    match bind_rest(core("nt_drop", extra_args.clone())) {
        Some(b) => kw_body.push(b),
        None => kw_body.push(mk(
            ExprKind::And(
                Box::new(core("kw_extra", extra_args)),
                Box::new(core("kw_error", err_args)),
            ),
            sp,
        )),
    }
    kw_body.push(call_body);
    let mut kw_params = vec![
        Param {
            name: Some(sym("#kw")),
            ty: None,
            default: None,
            vararg: false,
            span: sp,
        },
        obj_param.unwrap_or_else(|| Param {
            name: Some(sym("#f")),
            ty: Some(if env.struct_def(fname).is_some() {
                mk(
                    ExprKind::Curly {
                        base: Box::new(ident(sym("Type"), sp)),
                        params: vec![ident(fname, sp)],
                    },
                    sp,
                )
            } else {
                call_ast(ident(sym("typeof"), sp), vec![ident(fname, sp)], sp)
            }),
            default: None,
            vararg: false,
            span: sp,
        }),
    ];
    kw_params.extend(params);
    let kw_def = FunctionDef {
        name: FnName::Name(sym("#kwcall")),
        params: kw_params,
        kwparams: vec![],
        ret_type: None,
        body: kw_body,
        ..def.clone()
    };
    let mut out = lower_method_def(&body_def, src, env, None)?;
    out.extend(lower_method_def(&pos_def, src, env, None)?);
    out.extend(lower_method_def(&kw_def, src, env, None)?);
    Ok(out)
}

/// `xs::Vararg{T}` (or `xs::Vararg`) is `xs::T...`: the definition with such parameters
/// written as `...` ones, or `None` when it has none.
fn vararg_params(def: &FunctionDef) -> Result<Option<FunctionDef>, CompileError> {
    let is_vararg = |t: &Expr| match &t.kind {
        ExprKind::Ident(n) => n.as_str() == "Vararg",
        ExprKind::Curly { base, .. } => base.ident().is_some_and(|b| b.as_str() == "Vararg"),
        _ => false,
    };
    if !def
        .params
        .iter()
        .any(|p| !p.vararg && p.ty.as_ref().is_some_and(is_vararg))
    {
        return Ok(None);
    }
    let mut d = def.clone();
    for p in d.params.iter_mut() {
        let Some(t) = p.ty.clone().filter(|t| !p.vararg && is_vararg(t)) else {
            continue;
        };
        p.vararg = true;
        p.ty = match &t.kind {
            ExprKind::Curly { params, .. } => match params.as_slice() {
                [elem] => Some(elem.clone()),
                // With a count, kept whole: the parameter's pattern is the element's and the
                // count's is matched against the number of arguments collected.
                [_, _] => Some(t.clone()),
                _ => {
                    return Err(CompileError::invalid(
                        t.span,
                        "`Vararg` takes an element type and at most a count",
                    ))
                }
            },
            _ => None,
        };
    }
    Ok(Some(d))
}
