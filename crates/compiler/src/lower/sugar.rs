//! Syntactic sugar lowered to calls and loops: comprehensions and generators, fused
//! broadcasting, and macros.

use super::*;
use syntax::ast::library_ref;

impl<'a> Lowerer<'a> {
    /// `[body for x in itr if cond]` (and a generator `(body for x in itr)`, which is
    /// collected the same way: every consumer in the prelude reads it once, in order) is
    /// `map(x -> body, filter(x -> cond, collect(itr)))` (`itr` through
    /// `_comprehension_source`, which collects a string's characters). Over two iterators,
    /// `[body for x in a, y in b]` is the matrix `_product_collect((x, y) -> body, a, b)` (`x`
    /// varying fastest); with a condition, the vector `_product_filter(...)` of the pairs that
    /// pass it, in the same order.
    pub(super) fn comprehension(
        &mut self,
        body: &Expr,
        iters: &[(Expr, Expr)],
        cond: Option<&Expr>,
        generator: bool,
        sp: Span,
    ) -> Result<Value, CompileError> {
        if iters.is_empty() || iters.len() > 3 {
            return Err(CompileError::unsupported(
                sp,
                if generator {
                    "generators over more than three iterators"
                } else {
                    "comprehensions over more than three iterators"
                },
            ));
        }
        let vars: Vec<&Expr> = iters.iter().map(|(var, _)| var).collect();
        let lambda = |e: &Expr| iteration_lambda(&vars, e);
        let call =
            |name: &str, args: Vec<Expr>, at: Span| call_ast(library_ref(sym(name), at), args, at);
        let m = if let [(_, itr)] = iters {
            // (A string's characters are collected first: `map` of a string is a string.)
            let mut source = call("_comprehension_source", vec![itr.clone()], itr.span);
            if let Some(c) = cond {
                let collected = call("collect", vec![itr.clone()], itr.span);
                source = call("filter", vec![lambda(c), collected], c.span);
            }
            call("map", vec![lambda(body), source], sp)
        } else {
            let sources: Vec<Expr> = iters.iter().map(|(_, itr)| itr.clone()).collect();
            match cond {
                Some(c) => call(
                    "_product_filter",
                    [vec![lambda(body), lambda(c)], sources].concat(),
                    sp,
                ),
                None => call(
                    "_product_collect",
                    [vec![lambda(body)], sources].concat(),
                    sp,
                ),
            }
        };
        self.expr(&m)
    }

    /// `sum(body for x in itr if cond)` and the other reductions of a generator over one
    /// iterator (`prod`, `maximum`, `minimum`, `any`, `all`, `count`), called on the generator
    /// alone: folded while the generator is iterated, in order, as Julia's `mapfoldl` does,
    /// never collected (`_gen_fold(op, x -> body, x -> cond, itr)`, `_gen_any`, ...). So the
    /// sum is Julia's left-to-right sum, `any`/`all` stop at the first decisive element, and
    /// an empty generator is Julia's error. `None` when `name(arg)` is not such a call.
    pub(super) fn generator_reduction(
        &mut self,
        name: Symbol,
        arg: &Expr,
        sp: Span,
    ) -> Result<Option<Value>, CompileError> {
        let ExprKind::Comprehension {
            body,
            iters,
            cond,
            generator: true,
        } = &arg.kind
        else {
            return Ok(None);
        };
        let [(var, itr)] = iters.as_slice() else {
            return Ok(None);
        };
        let (fold, op) = match name.as_str() {
            "sum" => ("_gen_fold", Some("+")),
            "prod" => ("_gen_fold", Some("*")),
            "maximum" => ("_gen_fold", Some("max")),
            "minimum" => ("_gen_fold", Some("min")),
            "any" => ("_gen_any", None),
            "all" => ("_gen_all", None),
            "count" => ("_gen_count", None),
            _ => return Ok(None),
        };
        if self.lookup_local(name).is_some() || self.env.is_own_function(name) {
            return Ok(None);
        }
        let lambda = |e: &Expr| iteration_lambda(&[var], e);
        let keep = match cond {
            Some(c) => lambda(c),
            None => library_ref(sym("_gen_true"), arg.span),
        };
        let mut args: Vec<Expr> = op.map(|o| library_ref(sym(o), sp)).into_iter().collect();
        args.extend([lambda(body), keep, itr.clone()]);
        let call = call_ast(library_ref(sym(fold), sp), args, sp);
        self.expr(&call).map(Some)
    }

    /// A fused dotted expression: `broadcast(fused, args...)`, or with a destination
    /// `broadcast!(fused, dest, args...)`, where `fused` applies the whole expression to one
    /// element of each argument (see `broadcast`).
    pub(super) fn broadcast(
        &mut self,
        e: &Expr,
        dest: Option<&Expr>,
        sp: Span,
    ) -> Result<Value, CompileError> {
        let (body, crate::broadcast::Leaves { exprs, arith }) = crate::broadcast::fuse(e);
        if exprs.is_empty() && dest.is_none() {
            return self.expr(&body);
        }
        // Arithmetic (`r .+ 1`, `2 .* x .- y`, `sin.(r .* 2)`): when a range is an operand of
        // it, Julia performs that arithmetic operation by operation, on ranges as range
        // arithmetic, and fuses the rest around it. The operands are bound to their names
        // first; the test is a constant once their types are known, so one of the two
        // versions remains.
        let whole_tree = crate::broadcast::whole_arith(&body);
        let tested: Vec<usize> = match whole_tree {
            Some(_) => (0..exprs.len()).collect(),
            None => (0..exprs.len()).filter(|k| arith[*k]).collect(),
        };
        let whole = match tested.is_empty() {
            true => None,
            false => whole_tree
                .or_else(|| crate::broadcast::by_operation(&body))
                .map(|t| (t, tested)),
        };
        let bound: Vec<Expr> = exprs.clone();
        // Otherwise an operand of arithmetic goes through `_bc_arith_operand`, the identity
        // except on float ranges, whose arithmetic Julia performs as range arithmetic.
        let leaves: Vec<Expr> = if whole.is_some() {
            (0..exprs.len())
                .map(|k| ident(crate::broadcast::arg_name(k), sp))
                .collect()
        } else {
            exprs
                .into_iter()
                .zip(arith)
                .map(|(x, a)| {
                    if a {
                        let sp = x.span;
                        call_ast(library_ref(sym("_bc_arith_operand"), sp), vec![x], sp)
                    } else {
                        x
                    }
                })
                .collect()
        };
        // Beyond the most operands `broadcast` takes, the rest travel packed: the last
        // parameter is an array of tuples of their elements, unpacked at the top of the body.
        let (leaves, body, packed) = if leaves.len() > crate::broadcast::MAX_ARGS {
            let direct = crate::broadcast::MAX_ARGS - 1;
            let (pack, bindings) = crate::broadcast::pack(&leaves[direct..], direct, sp);
            let packed = sym("#bpack");
            let mut stmts: Vec<Expr> = bindings
                .into_iter()
                .map(|(k, path)| {
                    let mut at = ident(packed, sp);
                    for i in path {
                        at = mk(
                            ExprKind::Index {
                                obj: Box::new(at),
                                indices: vec![mk(ExprKind::Int(i), sp)],
                            },
                            sp,
                        );
                    }
                    // Locals of the fused function (the operands' names may also be bound
                    // around it).
                    let bind = mk(
                        ExprKind::Assign {
                            lhs: Box::new(ident(crate::broadcast::arg_name(k), sp)),
                            rhs: Box::new(at),
                        },
                        sp,
                    );
                    mk(ExprKind::Local(vec![bind]), sp)
                })
                .collect();
            stmts.push(body);
            let mut kept: Vec<Expr> = leaves[..direct].to_vec();
            kept.push(pack);
            (kept, mk(ExprKind::Block(stmts), sp), Some(packed))
        } else {
            (leaves, body, None)
        };
        let params: Vec<Param> = (0..leaves.len())
            .map(|k| Param {
                name: Some(match packed {
                    Some(p) if k + 1 == leaves.len() => p,
                    _ => crate::broadcast::arg_name(k),
                }),
                ty: None,
                default: None,
                vararg: false,
                span: sp,
            })
            .collect();
        let fused = mk(
            ExprKind::Lambda(Box::new(Lambda {
                params,
                body,
                span: sp,
                local: None,
                try_block: false,
                where_vars: vec![],
                ret_type: None,
                kwparams: vec![],
            })),
            sp,
        );
        let dest_name = sym("#bdest");
        let mut args = vec![fused];
        let name = match dest {
            Some(_) if whole.is_some() => {
                args.push(ident(dest_name, sp));
                "broadcast!"
            }
            Some(d) => {
                args.push(d.clone());
                "broadcast!"
            }
            None => "broadcast",
        };
        args.extend(leaves);
        let fused_call = call_ast(library_ref(sym(name), sp), args, sp);
        let Some((tree, tested)) = whole else {
            return self.expr(&fused_call);
        };
        // let #bdest = dest, #b1 = operand 1, ...
        //     <an operand of arithmetic is a range> ? <by operation> : <the fused loop>
        let names: Vec<Expr> = tested
            .iter()
            .map(|k| ident(crate::broadcast::arg_name(*k), sp))
            .collect();
        let assign = |lhs: Symbol, rhs: Expr| {
            mk(
                ExprKind::Assign {
                    lhs: Box::new(ident(lhs, sp)),
                    rhs: Box::new(rhs),
                },
                sp,
            )
        };
        let mut bindings = Vec::new();
        if let Some(d) = dest {
            bindings.push(assign(dest_name, d.clone()));
        }
        for (k, x) in bound.into_iter().enumerate() {
            bindings.push(assign(crate::broadcast::arg_name(k), x));
        }
        let by_operation = match dest {
            Some(_) => mk(
                ExprKind::DotAssign {
                    op: sym(".="),
                    lhs: Box::new(ident(dest_name, sp)),
                    rhs: Box::new(tree),
                },
                sp,
            ),
            None => tree,
        };
        // `#b1 isa AbstractRange | ...`: a constant for every operand type, unions included.
        let test = names
            .into_iter()
            .map(|n| {
                call_ast(
                    library_ref(sym("isa"), sp),
                    vec![n, library_ref(sym("AbstractRange"), sp)],
                    sp,
                )
            })
            .reduce(|a, b| call_ast(library_ref(sym("|"), sp), vec![a, b], sp))
            .unwrap_or_else(|| mk(ExprKind::Bool(false), sp));
        let choice = mk(
            ExprKind::If {
                cond: Box::new(test),
                then: vec![by_operation],
                else_: Some(Box::new(mk(ExprKind::Block(vec![fused_call]), sp))),
            },
            sp,
        );
        self.expr(&mk(
            ExprKind::Let {
                bindings,
                body: vec![choice],
            },
            sp,
        ))
    }

    pub(super) fn macro_call(
        &mut self,
        name: Symbol,
        args: &[Expr],
        sp: Span,
    ) -> Result<Value, CompileError> {
        match name.as_str() {
            "view" | "#maybeview" => match args {
                [Expr {
                    kind: ExprKind::Index { obj, indices },
                    ..
                }] => {
                    let f = if name.as_str() == "view" {
                        "view"
                    } else {
                        "_maybeview"
                    };
                    self.index_call(f, obj, indices, sp)
                }
                _ => Err(CompileError::invalid(
                    sp,
                    "Invalid use of @view macro: argument must be a reference expression A[...].",
                )),
            },
            "views" => match args {
                [e] => {
                    let mut e = e.clone();
                    crate::views::viewify(&mut e);
                    self.expr(&e)
                }
                _ => Err(CompileError::invalid(sp, "`@views` takes one expression")),
            },
            "assert" => {
                if args.is_empty() || args.len() > 2 {
                    return Err(CompileError::invalid(
                        sp,
                        "`@assert` takes a condition and an optional message",
                    ));
                }
                let c = self.cond(&args[0])?;
                let ok = self.f.add_block();
                let fail = self.f.add_block();
                self.branch(c, ok, fail, sp);
                self.cur = fail;
                let msg = match args.get(1) {
                    Some(m) => {
                        let v = self.expr(m)?;
                        self.call("string", vec![v], m.span)
                    }
                    None => {
                        let text = self.source_text(args[0].span);
                        self.konst(Const::Str(Arc::from(text.as_str())), sp)
                    }
                };
                self.prim(Prim::ThrowAssert, vec![msg], sp);
                self.emit_stmt(InstData::Unreachable, sp);
                self.cur = ok;
                Ok(self.nothing(sp))
            }
            "show" => {
                // `@show x p.a v[i]`: prints `x = repr(x)` per argument (the expression as
                // Julia prints it) and gives the last value.
                let mut last = self.nothing(sp);
                for a in args {
                    let Some(text) = show_text(a, self.src) else {
                        return Err(CompileError::unsupported(
                            a.span,
                            "`@show` of an expression other than a variable, a literal, a field, an indexing, a call or an operator on such operands",
                        ));
                    };
                    let v = self.expr(a)?;
                    let r = self.call("repr", vec![v], a.span);
                    let label =
                        self.konst(Const::Str(Arc::from(format!("{text} = ").as_str())), a.span);
                    self.call("println", vec![label, r], a.span);
                    last = v;
                }
                Ok(last)
            }
            "." => match args {
                [e] => self.expr(&crate::broadcast::dotify(e)),
                _ => Err(CompileError::invalid(sp, "`@.` takes one expression")),
            },
            // `@printf("x = %.3f\n", x)` prints `Core.sprintf(format, (x,))`; `@sprintf` is the
            // string. The format is a literal, as Julia requires; `stdout` may come first.
            "printf" | "sprintf" => {
                let rest = match args {
                    [io, rest @ ..]
                        if name.as_str() == "printf"
                            && io.ident().is_some_and(|n| n.as_str() == "stdout") =>
                    {
                        rest
                    }
                    _ => args,
                };
                let Some((fmt, values)) = rest.split_first() else {
                    return Err(CompileError::invalid(
                        sp,
                        format!("`@{name}` needs a format string"),
                    ));
                };
                let literal = match &fmt.kind {
                    ExprKind::Str(segs) => segs.iter().all(|s| matches!(s, StrSeg::Lit(_))),
                    _ => false,
                };
                if !literal {
                    return Err(CompileError::invalid(
                        fmt.span,
                        format!("the first argument of `@{name}` (after an optional `stdout`) must be a format string literal"),
                    ));
                }
                let f = self.expr(fmt)?;
                // The values as a tuple (`@printf("%d %d", v...)` splats).
                let t = self.expr(&mk(ExprKind::Tuple(values.to_vec()), sp))?;
                let text = self.prim(Prim::Sprintf, vec![f, t], sp);
                if name.as_str() == "sprintf" {
                    return Ok(text);
                }
                Ok(self.call("print", vec![text], sp))
            }
            // `Threads.@spawn expr` and `@async expr`: a task made of `() -> expr` (see the
            // prelude's `_spawn`).
            "spawn" | "async" => match args {
                [e] => {
                    let thunk = thunk_of(e);
                    self.expr(&call_ast(library_ref(sym("_spawn"), sp), vec![thunk], sp))
                }
                _ => Err(CompileError::unsupported(
                    sp,
                    &format!("`@{name}` with options; write `@{name} expr`"),
                )),
            },
            // ChainRulesCore's `@thunk expr`: a tangent computed when asked for,
            // `Thunk(() -> expr)`.
            "thunk" => match args {
                [e] => {
                    let thunk = thunk_of(e);
                    self.expr(&call_ast(library_ref(sym("Thunk"), sp), vec![thunk], sp))
                }
                _ => Err(CompileError::invalid(sp, "`@thunk` takes one expression")),
            },
            // ChainRulesCore's `@not_implemented(info)`: a derivative left unimplemented.
            "not_implemented" => match args {
                [e] => self.expr(&call_ast(
                    library_ref(sym("NotImplemented"), sp),
                    vec![e.clone()],
                    sp,
                )),
                _ => Err(CompileError::invalid(
                    sp,
                    "`@not_implemented` takes one message",
                )),
            },
            "inbounds" | "inline" | "noinline" | "fastmath" | "simd" | "sync" => match args {
                [e] => self.expr(e),
                _ => Err(CompileError::invalid(
                    sp,
                    format!("`@{name}` takes one expression"),
                )),
            },
            _ => Err(CompileError::unsupported(
                sp,
                &format!("the macro `@{name}`"),
            )),
        }
    }
}

/// `() -> e`.
fn thunk_of(e: &Expr) -> Expr {
    lambda_of(vec![], e.clone())
}

/// `(params...) -> body`, an anonymous function spanning its body.
fn lambda_of(params: Vec<Param>, body: Expr) -> Expr {
    let span = body.span;
    Lambda::anonymous(params, body, span)
}

/// How Julia prints `e` for `@show`, for variables, fields and indexing by variables and
/// integers (`p.x`, `A[i, 2]`); `None` for other expressions.
/// Whether `e` is a hexadecimal, binary or octal literal (parsed as `Core.new(UInt8, 5)`).
fn unsigned_literal(e: &Expr, src: &str) -> bool {
    matches!(&e.kind, ExprKind::Call { func, .. }
        if matches!(&func.kind, ExprKind::Field { name, .. } if name.as_str() == "new"))
        && src
            .get(e.span.lo as usize..)
            .is_some_and(|t| t.starts_with(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']))
}

fn show_text(e: &Expr, src: &str) -> Option<String> {
    let text = |e: &Expr| show_text(e, src);
    match &e.kind {
        ExprKind::Ident(n) => Some(n.to_string()),
        ExprKind::Int(i) => Some(i.to_string()),
        ExprKind::Bool(b) => Some(b.to_string()),
        // A float of ordinary magnitude prints as Rust's shortest form, which is Julia's
        // there (`0.5`, `2.0`, `0.001`).
        ExprKind::Float(x) if *x == 0.0 || (1e-4..1e15).contains(&x.abs()) => {
            Some(format!("{x:?}"))
        }
        ExprKind::Field { obj, name } => Some(format!("{}.{name}", text(obj)?)),
        // A hexadecimal, binary or octal literal (`Core.new(UInt8, 5)` once parsed) is shown
        // as Julia shows the unsigned number: `0x05`.
        ExprKind::Call { args, .. } if unsigned_literal(e, src) => {
            let [ty, bits] = args.as_slice() else {
                return None;
            };
            let (ExprKind::Ident(t), ExprKind::Int(b)) = (&ty.kind, &bits.kind) else {
                return None;
            };
            let (_, width) = ir::prim::bit_integer(&ir::Type::Struct(*t, Arc::from(vec![])))?;
            Some(format!("0x{:0w$x}", *b as u64, w = width as usize / 4))
        }
        // `(a, b)`; a tuple of one element `(a,)`.
        ExprKind::Tuple(elems) => {
            let xs: Option<Vec<String>> = elems.iter().map(text).collect();
            let xs = xs?;
            Some(if xs.len() == 1 {
                format!("({},)", xs[0])
            } else {
                format!("({})", xs.join(", "))
            })
        }
        ExprKind::Vect(elems) => {
            let xs: Option<Vec<String>> = elems.iter().map(text).collect();
            Some(format!("[{}]", xs?.join(", ")))
        }
        ExprKind::Index { obj, indices } => {
            let ixs: Option<Vec<String>> = indices.iter().map(text).collect();
            Some(format!("{}[{}]", text(obj)?, ixs?.join(", ")))
        }
        ExprKind::Call {
            func,
            args,
            kwargs,
            do_block: None,
        } if kwargs.is_empty() => {
            let callee = text(func)?;
            // The operator as written (the parser spells some of them out: `≤` is `<=`).
            let written = |a: &Expr, b: &Expr| {
                src.get(a.span.hi as usize..b.span.lo as usize)
                    .map(|t| t.trim().to_string())
            };
            let tail = src.get(e.span.lo as usize..e.span.hi as usize)?;
            match (infix_operator(&callee), args.as_slice()) {
                // A number times a name is printed as Julia's juxtaposition (`2x`, also when
                // written `2 * x`).
                (
                    Some("*"),
                    [n @ Expr {
                        kind: ExprKind::Int(_) | ExprKind::Float(_),
                        ..
                    }, Expr {
                        kind: ExprKind::Ident(v),
                        ..
                    }],
                ) if !v.as_str().starts_with(['e', 'E', 'f']) => Some(format!("{}{v}", text(n)?)),
                (Some(_), [a, b]) => {
                    let op = written(a, b)?;
                    infix_operator(&op)?;
                    let (a, b) = (show_operand(a, src)?, show_operand(b, src)?);
                    Some(if op == ":" {
                        format!("{a}:{b}")
                    } else {
                        format!("{a} {op} {b}")
                    })
                }
                // A unary operator encloses anything but a name or a number in parentheses.
                (Some("-" | "+" | "!"), [a]) => match a.kind {
                    ExprKind::Ident(_) | ExprKind::Int(_) | ExprKind::Float(_) => {
                        Some(format!("{callee}{}", text(a)?))
                    }
                    _ if unsigned_literal(a, src) => Some(format!("{callee}{}", text(a)?)),
                    _ => Some(format!("{callee}({})", text(a)?)),
                },
                (Some(_), _) => None,
                // `x'` is `adjoint(x)`, printed as written.
                (None, [a])
                    if matches!(callee.as_str(), "adjoint" | "Base.adjoint")
                        && tail.ends_with('\'') =>
                {
                    Some(format!("{}'", show_operand(a, src)?))
                }
                (None, _) => {
                    let xs: Option<Vec<String>> = args.iter().map(text).collect();
                    Some(format!("{callee}({})", xs?.join(", ")))
                }
            }
        }
        _ => None,
    }
}

/// An operand of an operator in `@show`'s text: anything but another operator call (whose
/// parenthesisation by precedence is not reproduced).
fn show_operand(e: &Expr, src: &str) -> Option<String> {
    if let ExprKind::Call { func, .. } = &e.kind {
        if func
            .ident()
            .is_some_and(|f| infix_operator(f.as_str()).is_some())
        {
            return None;
        }
    }
    show_text(e, src)
}

/// `name` if it is an operator Julia prints between its operands (`a + b`).
fn infix_operator(name: &str) -> Option<&str> {
    const OPS: &[&str] = &[
        "+", "-", "*", "/", "\\", "^", "%", "÷", "//", "==", "!=", "===", "!==", "<", "<=", ">",
        ">=", "≈", "≤", "≥", "≠", "&", "|", "⊻", "<<", ">>", ">>>", ":", "∈", "∉", "⋅", "×", "!",
        "⊆", "⊇", "⊈", "⊉", "⊊", "⊋", "∪", "∩",
    ];
    OPS.contains(&name).then_some(name)
}

/// `(#c1, ...) -> let var1 = #c1, ...; e end`: the function of one element of each iterator
/// of a comprehension or generator, so that a variable may be a tuple of names.
fn iteration_lambda(vars: &[&Expr], e: &Expr) -> Expr {
    let mut params = Vec::new();
    let mut binds = Vec::new();
    for (k, var) in vars.iter().enumerate() {
        let arg = sym(&format!("#c{}", k + 1));
        binds.push(mk(
            ExprKind::Assign {
                lhs: Box::new((*var).clone()),
                rhs: Box::new(ident(arg, var.span)),
            },
            var.span,
        ));
        params.push(Param {
            name: Some(arg),
            ty: None,
            default: None,
            vararg: false,
            span: var.span,
        });
    }
    lambda_of(
        params,
        mk(
            ExprKind::Let {
                bindings: binds,
                body: vec![e.clone()],
            },
            e.span,
        ),
    )
}
