//! Compact S-expression rendering of the AST, for tests and `mooncake ir --stage ast`.

use crate::ast::*;
use std::fmt::Write;

pub fn render_file(f: &SourceFile) -> String {
    let mut out = String::new();
    for item in &f.items {
        out.push_str(&render(item));
        out.push('\n');
    }
    out
}

pub fn render(e: &Expr) -> String {
    let mut s = String::new();
    go(e, &mut s);
    s
}

fn list(out: &mut String, head: &str, items: &[Expr]) {
    out.push('(');
    out.push_str(head);
    for i in items {
        out.push(' ');
        go(i, out);
    }
    out.push(')');
}

fn block(out: &mut String, items: &[Expr]) {
    list(out, "block", items)
}

fn params(out: &mut String, ps: &[Param]) {
    out.push('(');
    for (i, p) in ps.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match &p.name {
            Some(n) => out.push_str(n.as_str()),
            None => out.push('_'),
        }
        if let Some(t) = &p.ty {
            out.push_str("::");
            go(t, out);
        }
        if let Some(d) = &p.default {
            out.push('=');
            go(d, out);
        }
        if p.vararg {
            out.push_str("...");
        }
    }
    out.push(')');
}

fn go(e: &Expr, out: &mut String) {
    match &e.kind {
        ExprKind::Int(i) => {
            let _ = write!(out, "{i}");
        }
        ExprKind::Float(f) => {
            let _ = write!(out, "{f:?}");
        }
        ExprKind::Float32(f) => {
            let _ = write!(out, "{f:?}f0");
        }
        ExprKind::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        ExprKind::Nothing => out.push_str("nothing"),
        ExprKind::Str(segs) => {
            out.push_str("(str");
            for s in segs {
                out.push(' ');
                match s {
                    StrSeg::Lit(l) => {
                        let _ = write!(out, "{l:?}");
                    }
                    StrSeg::Expr(e) => go(e, out),
                }
            }
            out.push(')');
        }
        ExprKind::Ident(s) => out.push_str(s.as_str()),
        ExprKind::End => out.push_str("end"),
        ExprKind::Begin => out.push_str("begin"),
        ExprKind::Colon => out.push_str("(:)"),
        ExprKind::QuoteSym(name) => {
            out.push(':');
            out.push_str(name.as_str());
        }
        ExprKind::Call {
            func,
            args,
            kwargs,
            do_block,
        } => {
            out.push_str("(call ");
            go(func, out);
            for a in args {
                out.push(' ');
                go(a, out);
            }
            for k in kwargs {
                let _ = write!(out, " (kw {} ", k.name);
                go(&k.value, out);
                out.push(')');
            }
            if let Some(d) = do_block {
                out.push_str(" (do ");
                params(out, &d.params);
                out.push(' ');
                go(&d.body, out);
                out.push(')');
            }
            out.push(')');
        }
        ExprKind::DotCall { func, args, kwargs } => {
            out.push_str("(dotcall ");
            go(func, out);
            for a in args {
                out.push(' ');
                go(a, out);
            }
            for k in kwargs {
                out.push_str(" (kw ");
                out.push_str(k.name.as_str());
                out.push(' ');
                go(&k.value, out);
                out.push(')');
            }
            out.push(')');
        }
        ExprKind::And(a, b) => list(out, "&&", &[(**a).clone(), (**b).clone()]),
        ExprKind::Or(a, b) => list(out, "||", &[(**a).clone(), (**b).clone()]),
        ExprKind::Comparison { first, rest } => {
            out.push_str("(comparison ");
            go(first, out);
            for (op, _, e) in rest {
                let _ = write!(out, " {op} ");
                go(e, out);
            }
            out.push(')');
        }
        ExprKind::Ternary { cond, then, else_ } => list(
            out,
            "if",
            &[(**cond).clone(), (**then).clone(), (**else_).clone()],
        ),
        ExprKind::Assign { lhs, rhs } => list(out, "=", &[(**lhs).clone(), (**rhs).clone()]),
        ExprKind::OpAssign { op, lhs, rhs } => {
            list(out, &format!("{op}="), &[(**lhs).clone(), (**rhs).clone()])
        }
        ExprKind::DotAssign { op, lhs, rhs } => {
            list(out, op.as_str(), &[(**lhs).clone(), (**rhs).clone()])
        }
        ExprKind::Tuple(es) => list(out, "tuple", es),
        ExprKind::NamedTuple(fs) => {
            out.push_str("(namedtuple");
            for (n, v) in fs {
                let _ = write!(out, " {n}=");
                go(v, out);
            }
            out.push(')');
        }
        ExprKind::Vect(es) => list(out, "vect", es),
        ExprKind::Matrix(rows) => {
            out.push_str("(matrix");
            for r in rows {
                out.push(' ');
                list(out, "row", r);
            }
            out.push(')');
        }
        ExprKind::TypedMatrix(t, rows) => {
            out.push_str("(typed_matrix ");
            go(t, out);
            for r in rows {
                out.push(' ');
                list(out, "row", r);
            }
            out.push(')');
        }
        ExprKind::Index { obj, indices } => {
            out.push_str("(ref ");
            go(obj, out);
            for i in indices {
                out.push(' ');
                go(i, out);
            }
            out.push(')');
        }
        ExprKind::Field { obj, name } => {
            out.push_str("(. ");
            go(obj, out);
            let _ = write!(out, " {name})");
        }
        ExprKind::Curly { base, params } => {
            out.push_str("(curly ");
            go(base, out);
            for p in params {
                out.push(' ');
                go(p, out);
            }
            out.push(')');
        }
        ExprKind::SubtypeBound(t) => list(out, "<:", &[(**t).clone()]),
        ExprKind::TypeAssert { expr, ty } => list(out, "::", &[(**expr).clone(), (**ty).clone()]),
        ExprKind::Where { expr, vars } => {
            out.push_str("(where ");
            go(expr, out);
            for v in vars {
                let _ = write!(out, " {}", v.name);
                if let Some(u) = &v.upper {
                    out.push_str("<:");
                    go(u, out);
                }
            }
            out.push(')');
        }
        ExprKind::Splat(x) => list(out, "...", &[(**x).clone()]),
        ExprKind::Lambda(l) => {
            out.push_str("(-> ");
            params(out, &l.params);
            out.push(' ');
            go(&l.body, out);
            out.push(')');
        }
        ExprKind::Block(es) => block(out, es),
        ExprKind::If { cond, then, else_ } => {
            out.push_str("(if ");
            go(cond, out);
            out.push(' ');
            block(out, then);
            if let Some(e) = else_ {
                out.push(' ');
                go(e, out);
            }
            out.push(')');
        }
        ExprKind::While { cond, body } => {
            out.push_str("(while ");
            go(cond, out);
            out.push(' ');
            block(out, body);
            out.push(')');
        }
        ExprKind::For { iters, body } => {
            out.push_str("(for");
            for (l, r) in iters {
                out.push_str(" (= ");
                go(l, out);
                out.push(' ');
                go(r, out);
                out.push(')');
            }
            out.push(' ');
            block(out, body);
            out.push(')');
        }
        ExprKind::Break => out.push_str("(break)"),
        ExprKind::Continue => out.push_str("(continue)"),
        ExprKind::Return(v) => match v {
            Some(v) => list(out, "return", &[(**v).clone()]),
            None => out.push_str("(return)"),
        },
        ExprKind::Let { bindings, body } => {
            out.push_str("(let ");
            block(out, bindings);
            out.push(' ');
            block(out, body);
            out.push(')');
        }
        ExprKind::Local(es) => list(out, "local", es),
        ExprKind::Global(es) => list(out, "global", es),
        ExprKind::Const(e) => list(out, "const", &[(**e).clone()]),
        ExprKind::Function(f) => {
            out.push_str("(function ");
            match &f.name {
                FnName::Name(n) if f.qualified => {
                    let _ = write!(out, "(. <module> {n})");
                }
                FnName::Name(n) => out.push_str(n.as_str()),
                FnName::Type(t) => go(t, out),
                FnName::Anonymous => out.push_str("<anon>"),
            }
            out.push(' ');
            params(out, &f.params);
            if !f.kwparams.is_empty() {
                out.push_str(" (kw ");
                params(out, &f.kwparams);
                out.push(')');
            }
            for v in &f.where_vars {
                let _ = write!(out, " (where {}", v.name);
                if let Some(u) = &v.upper {
                    out.push(' ');
                    go(u, out);
                }
                out.push(')');
            }
            if let Some(r) = &f.ret_type {
                out.push_str(" (returns ");
                go(r, out);
                out.push(')');
            }
            out.push(' ');
            block(out, &f.body);
            out.push(')');
        }
        ExprKind::Struct(s) => {
            let _ = write!(
                out,
                "({} {}",
                if s.mutable {
                    "mutable_struct"
                } else {
                    "struct"
                },
                s.name
            );
            for p in &s.params {
                let _ = write!(out, " {{{}}}", p.name);
            }
            if let Some(st) = &s.supertype {
                out.push_str(" (<: ");
                go(st, out);
                out.push(')');
            }
            for f in &s.fields {
                let _ = write!(out, " {}", f.name);
                if let Some(t) = &f.ty {
                    out.push_str("::");
                    go(t, out);
                }
            }
            out.push(')');
        }
        ExprKind::AbstractType {
            name, supertype, ..
        } => {
            let _ = write!(out, "(abstract {name}");
            if let Some(st) = supertype {
                out.push_str(" (<: ");
                go(st, out);
                out.push(')');
            }
            out.push(')');
        }
        ExprKind::Macro { name, args } => list(out, &format!("@{name}"), args),
        ExprKind::Comprehension {
            body,
            iters,
            cond,
            generator,
        } => {
            out.push_str(if *generator {
                "(generator "
            } else {
                "(comprehension "
            });
            go(body, out);
            for (l, r) in iters {
                out.push_str(" (= ");
                go(l, out);
                out.push(' ');
                go(r, out);
                out.push(')');
            }
            if let Some(c) = cond {
                out.push_str(" (if ");
                go(c, out);
                out.push(')');
            }
            out.push(')');
        }
        ExprKind::Using {
            modules,
            names,
            import,
            alias,
        } => {
            let words =
                |ns: &[crate::Symbol]| ns.iter().map(|n| n.as_str()).collect::<Vec<_>>().join(" ");
            let head = if *import { "import" } else { "using" };
            let _ = write!(out, "({head} {}", words(modules));
            if !names.is_empty() {
                let _ = write!(out, " : {}", words(names));
            }
            if let Some(a) = alias {
                let _ = write!(out, " as {a}");
            }
            out.push(')');
        }
        ExprKind::Error => out.push_str("(error)"),
    }
}
