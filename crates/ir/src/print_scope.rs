//! How a program's output names the types of the packages the prelude provides.
//!
//! Julia writes a type qualified by its module (`Mooncake.NoTangent()`) unless the program
//! brought its name into scope (`using Mooncake: NoTangent`, or `using ChainRulesCore` for
//! the names ChainRulesCore exports), and writes Mooncake's tangent of a struct by the named
//! tuple of its fields' tangents (`Mooncake.Tangent{@NamedTuple{a::Float64}}((a = 1.0,))`).
//! [`PackageScope`] records what a program brought into scope; while a program prints, a
//! [`PrintScope`] made from it (and from the declarations of the structs whose tangents are
//! printed) decides these names. Outside a program's printing (the CLI's reports, error
//! messages) types keep their short names.

use crate::types::Type;
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use syntax::{sym, Symbol};

/// Mooncake's types in the prelude: the prelude's name and Mooncake's. Mooncake exports none
/// of them.
const MOONCAKE_TYPES: &[(&str, &str)] = &[
    ("NoTangent", "NoTangent"),
    ("NoFData", "NoFData"),
    ("NoRData", "NoRData"),
    ("Tangent", "Tangent"),
    ("MutableTangent", "MutableTangent"),
    ("FData", "FData"),
    ("RData", "RData"),
    ("CoDual", "CoDual"),
    ("Dual", "Dual"),
    ("NoPullback", "NoPullback"),
    ("MinimalCtx", "MinimalCtx"),
    ("DefaultCtx", "DefaultCtx"),
    ("ForwardMode", "ForwardMode"),
    ("ReverseMode", "ReverseMode"),
    ("_Mooncake_Mode", "Mode"),
    ("_Mooncake_Config", "Config"),
    ("_Mooncake_Cache", "Cache"),
    ("_Mooncake_Tangent", "Tangent"),
    ("_Mooncake_MutableTangent", "MutableTangent"),
    ("_Mooncake_FData", "FData"),
    ("_Mooncake_RData", "RData"),
];

/// ChainRulesCore's types in the prelude: the prelude's name and ChainRulesCore's. It
/// exports all of them.
const CHAINRULES_TYPES: &[(&str, &str)] = &[
    ("_CRC_NoTangent", "NoTangent"),
    ("_CRC_Tangent", "Tangent"),
    ("ZeroTangent", "ZeroTangent"),
    ("AbstractZero", "AbstractZero"),
    ("AbstractTangent", "AbstractTangent"),
    ("AbstractThunk", "AbstractThunk"),
    ("Thunk", "Thunk"),
    ("NotImplemented", "NotImplemented"),
    ("ProjectTo", "ProjectTo"),
];

/// The names of the provided packages' types a program brought into scope.
#[derive(Clone, Debug)]
pub struct PackageScope {
    /// Imported by name from Mooncake (`using Mooncake: CoDual`, `import Mooncake: CoDual`).
    mooncake: FxHashSet<Symbol>,
    /// `using ChainRulesCore`: all its exported names.
    chainrules_all: bool,
    /// Imported by name from ChainRulesCore.
    chainrules: FxHashSet<Symbol>,
    /// How the program's output writes each prelude type of these packages.
    shown: Arc<FxHashMap<Symbol, String>>,
}

impl Default for PackageScope {
    fn default() -> Self {
        let mut scope = PackageScope {
            mooncake: FxHashSet::default(),
            chainrules_all: false,
            chainrules: FxHashSet::default(),
            shown: Arc::default(),
        };
        scope.shown = Arc::new(scope.shown_names());
        scope
    }
}

impl PackageScope {
    /// Notes `using M`, `import M`, `using M: a, b` or `import M: a, b`.
    pub fn note_using(&mut self, modules: &[Symbol], names: &[Symbol], import: bool) {
        for m in modules {
            match m.as_str() {
                "Mooncake" => self.mooncake.extend(names.iter().copied()),
                "ChainRulesCore" if names.is_empty() => self.chainrules_all |= !import,
                "ChainRulesCore" => self.chainrules.extend(names.iter().copied()),
                _ => {}
            }
        }
        self.shown = Arc::new(self.shown_names());
    }

    fn shown_names(&self) -> FxHashMap<Symbol, String> {
        let mut shown = FxHashMap::default();
        for (prelude, name) in MOONCAKE_TYPES {
            let text = if self.mooncake.contains(&sym(name)) {
                name.to_string()
            } else {
                format!("Mooncake.{name}")
            };
            shown.insert(sym(prelude), text);
        }
        for (prelude, name) in CHAINRULES_TYPES {
            let visible = self.chainrules_all || self.chainrules.contains(&sym(name));
            let text = if visible {
                name.to_string()
            } else {
                format!("ChainRulesCore.{name}")
            };
            shown.insert(sym(prelude), text);
        }
        shown
    }

    /// The scope printing starts from (no struct tangents yet).
    pub fn print_scope(&self) -> PrintScope {
        PrintScope {
            names: self.shown.clone(),
            tangents: FxHashMap::default(),
        }
    }
}

/// The names a program's printing writes: see the module's documentation.
#[derive(Clone, Debug, Default)]
pub struct PrintScope {
    /// Prelude type names and how the program's output writes them.
    names: Arc<FxHashMap<Symbol, String>>,
    /// Struct tangent, fdata and rdata types (`Tangent{P}`) with their fields' names and
    /// types, written as Mooncake writes them.
    tangents: FxHashMap<Type, (Vec<Symbol>, Vec<Type>)>,
}

impl PrintScope {
    /// Whether the fields of tangent type `t` are known.
    pub fn knows(&self, t: &Type) -> bool {
        self.tangents.contains_key(t)
    }

    /// Records the fields of tangent type `t` (of a struct).
    pub fn add_tangent(&mut self, t: Type, names: Vec<Symbol>, types: Vec<Type>) {
        self.tangents.insert(t, (names, types));
    }
}

thread_local! {
    static SCOPE: RefCell<Option<Rc<PrintScope>>> = const { RefCell::new(None) };
}

/// Runs `f` (a program printing) with `scope` deciding the names of types.
pub fn with_print_scope<R>(scope: PrintScope, f: impl FnOnce() -> R) -> R {
    let old = SCOPE.with(|s| s.borrow_mut().replace(Rc::new(scope)));
    let r = f();
    SCOPE.with(|s| *s.borrow_mut() = old);
    r
}

fn current() -> Option<Rc<PrintScope>> {
    SCOPE.with(|s| s.borrow().clone())
}

/// How the program printing now writes prelude type `name`, if the scope decides it.
pub fn shown_name(name: &str) -> Option<String> {
    let scope = current()?;
    scope.names.get(&sym(name)).cloned()
}

/// Mooncake's form of a struct's tangent, fdata or rdata type `t`, `kind` its name
/// (`Tangent`): the kind's shown name and the named tuple type of its fields.
pub(crate) fn tangent_form(t: &Type, kind: &str) -> Option<(String, Type)> {
    let scope = current()?;
    let (names, types) = scope.tangents.get(t)?;
    let shown = scope
        .names
        .get(&sym(kind))
        .cloned()
        .unwrap_or_else(|| kind.to_string());
    Some((
        shown,
        Type::NamedTuple(names.clone().into(), types.clone().into()),
    ))
}

/// The field names of struct tangent `t` when the program printing now writes it Mooncake's
/// way (`Tangent{...}((a = 1.0,))`).
pub fn tangent_fields(t: &Type) -> Option<Vec<Symbol>> {
    let scope = current()?;
    scope.tangents.get(t).map(|(names, _)| names.clone())
}
