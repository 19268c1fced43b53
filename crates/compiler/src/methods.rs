//! Method tables and multiple dispatch with Julia's specificity rules.

use ir::{Function, Head, Type, TypeEnv, TypePat, TypeVar};
use rustc_hash::FxHashMap;
use std::sync::{Arc, Mutex, OnceLock};
use syntax::{Span, Symbol};

/// A method's body, lowered when the method is defined and brought into SSA form when first
/// inferred (most methods of a loaded file are never called in a session).
pub struct MethodBody {
    lowered: Mutex<Option<Function>>,
    ssa: OnceLock<Arc<Function>>,
}

impl MethodBody {
    pub fn new(lowered: Function) -> MethodBody {
        MethodBody {
            lowered: Mutex::new(Some(lowered)),
            ssa: OnceLock::new(),
        }
    }

    /// The body in SSA form (phase `Ssa`), and whether this call constructed it.
    pub fn ssa(&self) -> (Arc<Function>, bool) {
        let mut fresh = false;
        let f = self.ssa.get_or_init(|| {
            fresh = true;
            let mut f = self
                .lowered
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take()
                .unwrap_or_else(|| unreachable!("a method body is taken once, by its first use"));
            ir::timing::phase("ssa", || crate::ssa::construct_ssa(&mut f));
            Arc::new(f)
        });
        (f.clone(), fresh)
    }
}

impl std::fmt::Debug for MethodBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.ssa.get() {
            Some(b) => write!(f, "MethodBody({})", b.name),
            None => f.write_str("MethodBody(not yet in SSA form)"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Method {
    pub table: Symbol,
    /// Position in its table (stable: a redefinition replaces in place).
    pub index: u32,
    /// Argument patterns, the callee first. With `vararg`, the last pattern is that of each
    /// remaining argument.
    pub sig: Vec<TypePat>,
    pub vararg: bool,
    /// `xs::Vararg{T, N}`: the pattern the number of collected arguments matches.
    pub vararg_count: Option<TypePat>,
    pub tvars: Vec<TypeVar>,
    pub arg_names: Vec<Symbol>,
    /// The body, in SSA form once first used.
    pub body: Arc<MethodBody>,
    pub span: Span,
    /// Defined in the prelude (hidden from user backtraces and method lists).
    pub in_prelude: bool,
}

impl Method {
    /// `f(x::Float64, y)` as Julia shows a method.
    pub fn signature_string(&self) -> String {
        let mut s = String::new();
        let name = ir::types::function_name(self.table);
        match &self.sig[0] {
            TypePat::Ty(Type::Function(_)) => s.push_str(name),
            // A constructor shows as the type it constructs: `Point{T}(::Any, ::Any)`.
            TypePat::Ty(Type::Type(t)) => s.push_str(&t.to_string()),
            TypePat::App(ir::types::Head::Type, t) if t.len() == 1 => s.push_str(&t[0].to_string()),
            p => s.push_str(&format!("(::{p})")),
        }
        s.push('(');
        for (i, p) in self.sig[1..].iter().enumerate() {
            if i > 0 {
                s.push_str(", ");
            }
            // Julia lists candidates by argument types only: `f(::Int64, ::Any)`.
            match &self.vararg_count {
                Some(n) if self.vararg && i + 2 == self.sig.len() => {
                    s.push_str(&format!("::Vararg{{{p}, {n}}}"))
                }
                _ => {
                    s.push_str(&format!("::{p}"));
                    if self.vararg && i + 2 == self.sig.len() {
                        s.push_str("...");
                    }
                }
            }
        }
        s.push(')');
        if !self.tvars.is_empty() {
            let vs: Vec<String> = self
                .tvars
                .iter()
                .map(|v| {
                    if v.upper == TypePat::any() {
                        v.name.to_string()
                    } else {
                        format!("{}<:{}", v.name, v.upper)
                    }
                })
                .collect();
            // Julia braces a list of several variables only: `where T<:Real`, `where {T, S}`.
            if let [v] = &vs[..] {
                s.push_str(&format!(" where {v}"));
            } else {
                s.push_str(&format!(" where {{{}}}", vs.join(", ")));
            }
        }
        s
    }
}

#[derive(Clone, Debug, Default)]
pub struct MethodTable {
    pub methods: Vec<Method>,
}

/// The outcome of dispatch on concrete argument types.
#[derive(Clone, Debug)]
pub enum Dispatch {
    /// Method `index`, its static parameters, and the argument types of the method instance
    /// (varargs packed into a tuple).
    Found {
        index: u32,
        sparams: Vec<Type>,
        mi_sig: Vec<Type>,
    },
    NoMethod,
    Ambiguous(Vec<u32>),
}

impl MethodTable {
    /// Adds a method, replacing one with an identical signature.
    pub fn add(&mut self, mut m: Method) -> u32 {
        for old in &mut self.methods {
            if old.sig == m.sig
                && old.vararg == m.vararg
                && old.vararg_count == m.vararg_count
                && old.tvars == m.tvars
            {
                m.index = old.index;
                *old = m;
                return old.index;
            }
        }
        m.index = self.methods.len() as u32;
        let i = m.index;
        self.methods.push(m);
        i
    }

    /// Matches one method; returns the static parameter bindings.
    pub fn match_method(
        m: &Method,
        args: &[Type],
        env: &TypeEnv,
    ) -> Option<FxHashMap<Symbol, Type>> {
        let fixed = if m.vararg {
            m.sig.len() - 1
        } else {
            m.sig.len()
        };
        if m.vararg {
            if args.len() < fixed {
                return None;
            }
        } else if args.len() != fixed {
            return None;
        }
        let mut b = FxHashMap::default();
        // Invariant positions (inside `Type{...}` and parametric types) bind first, so that
        // `convert(::Type{T}, x::T)` binds `T` from the type argument.
        let mut order: Vec<usize> = (0..args.len()).collect();
        order.sort_by_key(|&i| {
            let p = &m.sig[i.min(m.sig.len() - 1)];
            matches!(p, TypePat::Var(_)) as u8
        });
        for i in order {
            let p = &m.sig[i.min(m.sig.len() - 1)];
            if !env.matches(&args[i], p, &m.tvars, &mut b, false) {
                return None;
            }
        }
        if let Some(p) = &m.vararg_count {
            let n = Type::Val((args.len() - fixed) as i64);
            if !env.matches(&n, p, &m.tvars, &mut b, true) {
                return None;
            }
        }
        Some(b)
    }

    pub fn dispatch(&self, args: &[Type], env: &TypeEnv) -> Dispatch {
        let mut cands: Vec<(&Method, FxHashMap<Symbol, Type>)> = Vec::new();
        for m in &self.methods {
            if let Some(b) = Self::match_method(m, args, env) {
                cands.push((m, b));
            }
        }
        if cands.is_empty() {
            return Dispatch::NoMethod;
        }
        // Keep the methods no other candidate is strictly more specific than.
        let n = args.len();
        let minimal: Vec<usize> = (0..cands.len())
            .filter(|&i| {
                !(0..cands.len()).any(|j| j != i && more_specific(cands[j].0, cands[i].0, n, env))
            })
            .collect();
        let pick = if minimal.len() == 1 {
            Some(minimal[0])
        } else {
            // Tie-breaks: a method without varargs beats one with; then the one with more
            // type-variable constraints.
            let mut best: Vec<usize> = minimal.clone();
            if best.iter().any(|&i| !cands[i].0.vararg) {
                best.retain(|&i| !cands[i].0.vararg);
            }
            if best.len() > 1 {
                let maxv = best
                    .iter()
                    .map(|&i| cands[i].0.tvars.len())
                    .max()
                    .unwrap_or(0);
                best.retain(|&i| cands[i].0.tvars.len() == maxv);
            }
            if best.len() == 1 {
                Some(best[0])
            } else {
                None
            }
        };
        match pick {
            Some(i) => {
                let (m, b) = &cands[i];
                let sparams = m
                    .tvars
                    .iter()
                    .map(|v| b.get(&v.name).cloned().unwrap_or(Type::Any))
                    .collect();
                let mut mi_sig = instance_sig(m, args);
                // As Julia limits the types it specialises on: an argument type nested
                // deeper than `MAX_SPECIALIZED_DEPTH` (a recursion building ever larger
                // tuples, `f(x) = f((x, x))`) is compiled for once, as `Any`, so that
                // inference and compilation end.
                if m.tvars.is_empty() {
                    for t in mi_sig.iter_mut().skip(1) {
                        if type_depth(t) > MAX_SPECIALIZED_DEPTH {
                            *t = Type::Any;
                        }
                    }
                }
                Dispatch::Found {
                    index: m.index,
                    sparams,
                    mi_sig,
                }
            }
            None => Dispatch::Ambiguous(minimal.iter().map(|&i| cands[i].0.index).collect()),
        }
    }
}

/// The signature of `m`'s instance for argument types `args` (the function's type first): the
/// arguments a vararg method collects are one tuple type.
pub fn instance_sig(m: &Method, args: &[Type]) -> Vec<Type> {
    if m.vararg {
        let fixed = m.sig.len() - 1;
        let mut s: Vec<Type> = args[..fixed].to_vec();
        s.push(Type::tuple(args[fixed..].to_vec()));
        s
    } else {
        args.to_vec()
    }
}

/// Type parameters nested deeper than this are not specialised on (see `dispatch`).
const MAX_SPECIALIZED_DEPTH: usize = 8;

/// How deeply `t`'s parameters nest (1 for a type without parameters).
fn type_depth(t: &Type) -> usize {
    let inner = |ts: &[Type]| ts.iter().map(type_depth).max().unwrap_or(0);
    1 + match t {
        Type::Tuple(ts) | Type::NamedTuple(_, ts) | Type::Struct(_, ts) | Type::Union(ts) => {
            inner(ts)
        }
        Type::Array(e, _) | Type::Type(e) => type_depth(e),
        _ => 0,
    }
}

/// Whether `a` is strictly more specific than `b` for a call with `n` arguments.
pub fn more_specific(a: &Method, b: &Method, n: usize, env: &TypeEnv) -> bool {
    let pa = |i: usize| &a.sig[i.min(a.sig.len() - 1)];
    let pb = |i: usize| &b.sig[i.min(b.sig.len() - 1)];
    let mut a_le_b = (0..n).all(|i| pat_le(pa(i), &a.tvars, pb(i), &b.tvars, env));
    let mut b_le_a = (0..n).all(|i| pat_le(pb(i), &b.tvars, pa(i), &a.tvars, env));
    // Between two `...` methods, the number of collected arguments counts as one more
    // position (`Vararg{T, 2}` is below `Vararg{T, N}`, below `T...`).
    if a.vararg && b.vararg {
        let any = TypePat::any();
        let ca = a.vararg_count.as_ref().unwrap_or(&any);
        let cb = b.vararg_count.as_ref().unwrap_or(&any);
        a_le_b &= pat_le(ca, &a.tvars, cb, &b.tvars, env);
        b_le_a &= pat_le(cb, &b.tvars, ca, &a.tvars, env);
    }
    a_le_b && !b_le_a
}

fn bound_of(v: Symbol, vars: &[TypeVar]) -> Option<&TypePat> {
    vars.iter().find(|t| t.name == v).map(|t| &t.upper)
}

/// Normalises `Ty(Array{..})` and friends into `App` form for structural comparison.
fn to_app(p: &TypePat) -> TypePat {
    match p {
        TypePat::Ty(Type::Array(e, n)) => TypePat::App(
            Head::Array,
            vec![
                TypePat::Ty((**e).clone()),
                TypePat::Ty(Type::Val(*n as i64)),
            ],
        ),
        TypePat::Ty(Type::Type(t)) => TypePat::App(Head::Type, vec![TypePat::Ty((**t).clone())]),
        TypePat::Ty(Type::Tuple(ts)) => TypePat::App(
            Head::Tuple,
            ts.iter().map(|t| TypePat::Ty(t.clone())).collect(),
        ),
        TypePat::Ty(Type::Struct(n, ps)) if !ps.is_empty() => TypePat::App(
            Head::Struct(*n),
            ps.iter().map(|t| TypePat::Ty(t.clone())).collect(),
        ),
        TypePat::Ty(Type::Abstract(n, ps)) if !ps.is_empty() => TypePat::App(
            Head::Abstract(*n),
            ps.iter().map(|t| TypePat::Ty(t.clone())).collect(),
        ),
        p => p.clone(),
    }
}

/// `p <: q` on patterns, for specificity: every type matching `p` matches `q`.
fn pat_le(p: &TypePat, pv: &[TypeVar], q: &TypePat, qv: &[TypeVar], env: &TypeEnv) -> bool {
    match (p, q) {
        (_, TypePat::Ty(Type::Any)) => true,
        (_, TypePat::Var(v)) => match bound_of(*v, qv) {
            Some(ub) => pat_le(p, pv, ub, qv, env),
            None => true,
        },
        (TypePat::Var(v), _) => match bound_of(*v, pv) {
            Some(ub) => pat_le(ub, pv, q, qv, env),
            None => false,
        },
        (TypePat::Below(x), _) => pat_le(x, pv, q, qv, env),
        (_, TypePat::Below(y)) => pat_le(p, pv, y, qv, env),
        // Only `Any` (and an unbounded variable, above) accepts every type.
        (TypePat::Ty(Type::Any), _) => false,
        (TypePat::Ty(a), TypePat::Ty(b)) => env.subtype(a, b),
        _ => {
            let (pa, qa) = (to_app(p), to_app(q));
            match (&pa, &qa) {
                (TypePat::App(h1, a1), TypePat::App(h2, a2))
                    if h1 == h2 && a1.len() == a2.len() =>
                {
                    if *h1 == Head::Tuple {
                        return a1.iter().zip(a2).all(|(x, y)| pat_le(x, pv, y, qv, env));
                    }
                    if *h1 == Head::Union {
                        return a1
                            .iter()
                            .all(|x| a2.iter().any(|y| pat_le(x, pv, y, qv, env)));
                    }
                    a1.iter().zip(a2).all(|(x, y)| param_le(x, pv, y, qv, env))
                }
                (_, TypePat::App(Head::Union, alts)) => {
                    alts.iter().any(|y| pat_le(&pa, pv, y, qv, env))
                }
                (TypePat::App(Head::Union, alts), _) => {
                    alts.iter().all(|x| pat_le(x, pv, &qa, qv, env))
                }
                _ => {
                    // Different heads: compare upper bounds (e.g. Vector{T} vs AbstractArray).
                    let ua = p.upper_bound(pv);
                    let ub = q.upper_bound(qv);
                    let head_ok = match (&pa, &qa) {
                        (TypePat::App(Head::Array, _), TypePat::App(Head::Abstract(n), _)) => {
                            n.as_str() == "AbstractArray"
                        }
                        (TypePat::App(Head::Struct(_), _), TypePat::App(Head::Abstract(_), _)) => {
                            true
                        }
                        (
                            TypePat::App(Head::Abstract(n1), _),
                            TypePat::App(Head::Abstract(n2), _),
                        ) => abstract_below(*n1, *n2, env),
                        // A parametric struct or abstract type below a plain abstract type
                        // (`Normal{T}` below `UnivariateDistribution`).
                        (TypePat::App(Head::Struct(n), _), TypePat::Ty(Type::Abstract(m, ps)))
                            if ps.is_empty() =>
                        {
                            return env.struct_def(*n).is_some_and(|d| {
                                supertype_name(&d.supertype)
                                    .is_some_and(|up| up == *m || abstract_below(up, *m, env))
                            });
                        }
                        (
                            TypePat::App(Head::Abstract(n), _),
                            TypePat::Ty(Type::Abstract(m, ps)),
                        ) if ps.is_empty() => {
                            return abstract_below(*n, *m, env);
                        }
                        (TypePat::Ty(_), TypePat::App(..)) => {
                            let mut b = FxHashMap::default();
                            if let TypePat::Ty(t) = p {
                                return env.matches(t, q, qv, &mut b, false);
                            }
                            false
                        }
                        _ => false,
                    };
                    head_ok
                        && (env.subtype(&ua, &ub) || matches!(ub, Type::Any) || !ub.is_concrete())
                }
            }
        }
    }
}

/// The name of the abstract type a declaration names as its supertype.
fn supertype_name(sup: &TypePat) -> Option<Symbol> {
    match sup {
        TypePat::App(Head::Abstract(n), _) | TypePat::Ty(Type::Abstract(n, _)) => Some(*n),
        _ => None,
    }
}

/// Whether the abstract type named `a` is declared below the one named `b` (through its
/// chain of declared supertypes: `AbstractRange` is below `AbstractArray`).
fn abstract_below(a: Symbol, b: Symbol, env: &TypeEnv) -> bool {
    let mut cur = a;
    for _ in 0..64 {
        let Some(def) = env.abstract_def(cur) else {
            return false;
        };
        let Some(up) = supertype_name(&def.supertype) else {
            return false;
        };
        if up == b {
            return true;
        }
        cur = up;
    }
    false
}

/// Comparison of parameters in invariant position: `q` accepts everything `p` does.
fn param_le(p: &TypePat, pv: &[TypeVar], q: &TypePat, qv: &[TypeVar], env: &TypeEnv) -> bool {
    match (p, q) {
        (_, TypePat::Var(v)) => match bound_of(*v, qv) {
            Some(ub) => pat_le(p, pv, ub, qv, env),
            None => true,
        },
        (_, TypePat::Below(y)) => pat_le(p, pv, y, qv, env),
        (TypePat::Var(_), _) | (TypePat::Below(_), _) => false,
        (TypePat::Ty(a), TypePat::Ty(b)) => a == b,
        _ => {
            let (pa, qa) = (to_app(p), to_app(q));
            match (&pa, &qa) {
                (TypePat::App(h1, a1), TypePat::App(h2, a2)) => {
                    h1 == h2
                        && a1.len() == a2.len()
                        && a1.iter().zip(a2).all(|(x, y)| param_le(x, pv, y, qv, env))
                }
                _ => false,
            }
        }
    }
}
