//! Which global variables a program binds once: a global assigned at exactly one place of the
//! top-level code, a place that runs at most once (not in a loop body, and not through a
//! `global` declaration inside a function, `let`, comprehension or other local scope).
//!
//! Once that assignment has run, the variable's value (and so its type) cannot change for the
//! rest of the program, so inference may use it as it uses a `const`'s. The scan is
//! conservative: anything it cannot prove runs at most once counts as many assignments. A new
//! statement that assigns a global bound so far makes it an ordinary global again; the
//! compiler then forgets the code that relied on it (between top-level statements, when no
//! such code is running).

use rustc_hash::FxHashMap;
use syntax::ast::{children, target_names, Expr, ExprKind};
use syntax::Symbol;

/// How many places of the program's text may assign a global.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sites {
    /// One assignment, at a place that runs at most once.
    Once,
    /// Several assignments, or one that may run repeatedly.
    Many,
}

/// Where a subexpression sits.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Top-level code that runs at most once (statements, `begin` blocks, `if` branches).
    Top,
    /// A loop of top-level code (its soft scope may assign globals, repeatedly).
    Loop,
    /// A local scope (function, anonymous function, `let`, comprehension): an assignment
    /// there is local unless the name is declared `global`.
    Local,
}

/// Adds the global assignments of one top-level statement to `sites`, and returns the names
/// the statement assigns.
pub fn note_statement(stmt: &Expr, sites: &mut FxHashMap<Symbol, Sites>) -> Vec<Symbol> {
    let mut seen = Vec::new();
    visit(stmt, Place::Top, &mut |name, once| {
        let s = match sites.get(&name) {
            None if once => Sites::Once,
            _ => Sites::Many,
        };
        sites.insert(name, s);
        if !seen.contains(&name) {
            seen.push(name);
        }
    });
    seen
}

/// Calls `note(name, once)` for every assignment of a global `name` in `e`.
fn visit(e: &Expr, place: Place, note: &mut dyn FnMut(Symbol, bool)) {
    let inner = |place: Place| {
        if place == Place::Local {
            Place::Local
        } else {
            Place::Loop
        }
    };
    match &e.kind {
        ExprKind::Assign { lhs, rhs } | ExprKind::OpAssign { lhs, rhs, .. } => {
            if place != Place::Local {
                let mut names = Vec::new();
                assigned_names(lhs, &mut names);
                for n in names {
                    note(n, place == Place::Top);
                }
            }
            visit(lhs, place, note);
            visit(rhs, place, note);
        }
        ExprKind::Global(decls) => {
            // At top level a declaration changes nothing; elsewhere it lets the local scope
            // assign the global, however often.
            if place != Place::Top {
                for d in decls {
                    let mut names = Vec::new();
                    target_names(d, &mut names);
                    names.into_iter().for_each(|n| note(n, false));
                }
            }
            decls.iter().for_each(|d| visit(d, place, note));
        }
        // A constant is a binding of its own kind (redefining it is an error).
        ExprKind::Const(inner_e) => match &inner_e.kind {
            ExprKind::Assign { lhs, rhs } => {
                visit(lhs, place, note);
                visit(rhs, place, note);
            }
            _ => visit(inner_e, place, note),
        },
        ExprKind::For { iters, body } => {
            // The first iterable runs once; the others once per iteration of the outer ones.
            for (k, (v, it)) in iters.iter().enumerate() {
                visit(v, inner(place), note);
                visit(it, if k == 0 { place } else { inner(place) }, note);
            }
            body.iter().for_each(|s| visit(s, inner(place), note));
        }
        ExprKind::While { cond, body } => {
            visit(cond, inner(place), note);
            body.iter().for_each(|s| visit(s, inner(place), note));
        }
        ExprKind::Let { bindings, body } => {
            // Right-hand sides run in the enclosing scope.
            for b in bindings {
                match &b.kind {
                    ExprKind::Assign { lhs, rhs } => {
                        visit(lhs, Place::Local, note);
                        visit(rhs, place, note);
                    }
                    _ => visit(b, Place::Local, note),
                }
            }
            body.iter().for_each(|s| visit(s, Place::Local, note));
        }
        ExprKind::Comprehension {
            body, iters, cond, ..
        } => {
            for (k, (v, it)) in iters.iter().enumerate() {
                visit(v, Place::Local, note);
                visit(it, if k == 0 { place } else { Place::Local }, note);
            }
            visit(body, Place::Local, note);
            if let Some(c) = cond {
                visit(c, Place::Local, note);
            }
        }
        ExprKind::Call {
            func,
            args,
            kwargs,
            do_block: Some(l),
        } => {
            syntax::ast::call_operands(func, args, kwargs, &mut |a| visit(a, place, note));
            lambda(l, note);
        }
        ExprKind::Lambda(l) => lambda(l, note),
        ExprKind::Function(def) => function(def, note),
        ExprKind::Struct(def) => def.constructors.iter().for_each(|c| function(c, note)),
        _ => children(e, &mut |c| visit(c, place, note)),
    }
}

fn lambda(l: &syntax::ast::Lambda, note: &mut dyn FnMut(Symbol, bool)) {
    params(&l.params, note);
    params(&l.kwparams, note);
    visit(&l.body, Place::Local, note);
}

fn function(def: &syntax::ast::FunctionDef, note: &mut dyn FnMut(Symbol, bool)) {
    params(&def.params, note);
    params(&def.kwparams, note);
    def.body.iter().for_each(|s| visit(s, Place::Local, note));
}

/// Default values are evaluated inside the function's scope.
fn params(ps: &[syntax::ast::Param], note: &mut dyn FnMut(Symbol, bool)) {
    for p in ps {
        if let Some(d) = &p.default {
            visit(d, Place::Local, note);
        }
    }
}

/// The variables an assignment's left-hand side binds: `x`, `a, b`, `x::T`, `a, b...`, and
/// the names of a property destructuring `(; a, b)`. An indexed or field target (`x[i]`,
/// `x.a`) mutates a value and binds nothing.
fn assigned_names(lhs: &Expr, out: &mut Vec<Symbol>) {
    match &lhs.kind {
        ExprKind::Ident(n) => out.push(*n),
        ExprKind::Tuple(es) => es.iter().for_each(|x| assigned_names(x, out)),
        ExprKind::TypeAssert { expr, .. } | ExprKind::Splat(expr) => assigned_names(expr, out),
        ExprKind::NamedTuple(kvs) => {
            for (k, v) in kvs {
                out.push(*k);
                assigned_names(v, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{expect, Expect};

    fn check(src: &str, expect: Expect) {
        let file = syntax::FileId(0);
        let (ast, diags) = syntax::parse_file(src, file);
        assert!(diags.is_empty(), "{diags:?}");
        let mut sites = FxHashMap::default();
        for item in &ast.items {
            note_statement(item, &mut sites);
        }
        let mut rows: Vec<String> = sites.iter().map(|(n, s)| format!("{n}: {s:?}")).collect();
        rows.sort();
        expect.assert_eq(&rows.join("\n"));
    }

    #[test]
    fn top_level_statements_bind_once() {
        check(
            "X = [1.0 2.0]\ny = 2\nif true\n    z = 1\nend\na, b = 1, 2\nw::Float64 = 1.0",
            expect![[r#"
                X: Once
                a: Once
                b: Once
                w: Once
                y: Once
                z: Once"#]],
        );
    }

    #[test]
    fn a_second_assignment_or_an_update_is_many() {
        check(
            "k = 0\nk += 1\nm = 1\nm = 2\nv = [1.0]\nv[1] = 2.0\nv .= 3.0",
            expect![[r#"
                k: Many
                m: Many
                v: Once"#]],
        );
    }

    #[test]
    fn loops_of_top_level_code_assign_repeatedly() {
        check(
            "s = 0.0\nfor i in 1:3\n    t = i\nend\nwhile false\n    u = 1\nend",
            expect![[r#"
                s: Once
                t: Many
                u: Many"#]],
        );
    }

    #[test]
    fn local_scopes_assign_globals_only_when_declared() {
        check(
            "y = 1\nf(x) = (y = x; y)\nc = 0\nfunction g()\n    global c\n    c = 1\nend\nlet d = 2\n    e = 3\nend\nh = () -> (global q = 1)\nr = [(p = i) for i in 1:2]",
            expect![[r#"
                c: Many
                h: Once
                q: Many
                r: Once
                y: Once"#]],
        );
    }

    #[test]
    fn struct_constructors_and_defaults_are_local_scopes() {
        check(
            "struct P\n    a\n    P() = (global n = 1; new(1))\nend\nf(x = (global m = 2)) = x",
            expect![[r#"
                m: Many
                n: Many"#]],
        );
    }

    #[test]
    fn let_right_hand_sides_run_in_the_enclosing_scope() {
        check(
            "let a = (b = 1)\n    a\nend",
            expect![[r#"
                b: Once"#]],
        );
    }
}
