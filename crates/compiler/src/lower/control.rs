//! Control flow: `&&`/`||`, chained comparisons, `if`, `while`, `for`, `break`/`continue`
//! and `return`.

use super::*;

impl<'a> Lowerer<'a> {
    pub(super) fn short_circuit(
        &mut self,
        a: &Expr,
        b: &Expr,
        is_and: bool,
        sp: Span,
    ) -> Result<Value, CompileError> {
        let tmp = self.temp_slot(if is_and { "and" } else { "or" });
        let ca = self.cond(a)?;
        let rhs = self.f.add_block();
        let short = self.f.add_block();
        let join = self.f.add_block();
        if is_and {
            self.branch(ca, rhs, short, sp);
        } else {
            self.branch(ca, short, rhs, sp);
        }
        self.cur = rhs;
        let vb = self.expr(b)?;
        self.set_slot(tmp, vb, sp);
        self.jump(join, sp);
        self.cur = short;
        let c = self.konst(Const::Bool(!is_and), sp);
        self.set_slot(tmp, c, sp);
        self.jump(join, sp);
        self.cur = join;
        Ok(self.get_slot(tmp, sp))
    }

    pub(super) fn comparison(
        &mut self,
        first: &Expr,
        rest: &[(Symbol, Span, Expr)],
        sp: Span,
    ) -> Result<Value, CompileError> {
        // a < b <= c  is  (a < b) && (b <= c), each operand evaluated once.
        let tmp = self.temp_slot("cmp");
        let join = self.f.add_block();
        let mut lhs = self.expr(first)?;
        for (k, (op, osp, rhs_e)) in rest.iter().enumerate() {
            let rhs = self.expr(rhs_e)?;
            let r = self.call(op.as_str(), vec![lhs, rhs], *osp);
            if k + 1 == rest.len() {
                self.set_slot(tmp, r, sp);
                self.jump(join, sp);
            } else {
                let c = self.emit(
                    InstData::TypeAssert {
                        val: r,
                        ty: Type::Bool,
                    },
                    *osp,
                );
                let next = self.f.add_block();
                let fail = self.f.add_block();
                self.branch(c, next, fail, sp);
                self.cur = fail;
                let fv = self.konst(Const::Bool(false), sp);
                self.set_slot(tmp, fv, sp);
                self.jump(join, sp);
                self.cur = next;
            }
            lhs = rhs;
        }
        self.cur = join;
        Ok(self.get_slot(tmp, sp))
    }

    /// `break` (to the loop's exit) or `continue` (to its next iteration).
    pub(super) fn loop_exit(&mut self, is_break: bool, sp: Span) -> Result<Value, CompileError> {
        let what = if is_break { "break" } else { "continue" };
        let Some(t) = self.loops.last() else {
            return Err(CompileError::invalid(
                sp,
                format!("`{what}` outside a loop"),
            ));
        };
        let dest = if is_break { t.brk } else { t.cont };
        self.terminate(InstData::Jump { dest, args: vec![] }, sp);
        Ok(self.nothing(sp))
    }

    pub(super) fn if_expr<T, E>(
        &mut self,
        cond: &Expr,
        then: T,
        else_: E,
        sp: Span,
    ) -> Result<Value, CompileError>
    where
        T: FnOnce(&mut Self) -> Result<Value, CompileError>,
        E: FnOnce(&mut Self) -> Result<Value, CompileError>,
    {
        let tmp = self.temp_slot("if");
        let c = self.cond(cond)?;
        let tb = self.f.add_block();
        let eb = self.f.add_block();
        let join = self.f.add_block();
        self.branch(c, tb, eb, sp);
        self.cur = tb;
        let tv = then(self)?;
        self.set_slot(tmp, tv, sp);
        self.jump(join, sp);
        self.cur = eb;
        let ev = else_(self)?;
        self.set_slot(tmp, ev, sp);
        self.jump(join, sp);
        self.cur = join;
        Ok(self.get_slot(tmp, sp))
    }

    pub(super) fn while_loop(
        &mut self,
        cond: &Expr,
        body: &[Expr],
        sp: Span,
    ) -> Result<Value, CompileError> {
        let header = self.f.add_block();
        let bodyb = self.f.add_block();
        let exit = self.f.add_block();
        self.jump(header, sp);
        self.cur = header;
        let c = self.cond(cond)?;
        self.branch(c, bodyb, exit, sp);
        self.cur = bodyb;
        self.loops.push(LoopTargets {
            brk: exit,
            cont: header,
        });
        let r = self.scoped_block(body);
        self.loops.pop();
        r?;
        self.jump(header, sp);
        self.cur = exit;
        Ok(self.nothing(sp))
    }

    /// `for a in A, b in B ... end`: nested loops; `break` leaves all of them.
    pub(super) fn for_loop(
        &mut self,
        iters: &[(Expr, Expr)],
        body: &[Expr],
        exit: Block,
        sp: Span,
    ) -> Result<(), CompileError> {
        let (var, iter_e) = &iters[0];
        let it = self.expr(iter_e)?;
        let st_slot = self.temp_slot("st");
        let st0 = self.call("iterate_start", vec![it], iter_e.span);
        self.set_slot(st_slot, st0, iter_e.span);
        let header = self.f.add_block();
        let bodyb = self.f.add_block();
        let latch = self.f.add_block();
        let done_b = self.f.add_block();
        self.jump(header, sp);
        self.cur = header;
        let st = self.get_slot(st_slot, sp);
        let done = self.call("iterate_done", vec![it, st], iter_e.span);
        let done = self.emit(
            InstData::TypeAssert {
                val: done,
                ty: Type::Bool,
            },
            iter_e.span,
        );
        self.branch(done, done_b, bodyb, sp);
        self.cur = bodyb;
        self.scopes.push(Scope {
            vars: FxHashMap::default(),
            hard: false,
        });
        let r = (|| -> Result<(), CompileError> {
            let st = self.get_slot(st_slot, sp);
            let pair = self.call("iterate_next", vec![it, st], iter_e.span);
            let x = self.emit(
                InstData::GetField {
                    obj: pair,
                    field: FieldRef::Index(0),
                },
                iter_e.span,
            );
            let st2 = self.emit(
                InstData::GetField {
                    obj: pair,
                    field: FieldRef::Index(1),
                },
                iter_e.span,
            );
            self.set_slot(st_slot, st2, iter_e.span);
            self.bind_loop_var(var, x)?;
            if iters.len() > 1 {
                // The inner loop's exhaustion continues the outer loop.
                self.for_loop(&iters[1..], body, exit, sp)?;
                self.jump(latch, sp);
            } else {
                self.loops.push(LoopTargets {
                    brk: exit,
                    cont: latch,
                });
                self.predeclare(body);
                let r = self.block(body);
                self.loops.pop();
                r?;
                self.jump(latch, sp);
            }
            Ok(())
        })();
        self.scopes.pop();
        r?;
        self.cur = latch;
        self.jump(header, sp);
        self.cur = done_b;
        Ok(())
    }

    /// Loop variables are new locals of the loop scope, even when an outer local has the same
    /// name (as in Julia, without `outer`); a tuple destructures.
    pub(super) fn bind_loop_var(&mut self, var: &Expr, x: Value) -> Result<(), CompileError> {
        match &var.kind {
            ExprKind::Ident(n) => {
                let s = self.declare_local(*n);
                self.set_slot(s, x, var.span);
                Ok(())
            }
            ExprKind::Tuple(elems) => {
                self.destructure(elems, x, |l, el, xi| l.bind_loop_var(el, xi))
            }
            _ => Err(CompileError::invalid(
                var.span,
                "expected a loop variable name or a tuple of names",
            )),
        }
    }

    pub(super) fn ret(&mut self, v: Value, sp: Span) -> Result<(), CompileError> {
        let v = match self.ret_type.clone() {
            Some(t) => self.convert_to(&t, v, sp)?,
            None => v,
        };
        self.terminate(InstData::Return(v), sp);
        Ok(())
    }
}
