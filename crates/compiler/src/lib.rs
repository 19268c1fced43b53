//! The compiler: lowering of the AST to IR, SSA construction, method tables and dispatch, type
//! inference per method instance, and the optimisation passes. It does no I/O: the driver
//! hands it source text and runs the functions it produces.

pub mod broadcast;
pub mod closure;
pub mod error;
pub mod globals;
pub mod infer;
pub mod lower;
pub mod methods;
pub mod named_tuples;
pub mod packages;
pub mod passes;
pub mod ssa;
pub mod typeexpr;
pub mod user_rules;
pub mod views;

pub use error::{CompileError, ErrorKind, Warning};
pub use methods::{Dispatch, Method, MethodTable};

use ir::{Const, Function, InstData, Phase, Type, TypeEnv, TypePat};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;
use syntax::ast::{Expr, ExprKind};
use syntax::{Span, Symbol};

/// A method instance: method `method` of `table` specialised on argument types `sig`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MiKey {
    pub table: Symbol,
    pub method: u32,
    pub sig: Arc<[Type]>,
}

impl MiKey {
    /// The instance a static call (`Invoke`) calls.
    pub fn of(c: &ir::function::Callee) -> MiKey {
        MiKey {
            table: c.func,
            method: c.method,
            sig: c.sig.clone(),
        }
    }
    pub fn display(&self) -> String {
        let args: Vec<String> = self.sig[1..].iter().map(|t| t.to_string()).collect();
        format!("{}({})", self.table, args.join(", "))
    }
}

#[derive(Clone, Debug, PartialEq)]
enum MiState {
    InProgress(usize),
    Provisional(usize),
    Done,
}

#[derive(Clone, Debug)]
pub struct MethodInstance {
    pub ret: Type,
    state: MiState,
    used_recursively: bool,
    pub typed: Option<Arc<Function>>,
    pub optimised: Option<Arc<Function>>,
    /// The code that runs the instance (see [`Compiler::runnable`]), once asked for.
    pub runnable: Option<Arc<Function>>,
    /// The value every return of the instance gives, when inference knows it is always the
    /// same `Bool`, integer or symbol (`_has_high_rank(x::Matrix) = false`): callers branch on
    /// it at compile time, as Julia's constant propagation lets them.
    pub const_ret: Option<Const>,
}

/// What inference knows about a global variable.
#[derive(Clone, Debug)]
pub enum GlobalInfo {
    /// A `const` global: its type, and its value when it is a scalar constant.
    Const { ty: Type, value: Option<Const> },
    /// A global the program assigns in one place that runs at most once (see [`globals`]),
    /// after that assignment ran: its value, so its type, can no longer change, and code
    /// reads it as it reads a constant. (`value` as for `Const`.)
    Bound { ty: Type, value: Option<Const> },
    /// An ordinary global: any type (as Julia's untyped globals).
    Var,
}

impl GlobalInfo {
    /// Whether the global's value is fixed once defined (`Const` or `Bound`): code may read
    /// it once, early, or as a constant of the code.
    pub fn is_fixed(&self) -> bool {
        match self {
            GlobalInfo::Const { .. } | GlobalInfo::Bound { .. } => true,
            GlobalInfo::Var => false,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Options {
    /// Run the verifier after every pass (on in tests and debug builds).
    pub verify: bool,
    pub optimise: bool,
    /// Largest callee (in instructions) the inliner copies.
    pub inline_limit: usize,
    /// Functions whose calls are never inlined (those with rules of AD's default context, so
    /// that the transform sees the call).
    pub no_inline: Vec<syntax::Symbol>,
    /// Functions declared `@inline`: their calls are inlined up to a larger size than others'
    /// (unless they are also in `no_inline`).
    pub inline_hint: Vec<syntax::Symbol>,
    /// Functions whose calls with keyword arguments (`#kwcall(kw, f, args...)`) are never
    /// inlined (those with rules of keyword calls).
    pub no_inline_kwcall: Vec<syntax::Symbol>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            verify: cfg!(debug_assertions),
            optimise: true,
            inline_limit: 40,
            no_inline: Vec::new(),
            inline_hint: Vec::new(),
            no_inline_kwcall: Vec::new(),
        }
    }
}

/// What a top-level statement produced.
pub enum TopLevel {
    /// A definition (function, struct, abstract type, `using`): nothing to run.
    Defined,
    /// Code to run: a thunk taking itself as its only argument.
    Run(Arc<Function>),
}

const MAX_INFER_DEPTH: usize = 400;

/// Time spent compiling, for `mooncake run --time` and benchmarks.
#[derive(Clone, Debug, Default)]
pub struct CompileStats {
    /// Lowering, inference and optimisation, in nanoseconds (outermost calls only, so nested
    /// work is not counted twice).
    pub compile_ns: u128,
    /// Method instances inferred.
    pub instances: usize,
}

pub struct Compiler {
    /// Declared types; shared (copied on write) so that threads of a threaded loop can read
    /// it while the machine compiles.
    pub env: Arc<TypeEnv>,
    pub tables: FxHashMap<Symbol, MethodTable>,
    pub globals: FxHashMap<Symbol, GlobalInfo>,
    pub(crate) mis: FxHashMap<MiKey, MethodInstance>,
    stack: Vec<MiKey>,
    /// Lowlink of each in-progress inference (index = stack depth).
    lowlinks: Vec<usize>,
    provisional: Vec<MiKey>,
    optimising: FxHashSet<MiKey>,
    /// Instances being optimised to run (see [`Compiler::runnable`]).
    optimising_run: FxHashSet<MiKey>,
    /// Whether the optimisation under way is of code that runs (which may inline the
    /// functions in `ad_view_only`), not of code differentiation derives from.
    pub(crate) run_mode: bool,
    /// Functions whose calls stay calls only in the code differentiation derives from (the
    /// program's declared primitives and overlaid functions): code that runs inlines them.
    pub ad_view_only: FxHashSet<Symbol>,
    /// Outcomes of dispatch on concrete argument types (cleared by every definition).
    dispatch_cache: std::cell::RefCell<FxHashMap<(Symbol, Vec<Type>), Dispatch>>,
    pub options: Options,
    pub stats: CompileStats,
    /// Nesting of timed compiler entry points (only the outermost is timed).
    timing_depth: usize,
    /// How many files, loaded first, make up the prelude (0: no prelude, as in unit tests of
    /// the compiler alone).
    pub prelude_files: u32,
    /// Types declared by the prelude (a user variable may shadow them, not redefine them).
    prelude_types: FxHashSet<Symbol>,
    /// Functions the prelude defines (the library's: `Base`, `LinearAlgebra`, ...).
    library_functions: FxHashSet<Symbol>,
    /// The program's own functions named like library functions, by name: their tables
    /// (`Main.sum`).
    own_tables: FxHashMap<Symbol, Symbol>,
    /// Library function and constant names the program has already used as the library's (a
    /// read resolved, or `using M: f`): defining a function of such a name, or assigning a
    /// global of it, is Julia's error.
    library_bound: FxHashSet<Symbol>,
    /// Constants the prelude defines (`I`, `π`, `Inf`, ...).
    prelude_consts: FxHashSet<Symbol>,
    /// The program's own globals named like library constants, by name (`I = ...` makes
    /// `Main.I`): the program's reads and writes of the name mean them from then on.
    own_globals: FxHashMap<Symbol, Symbol>,
    /// Library function names the program imported (`import Base: f`): its methods of them
    /// extend the library's function.
    imported: FxHashSet<Symbol>,
    /// Warnings about the statements compiled so far, not yet taken.
    warnings: Vec<Warning>,
    /// How often the program text seen so far may assign each global.
    assign_sites: FxHashMap<Symbol, globals::Sites>,
    /// Globals the current top-level statement assigns at their one place (bound once it ran).
    pending_bindings: Vec<Symbol>,
    /// Counts the times a bound global became an ordinary one again, which makes all code
    /// compiled before it (and anything prepared from that code) stale.
    generation: u64,
    /// The program's own AD primitives (`@is_primitive`, `@zero_adjoint`, ...), in the order
    /// declared.
    pub user_primitives: Vec<user_rules::UserPrimitive>,
    /// Functions with `@mooncake_overlay` methods, to the table holding those methods (what
    /// differentiation sees instead of the function's own).
    overlays: FxHashMap<Symbol, Symbol>,
    /// What the program's names of clashing package names (ChainRulesCore's `NoTangent`)
    /// mean so far.
    package_names: packages::PackageNames,
}

impl Default for Compiler {
    fn default() -> Self {
        Compiler::new()
    }
}

impl Compiler {
    pub fn new() -> Compiler {
        let mut c = Compiler {
            env: Arc::new(TypeEnv::new()),
            tables: FxHashMap::default(),
            globals: FxHashMap::default(),
            mis: FxHashMap::default(),
            stack: Vec::new(),
            lowlinks: Vec::new(),
            provisional: Vec::new(),
            optimising: FxHashSet::default(),
            optimising_run: FxHashSet::default(),
            run_mode: false,
            ad_view_only: FxHashSet::default(),
            dispatch_cache: Default::default(),
            options: Options::default(),
            stats: CompileStats::default(),
            timing_depth: 0,
            prelude_files: 0,
            prelude_types: FxHashSet::default(),
            library_functions: FxHashSet::default(),
            own_tables: FxHashMap::default(),
            prelude_consts: FxHashSet::default(),
            own_globals: FxHashMap::default(),
            library_bound: FxHashSet::default(),
            imported: FxHashSet::default(),
            warnings: Vec::new(),
            assign_sites: FxHashMap::default(),
            pending_bindings: Vec::new(),
            generation: 0,
            user_primitives: Vec::new(),
            overlays: FxHashMap::default(),
            package_names: packages::PackageNames::default(),
        };
        c.define_core_box();
        c
    }

    /// `Core.Box`: the mutable cell (one untyped field, `contents`) holding a captured variable
    /// that is reassigned.
    fn define_core_box(&mut self) {
        use syntax::ast::{FieldDecl, StructDef};
        let sp = syntax::Span::DUMMY;
        let def = StructDef {
            name: syntax::sym("Core.Box"),
            name_span: sp,
            params: vec![],
            supertype: None,
            fields: vec![FieldDecl {
                name: closure::box_field(),
                ty: None,
                span: sp,
            }],
            mutable: true,
            constructors: vec![],
            span: sp,
        };
        // Defining a field-only struct cannot fail; its constructors are not needed (boxes are
        // made with `new`).
        let _ = lower::define_struct(&def, "", Arc::make_mut(&mut self.env));
    }

    /// Adds methods, then the closure types their bodies made (and, recursively, theirs).
    fn define_methods(
        &mut self,
        methods: Vec<lower::LoweredMethod>,
        src: &str,
    ) -> Result<(), CompileError> {
        let mut closures = Vec::new();
        for mut m in methods {
            closures.append(&mut m.closures);
            self.define_method(m)?;
        }
        self.define_closures(closures, src)
    }

    fn define_closures(
        &mut self,
        closures: Vec<closure::ClosureDef>,
        src: &str,
    ) -> Result<(), CompileError> {
        for c in closures {
            let ms = lower::define_struct(&c.ty, src, Arc::make_mut(&mut self.env))?;
            self.define_methods(ms, src)?;
            for m in &c.methods {
                let ms = lower::lower_function(m, src, &self.env)?;
                self.define_methods(ms, src)?;
            }
        }
        Ok(())
    }

    /// Forgets every compiled method instance (after a definition changes what calls mean).
    pub fn invalidate(&mut self) {
        self.dispatch_cache.get_mut().clear();
        if self.stack.is_empty() {
            self.mis.clear();
        }
    }

    fn verify(&self, f: &Function, what: &str) -> Result<(), CompileError> {
        if !self.options.verify {
            return Ok(());
        }
        if let Err(es) = ir::verify(f, &self.env) {
            return Err(CompileError::new(
                ErrorKind::Internal,
                Span::DUMMY,
                format!(
                    "IR verification failed {what}:\n{}",
                    ir::verify::write_with_errors(f, &es)
                ),
            ));
        }
        Ok(())
    }

    pub(crate) fn verify_after(&self, f: &Function, pass: &str) -> Result<(), CompileError> {
        if !self.options.verify {
            return Ok(());
        }
        self.verify(f, &format!("after pass {pass}"))
    }

    /// Adds a lowered method to its table.
    pub fn define_method(&mut self, lm: lower::LoweredMethod) -> Result<(), CompileError> {
        let in_prelude = self.in_prelude(lm.span.file);
        self.unbind_assigned(&lm.body);
        let m = Method {
            table: lm.table,
            index: 0,
            sig: lm.sig,
            vararg: lm.vararg,
            vararg_count: lm.vararg_count,
            tvars: lm.tvars,
            arg_names: lm.arg_names,
            body: Arc::new(methods::MethodBody::new(lm.body)),
            span: lm.span,
            in_prelude,
        };
        // The prelude is brought into SSA form as the session starts, so that no first
        // gradient pays for it; the user's methods when first called.
        if in_prelude {
            self.method_body(&m)?;
        }
        self.tables.entry(lm.table).or_default().add(m);
        self.invalidate();
        Ok(())
    }

    /// Processes one top-level statement: definitions take effect now; other statements are
    /// compiled into a thunk for the caller to run.
    pub fn toplevel(&mut self, stmt: &Expr, src: &str) -> Result<TopLevel, CompileError> {
        let renamed = if self.in_prelude(stmt.span.file) {
            None
        } else {
            self.package_names.rewrite(stmt)
        };
        let stmt = renamed.as_ref().unwrap_or(stmt);
        self.note_assignments(stmt);
        self.timed(|c| c.toplevel_inner(stmt, src))
    }

    /// Counts the global assignments of a top-level statement before it is compiled. A bound
    /// global it assigns again becomes an ordinary one, and the code compiled with its type
    /// is forgotten (no such code runs between top-level statements).
    fn note_assignments(&mut self, stmt: &Expr) {
        let names = globals::note_statement(stmt, &mut self.assign_sites);
        self.pending_bindings.clear();
        let mut again = Vec::new();
        for n in names {
            match self.assign_sites.get(&n) {
                Some(globals::Sites::Once) => self.pending_bindings.push(n),
                _ => again.push(n),
            }
        }
        self.unbind(again);
    }

    /// Makes globals ordinary ones from now on (bound ones forget the code that used them).
    fn unbind(&mut self, names: impl IntoIterator<Item = Symbol>) {
        let mut unbound = false;
        for n in names {
            self.assign_sites.insert(n, globals::Sites::Many);
            if let Some(GlobalInfo::Bound { .. }) = self.globals.get(&n) {
                self.globals.insert(n, GlobalInfo::Var);
                unbound = true;
            }
        }
        if unbound {
            self.generation += 1;
            self.invalidate();
        }
    }

    /// The globals a lowered body or statement assigns (the text scan has seen them all; a
    /// bound one among them is made ordinary rather than trusted).
    fn unbind_assigned(&mut self, f: &Function) {
        let assigned: Vec<Symbol> = f
            .insts
            .iter()
            .filter_map(|(_, d)| match d {
                InstData::SetGlobal(n, _) => Some(*n),
                _ => None,
            })
            .filter(|n| matches!(self.globals.get(n), Some(GlobalInfo::Bound { .. })))
            .collect();
        self.unbind(assigned);
    }

    /// The globals the last top-level statement assigned at their one place; the driver
    /// passes each one's value to [`Compiler::bind_global`] once the statement has run.
    pub fn take_pending_bindings(&mut self) -> Vec<Symbol> {
        std::mem::take(&mut self.pending_bindings)
    }

    /// Records that global `name`, assigned in one place that has run, holds a value of type
    /// `ty` for good. Code compiled before keeps reading it as an ordinary global.
    pub fn bind_global(&mut self, name: Symbol, ty: Type, value: Option<Const>) {
        if matches!(self.globals.get(&name), Some(GlobalInfo::Var))
            && self.assign_sites.get(&name) == Some(&globals::Sites::Once)
        {
            self.globals.insert(name, GlobalInfo::Bound { ty, value });
        }
    }

    /// Changes each time code compiled before may have read a global under a type it no
    /// longer has (see [`Compiler::toplevel`]); prepared calls compare it.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Runs `f`, adding its duration to `stats` unless an enclosing call is already timed.
    fn timed<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        self.timing_depth += 1;
        let start = (self.timing_depth == 1).then(std::time::Instant::now);
        let r = f(self);
        if let Some(s) = start {
            self.stats.compile_ns += s.elapsed().as_nanos();
        }
        self.timing_depth -= 1;
        r
    }

    fn toplevel_inner(&mut self, stmt: &Expr, src: &str) -> Result<TopLevel, CompileError> {
        match &stmt.kind {
            ExprKind::Function(def) => {
                if let syntax::ast::FnName::Name(n) = def.name {
                    if self.is_user_variable(n) {
                        return Err(CompileError::invalid(
                            def.name_span,
                            format!("cannot define function {n}; it already has a value"),
                        ));
                    }
                }
                let own = self.own_definition(def, stmt.span.file)?;
                let def = own.as_ref().unwrap_or(def);
                let ms = ir::timing::phase("lower", || lower::lower_function(def, src, &self.env))?;
                self.define_methods(ms, src)?;
                if let syntax::ast::FnName::Name(n) = def.name {
                    if def.declaration_only {
                        self.tables.entry(n).or_default();
                    }
                    if self.in_prelude(stmt.span.file) {
                        self.library_functions.insert(n);
                    }
                }
                Ok(TopLevel::Defined)
            }
            ExprKind::Struct(def) => {
                if self.globals.contains_key(&def.name) {
                    return Err(CompileError::invalid(
                        def.name_span,
                        format!("invalid redefinition of constant {}", def.name),
                    ));
                }
                if self.in_prelude(stmt.span.file) {
                    self.prelude_types.insert(def.name);
                }
                let ms = lower::define_struct(def, src, Arc::make_mut(&mut self.env))?;
                self.define_methods(ms, src)?;
                self.invalidate();
                Ok(TopLevel::Defined)
            }
            ExprKind::AbstractType {
                name,
                params,
                supertype,
            } => {
                lower::define_abstract(
                    *name,
                    params,
                    supertype.as_deref(),
                    stmt.span,
                    Arc::make_mut(&mut self.env),
                )?;
                self.invalidate();
                Ok(TopLevel::Defined)
            }
            ExprKind::Using {
                modules,
                names,
                import,
                alias,
            } => {
                if let Some(m) = modules.iter().find(|m| !is_provided_module(**m)) {
                    return Err(CompileError::unsupported(
                        stmt.span,
                        &format!(
                            "package `{m}`; the packages available are {}, and Base's modules",
                            PROVIDED_PACKAGES.join(", ")
                        ),
                    ));
                }
                if !self.in_prelude(stmt.span.file) {
                    let set = if *import {
                        &mut self.imported
                    } else {
                        &mut self.library_bound
                    };
                    set.extend(names.iter().copied());
                    self.package_names
                        .note_using(modules, names, *import, *alias);
                    Arc::make_mut(&mut self.env)
                        .packages
                        .note_using(modules, names, *import);
                }
                Ok(TopLevel::Defined)
            }
            // A block of type and method definitions only (what `@kwdef` gives): each in turn.
            ExprKind::Block(items)
                if !items.is_empty()
                    && items
                        .iter()
                        .all(|d| is_definition(d) || matches!(d.kind, ExprKind::Struct(_))) =>
            {
                for d in items {
                    self.toplevel_inner(d, src)?;
                }
                Ok(TopLevel::Defined)
            }
            ExprKind::Macro { name, args }
                if name.as_str() == "views"
                    && matches!(args.as_slice(), [d] if is_definition(d)) =>
            {
                let mut d = args[0].clone();
                views::viewify(&mut d);
                self.toplevel_inner(&d, src)
            }
            ExprKind::Macro { name, args } if name.as_str() == "mooncake_overlay" => {
                match args.as_slice() {
                    [d] => match &d.kind {
                        ExprKind::Function(def) => {
                            self.define_overlay(def, src)?;
                            Ok(TopLevel::Defined)
                        }
                        _ => Err(CompileError::invalid(
                            d.span,
                            "`@mooncake_overlay` takes a method definition",
                        )),
                    },
                    _ => Err(CompileError::invalid(
                        stmt.span,
                        "`@mooncake_overlay` takes one method definition",
                    )),
                }
            }
            ExprKind::Macro { name, args }
                if matches!(
                    name.as_str(),
                    "is_primitive"
                        | "zero_adjoint"
                        | "zero_derivative"
                        | "from_rrule"
                        | "from_chainrules"
                ) =>
            {
                self.declare_primitive(name.as_str(), args, stmt.span, src)?;
                Ok(TopLevel::Defined)
            }
            // ChainRulesCore's `@scalar_rule`: an `rrule` and an `frule` from the partial
            // derivatives.
            ExprKind::Macro { name, args } if name.as_str() == "scalar_rule" => {
                for def in user_rules::scalar_rule_methods(args, stmt.span)? {
                    self.toplevel_inner(&def, src)?;
                }
                Ok(TopLevel::Defined)
            }
            ExprKind::Macro { name, args }
                if name.as_str() == "inline" || name.as_str() == "noinline" =>
            {
                match args.as_slice() {
                    [e] => {
                        // `@noinline` is kept: calls of the function stay calls; `@inline`
                        // lets larger bodies be inlined.
                        if let ExprKind::Function(def) = &e.kind {
                            if let syntax::ast::FnName::Name(f) = def.name {
                                let list = if name.as_str() == "noinline" {
                                    &mut self.options.no_inline
                                } else {
                                    &mut self.options.inline_hint
                                };
                                if !list.contains(&f) {
                                    list.push(f);
                                }
                            }
                        }
                        self.toplevel_inner(e, src)
                    }
                    _ => Err(CompileError::invalid(
                        stmt.span,
                        format!("`@{name}` takes one definition"),
                    )),
                }
            }
            _ => {
                let alias = match &stmt.kind {
                    ExprKind::Const(inner) => self.define_alias(inner),
                    _ => None,
                };
                // `const Textual = Union{Number, String}` names a pattern that no type value
                // holds: the name works in signatures only.
                if matches!(alias, Some(TypePat::App(ir::types::Head::Union, _))) {
                    return Ok(TopLevel::Defined);
                }
                let alias = alias.is_some();
                let lowered = match lower::lower_toplevel(stmt, src, &self.env) {
                    Ok(l) => l,
                    // `const R = AbstractVector{<:Real}` names a type that has no value here
                    // yet: the name works in signatures only.
                    Err(_) if alias => return Ok(TopLevel::Defined),
                    Err(e) => return Err(e),
                };
                for &(name, span) in &lowered.soft_scope_locals {
                    if self.is_user_variable(name) || self.is_user_definition(name) {
                        self.warnings
                            .push(Warning::ambiguous_soft_scope(name, span));
                    }
                }
                let mut f = lowered.thunk;
                self.define_closures(lowered.closures, src)?;
                self.unbind_assigned(&f);
                // Globals assigned here are untyped variables from now on. A program's
                // assignment to a library constant's name makes a global of its own.
                let sets: Vec<(ir::Inst, Symbol)> = f
                    .insts
                    .iter()
                    .filter_map(|(i, d)| match d {
                        InstData::SetGlobal(n, _) => Some((i, *n)),
                        _ => None,
                    })
                    .collect();
                let in_prelude = self.in_prelude(stmt.span.file);
                for (inst, name) in sets {
                    let target = if in_prelude {
                        if let ExprKind::Const(_) = stmt.kind {
                            self.prelude_consts.insert(name);
                        }
                        name
                    } else {
                        self.own_global(name, f.locs[inst])?
                    };
                    if let InstData::SetGlobal(n, _) = &mut f.insts[inst] {
                        *n = target;
                    }
                }
                let consts = match &stmt.kind {
                    ExprKind::Const(inner) => syntax::ast::const_names(inner),
                    _ => Vec::new(),
                };
                for (inst, data) in f.insts.iter() {
                    if let InstData::SetGlobal(name, _) = data {
                        // A function or type defined by the user is a constant binding.
                        if self.is_user_definition(*name) {
                            return Err(CompileError::invalid(
                                f.locs[inst],
                                format!("invalid redefinition of constant {name}"),
                            ));
                        }
                        if consts.iter().any(|&c| self.global_name(c) == *name) {
                            continue;
                        }
                        if let Some(GlobalInfo::Const { .. }) = self.globals.get(name) {
                            continue;
                        }
                        self.globals.insert(*name, GlobalInfo::Var);
                    }
                }
                ssa::construct_ssa(&mut f);
                self.verify(&f, "after SSA construction")?;
                let typed = self.infer_function(&f, &[Type::Any], &[], "top-level".into())?;
                self.verify(&typed, "after inference")?;
                let mut opt = self.optimise(typed)?;
                // A statement with a loop (its own, or one inlined from a function it calls)
                // is worth compiling, as Julia compiles such top-level code: an id lets the
                // machine run it natively. Loop-free statements stay interpreted.
                if ir::dominators::has_cycle(&opt) {
                    opt.assign_id();
                }
                Ok(TopLevel::Run(Arc::new(opt)))
            }
        }
    }

    /// `const V = Vector{Float64}` (a type on the right): `V` names that type in signatures and
    /// annotations from now on. (The statement also binds `V` to the type as a value.)
    fn define_alias(&mut self, inner: &Expr) -> Option<TypePat> {
        let ExprKind::Assign { lhs, rhs } = &inner.kind else {
            return None;
        };
        let name = lhs.ident()?;
        if !matches!(
            rhs.kind,
            ExprKind::Ident(_) | ExprKind::Curly { .. } | ExprKind::Field { .. }
        ) {
            return None;
        }
        let ctx = typeexpr::TypeExprCtx {
            env: &self.env,
            vars: &[],
        };
        match ctx.eval(rhs) {
            Ok(TypePat::Ty(Type::Val(_) | Type::ValBool(_) | Type::ValSym(_))) | Err(_) => None,
            Ok(pat) => {
                Arc::make_mut(&mut self.env).add_alias(name, pat.clone());
                self.invalidate();
                Some(pat)
            }
        }
    }

    /// The warnings about statements compiled since the last call, in source order.
    pub fn take_warnings(&mut self) -> Vec<Warning> {
        std::mem::take(&mut self.warnings)
    }

    /// A program's method of a function named like a library function, written without the
    /// module (`sum(x) = ...`) and not imported: as in Julia's `Main`, the first such
    /// definition makes a new function of the program's own (table `Main.sum`), which the
    /// program's code calls from then on and the library's code never does. Its definition,
    /// renamed to that table; `None` when the definition adds to the table of its own name.
    /// Julia's error when the program has used the library's function of that name already.
    fn own_definition(
        &mut self,
        def: &syntax::ast::FunctionDef,
        file: syntax::FileId,
    ) -> Result<Option<syntax::ast::FunctionDef>, CompileError> {
        let syntax::ast::FnName::Name(n) = def.name else {
            return Ok(None);
        };
        if self.in_prelude(file) || def.qualified || self.imported.contains(&n) {
            return Ok(None);
        }
        let table = match self.own_tables.get(&n) {
            Some(t) => *t,
            None if !self.library_functions.contains(&n) => return Ok(None),
            None if self.library_bound.contains(&n) => {
                return Err(CompileError::invalid(
                    def.name_span,
                    format!(
                        "invalid method definition in Main: function {}.{n} must be explicitly imported to be extended",
                        library_module(n)
                    ),
                ))
            }
            None => {
                let t = ir::types::own_function_table(n);
                self.own_tables.insert(n, t);
                Arc::make_mut(&mut self.env).add_own_function(n);
                if self.options.no_inline.contains(&n) {
                    self.options.no_inline.push(t);
                }
                if self.ad_view_only.contains(&n) {
                    self.ad_view_only.insert(t);
                }
                if self.options.inline_hint.contains(&n) {
                    self.options.inline_hint.push(t);
                }
                t
            }
        };
        Ok(Some(syntax::ast::FunctionDef {
            name: syntax::ast::FnName::Name(table),
            ..def.clone()
        }))
    }

    /// Notes the names a program file defines functions of at top level before any of it
    /// runs, so that lowering knows which library names are the program's own functions
    /// (`sum(x^2 for x in v)` is then a call of the program's `sum`, not the library's
    /// reduction of a generator).
    pub fn scan_program(&mut self, items: &[Expr], file: syntax::FileId) {
        if self.in_prelude(file) {
            return;
        }
        let mut imported = self.imported.clone();
        let mut own = Vec::new();
        for item in items {
            scan_definitions(item, &mut imported, &mut own);
        }
        for n in own {
            if self.library_functions.contains(&n) && !self.library_bound.contains(&n) {
                Arc::make_mut(&mut self.env).add_own_function(n);
            }
        }
    }

    /// The table a program's code means by the global name `name`: its own function of that
    /// name if it has defined one, else the name itself (noting a library function as used).
    pub fn program_name(&mut self, name: Symbol) -> Symbol {
        if let Some(t) = self.own_tables.get(&name).or(self.own_globals.get(&name)) {
            return *t;
        }
        if self.library_functions.contains(&name) || self.prelude_consts.contains(&name) {
            self.library_bound.insert(name);
        }
        name
    }

    /// The global the program's name `name` stands for: its own global of a library
    /// constant's name once it has one (`Main.I`), else `name`.
    pub fn global_name(&self, name: Symbol) -> Symbol {
        self.own_globals.get(&name).copied().unwrap_or(name)
    }

    /// The global a program's assignment to `name` writes: where the library defines a
    /// constant of that name, the program's own global (`Main.I`), as in Julia, where a name
    /// the program has not yet read from a module is free to become the program's own; after
    /// a read, Julia's error.
    fn own_global(&mut self, name: Symbol, span: Span) -> Result<Symbol, CompileError> {
        if let Some(g) = self.own_globals.get(&name) {
            return Ok(*g);
        }
        if !self.prelude_consts.contains(&name) {
            return Ok(name);
        }
        if self.library_bound.contains(&name) {
            return Err(CompileError::invalid(
                span,
                format!(
                    "cannot assign a value to imported variable {}.{name} from module Main",
                    library_module(name)
                ),
            ));
        }
        let g = ir::types::own_function_table(name);
        self.own_globals.insert(name, g);
        Ok(g)
    }

    /// `@is_primitive`, `@zero_adjoint` or `@zero_derivative` (see [`user_rules`]): the
    /// declaration is noted, and the functions it names are no longer inlined, so that the
    /// AD transform sees their calls.
    fn declare_primitive(
        &mut self,
        macro_name: &str,
        args: &[Expr],
        span: Span,
        src: &str,
    ) -> Result<(), CompileError> {
        let (mut up, has_kwargs) = user_rules::parse(macro_name, args, span, src, &self.env)?;
        let mut named = Vec::new();
        for p in up.fixed.iter_mut().chain(up.vararg.iter_mut()) {
            user_rules::rename_functions(p, &mut |n| {
                let t = self.program_name(n);
                named.push(t);
                t
            });
        }
        // A callable struct's calls are methods of its type's table.
        match up.fixed.first() {
            Some(TypePat::Ty(Type::Struct(n, _)))
            | Some(TypePat::App(ir::types::Head::Struct(n), _)) => named.push(*n),
            _ => {}
        }
        if has_kwargs {
            let kw = user_rules::with_keywords(&up, &self.env)?;
            for f in &named {
                if !self.options.no_inline_kwcall.contains(f) {
                    self.options.no_inline_kwcall.push(*f);
                }
            }
            self.user_primitives.push(kw);
        }
        for f in named {
            if !self.options.no_inline.contains(&f) {
                self.options.no_inline.push(f);
                self.ad_view_only.insert(f);
            }
        }
        // `@from_rrule` and `@from_chainrules` define the `rrule!!` (`frule!!`) methods that
        // run the program's ChainRules rules.
        if macro_name.starts_with("from_") {
            if let Some(sig) = args.get(1) {
                for def in user_rules::chainrules_methods(sig, &up, has_kwargs) {
                    self.toplevel_inner(&def, src)?;
                }
            }
        }
        self.user_primitives.push(up);
        self.invalidate();
        Ok(())
    }

    /// `@mooncake_overlay f(x) = ...`: a method of `f` that only differentiation sees. It
    /// goes into a table of its own (`f#overlay`) with `f`'s type as its callee pattern, so
    /// that dispatch on a call's argument types finds it; calls of `f` are no longer inlined.
    fn define_overlay(
        &mut self,
        def: &syntax::ast::FunctionDef,
        src: &str,
    ) -> Result<(), CompileError> {
        let syntax::ast::FnName::Name(n) = def.name else {
            return Err(CompileError::invalid(
                def.name_span,
                "`@mooncake_overlay` takes a method of a named function",
            ));
        };
        if !def.kwparams.is_empty() {
            return Err(CompileError::unsupported(
                def.name_span,
                "keyword arguments in a `@mooncake_overlay` method",
            ));
        }
        let table = self.program_name(n);
        let overlay = syntax::sym(&format!("{table}#overlay"));
        let mut ms = lower::lower_function(def, src, &self.env)?;
        for m in &mut ms {
            if m.table == n || m.table == table {
                m.table = overlay;
                if let Some(p) = m.sig.first_mut() {
                    *p = TypePat::Ty(Type::Function(table));
                }
            }
        }
        self.define_methods(ms, src)?;
        self.overlays.insert(table, overlay);
        if !self.options.no_inline.contains(&table) {
            self.options.no_inline.push(table);
            self.ad_view_only.insert(table);
        }
        self.invalidate();
        Ok(())
    }

    /// The method instance of the `@mooncake_overlay` method a call of `key` runs under
    /// differentiation, if the program gave one.
    pub fn overlay(&self, key: &MiKey) -> Option<MiKey> {
        let table = *self.overlays.get(&key.table)?;
        self.resolve_call(table, &key.sig).ok()
    }

    /// The latest declaration making a call with argument types `sig` (the function's type
    /// first) a primitive of the program's in a context (`minimal_ctx`: the minimal one) and
    /// mode.
    pub fn user_primitive(
        &self,
        minimal_ctx: bool,
        reverse: bool,
        sig: &[Type],
    ) -> Option<&user_rules::UserPrimitive> {
        self.user_primitives
            .iter()
            .rev()
            .find(|u| u.applies(minimal_ctx, reverse) && u.matches(sig, &self.env))
    }

    /// Whether `file` is one of the prelude's files.
    pub fn in_prelude(&self, file: syntax::FileId) -> bool {
        file.0 < self.prelude_files
    }

    /// Whether `name` is a function or type defined outside the prelude.
    fn is_user_definition(&self, name: Symbol) -> bool {
        let user_method = self.own_tables.contains_key(&name)
            || self
                .tables
                .get(&name)
                .is_some_and(|t| t.methods.iter().any(|m| !m.in_prelude));
        let user_type =
            self.env.struct_def(name).is_some() || self.env.abstract_def(name).is_some();
        let prelude_type = self.prelude_files > 0 && self.prelude_types.contains(&name);
        user_method || (user_type && !prelude_type)
    }

    /// Whether `name` is a global variable (not a function or type).
    fn is_user_variable(&self, name: Symbol) -> bool {
        matches!(
            self.globals.get(&name),
            Some(GlobalInfo::Var | GlobalInfo::Const { .. } | GlobalInfo::Bound { .. })
        ) && !self.tables.contains_key(&name)
    }

    /// Records a constant global after its defining statement ran.
    pub fn set_const(&mut self, name: Symbol, ty: Type, value: Option<Const>) {
        self.globals.insert(name, GlobalInfo::Const { ty, value });
        self.invalidate();
    }

    /// The static parameters of a method instance.
    fn sparams_for(&self, key: &MiKey) -> Vec<Type> {
        let Some(m) = self
            .tables
            .get(&key.table)
            .and_then(|t| t.methods.get(key.method as usize))
        else {
            return vec![];
        };
        if m.tvars.is_empty() {
            return vec![];
        }
        let mut args: Vec<Type> = key.sig.to_vec();
        if m.vararg {
            if let Some(Type::Tuple(rest)) = args.pop() {
                args.extend(rest.iter().cloned());
            }
        }
        match MethodTable::match_method(m, &args, &self.env) {
            Some(b) => m
                .tvars
                .iter()
                .map(|v| b.get(&v.name).cloned().unwrap_or(Type::Any))
                .collect(),
            None => vec![],
        }
    }

    /// Infers a method instance (if not done) and returns its return type. Recursion is
    /// handled by iterating each strongly connected group of instances to a fixpoint.
    pub fn infer_mi(&mut self, key: &MiKey) -> Result<Type, CompileError> {
        if let Some(MiState::Done) = self.mis.get(key).map(|m| &m.state) {
            return Ok(self.mis[key].ret.clone());
        }
        self.timed(|c| c.infer_mi_inner(key))
    }

    fn infer_mi_inner(&mut self, key: &MiKey) -> Result<Type, CompileError> {
        if let Some(mi) = self.mis.get_mut(key) {
            match mi.state {
                MiState::Done => return Ok(mi.ret.clone()),
                MiState::InProgress(d) | MiState::Provisional(d) => {
                    if matches!(mi.state, MiState::InProgress(_)) {
                        mi.used_recursively = true;
                    }
                    let ret = mi.ret.clone();
                    if let Some(l) = self.lowlinks.last_mut() {
                        *l = (*l).min(d);
                    }
                    return Ok(ret);
                }
            }
        }
        let depth = self.stack.len();
        if depth >= MAX_INFER_DEPTH {
            let m = &self.tables[&key.table].methods[key.method as usize];
            return Err(CompileError::new(
                ErrorKind::Inference,
                m.span,
                format!("type inference recursed too deeply at {} (do argument types grow without bound?)", key.display()),
            ));
        }
        let Some(method) = self
            .tables
            .get(&key.table)
            .and_then(|t| t.methods.get(key.method as usize))
            .cloned()
        else {
            return Err(CompileError::new(
                ErrorKind::Internal,
                Span::DUMMY,
                format!("no method for {}", key.display()),
            ));
        };
        let sparams = self.sparams_for(key);
        self.stats.instances += 1;
        self.mis.insert(
            key.clone(),
            MethodInstance {
                ret: Type::Bottom,
                state: MiState::InProgress(depth),
                used_recursively: false,
                typed: None,
                optimised: None,
                runnable: None,
                const_ret: None,
            },
        );
        self.stack.push(key.clone());
        self.lowlinks.push(depth);
        let result = loop {
            if let Some(l) = self.lowlinks.last_mut() {
                *l = depth;
            }
            let body = match self.method_body(&method) {
                Ok(b) => b,
                Err(e) => break Err(e),
            };
            let typed = match stacker::maybe_grow(256 * 1024, 8 * 1024 * 1024, || {
                ir::timing::phase("infer", || {
                    self.infer_function(&body, &key.sig, &sparams, key.display())
                })
            }) {
                Ok(t) => t,
                Err(e) => break Err(e),
            };
            let mi = self.mis.get_mut(key).unwrap_or_else(|| unreachable!());
            let new_ret = mi.ret.join(&typed.ret_type);
            let changed = new_ret != mi.ret;
            let recursive = mi.used_recursively;
            mi.ret = new_ret.clone();
            mi.used_recursively = false;
            let mut typed = typed;
            typed.ret_type = new_ret;
            mi.typed = Some(Arc::new(typed));
            if recursive && changed {
                // Instances that used the old estimate are inferred again.
                self.reset_provisional(depth);
                continue;
            }
            break Ok(());
        };
        self.stack.pop();
        let low = self.lowlinks.pop().unwrap_or(depth);
        if let Err(e) = result {
            self.mis.remove(key);
            self.reset_provisional(depth);
            return Err(e);
        }
        if low < depth {
            if let Some(mi) = self.mis.get_mut(key) {
                mi.state = MiState::Provisional(low);
            }
            self.provisional.push(key.clone());
            if let Some(l) = self.lowlinks.last_mut() {
                *l = (*l).min(low);
            }
        } else {
            // (Only an instance outside any cycle: the members of one may return what the
            // others do.)
            let const_ret = if self.provisional.is_empty() {
                self.mis[key]
                    .typed
                    .as_deref()
                    .and_then(|f| self.constant_return(f))
            } else {
                None
            };
            if let Some(mi) = self.mis.get_mut(key) {
                mi.state = MiState::Done;
                mi.const_ret = const_ret;
            }
            // Members of this instance's cycle are final now.
            let provisional = std::mem::take(&mut self.provisional);
            for p in provisional {
                match self.mis.get(&p).map(|m| m.state.clone()) {
                    Some(MiState::Provisional(l)) if l >= depth => {
                        if let Some(mi) = self.mis.get_mut(&p) {
                            mi.state = MiState::Done;
                        }
                    }
                    Some(_) => self.provisional.push(p),
                    None => {}
                }
            }
        }
        if let Some(v) = &self.mis[key].typed {
            self.verify(v, "after inference")?;
        }
        Ok(self.mis[key].ret.clone())
    }

    /// The constant a finished instance's calls give (see `MethodInstance::const_ret`).
    pub(crate) fn known_return(&self, key: &MiKey) -> Option<Const> {
        let mi = self.mis.get(key)?;
        match mi.state {
            MiState::Done => mi.const_ret.clone(),
            MiState::InProgress(_) | MiState::Provisional(_) => None,
        }
    }

    /// The constant every `return` of typed function `f` gives: a literal, or the call of an
    /// instance that always returns that constant.
    fn constant_return(&self, f: &Function) -> Option<Const> {
        let mut found: Option<Const> = None;
        for &b in &f.layout {
            for &i in &f.blocks[b].insts {
                let InstData::Return(v) = &f.insts[i] else {
                    continue;
                };
                let c = match f.def_inst(*v).map(|d| &f.insts[d]) {
                    Some(InstData::Const(c)) => c.clone(),
                    Some(InstData::Invoke { callee, .. }) => {
                        self.known_return(&MiKey::of(callee))?
                    }
                    _ => return None,
                };
                if !matches!(c, Const::Bool(_) | Const::Int(_) | Const::Sym(_)) {
                    return None;
                }
                match &found {
                    Some(prev) if *prev != c => return None,
                    _ => found = Some(c),
                }
            }
        }
        found
    }

    fn reset_provisional(&mut self, depth: usize) {
        let provisional = std::mem::take(&mut self.provisional);
        for p in provisional {
            match self.mis.get(&p).map(|m| m.state.clone()) {
                Some(MiState::Provisional(l)) if l >= depth => {
                    self.mis.remove(&p);
                }
                Some(_) => self.provisional.push(p),
                None => {}
            }
        }
    }

    /// The typed IR of a method instance.
    pub fn typed(&mut self, key: &MiKey) -> Result<Arc<Function>, CompileError> {
        self.infer_mi(key)?;
        self.mis
            .get(key)
            .and_then(|m| m.typed.clone())
            .ok_or_else(|| {
                CompileError::new(
                    ErrorKind::Internal,
                    Span::DUMMY,
                    format!("{} was not inferred", key.display()),
                )
            })
    }

    /// The optimised IR of a method instance (cached).
    pub fn optimised(&mut self, key: &MiKey) -> Result<Arc<Function>, CompileError> {
        if let Some(f) = self.mis.get(key).and_then(|m| m.optimised.clone()) {
            return Ok(f);
        }
        self.timed(|c| c.optimised_inner(key))
    }

    fn optimised_inner(&mut self, key: &MiKey) -> Result<Arc<Function>, CompileError> {
        self.infer_mi(key)?;
        if let Some(f) = self.mis.get(key).and_then(|m| m.optimised.clone()) {
            return Ok(f);
        }
        let typed = self.typed(key)?;
        if self.optimising.contains(key) {
            return Ok(typed);
        }
        self.optimising.insert(key.clone());
        let r = self.optimise((*typed).clone());
        self.optimising.remove(key);
        let f = Arc::new(r?);
        if let Some(mi) = self.mis.get_mut(key) {
            mi.optimised = Some(f.clone());
        }
        Ok(f)
    }

    /// Whether `key` is being optimised right now, in the optimisation's mode (the inliner
    /// must not copy it).
    pub fn is_optimising(&self, key: &MiKey) -> bool {
        if self.run_mode {
            self.optimising_run.contains(key)
        } else {
            self.optimising.contains(key)
        }
    }

    /// The code that runs `key`: its optimised code ([`Compiler::optimised`], what
    /// differentiation derives from), except that calls of the program's declared primitives
    /// and overlaid functions, which stay calls there so that differentiation sees them, are
    /// inlined like any call.
    pub fn runnable(&mut self, key: &MiKey) -> Result<Arc<Function>, CompileError> {
        if self.ad_view_only.is_empty() {
            return self.optimised(key);
        }
        if let Some(f) = self.mis.get(key).and_then(|m| m.runnable.clone()) {
            return Ok(f);
        }
        let outer = std::mem::replace(&mut self.run_mode, false);
        let opt = self.optimised(key);
        self.run_mode = outer;
        let opt = opt?;
        if !self.calls_ad_view_only(&opt) || self.optimising_run.contains(key) {
            if let Some(mi) = self.mis.get_mut(key) {
                mi.runnable = Some(opt.clone());
            }
            return Ok(opt);
        }
        let typed = self.typed(key)?;
        self.optimising_run.insert(key.clone());
        let outer = std::mem::replace(&mut self.run_mode, true);
        let r = self.timed(|c| c.optimise((*typed).clone()));
        self.run_mode = outer;
        self.optimising_run.remove(key);
        let f = Arc::new(r?);
        if let Some(mi) = self.mis.get_mut(key) {
            mi.runnable = Some(f.clone());
        }
        Ok(f)
    }

    /// Whether `f` calls a function whose calls stay calls only for differentiation.
    fn calls_ad_view_only(&self, f: &Function) -> bool {
        f.layout.iter().any(|b| {
            f.blocks[*b].insts.iter().any(|i| match &f.insts[*i] {
                InstData::Invoke { callee, .. } => {
                    let key = MiKey::of(callee);
                    self.ad_view_only.contains(&key.table)
                        || passes::inline::keyword_call_kept(self, &key)
                }
                _ => false,
            })
        })
    }

    pub fn optimise(&mut self, f: Function) -> Result<Function, CompileError> {
        let mut f = f;
        if self.options.verify {
            // What the passes are given must be well formed (inference's and AD's output).
            self.verify(&f, "before optimisation")?;
        }
        if self.options.optimise {
            passes::run_default(self, &mut f)?;
        }
        f.phase = Phase::Optimised;
        f.assign_id();
        Ok(f)
    }

    /// Dispatch on concrete argument types, remembered until the next definition.
    pub fn dispatch(&self, table: Symbol, args: &[Type]) -> Dispatch {
        let key = (table, args.to_vec());
        if let Some(d) = self.dispatch_cache.borrow().get(&key) {
            return d.clone();
        }
        let d = match self.tables.get(&table) {
            Some(t) => t.dispatch(args, &self.env),
            None => Dispatch::NoMethod,
        };
        self.dispatch_cache.borrow_mut().insert(key, d.clone());
        d
    }

    /// The program's own method of `func` (`show`, `print` or `showerror`) for writing a value
    /// of type `t`
    /// to an `IO` (`Base.show(io::IO, x::T) = ...`): printing calls it, as Julia's does. (The
    /// dispatch is cached until the next definition.)
    pub fn own_io_method(&self, func: &str, t: &Type) -> bool {
        let table = syntax::sym(func);
        let own = |tab: &methods::MethodTable| tab.methods.iter().any(|m| !m.in_prelude);
        if !self.tables.get(&table).is_some_and(own) {
            return false;
        }
        let io = Type::Struct(syntax::sym("IOBuffer"), Arc::from(Vec::new()));
        match self.dispatch(table, &[Type::Function(table), io, t.clone()]) {
            Dispatch::Found { index, .. } => {
                self.method(table, index).is_some_and(|m| !m.in_prelude)
            }
            _ => false,
        }
    }

    /// Whether the program defines methods of `show` or `print` of its own.
    pub fn has_own_io_methods(&self) -> bool {
        ["show", "print"].iter().any(|f| {
            self.tables
                .get(&syntax::sym(f))
                .is_some_and(|t| t.methods.iter().any(|m| !m.in_prelude))
        })
    }

    pub fn method(&self, table: Symbol, index: u32) -> Option<&Method> {
        self.tables.get(&table)?.methods.get(index as usize)
    }

    /// The methods of a generic function, as Julia lists them in a `MethodError` of a call
    /// of `callee`: those that apply to it (a type's own constructors when a type is called,
    /// not those of its parametric forms; a callable object's methods, not its type's
    /// constructors).
    pub fn candidates(&self, table: Symbol, callee: &Type) -> Vec<String> {
        match self.tables.get(&table) {
            Some(t) => t
                .methods
                .iter()
                .filter(|m| !m.in_prelude || self.prelude_files == 0)
                .filter(|m| {
                    m.sig.first().is_none_or(|p| {
                        let mut b = FxHashMap::default();
                        self.env.matches(callee, p, &m.tvars, &mut b, false)
                    })
                })
                .map(|m| m.signature_string())
                .collect(),
            None => vec![],
        }
    }

    /// The candidates (see [`Compiler::candidates`]) of a call of a value of type `callee`;
    /// none if such a value is not callable.
    pub fn candidates_of(&self, callee: &Type) -> Vec<String> {
        typeexpr::callee_table(callee).map_or_else(Vec::new, |t| self.candidates(t, callee))
    }

    /// Method-instance key of a call on concrete argument types, for the runtime.
    pub fn resolve_call(&self, table: Symbol, args: &[Type]) -> Result<MiKey, Dispatch> {
        match self.dispatch(table, args) {
            Dispatch::Found { index, mi_sig, .. } => Ok(MiKey {
                table,
                method: index,
                sig: mi_sig.into(),
            }),
            d => Err(d),
        }
    }

    /// The body of method `m` in SSA form (constructed, and verified, on first use).
    fn method_body(&self, m: &Method) -> Result<Arc<Function>, CompileError> {
        let (body, fresh) = m.body.ssa();
        if fresh {
            self.verify(&body, "after SSA construction")?;
        }
        Ok(body)
    }

    /// Lowered IR of the methods matching a call (for `mooncake ir --stage lowered`), in SSA
    /// form.
    pub fn lowered(&self, key: &MiKey) -> Option<Arc<Function>> {
        self.method_body(self.method(key.table, key.method)?).ok()
    }
}

/// Whether a top-level statement is a named function definition (`@views` keeps it one).
fn is_definition(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Function(d) if !matches!(d.name, syntax::ast::FnName::Anonymous))
}

/// The module Julia defines a library function in (for messages).
fn library_module(name: Symbol) -> &'static str {
    match name.as_str() {
        "dot" | "norm" | "opnorm" | "normalize" | "cross" | "det" | "logdet" | "logabsdet"
        | "tr" | "diag" | "diagm" | "kron" | "lu" | "cholesky" | "qr" | "mul!" | "ldiv!"
        | "triu" | "tril" | "eigen" | "eigvecs" | "eigmax" | "eigmin" | "svd" | "pinv" | "rank"
        | "issymmetric" | "isposdef" | "axpy!" | "svdvals" | "eigvals" | "cond" | "lmul!"
        | "rmul!" | "×" => "LinearAlgebra",
        "I" => "LinearAlgebra",
        "mean" | "var" | "std" | "median" | "cov" | "cor" | "quantile" | "middle" => "Statistics",
        "seed!" | "randperm" | "shuffle" | "shuffle!" | "rand" | "rand!" | "randn" | "randn!"
        | "randexp" => "Random",
        "rrule!!"
        | "frule!!"
        | "zero_tangent"
        | "zero_rdata"
        | "fdata"
        | "rdata"
        | "tangent_type"
        | "fdata_type"
        | "rdata_type"
        | "increment!!"
        | "primal"
        | "tangent"
        | "zero_fcodual"
        | "zero_codual"
        | "zero_dual"
        | "zero_adjoint"
        | "zero_derivative"
        | "build_rrule"
        | "value_and_gradient!!"
        | "value_and_pullback!!"
        | "value_and_derivative!!"
        | "test_rule" => "Mooncake",
        _ => "Base",
    }
}

/// The packages a program can load with `using` or `import`, beside Base's modules.
const PROVIDED_PACKAGES: &[&str] = &[
    "LinearAlgebra",
    "Statistics",
    "Random",
    "Printf",
    "SpecialFunctions",
    "LogExpFunctions",
    "Distributions",
    "Mooncake",
    "ChainRulesCore",
];

/// Whether `using M` names a module this implementation provides: Base, its submodules
/// (`Base.Threads`, `Base.Iterators`, `Base.MathConstants`), or a provided package.
fn is_provided_module(m: Symbol) -> bool {
    matches!(
        m.as_str(),
        "Base" | "Core" | "Main" | "Threads" | "Iterators" | "MathConstants" | "Math"
    ) || PROVIDED_PACKAGES.contains(&m.as_str())
}

/// The names a top-level statement defines functions of without a module (`f(x) = ...`, also
/// under `@inline` and in `@kwdef` blocks), after the names imported so far.
fn scan_definitions(item: &Expr, imported: &mut FxHashSet<Symbol>, own: &mut Vec<Symbol>) {
    match &item.kind {
        ExprKind::Function(def) => {
            if let syntax::ast::FnName::Name(n) = def.name {
                if !def.qualified && !imported.contains(&n) {
                    own.push(n);
                }
            }
        }
        ExprKind::Using {
            names,
            import: true,
            ..
        } => imported.extend(names.iter().copied()),
        ExprKind::Block(items) => items
            .iter()
            .for_each(|d| scan_definitions(d, imported, own)),
        ExprKind::If { then, else_, .. } => {
            then.iter().for_each(|d| scan_definitions(d, imported, own));
            if let Some(e) = else_ {
                scan_definitions(e, imported, own);
            }
        }
        ExprKind::Macro { args, .. } => {
            args.iter().for_each(|d| scan_definitions(d, imported, own))
        }
        _ => {}
    }
}
