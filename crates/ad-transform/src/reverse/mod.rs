//! Reverse mode by IR transformation (Mooncake's algorithm; see docs/ad-design.md): from the
//! optimised typed IR of a method instance, build a forwards-pass function and a pullback
//! function, both typed IR.
//!
//! - `fwd(state, x0, f0, x1, f1, ...) -> Tuple{y, fy}` runs the primal on (primal, fdata)
//!   pairs, pushes the values the pullback needs on a per-block communication stack (one tuple
//!   per block execution) and the id of each edge taken into a block with several predecessors
//!   on the block stack (`forwards`, one method per instruction kind in `forwards_inst`).
//! - `rvs(state, ȳ) -> Tuple{r0, r1, ...}` visits the blocks in reverse, popping those stacks
//!   (`pullback`, one method per instruction kind in `pullback_inst`). Each value with reverse
//!   data has an accumulator, emitted as a typed slot that SSA construction turns into
//!   registers; a value's accumulator is reset once propagated, so loops accumulate per
//!   iteration.
//! - `state` is a tuple of vectors: the block stack (`Vector{Int64}`) and the comms stacks of
//!   each block that saves values (`saved`: its register values together, each other value on
//!   a stack of its own); `cfg` holds the control-flow facts both passes follow
//!   and `rdata` the IR of reverse data.
//!
//! Constructs without a rule are reported with their source line.

mod cfg;
mod forwards;
mod forwards_inst;
mod pullback;
mod pullback_inst;
mod rdata;
mod rev;
mod saved;

pub(crate) use saved::rule_stack;
pub use saved::rule_state_type;

use crate::emit::Emit;
use crate::{AdError, DerivedKey, RuleOptions};
use ir::tangent::{fdata_type, rdata_type};
use ir::{Const, Function, Inst, InstData, Prim, Type, TypeEnv, Value};
use rdata::zero_rdata;
use rustc_hash::FxHashMap;

/// Derives the forwards pass and pullback of `primal` (typed or optimised IR). `names` gives
/// the name under which the derived function of a callee is invoked (resolved, and derived, when
/// first executed). With `debug`, the forwards pass checks (`Core.ad_check`) that each argument's
/// and each derived call's fdata matches its primal (type and array sizes), naming the value.
pub fn derive_reverse(
    primal: &Function,
    env: &TypeEnv,
    names: &mut dyn FnMut(DerivedKey) -> syntax::Symbol,
    opts: RuleOptions,
) -> Result<Derived, AdError> {
    let cx = Ctx { p: primal, env };
    let cfg = cfg::Cfg::new(primal);
    let fw = forwards::derive(&cx, &cfg, names, opts)?;
    let mut rvs = pullback::derive(&cx, &cfg, &fw)?;
    let forwards::ForwardsPass {
        f: mut fwd,
        state_types,
        ..
    } = fw;
    saved::hoist_rule_stacks(&mut fwd);
    saved::hoist_rule_stacks(&mut rvs);
    Ok(Derived {
        fwd,
        rvs,
        state: state_types,
    })
}

/// A derived rule: the two functions and the types of the state's stacks.
#[derive(Debug, Clone)]
pub struct Derived {
    pub fwd: Function,
    pub rvs: Function,
    /// Types of the state tuple's fields (each a `Vector{...}`), the block stack first.
    pub state: Vec<Type>,
}

impl Derived {
    pub fn state_type(&self) -> Type {
        Type::tuple(self.state.clone())
    }
}

struct Ctx<'a> {
    p: &'a Function,
    env: &'a TypeEnv,
}

impl Ctx<'_> {
    fn ty(&self, v: Value) -> Type {
        self.p.types[v].clone()
    }
    /// Fdata type of a value (code after a `Union{}` value never runs: no fdata).
    fn ft(&self, v: Value) -> Type {
        match fdata_type(&self.ty(v), self.env) {
            Type::Bottom => Type::NoFData,
            t => t,
        }
    }
    fn rt(&self, v: Value) -> Type {
        match rdata_type(&self.ty(v), self.env) {
            Type::Bottom => Type::NoRData,
            t => t,
        }
    }
    fn err(&self, i: Inst, what: String) -> AdError {
        AdError {
            trace: self.p.source_chain(i),
            ..AdError::new(what, self.p.locs[i])
        }
    }
}

fn inst_kind(d: &InstData) -> &'static str {
    match d {
        InstData::Const(_) => "const",
        InstData::Prim { .. } => "prim",
        InstData::Invoke { .. } => "invoke",
        InstData::Call { .. } => "call",
        InstData::New { .. } => "struct construction (new)",
        InstData::Tuple { .. } => "tuple",
        InstData::GetField { .. } => "field access",
        InstData::SetField { .. } => "field assignment",
        InstData::TypeAssert { .. } => "type assertion",
        InstData::GetGlobal(_) => "global read",
        InstData::SetGlobal(..) => "global assignment",
        InstData::StaticParam(_) => "static parameter",
        InstData::GetSlot(_) | InstData::SetSlot(..) => "slot",
        InstData::Jump { .. } => "jump",
        InstData::Branch { .. } => "branch",
        InstData::Return(_) => "return",
        InstData::Unreachable => "unreachable",
    }
}

/// The tangent to store in a mutable tangent's field for the value `a` (of tangent type `tt`):
/// zero for floats (their cotangent flows back through the field), the fdata for arrays and
/// mutable structs (their tangent is their fdata), `NoTangent` for values without one, and
/// the whole tangent (fdata joined with a zero rdata when the code runs) for the rest.
fn field_tangent(
    e: &mut Emit,
    cx: &Ctx,
    a: Value,
    tt: &Type,
    vmap: &FxHashMap<Value, Value>,
    fmap: &FxHashMap<Value, Value>,
) -> Value {
    match tt {
        Type::NoTangent => e.konst(Const::Singleton(Type::NoTangent)),
        // A field `new` leaves `#undef`.
        _ if cx.ty(a) == Type::Bottom => e.konst(Const::Undef),
        Type::Float64 | Type::Float32 => zero_rdata(tt, e, cx.env),
        // A field whose tangent is known only at run time (`Any`, `Core.Box`'s contents).
        Type::Any => e.prim(Prim::TangentOf, vec![vmap[&a], fmap[&a]], Type::Any),
        _ if cx.ft(a) == *tt => fmap[&a],
        // A value with reverse data (a struct or tuple holding floats): its whole tangent,
        // the fdata joined with a zero rdata, made when the code runs.
        _ => {
            let t = e.prim(Prim::TangentOf, vec![vmap[&a], fmap[&a]], Type::Any);
            e.val(
                InstData::TypeAssert {
                    val: t,
                    ty: tt.clone(),
                },
                tt.clone(),
            )
        }
    }
}

/// Whether a mutable struct's field of tangent type `tt`, holding `a`, keeps its tangent as a
/// whole tangent joined and split when the code runs: a field of type `Any`, or a value whose
/// tangent is more than its fdata (a struct or tuple holding floats). Such fields save the
/// primal they hold, to split their tangent into fdata and rdata.
fn runtime_tangent_field(cx: &Ctx, a: Value, tt: &Type) -> bool {
    match tt {
        Type::Any => true,
        Type::Float64 | Type::Float32 | Type::NoTangent => false,
        _ => cx.ft(a) != *tt,
    }
}

/// Whether a tangent type's zero is all-zero bits (floats, and tuples and tangents of them), so
/// that a freshly allocated array of it is already zero.
fn zero_bits_tangent(t: &Type, env: &TypeEnv) -> bool {
    match t {
        Type::Float64 | Type::Float32 | Type::NoTangent => true,
        Type::Tuple(ts) => ts.iter().all(|t| zero_bits_tangent(t, env)),
        Type::Tangent(_) => env
            .field_types(t)
            .is_some_and(|fs| fs.iter().all(|t| zero_bits_tangent(t, env))),
        _ => false,
    }
}

/// Whether `Core.array_new` of primal array type `at` gets the right fdata from allocating an
/// array of its tangent type `ft`: zero bits, or unassigned slots in both.
fn new_tangent_array_ok(at: &Type, ft: &Type, env: &TypeEnv) -> bool {
    let te = tangent_elem(ft);
    zero_bits_tangent(&te, env) || !tangent_elem(at).is_bits(env)
}

/// The element tangent type of an array type.
fn tangent_elem(t: &Type) -> Type {
    match t {
        Type::Array(e, _) => (**e).clone(),
        _ => Type::NoTangent,
    }
}

/// Debug mode: `Core.ad_check(x, fx, what)`.
fn ad_check(e: &mut Emit, x: Value, fx: Value, what: &str) {
    let w = e.konst(Const::Str(std::sync::Arc::from(what)));
    e.prim(Prim::AdCheck, vec![x, fx, w], Type::Nothing);
}
