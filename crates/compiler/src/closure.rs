//! Closure conversion on the AST: which variables an anonymous function captures, which
//! captured variables must live in a box, and the rewriting of its body so that captures are
//! read from the closure object.
//!
//! A lambda becomes a struct type (one type parameter and one field per captured variable,
//! subtype of `Function`) and a method of callable objects of that type whose body reads each
//! capture as `#self#.name` (`#self#.name.contents` when boxed); the lambda expression itself
//! constructs the object from the captured values (see `Lowerer::lambda`). As in Julia, a
//! captured variable is boxed (`Core.Box`, one untyped field) when it is assigned inside some
//! closure, or assigned more than once in the enclosing function, so that every closure and the
//! function see the same, current value.

use rustc_hash::{FxHashMap, FxHashSet};
use syntax::ast::*;
use syntax::{sym, Span, Symbol};

/// A closure type and its call methods (one for an anonymous function, every method of a
/// local named function), made while lowering the function that contains the lambda; the
/// compiler defines them.
#[derive(Clone, Debug)]
pub struct ClosureDef {
    pub ty: StructDef,
    pub methods: Vec<FunctionDef>,
}

/// The name of the closure object inside its method.
pub fn self_name() -> Symbol {
    sym("#self#")
}

/// The field of `Core.Box` holding the value.
pub fn box_field() -> Symbol {
    sym("contents")
}

/// The names an anonymous function binds (its parameters, keyword parameters included) and
/// the code it runs (the parameters' default values, then its body), if `e` is one (`x ->
/// ...`, `function (x) ... end`, a method of a local function).
fn as_lambda(e: &Expr) -> Option<(Vec<Symbol>, Vec<&Expr>)> {
    match &e.kind {
        ExprKind::Lambda(l) => {
            let mut names = param_names(&l.params);
            names.extend(param_names(&l.kwparams));
            let parts = l
                .params
                .iter()
                .chain(&l.kwparams)
                .filter_map(|p| p.default.as_ref())
                .chain([&l.body])
                .collect();
            Some((names, parts))
        }
        ExprKind::Function(def) if matches!(def.name, FnName::Anonymous) => {
            Some((param_names(&def.params), def.body.iter().collect()))
        }
        _ => None,
    }
}

/// Collects the free names of `e` (not in `bound`), first appearance first.
fn free_in(e: &Expr, bound: &mut Vec<Symbol>, out: &mut Vec<Symbol>) {
    // A scope's own names: those it binds, and those its body declares `local`.
    let scoped =
        |bound: &mut Vec<Symbol>, names: Vec<Symbol>, out: &mut Vec<Symbol>, body: &[&Expr]| {
            let n = bound.len();
            bound.extend(names);
            bound.extend(explicit_locals(body.iter().copied()));
            for b in body {
                free_in(b, bound, out);
            }
            bound.truncate(n);
        };
    if let Some((names, body)) = as_lambda(e) {
        scoped(bound, names, out, &body);
        return;
    }
    match &e.kind {
        ExprKind::Ident(n) => {
            if !bound.contains(n) && !out.contains(n) {
                out.push(*n);
            }
        }
        ExprKind::Call {
            func,
            args,
            kwargs,
            do_block: Some(l),
        } => {
            syntax::ast::call_operands(func, args, kwargs, &mut |a| free_in(a, bound, out));
            scoped(bound, param_names(&l.params), out, &[&l.body]);
        }
        ExprKind::For { iters, body } => {
            let mut names = Vec::new();
            for (v, it) in iters {
                free_in(it, bound, out);
                target_names(v, &mut names);
            }
            let body: Vec<&Expr> = body.iter().collect();
            scoped(bound, names, out, &body);
        }
        ExprKind::Comprehension {
            body, iters, cond, ..
        } => {
            let mut names = Vec::new();
            for (v, it) in iters {
                free_in(it, bound, out);
                target_names(v, &mut names);
            }
            let mut inner = vec![&**body];
            inner.extend(cond.as_deref());
            scoped(bound, names, out, &inner);
        }
        ExprKind::Let { bindings, body } => {
            let mut names = Vec::new();
            for b in bindings {
                if let ExprKind::Assign { rhs, .. } = &b.kind {
                    free_in(rhs, bound, out);
                }
                target_names(b, &mut names);
            }
            let body: Vec<&Expr> = body.iter().collect();
            scoped(bound, names, out, &body);
        }
        ExprKind::While { cond, body } => {
            free_in(cond, bound, out);
            let body: Vec<&Expr> = body.iter().collect();
            scoped(bound, Vec::new(), out, &body);
        }
        ExprKind::Global(_) | ExprKind::Function(_) | ExprKind::Struct(_) => {}
        ExprKind::Field { obj, .. } => free_in(obj, bound, out),
        _ => children(e, &mut |c| free_in(c, bound, out)),
    }
}

/// The names an anonymous function with `params` and `body` refers to without binding them
/// itself, first appearance first (its captures, among those that are locals where it is
/// written).
pub fn free_names(params: &[Param], body: &[&Expr]) -> Vec<Symbol> {
    free_names_of(param_names(params), body)
}

/// [`free_names`] of code that binds `bound`.
pub fn free_names_of(mut bound: Vec<Symbol>, body: &[&Expr]) -> Vec<Symbol> {
    bound.extend(explicit_locals(body.iter().copied()));
    let mut out = Vec::new();
    for b in body {
        free_in(b, &mut bound, &mut out);
    }
    out
}

/// Counts assignments to each name outside anonymous functions, and records the lambdas met.
fn scan<'e>(e: &'e Expr, counts: &mut FxHashMap<Symbol, u32>, lambdas: &mut Vec<&'e Expr>) {
    if as_lambda(e).is_some() {
        lambdas.push(e);
        return;
    }
    let mut assigned = Vec::new();
    match &e.kind {
        ExprKind::Assign { lhs, .. } | ExprKind::OpAssign { lhs, .. } => {
            target_names(lhs, &mut assigned)
        }
        ExprKind::For { iters, .. } => iters
            .iter()
            .for_each(|(v, _)| target_names(v, &mut assigned)),
        ExprKind::Call {
            do_block: Some(_), ..
        } => lambdas.push(e),
        // A comprehension's body (and condition) is a function of its iteration variables;
        // its iterables are evaluated here.
        ExprKind::Comprehension { iters, .. } => {
            lambdas.push(e);
            iters.iter().for_each(|(_, it)| scan(it, counts, lambdas));
            return;
        }
        _ => {}
    }
    for n in assigned {
        *counts.entry(n).or_default() += 1;
    }
    children(e, &mut |c| scan(c, counts, lambdas));
}

/// Names assigned anywhere inside `e`.
fn assigned_in(e: &Expr, out: &mut FxHashSet<Symbol>) {
    if let ExprKind::Assign { lhs, .. } | ExprKind::OpAssign { lhs, .. } = &e.kind {
        let mut ns = Vec::new();
        target_names(lhs, &mut ns);
        out.extend(ns);
    }
    children(e, &mut |c| assigned_in(c, out));
}

/// What a scope block's own statements bind, as Julia resolves scopes before running anything:
/// the names assigned or declared `local` directly in the block (in order of first
/// appearance), and the names declared `global` there. Nested scope blocks (loop bodies,
/// `let`, functions, anonymous functions, `do` blocks, comprehensions) are not entered; the
/// parts of them evaluated in this scope (a loop's iterables, a `while` condition, `let`
/// right-hand sides) are.
#[derive(Default, Debug)]
pub struct ScopeNames {
    pub locals: Vec<Symbol>,
    /// Where each of `locals` is first bound (its assignment or `local` declaration).
    pub local_spans: Vec<Span>,
    pub globals: Vec<Symbol>,
}

pub fn scope_names(stmts: &[Expr]) -> ScopeNames {
    fn visit(e: &Expr, out: &mut ScopeNames) {
        if as_lambda(e).is_some() {
            return;
        }
        let push = |names: Vec<Symbol>, span: Span, out: &mut ScopeNames| {
            for n in names {
                if !out.locals.contains(&n) {
                    out.locals.push(n);
                    out.local_spans.push(span);
                }
            }
        };
        match &e.kind {
            ExprKind::Assign { lhs, rhs } | ExprKind::OpAssign { lhs, rhs, .. } => {
                let mut ns = Vec::new();
                target_names(lhs, &mut ns);
                push(ns, e.span, out);
                visit(lhs, out);
                visit(rhs, out);
            }
            ExprKind::Local(decls) => {
                for d in decls {
                    let mut ns = Vec::new();
                    target_names(d, &mut ns);
                    push(ns, d.span, out);
                    if let ExprKind::Assign { rhs, .. } = &d.kind {
                        visit(rhs, out);
                    }
                }
            }
            ExprKind::Global(decls) => {
                for d in decls {
                    let mut ns = Vec::new();
                    target_names(d, &mut ns);
                    for n in ns {
                        if !out.globals.contains(&n) {
                            out.globals.push(n);
                        }
                    }
                    if let ExprKind::Assign { rhs, .. } | ExprKind::OpAssign { rhs, .. } = &d.kind {
                        visit(rhs, out);
                    }
                }
            }
            ExprKind::For { iters, .. } => iters.iter().for_each(|(_, it)| visit(it, out)),
            ExprKind::While { cond, .. } => visit(cond, out),
            ExprKind::Let { bindings, .. } => {
                for b in bindings {
                    if let ExprKind::Assign { rhs, .. } = &b.kind {
                        visit(rhs, out);
                    }
                }
            }
            ExprKind::Comprehension { iters, .. } => {
                // The first iterable is evaluated outside the comprehension's scope.
                if let Some((_, it)) = iters.first() {
                    visit(it, out);
                }
            }
            ExprKind::Call {
                func,
                args,
                kwargs,
                do_block: Some(_),
            } => syntax::ast::call_operands(func, args, kwargs, &mut |a| visit(a, out)),
            ExprKind::Function(_) | ExprKind::Struct(_) | ExprKind::AbstractType { .. } => {}
            _ => children(e, &mut |c| visit(c, out)),
        }
    }
    let mut out = ScopeNames::default();
    for s in stmts {
        visit(s, &mut out);
    }
    let (locals, local_spans) = out
        .locals
        .iter()
        .zip(&out.local_spans)
        .filter(|(n, _)| !out.globals.contains(n))
        .map(|(n, s)| (*n, *s))
        .unzip();
    ScopeNames {
        locals,
        local_spans,
        globals: out.globals,
    }
}

/// The names declared with `local` directly in a scope block (not in nested blocks).
pub fn explicit_locals<'e>(stmts: impl IntoIterator<Item = &'e Expr>) -> Vec<Symbol> {
    fn visit(e: &Expr, out: &mut Vec<Symbol>) {
        match &e.kind {
            ExprKind::Local(decls) => decls.iter().for_each(|d| target_names(d, out)),
            ExprKind::For { .. }
            | ExprKind::While { .. }
            | ExprKind::Let { .. }
            | ExprKind::Comprehension { .. }
            | ExprKind::Lambda(_)
            | ExprKind::Function(_)
            | ExprKind::Struct(_) => {}
            ExprKind::Call {
                do_block: Some(_), ..
            } => {}
            _ => children(e, &mut |c| visit(c, out)),
        }
    }
    let mut out = Vec::new();
    stmts.into_iter().for_each(|s| visit(s, &mut out));
    out
}

/// The variables of a function body (with parameters `params`) that must be boxed: captured by
/// some anonymous function and either assigned inside one or assigned more than once outside.
pub fn boxed_names(params: &[Symbol], body: &[Expr]) -> FxHashSet<Symbol> {
    let mut counts: FxHashMap<Symbol, u32> = FxHashMap::default();
    for p in params {
        *counts.entry(*p).or_default() += 1;
    }
    let mut lambdas = Vec::new();
    for e in body {
        scan(e, &mut counts, &mut lambdas);
    }
    let mut captured: Vec<Symbol> = Vec::new();
    let mut assigned_inside = FxHashSet::default();
    for l in lambdas {
        match (as_lambda(l), &l.kind) {
            (Some((names, body)), _) => {
                captured.extend(free_names_of(names, &body));
                body.iter()
                    .for_each(|b| assigned_in(b, &mut assigned_inside));
            }
            (
                None,
                ExprKind::Call {
                    do_block: Some(d), ..
                },
            ) => {
                captured.extend(free_names(&d.params, &[&d.body]));
                assigned_in(&d.body, &mut assigned_inside);
            }
            (
                None,
                ExprKind::Comprehension {
                    body, iters, cond, ..
                },
            ) => {
                let mut vars = Vec::new();
                iters.iter().for_each(|(v, _)| target_names(v, &mut vars));
                let mut parts = vec![&**body];
                parts.extend(cond.as_deref());
                captured.extend(free_names_of(vars, &parts));
                parts
                    .iter()
                    .for_each(|b| assigned_in(b, &mut assigned_inside));
            }
            _ => {}
        }
    }
    let mut self_ref = FxHashSet::default();
    for e in body {
        self_referencing(e, &mut self_ref);
    }
    captured
        .into_iter()
        .filter(|n| {
            let c = counts.get(n).copied().unwrap_or(0);
            c >= 1 && (c >= 2 || assigned_inside.contains(n) || self_ref.contains(n))
        })
        .collect()
}

/// Names assigned a closure that refers to the name itself (`fib = n -> ... fib(n - 1)`, a
/// recursive local function): the closure must capture the variable, not its value, which
/// is not yet assigned when the closure is made.
fn self_referencing(e: &Expr, out: &mut FxHashSet<Symbol>) {
    if let ExprKind::Assign { lhs, rhs } = &e.kind {
        if let (ExprKind::Ident(n), Some((names, body))) = (&lhs.kind, as_lambda(rhs)) {
            if free_names_of(names, &body).contains(n) {
                out.insert(*n);
            }
        }
    }
    children(e, &mut |c| self_referencing(c, out));
}

/// `e` with each free occurrence of a name in `map` replaced by `map[name]` (given the span of
/// the occurrence). Names bound inside `e` (parameters of nested lambdas, loop variables, `let`)
/// are left alone where they are bound.
pub fn rewrite(
    e: &Expr,
    map: &dyn Fn(Symbol, Span) -> Option<Expr>,
    bound: &mut Vec<Symbol>,
) -> Expr {
    let mut out = e.clone();
    rewrite_in(&mut out, map, bound);
    out
}

fn rewrite_in(e: &mut Expr, map: &dyn Fn(Symbol, Span) -> Option<Expr>, bound: &mut Vec<Symbol>) {
    let n0 = bound.len();
    match &mut e.kind {
        ExprKind::Ident(n) => {
            if !bound.contains(n) {
                if let Some(r) = map(*n, e.span) {
                    *e = r;
                }
            }
            return;
        }
        ExprKind::Lambda(l) => {
            bound.extend(param_names(&l.params));
            bound.extend(param_names(&l.kwparams));
            for p in l.params.iter_mut().chain(l.kwparams.iter_mut()) {
                if let Some(d) = &mut p.default {
                    rewrite_in(d, map, bound);
                }
            }
            bound.extend(explicit_locals([&l.body]));
            rewrite_in(&mut l.body, map, bound);
        }
        ExprKind::Function(def) if matches!(def.name, FnName::Anonymous) => {
            bound.extend(param_names(&def.params));
            bound.extend(explicit_locals(&def.body));
            def.body.iter_mut().for_each(|b| rewrite_in(b, map, bound));
        }
        ExprKind::Call {
            func,
            args,
            kwargs,
            do_block,
        } => {
            rewrite_in(func, map, bound);
            args.iter_mut().for_each(|a| rewrite_in(a, map, bound));
            kwargs
                .iter_mut()
                .for_each(|k| rewrite_in(&mut k.value, map, bound));
            if let Some(l) = do_block {
                bound.extend(param_names(&l.params));
                bound.extend(explicit_locals([&l.body]));
                rewrite_in(&mut l.body, map, bound);
            }
        }
        ExprKind::For { iters, body } => {
            let mut names = Vec::new();
            for (v, it) in iters.iter_mut() {
                rewrite_in(it, map, bound);
                target_names(v, &mut names);
            }
            bound.extend(names);
            bound.extend(explicit_locals(&*body));
            body.iter_mut().for_each(|b| rewrite_in(b, map, bound));
        }
        ExprKind::While { cond, body } => {
            rewrite_in(cond, map, bound);
            bound.extend(explicit_locals(&*body));
            body.iter_mut().for_each(|b| rewrite_in(b, map, bound));
        }
        ExprKind::Comprehension {
            body, iters, cond, ..
        } => {
            let mut names = Vec::new();
            for (v, it) in iters.iter_mut() {
                rewrite_in(it, map, bound);
                target_names(v, &mut names);
            }
            bound.extend(names);
            rewrite_in(body, map, bound);
            if let Some(c) = cond {
                rewrite_in(c, map, bound);
            }
        }
        ExprKind::Let { bindings, body } => {
            let mut names = Vec::new();
            for b in bindings.iter_mut() {
                if let ExprKind::Assign { rhs, .. } = &mut b.kind {
                    rewrite_in(rhs, map, bound);
                }
                target_names(b, &mut names);
            }
            bound.extend(names);
            bound.extend(explicit_locals(&*body));
            body.iter_mut().for_each(|b| rewrite_in(b, map, bound));
        }
        ExprKind::Field { obj, .. } => rewrite_in(obj, map, bound),
        ExprKind::NamedTuple(kvs) => kvs.iter_mut().for_each(|(_, x)| rewrite_in(x, map, bound)),
        ExprKind::Global(_) | ExprKind::Function(_) | ExprKind::Struct(_) => {}
        _ => children_mut(e, &mut |c| rewrite_in(c, map, bound)),
    }
    bound.truncate(n0);
}

/// `children`, mutably.
pub(crate) fn children_mut(e: &mut Expr, f: &mut dyn FnMut(&mut Expr)) {
    use ExprKind::*;
    match &mut e.kind {
        Int(_)
        | Float(_)
        | Float32(_)
        | Bool(_)
        | Nothing
        | Ident(_)
        | QuoteSym(_)
        | End
        | Begin
        | Colon
        | Break
        | Continue
        | Using { .. }
        | Error => {}
        Str(segs) => {
            for s in segs {
                if let StrSeg::Expr(x) = s {
                    f(x)
                }
            }
        }
        Call {
            func,
            args,
            kwargs,
            do_block,
        } => {
            f(func);
            args.iter_mut().for_each(&mut *f);
            kwargs.iter_mut().for_each(|k| f(&mut k.value));
            if let Some(l) = do_block {
                f(&mut l.body);
            }
        }
        DotCall { func, args, kwargs } => {
            f(func);
            args.iter_mut().for_each(&mut *f);
            kwargs.iter_mut().for_each(|k| f(&mut k.value));
        }
        And(a, b) | Or(a, b) => {
            f(a);
            f(b);
        }
        Comparison { first, rest } => {
            f(first);
            rest.iter_mut().for_each(|(_, _, x)| f(x));
        }
        Ternary { cond, then, else_ } => {
            f(cond);
            f(then);
            f(else_);
        }
        Assign { lhs, rhs } | OpAssign { lhs, rhs, .. } | DotAssign { lhs, rhs, .. } => {
            f(lhs);
            f(rhs);
        }
        Tuple(es) | Vect(es) | Block(es) | Local(es) | Global(es) => es.iter_mut().for_each(f),
        NamedTuple(kvs) => kvs.iter_mut().for_each(|(_, x)| f(x)),
        Matrix(rows) => rows.iter_mut().flatten().for_each(f),
        TypedMatrix(t, rows) => {
            f(t);
            rows.iter_mut().flatten().for_each(f);
        }
        Index { obj, indices } => {
            f(obj);
            indices.iter_mut().for_each(f);
        }
        Field { obj, .. } => f(obj),
        Curly { base, params } => {
            f(base);
            params.iter_mut().for_each(f);
        }
        SubtypeBound(x) | Splat(x) | Const(x) => f(x),
        TypeAssert { expr, ty } => {
            f(expr);
            f(ty);
        }
        Where { expr, .. } => f(expr),
        Lambda(l) => f(&mut l.body),
        If { cond, then, else_ } => {
            f(cond);
            then.iter_mut().for_each(&mut *f);
            if let Some(x) = else_ {
                f(x);
            }
        }
        While { cond, body } => {
            f(cond);
            body.iter_mut().for_each(f);
        }
        For { iters, body } => {
            iters.iter_mut().for_each(|(v, it)| {
                f(v);
                f(it);
            });
            body.iter_mut().for_each(f);
        }
        Return(x) => {
            if let Some(x) = x {
                f(x)
            }
        }
        Let { bindings, body } => {
            bindings.iter_mut().for_each(&mut *f);
            body.iter_mut().for_each(f);
        }
        Function(def) => def.body.iter_mut().for_each(f),
        Struct(_) | AbstractType { .. } => {}
        Macro { args, .. } => args.iter_mut().for_each(f),
        Comprehension {
            body, iters, cond, ..
        } => {
            iters.iter_mut().for_each(|(v, it)| {
                f(v);
                f(it);
            });
            f(body);
            if let Some(c) = cond {
                f(c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{expect, Expect};

    /// For the one function in `src`: its boxed variables, then each lambda's free names.
    fn check(src: &str, expect: Expect) {
        let (file, diags) = syntax::parse_file(src, syntax::FileId(0));
        assert!(diags.is_empty(), "{diags:?}");
        let ExprKind::Function(def) = &file.items[0].kind else {
            panic!("expected a function")
        };
        let params: Vec<Symbol> = def.params.iter().filter_map(|p| p.name).collect();
        let mut boxed: Vec<String> = boxed_names(&params, &def.body)
            .iter()
            .map(|s| s.to_string())
            .collect();
        boxed.sort();
        let mut out = format!("boxed: {}\n", boxed.join(" "));
        let mut counts = FxHashMap::default();
        let mut lambdas = Vec::new();
        def.body
            .iter()
            .for_each(|e| scan(e, &mut counts, &mut lambdas));
        for l in lambdas {
            let free = match (as_lambda(l), &l.kind) {
                (Some((names, body)), _) => free_names_of(names, &body),
                (
                    None,
                    ExprKind::Call {
                        do_block: Some(d), ..
                    },
                ) => free_names(&d.params, &[&d.body]),
                _ => vec![],
            };
            let names: Vec<String> = free.iter().map(|s| s.to_string()).collect();
            out += &format!("lambda: {}\n", names.join(" "));
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn read_only_captures_are_not_boxed() {
        check(
            "function f(v, a)\n    b = 2a\n    map(x -> a * x + b, v)\nend",
            expect![[r#"
                boxed: 
                lambda: + * a b
            "#]],
        );
    }

    #[test]
    fn assigned_inside_a_closure_is_boxed() {
        check(
            "function f(v)\n    s = 0.0\n    foreach(v) do x\n        s += x\n    end\n    s\nend",
            expect![[r#"
                boxed: s
                lambda: s
            "#]],
        );
    }

    #[test]
    fn assigned_twice_outside_is_boxed() {
        check(
            "function f()\n    a = 1.0\n    g = x -> a * x\n    a = 2.0\n    g(1.0)\nend",
            expect![[r#"
                boxed: a
                lambda: * a
            "#]],
        );
    }

    #[test]
    fn loop_variables_and_nested_parameters_are_bound() {
        check(
            "function f(n)\n    g = y -> (for i in 1:n\n        y += i\n    end; z -> z + y)\n    g(1)\nend",
            expect![[r#"
                boxed: 
                lambda: : n +
            "#]],
        );
    }
}
