//! Struct and abstract type definitions: the type, its fields, and its default and inner
//! constructors.

use super::*;
use syntax::ast::library_ref;

pub(super) fn mk(kind: ExprKind, span: Span) -> Expr {
    Expr::new(kind, span)
}

pub(super) fn ident(name: Symbol, span: Span) -> Expr {
    mk(ExprKind::Ident(name), span)
}

/// `Core.name(args...)`: a call of a primitive or of one of the names inference resolves.
pub(super) fn core_call(name: &str, args: Vec<Expr>, span: Span) -> Expr {
    let f = mk(
        ExprKind::Field {
            obj: Box::new(ident(sym("Core"), span)),
            name: sym(name),
        },
        span,
    );
    call_ast(f, args, span)
}

pub(super) fn call_ast(f: Expr, args: Vec<Expr>, span: Span) -> Expr {
    mk(
        ExprKind::Call {
            func: Box::new(f),
            args,
            kwargs: vec![],
            do_block: None,
        },
        span,
    )
}

/// Evaluates a struct definition: adds the type to `env` and returns its constructors.
pub fn define_struct(
    def: &StructDef,
    src: &str,
    env: &mut TypeEnv,
) -> Result<Vec<LoweredMethod>, CompileError> {
    let pnames: Vec<Symbol> = def.params.iter().map(|p| p.name).collect();
    let sp = def.span;
    if crate::typeexpr::builtin_type(def.name.as_str()).is_some()
        || crate::typeexpr::builtin_unionall(def.name.as_str())
    {
        return Err(CompileError::invalid(
            def.name_span,
            format!("cannot redefine the built-in type `{}`", def.name),
        ));
    }
    if let Some(old) = env.struct_def(def.name) {
        // Julia allows an identical redefinition only.
        if old.fields.len() != def.fields.len() || old.mutable != def.mutable {
            return Err(CompileError::invalid(
                def.name_span,
                format!("invalid redefinition of constant `{}`", def.name),
            ));
        }
    }
    let (params, supertype) = {
        let tctx = TypeExprCtx { env, vars: &pnames };
        let mut params = Vec::new();
        for p in &def.params {
            let upper = match &p.upper {
                Some(u) => tctx.eval(u)?,
                None => TypePat::any(),
            };
            params.push(TypeVar {
                name: p.name,
                upper,
            });
        }
        let supertype = match &def.supertype {
            Some(s) => {
                let pat = tctx.eval(s)?;
                match &pat {
                    TypePat::Ty(Type::Abstract(..))
                    | TypePat::App(Head::Abstract(_), _)
                    | TypePat::Ty(Type::Any) => pat,
                    _ => {
                        return Err(CompileError::invalid(
                            s.span,
                            "a struct can only subtype an abstract type",
                        ))
                    }
                }
            }
            None => TypePat::any(),
        };
        (params, supertype)
    };
    // A field may have the struct's own type (`next::Union{Node, Nothing}` in a linked list):
    // the name stands for the struct while its fields are read, and is taken back if they
    // are in error.
    let fresh = env.struct_def(def.name).is_none();
    if fresh {
        env.add_struct(ir::StructDef {
            name: def.name,
            params: params.clone(),
            fields: Vec::new(),
            mutable: def.mutable,
            supertype: supertype.clone(),
        });
    }
    let fields = (|| {
        let tctx = TypeExprCtx { env, vars: &pnames };
        let mut fields = Vec::new();
        for f in &def.fields {
            if fields.iter().any(|(n, _)| *n == f.name) {
                return Err(CompileError::invalid(
                    f.span,
                    format!("duplicate field name `{}`", f.name),
                ));
            }
            let t = match &f.ty {
                Some(t) => tctx.eval(t)?,
                None => TypePat::any(),
            };
            // Values of an immutable struct are built from the inside out, so none can hold
            // one of its own type (Julia allows it through `Union{S, Nothing}` and `new` with
            // fewer fields; the derived types of such recursive values are not worked out yet).
            if !def.mutable && t.mentions_struct(def.name) {
                return Err(CompileError::unsupported(
                    f.span,
                    &format!(
                        "an immutable struct with a field of its own type (`{}`); declare it `mutable struct`",
                        def.name
                    ),
                ));
            }
            fields.push((f.name, t));
        }
        Ok(fields)
    })();
    let fields = match fields {
        Ok(fields) => fields,
        Err(e) => {
            if fresh {
                env.remove_struct(def.name);
            }
            return Err(e);
        }
    };
    env.add_struct(ir::StructDef {
        name: def.name,
        params,
        fields,
        mutable: def.mutable,
        supertype,
    });
    let name_e = ident(def.name, def.name_span);
    let param_exprs: Vec<Expr> = pnames.iter().map(|p| ident(*p, sp)).collect();
    let applied = if pnames.is_empty() {
        name_e.clone()
    } else {
        mk(
            ExprKind::Curly {
                base: Box::new(name_e.clone()),
                params: param_exprs.clone(),
            },
            sp,
        )
    };
    let mut methods = Vec::new();
    if !def.constructors.is_empty() {
        for c in &def.constructors {
            methods.extend(lower_constructor(c, applied.clone(), src, env)?);
        }
        return Ok(methods);
    }
    let where_vars: Vec<TypeVarDecl> = def.params.clone();
    // A field may share its name with a type parameter (`struct V{Q}; Q::Q; end`): the
    // constructors' arguments then get a name no program can write, so that `Q` in the
    // field's type still means the parameter.
    let arg_name = |f: Symbol| {
        if pnames.contains(&f) {
            sym(&format!("#{f}"))
        } else {
            f
        }
    };
    let field_params: Vec<Param> = def
        .fields
        .iter()
        .map(|f| Param {
            name: Some(arg_name(f.name)),
            ty: None,
            default: None,
            vararg: false,
            span: f.span,
        })
        .collect();
    // new(convert(FT, f), ...) for typed fields.
    let new_args: Vec<Expr> = def
        .fields
        .iter()
        .map(|f| match (&f.ty, f.ty.as_ref().and_then(union_members)) {
            // A field of a union type keeps a value of one of its members (a union of an
            // abstract type has no value to `convert` to).
            (Some(t), Some(members)) => call_ast(
                library_ref(sym("_convert_union"), f.span),
                vec![
                    ident(arg_name(f.name), f.span),
                    Expr::new(ExprKind::Tuple(members.to_vec()), t.span),
                ],
                f.span,
            ),
            (Some(t), None) => call_ast(
                library_ref(sym("convert"), f.span),
                vec![t.clone(), ident(arg_name(f.name), f.span)],
                f.span,
            ),
            (None, _) => ident(arg_name(f.name), f.span),
        })
        .collect();
    let body = vec![call_ast(ident(sym("new"), sp), new_args, sp)];
    let full = FunctionDef {
        name: if pnames.is_empty() {
            FnName::Name(def.name)
        } else {
            FnName::Type(applied.clone())
        },
        name_span: def.name_span,
        params: field_params.clone(),
        kwparams: vec![],
        where_vars: where_vars.clone(),
        ret_type: None,
        body,
        declaration_only: false,
        qualified: false,
        span: sp,
    };
    methods.extend(lower_constructor(&full, applied.clone(), src, env)?);
    if !pnames.is_empty() {
        // Point(x::T, y::T) where T = Point{T}(x, y), when every parameter occurs in a field's
        // type (`data::Vector{T}` determines `T` as well), so the arguments' types bind it.
        let determined = pnames.iter().all(|p| {
            def.fields
                .iter()
                .any(|f| f.ty.as_ref().is_some_and(|t| mentions(t, *p)))
        });
        if determined {
            let typed_params: Vec<Param> = def
                .fields
                .iter()
                .map(|f| Param {
                    name: Some(arg_name(f.name)),
                    ty: f.ty.clone(),
                    default: None,
                    vararg: false,
                    span: f.span,
                })
                .collect();
            let fwd = call_ast(
                applied.clone(),
                def.fields
                    .iter()
                    .map(|f| ident(arg_name(f.name), f.span))
                    .collect(),
                sp,
            );
            let outer = FunctionDef {
                name: FnName::Name(def.name),
                name_span: def.name_span,
                params: typed_params,
                kwparams: vec![],
                where_vars,
                ret_type: None,
                body: vec![fwd],
                declaration_only: false,
                qualified: false,
                span: sp,
            };
            methods.extend(lower_function(&outer, src, env)?);
        }
    }
    Ok(methods)
}

/// Whether the type expression `t` mentions the name `p` (`Vector{T}` mentions `T`).
fn mentions(t: &Expr, p: Symbol) -> bool {
    match &t.kind {
        ExprKind::Ident(n) => *n == p,
        ExprKind::Curly { base, params } => {
            mentions(base, p) || params.iter().any(|q| mentions(q, p))
        }
        _ => false,
    }
}

/// Evaluates an abstract type definition into `env`.
pub fn define_abstract(
    name: Symbol,
    params: &[TypeVarDecl],
    supertype: Option<&Expr>,
    span: Span,
    env: &mut TypeEnv,
) -> Result<(), CompileError> {
    if crate::typeexpr::builtin_type(name.as_str()).is_some() {
        return Err(CompileError::invalid(
            span,
            format!("cannot redefine the built-in type `{name}`"),
        ));
    }
    let pnames: Vec<Symbol> = params.iter().map(|p| p.name).collect();
    let tctx = TypeExprCtx { env, vars: &pnames };
    let tvs = tctx.type_vars(params)?;
    let st = match supertype {
        Some(s) => tctx.eval(s)?,
        None => TypePat::any(),
    };
    env.add_abstract(ir::AbstractDef {
        name,
        params: tvs,
        supertype: st,
    });
    Ok(())
}
