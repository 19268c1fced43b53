//! Names two provided packages both define: ChainRulesCore's `NoTangent` and `Tangent` are not
//! Mooncake's. The prelude names ChainRulesCore's `_CRC_NoTangent` and `_CRC_Tangent`;
//! `ChainRulesCore.NoTangent` always means them, and a bare `NoTangent` does once the program
//! has `using ChainRulesCore` (or imported the name from it), unless it imported the name
//! from Mooncake. A module imported under a name of the program's (`import Mooncake as MC`)
//! is named by it. [`PackageNames::rewrite`] renames a top-level statement's names accordingly
//! before it is compiled.

use rustc_hash::{FxHashMap, FxHashSet};
use syntax::ast::{children_mut, Expr, ExprKind, FnName, FunctionDef, Param, TypeVarDecl};
use syntax::{sym, Symbol};

/// ChainRulesCore's names that Mooncake's vocabulary also has, with the prelude's names of
/// ChainRulesCore's.
const CHAINRULES_CLASHES: &[(&str, &str)] =
    &[("NoTangent", "_CRC_NoTangent"), ("Tangent", "_CRC_Tangent")];

/// What the program's bare names of clashing package names mean so far.
#[derive(Clone, Debug, Default)]
pub struct PackageNames {
    /// A bare name to the prelude name it stands for.
    aliases: FxHashMap<Symbol, Symbol>,
    /// Names the program imported from Mooncake by name (a later `using ChainRulesCore` does
    /// not take them over, as in Julia).
    from_mooncake: FxHashSet<Symbol>,
}

/// ChainRulesCore's `Tangent{P}(; a = da, ...)`, the tangent of a struct by field (a keyword
/// constructor of a parametric type, which the language does not define otherwise), as the
/// prelude's `_crc_tangent(P, (a = da, ...))`.
fn struct_tangent_call(e: &mut Expr) {
    let ExprKind::Call {
        func, args, kwargs, ..
    } = &mut e.kind
    else {
        return;
    };
    let ExprKind::Curly { base, params } = &func.kind else {
        return;
    };
    if base.ident().is_none_or(|b| b.as_str() != "_CRC_Tangent")
        || params.len() != 1
        || !args.is_empty()
        || kwargs.is_empty()
        || kwargs.iter().any(|k| k.splat)
    {
        return;
    }
    let sp = e.span;
    let fields = kwargs.iter().map(|k| (k.name, k.value.clone())).collect();
    let nt = Expr::new(ExprKind::NamedTuple(fields), sp);
    *args = vec![params[0].clone(), nt];
    kwargs.clear();
    **func = Expr::new(ExprKind::Ident(sym("_crc_tangent")), func.span);
}

/// Mooncake's names that the prelude gives names of its own (`Mooncake.Config` is
/// `_Mooncake_Config`), leaving these names free for a program's own types.
pub fn mooncake_prelude_name(n: &str) -> Option<&'static str> {
    Some(match n {
        "Config" => "_Mooncake_Config",
        "Cache" => "_Mooncake_Cache",
        "Mode" => "_Mooncake_Mode",
        "Tangent" => "_Mooncake_Tangent",
        "MutableTangent" => "_Mooncake_MutableTangent",
        "FData" => "_Mooncake_FData",
        "RData" => "_Mooncake_RData",
        _ => return None,
    })
}

fn chainrules_name(n: Symbol) -> Option<Symbol> {
    CHAINRULES_CLASHES
        .iter()
        .find(|(a, _)| *a == n.as_str())
        .map(|(_, b)| sym(b))
}

impl PackageNames {
    /// Notes `using M`, `using M: a, b`, `import M: a, b` or `import M as A`.
    pub fn note_using(
        &mut self,
        modules: &[Symbol],
        names: &[Symbol],
        import: bool,
        alias: Option<Symbol>,
    ) {
        if let (Some(a), [m]) = (alias, modules) {
            self.aliases.insert(a, *m);
        }
        for m in modules {
            match (m.as_str(), names.is_empty()) {
                ("ChainRulesCore", true) if !import => {
                    for (a, b) in CHAINRULES_CLASHES {
                        let a = sym(a);
                        if !self.from_mooncake.contains(&a) {
                            self.aliases.insert(a, sym(b));
                        }
                    }
                }
                ("ChainRulesCore", false) => {
                    for n in names {
                        if let Some(b) = chainrules_name(*n) {
                            self.aliases.insert(*n, b);
                            self.from_mooncake.remove(n);
                        }
                    }
                }
                ("Mooncake", false) => {
                    for n in names {
                        if chainrules_name(*n).is_some() {
                            self.aliases.remove(n);
                            self.from_mooncake.insert(*n);
                        }
                        if let Some(p) = mooncake_prelude_name(n.as_str()) {
                            self.aliases.insert(*n, sym(p));
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// The statement with the package names it uses renamed, when any is.
    pub fn rewrite(&self, e: &Expr) -> Option<Expr> {
        if !self.mentions(e) {
            return None;
        }
        let mut e = e.clone();
        self.rename(&mut e);
        Some(e)
    }

    /// Whether the statement's text might need renaming: a cheap over-approximation.
    fn mentions(&self, e: &Expr) -> bool {
        let mut found = false;
        let mut look = |e: &Expr| {
            if let ExprKind::Ident(n) = &e.kind {
                found |= n.as_str() == "ChainRulesCore" || self.aliases.contains_key(n)
            }
        };
        walk(e, &mut look);
        found
    }

    /// The module `m` names (itself, or the module `import M as m` named).
    fn module_named(&self, m: Symbol) -> &str {
        self.aliases.get(&m).copied().unwrap_or(m).as_str()
    }

    fn rename(&self, e: &mut Expr) {
        match &mut e.kind {
            ExprKind::Ident(n) => {
                if let Some(b) = self.aliases.get(n) {
                    *n = *b;
                }
                return;
            }
            ExprKind::Field { obj, name }
                if obj
                    .ident()
                    .is_some_and(|m| self.module_named(m) == "ChainRulesCore") =>
            {
                match chainrules_name(*name) {
                    Some(b) => e.kind = ExprKind::Ident(b),
                    None => self.rename(obj),
                }
                return;
            }
            ExprKind::Function(def) => self.rename_def(def),
            ExprKind::Lambda(l) => {
                self.rename_params(&mut l.params);
                self.rename_params(&mut l.kwparams);
                self.rename_vars(&mut l.where_vars);
                if let Some(t) = &mut l.ret_type {
                    self.rename(t);
                }
            }
            ExprKind::Struct(s) => {
                self.rename_vars(&mut s.params);
                if let Some(t) = &mut s.supertype {
                    self.rename(t);
                }
                for fd in &mut s.fields {
                    if let Some(t) = &mut fd.ty {
                        self.rename(t);
                    }
                }
                for c in &mut s.constructors {
                    self.rename_def(c);
                    c.body.iter_mut().for_each(|b| self.rename(b));
                }
            }
            ExprKind::AbstractType {
                params, supertype, ..
            } => {
                self.rename_vars(params);
                if let Some(t) = supertype {
                    self.rename(t);
                }
            }
            _ => {}
        }
        children_mut(e, &mut |c| self.rename(c));
        struct_tangent_call(e);
    }

    fn rename_def(&self, def: &mut FunctionDef) {
        if let FnName::Type(t) = &mut def.name {
            self.rename(t);
        }
        self.rename_params(&mut def.params);
        self.rename_params(&mut def.kwparams);
        self.rename_vars(&mut def.where_vars);
        if let Some(t) = &mut def.ret_type {
            self.rename(t);
        }
    }

    fn rename_params(&self, ps: &mut [Param]) {
        for p in ps {
            for e in p.ty.iter_mut().chain(p.default.iter_mut()) {
                self.rename(e);
            }
        }
    }

    fn rename_vars(&self, vs: &mut [TypeVarDecl]) {
        for v in vs {
            if let Some(t) = &mut v.upper {
                self.rename(t);
            }
        }
    }
}

/// Visits every expression of `e`, including types of parameters and fields.
fn walk(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Function(def) => walk_signature(def, f),
        ExprKind::Lambda(l) => {
            walk_params(&l.params, f);
            walk_params(&l.kwparams, f);
            walk_vars(&l.where_vars, f);
            if let Some(t) = &l.ret_type {
                walk(t, f);
            }
        }
        ExprKind::Struct(s) => {
            walk_vars(&s.params, f);
            for t in s
                .supertype
                .iter()
                .chain(s.fields.iter().filter_map(|fd| fd.ty.as_ref()))
            {
                walk(t, f);
            }
            for c in &s.constructors {
                walk_signature(c, f);
                c.body.iter().for_each(|b| walk(b, f));
            }
        }
        ExprKind::AbstractType {
            params, supertype, ..
        } => {
            walk_vars(params, f);
            if let Some(t) = supertype {
                walk(t, f);
            }
        }
        _ => {}
    }
    syntax::ast::children(e, &mut |c| walk(c, f));
}

fn walk_signature(def: &FunctionDef, f: &mut dyn FnMut(&Expr)) {
    if let FnName::Type(t) = &def.name {
        walk(t, f);
    }
    walk_params(&def.params, f);
    walk_params(&def.kwparams, f);
    walk_vars(&def.where_vars, f);
    if let Some(t) = &def.ret_type {
        walk(t, f);
    }
}

fn walk_params(ps: &[Param], f: &mut dyn FnMut(&Expr)) {
    for p in ps {
        for t in p.ty.iter().chain(p.default.iter()) {
            walk(t, f);
        }
    }
}

fn walk_vars(vs: &[TypeVarDecl], f: &mut dyn FnMut(&Expr)) {
    for t in vs.iter().filter_map(|v| v.upper.as_ref()) {
        walk(t, f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{expect, Expect};

    /// Each statement of `src` after the `using`s before it: the names it ends up using that
    /// stand for ChainRulesCore's (`_CRC_...`) or Mooncake's (`_Mooncake_...`, `Mooncake`),
    /// in order.
    fn check(src: &str, expect: Expect) {
        let (file, diags) = syntax::parse_file(src, syntax::FileId(0));
        assert!(diags.is_empty(), "{diags:?}");
        let mut names = PackageNames::default();
        let mut out = Vec::new();
        for item in &file.items {
            if let ExprKind::Using {
                modules,
                names: listed,
                import,
                alias,
            } = &item.kind
            {
                names.note_using(modules, listed, *import, *alias);
                continue;
            }
            let e = names.rewrite(item).unwrap_or_else(|| item.clone());
            let mut found = Vec::new();
            walk(&e, &mut |x| {
                if let ExprKind::Ident(n) = &x.kind {
                    let n = n.as_str();
                    let ours = ["_CRC_", "_crc_", "_Mooncake_"];
                    if ours.iter().any(|p| n.starts_with(p)) || n == "Mooncake" {
                        found.push(n.to_string());
                    }
                }
            });
            out.push(format!("[{}]", found.join(", ")));
        }
        expect.assert_eq(&out.join("\n"));
    }

    #[test]
    fn qualified_names_are_always_chainrules() {
        check(
            "import ChainRulesCore\nf(x) = ChainRulesCore.NoTangent()\ng(x::NoTangent) = x",
            expect![[r#"
                [_CRC_NoTangent]
                []"#]],
        );
    }

    #[test]
    fn using_chainrules_takes_the_bare_names_in_signatures_and_bodies() {
        check(
            "using ChainRulesCore\nfunction pb(Δ::Tangent{Any}) where {T<:NoTangent}\n    (NoTangent(), Δ)\nend",
            expect![[r#"[_CRC_Tangent, _CRC_NoTangent, _CRC_NoTangent]"#]],
        );
    }

    #[test]
    fn a_name_imported_from_mooncake_stays_mooncakes() {
        check(
            "using Mooncake: NoTangent\nusing ChainRulesCore\nf() = (NoTangent(), Tangent)\nusing ChainRulesCore: NoTangent\ng() = NoTangent()",
            expect![[r#"
                [_CRC_Tangent]
                [_CRC_NoTangent]"#]],
        );
    }

    #[test]
    fn a_module_imported_as_a_name_is_named_by_it() {
        check(
            "import Mooncake as MC\nimport ChainRulesCore as CRC\nf() = MC.zero_tangent(CRC.NoTangent())",
            expect![[r#"[Mooncake, _CRC_NoTangent]"#]],
        );
    }

    #[test]
    fn mooncakes_struct_tangents_imported_by_name() {
        check(
            "using ChainRulesCore\nimport Mooncake: RData, Tangent\nf(x) = (RData((a = x,)), Tangent((a = x,)))",
            expect![[r#"[_Mooncake_RData, _Mooncake_Tangent]"#]],
        );
    }

    #[test]
    fn a_struct_tangent_by_field_is_the_preludes_constructor() {
        check(
            "using ChainRulesCore\nf(d) = (Tangent{Spring}(k = d, x0 = 2d), Tangent{Tuple{Float64}}(d))",
            expect![[r#"[_crc_tangent, _CRC_Tangent]"#]],
        );
    }
}
