//! Julia types as the compiler sees them: concrete data types, abstract types, small unions, and
//! the `TypeEnv` of declared structs and abstract types with Julia's subtype relation.

use rustc_hash::FxHashMap;
use std::fmt;
use std::sync::Arc;
use syntax::{sym, Symbol};

/// A type. Concrete types (those a value can have) are the leaves `Int64 ... String`, arrays,
/// tuples, named tuples, structs, function singletons and `Type{T}`.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Type {
    /// `Union{}`: no value has this type (code after a `throw`).
    Bottom,
    #[default]
    Any,
    Int64,
    Float64,
    Float32,
    Bool,
    Nothing,
    String,
    /// `Array{T, N}`
    Array(Arc<Type>, u32),
    Tuple(Arc<[Type]>),
    NamedTuple(Arc<[Symbol]>, Arc<[Type]>),
    /// A declared struct applied to its parameters (`Point{Float64}`; `Point` if not parametric).
    Struct(Symbol, Arc<[Type]>),
    /// A declared or built-in abstract type applied to parameters (`Real`, `AbstractArray{T,N}`).
    Abstract(Symbol, Arc<[Type]>),
    /// `typeof(f)` for the generic function `f` (a singleton: the type determines the value).
    Function(Symbol),
    /// `Type{T}`: the type of the value `T` (a singleton).
    Type(Arc<Type>),
    /// A parametric type with its parameters unapplied, as a value (`Vector`, `Point`).
    UnionAll(Symbol),
    /// An integer type parameter (the `N` of `Array{T, N}`).
    Val(i64),
    /// A `Bool` type parameter (the `L` of `SubArray{T, N, P, I, L}`).
    ValBool(bool),
    /// `Symbol`: the type of quoted names (`:a`).
    Symbol,
    /// A symbol type parameter (the `:π` of `Irrational{:π}`).
    ValSym(Symbol),
    /// `Union{A, B, ...}`: at least two members, flattened, sorted, no duplicates.
    Union(Arc<[Type]>),
    /// The tangent of a value that has no derivative (integers, strings, ...).
    NoTangent,
    /// The forward data of a value that has none (floats, integers, ...).
    NoFData,
    /// The reverse data of a value that has none (integers, arrays, mutable structs, ...).
    NoRData,
    /// The tangent of an immutable struct or named tuple `P`: a field per field of `P`, of that
    /// field's tangent type (see `tangent.rs`).
    Tangent(Arc<Type>),
    /// The tangent of a mutable struct `P` (mutable itself, with identity).
    MutableTangent(Arc<Type>),
    /// The forward data of an immutable struct `P`: the fdata of each field.
    FData(Arc<Type>),
    /// The reverse data of an immutable struct `P`: the rdata of each field.
    RData(Arc<Type>),
}

/// Unions wider than this widen to `Any` (Julia's `MAX_TYPEUNION_LENGTH` is similar).
pub const MAX_UNION: usize = 4;

impl Type {
    pub fn vector(elem: Type) -> Type {
        Type::Array(Arc::new(elem), 1)
    }
    pub fn array(elem: Type, n: u32) -> Type {
        Type::Array(Arc::new(elem), n)
    }
    pub fn tuple(elems: Vec<Type>) -> Type {
        Type::Tuple(elems.into())
    }
    pub fn type_of_type(t: Type) -> Type {
        Type::Type(Arc::new(t))
    }
    pub fn structure(name: &str, params: Vec<Type>) -> Type {
        Type::Struct(sym(name), params.into())
    }
    pub fn abstract_(name: &str) -> Type {
        Type::Abstract(sym(name), Arc::from(vec![]))
    }

    /// Whether a value can have exactly this type.
    pub fn is_concrete(&self) -> bool {
        match self {
            Type::Bottom
            | Type::Any
            | Type::Abstract(..)
            | Type::Union(_)
            | Type::Val(_)
            | Type::ValBool(_)
            | Type::ValSym(_)
            // The instances of a parametric type with any parameters (the elements of a
            // `Vector{Point}`): each value is of some `Point{T}`.
            | Type::UnionAll(_) => false,
            Type::Int64
            | Type::Symbol
            | Type::Float64
            | Type::Float32
            | Type::Bool
            | Type::Nothing
            | Type::String
            | Type::Function(_)
            | Type::Type(_) => true,
            Type::Array(..) => true,
            Type::Tuple(ts) => ts.iter().all(|t| t.is_concrete()),
            Type::NamedTuple(_, ts) => ts.iter().all(|t| t.is_concrete()),
            Type::Struct(..) => true,
            Type::NoTangent | Type::NoFData | Type::NoRData => true,
            Type::Tangent(p) | Type::MutableTangent(p) | Type::FData(p) | Type::RData(p) => {
                p.is_concrete()
            }
        }
    }

    pub fn is_float(&self) -> bool {
        matches!(self, Type::Float64 | Type::Float32)
    }

    /// Types whose values are immutable bit patterns of a fixed size (Julia's `isbitstype`),
    /// given a way to ask whether a struct is mutable and what its field types are.
    pub fn is_bits(&self, env: &TypeEnv) -> bool {
        match self {
            Type::Int64 | Type::Float64 | Type::Float32 | Type::Bool | Type::Nothing => true,
            Type::Function(_) | Type::Type(_) | Type::UnionAll(_) => true,
            Type::Tuple(ts) => ts.iter().all(|t| t.is_bits(env)),
            Type::NamedTuple(_, ts) => ts.iter().all(|t| t.is_bits(env)),
            Type::Struct(name, _) => match env.struct_def(*name) {
                Some(def) if !def.mutable => env
                    .field_types(self)
                    .is_some_and(|fs| fs.iter().all(|t| t.is_bits(env))),
                _ => false,
            },
            Type::NoTangent | Type::NoFData | Type::NoRData => true,
            Type::Tangent(_) | Type::FData(_) | Type::RData(_) => env
                .field_types(self)
                .is_some_and(|fs| fs.iter().all(|t| t.is_bits(env))),
            _ => false,
        }
    }

    /// Whether struct `name` appears in this type, as itself or inside it.
    pub fn mentions_struct(&self, name: Symbol) -> bool {
        match self {
            Type::Struct(n, ps) => *n == name || ps.iter().any(|p| p.mentions_struct(name)),
            Type::Abstract(_, ts) | Type::Tuple(ts) | Type::NamedTuple(_, ts) | Type::Union(ts) => {
                ts.iter().any(|t| t.mentions_struct(name))
            }
            Type::Array(t, _)
            | Type::Type(t)
            | Type::Tangent(t)
            | Type::MutableTangent(t)
            | Type::FData(t)
            | Type::RData(t) => t.mentions_struct(name),
            Type::Bottom
            | Type::Any
            | Type::Int64
            | Type::Float64
            | Type::Float32
            | Type::Bool
            | Type::Nothing
            | Type::String
            | Type::Function(_)
            | Type::UnionAll(_)
            | Type::Val(_)
            | Type::ValBool(_)
            | Type::Symbol
            | Type::ValSym(_)
            | Type::NoTangent
            | Type::NoFData
            | Type::NoRData => false,
        }
    }

    /// Members of a union, or the type itself.
    pub fn members(&self) -> Vec<Type> {
        match self {
            Type::Union(ts) => ts.to_vec(),
            Type::Bottom => vec![],
            t => vec![t.clone()],
        }
    }

    /// A union of the given types, flattened and widened to `Any` past [`MAX_UNION`] members.
    pub fn union_of(types: impl IntoIterator<Item = Type>) -> Type {
        let mut ms: Vec<Type> = Vec::new();
        for t in types {
            match t {
                Type::Any => return Type::Any,
                Type::Bottom => {}
                Type::Union(ts) => ms.extend(ts.iter().cloned()),
                t => ms.push(t),
            }
        }
        ms.sort();
        ms.dedup();
        match ms.len() {
            0 => Type::Bottom,
            1 => ms.pop().unwrap_or(Type::Bottom),
            n if n > MAX_UNION => Type::Any,
            _ => {
                // A union containing an abstract type or non-concrete member is kept only if
                // small; wider unions of abstract types lose precision to `Any`.
                if ms.iter().any(|t| !t.is_concrete()) {
                    return Type::Any;
                }
                Type::Union(ms.into())
            }
        }
    }

    pub fn join(&self, other: &Type) -> Type {
        if self == other {
            return self.clone();
        }
        Type::union_of([self.clone(), other.clone()])
    }

    /// Whether the type mentions `Any`-like imprecision (not concrete and not a small union of
    /// concrete types).
    pub fn is_precise(&self) -> bool {
        match self {
            Type::Union(ts) => ts.iter().all(|t| t.is_concrete()),
            Type::Bottom => true,
            t => t.is_concrete(),
        }
    }

    pub fn name_str(&self) -> String {
        format!("{self}")
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_type(f, self, false)
    }
}

/// Whether `name` is a closure type's (`#f#3`, made by `TypeEnv::closure_name`): the only
/// type names that are not identifiers.
pub fn is_closure_name(name: Symbol) -> bool {
    name.as_str().starts_with('#')
}

/// A type's name as Julia prints it: a name that is not an identifier (a closure's, `#f#3`)
/// is quoted, `var"#f#3"`.
pub struct JuliaName(pub Symbol);

/// The table name of a program's own function that shares its name with a library function
/// (`sum(x) = ...` without `import Base: sum`): `Main.sum`.
pub fn own_function_table(name: Symbol) -> Symbol {
    sym(&format!("Main.{name}"))
}

/// A generic function's name as Julia shows it: a program's own function of a library name
/// (table `Main.sum`) is `sum`.
pub fn function_name(table: Symbol) -> &'static str {
    let n = table.as_str();
    n.strip_prefix("Main.").unwrap_or(n)
}

impl fmt::Display for JuliaName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.as_str();
        if is_closure_name(self.0) {
            write!(f, "var\"{n}\"")
        } else {
            f.write_str(n)
        }
    }
}

/// The qualified name Julia shows for a type of Base that the prelude names apart from the
/// program's own names: `_Iterators_Take` is `Base.Iterators.Take`, `_Base_Generator` is
/// `Base.Generator`, `_Mooncake_Config` is `Mooncake.Config`.
fn qualified_base_name(n: &str) -> Option<String> {
    if let Some(rest) = n.strip_prefix("_Iterators_") {
        return rest
            .starts_with(|c: char| c.is_ascii_uppercase())
            .then(|| format!("Base.Iterators.{rest}"));
    }
    if let Some(rest) = n.strip_prefix("_Mooncake_") {
        return Some(format!("Mooncake.{rest}"));
    }
    // ChainRulesCore's `NoTangent` and `Tangent`, as a program that uses it writes them.
    if let Some(rest) = n.strip_prefix("_CRC_") {
        return Some(rest.to_string());
    }
    n.strip_prefix("_Base_").map(|rest| format!("Base.{rest}"))
}

/// Displays a type in IR text form: like Julia's, except that an unapplied parametric type is
/// written `UnionAll{Point}` so that it reads back unambiguously.
pub struct IrType<'a>(pub &'a Type);

impl fmt::Display for IrType<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_type(f, self.0, true)
    }
}

fn write_type(f: &mut fmt::Formatter<'_>, t: &Type, ir: bool) -> fmt::Result {
    let params = |f: &mut fmt::Formatter<'_>, ps: &[Type]| -> fmt::Result {
        if ps.is_empty() {
            return Ok(());
        }
        write!(f, "{{")?;
        for (i, p) in ps.iter().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write_type(f, p, ir)?;
        }
        write!(f, "}}")
    };
    match t {
        Type::Bottom => write!(f, "Union{{}}"),
        Type::Any => write!(f, "Any"),
        Type::Int64 => write!(f, "Int64"),
        Type::Float64 => write!(f, "Float64"),
        Type::Float32 => write!(f, "Float32"),
        Type::Bool => write!(f, "Bool"),
        Type::Nothing => write!(f, "Nothing"),
        Type::String => write!(f, "String"),
        Type::Array(e, 1) => {
            write!(f, "Vector{{")?;
            write_type(f, e, ir)?;
            write!(f, "}}")
        }
        Type::Array(e, 2) => {
            write!(f, "Matrix{{")?;
            write_type(f, e, ir)?;
            write!(f, "}}")
        }
        Type::Array(e, n) => {
            write!(f, "Array{{")?;
            write_type(f, e, ir)?;
            write!(f, ", {n}}}")
        }
        // Julia writes a tuple of more than three elements of one type as `NTuple{n, T}`.
        Type::Tuple(ts) if !ir && ts.len() > 3 && ts.iter().all(|t| *t == ts[0]) => {
            write!(f, "NTuple{{{}, ", ts.len())?;
            write_type(f, &ts[0], ir)?;
            write!(f, "}}")
        }
        Type::Tuple(ts) => {
            write!(f, "Tuple")?;
            if ts.is_empty() {
                write!(f, "{{}}")
            } else {
                params(f, ts)
            }
        }
        Type::NamedTuple(names, ts) => {
            write!(f, "@NamedTuple{{")?;
            for (i, (n, t)) in names.iter().zip(ts.iter()).enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                write!(f, "{n}::")?;
                write_type(f, t, ir)?;
            }
            write!(f, "}}")
        }
        Type::Struct(n, ps) | Type::Abstract(n, ps) => {
            // Julia spells one- and two-dimensional abstract arrays `AbstractVector{T}`.
            if n.as_str() == "AbstractArray" && ps.len() == 2 {
                if ps[1] == Type::Val(1) {
                    write!(f, "AbstractVector{{")?;
                    write_type(f, &ps[0], ir)?;
                    return write!(f, "}}");
                }
                if ps[1] == Type::Val(2) {
                    write!(f, "AbstractMatrix{{")?;
                    write_type(f, &ps[0], ir)?;
                    return write!(f, "}}");
                }
            }
            // `Complex{Float64}` and `Complex{Float32}` print as their aliases, as in Julia.
            if !ir && n.as_str() == "Complex" {
                match ps.as_ref() {
                    [Type::Float64] => return write!(f, "ComplexF64"),
                    [Type::Float32] => return write!(f, "ComplexF32"),
                    _ => {}
                }
            }
            // Types of Base that Julia does not export print qualified.
            if !ir
                && matches!(
                    n.as_str(),
                    "OneTo" | "Slice" | "TwicePrecision" | "RefValue" | "Pairs"
                )
            {
                write!(f, "Base.")?;
            }
            if let (false, Some(q)) = (ir, crate::print_scope::shown_name(n.as_str())) {
                write!(f, "{q}")?;
            } else if let (false, Some(q)) = (ir, qualified_base_name(n.as_str())) {
                write!(f, "{q}")?;
            } else if ir {
                write!(f, "{n}")?;
            } else {
                write!(f, "{}", JuliaName(*n))?;
            }
            params(f, ps)
        }
        Type::Function(n) if ir => write!(f, "typeof({n})"),
        Type::Function(n) => write!(f, "typeof({})", function_name(*n)),
        Type::Type(t) => {
            write!(f, "Type{{")?;
            write_type(f, t, ir)?;
            write!(f, "}}")
        }
        Type::UnionAll(n) if ir => write!(f, "UnionAll{{{n}}}"),
        Type::UnionAll(n) => write!(f, "{}", JuliaName(*n)),
        Type::Val(v) => write!(f, "{v}"),
        Type::ValBool(v) => write!(f, "{v}"),
        Type::Symbol => write!(f, "Symbol"),
        Type::ValSym(s) => write!(f, ":{s}"),
        Type::Union(ts) => {
            write!(f, "Union")?;
            params(f, ts)
        }
        Type::NoTangent | Type::NoFData | Type::NoRData => {
            let name = match t {
                Type::NoTangent => "NoTangent",
                Type::NoFData => "NoFData",
                _ => "NoRData",
            };
            match crate::print_scope::shown_name(name) {
                Some(q) if !ir => write!(f, "{q}"),
                _ => write!(f, "{name}"),
            }
        }
        Type::Tangent(p) | Type::MutableTangent(p) | Type::FData(p) | Type::RData(p) => {
            let name = match t {
                Type::Tangent(_) => "Tangent",
                Type::MutableTangent(_) => "MutableTangent",
                Type::FData(_) => "FData",
                _ => "RData",
            };
            if !ir {
                // In a program's output, as Mooncake writes them: by the named tuple of the
                // fields' types (a complex number's tangent is a complex number).
                if let Some((shown, fields)) = crate::print_scope::tangent_form(t, name) {
                    write!(f, "{shown}{{")?;
                    write_type(f, &fields, ir)?;
                    return write!(f, "}}");
                }
                if let Some(shown) = crate::print_scope::shown_name(name) {
                    if matches!(&**p, Type::Struct(n, _) if n.as_str() == "Complex") {
                        return write_type(f, p, ir);
                    }
                    write!(f, "{shown}{{")?;
                    write_type(f, p, ir)?;
                    return write!(f, "}}");
                }
            }
            write!(f, "{name}{{")?;
            write_type(f, p, ir)?;
            write!(f, "}}")
        }
    }
}

impl fmt::Debug for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

// ---------------------------------------------------------------------------------------------
// Type patterns: types with variables, as written in signatures and field declarations.

/// A type expression that may mention type variables (`Vector{T}`, `AbstractVector{<:Real}`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum TypePat {
    /// A fixed type.
    Ty(Type),
    /// A type variable bound by `where` or by a struct's parameter list.
    Var(Symbol),
    /// `Head{args...}` with some pattern arguments.
    App(Head, Vec<TypePat>),
    /// `<:T` inside braces: any type below `T` (an anonymous existential variable).
    Below(Box<TypePat>),
}

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Head {
    Array,
    Tuple,
    /// `NTuple{N, T}` whose length `N` is a variable: a tuple of `N` elements of `T` once
    /// `N` is known (with a literal `N` it is written out as a `Tuple`).
    NTuple,
    Type,
    Struct(Symbol),
    Abstract(Symbol),
    /// `Union{A, B}` of patterns
    Union,
}

/// A type variable with its upper bound (`T <: Real`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct TypeVar {
    pub name: Symbol,
    pub upper: TypePat,
}

impl TypePat {
    pub fn any() -> TypePat {
        TypePat::Ty(Type::Any)
    }

    /// Replaces variables by their bindings. `None` if a variable is unbound.
    pub fn subst(&self, b: &FxHashMap<Symbol, Type>) -> Option<Type> {
        Some(match self {
            TypePat::Ty(t) => t.clone(),
            TypePat::Var(v) => b.get(v)?.clone(),
            TypePat::Below(_) => return None,
            TypePat::App(head, args) => {
                let args: Option<Vec<Type>> = args.iter().map(|a| a.subst(b)).collect();
                apply_head(*head, args?)?
            }
        })
    }

    /// Replaces variables by their upper bounds (for specificity comparisons).
    pub fn upper_bound(&self, vars: &[TypeVar]) -> Type {
        match self {
            TypePat::Ty(t) => t.clone(),
            TypePat::Var(v) => vars
                .iter()
                .find(|tv| tv.name == *v)
                .map(|tv| tv.upper.upper_bound(vars))
                .unwrap_or(Type::Any),
            TypePat::Below(p) => p.upper_bound(vars),
            TypePat::App(head, args) => {
                let ups: Vec<Type> = args.iter().map(|a| a.upper_bound(vars)).collect();
                // An application with a non-concrete parameter is only approximated.
                match head {
                    Head::Tuple => Type::tuple(ups),
                    Head::Union => Type::union_of(ups),
                    _ => apply_head(*head, ups).unwrap_or(Type::Any),
                }
            }
        }
    }

    /// Whether struct `name` appears in this pattern.
    pub fn mentions_struct(&self, name: Symbol) -> bool {
        match self {
            TypePat::Ty(t) => t.mentions_struct(name),
            TypePat::Var(_) => false,
            TypePat::Below(p) => p.mentions_struct(name),
            TypePat::App(head, args) => {
                *head == Head::Struct(name) || args.iter().any(|a| a.mentions_struct(name))
            }
        }
    }

    pub fn mentions_vars(&self) -> bool {
        match self {
            TypePat::Ty(_) => false,
            TypePat::Var(_) | TypePat::Below(_) => true,
            TypePat::App(_, args) => args.iter().any(|a| a.mentions_vars()),
        }
    }
}

impl fmt::Display for TypePat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypePat::Ty(t) => write!(f, "{t}"),
            TypePat::Var(v) => write!(f, "{v}"),
            TypePat::Below(p) => write!(f, "<:{p}"),
            TypePat::App(head, args) => {
                let name = match head {
                    Head::Array => "Array".to_string(),
                    Head::Tuple => "Tuple".to_string(),
                    Head::NTuple => "NTuple".to_string(),
                    Head::Type => "Type".to_string(),
                    Head::Union => "Union".to_string(),
                    Head::Struct(s) | Head::Abstract(s) => JuliaName(*s).to_string(),
                };
                if *head == Head::Array && args.len() == 2 {
                    if args[1] == TypePat::Ty(Type::Val(1)) {
                        return write!(f, "Vector{{{}}}", args[0]);
                    }
                    if args[1] == TypePat::Ty(Type::Val(2)) {
                        return write!(f, "Matrix{{{}}}", args[0]);
                    }
                }
                if *head == Head::Abstract(sym("AbstractArray")) && args.len() == 2 {
                    if args[1] == TypePat::Ty(Type::Val(1)) {
                        return write!(f, "AbstractVector{{{}}}", args[0]);
                    }
                    if args[1] == TypePat::Ty(Type::Val(2)) {
                        return write!(f, "AbstractMatrix{{{}}}", args[0]);
                    }
                }
                write!(f, "{name}{{")?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{a}")?;
                }
                write!(f, "}}")
            }
        }
    }
}

/// Builds `head{args}` from concrete arguments.
/// The longest `NTuple{N, T}` a variable `N` may stand for.
pub const MAX_NTUPLE: i64 = 64;

pub fn apply_head(head: Head, args: Vec<Type>) -> Option<Type> {
    Some(match head {
        Head::Array => {
            if args.len() != 2 {
                return None;
            }
            let n = match args[1] {
                Type::Val(n) if n >= 0 => n as u32,
                _ => return None,
            };
            Type::Array(Arc::new(args[0].clone()), n)
        }
        Head::Tuple => Type::tuple(args),
        Head::NTuple => match args[..] {
            [Type::Val(n), ref t] if (0..=MAX_NTUPLE).contains(&n) => {
                Type::tuple(vec![t.clone(); n as usize])
            }
            _ => return None,
        },
        Head::Type => {
            if args.len() != 1 {
                return None;
            }
            Type::type_of_type(args[0].clone())
        }
        Head::Union => Type::union_of(args),
        Head::Struct(s) => Type::Struct(s, args.into()),
        Head::Abstract(s) => Type::Abstract(s, args.into()),
    })
}

// ---------------------------------------------------------------------------------------------
// Declarations.

#[derive(Clone, Debug, PartialEq)]
pub struct StructDef {
    pub name: Symbol,
    pub params: Vec<TypeVar>,
    pub fields: Vec<(Symbol, TypePat)>,
    pub mutable: bool,
    pub supertype: TypePat,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AbstractDef {
    pub name: Symbol,
    pub params: Vec<TypeVar>,
    pub supertype: TypePat,
}

/// The declared types of a program: built-in abstract types plus user structs and abstracts.
#[derive(Clone, Debug)]
pub struct TypeEnv {
    structs: FxHashMap<Symbol, StructDef>,
    abstracts: FxHashMap<Symbol, AbstractDef>,
    /// `const V = Vector{Float64}`: names of types (type aliases).
    aliases: FxHashMap<Symbol, TypePat>,
    /// The number of the next closure type (shared by the copies of one program's
    /// environment).
    closure_ids: std::sync::Arc<std::sync::atomic::AtomicU32>,
    /// Library function names the program defines functions of its own under (`sum(x) =
    /// ...` without `import Base: sum`): its calls of them are not the library's.
    own_functions: rustc_hash::FxHashSet<Symbol>,
    /// The provided packages' type names the program brought into scope (how its output
    /// writes them).
    pub packages: crate::print_scope::PackageScope,
}

impl Default for TypeEnv {
    fn default() -> Self {
        TypeEnv::new()
    }
}

fn tv(name: &str) -> TypeVar {
    TypeVar {
        name: sym(name),
        upper: TypePat::any(),
    }
}

impl TypeEnv {
    /// Records that the program defines a function of its own named `name`, a name the
    /// library also gives a function.
    pub fn add_own_function(&mut self, name: Symbol) {
        self.own_functions.insert(name);
    }

    /// Whether the program's `name` is a function of its own rather than the library's.
    pub fn is_own_function(&self, name: Symbol) -> bool {
        self.own_functions.contains(&name)
    }

    /// A fresh name for the type of a closure written in function `within` (`#f#3`, or
    /// `#f#g#3` for the local function `g`): numbered in the order the program makes them,
    /// skipping names already taken.
    pub fn closure_name(&self, within: &str, local: Option<Symbol>) -> Symbol {
        loop {
            let id = 1 + self
                .closure_ids
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let name = match local {
                Some(g) => sym(&format!("#{within}#{g}#{id}")),
                None => sym(&format!("#{within}#{id}")),
            };
            if !self.structs.contains_key(&name) {
                return name;
            }
        }
    }

    /// Numbers the closures made from now on from 1 again (a program's own closures after
    /// the prelude's); names already taken are skipped.
    pub fn restart_closure_numbers(&self) {
        self.closure_ids
            .store(0, std::sync::atomic::Ordering::Relaxed);
    }

    /// The built-in abstract hierarchy.
    pub fn new() -> TypeEnv {
        let mut env = TypeEnv {
            structs: FxHashMap::default(),
            abstracts: FxHashMap::default(),
            closure_ids: Default::default(),
            aliases: FxHashMap::default(),
            own_functions: Default::default(),
            packages: Default::default(),
        };
        let simple = [
            ("Number", "Any"),
            ("Real", "Number"),
            ("AbstractFloat", "Real"),
            ("Integer", "Real"),
            ("Signed", "Integer"),
            ("Unsigned", "Integer"),
            ("AbstractString", "Any"),
            ("Function", "Any"),
            ("Exception", "Any"),
            // Any tuple (`Tuple` without parameters) and any named tuple.
            ("Tuple", "Any"),
            ("NamedTuple", "Any"),
        ];
        for (n, s) in simple {
            env.abstracts.insert(
                sym(n),
                AbstractDef {
                    name: sym(n),
                    params: vec![],
                    supertype: TypePat::Ty(if s == "Any" {
                        Type::Any
                    } else {
                        Type::abstract_(s)
                    }),
                },
            );
        }
        // AbstractArray{T,N} <: Any; AbstractRange{T} <: AbstractArray{T,1}
        env.abstracts.insert(
            sym("AbstractArray"),
            AbstractDef {
                name: sym("AbstractArray"),
                params: vec![tv("T"), tv("N")],
                supertype: TypePat::any(),
            },
        );
        env.abstracts.insert(
            sym("AbstractRange"),
            AbstractDef {
                name: sym("AbstractRange"),
                params: vec![tv("T")],
                supertype: TypePat::App(
                    Head::Abstract(sym("AbstractArray")),
                    vec![TypePat::Var(sym("T")), TypePat::Ty(Type::Val(1))],
                ),
            },
        );
        env
    }

    pub fn add_struct(&mut self, def: StructDef) {
        self.structs.insert(def.name, def);
    }

    /// Forgets struct `name` (a definition that failed part way).
    pub fn remove_struct(&mut self, name: Symbol) {
        self.structs.remove(&name);
    }

    pub fn add_abstract(&mut self, def: AbstractDef) {
        self.abstracts.insert(def.name, def);
    }

    /// Makes `name` stand for the type (or pattern) `pat` in type expressions.
    pub fn add_alias(&mut self, name: Symbol, pat: TypePat) {
        self.aliases.insert(name, pat);
    }

    /// The type a type alias stands for.
    pub fn alias(&self, name: Symbol) -> Option<&TypePat> {
        self.aliases.get(&name)
    }

    pub fn struct_def(&self, name: Symbol) -> Option<&StructDef> {
        self.structs.get(&name)
    }

    pub fn abstract_def(&self, name: Symbol) -> Option<&AbstractDef> {
        self.abstracts.get(&name)
    }

    pub fn is_mutable(&self, t: &Type) -> bool {
        match t {
            Type::Struct(n, _) => self.structs.get(n).is_some_and(|d| d.mutable),
            Type::Array(..) | Type::MutableTangent(_) => true,
            _ => false,
        }
    }

    /// Field names and concrete field types of a struct, tuple or named tuple type.
    pub fn field_types(&self, t: &Type) -> Option<Vec<Type>> {
        match t {
            Type::Struct(n, ps) => {
                let def = self.structs.get(n)?;
                let b = bind_params(&def.params, ps)?;
                def.fields
                    .iter()
                    .map(|(_, p)| p.subst(&b).or(Some(Type::Any)))
                    .collect()
            }
            Type::Tuple(ts) => Some(ts.to_vec()),
            Type::NamedTuple(_, ts) => Some(ts.to_vec()),
            Type::Tangent(p) | Type::MutableTangent(p) => Some(
                self.field_types(p)?
                    .iter()
                    .map(|f| crate::tangent::tangent_type(f, self))
                    .collect(),
            ),
            Type::FData(p) => Some(
                self.field_types(p)?
                    .iter()
                    .map(|f| crate::tangent::fdata_type(f, self))
                    .collect(),
            ),
            Type::RData(p) => Some(
                self.field_types(p)?
                    .iter()
                    .map(|f| crate::tangent::rdata_type(f, self))
                    .collect(),
            ),
            _ => None,
        }
    }

    pub fn field_names(&self, t: &Type) -> Option<Vec<Symbol>> {
        match t {
            Type::Struct(n, _) => Some(self.structs.get(n)?.fields.iter().map(|f| f.0).collect()),
            Type::NamedTuple(ns, _) => Some(ns.to_vec()),
            Type::Tangent(p) | Type::MutableTangent(p) | Type::FData(p) | Type::RData(p) => {
                self.field_names(p)
            }
            _ => None,
        }
    }

    pub fn field_index(&self, t: &Type, name: Symbol) -> Option<usize> {
        self.field_names(t)?.iter().position(|n| *n == name)
    }

    /// The declared supertype of a type (`None` for `Any`).
    pub fn supertype(&self, t: &Type) -> Option<Type> {
        Some(match t {
            Type::Any => return None,
            Type::Bottom => Type::Any,
            Type::Int64 => Type::abstract_("Signed"),
            Type::Bool => Type::abstract_("Integer"),
            Type::Float64 | Type::Float32 => Type::abstract_("AbstractFloat"),
            Type::String => Type::abstract_("AbstractString"),
            Type::Function(_) => Type::abstract_("Function"),
            Type::Tuple(_) => Type::abstract_("Tuple"),
            Type::NamedTuple(..) => Type::abstract_("NamedTuple"),
            Type::Array(e, n) => Type::Abstract(
                sym("AbstractArray"),
                vec![(**e).clone(), Type::Val(*n as i64)].into(),
            ),
            Type::Struct(n, ps) => {
                let def = self.structs.get(n)?;
                let b = bind_params(&def.params, ps)?;
                def.supertype.subst(&b).unwrap_or(Type::Any)
            }
            Type::Abstract(n, ps) => {
                let def = self.abstracts.get(n)?;
                let b = bind_params(&def.params, ps).unwrap_or_default();
                def.supertype.subst(&b).unwrap_or(Type::Any)
            }
            // A parametric struct or abstract type with its parameters free (`S` of
            // `struct S{T} <: B`): its declared supertype where that names no parameter, else
            // that supertype's own parametric type (`S{T} <: AbstractVector{T}` gives
            // `AbstractVector`).
            Type::UnionAll(n) => {
                let sup = match (self.structs.get(n), self.abstracts.get(n)) {
                    (Some(def), _) => &def.supertype,
                    (None, Some(def)) => &def.supertype,
                    (None, None) => return Some(Type::Any),
                };
                match sup.subst(&FxHashMap::default()) {
                    Some(t) => t,
                    None => match sup {
                        TypePat::App(Head::Abstract(h) | Head::Struct(h), _) => Type::UnionAll(*h),
                        _ => Type::Any,
                    },
                }
            }
            _ => Type::Any,
        })
    }

    /// Julia's `typejoin(a, b)`: the most specific declared supertype of both.
    pub fn typejoin(&self, a: &Type, b: &Type) -> Type {
        if self.subtype(a, b) {
            return b.clone();
        }
        if self.subtype(b, a) {
            return a.clone();
        }
        let mut s = a.clone();
        while let Some(up) = self.supertype(&s) {
            if self.subtype(b, &up) {
                return up;
            }
            s = up;
        }
        Type::Any
    }

    /// Julia's `Base.promote_typejoin(a, b)`: `typejoin`, except that `Nothing` joins into a
    /// `Union` (the element type `map` widens to).
    pub fn promote_typejoin(&self, a: &Type, b: &Type) -> Type {
        match (a, b) {
            (Type::Nothing, t) | (t, Type::Nothing) if *t != Type::Nothing => Type::Nothing.join(t),
            _ => self.typejoin(a, b),
        }
    }

    /// Julia's `a <: b` on types (not patterns).
    pub fn subtype(&self, a: &Type, b: &Type) -> bool {
        if a == b {
            return true;
        }
        match (a, b) {
            (Type::Bottom, _) => true,
            (_, Type::Any) => true,
            (Type::Any, _) => false,
            (Type::Union(ms), _) => ms.iter().all(|m| self.subtype(m, b)),
            (_, Type::Union(ms)) => ms.iter().any(|m| self.subtype(a, m)),
            (Type::Tuple(xs), Type::Tuple(ys)) => {
                xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| self.subtype(x, y))
            }
            (Type::Type(_), Type::Type(_)) => false,
            // `(1, 2) isa Tuple`, `(a = 1,) isa NamedTuple`.
            (Type::Tuple(_), Type::UnionAll(n)) => n.as_str() == "Tuple",
            (Type::NamedTuple(..), Type::UnionAll(n)) => n.as_str() == "NamedTuple",
            (Type::Array(..) | Type::Struct(..) | Type::Abstract(..), Type::UnionAll(n)) => {
                self.head_name(a) == Some(*n)
                    || (n.as_str() == "Vector" && matches!(a, Type::Array(_, 1)))
                    || (n.as_str() == "Matrix" && matches!(a, Type::Array(_, 2)))
                    || self.below_abstract_unionall(a, *n)
            }
            (_, Type::Abstract(..)) => {
                let mut cur = self.supertype(a);
                let mut guard = 0;
                while let Some(s) = cur {
                    if &s == b {
                        return true;
                    }
                    guard += 1;
                    if guard > 64 {
                        break;
                    }
                    cur = self.supertype(&s);
                }
                false
            }
            _ => false,
        }
    }

    /// Whether `t` (or one of its supertypes) is an instance of the parametric abstract type
    /// `n` (`AbstractArray`, `AbstractRange`, a declared one) or of Julia's aliases
    /// `AbstractVector`/`AbstractMatrix` (`AbstractArray{T,1}`/`AbstractArray{T,2}` for any
    /// `T`).
    fn below_abstract_unionall(&self, t: &Type, n: Symbol) -> bool {
        let (head, dims) = match n.as_str() {
            "AbstractVector" => (sym("AbstractArray"), Some(1)),
            "AbstractMatrix" => (sym("AbstractArray"), Some(2)),
            _ => (n, None),
        };
        let mut cur = Some(t.clone());
        let mut guard = 0;
        while let Some(c) = cur {
            if let Type::Abstract(cn, ps) = &c {
                if *cn == head {
                    return match dims {
                        Some(d) => ps.get(1) == Some(&Type::Val(d)),
                        None => true,
                    };
                }
            }
            guard += 1;
            if guard > 64 {
                break;
            }
            cur = self.supertype(&c);
        }
        false
    }

    fn head_name(&self, t: &Type) -> Option<Symbol> {
        match t {
            Type::Array(..) => Some(sym("Array")),
            Type::Struct(n, _) => Some(*n),
            _ => None,
        }
    }

    /// The type of `typeintersect`-free dispatch: does the concrete or abstract type `t` match
    /// pattern `p`, extending `b` with the variable bindings? Variables that occur at top level
    /// bind to the argument's type (Julia's diagonal rule for concrete arguments).
    pub fn matches(
        &self,
        t: &Type,
        p: &TypePat,
        vars: &[TypeVar],
        b: &mut FxHashMap<Symbol, Type>,
        invariant: bool,
    ) -> bool {
        match p {
            TypePat::Ty(pt) => {
                if invariant {
                    t == pt
                } else {
                    self.subtype(t, pt)
                }
            }
            TypePat::Var(v) => {
                let Some(var) = vars.iter().find(|tv| tv.name == *v) else {
                    // A name that is not a variable here: treat as Any.
                    return true;
                };
                if let Some(bound) = b.get(v).cloned() {
                    return if invariant {
                        *t == bound
                    } else {
                        self.subtype(t, &bound)
                    };
                }
                // Check the upper bound, then bind.
                let mut tmp = b.clone();
                if !self.matches(t, &var.upper, vars, &mut tmp, false) {
                    return false;
                }
                b.insert(*v, t.clone());
                true
            }
            TypePat::Below(up) => self.matches(t, up, vars, b, false),
            TypePat::App(Head::Union, alts) => {
                alts.iter()
                    .any(|alt| self.matches(t, alt, vars, &mut b.clone(), invariant))
                    && {
                        // Bind through the first alternative that matches.
                        for alt in alts {
                            let mut tmp = b.clone();
                            if self.matches(t, alt, vars, &mut tmp, invariant) {
                                *b = tmp;
                                return true;
                            }
                        }
                        false
                    }
            }
            TypePat::App(head, args) => {
                if let Type::Union(ms) = t {
                    if invariant {
                        return false;
                    }
                    // Every member must match (covariant position).
                    return ms.iter().all(|m| self.matches(m, p, vars, b, false));
                }
                match (head, t) {
                    (Head::Tuple, Type::Tuple(ts)) => {
                        // A trailing `Vararg` is not modelled: lengths must agree.
                        ts.len() == args.len()
                            && ts
                                .iter()
                                .zip(args)
                                .all(|(t, a)| self.matches(t, a, vars, b, invariant))
                    }
                    (Head::NTuple, Type::Tuple(ts)) => {
                        args.len() == 2
                            && self.matches(&Type::Val(ts.len() as i64), &args[0], vars, b, true)
                            && ts
                                .iter()
                                .all(|t| self.matches(t, &args[1], vars, b, invariant))
                    }
                    (Head::Type, Type::Type(inner)) => {
                        args.len() == 1 && self.matches(inner, &args[0], vars, b, true)
                    }
                    (Head::Array, Type::Array(e, n)) => {
                        args.len() == 2
                            && self.matches(e, &args[0], vars, b, true)
                            && self.matches(&Type::Val(*n as i64), &args[1], vars, b, true)
                    }
                    (Head::Struct(hn), Type::Struct(tn, ps)) if hn == tn => {
                        ps.len() == args.len()
                            && ps
                                .iter()
                                .zip(args)
                                .all(|(t, a)| self.matches(t, a, vars, b, true))
                    }
                    (Head::Abstract(hn), _) if !invariant => {
                        // Walk up t's supertypes to the abstract head, then match parameters.
                        let mut cur = Some(t.clone());
                        let mut guard = 0;
                        while let Some(c) = cur {
                            if let Type::Abstract(cn, ps) = &c {
                                if cn == hn {
                                    return ps.len() == args.len()
                                        && ps
                                            .iter()
                                            .zip(args)
                                            .all(|(t, a)| self.matches(t, a, vars, b, true));
                                }
                            }
                            guard += 1;
                            if guard > 64 {
                                break;
                            }
                            cur = self.supertype(&c);
                        }
                        false
                    }
                    (Head::Abstract(hn), Type::Abstract(cn, ps)) => {
                        hn == cn
                            && ps.len() == args.len()
                            && ps
                                .iter()
                                .zip(args)
                                .all(|(t, a)| self.matches(t, a, vars, b, true))
                    }
                    _ => false,
                }
            }
        }
    }
}

/// Binds a definition's parameters to the given arguments.
pub fn bind_params(params: &[TypeVar], args: &[Type]) -> Option<FxHashMap<Symbol, Type>> {
    if params.len() != args.len() {
        return None;
    }
    Some(
        params
            .iter()
            .zip(args)
            .map(|(p, a)| (p.name, a.clone()))
            .collect(),
    )
}

/// `MethodError: no method matching f(::A, ::B; k::T)` for a call with keyword arguments, from
/// the argument types of `#kwcall` (the named tuple of keywords, the function, the positional
/// arguments); `None` if they are not of that shape.
pub fn kwcall_signature(args: &[Type]) -> Option<String> {
    let (Some(Type::NamedTuple(names, kts)), Some(callee)) = (args.first(), args.get(1)) else {
        return None;
    };
    // A function by its name, a type (a constructor) as itself, a callable object by its
    // type (`(::Scale)`).
    let f = match callee {
        Type::Function(f) => function_name(*f).to_string(),
        Type::Type(t) => t.to_string(),
        t => format!("(::{t})"),
    };
    let pos: Vec<String> = args[2..].iter().map(|t| format!("::{t}")).collect();
    let kws: Vec<String> = names
        .iter()
        .zip(kts.iter())
        .map(|(n, t)| format!("{n}::{t}"))
        .collect();
    Some(format!(
        "MethodError: no method matching {f}({}; {})",
        pos.join(", "),
        kws.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subtyping_of_numbers_and_arrays() {
        let env = TypeEnv::new();
        assert!(env.subtype(&Type::Float64, &Type::abstract_("Real")));
        assert!(env.subtype(&Type::Int64, &Type::abstract_("Number")));
        assert!(env.subtype(&Type::Bool, &Type::abstract_("Integer")));
        assert!(!env.subtype(&Type::Float64, &Type::abstract_("Integer")));
        let v = Type::vector(Type::Float64);
        let av = Type::Abstract(
            sym("AbstractArray"),
            vec![Type::Float64, Type::Val(1)].into(),
        );
        assert!(env.subtype(&v, &av));
        assert!(!env.subtype(
            &Type::vector(Type::Float64),
            &Type::vector(Type::abstract_("Real"))
        ));
    }

    #[test]
    fn patterns_bind_variables() {
        let env = TypeEnv::new();
        let t = sym("T");
        let vars = vec![TypeVar {
            name: t,
            upper: TypePat::Ty(Type::abstract_("Real")),
        }];
        // AbstractVector{T} where T<:Real
        let p = TypePat::App(
            Head::Abstract(sym("AbstractArray")),
            vec![TypePat::Var(t), TypePat::Ty(Type::Val(1))],
        );
        let mut b = FxHashMap::default();
        assert!(env.matches(&Type::vector(Type::Float64), &p, &vars, &mut b, false));
        assert_eq!(b[&t], Type::Float64);
        let mut b = FxHashMap::default();
        assert!(!env.matches(&Type::vector(Type::String), &p, &vars, &mut b, false));
        let mut b = FxHashMap::default();
        assert!(!env.matches(&Type::array(Type::Float64, 2), &p, &vars, &mut b, false));
    }

    #[test]
    fn unions_flatten_and_widen() {
        let u = Type::union_of([Type::Int64, Type::Float64, Type::Int64]);
        assert_eq!(u.to_string(), "Union{Int64, Float64}");
        let w = Type::union_of([
            Type::Int64,
            Type::Float64,
            Type::Float32,
            Type::Bool,
            Type::String,
        ]);
        assert_eq!(w, Type::Any);
    }
}
