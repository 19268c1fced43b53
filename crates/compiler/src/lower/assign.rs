//! Assignment forms: to names, fields, indices and tuples; updating operators (`+=`); and
//! broadcasting assignment into an indexed location (`x[i] .= v`).

use super::*;

impl<'a> Lowerer<'a> {
    pub(super) fn assign(&mut self, lhs: &Expr, v: Value, sp: Span) -> Result<(), CompileError> {
        match &lhs.kind {
            ExprKind::Ident(n) => self.assign_name(*n, v, sp),
            ExprKind::TypeAssert { expr, ty } if expr.ident().is_some() => {
                let n = expr.ident().unwrap_or_else(|| sym("_"));
                let s = match self.scopes.last().and_then(|s| s.vars.get(&n)).copied() {
                    Some(s) => s,
                    None => {
                        if self.toplevel && self.scopes.len() == 1 {
                            return Err(CompileError::unsupported(
                                lhs.span,
                                "type declarations on global variables",
                            ));
                        }
                        self.declare_local(n)
                    }
                };
                self.slot_types.insert(s, (**ty).clone());
                let v = self.convert_for_slot(s, v, sp)?;
                self.set_slot(s, v, sp);
                Ok(())
            }
            ExprKind::Tuple(elems) => self.destructure(elems, v, |l, el, x| l.assign(el, x, sp)),
            ExprKind::Index { obj, indices }
                if indices.iter().any(|i| matches!(i.kind, ExprKind::Splat(_))) =>
            {
                let o = self.expr(obj)?;
                self.splatted_index_call("setindex!", vec![o, v], indices, sp)?;
                Ok(())
            }
            ExprKind::Index { obj, indices } => {
                let (o, idx) = self.index_operands(obj, indices)?;
                let mut args = vec![o, v];
                args.extend(idx);
                self.call("setindex!", args, sp);
                Ok(())
            }
            ExprKind::Field { obj, name } => {
                let o = self.expr(obj)?;
                self.emit_stmt(
                    InstData::SetField {
                        obj: o,
                        field: FieldRef::Name(*name),
                        val: v,
                    },
                    sp,
                );
                Ok(())
            }
            _ => Err(CompileError::invalid(lhs.span, "invalid assignment target")),
        }
    }

    /// The target of a top-level `const` assignment: names, tuples of them (`const a, b = 1,
    /// 2`) and typed names (`const x::Float64 = 1`, whose value is converted to the type).
    pub(super) fn assign_const(
        &mut self,
        lhs: &Expr,
        v: Value,
        sp: Span,
    ) -> Result<(), CompileError> {
        match &lhs.kind {
            ExprKind::TypeAssert { expr, ty } => {
                let Some(n) = expr.ident() else {
                    return Err(CompileError::invalid(
                        lhs.span,
                        "expected identifier after \"const\"",
                    ));
                };
                let v = self.convert_to(ty, v, sp)?;
                self.assign_name(n, v, sp)
            }
            ExprKind::Tuple(elems) => {
                self.destructure(elems, v, |l, el, x| l.assign_const(el, x, sp))
            }
            ExprKind::Ident(n) => self.assign_name(*n, v, sp),
            _ => Err(CompileError::invalid(
                lhs.span,
                "expected identifier after \"const\"",
            )),
        }
    }

    /// `a, b, c = v` (also a loop variable's tuple), as Julia lowers it: element k and the
    /// state for the next come from `indexed_iterate(v, k[, state])`, and each element is
    /// bound by `bind` before the next is taken.
    pub(super) fn destructure(
        &mut self,
        elems: &[Expr],
        v: Value,
        mut bind: impl FnMut(&mut Self, &Expr, Value) -> Result<(), CompileError>,
    ) -> Result<(), CompileError> {
        let mut state = None;
        for (i, el) in elems.iter().enumerate() {
            // `a, rest... = x`: the last name takes what is left (Julia's `Base.rest`).
            if let ExprKind::Splat(inner) = &el.kind {
                if i + 1 != elems.len() {
                    return Err(CompileError::unsupported(
                        el.span,
                        "slurping (`...`) before the last name of a destructuring",
                    ));
                }
                let k = self.konst(Const::Int(i as i64 + 1), el.span);
                let st = match state {
                    Some(st) => st,
                    None => self.nothing(el.span),
                };
                let rest = self.call("_slurp", vec![v, k, st], el.span);
                return bind(self, inner, rest);
            }
            let k = self.konst(Const::Int(i as i64 + 1), el.span);
            let mut args = vec![v, k];
            args.extend(state);
            let pair = self.call("indexed_iterate", args, el.span);
            let x = self.emit(
                InstData::GetField {
                    obj: pair,
                    field: FieldRef::Index(0),
                },
                el.span,
            );
            if i + 1 < elems.len() {
                state = Some(self.emit(
                    InstData::GetField {
                        obj: pair,
                        field: FieldRef::Index(1),
                    },
                    el.span,
                ));
            }
            bind(self, el, x)?;
        }
        Ok(())
    }

    pub(super) fn op_assign(
        &mut self,
        op: Symbol,
        lhs: &Expr,
        rhs: &Expr,
        sp: Span,
    ) -> Result<Value, CompileError> {
        match &lhs.kind {
            ExprKind::Index { obj, indices } => {
                // Evaluate the array and the indices once.
                let (o, idx) = self.index_operands(obj, indices)?;
                let mut gargs = vec![o];
                gargs.extend(idx.iter().copied());
                let old = self.call("getindex", gargs, lhs.span);
                let r = self.expr(rhs)?;
                let new = self.call(op.as_str(), vec![old, r], sp);
                let mut sargs = vec![o, new];
                sargs.extend(idx);
                self.call("setindex!", sargs, sp);
                Ok(new)
            }
            ExprKind::Field { obj, name } => {
                let o = self.expr(obj)?;
                let old = self.emit(
                    InstData::GetField {
                        obj: o,
                        field: FieldRef::Name(*name),
                    },
                    lhs.span,
                );
                let r = self.expr(rhs)?;
                let new = self.call(op.as_str(), vec![old, r], sp);
                self.emit_stmt(
                    InstData::SetField {
                        obj: o,
                        field: FieldRef::Name(*name),
                        val: new,
                    },
                    sp,
                );
                Ok(new)
            }
            ExprKind::Ident(_) => {
                let old = self.expr(lhs)?;
                let r = self.expr(rhs)?;
                let new = self.call(op.as_str(), vec![old, r], sp);
                self.assign(lhs, new, sp)?;
                Ok(new)
            }
            _ => Err(CompileError::invalid(
                lhs.span,
                "invalid target of an updating operator",
            )),
        }
    }

    /// `y[I...] .= rhs` (and `.op=`), as Julia's `broadcast!` into `dotview(y, I...)` (a view
    /// of `y`, the expression's value). `y` and the indices are evaluated once.
    pub(super) fn indexed_dot_assign(
        &mut self,
        op: Symbol,
        lhs: &Expr,
        rhs: &Expr,
        sp: Span,
    ) -> Result<Value, CompileError> {
        let ExprKind::Index { obj, indices } = &lhs.kind else {
            return Err(CompileError::invalid(
                lhs.span,
                "expected an indexed target",
            ));
        };
        let (o, idx) = self.index_operands(obj, indices)?;
        let mut args = vec![o];
        args.extend(idx);
        let view = self.call("_dotview", args.clone(), lhs.span);
        // The selection is a variable the fused broadcast writes into (and, for `.op=`,
        // reads).
        self.tmp_counter += 1;
        let name = sym(&format!("#dotview{}", self.tmp_counter));
        let s = self.declare_local(name);
        self.set_slot(s, view, lhs.span);
        let dest = ident(name, lhs.span);
        let rhs = if op.as_str() == ".=" {
            rhs.clone()
        } else {
            call_ast(ident(op, sp), vec![dest.clone(), rhs.clone()], sp)
        };
        self.broadcast(&rhs, Some(&dest), sp)?;
        Ok(self.get_slot(s, sp))
    }
}
