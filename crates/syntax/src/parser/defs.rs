//! Definitions: `function`, signatures and parameters, `struct`, `abstract type`.

use super::*;

pub(super) fn is_call_signature(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Call { func, .. } => match &func.kind {
            ExprKind::Ident(_) | ExprKind::Curly { .. } | ExprKind::TypeAssert { .. } => true,
            // `Base.size(...) = ...`
            ExprKind::Field { obj, .. } => obj.ident().is_some(),
            _ => false,
        },
        ExprKind::Where { expr, .. } => is_call_signature(expr),
        ExprKind::TypeAssert { expr, .. } => {
            matches!(&expr.kind, ExprKind::Call { .. } | ExprKind::Where { .. })
                && is_call_signature(expr)
        }
        _ => false,
    }
}

impl<'a> Parser<'a> {
    pub(super) fn parse_function(&mut self) -> Expr {
        let sp = self.bump().span;
        // `function f end`
        if let Tok::Ident(_) = self.peek() {
            if matches!(self.peek_nth(1), Tok::Keyword(Kw::End)) {
                let (name, nsp) = self.ident_sym("a function name").unwrap_or((sym("_"), sp));
                self.bump();
                return Expr::new(
                    ExprKind::Function(Box::new(FunctionDef {
                        name: FnName::Name(name),
                        name_span: nsp,
                        params: vec![],
                        kwparams: vec![],
                        where_vars: vec![],
                        ret_type: None,
                        body: vec![],
                        declaration_only: true,
                        qualified: false,
                        span: sp.to(self.prev_span()),
                    })),
                    sp.to(self.prev_span()),
                );
            }
        }
        let sig = self.with_mode(Mode::Statement, |p| p.parse_expr_no_assign());
        let body = self.parse_block(&[Kw::End]);
        self.expect_end("function", sp);
        let span = sp.to(self.prev_span());
        match self.signature_to_def(sig, body, span) {
            Some(def) => Expr::new(ExprKind::Function(Box::new(def)), span),
            None => Expr::new(ExprKind::Error, span),
        }
    }

    /// Turns a parsed signature expression (`f(x::T)::R where T`) into a definition.
    pub(super) fn signature_to_def(
        &mut self,
        sig: Expr,
        body: Vec<Expr>,
        span: Span,
    ) -> Option<FunctionDef> {
        let mut sig = sig;
        let mut where_vars = Vec::new();
        let mut ret_type = None;
        loop {
            match sig.kind {
                ExprKind::Where { expr, vars } => {
                    let mut vs = vars;
                    vs.extend(where_vars);
                    where_vars = vs;
                    sig = *expr;
                }
                ExprKind::TypeAssert { expr, ty } if ret_type.is_none() => {
                    ret_type = Some(*ty);
                    sig = *expr;
                }
                _ => break,
            }
        }
        let sig_span = sig.span;
        match sig.kind {
            ExprKind::Call {
                func, args, kwargs, ..
            } => {
                let name_span = func.span;
                let qualified = matches!(func.kind, ExprKind::Field { .. });
                let name = match func.kind {
                    ExprKind::Ident(s) => FnName::Name(s),
                    // `Base.size(...) = ...`: a method of a function of a known module.
                    ExprKind::Field { ref obj, name } if obj.ident().is_some_and(is_module) => {
                        FnName::Name(name)
                    }
                    ExprKind::Field { .. } => {
                        self.error(
                            func.span,
                            "not supported yet: methods of functions of modules other than Base, LinearAlgebra, Statistics, Random, Math, SpecialFunctions and LogExpFunctions",
                        );
                        return None;
                    }
                    ExprKind::Curly { .. } => FnName::Type(*func),
                    ExprKind::TypeAssert { .. } => FnName::Type(*func),
                    _ => {
                        self.error(func.span, "expected a function name");
                        return None;
                    }
                };
                let mut params = Vec::new();
                let mut prologue = Vec::new();
                for a in args {
                    params.push(self.expr_to_param(a, &mut prologue)?);
                }
                // `y = 1` before the `;` is a positional parameter with a default: after the
                // ones without, before a final `xs...`.
                let at = if params.last().is_some_and(|p: &Param| p.vararg) {
                    params.len() - 1
                } else {
                    params.len()
                };
                let (positional, kwargs): (Vec<KwArg>, Vec<KwArg>) =
                    kwargs.into_iter().partition(|k| !k.after_semicolon);
                let defaults: Vec<Param> = positional
                    .into_iter()
                    .map(|k| Param {
                        name: Some(k.name),
                        ty: k.ty,
                        default: Some(k.value),
                        vararg: false,
                        span: k.span,
                    })
                    .collect();
                params.splice(at..at, defaults);
                let mut kwparams = Vec::new();
                let n_kw = kwargs.len();
                for (i, k) in kwargs.into_iter().enumerate() {
                    if k.splat {
                        if k.value.ident().is_none() {
                            self.error(
                                k.span,
                                "expected a name before `...` in keyword parameters",
                            );
                            return None;
                        }
                        if i + 1 != n_kw {
                            self.error(k.span, "the `kws...` keyword parameter must come last");
                            return None;
                        }
                    }
                    kwparams.push(Param {
                        name: Some(k.name),
                        ty: k.ty,
                        default: (!k.bare && !k.splat).then_some(k.value),
                        vararg: k.splat,
                        span: k.span,
                    });
                }
                Some(FunctionDef {
                    name,
                    name_span,
                    params,
                    kwparams,
                    where_vars,
                    ret_type,
                    body: Self::with_prologue(prologue, body),
                    declaration_only: false,
                    qualified,
                    span,
                })
            }
            ExprKind::Tuple(elems) => {
                // `function (x, y) ... end`
                let mut params = Vec::new();
                let mut prologue = Vec::new();
                for a in elems {
                    params.push(self.expr_to_param(a, &mut prologue)?);
                }
                Some(FunctionDef {
                    name: FnName::Anonymous,
                    name_span: sig_span,
                    params,
                    kwparams: vec![],
                    where_vars,
                    ret_type,
                    body: Self::with_prologue(prologue, body),
                    declaration_only: false,
                    qualified: false,
                    span,
                })
            }
            ExprKind::Ident(_) => {
                let mut prologue = Vec::new();
                let p = self.expr_to_param(sig, &mut prologue)?;
                Some(FunctionDef {
                    name: FnName::Anonymous,
                    name_span: sig_span,
                    params: vec![p],
                    kwparams: vec![],
                    where_vars,
                    ret_type,
                    body: Self::with_prologue(prologue, body),
                    declaration_only: false,
                    qualified: false,
                    span,
                })
            }
            _ => {
                self.error(sig_span, "expected a function signature like `f(x, y)`");
                None
            }
        }
    }

    /// Converts an argument expression of a signature into a parameter. A destructuring
    /// parameter adds the statements that bind its names to `prologue`, which the caller puts
    /// at the start of the body.
    pub(super) fn expr_to_param(&mut self, e: Expr, prologue: &mut Vec<Expr>) -> Option<Param> {
        let span = e.span;
        match e.kind {
            ExprKind::Ident(s) => Some(Param {
                name: Some(s),
                ty: None,
                default: None,
                vararg: false,
                span,
            }),
            ExprKind::TypeAssert { expr, ty } => {
                let name = match expr.kind {
                    ExprKind::Ident(s) if s.as_str() == "_" => None,
                    ExprKind::Ident(s) => Some(s),
                    ExprKind::Tuple(_) => Some(self.destructuring_param(*expr, prologue)?),
                    _ => {
                        self.error(expr.span, "expected a parameter name before `::`");
                        return None;
                    }
                };
                // `xs::T...` parses as `xs::(T...)`.
                let (ty, vararg) = match ty.kind {
                    ExprKind::Splat(inner) => (*inner, true),
                    _ => (*ty, false),
                };
                Some(Param {
                    name,
                    ty: Some(ty),
                    default: None,
                    vararg,
                    span,
                })
            }
            ExprKind::Assign { lhs, rhs } => {
                let mut p = self.expr_to_param(*lhs, prologue)?;
                p.default = Some(*rhs);
                p.span = span;
                Some(p)
            }
            ExprKind::Splat(inner) => {
                let mut p = self.expr_to_param(*inner, prologue)?;
                p.vararg = true;
                p.span = span;
                Some(p)
            }
            ExprKind::Tuple(_) => {
                let name = self.destructuring_param(e, prologue)?;
                Some(Param {
                    name: Some(name),
                    ty: None,
                    default: None,
                    vararg: false,
                    span,
                })
            }
            _ => {
                self.error(
                    span,
                    "expected a parameter (`x`, `x::T`, `x = default` or `xs...`)",
                );
                None
            }
        }
    }

    /// A parameter written as a tuple (`(a, b)`, nested `((a, b), c)`, typed elements
    /// `(a::Int, b)`), as Julia lowers it: an unnamed argument whose names are locals of the
    /// body, bound first thing by destructuring the argument (`local a, b; (a, b) = #arg1`),
    /// element by element through `indexed_iterate`. Returns the argument's hidden name.
    fn destructuring_param(&mut self, pattern: Expr, prologue: &mut Vec<Expr>) -> Option<Symbol> {
        let mut names = Vec::new();
        if !self.destructuring_names(&pattern, &mut names) {
            return None;
        }
        let sp = pattern.span;
        let name = sym(&format!("#arg{}", prologue.len() / 2 + 1));
        let locals = names
            .into_iter()
            .map(|(n, s)| Expr::new(ExprKind::Ident(n), s))
            .collect();
        prologue.push(Expr::new(ExprKind::Local(locals), sp));
        prologue.push(Expr::new(
            ExprKind::Assign {
                lhs: Box::new(pattern),
                rhs: Box::new(Expr::new(ExprKind::Ident(name), sp)),
            },
            sp,
        ));
        Some(name)
    }

    /// The names a destructuring parameter binds; `false` (after a diagnostic) for anything
    /// but names, typed names and tuples of them.
    fn destructuring_names(&mut self, e: &Expr, out: &mut Vec<(Symbol, Span)>) -> bool {
        match &e.kind {
            ExprKind::Ident(n) => {
                if n.as_str() != "_" {
                    out.push((*n, e.span));
                }
                true
            }
            ExprKind::TypeAssert { expr, .. } | ExprKind::Splat(expr) if expr.ident().is_some() => {
                self.destructuring_names(expr, out)
            }
            ExprKind::Tuple(elems) if !elems.is_empty() => {
                elems.iter().all(|el| self.destructuring_names(el, out))
            }
            _ => {
                self.error(e.span, "expected a name in a destructuring parameter");
                false
            }
        }
    }

    /// `prologue` (the statements binding destructured parameters) put before `body`.
    pub(super) fn with_prologue(prologue: Vec<Expr>, body: Vec<Expr>) -> Vec<Expr> {
        let mut out = prologue;
        out.extend(body);
        out
    }

    pub(super) fn parse_struct(&mut self, mutable: bool) -> Expr {
        self.parse_struct_with(mutable, None)
    }

    /// `@kwdef struct ... end`: the struct, whose fields may have defaults (`x::T = 1`), and
    /// the keyword constructor Julia's macro defines, `S(; x = 1, y) = S(x, y)` (a field
    /// without a default is a required keyword).
    pub(super) fn parse_kwdef_struct(&mut self, sp: Span) -> Expr {
        let mutable = self.eat_kw(Kw::Mutable);
        if !self.at_kw(Kw::Struct) {
            let s = self.peek_span();
            self.error(s, "`@kwdef` takes a struct definition");
            self.recover();
            return Expr::new(ExprKind::Error, sp);
        }
        let mut defaults = Vec::new();
        let e = self.parse_struct_with(mutable, Some(&mut defaults));
        let ExprKind::Struct(def) = &e.kind else {
            return e;
        };
        if def.fields.is_empty() {
            return e;
        }
        let span = sp.to(e.span);
        let name = def.name;
        let kwparams: Vec<Param> = def
            .fields
            .iter()
            .zip(defaults)
            .map(|(f, d)| Param {
                name: Some(f.name),
                ty: None,
                default: d,
                vararg: false,
                span: f.span,
            })
            .collect();
        let args: Vec<Expr> = def
            .fields
            .iter()
            .map(|f| Expr::new(ExprKind::Ident(f.name), f.span))
            .collect();
        let call = Expr::new(
            ExprKind::Call {
                func: Box::new(Expr::new(ExprKind::Ident(name), def.name_span)),
                args,
                kwargs: vec![],
                do_block: None,
            },
            span,
        );
        let ctor = FunctionDef {
            name: FnName::Name(name),
            name_span: def.name_span,
            params: vec![],
            kwparams,
            where_vars: vec![],
            ret_type: None,
            body: vec![call],
            declaration_only: false,
            qualified: false,
            span,
        };
        let f = Expr::new(ExprKind::Function(Box::new(ctor)), span);
        Expr::new(ExprKind::Block(vec![e, f]), span)
    }

    fn parse_struct_with(
        &mut self,
        mutable: bool,
        mut defaults: Option<&mut Vec<Option<Expr>>>,
    ) -> Expr {
        let sp = self.bump().span; // struct
        let Some((name, name_span)) = self.ident_sym("a struct name") else {
            self.recover();
            return Expr::new(ExprKind::Error, sp);
        };
        let params = self.parse_type_params();
        let supertype = if self.eat_op("<:") {
            Some(self.parse_postfix())
        } else {
            None
        };
        let mut fields = Vec::new();
        let mut constructors = Vec::new();
        self.with_mode(Mode::Statement, |p| loop {
            p.skip_terminators();
            match p.peek().clone() {
                Tok::Keyword(Kw::End) | Tok::Eof => break,
                Tok::Keyword(Kw::Function) => {
                    let e = p.parse_function();
                    if let ExprKind::Function(def) = e.kind {
                        constructors.push(*def);
                    }
                }
                Tok::Ident(fname) => {
                    let mut e = p.parse_expr_stmt();
                    // Under `@kwdef`, `name::T = default`.
                    let mut default = None;
                    if let Some(ds) = defaults.as_deref_mut() {
                        if let ExprKind::Assign { lhs, rhs } = e.kind {
                            default = Some(*rhs);
                            e = *lhs;
                        }
                        if matches!(e.kind, ExprKind::Ident(_) | ExprKind::TypeAssert { .. }) {
                            ds.push(default);
                        }
                    }
                    match e.kind {
                        ExprKind::Ident(_) => fields.push(FieldDecl {
                            name: fname,
                            ty: None,
                            span: e.span,
                        }),
                        ExprKind::TypeAssert { expr, ty } if expr.ident().is_some() => {
                            fields.push(FieldDecl {
                                name: expr.ident().unwrap_or(fname),
                                ty: Some(*ty),
                                span: e.span,
                            })
                        }
                        ExprKind::Function(def) => constructors.push(*def),
                        _ => p.error(e.span, "expected a field `name` or `name::Type`"),
                    }
                }
                t => {
                    let s = p.peek_span();
                    let d = Self::describe(&t);
                    p.error(s, format!("expected a field declaration, found {d}"));
                    p.recover();
                    if p.at_eof() {
                        break;
                    }
                    if !p.at_kw(Kw::End) {
                        p.bump();
                    }
                }
            }
        });
        self.expect_end("struct", sp);
        let span = sp.to(self.prev_span());
        Expr::new(
            ExprKind::Struct(Box::new(StructDef {
                name,
                name_span,
                params,
                supertype,
                fields,
                mutable,
                constructors,
                span,
            })),
            span,
        )
    }

    pub(super) fn parse_type_params(&mut self) -> Vec<TypeVarDecl> {
        let mut params = Vec::new();
        if self.at_op("{") && self.adjacent() {
            self.bump();
            self.with_mode(Mode::Paren, |p| {
                while !p.at_op("}") && !p.at_eof() {
                    match p.parse_type_var() {
                        Some(v) => params.push(v),
                        None => break,
                    }
                    if !p.eat_op(",") {
                        break;
                    }
                }
                p.expect_op("}", "to close the type parameters");
            });
        }
        params
    }

    pub(super) fn parse_abstract(&mut self) -> Expr {
        let sp = self.bump().span;
        match self.peek() {
            Tok::Ident(s) if s.as_str() == "type" => {
                self.bump();
            }
            _ => {
                let s = self.peek_span();
                self.error(s, "expected `type` after `abstract`");
                self.recover();
                return Expr::new(ExprKind::Error, sp);
            }
        }
        let Some((name, _)) = self.ident_sym("an abstract type name") else {
            self.recover();
            return Expr::new(ExprKind::Error, sp);
        };
        let params = self.parse_type_params();
        let supertype = if self.eat_op("<:") {
            Some(Box::new(self.parse_postfix()))
        } else {
            None
        };
        self.skip_terminators();
        self.expect_end("abstract type", sp);
        Expr::new(
            ExprKind::AbstractType {
                name,
                params,
                supertype,
            },
            sp.to(self.prev_span()),
        )
    }
}
