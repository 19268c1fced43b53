//! Type expressions in source (`Vector{T}`, `AbstractVector{<:Real}`, `Union{Nothing, Int}`)
//! evaluated to type patterns, given the declared types and the `where` variables in scope.

use crate::error::{CompileError, ErrorKind};
use ir::{Head, Type, TypeEnv, TypePat};
use syntax::ast::{Expr, ExprKind};
use syntax::{sym, Symbol};

/// A built-in type name as a type (parameterless names only).
pub fn builtin_type(name: &str) -> Option<Type> {
    Some(match name {
        "Any" => Type::Any,
        "Int64" | "Int" => Type::Int64,
        "Float64" => Type::Float64,
        "Float32" => Type::Float32,
        "Bool" => Type::Bool,
        "Nothing" => Type::Nothing,
        "String" => Type::String,
        "Symbol" => Type::Symbol,
        "NoTangent" => Type::NoTangent,
        "NoFData" => Type::NoFData,
        "NoRData" => Type::NoRData,
        "Number" | "Real" | "AbstractFloat" | "Integer" | "Signed" | "AbstractString"
        | "Function" | "Exception" => Type::abstract_(name),
        _ => return None,
    })
}

/// Names of parametric built-in types usable unapplied (`Vector`, `Array`).
pub fn builtin_unionall(name: &str) -> bool {
    matches!(
        name,
        "Array"
            | "Vector"
            | "Matrix"
            | "Tuple"
            | "NTuple"
            | "Union"
            | "Type"
            | "AbstractArray"
            | "AbstractVector"
            | "AbstractMatrix"
            | "AbstractRange"
            | "NamedTuple"
            | "VecOrMat"
            | "AbstractVecOrMat"
    )
}

/// The method table a call on a callee of type `t` dispatches in: a function's own table; for
/// a type, its constructors' table; for a struct instance (a callable object such as a
/// closure), its type's table, where the callee's type tells its methods from the
/// constructors (`Type{T}`).
pub fn callee_table(t: &Type) -> Option<Symbol> {
    match t {
        Type::Function(n) => Some(*n),
        Type::Type(t) => constructor_table_name(t),
        Type::Struct(n, _) => Some(*n),
        _ => None,
    }
}

/// Names Julia's Base and Core define that this implementation does not have yet: reading one
/// the program has not defined, or naming it as a type, is "not supported yet", not the
/// `UndefVarError` Julia would never give.
pub const JULIA_NAMES_NOT_SUPPORTED: &[&str] = &[
    "BigInt",
    "BigFloat",
    "UInt128",
    "Int128",
    "Float16",
    "Regex",
    "VERSION",
    "VersionNumber",
    "Channel",
    "ReentrantLock",
    "Rational",
    "Missing",
    "missing",
];

/// The error for reading one of `JULIA_NAMES_NOT_SUPPORTED`.
pub fn julia_name_not_supported(name: Symbol) -> String {
    format!(
        "not supported yet: `{name}` (Julia's Base defines it; this implementation does not yet)"
    )
}

/// The message for a name that is not a type here (`what`: "a type", "a parametric type").
fn undefined_type_message(name: Symbol, what: &str) -> String {
    if JULIA_NAMES_NOT_SUPPORTED.contains(&name.as_str()) {
        julia_name_not_supported(name)
    } else {
        format!("UndefVarError: `{name}` not defined (expected {what})")
    }
}

/// The name under which constructor methods of a type are stored.
pub fn constructor_table_name(t: &Type) -> Option<Symbol> {
    Some(match t {
        Type::Int64 => sym("Int64"),
        Type::Float64 => sym("Float64"),
        Type::Float32 => sym("Float32"),
        Type::Bool => sym("Bool"),
        Type::String => sym("String"),
        Type::Symbol => sym("Symbol"),
        Type::Nothing => sym("Nothing"),
        Type::NoTangent => sym("NoTangent"),
        Type::NoFData => sym("NoFData"),
        Type::NoRData => sym("NoRData"),
        Type::Array(..) => sym("Array"),
        Type::Tuple(_) => sym("Tuple"),
        Type::Struct(n, _) => *n,
        Type::UnionAll(n) => match n.as_str() {
            "Vector" | "Matrix" => sym("Array"),
            _ => *n,
        },
        Type::Abstract(n, _) => *n,
        Type::Any => sym("Any"),
        _ => return None,
    })
}

/// `VecOrMat{T}` (`Union{Vector{T}, Matrix{T}}`) or `AbstractVecOrMat{T}` with element
/// pattern `elem`.
fn vec_or_mat(name: &str, elem: TypePat) -> TypePat {
    let head = if name == "VecOrMat" {
        Head::Array
    } else {
        Head::Abstract(sym("AbstractArray"))
    };
    let dims = |n| TypePat::App(head, vec![elem.clone(), TypePat::Ty(Type::Val(n))]);
    TypePat::App(Head::Union, vec![dims(1), dims(2)])
}

pub struct TypeExprCtx<'a> {
    pub env: &'a TypeEnv,
    /// Type variables in scope.
    pub vars: &'a [Symbol],
}

impl TypeExprCtx<'_> {
    /// The type variables of a `where` clause (or a struct's parameters), each with its upper
    /// bound evaluated in this context (`Any` when none is written).
    pub fn type_vars(
        &self,
        decls: &[syntax::ast::TypeVarDecl],
    ) -> Result<Vec<ir::TypeVar>, CompileError> {
        decls
            .iter()
            .map(|v| {
                Ok(ir::TypeVar {
                    name: v.name,
                    upper: match &v.upper {
                        Some(u) => self.eval(u)?,
                        None => TypePat::any(),
                    },
                })
            })
            .collect()
    }

    pub fn eval(&self, e: &Expr) -> Result<TypePat, CompileError> {
        match &e.kind {
            ExprKind::Ident(name) => self.name(*name, e),
            ExprKind::Nothing => Ok(TypePat::Ty(Type::Nothing)),
            ExprKind::Int(n) => Ok(TypePat::Ty(Type::Val(*n))),
            ExprKind::Bool(b) => Ok(TypePat::Ty(Type::ValBool(*b))),
            ExprKind::QuoteSym(s) => Ok(TypePat::Ty(Type::ValSym(*s))),
            ExprKind::Field { obj, name } if obj.ident().is_some_and(is_module) => {
                match obj.ident().map(|m| m.as_str()) {
                    Some("Mooncake") => match crate::packages::mooncake_prelude_name(name.as_str())
                    {
                        Some(n) => self.name(sym(n), e),
                        None => self.name(*name, e),
                    },
                    _ => self.name(*name, e),
                }
            }
            ExprKind::SubtypeBound(inner) => Ok(TypePat::Below(Box::new(self.eval(inner)?))),
            ExprKind::Call { func, args, .. }
                if func.ident().is_some_and(|f| f.as_str() == "typeof") && args.len() == 1 =>
            {
                match args[0].ident() {
                    // A program's own function of a library name is its own table
                    // (`Main.scale`).
                    Some(f) if self.env.is_own_function(f) => Ok(TypePat::Ty(Type::Function(
                        ir::types::own_function_table(f),
                    ))),
                    Some(f) => Ok(TypePat::Ty(Type::Function(f))),
                    None => Err(CompileError::unsupported(
                        e.span,
                        "`typeof` of an expression in a type",
                    )),
                }
            }
            ExprKind::Curly { base, params } => {
                let Some(name) = base.ident() else {
                    return Err(CompileError::invalid(
                        base.span,
                        "expected a type name before `{`",
                    ));
                };
                let ps: Vec<TypePat> = params
                    .iter()
                    .map(|p| self.eval(p))
                    .collect::<Result<_, _>>()?;
                self.apply(name, ps, e)
            }
            _ => Err(CompileError::new(
                ErrorKind::Invalid,
                e.span,
                "expected a type",
            )),
        }
    }

    fn name(&self, name: Symbol, e: &Expr) -> Result<TypePat, CompileError> {
        if self.vars.contains(&name) {
            return Ok(TypePat::Var(name));
        }
        if let Some(t) = builtin_type(name.as_str()) {
            return Ok(TypePat::Ty(t));
        }
        let any = || TypePat::Below(Box::new(TypePat::any()));
        match name.as_str() {
            "Vector" => {
                return Ok(TypePat::App(
                    Head::Array,
                    vec![any(), TypePat::Ty(Type::Val(1))],
                ))
            }
            "Matrix" => {
                return Ok(TypePat::App(
                    Head::Array,
                    vec![any(), TypePat::Ty(Type::Val(2))],
                ))
            }
            "Array" => return Ok(TypePat::App(Head::Array, vec![any(), any()])),
            "AbstractArray" => {
                return Ok(TypePat::App(
                    Head::Abstract(sym("AbstractArray")),
                    vec![any(), any()],
                ))
            }
            "AbstractVector" => {
                return Ok(TypePat::App(
                    Head::Abstract(sym("AbstractArray")),
                    vec![any(), TypePat::Ty(Type::Val(1))],
                ))
            }
            "AbstractMatrix" => {
                return Ok(TypePat::App(
                    Head::Abstract(sym("AbstractArray")),
                    vec![any(), TypePat::Ty(Type::Val(2))],
                ))
            }
            "Tuple" | "NamedTuple" => return Ok(TypePat::Ty(Type::abstract_(name.as_str()))),
            // Julia's aliases `Union{Vector{T}, Matrix{T}} where T` and the abstract one.
            "VecOrMat" | "AbstractVecOrMat" => return Ok(vec_or_mat(name.as_str(), any())),
            _ => {}
        }
        if let Some(p) = self.env.alias(name) {
            return Ok(p.clone());
        }
        if let Some(def) = self.env.struct_def(name) {
            if def.params.is_empty() {
                return Ok(TypePat::Ty(Type::Struct(name, vec![].into())));
            }
            let n = def.params.len();
            return Ok(TypePat::App(
                Head::Struct(name),
                (0..n).map(|_| any()).collect(),
            ));
        }
        if let Some(def) = self.env.abstract_def(name) {
            if def.params.is_empty() {
                return Ok(TypePat::Ty(Type::Abstract(name, vec![].into())));
            }
            let n = def.params.len();
            return Ok(TypePat::App(
                Head::Abstract(name),
                (0..n).map(|_| any()).collect(),
            ));
        }
        Err(CompileError::new(
            ErrorKind::UndefType,
            e.span,
            undefined_type_message(name, "a type"),
        ))
    }

    fn apply(&self, name: Symbol, ps: Vec<TypePat>, e: &Expr) -> Result<TypePat, CompileError> {
        // Fewer parameters than declared leave the rest free (`AbstractArray{T}`).
        let declared = match name.as_str() {
            "Array" | "AbstractArray" => Some(2),
            _ => self
                .env
                .struct_def(name)
                .map(|d| d.params.len())
                .or_else(|| self.env.abstract_def(name).map(|d| d.params.len())),
        };
        let mut ps = ps;
        if let Some(n) = declared {
            while ps.len() < n && !ps.is_empty() {
                ps.push(TypePat::Below(Box::new(TypePat::any())));
            }
        }
        let arity = |n: usize| -> Result<(), CompileError> {
            if ps.len() == n {
                Ok(())
            } else {
                Err(CompileError::invalid(
                    e.span,
                    format!("`{name}` takes {n} type parameter(s), got {}", ps.len()),
                ))
            }
        };
        let pat = match name.as_str() {
            "Vector" => {
                arity(1)?;
                TypePat::App(Head::Array, vec![ps[0].clone(), TypePat::Ty(Type::Val(1))])
            }
            "Matrix" => {
                arity(1)?;
                TypePat::App(Head::Array, vec![ps[0].clone(), TypePat::Ty(Type::Val(2))])
            }
            "Array" => {
                arity(2)?;
                TypePat::App(Head::Array, ps)
            }
            "AbstractVector" => {
                arity(1)?;
                TypePat::App(
                    Head::Abstract(sym("AbstractArray")),
                    vec![ps[0].clone(), TypePat::Ty(Type::Val(1))],
                )
            }
            "AbstractMatrix" => {
                arity(1)?;
                TypePat::App(
                    Head::Abstract(sym("AbstractArray")),
                    vec![ps[0].clone(), TypePat::Ty(Type::Val(2))],
                )
            }
            "AbstractArray" => {
                arity(2)?;
                TypePat::App(Head::Abstract(sym("AbstractArray")), ps)
            }
            "VecOrMat" | "AbstractVecOrMat" => {
                arity(1)?;
                vec_or_mat(name.as_str(), ps[0].clone())
            }
            "Tuple" => TypePat::App(Head::Tuple, ps),
            // `NTuple{2, Float64}` is `Tuple{Float64, Float64}`.
            "NTuple" => {
                arity(2)?;
                match &ps[0] {
                    TypePat::Ty(Type::Val(n)) if (0..=ir::MAX_NTUPLE).contains(n) => {
                        TypePat::App(Head::Tuple, vec![ps[1].clone(); *n as usize])
                    }
                    // A length given by a type variable (`NTuple{N, Int64} where N`).
                    TypePat::Var(_) => TypePat::App(Head::NTuple, ps),
                    _ => {
                        return Err(CompileError::unsupported(
                            e.span,
                            "`NTuple{N, T}` with a length other than a literal from 0 to 64 or a type variable",
                        ))
                    }
                }
            }
            "Union" => {
                // Alternatives that are unions themselves (an alias) are spliced in. A union
                // that `Type::union_of` would widen to `Any` (an abstract member, more than
                // `MAX_UNION` members) stays a pattern: as a type it would match everything.
                let mut alts = Vec::new();
                for p in ps {
                    match p {
                        TypePat::App(Head::Union, inner) => alts.extend(inner),
                        TypePat::Ty(Type::Union(ts)) => {
                            alts.extend(ts.iter().cloned().map(TypePat::Ty))
                        }
                        p => alts.push(p),
                    }
                }
                let tys: Option<Vec<Type>> = alts
                    .iter()
                    .map(|a| match a {
                        TypePat::Ty(t) => Some(t.clone()),
                        _ => None,
                    })
                    .collect();
                if let Some(tys) = tys {
                    let has_any = tys.contains(&Type::Any);
                    let u = Type::union_of(tys);
                    if u != Type::Any || has_any {
                        return Ok(TypePat::Ty(u));
                    }
                }
                return Ok(TypePat::App(Head::Union, alts));
            }
            "Type" => {
                arity(1)?;
                // `Type{Point}` of a parametric type's bare name is the type of `Point` itself
                // (the `UnionAll`), not of its instances.
                let bare = match &e.kind {
                    ExprKind::Curly { params, .. } => params[0].ident().filter(|n| {
                        self.env
                            .struct_def(*n)
                            .is_some_and(|d| !d.params.is_empty())
                            && !self.vars.contains(n)
                    }),
                    _ => None,
                };
                match bare {
                    Some(n) => TypePat::Ty(Type::type_of_type(Type::UnionAll(n))),
                    None => TypePat::App(Head::Type, ps),
                }
            }
            _ => {
                if let Some(def) = self.env.struct_def(name) {
                    arity(def.params.len())?;
                    TypePat::App(Head::Struct(name), ps)
                } else if let Some(def) = self.env.abstract_def(name) {
                    arity(def.params.len())?;
                    TypePat::App(Head::Abstract(name), ps)
                } else {
                    return Err(CompileError::new(
                        ErrorKind::UndefType,
                        e.span,
                        undefined_type_message(name, "a parametric type"),
                    ));
                }
            }
        };
        // Fully concrete applications become plain types.
        if !pat.mentions_vars() {
            if let Some(t) = pat.subst(&Default::default()) {
                return Ok(TypePat::Ty(t));
            }
        }
        Ok(pat)
    }
}

pub use syntax::ast::is_module;
