//! Reverse mode by IR transformation (Mooncake's algorithm; see docs/ad-design.md): from the
//! optimised typed IR of a method instance, build a forwards-pass function and a pullback
//! function, both typed IR.
//!
//! - `fwd(state, x0, f0, x1, f1, ...) -> Tuple{y, fy}` runs the primal on (primal, fdata)
//!   pairs, pushes the values the pullback needs on a per-block communication stack (one tuple
//!   per block execution) and the id of each edge taken into a block with several predecessors
//!   on the block stack.
//! - `rvs(state, ȳ) -> Tuple{r0, r1, ...}` visits the blocks in reverse, popping those stacks.
//!   Each value with reverse data has an accumulator, emitted as a typed slot that SSA
//!   construction turns into registers; a value's accumulator is reset once propagated, so
//!   loops accumulate per iteration.
//! - `state` is a tuple of vectors: the block stack (`Vector{Int64}`) and one comms stack per
//!   block that saves values.
//!
//! This first version handles scalar code, branches, loops, tuples and array reads; other
//! constructs are reported with their source line.

use crate::emit::Emit;
use crate::rules::{reverse_rule, Partial, Rule};
use crate::{AdError, DerivedKey, Mode, RuleOptions};
use compiler::MiKey;
use ir::tangent::{fdata_type, rdata_type};
use ir::{
    Block, Callee, Const, FieldRef, Function, Inst, InstData, Phase, Prim, Slot, SlotData, Type,
    TypeEnv, Value,
};
use rustc_hash::FxHashMap;
use syntax::{sym, Span};

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

/// An edge of the CFG: the predecessor and the index of the successor among its successors.
type Edge = (Block, usize);

/// Values the reverse pass reads from one forward block, pushed as one tuple.
#[derive(Default)]
struct Saved {
    vals: Vec<Value>,
    index: FxHashMap<Value, usize>,
    /// Values fixed for the whole call (the forwards pass's arguments and their fdata): saved
    /// once per call instead of in every block execution (see `INVARIANT`).
    shared: Option<std::rc::Rc<Invariants>>,
    /// The counted loops the block is in: their induction variables are recomputed, not saved.
    loops: Vec<Block>,
    /// The induction variables the block's reverse reads (see `IV`).
    ivs: Vec<Value>,
}

/// An induction variable of a counted loop: a header parameter that enters as `init` and grows
/// by `step` along the back edge (or such a parameter plus a constant `offset`). While the
/// pullback runs the loop's blocks, the loop's counter holds the iteration's count, so the
/// variable is `init + step * count + offset` there: recomputed instead of saved once per
/// iteration.
#[derive(Clone)]
struct IvSpec {
    header: Block,
    init: IvInit,
    step: i64,
    /// Added to the variable (a value computed from it by adding a constant).
    offset: i64,
}

#[derive(Clone, Copy)]
enum IvInit {
    Const(i64),
    /// A call-invariant value of the forwards pass (saved once per call).
    Invariant(Value),
}

/// The call-invariant values of a forwards pass and those of them the pullback needs.
struct Invariants {
    values: std::cell::RefCell<rustc_hash::FxHashSet<Value>>,
    saved: std::cell::RefCell<Saved>,
    /// The induction variables of counted loops (forwards-pass values).
    ivs: std::cell::RefCell<FxHashMap<Value, IvSpec>>,
}

/// Saved-value indices from this one on refer to the call-invariant values (index − INVARIANT
/// among them), pushed once when the forwards pass starts and popped first by the pullback.
const INVARIANT: usize = 1 << 40;
/// Saved-value indices from this one on refer to the block's recomputed induction variables.
const IV: usize = 1 << 41;

impl Saved {
    /// Whether the pullback of this block has `v` without it being saved: a call-invariant
    /// value or an induction variable of a counted loop the block is in.
    fn recomputable(&self, v: Value) -> bool {
        let Some(sh) = &self.shared else {
            return false;
        };
        sh.values.borrow().contains(&v)
            || sh
                .ivs
                .borrow()
                .get(&v)
                .is_some_and(|s| self.loops.contains(&s.header))
    }

    fn add(&mut self, v: Value) -> usize {
        if let Some(sh) = &self.shared {
            if sh.values.borrow().contains(&v) {
                return INVARIANT + sh.saved.borrow_mut().add(v);
            }
            let iv = sh.ivs.borrow().get(&v).cloned();
            if let Some(spec) = iv.filter(|s| self.loops.contains(&s.header)) {
                if let IvInit::Invariant(init) = spec.init {
                    sh.saved.borrow_mut().add(init);
                }
                let j = match self.ivs.iter().position(|x| *x == v) {
                    Some(j) => j,
                    None => {
                        self.ivs.push(v);
                        self.ivs.len() - 1
                    }
                };
                return IV + j;
            }
        }
        if let Some(&i) = self.index.get(&v) {
            return i;
        }
        self.vals.push(v);
        self.index.insert(v, self.vals.len() - 1);
        self.vals.len() - 1
    }
}

/// The values saved for a block in the pullback: its own (popped from its comms stack) and the
/// call-invariant ones (popped at the pullback's entry).
struct SavedVals<'a> {
    own: &'a [Value],
    invariant: &'a [Value],
    ivs: &'a [Value],
}

impl std::ops::Index<usize> for SavedVals<'_> {
    type Output = Value;
    fn index(&self, k: usize) -> &Value {
        if k >= IV {
            &self.ivs[k - IV]
        } else if k >= INVARIANT {
            &self.invariant[k - INVARIANT]
        } else {
            &self.own[k]
        }
    }
}

/// A reverse fragment of one primal instruction, to be emitted in the pullback.
enum Rev {
    /// acc[arg] += acc[out] * partial (partials are indices into the block's saved values).
    Scalar {
        out: Value,
        args: Vec<(Value, RevPartial)>,
    },
    /// fdata(array)[idx] += acc[out]
    ArrayRead {
        out: Value,
        fdata: usize,
        idx: Vec<usize>,
        elem: Type,
        /// The element read, when its tangent is known only at run time.
        primal: Option<usize>,
    },
    /// acc[val] += acc[out]
    Pass { out: Value, val: Value },
    /// acc[args[k]] += field k of acc[out]
    Build { out: Value, args: Vec<Value> },
    /// field k of acc[obj] += acc[out]
    Field { out: Value, obj: Value, k: u32 },
    /// Undo `A[idx] = val`: val's cotangent is the element's fdata, then the old fdata and the
    /// old element are restored.
    ArrayWrite {
        val: Value,
        arr: usize,
        idx: Vec<usize>,
        old_p: usize,
        fdata: Option<(usize, usize)>,
        ert: Type,
        /// The value written, when its tangent is known only at run time.
        val_p: Option<usize>,
    },
    /// A rule of the default context (`rules::FastRule`): (primal, fdata) of each array argument.
    Fast {
        out: Value,
        rule: crate::rules::FastRule,
        arrays: Vec<(usize, usize)>,
    },
    /// Undo `push!(A, val)`.
    ArrayPush {
        val: Value,
        arr: usize,
        fdata: Option<usize>,
        elem: Type,
        ert: Type,
        /// The value pushed, when its tangent is known only at run time.
        val_p: Option<usize>,
    },
    /// Undo `resize!(A, n)` on A and its fdata from copies taken before it (saved indices).
    ArrayResize {
        arr: usize,
        saved: usize,
        n: usize,
        fdata: Option<(usize, usize)>,
    },
    /// Undo `out = pop!(A)`: push back the value and its fdata plus out's cotangent.
    ArrayPop {
        out: Value,
        arr: usize,
        val: usize,
        fdata: Option<(usize, usize)>,
    },
    /// `new` of a mutable struct: float fields' cotangents (in its tangent) go to the arguments;
    /// so do those of fields whose tangent is known only at run time (with the argument's
    /// primal saved).
    MutableNew {
        tangent: usize,
        fields: Vec<(Value, u32, Option<usize>)>,
    },
    /// `out = obj.k` of a mutable struct: the tangent's field k += acc[out] (with the primal
    /// read saved when the field's tangent is known only at run time).
    MutableRead {
        out: Value,
        tangent: usize,
        k: u32,
        primal: Option<usize>,
    },
    /// Undo `obj.k = val`: a float val's cotangent is the tangent's field; restore both fields.
    MutableWrite {
        val: Value,
        obj: usize,
        k: u32,
        old_p: usize,
        tangent: Option<(usize, usize)>,
        float: bool,
        /// The value written, when the field's tangent is known only at run time.
        val_p: Option<usize>,
    },
    /// `out = t[i]` (run-time i): element i of acc[t] += acc[out].
    TupleIndex {
        out: Value,
        tuple: Value,
        idx: usize,
    },
    /// A copy's cotangent accumulates into the source's fdata.
    ArrayCopy { src: usize, dst: usize },
    /// A dynamic call's pullback (`Core.dyn_rvs`) on child state `site`: acc[args[j]] += its
    /// result j (reverse data known only at run time, converted to each accumulator's type).
    Dynamic {
        out: Value,
        site: u32,
        args: Vec<Value>,
    },
    /// `out = obj.name` with obj's type known only at run time: acc[obj] += the cotangent
    /// `Core.field_cotangent` builds from the saved primal and fdata of obj.
    DynField {
        out: Value,
        obj: Value,
        primal: usize,
        fdata: usize,
        name: std::sync::Arc<str>,
    },
    /// The callee's pullback on child state `site`: acc[args[j]] += its result j.
    Invoke {
        out: Value,
        site: u32,
        callee: Callee,
        ret: Type,
        args: Vec<Value>,
    },
}

#[derive(Clone, Copy)]
enum RevPartial {
    One,
    MinusOne,
    Saved(usize),
    /// A saved derivative that may be infinite: a zero cotangent times it is zero.
    SavedSingular(usize),
    /// The cotangent where a saved `Bool` is true, zero elsewhere.
    SavedIf(usize),
    Convert,
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

/// A zero of a reverse-data type.
fn zero_rdata(t: &Type, e: &mut Emit, env: &TypeEnv) -> Value {
    rdata_leafwise(&[], t, e, env, &mut |e, _, t| match t {
        Type::Float64 => e.konst(Const::F64(0.0)),
        Type::Float32 => e.konst(Const::F32(0.0)),
        other => e.konst(Const::of_singleton(other).unwrap_or(Const::Singleton(Type::NoRData))),
    })
}

/// `a + b` for reverse data of type `t`.
fn add_rdata(a: Value, b: Value, t: &Type, e: &mut Emit, env: &TypeEnv) -> Value {
    rdata_leafwise(&[a, b], t, e, env, &mut |e, v, t| {
        if t.is_float() {
            e.prim(Prim::AddFloat, vec![v[0], v[1]], t.clone())
        } else if *t == Type::Any {
            // Reverse data known only at run time (`NoRData` is its zero).
            e.prim(Prim::RdataAdd, vec![v[0], v[1]], Type::Any)
        } else {
            v[0]
        }
    })
}

/// Reverse data `x` (of static type `xt`) as reverse data of type `t`: the same value when
/// the types agree or `t` is `Any`; otherwise `x` holds reverse data known only at run time
/// (typed `Any`, or an aggregate with `Any` parts), converted at run time (a `NoRData` zero
/// becomes `t`'s zero).
fn rdata_as(x: Value, xt: &Type, t: &Type, e: &mut Emit) -> Value {
    if xt == t || *t == Type::Any {
        return x;
    }
    let tv = e.konst(Const::Type(t.clone()));
    e.prim(Prim::RdataConvert, vec![x, tv], t.clone())
}

/// Whether reverse data of type `from` can flow into an accumulator of type `to` (equal, or
/// one of them decided at run time).
fn rdata_compatible(from: &Type, to: &Type) -> bool {
    from == to || *from == Type::NoRData || *to == Type::NoRData || has_any(from) || has_any(to)
}

/// Whether a reverse-data type has a part of type `Any`.
fn has_any(t: &Type) -> bool {
    match t {
        Type::Any => true,
        Type::Tuple(ts) | Type::NamedTuple(_, ts) => ts.iter().any(has_any),
        _ => false,
    }
}

/// Builds reverse data of type `t` part by part: tuples, named tuples and `RData` are rebuilt
/// from their fields, and `leaf` makes each leaf (a float, or reverse data without parts) from
/// the corresponding leaves of `vals` (each of type `t`).
fn rdata_leafwise(
    vals: &[Value],
    t: &Type,
    e: &mut Emit,
    env: &TypeEnv,
    leaf: &mut dyn FnMut(&mut Emit, &[Value], &Type) -> Value,
) -> Value {
    let Some(parts) = rdata_parts(t, env) else {
        return leaf(e, vals, t);
    };
    let mut built = Vec::with_capacity(parts.len());
    for (k, et) in parts.iter().enumerate() {
        let xs: Vec<Value> = vals
            .iter()
            .map(|v| e.field(*v, k as u32, et.clone()))
            .collect();
        built.push(rdata_leafwise(&xs, et, e, env, leaf));
    }
    rdata_build(t, built, e)
}

/// The part types of an aggregate reverse-data, forward-data or immutable tangent type (`None`
/// for a leaf).
fn rdata_parts(t: &Type, env: &TypeEnv) -> Option<Vec<Type>> {
    match t {
        Type::Tuple(ts) => Some(ts.to_vec()),
        Type::RData(_) | Type::FData(_) | Type::Tangent(_) | Type::NamedTuple(..) => {
            env.field_types(t)
        }
        _ => None,
    }
}

/// The aggregate (reverse data, forward data or tangent) of type `t` with these parts.
fn rdata_build(t: &Type, parts: Vec<Value>, e: &mut Emit) -> Value {
    let data = match t {
        Type::Tuple(_) => InstData::Tuple { args: parts },
        _ => InstData::New {
            ty: t.clone(),
            args: parts,
        },
    };
    e.val(data, t.clone())
}

/// `v` of tangent type `from` rebuilt as its reverse data or forward data `to` (or back, when
/// the other part is empty): the element of a tangent array of immutable structs is a
/// `Tangent{P}`; the cotangent of a value read from it is an `RData{P}` (its float leaves) and
/// its fdata an `FData{P}` (its arrays and mutable tangents).
fn recast(v: Value, from: &Type, to: &Type, e: &mut Emit, env: &TypeEnv) -> Value {
    if from == to {
        return v;
    }
    let (Some(fs), Some(ts)) = (rdata_parts(from, env), rdata_parts(to, env)) else {
        return e.konst(Const::of_singleton(to).unwrap_or(Const::Singleton(to.clone())));
    };
    let mut built = Vec::with_capacity(ts.len());
    for (k, (ft, tt)) in fs.iter().zip(&ts).enumerate() {
        let x = e.field(v, k as u32, ft.clone());
        built.push(recast(x, ft, tt, e, env));
    }
    rdata_build(to, built, e)
}

/// The tangent of type `tt` whose forward data is `f` (of type `ft`) and whose reverse data is
/// zero: what a tangent array holds for an element just written.
fn tangent_of_fdata(f: Value, ft: &Type, tt: &Type, e: &mut Emit, env: &TypeEnv) -> Value {
    if ft == tt {
        return f;
    }
    if *ft == Type::NoFData {
        return zero_rdata(tt, e, env);
    }
    let (Some(ts), Some(fs)) = (rdata_parts(tt, env), rdata_parts(ft, env)) else {
        return zero_rdata(tt, e, env);
    };
    let mut built = Vec::with_capacity(ts.len());
    for (k, (t, fk)) in ts.iter().zip(&fs).enumerate() {
        let x = e.field(f, k as u32, fk.clone());
        built.push(tangent_of_fdata(x, fk, t, e, env));
    }
    rdata_build(tt, built, e)
}

/// Tangent `t` (of type `tt`) with reverse data `r` (of type `rt`) added to its float leaves;
/// its arrays and mutable tangents are kept.
fn tangent_plus_rdata(
    t: Value,
    tt: &Type,
    r: Value,
    rt: &Type,
    e: &mut Emit,
    env: &TypeEnv,
) -> Value {
    if *rt == Type::NoRData {
        return t;
    }
    if tt.is_float() {
        return e.prim(Prim::AddFloat, vec![t, r], tt.clone());
    }
    let (Some(ts), Some(rs)) = (rdata_parts(tt, env), rdata_parts(rt, env)) else {
        return t;
    };
    let mut built = Vec::with_capacity(ts.len());
    for (k, (tk, rk)) in ts.iter().zip(&rs).enumerate() {
        let x = e.field(t, k as u32, tk.clone());
        let y = e.field(r, k as u32, rk.clone());
        built.push(tangent_plus_rdata(x, tk, y, rk, e, env));
    }
    rdata_build(tt, built, e)
}

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
    let debug = opts.debug;
    let mut sites: u32 = 0;
    let cx = Ctx { p: primal, env };
    // Only reachable blocks (the last folding pass may have left unreachable ones).
    let reachable: rustc_hash::FxHashSet<Block> = primal.reverse_postorder().into_iter().collect();
    let layout: Vec<Block> = primal
        .layout
        .iter()
        .copied()
        .filter(|b| reachable.contains(b))
        .collect();
    let pos: FxHashMap<Block, usize> = layout.iter().enumerate().map(|(i, b)| (*b, i)).collect();
    // Incoming edges of each block: (predecessor, successor slot).
    let mut incoming: FxHashMap<Block, Vec<(Block, usize)>> = FxHashMap::default();
    for &b in &layout {
        if let Some(t) = primal.terminator(b) {
            for (k, (d, _)) in primal.insts[t].successors().iter().enumerate() {
                incoming.entry(*d).or_default().push((b, k));
            }
        }
    }
    let edge_id = |q: Block, k: usize| (pos[&q] * 2 + k) as i64;
    let returns: Vec<Block> = layout
        .iter()
        .copied()
        .filter(|b| {
            primal
                .terminator(*b)
                .is_some_and(|t| matches!(primal.insts[t], InstData::Return(_)))
        })
        .collect();

    let mut fwd_returns = 0usize;
    // Blocks that cannot reach a `return` (error paths) need no derivative: the forwards pass
    // runs their primal code as it is, and the pullback never visits them.
    let mut live: rustc_hash::FxHashSet<Block> = returns.iter().copied().collect();
    let mut work: Vec<Block> = returns.clone();
    while let Some(b) = work.pop() {
        for (q, _) in incoming.get(&b).cloned().unwrap_or_default() {
            if live.insert(q) {
                work.push(q);
            }
        }
    }
    let doomed = |b: Block| !live.contains(&b);

    // Counted loops: a header entered again along exactly one back edge counts its iterations
    // in a register instead of pushing the back edge's id on the block stack each time; the
    // count is pushed once when the loop exits (see `CountedLoop`).
    let loops = counted_loops(primal, &layout, &incoming, &live);
    let loops_of = |b: Block| -> Vec<Block> {
        let mut hs: Vec<Block> = loops
            .iter()
            .filter(|(_, l)| l.body.contains(&b))
            .map(|(h, _)| *h)
            .collect();
        hs.sort_by_key(|h| std::cmp::Reverse(loops[h].body.len()));
        hs
    };
    // The loops an edge leaves, outermost first (their counts are pushed in this order).
    let exited = |q: Block, d: Block| -> Vec<Block> {
        let inner = loops_of(d);
        loops_of(q)
            .into_iter()
            .filter(|h| !inner.contains(h))
            .collect()
    };
    // Whether taking edge (q, k) into `d` pushes its id on the block stack.
    let pushes_id = |q: Block, k: usize, d: Block| -> bool {
        if doomed(d) || incoming[&d].len() < 2 {
            return false;
        }
        match loops.get(&d) {
            Some(l) => l.back != (q, k) && l.enters.len() > 1,
            None => true,
        }
    };

    // ---------------- forwards pass ----------------
    let mut fwd = Function::new(format!("fwd {}", primal.name), Phase::Typed);
    let mut site_marks = crate::emit::SiteMarks::new(&mut fwd, primal);
    // A function that never returns (its entry is on an error path) still takes the calling
    // convention of forwards passes: an entry of its own takes the rule state and each
    // argument with its fdata, and jumps to the primal code with the arguments alone.
    let doomed_entry = doomed(layout[0]).then(|| fwd.add_block());
    let fblocks: FxHashMap<Block, Block> = layout.iter().map(|b| (*b, fwd.add_block())).collect();
    let state = fwd.add_block_param(
        doomed_entry.unwrap_or(fblocks[&layout[0]]),
        rule_state_type(),
    );
    let mut vmap: FxHashMap<Value, Value> = FxHashMap::default();
    let mut fmap: FxHashMap<Value, Value> = FxHashMap::default();
    for &b in &layout {
        for &p in &primal.blocks[b].params {
            let pv = fwd.add_block_param(fblocks[&b], cx.ty(p));
            vmap.insert(p, pv);
            if !doomed(b) {
                let pf = fwd.add_block_param(fblocks[&b], cx.ft(p));
                fmap.insert(p, pf);
            }
        }
    }
    if let Some(entry) = doomed_entry {
        let mut args = Vec::new();
        for &p in &primal.blocks[layout[0]].params {
            args.push(fwd.add_block_param(entry, cx.ty(p)));
            fwd.add_block_param(entry, cx.ft(p));
        }
        let loc = primal.locs[primal.blocks[layout[0]].insts[0]];
        fwd.append(
            entry,
            InstData::Jump {
                dest: fblocks[&layout[0]],
                args,
            },
            Type::Any,
            loc,
        );
    }
    // Each counted loop's header takes its iteration count last.
    let counter: FxHashMap<Block, Value> = loops
        .keys()
        .map(|h| (*h, fwd.add_block_param(fblocks[h], Type::Int64)))
        .collect();
    // An entry block without predecessors runs once per call: its parameters are invariant.
    let invariants = std::rc::Rc::new(Invariants {
        values: std::cell::RefCell::new(if incoming.get(&layout[0]).is_none_or(|e| e.is_empty()) {
            fwd.blocks[fblocks[&layout[0]]]
                .params
                .iter()
                .copied()
                .collect()
        } else {
            Default::default()
        }),
        saved: Default::default(),
        ivs: Default::default(),
    });
    let mut saved: FxHashMap<Block, Saved> = FxHashMap::default();
    let mut revs: FxHashMap<Block, Vec<Rev>> = FxHashMap::default();
    // State fields: 0 = block stack; then a comms stack per saving block (index assigned below).
    let mut state_types: Vec<Type> = vec![Type::vector(Type::Int64)];
    let mut comms_field: FxHashMap<Block, u32> = FxHashMap::default();
    let mut comms_tuple: FxHashMap<Block, Vec<Type>> = FxHashMap::default();
    let mut comms_recipes: FxHashMap<Block, Vec<Recipe>> = FxHashMap::default();

    // Blocks in reverse postorder, so that every value is mapped before a block it
    // dominates uses it (the layout need not be in that order).
    let rpo: Vec<Block> = primal.reverse_postorder();
    for &b in &rpo {
        let fb = fblocks[&b];
        if doomed(b) {
            // The primal code, on primal values only.
            for &i in &primal.blocks[b].insts {
                site_marks.start(&fwd, primal.inlined_at[i]);
                let mut d = primal.insts[i].clone();
                d.map_args(|a| vmap.get(&a).copied().unwrap_or(a));
                d.map_successors(|s| fblocks[&s]);
                let ty = primal.result(i).map(|r| cx.ty(r)).unwrap_or_default();
                let (ni, nv) = fwd.make_inst(d, ty, primal.locs[i]);
                fwd.blocks[fb].insts.push(ni);
                if let (Some(r), Some(nv)) = (primal.result(i), nv) {
                    vmap.insert(r, nv);
                }
            }
            saved.insert(b, Saved::default());
            revs.insert(b, vec![]);
            continue;
        }
        let mut sv = Saved {
            shared: Some(invariants.clone()),
            loops: loops_of(b),
            ..Default::default()
        };
        let mut rv: Vec<Rev> = Vec::new();
        if debug && b == layout[0] {
            let loc = primal.locs[primal.blocks[b].insts[0]];
            for (k, &p) in primal.blocks[b].params.iter().enumerate() {
                if cx.ft(p) != Type::NoFData {
                    let what = format!("argument {k} of {}", primal.name);
                    ad_check(
                        &mut Emit {
                            f: &mut fwd,
                            block: fb,
                            loc,
                        },
                        vmap[&p],
                        fmap[&p],
                        &what,
                    );
                }
            }
        }
        let insts = primal.blocks[b].insts.clone();
        let (body, term) = insts.split_at(insts.len() - 1);
        for &i in body {
            site_marks.start(&fwd, primal.inlined_at[i]);
            let loc = primal.locs[i];
            let mut e = Emit {
                f: &mut fwd,
                block: fb,
                loc,
            };
            let res = primal.result(i);
            let data = primal.insts[i].clone();
            // The primal instruction, re-emitted on mapped operands.
            let mut pd = data.clone();
            pd.map_args(|a| vmap.get(&a).copied().unwrap_or(a));
            let out = res.map(|r| (r, cx.ty(r)));
            // A static call runs the callee's derived forwards pass instead, and writes save
            // the old contents first (below).
            let is_call = matches!(
                data,
                InstData::Invoke { .. }
                    | InstData::Call { .. }
                    | InstData::SetField { .. }
                    | InstData::Prim {
                        op: Prim::ArraySet | Prim::ArrayPush | Prim::ArrayPop | Prim::ArrayResize,
                        ..
                    }
            );
            let new_v = match &out {
                _ if is_call => None,
                Some((_, t)) => Some(e.val(pd, t.clone())),
                None => {
                    e.inst(pd, Type::Any);
                    None
                }
            };
            if let (Some((r, _)), Some(nv)) = (&out, new_v) {
                vmap.insert(*r, nv);
                // An induction variable plus or minus a constant is one too (`x[i + 1]`).
                if let InstData::Prim {
                    op: op @ (Prim::AddInt | Prim::SubInt),
                    args,
                } = &data
                {
                    let int = |v: Value| match primal.const_value(v) {
                        Some(Const::Int(k)) => Some(*k),
                        _ => None,
                    };
                    let mut ivs = invariants.ivs.borrow_mut();
                    let iv = |v: Value| vmap.get(&v).and_then(|fv| ivs.get(fv)).cloned();
                    let derived = match (op, iv(args[0]), iv(args[1])) {
                        (_, Some(s), None) => int(args[1]).map(|k| (s, k, *op == Prim::SubInt)),
                        (Prim::AddInt, None, Some(s)) => int(args[0]).map(|k| (s, k, false)),
                        _ => None,
                    };
                    if let Some((s, k, minus)) = derived {
                        let offset = if minus {
                            s.offset.wrapping_sub(k)
                        } else {
                            s.offset.wrapping_add(k)
                        };
                        ivs.insert(nv, IvSpec { offset, ..s });
                    }
                }
            }
            let fdata_const = |e: &mut Emit, t: &Type| {
                e.konst(Const::of_singleton(t).unwrap_or(Const::Singleton(Type::NoFData)))
            };
            match &data {
                InstData::Const(c) => {
                    let r = res.unwrap_or_else(|| unreachable!());
                    let ft = cx.ft(r);
                    if ft != Type::NoFData {
                        return Err(cx.err(i, format!("constant {c:?} with fdata of type {ft} is not supported by reverse mode yet")));
                    }
                    let fv = fdata_const(&mut e, &ft);
                    fmap.insert(r, fv);
                }
                InstData::Prim {
                    op: Prim::DualApply | Prim::GradApply | Prim::ZeroTangent,
                    ..
                } => {
                    return Err(cx.err(
                        i,
                        "`derivative` and `gradient` called inside differentiated code are not supported by reverse mode yet; use forward mode (`grad --mode forward`, `value_and_gradient_forward`)".into(),
                    ));
                }
                InstData::Prim { op, args } => {
                    let r = res.unwrap_or_else(|| unreachable!());
                    let ats: Vec<Type> = args.iter().map(|a| cx.ty(*a)).collect();
                    // (Writes are emitted by their rule; their result is not needed by it.)
                    let nv = vmap.get(&r).copied().unwrap_or(vmap[&args[0]]);
                    let margs: Vec<Value> = args.iter().map(|a| vmap[a]).collect();
                    let rt_out = cx.ty(r);
                    // A primitive that writes nothing and has no tangent in or out needs no rule.
                    let no_tangent =
                        |v: Value| cx.ft(v) == Type::NoFData && cx.rt(v) == Type::NoRData;
                    let inert = !op.effects().writes
                        && no_tangent(r)
                        && args.iter().all(|a| no_tangent(*a));
                    let rule = if inert {
                        Some(Rule::NonDifferentiable)
                    } else {
                        reverse_rule(*op, &margs, &ats, nv, &rt_out, &mut e)
                    };
                    let rule = rule.ok_or_else(|| {
                        cx.err(i, format!("the primitive `Core.{}` has no reverse-mode rule yet; add one in crates/ad/src/rules.rs", op.name()))
                    })?;
                    let ft = cx.ft(r);
                    match rule {
                        Rule::NonDifferentiable => {
                            let fv = if ft == Type::NoFData {
                                fdata_const(&mut e, &ft)
                            } else if *op == Prim::ArrayNew
                                && new_tangent_array_ok(&cx.ty(r), &ft, env)
                            {
                                // A new array's fdata is a new array of zero tangents (float
                                // arrays are zero-filled when allocated; slots of other arrays
                                // are unassigned, as are the primal's).
                                let tt = e.konst(Const::Type(ft.clone()));
                                let mut a = vec![tt];
                                a.extend(margs[1..].iter().copied());
                                e.prim(Prim::ArrayNew, a, ft.clone())
                            } else {
                                return Err(cx.err(i, format!("`Core.{}` returns a value with fdata ({ft}); not supported by reverse mode yet", op.name())));
                            };
                            fmap.insert(r, fv);
                        }
                        Rule::Scalar(parts) => {
                            let fv = fdata_const(&mut e, &ft);
                            fmap.insert(r, fv);
                            if cx.rt(r) != Type::NoRData {
                                let mut ra = Vec::new();
                                for (a, part) in args.iter().zip(parts) {
                                    // A constant's cotangent is never read: no partial.
                                    let constant = primal.def_inst(*a).is_some_and(|d| {
                                        matches!(primal.insts[d], InstData::Const(_))
                                    });
                                    if cx.rt(*a) == Type::NoRData || constant {
                                        continue;
                                    }
                                    let rp = match part {
                                        Partial::Zero => continue,
                                        Partial::One => RevPartial::One,
                                        Partial::MinusOne => RevPartial::MinusOne,
                                        Partial::Convert => RevPartial::Convert,
                                        Partial::Val(v) => RevPartial::Saved(sv.add(v)),
                                        Partial::Singular(v) => {
                                            RevPartial::SavedSingular(sv.add(v))
                                        }
                                        Partial::If(c) => RevPartial::SavedIf(sv.add(c)),
                                    };
                                    ra.push((*a, rp));
                                }
                                if !ra.is_empty() {
                                    rv.push(Rev::Scalar { out: r, args: ra });
                                }
                            }
                        }
                        Rule::ArrayWrite | Rule::ArrayPush | Rule::ArrayPop => {
                            let arr = args[0];
                            let at = cx.ty(arr);
                            let elem = match &at {
                                Type::Array(el, _) => (**el).clone(),
                                _ => unreachable!(),
                            };
                            let fa = fmap[&arr];
                            let has_f = cx.ft(arr) != Type::NoFData;
                            let ert = rdata_type(&elem, env);
                            let eft = fdata_type(&elem, env);
                            // The fdata array's element: the element's whole tangent.
                            let tte = tangent_elem(&cx.ft(arr));
                            // Elements whose tangent is known only at run time: the tangent
                            // array holds whole tangents, split and rebuilt at run time with
                            // the element's primal.
                            let dynamic = tte == Type::Any;
                            let elem_tangent = |e: &mut Emit, x: Value, fv: Value| {
                                if dynamic {
                                    e.prim(Prim::TangentOf, vec![x, fv], Type::Any)
                                } else {
                                    tangent_of_fdata(fv, &eft, &tte, e, env)
                                }
                            };
                            // Slots of non-bits arrays may be unassigned: saved as `#undef`.
                            let read_old = if elem.is_bits(env) {
                                Prim::ArrayRef
                            } else {
                                Prim::ArrayRefRaw
                            };
                            let a_p = margs[0];
                            match rule {
                                Rule::ArrayWrite => {
                                    let idx: Vec<Value> = margs[2..].to_vec();
                                    let mut ra = vec![a_p];
                                    ra.extend(idx.iter().copied());
                                    let old_p = e.prim(read_old, ra, elem.clone());
                                    let old_f = has_f.then(|| {
                                        let mut fa_args = vec![fa];
                                        fa_args.extend(idx.iter().copied());
                                        e.prim(read_old, fa_args, tte.clone())
                                    });
                                    let mut wa = vec![a_p, margs[1]];
                                    wa.extend(idx.iter().copied());
                                    let nv = e.prim(Prim::ArraySet, wa, at.clone());
                                    vmap.insert(r, nv);
                                    if has_f {
                                        let fv = fmap[&args[1]];
                                        let z = elem_tangent(&mut e, margs[1], fv);
                                        let mut wf = vec![fa, z];
                                        wf.extend(idx.iter().copied());
                                        e.prim(Prim::ArraySet, wf, cx.ft(arr));
                                    }
                                    fmap.insert(r, fa);
                                    rv.push(Rev::ArrayWrite {
                                        val: args[1],
                                        arr: sv.add(a_p),
                                        idx: idx.iter().map(|v| sv.add(*v)).collect(),
                                        old_p: sv.add(old_p),
                                        fdata: old_f.map(|of| (sv.add(fa), sv.add(of))),
                                        ert: ert.clone(),
                                        val_p: dynamic.then(|| sv.add(margs[1])),
                                    });
                                }
                                Rule::ArrayPush => {
                                    let nv =
                                        e.prim(Prim::ArrayPush, vec![a_p, margs[1]], at.clone());
                                    vmap.insert(r, nv);
                                    if has_f {
                                        let fv = fmap[&args[1]];
                                        let z = elem_tangent(&mut e, margs[1], fv);
                                        e.prim(Prim::ArrayPush, vec![fa, z], cx.ft(arr));
                                    }
                                    fmap.insert(r, fa);
                                    rv.push(Rev::ArrayPush {
                                        val: args[1],
                                        arr: sv.add(a_p),
                                        fdata: has_f.then(|| sv.add(fa)),
                                        elem: elem.clone(),
                                        ert: ert.clone(),
                                        val_p: dynamic.then(|| sv.add(margs[1])),
                                    });
                                }
                                _ => {
                                    let old_f = has_f
                                        .then(|| e.prim(Prim::ArrayPop, vec![fa], tte.clone()));
                                    let nv = e.prim(Prim::ArrayPop, vec![a_p], elem.clone());
                                    vmap.insert(r, nv);
                                    let fv = match old_f {
                                        Some(of) if dynamic => {
                                            e.prim(Prim::TangentFdata, vec![nv, of], Type::Any)
                                        }
                                        Some(of) if eft != Type::NoFData => {
                                            recast(of, &tte, &eft, &mut e, env)
                                        }
                                        _ => fdata_const(&mut e, &eft),
                                    };
                                    fmap.insert(r, fv);
                                    rv.push(Rev::ArrayPop {
                                        out: r,
                                        arr: sv.add(a_p),
                                        val: sv.add(nv),
                                        fdata: old_f.map(|of| (sv.add(fa), sv.add(of))),
                                    });
                                }
                            }
                        }
                        Rule::ArrayResize => {
                            // Copies of the array and its fdata (slots a shrink cuts off come
                            // back from them), then both are resized.
                            let arr = args[0];
                            let (a_p, at, fat) = (margs[0], cx.ty(arr), cx.ft(arr));
                            let fa = fmap[&arr];
                            let has_f = fat != Type::NoFData;
                            let saved_a = e.prim(Prim::ArrayCopy, vec![a_p], at.clone());
                            let saved_f =
                                has_f.then(|| e.prim(Prim::ArrayCopy, vec![fa], fat.clone()));
                            let nv = e.prim(Prim::ArrayResize, vec![a_p, margs[1]], at);
                            if has_f {
                                e.prim(Prim::ArrayResize, vec![fa, margs[1]], fat);
                            }
                            vmap.insert(r, nv);
                            fmap.insert(r, fa);
                            let n = sv.add(margs[1]);
                            rv.push(Rev::ArrayResize {
                                arr: sv.add(a_p),
                                saved: sv.add(saved_a),
                                n,
                                fdata: saved_f.map(|s| (sv.add(fa), sv.add(s))),
                            });
                        }
                        Rule::TupleIndex => {
                            let ft = cx.ft(r);
                            let tt = cx.ty(args[0]);
                            // The fdata tuple is indexed like the tuple: its elements share
                            // the result's fdata type, or that is decided at run time (`Any`);
                            // the elements' rdata must form a tuple.
                            let same_fdata = match cx.ft(args[0]) {
                                Type::NoFData => true,
                                Type::Tuple(fs) => ft == Type::Any || fs.iter().all(|f| *f == ft),
                                _ => false,
                            };
                            if !same_fdata
                                || !matches!(cx.rt(args[0]), Type::Tuple(_) | Type::NoRData)
                            {
                                return Err(cx.err(i, format!("indexing a {tt} by a run-time index is not supported by reverse mode yet")));
                            }
                            let fv = if ft == Type::NoFData {
                                fdata_const(&mut e, &ft)
                            } else {
                                e.prim(
                                    Prim::TupleGetIndex,
                                    vec![fmap[&args[0]], margs[1]],
                                    ft.clone(),
                                )
                            };
                            fmap.insert(r, fv);
                            if cx.rt(r) != Type::NoRData {
                                rv.push(Rev::TupleIndex {
                                    out: r,
                                    tuple: args[0],
                                    idx: sv.add(margs[1]),
                                });
                            }
                        }
                        Rule::ArrayShare => {
                            // The reshape shares the array's memory: its fdata is the same
                            // reshape of the array's fdata (a cotangent added through either
                            // is the other's).
                            let arr = args[0];
                            let fv = if cx.ft(arr) == Type::NoFData {
                                fdata_const(&mut e, &ft)
                            } else {
                                let mut a = vec![fmap[&arr]];
                                a.extend(margs[1..].iter().copied());
                                e.prim(*op, a, ft.clone())
                            };
                            fmap.insert(r, fv);
                        }
                        Rule::ArrayCopy => {
                            let arr = args[0];
                            if cx.ft(arr) == Type::NoFData {
                                let fv = fdata_const(&mut e, &ft);
                                fmap.insert(r, fv);
                            } else if rdata_type(&tangent_elem(&cx.ty(arr)), env) == Type::NoRData {
                                // Elements identified by address (arrays, mutable structs):
                                // the copy shares them, and so shares their tangents.
                                let mut a = vec![fmap[&arr]];
                                a.extend(margs[1..].iter().copied());
                                let fv = e.prim(*op, a, ft.clone());
                                fmap.insert(r, fv);
                            } else {
                                if !matches!(
                                    tangent_elem(&cx.ft(arr)),
                                    Type::Float64 | Type::Float32
                                ) {
                                    return Err(cx.err(i, format!("copying an array of {} is not supported by reverse mode yet", cx.ty(arr))));
                                }
                                let fb = e.prim(Prim::ArrayZeroLike, vec![nv], ft.clone());
                                fmap.insert(r, fb);
                                rv.push(Rev::ArrayCopy {
                                    src: sv.add(fmap[&arr]),
                                    dst: sv.add(fb),
                                });
                            }
                        }
                        Rule::ArrayRead => {
                            let arr = args[0];
                            let fa = fmap[&arr];
                            let elem_ft = ft.clone();
                            let fv = if elem_ft == Type::NoFData {
                                fdata_const(&mut e, &elem_ft)
                            } else {
                                // The element's tangent, of which the fdata part is taken.
                                let tte = tangent_elem(&cx.ft(arr));
                                let mut a = vec![fa];
                                a.extend(margs[1..].iter().copied());
                                let t = e.prim(*op, a, tte.clone());
                                if tte == Type::Any {
                                    e.prim(Prim::TangentFdata, vec![nv, t], Type::Any)
                                } else {
                                    recast(t, &tte, &elem_ft, &mut e, env)
                                }
                            };
                            fmap.insert(r, fv);
                            if cx.rt(r) != Type::NoRData {
                                let fi = sv.add(fa);
                                let idx: Vec<usize> =
                                    margs[1..].iter().map(|v| sv.add(*v)).collect();
                                let dynamic = tangent_elem(&cx.ft(arr)) == Type::Any;
                                rv.push(Rev::ArrayRead {
                                    out: r,
                                    fdata: fi,
                                    idx,
                                    elem: cx.rt(r),
                                    primal: dynamic.then(|| sv.add(nv)),
                                });
                            }
                        }
                    }
                }
                InstData::TypeAssert { val, .. } => {
                    let r = res.unwrap_or_else(|| unreachable!());
                    // Narrowing a value narrows its fdata (from `Any` to the member's).
                    let (ft_r, ft_v) = (cx.ft(r), cx.ft(*val));
                    let fv = if ft_r == ft_v {
                        fmap[val]
                    } else if ft_r == Type::NoFData {
                        fdata_const(&mut e, &ft_r)
                    } else {
                        e.val(
                            InstData::TypeAssert {
                                val: fmap[val],
                                ty: ft_r.clone(),
                            },
                            ft_r.clone(),
                        )
                    };
                    fmap.insert(r, fv);
                    if cx.rt(r) != Type::NoRData && rdata_compatible(&cx.rt(r), &cx.rt(*val)) {
                        rv.push(Rev::Pass { out: r, val: *val });
                    } else if cx.rt(r) != Type::NoRData {
                        return Err(cx.err(i, format!(
                            "a value of type {} narrowed to {}: reverse mode supports unions in which at most one kind of reverse data occurs (e.g. Union{{Int64, Float64}}), not this one yet",
                            cx.ty(*val),
                            cx.ty(r)
                        )));
                    }
                }
                // Tuples and immutable structs: fdata and rdata built part by part.
                InstData::Tuple { args } | InstData::New { args, .. } if !matches!(&data, InstData::New { ty, .. } if env.is_mutable(ty)) =>
                {
                    let r = res.unwrap_or_else(|| unreachable!());
                    let ft = cx.ft(r);
                    let fv = if ft == Type::NoFData {
                        fdata_const(&mut e, &ft)
                    } else {
                        let fs: Vec<Value> = args.iter().map(|a| fmap[a]).collect();
                        rdata_build(&ft, fs, &mut e)
                    };
                    fmap.insert(r, fv);
                    if cx.rt(r) != Type::NoRData {
                        rv.push(Rev::Build {
                            out: r,
                            args: args.clone(),
                        });
                    }
                }
                InstData::GetField {
                    obj,
                    field: FieldRef::Index(k),
                } if !env.is_mutable(&cx.ty(*obj)) && cx.ty(*obj).is_concrete() => {
                    let r = res.unwrap_or_else(|| unreachable!());
                    let ft = cx.ft(r);
                    let fv = if ft == Type::NoFData {
                        fdata_const(&mut e, &ft)
                    } else {
                        e.field(fmap[obj], *k, ft.clone())
                    };
                    fmap.insert(r, fv);
                    if cx.rt(r) != Type::NoRData {
                        rv.push(Rev::Field {
                            out: r,
                            obj: *obj,
                            k: *k,
                        });
                    }
                }
                InstData::GetField { obj, field }
                    if matches!(field, FieldRef::Name(_)) || !cx.ty(*obj).is_concrete() =>
                {
                    // The object's type is known only at run time: its field's fdata and, in
                    // the pullback, the cotangent of the object are found by name (a position,
                    // `"2"`, for a field read by index: `a, b = t` of an untyped `t`).
                    let r = res.unwrap_or_else(|| unreachable!());
                    let name: std::sync::Arc<str> = match field {
                        FieldRef::Name(n) => std::sync::Arc::from(n.as_str()),
                        FieldRef::Index(k) => std::sync::Arc::from((k + 1).to_string()),
                    };
                    let nv = e.konst(Const::Str(name.clone()));
                    let fv = match cx.ft(r) {
                        Type::NoFData => fdata_const(&mut e, &Type::NoFData),
                        ft => {
                            let x =
                                e.prim(Prim::FieldFdata, vec![vmap[obj], fmap[obj], nv], Type::Any);
                            if ft == Type::Any {
                                x
                            } else {
                                e.val(
                                    InstData::TypeAssert {
                                        val: x,
                                        ty: ft.clone(),
                                    },
                                    ft,
                                )
                            }
                        }
                    };
                    fmap.insert(r, fv);
                    if cx.rt(r) != Type::NoRData {
                        rv.push(Rev::DynField {
                            out: r,
                            obj: *obj,
                            primal: sv.add(vmap[obj]),
                            fdata: sv.add(fmap[obj]),
                            name,
                        });
                    }
                }
                InstData::New { ty, args } if env.is_mutable(ty) => {
                    // The fdata of a new mutable struct is a new mutable tangent holding each
                    // field's tangent; a float field's cotangent returns to its argument.
                    let r = res.unwrap_or_else(|| unreachable!());
                    let ft = cx.ft(r);
                    if ft == Type::NoFData {
                        let fv = fdata_const(&mut e, &ft);
                        fmap.insert(r, fv);
                    } else {
                        let tts = env.field_types(&ft).unwrap_or_default();
                        let mut fields = Vec::new();
                        for (a, tt) in args.iter().zip(tts.iter()) {
                            fields.push(field_tangent(&mut e, &cx, *a, tt, &vmap, &fmap).ok_or_else(|| {
                                cx.err(i, format!("a mutable struct field of type {} is not supported by reverse mode yet", cx.ty(*a)))
                            })?);
                        }
                        let mt = e.val(
                            InstData::New {
                                ty: ft.clone(),
                                args: fields,
                            },
                            ft.clone(),
                        );
                        fmap.insert(r, mt);
                        // Fields whose cotangent returns to the argument: floats, and fields
                        // whose tangent is known only at run time (with the primal saved).
                        let mut back: Vec<(Value, u32, Option<usize>)> = Vec::new();
                        for (k, (a, tt)) in args.iter().zip(tts.iter()).enumerate() {
                            if *tt == Type::Any && cx.rt(*a) != Type::NoRData {
                                back.push((*a, k as u32, Some(sv.add(vmap[a]))));
                            } else if cx.rt(*a).is_float() {
                                back.push((*a, k as u32, None));
                            }
                        }
                        if !back.is_empty() {
                            rv.push(Rev::MutableNew {
                                tangent: sv.add(mt),
                                fields: back,
                            });
                        }
                    }
                }
                InstData::GetField {
                    obj,
                    field: FieldRef::Index(k),
                } if env.is_mutable(&cx.ty(*obj)) => {
                    let r = res.unwrap_or_else(|| unreachable!());
                    let ft = cx.ft(r);
                    let mt = fmap[obj];
                    // The field's tangent type: `Any` when known only at run time.
                    let tt = env
                        .field_types(&cx.ft(*obj))
                        .unwrap_or_default()
                        .get(*k as usize)
                        .cloned()
                        .unwrap_or(Type::NoTangent);
                    let dynamic = tt == Type::Any && cx.ft(*obj) != Type::NoFData;
                    let fv = if ft == Type::NoFData {
                        fdata_const(&mut e, &ft)
                    } else if dynamic {
                        let t = e.field(mt, *k, Type::Any);
                        let x = e.prim(Prim::TangentFdata, vec![vmap[&r], t], Type::Any);
                        if ft == Type::Any {
                            x
                        } else {
                            e.val(
                                InstData::TypeAssert {
                                    val: x,
                                    ty: ft.clone(),
                                },
                                ft.clone(),
                            )
                        }
                    } else if cx.ft(*obj) != Type::NoFData && cx.ty(r) != Type::Any {
                        // A field whose tangent is its fdata (an array, a mutable struct).
                        e.field(mt, *k, ft.clone())
                    } else {
                        return Err(cx.err(i, format!("reading a field of type {} from a mutable struct is not supported by reverse mode yet", cx.ty(r))));
                    };
                    fmap.insert(r, fv);
                    if cx.ft(*obj) != Type::NoFData
                        && (cx.rt(r).is_float() || (dynamic && cx.rt(r) != Type::NoRData))
                    {
                        rv.push(Rev::MutableRead {
                            out: r,
                            tangent: sv.add(mt),
                            k: *k,
                            primal: dynamic.then(|| sv.add(vmap[&r])),
                        });
                    }
                }
                InstData::SetField {
                    obj,
                    field: FieldRef::Index(k),
                    val,
                } if env.is_mutable(&cx.ty(*obj)) => {
                    let (o, v) = (vmap[obj], vmap[val]);
                    let pt = env
                        .field_types(&cx.ty(*obj))
                        .unwrap_or_default()
                        .get(*k as usize)
                        .cloned()
                        .unwrap_or_default();
                    let old_p = e.field(o, *k, pt);
                    let has_t = cx.ft(*obj) != Type::NoFData;
                    let (mt, old_t, new_t) = if has_t {
                        let mt = fmap[obj];
                        let tt = env
                            .field_types(&cx.ft(*obj))
                            .unwrap_or_default()
                            .get(*k as usize)
                            .cloned()
                            .unwrap_or_default();
                        let old_t = e.field(mt, *k, tt.clone());
                        let new_t = field_tangent(&mut e, &cx, *val, &tt, &vmap, &fmap).ok_or_else(|| {
                            cx.err(i, format!("assigning a field of type {} of a mutable struct is not supported by reverse mode yet", cx.ty(*val)))
                        })?;
                        (Some(mt), Some(old_t), Some(new_t))
                    } else {
                        (None, None, None)
                    };
                    let field_tt = env
                        .field_types(&cx.ft(*obj))
                        .unwrap_or_default()
                        .get(*k as usize)
                        .cloned();
                    let dynamic = has_t && field_tt == Some(Type::Any);
                    e.inst(
                        InstData::SetField {
                            obj: o,
                            field: FieldRef::Index(*k),
                            val: v,
                        },
                        Type::Any,
                    );
                    if let (Some(mt), Some(nt)) = (mt, new_t) {
                        e.inst(
                            InstData::SetField {
                                obj: mt,
                                field: FieldRef::Index(*k),
                                val: nt,
                            },
                            Type::Any,
                        );
                    }
                    rv.push(Rev::MutableWrite {
                        val: *val,
                        obj: sv.add(o),
                        k: *k,
                        old_p: sv.add(old_p),
                        tangent: match (mt, old_t) {
                            (Some(mt), Some(ot)) => Some((sv.add(mt), sv.add(ot))),
                            _ => None,
                        },
                        float: cx.rt(*val).is_float(),
                        val_p: (dynamic && cx.rt(*val) != Type::NoRData).then(|| sv.add(v)),
                    });
                }
                InstData::GetGlobal(_) => {
                    // A global's tangent starts at zero in each gradient and is shared by
                    // every read of its value (so a derivative written into a global array
                    // and read back elsewhere is kept); no derivative with respect to a
                    // global is returned.
                    let r = res.unwrap_or_else(|| unreachable!());
                    let ft = cx.ft(r);
                    let fv = if ft == Type::NoFData {
                        fdata_const(&mut e, &ft)
                    } else {
                        let x = e.prim(Prim::GlobalFdata, vec![vmap[&r]], Type::Any);
                        if ft == Type::Any {
                            x
                        } else {
                            e.val(
                                InstData::TypeAssert {
                                    val: x,
                                    ty: ft.clone(),
                                },
                                ft,
                            )
                        }
                    };
                    fmap.insert(r, fv);
                }
                InstData::Invoke { callee, args } => {
                    let r = res.unwrap_or_else(|| unreachable!());
                    let ats: Vec<Type> = args[1..].iter().map(|a| cx.ty(*a)).collect();
                    if let Some(rule) = crate::rules::fast_rule(
                        opts.context,
                        crate::rules::AdMode::Reverse,
                        callee.func.as_str(),
                        &ats,
                    ) {
                        // A rule of the default context: the call runs as in the primal; the
                        // pullback updates the array arguments' fdata directly.
                        let y = e.val(
                            InstData::Invoke {
                                callee: callee.clone(),
                                args: args.iter().map(|a| vmap[a]).collect(),
                            },
                            cx.ty(r),
                        );
                        vmap.insert(r, y);
                        let fv = fdata_const(&mut e, &cx.ft(r));
                        fmap.insert(r, fv);
                        let arrays = args[1..]
                            .iter()
                            .map(|a| (sv.add(vmap[a]), sv.add(fmap[a])))
                            .collect();
                        rv.push(Rev::Fast {
                            out: r,
                            rule,
                            arrays,
                        });
                        continue;
                    }
                    let key = MiKey {
                        table: callee.func,
                        method: callee.method,
                        sig: callee.sig.clone(),
                    };
                    let site = sites;
                    sites += 1;
                    let cs = {
                        let kv = e.konst(Const::Int(site as i64));
                        e.prim(Prim::RuleChild, vec![state, kv], rule_state_type())
                    };
                    let mut fargs = vec![cs];
                    let mut fsig = vec![rule_state_type()];
                    for a in args {
                        fargs.push(vmap[a]);
                        fargs.push(fmap[a]);
                        fsig.push(cx.ty(*a));
                        fsig.push(cx.ft(*a));
                    }
                    let rt = Type::tuple(vec![cx.ty(r), cx.ft(r)]);
                    let fcallee = Callee {
                        func: names(DerivedKey {
                            primal: key.clone(),
                            mode: Mode::Forward,
                            opts,
                        }),
                        method: 0,
                        sig: fsig.into(),
                    };
                    let pair = e.val(
                        InstData::Invoke {
                            callee: fcallee,
                            args: fargs,
                        },
                        rt,
                    );
                    let y = e.field(pair, 0, cx.ty(r));
                    let fy = e.field(pair, 1, cx.ft(r));
                    if debug && cx.ft(r) != Type::NoFData {
                        ad_check(
                            &mut e,
                            y,
                            fy,
                            &format!("result of the call of {}", key.display()),
                        );
                    }
                    vmap.insert(r, y);
                    fmap.insert(r, fy);
                    // The callee's pullback always runs, so that its stacks stay balanced.
                    let rsig: Vec<Type> = vec![rule_state_type(), cx.rt(r)];
                    let rret = Type::tuple(args.iter().map(|a| cx.rt(*a)).collect());
                    let rcallee = Callee {
                        func: names(DerivedKey {
                            primal: key.clone(),
                            mode: Mode::Pullback,
                            opts,
                        }),
                        method: 0,
                        sig: rsig.into(),
                    };
                    rv.push(Rev::Invoke {
                        out: r,
                        site,
                        callee: rcallee,
                        ret: rret,
                        args: args.clone(),
                    });
                }
                InstData::Call { args } => {
                    // A dynamic call: the rule of the method the run-time types select (see
                    // `dynamic`), run on a child state of its own call site.
                    let r = res.unwrap_or_else(|| unreachable!());
                    let site = sites;
                    sites += 1;
                    let cs = {
                        let kv = e.konst(Const::Int(site as i64));
                        e.prim(Prim::RuleChild, vec![state, kv], rule_state_type())
                    };
                    let ov = e.konst(Const::Int(opts.to_bits()));
                    let mut fargs = vec![cs, ov];
                    for a in args {
                        fargs.push(vmap[a]);
                        fargs.push(fmap[a]);
                    }
                    let pair = e.prim(Prim::DynFwd, fargs, Type::tuple(vec![Type::Any, Type::Any]));
                    // Narrowed to what inference knows of the result.
                    let narrow = |e: &mut Emit, k: u32, t: Type| {
                        let x = e.field(pair, k, Type::Any);
                        if t == Type::Any {
                            x
                        } else {
                            e.val(
                                InstData::TypeAssert {
                                    val: x,
                                    ty: t.clone(),
                                },
                                t,
                            )
                        }
                    };
                    let y = narrow(&mut e, 0, cx.ty(r));
                    let fy = match cx.ft(r) {
                        Type::NoFData => fdata_const(&mut e, &Type::NoFData),
                        t => narrow(&mut e, 1, t),
                    };
                    vmap.insert(r, y);
                    fmap.insert(r, fy);
                    rv.push(Rev::Dynamic {
                        out: r,
                        site,
                        args: args.clone(),
                    });
                }
                other => {
                    return Err(cx.err(
                        i,
                        format!(
                            "`{}` is not supported by reverse mode yet",
                            inst_kind(other)
                        ),
                    ));
                }
            }
        }
        site_marks.start(&fwd, 0);
        // Push the block's saved values, then the terminator (with block-stack pushes).
        let loc = primal.locs[term[0]];
        // Constants are not saved, nor are values cheap to compute again from what the
        // pullback has at hand: it makes them again.
        let mut recipes = const_recipes(&fwd, &sv.vals);
        {
            let leaf = |v: Value| sv.recomputable(v);
            let is_primal =
                |a: Value| vmap.values().any(|x| *x == a) && !fmap.values().any(|x| *x == a);
            let mut leaves: Vec<Value> = Vec::new();
            for (k, v) in sv.vals.iter().enumerate() {
                if !matches!(recipes[k], Recipe::Pushed) {
                    continue;
                }
                if let Some(plan) = recompute_plan(&fwd, fb, *v, &leaf, &is_primal) {
                    for &i in &plan {
                        leaves.extend(fwd.insts[i].args().into_iter().filter(|a| leaf(*a)));
                    }
                    recipes[k] = Recipe::Recompute(plan);
                }
            }
            for l in leaves {
                let k = sv.add(l);
                debug_assert!(
                    k >= INVARIANT,
                    "a leaf is invariant or an induction variable"
                );
            }
        }
        comms_recipes.insert(b, recipes.clone());
        let pushed: Vec<Value> = sv
            .vals
            .iter()
            .zip(&recipes)
            .filter(|(_, c)| matches!(c, Recipe::Pushed))
            .map(|(v, _)| *v)
            .collect();
        if !pushed.is_empty() {
            let mut e = Emit {
                f: &mut fwd,
                block: fb,
                loc,
            };
            let (k, tt) = push_saved(&mut e, state, &mut state_types, pushed);
            comms_field.insert(b, k);
            comms_tuple.insert(b, tt);
        }
        let edge_args = |d: Block, args: &[Value]| -> Vec<Value> {
            if doomed(d) {
                args.iter().map(|a| vmap[a]).collect()
            } else {
                args.iter().flat_map(|a| [vmap[a], fmap[a]]).collect()
            }
        };
        let has_pushes =
            |k: usize, d: Block| !doomed(d) && (pushes_id(b, k, d) || !exited(b, d).is_empty());
        // The block-stack pushes of edge (b, k) into `d`: the counts of the loops it leaves,
        // then its id if `d` needs it.
        let edge_pushes = |f: &mut Function, blk: Block, k: usize, d: Block| {
            if !has_pushes(k, d) {
                return;
            }
            let mut e = Emit { f, block: blk, loc };
            let bs = rule_stack(&mut e, state, 0, Type::vector(Type::Int64));
            for h in exited(b, d) {
                e.prim(
                    Prim::ArrayPush,
                    vec![bs, counter[&h]],
                    Type::vector(Type::Int64),
                );
            }
            if pushes_id(b, k, d) {
                let c = e.konst(Const::Int(edge_id(b, k)));
                e.prim(Prim::ArrayPush, vec![bs, c], Type::vector(Type::Int64));
            }
        };
        // The count passed to a counted loop's header: one more along its back edge, else 0.
        let count_arg = |f: &mut Function, k: usize, d: Block| -> Option<Value> {
            let l = loops.get(&d)?;
            let mut e = Emit { f, block: fb, loc };
            Some(if l.back == (b, k) {
                let one = e.konst(Const::Int(1));
                e.prim(Prim::AddInt, vec![counter[&d], one], Type::Int64)
            } else {
                e.konst(Const::Int(0))
            })
        };
        match primal.insts[term[0]].clone() {
            InstData::Jump { dest, args } => {
                let mut a = edge_args(dest, &args);
                a.extend(count_arg(&mut fwd, 0, dest));
                edge_pushes(&mut fwd, fb, 0, dest);
                Emit {
                    f: &mut fwd,
                    block: fb,
                    loc,
                }
                .jump(fblocks[&dest], a);
            }
            InstData::Branch {
                cond,
                then_dest,
                then_args,
                else_dest,
                else_args,
            } => {
                let mut targets = Vec::new();
                for (k, (d, args)) in [(then_dest, then_args), (else_dest, else_args)]
                    .into_iter()
                    .enumerate()
                {
                    let mut a = edge_args(d, &args);
                    a.extend(count_arg(&mut fwd, k, d));
                    if has_pushes(k, d) {
                        let eb = fwd.add_block();
                        edge_pushes(&mut fwd, eb, k, d);
                        Emit {
                            f: &mut fwd,
                            block: eb,
                            loc,
                        }
                        .jump(fblocks[&d], a);
                        targets.push((eb, vec![]));
                    } else {
                        targets.push((fblocks[&d], a));
                    }
                }
                let (t, e2) = (targets.remove(0), targets.remove(0));
                fwd.append(
                    fb,
                    InstData::Branch {
                        cond: vmap[&cond],
                        then_dest: t.0,
                        then_args: t.1,
                        else_dest: e2.0,
                        else_args: e2.1,
                    },
                    Type::Any,
                    loc,
                );
            }
            InstData::Return(v) => {
                // The counts of the loops this return leaves, then which return it is.
                let left = loops_of(b);
                if !left.is_empty() || returns.len() > 1 {
                    let mut e = Emit {
                        f: &mut fwd,
                        block: fb,
                        loc,
                    };
                    let bs = rule_stack(&mut e, state, 0, Type::vector(Type::Int64));
                    for h in left {
                        e.prim(
                            Prim::ArrayPush,
                            vec![bs, counter[&h]],
                            Type::vector(Type::Int64),
                        );
                    }
                    if returns.len() > 1 {
                        let c = e.konst(Const::Int(pos[&b] as i64));
                        e.prim(Prim::ArrayPush, vec![bs, c], Type::vector(Type::Int64));
                    }
                }
                let tt = Type::tuple(vec![cx.ty(v), cx.ft(v)]);
                let mut e = Emit {
                    f: &mut fwd,
                    block: fb,
                    loc,
                };
                let t = e.val(
                    InstData::Tuple {
                        args: vec![vmap[&v], fmap[&v]],
                    },
                    tt.clone(),
                );
                e.inst(InstData::Return(t), Type::Any);
                // Returns of different types (a union-typed primal): the union of the pairs.
                fwd.ret_type = match fwd_returns {
                    0 => tt,
                    _ => Type::union_of([fwd.ret_type.clone(), tt]),
                };
                fwd_returns += 1;
            }
            InstData::Unreachable => {
                fwd.append(fb, InstData::Unreachable, Type::Any, loc);
            }
            other => {
                return Err(cx.err(
                    term[0],
                    format!("unexpected terminator `{}`", inst_kind(&other)),
                ))
            }
        }
        saved.insert(b, sv);
        revs.insert(b, rv);
        // Values the entry block computes are fixed for the rest of the call too (when the
        // entry block runs once).
        if b == layout[0] && !invariants.values.borrow().is_empty() {
            let mut vals = invariants.values.borrow_mut();
            for &i in &fwd.blocks[fb].insts {
                if let Some(r) = fwd.result(i) {
                    vals.insert(r);
                }
            }
        }
        if b == layout[0] {
            // Now that the entry block's values are known, the loops' induction variables.
            let vals = invariants.values.borrow();
            let mut ivs = invariants.ivs.borrow_mut();
            for (h, l) in &loops {
                let edge_args = |(q, k): Edge| -> Vec<Value> {
                    let t = primal.terminator(q).unwrap_or_else(|| unreachable!());
                    primal.insts[t].successors()[k].1.to_vec()
                };
                let back = edge_args(l.back);
                let enters: Vec<Vec<Value>> = l.enters.iter().map(|e| edge_args(*e)).collect();
                for (j, &p) in primal.blocks[*h].params.iter().enumerate() {
                    if cx.ty(p) != Type::Int64 {
                        continue;
                    }
                    let step = match primal.def_inst(back[j]).map(|i| &primal.insts[i]) {
                        Some(InstData::Prim {
                            op: Prim::AddInt,
                            args,
                        }) => match (args[0], args[1]) {
                            (a, c) | (c, a) if a == p && primal.const_value(c).is_some() => {
                                match primal.const_value(c) {
                                    Some(Const::Int(k)) => *k,
                                    _ => continue,
                                }
                            }
                            _ => continue,
                        },
                        _ => continue,
                    };
                    let init = enters[0][j];
                    if enters.iter().any(|a| a[j] != init) {
                        continue;
                    }
                    let init = match primal.const_value(init) {
                        Some(Const::Int(k)) => IvInit::Const(*k),
                        _ => match vmap.get(&init) {
                            Some(fi) if vals.contains(fi) => IvInit::Invariant(*fi),
                            _ => continue,
                        },
                    };
                    ivs.insert(
                        vmap[&p],
                        IvSpec {
                            header: *h,
                            init,
                            step,
                            offset: 0,
                        },
                    );
                }
            }
        }
    }
    site_marks.finish(&mut fwd);
    let state_ty = rule_state_type();
    if returns.is_empty() {
        fwd.ret_type = Type::Bottom;
    }
    // The call-invariant saved values: one push at the end of the entry block.
    let inv_all = invariants.saved.borrow().vals.clone();
    let inv_consts = const_recipes(&fwd, &inv_all);
    let inv_vals: Vec<Value> = inv_all
        .iter()
        .zip(&inv_consts)
        .filter(|(_, c)| matches!(c, Recipe::Pushed))
        .map(|(v, _)| *v)
        .collect();
    let inv_field = (!inv_vals.is_empty()).then(|| {
        let fentry = fblocks[&layout[0]];
        let loc = primal.locs[primal.blocks[layout[0]].insts[0]];
        let tmp = fwd.add_block();
        let mut e = Emit {
            f: &mut fwd,
            block: tmp,
            loc,
        };
        let (k, tt) = push_saved(&mut e, state, &mut state_types, inv_vals.clone());
        fwd.layout.retain(|b| *b != tmp);
        let pushed = std::mem::take(&mut fwd.blocks[tmp].insts);
        let insts = &mut fwd.blocks[fentry].insts;
        let at = insts.len().saturating_sub(1);
        insts.splice(at..at, pushed);
        (k, tt, loc)
    });

    // ---------------- pullback ----------------
    let ret_val = returns
        .first()
        .and_then(|b| match primal.insts[primal.terminator(*b)?] {
            InstData::Return(v) => Some(v),
            _ => None,
        });
    let ret_rt = ret_val.map(|v| cx.rt(v)).unwrap_or(Type::NoRData);
    let mut rvs = Function::new(format!("rvs {}", primal.name), Phase::Lowered);
    // Cotangent arithmetic: zero is the identity of accumulation whatever its sign.
    rvs.nsz = true;
    let r_entry = rvs.add_block();
    let rstate = rvs.add_block_param(r_entry, state_ty.clone());
    let dy = rvs.add_block_param(r_entry, ret_rt.clone());
    // The call-invariant saved values, popped first.
    let inv_rvals: Vec<Value> = {
        let loc = primal.locs[primal.blocks[layout[0]].insts[0]];
        let mut e = Emit {
            f: &mut rvs,
            block: r_entry,
            loc,
        };
        let popped = inv_field.as_ref().map(|(k, tt, _)| (*k, tt.clone()));
        pop_saved(&mut e, rstate, popped, &inv_consts, &mut |_, _| {
            unreachable!("call-invariant values are pushed or constant")
        })
    };
    let rblocks: FxHashMap<Block, Block> = layout.iter().map(|b| (*b, rvs.add_block())).collect();
    let final_b = rvs.add_block();
    // Accumulator slots.
    let mut acc: FxHashMap<Value, Slot> = FxHashMap::default();
    let inst_block: FxHashMap<Inst, Block> = layout
        .iter()
        .flat_map(|b| primal.blocks[*b].insts.iter().map(move |i| (*i, *b)))
        .collect();
    for (v, _) in primal.values.iter() {
        // Values of error paths (doomed blocks) have no cotangents.
        let is_live = match primal.values[v] {
            ir::ValueDef::Param(b, k) => {
                primal.blocks[b].params.get(k as usize) == Some(&v)
                    && pos.contains_key(&b)
                    && !doomed(b)
            }
            ir::ValueDef::Inst(i) => {
                primal.result(i) == Some(v) && inst_block.get(&i).is_some_and(|b| !doomed(*b))
            }
        };
        if !is_live {
            continue;
        }
        let rt = cx.rt(v);
        if rt != Type::NoRData && rt != Type::Bottom {
            // Reverse data decided at run time (`Any`) accumulates through `Core.rdata_add`,
            // starting from the `NoRData` zero.
            let s = rvs.slots.push(SlotData {
                name: sym(&format!("acc{v}")),
                ty: rt,
            });
            acc.insert(v, s);
        }
    }
    let entry_loc = primal.locs[primal.blocks[layout[0]].insts[0]];
    {
        let mut e = Emit {
            f: &mut rvs,
            block: r_entry,
            loc: entry_loc,
        };
        let mut accs: Vec<(Value, Slot)> = acc.iter().map(|(v, s)| (*v, *s)).collect();
        accs.sort();
        for (v, s) in accs {
            let z = zero_rdata(&cx.rt(v), &mut e, env);
            e.inst(InstData::SetSlot(s, z), Type::Any);
        }
    }
    // The counted loops' counters (0 outside their loops).
    let counters: FxHashMap<Block, Slot> = loops
        .keys()
        .map(|h| {
            let s = rvs.slots.push(SlotData {
                name: sym(&format!("count{h}")),
                ty: Type::Int64,
            });
            (*h, s)
        })
        .collect();
    {
        let mut e = Emit {
            f: &mut rvs,
            block: r_entry,
            loc: entry_loc,
        };
        let mut hs: Vec<Block> = counters.keys().copied().collect();
        hs.sort();
        for h in hs {
            let z = e.konst(Const::Int(0));
            e.inst(InstData::SetSlot(counters[&h], z), Type::Any);
        }
    }
    // Pops the counts of the loops `hs` (pushed in this order) into their counters.
    let pop_counts = |f: &mut Function, blk: Block, loc: Span, hs: Vec<Block>| {
        for h in hs.into_iter().rev() {
            let c = pop_block_stack(f, blk, rstate, loc);
            f.append(blk, InstData::SetSlot(counters[&h], c), Type::Any, loc);
        }
    };
    // Entering the pullback: the cotangent of the returned value, then its block.
    let add_to = |f: &mut Function, blk: Block, loc: Span, slot: Slot, val: Value, t: &Type| {
        let mut e = Emit { f, block: blk, loc };
        let old = e.val(InstData::GetSlot(slot), t.clone());
        let new = add_rdata(old, val, t, &mut e, env);
        e.inst(InstData::SetSlot(slot, new), Type::Any);
    };
    let ret_of =
        |b: Block| match primal.insts[primal.terminator(b).unwrap_or_else(|| unreachable!())] {
            InstData::Return(v) => v,
            _ => unreachable!(),
        };
    match returns.len() {
        0 => {
            rvs.append(r_entry, InstData::Unreachable, Type::Any, entry_loc);
        }
        1 => {
            let rb = returns[0];
            let v = ret_of(rb);
            if let Some(&s) = acc.get(&v) {
                add_to(&mut rvs, r_entry, entry_loc, s, dy, &cx.rt(v));
            }
            pop_counts(&mut rvs, r_entry, entry_loc, loops_of(rb));
            rvs.append(
                r_entry,
                InstData::Jump {
                    dest: rblocks[&rb],
                    args: vec![],
                },
                Type::Any,
                entry_loc,
            );
        }
        _ => {
            let targets: Vec<(i64, Block, Option<Block>)> = returns
                .iter()
                .map(|rb| (pos[rb] as i64, rblocks[rb], Some(*rb)))
                .collect();
            let popped = pop_block_stack(&mut rvs, r_entry, rstate, entry_loc);
            dispatch(
                &mut rvs,
                r_entry,
                popped,
                entry_loc,
                targets,
                &mut |f, blk, r| {
                    if let Some(rb) = r {
                        let v = ret_of(rb);
                        if let Some(&s) = acc.get(&v) {
                            add_to(f, blk, entry_loc, s, dy, &cx.rt(v));
                        }
                        pop_counts(f, blk, entry_loc, loops_of(rb));
                    }
                },
            );
        }
    }
    for &b in &layout {
        let rb = rblocks[&b];
        if doomed(b) {
            let loc = primal.locs[primal.blocks[b].insts[0]];
            rvs.append(rb, InstData::Unreachable, Type::Any, loc);
            continue;
        }
        let loc = primal.locs[*primal.blocks[b]
            .insts
            .last()
            .unwrap_or_else(|| unreachable!())];
        let sv = &saved[&b];
        // The induction variables the block reads, from their loops' counters.
        let ivr: Vec<Value> = {
            let mut e = Emit {
                f: &mut rvs,
                block: rb,
                loc,
            };
            let specs = invariants.ivs.borrow();
            let inv_index = &invariants.saved.borrow().index;
            sv.ivs
                .iter()
                .map(|v| {
                    let spec = &specs[v];
                    let n = e.val(InstData::GetSlot(counters[&spec.header]), Type::Int64);
                    let init = match spec.init {
                        IvInit::Const(k) => e.konst(Const::Int(k)),
                        IvInit::Invariant(fi) => inv_rvals[inv_index[&fi]],
                    };
                    let step = e.konst(Const::Int(spec.step));
                    let d = e.prim(Prim::MulInt, vec![n, step], Type::Int64);
                    let v = e.prim(Prim::AddInt, vec![init, d], Type::Int64);
                    let offset = e.konst(Const::Int(spec.offset));
                    e.prim(Prim::AddInt, vec![v, offset], Type::Int64)
                })
                .collect()
        };
        // The block's saved values: popped, made again or computed again.
        let rmap: Vec<Value> = {
            let mut e = Emit {
                f: &mut rvs,
                block: rb,
                loc,
            };
            let popped = comms_field.get(&b).map(|k| (*k, comms_tuple[&b].clone()));
            let recipes = comms_recipes.get(&b).cloned().unwrap_or_default();
            let inv_index = &invariants.saved.borrow().index;
            let leaf = |u: Value| -> Option<Value> {
                match inv_index.get(&u) {
                    Some(&k) => Some(inv_rvals[k]),
                    None => sv.ivs.iter().position(|x| *x == u).map(|j| ivr[j]),
                }
            };
            pop_saved(&mut e, rstate, popped, &recipes, &mut |e, plan| {
                let mut made: FxHashMap<Value, Value> = FxHashMap::default();
                let mut last = None;
                for &i in plan {
                    let mut d = fwd.insts[i].clone();
                    d.map_args(|a| {
                        made.get(&a)
                            .copied()
                            .or_else(|| leaf(a))
                            .unwrap_or_else(|| {
                                unreachable!("operands of a recomputed value are at hand")
                            })
                    });
                    let r = fwd.result(i).unwrap_or_else(|| unreachable!());
                    let nv = e.val(d, fwd.types[r].clone());
                    made.insert(r, nv);
                    last = Some(nv);
                }
                last.unwrap_or_else(|| unreachable!("a plan computes its value"))
            })
        };
        for r in revs[&b].iter().rev() {
            let sv = SavedVals {
                own: &rmap,
                invariant: &inv_rvals,
                ivs: &ivr,
            };
            emit_reverse(&mut rvs, rb, loc, r, &acc, &sv, &cx, rstate);
        }
        // To the predecessor (its edge's arguments receive the parameters' cotangents).
        if b == layout[0] {
            Emit {
                f: &mut rvs,
                block: rb,
                loc,
            }
            .jump(final_b, vec![]);
            continue;
        }
        let edges = incoming.get(&b).cloned().unwrap_or_default();
        let params = primal.blocks[b].params.clone();
        // Never drop a cotangent silently: every parameter with reverse data must receive it
        // from an argument of the same reverse-data type, or from one without reverse data
        // (a union-typed parameter holding an `Int64`: every use of it then narrows to the
        // `Int64` member, so its cotangent is zero along that edge).
        for &(q, k) in &edges {
            let t = primal.terminator(q).unwrap_or_else(|| unreachable!());
            for (p, a) in params.iter().zip(primal.insts[t].successors()[k].1.iter()) {
                if acc.contains_key(p) && !rdata_compatible(&cx.rt(*p), &cx.rt(*a)) {
                    return Err(cx.err(t, format!(
                        "a value of type {} flows into a variable of type {}; reverse mode does not handle this yet",
                        cx.ty(*a),
                        cx.ty(*p)
                    )));
                }
            }
        }
        let edge_args = |q: Block, k: usize| -> Vec<Value> {
            let t = primal.terminator(q).unwrap_or_else(|| unreachable!());
            primal.insts[t].successors()[k].1.to_vec()
        };
        // Block parameters are a parallel copy: read all their cotangents, reset them, then
        // add each to the argument passed along the edge (which may be another parameter).
        let transfer = |f: &mut Function, blk: Block, q: Block, k: usize| {
            let args = edge_args(q, k);
            let mut e = Emit { f, block: blk, loc };
            let mut moves = Vec::new();
            for (p, a) in params.iter().zip(args.iter()) {
                if let Some(&sp) = acc.get(p) {
                    let t = cx.rt(*p);
                    let v = e.val(InstData::GetSlot(sp), t.clone());
                    moves.push((*a, v, t));
                }
            }
            for p in params.iter() {
                if let Some(&sp) = acc.get(p) {
                    let z = zero_rdata(&cx.rt(*p), &mut e, env);
                    e.inst(InstData::SetSlot(sp, z), Type::Any);
                }
            }
            for (a, v, t) in moves {
                if let Some(&sa) = acc.get(&a) {
                    let at = cx.rt(a);
                    if rdata_compatible(&t, &at) {
                        let v = rdata_as(v, &t, &at, &mut e);
                        let old = e.val(InstData::GetSlot(sa), at.clone());
                        let new = add_rdata(old, v, &at, &mut e, env);
                        e.inst(InstData::SetSlot(sa, new), Type::Any);
                    }
                }
            }
            // Back into the loops the edge left: their counts.
            pop_counts(f, blk, loc, exited(q, b));
        };
        if edges.len() == 1 {
            let (q, k) = edges[0];
            transfer(&mut rvs, rb, q, k);
            Emit {
                f: &mut rvs,
                block: rb,
                loc,
            }
            .jump(rblocks[&q], vec![]);
        } else {
            // A counted loop's header: round the back edge while its counter is positive.
            let (from, edges) = match loops.get(&b) {
                Some(l) => {
                    let slot = counters[&b];
                    let (back_b, enter_b) = (rvs.add_block(), rvs.add_block());
                    let mut e = Emit {
                        f: &mut rvs,
                        block: rb,
                        loc,
                    };
                    let n = e.val(InstData::GetSlot(slot), Type::Int64);
                    let zero = e.konst(Const::Int(0));
                    let more = e.prim(Prim::SltInt, vec![zero, n], Type::Bool);
                    e.inst(
                        InstData::Branch {
                            cond: more,
                            then_dest: back_b,
                            then_args: vec![],
                            else_dest: enter_b,
                            else_args: vec![],
                        },
                        Type::Any,
                    );
                    let mut e = Emit {
                        f: &mut rvs,
                        block: back_b,
                        loc,
                    };
                    let one = e.konst(Const::Int(1));
                    let n1 = e.prim(Prim::SubInt, vec![n, one], Type::Int64);
                    e.inst(InstData::SetSlot(slot, n1), Type::Any);
                    let (q, k) = l.back;
                    transfer(&mut rvs, back_b, q, k);
                    Emit {
                        f: &mut rvs,
                        block: back_b,
                        loc,
                    }
                    .jump(rblocks[&q], vec![]);
                    (enter_b, l.enters.clone())
                }
                None => (rb, edges),
            };
            if edges.len() == 1 {
                let (q, k) = edges[0];
                transfer(&mut rvs, from, q, k);
                Emit {
                    f: &mut rvs,
                    block: from,
                    loc,
                }
                .jump(rblocks[&q], vec![]);
            } else {
                let popped = pop_block_stack(&mut rvs, from, rstate, loc);
                let targets: Vec<(i64, Block, Option<Edge>)> = edges
                    .iter()
                    .map(|(q, k)| (edge_id(*q, *k), rblocks[q], Some((*q, *k))))
                    .collect();
                dispatch(&mut rvs, from, popped, loc, targets, &mut |f, blk, e| {
                    if let Some((q, k)) = e {
                        transfer(f, blk, q, k);
                    }
                });
            }
        }
    }
    // The result: the arguments' cotangents.
    {
        let mut e = Emit {
            f: &mut rvs,
            block: final_b,
            loc: entry_loc,
        };
        let mut outs = Vec::new();
        let mut tys = Vec::new();
        for &p in &primal.blocks[layout[0]].params {
            let t = cx.rt(p);
            let v = match acc.get(&p) {
                Some(&s) => e.val(InstData::GetSlot(s), t.clone()),
                None => e.konst(Const::Singleton(Type::NoRData)),
            };
            outs.push(v);
            tys.push(if acc.contains_key(&p) {
                t
            } else {
                Type::NoRData
            });
        }
        let tt = Type::tuple(tys);
        let r = e.val(InstData::Tuple { args: outs }, tt.clone());
        e.inst(InstData::Return(r), Type::Any);
        rvs.ret_type = tt;
    }
    compiler::ssa::construct_ssa(&mut rvs);
    rvs.phase = Phase::Typed;
    hoist_rule_stacks(&mut fwd);
    hoist_rule_stacks(&mut rvs);
    Ok(Derived {
        fwd,
        rvs,
        state: state_types,
    })
}

/// How the pullback gets back a value the forwards pass saved for it.
#[derive(Clone)]
enum Recipe {
    /// Pushed on the block's comms stack in the forwards pass and popped in the pullback.
    Pushed,
    /// A constant: made again.
    Const(Const),
    /// Computed again in the pullback by these forwards-pass instructions (in order; the last
    /// defines the value), whose other operands are constants, call-invariant values and the
    /// block's induction variables (see `recompute_plan`).
    Recompute(Vec<Inst>),
}

/// For each saved value: a constant is made again, everything else is pushed.
fn const_recipes(fwd: &Function, vals: &[Value]) -> Vec<Recipe> {
    vals.iter()
        .map(|v| match fwd.def_inst(*v).map(|i| &fwd.insts[i]) {
            Some(InstData::Const(c)) => Recipe::Const(c.clone()),
            _ => Recipe::Pushed,
        })
        .collect()
}

/// Primitives cheap enough to compute again in the pullback rather than save.
fn cheap(op: Prim) -> bool {
    use Prim::*;
    matches!(
        op,
        AddInt | SubInt | MulInt | NegInt | AddFloat | SubFloat | MulFloat | NegFloat | Sitofp
    )
}

/// Whether forwards-pass instruction `d` may change a primal array or object (writes to the
/// rule state's own stacks do not).
fn writes_primal(fwd: &Function, d: &InstData) -> bool {
    let on_stack = |a: Value| {
        fwd.def_inst(a).is_some_and(|i| {
            matches!(
                fwd.insts[i],
                InstData::Prim {
                    op: Prim::RuleStack,
                    ..
                }
            )
        })
    };
    match d {
        InstData::Prim { op, args } => {
            let own_state = matches!(op, Prim::RuleStack | Prim::RuleChild | Prim::AdCheck)
                || (matches!(op, Prim::ArrayPush | Prim::ArrayPop) && on_stack(args[0]));
            !own_state && op.effects().writes
        }
        d => d.may_write(),
    }
}

/// The instructions that compute `v` again in the pullback of forwards block `fb`, if that is
/// cheap: cheap arithmetic on constants, `leaf` values (call-invariant values and the block's
/// induction variables, which the pullback has at hand) and reads of primal arrays that are
/// themselves leaves. Such a read gives in the pullback what it gave in the forwards pass: the
/// pullback of every block run after `fb` has undone that block's writes before `fb`'s is
/// entered, so memory is as `fb` left it — and nothing in `fb` writes after the read.
fn recompute_plan(
    fwd: &Function,
    fb: Block,
    v: Value,
    leaf: &dyn Fn(Value) -> bool,
    primal: &dyn Fn(Value) -> bool,
) -> Option<Vec<Inst>> {
    struct Planner<'a> {
        fwd: &'a Function,
        leaf: &'a dyn Fn(Value) -> bool,
        primal: &'a dyn Fn(Value) -> bool,
        pos: FxHashMap<Inst, usize>,
        last_write: Option<usize>,
        plan: Vec<Inst>,
        work: usize,
        reads: usize,
    }
    impl Planner<'_> {
        const MAX_INSTS: usize = 12;
        const MAX_READS: usize = 4;
        fn visit(&mut self, v: Value) -> Option<()> {
            if (self.leaf)(v) {
                return Some(());
            }
            let fwd = self.fwd;
            let i = fwd.def_inst(v)?;
            if self.plan.contains(&i) {
                return Some(());
            }
            match &fwd.insts[i] {
                InstData::Const(Const::Undef) => return None,
                InstData::Const(_) => {}
                InstData::Prim { op, args } => {
                    let at = *self.pos.get(&i)?;
                    self.work += 1;
                    if self.work > Self::MAX_INSTS {
                        return None;
                    }
                    if *op == Prim::ArrayRef {
                        self.reads += 1;
                        let arr = args[0];
                        let scalar_elems = matches!(
                            &fwd.types[arr],
                            Type::Array(e, _)
                                if matches!(**e, Type::Float64 | Type::Float32 | Type::Int64)
                        );
                        let ok = self.reads <= Self::MAX_READS
                            && scalar_elems
                            && (self.leaf)(arr)
                            && (self.primal)(arr)
                            && self.last_write.is_none_or(|w| w < at);
                        if !ok {
                            return None;
                        }
                        for a in &args[1..] {
                            self.visit(*a)?;
                        }
                    } else if cheap(*op) {
                        for a in args {
                            self.visit(*a)?;
                        }
                    } else {
                        return None;
                    }
                }
                // Not recomputed: calls, memory, aggregates, control flow.
                InstData::Invoke { .. }
                | InstData::Call { .. }
                | InstData::New { .. }
                | InstData::Tuple { .. }
                | InstData::GetField { .. }
                | InstData::SetField { .. }
                | InstData::TypeAssert { .. }
                | InstData::GetGlobal(_)
                | InstData::SetGlobal(..)
                | InstData::StaticParam(_)
                | InstData::GetSlot(_)
                | InstData::SetSlot(..)
                | InstData::Jump { .. }
                | InstData::Branch { .. }
                | InstData::Return(_)
                | InstData::Unreachable => return None,
            }
            self.plan.push(i);
            Some(())
        }
    }
    let insts = &fwd.blocks[fb].insts;
    let mut p = Planner {
        fwd,
        leaf,
        primal,
        pos: insts.iter().enumerate().map(|(k, i)| (*i, k)).collect(),
        last_write: insts
            .iter()
            .rposition(|i| writes_primal(fwd, &fwd.insts[*i])),
        plan: Vec::new(),
        work: 0,
        reads: 0,
    };
    p.visit(v)?;
    Some(p.plan)
}

/// Pushes `vals` onto a new stack of the rule state (registered in `state_types`) — one value
/// as itself, several as one tuple: the stack's index and the values' types.
fn push_saved(
    e: &mut Emit,
    state: Value,
    state_types: &mut Vec<Type>,
    vals: Vec<Value>,
) -> (u32, Vec<Type>) {
    let k = state_types.len() as u32;
    let tys: Vec<Type> = vals.iter().map(|v| e.f.types[*v].clone()).collect();
    let elem = saved_element(&tys);
    state_types.push(Type::vector(elem.clone()));
    let x = match vals.as_slice() {
        [v] => *v,
        _ => e.val(InstData::Tuple { args: vals }, elem.clone()),
    };
    let stack = rule_stack(e, state, k, Type::vector(elem.clone()));
    e.prim(Prim::ArrayPush, vec![stack, x], Type::vector(elem));
    (k, tys)
}

/// The element type of a stack of saved values of types `tys` (see [`push_saved`]).
fn saved_element(tys: &[Type]) -> Type {
    match tys {
        [t] => t.clone(),
        _ => Type::tuple(tys.to_vec()),
    }
}

/// The pullback's saved values in saving order: constants made again, values with a plan
/// computed again by `recompute`, the rest popped from state stack `popped` (its index and
/// the saved values' types, as [`push_saved`] returns them), if any.
fn pop_saved(
    e: &mut Emit,
    state: Value,
    popped: Option<(u32, Vec<Type>)>,
    recipes: &[Recipe],
    recompute: &mut dyn FnMut(&mut Emit, &[Inst]) -> Value,
) -> Vec<Value> {
    let mut fields = Vec::new();
    if let Some((k, tys)) = popped {
        let elem = saved_element(&tys);
        let stack = rule_stack(e, state, k, Type::vector(elem.clone()));
        let x = e.prim(Prim::ArrayPop, vec![stack], elem);
        if let [_] = tys.as_slice() {
            fields.push(x);
        } else {
            for (j, t) in tys.iter().enumerate() {
                fields.push(e.field(x, j as u32, t.clone()));
            }
        }
    }
    let mut popped = fields.into_iter();
    recipes
        .iter()
        .map(|c| match c {
            Recipe::Const(c) => e.konst(c.clone()),
            Recipe::Recompute(plan) => recompute(e, plan),
            Recipe::Pushed => popped
                .next()
                .unwrap_or_else(|| unreachable!("one field per saved value")),
        })
        .collect()
}

/// Fetches each stack of the rule state once, at entry, instead of in every block that uses
/// it: a state's stacks keep their identity for the whole call and `rule_stack` creates a
/// missing one, so fetching them early is exact, and loops then push to and pop from values
/// already at hand.
fn hoist_rule_stacks(f: &mut Function) {
    let entry = f.entry();
    let Some(&state) = f.blocks[entry].params.first() else {
        return;
    };
    let mut canon: FxHashMap<(i64, Type), Value> = FxHashMap::default();
    let mut alias: FxHashMap<Value, Value> = FxHashMap::default();
    let mut hoisted: Vec<Inst> = Vec::new();
    let mut dropped: rustc_hash::FxHashSet<Inst> = Default::default();
    for b in f.layout.clone() {
        for &i in &f.blocks[b].insts {
            let Some((r, st, k, ty)) = f.constant_rule_stack(i) else {
                continue;
            };
            let (Some(Const::Type(t)), true) = (f.const_value(ty), st == state) else {
                continue;
            };
            let (Some(ki), Some(ti)) = (f.def_inst(f.insts[i].args()[1]), f.def_inst(ty)) else {
                continue;
            };
            match canon.get(&(k, t.clone())) {
                Some(c) => {
                    alias.insert(r, *c);
                }
                None => {
                    canon.insert((k, t.clone()), r);
                    hoisted.extend([ki, ti, i]);
                }
            }
            dropped.insert(i);
        }
    }
    if canon.is_empty() {
        return;
    }
    let moved: rustc_hash::FxHashSet<Inst> = hoisted.iter().copied().collect();
    for b in f.layout.clone() {
        f.blocks[b]
            .insts
            .retain(|i| !dropped.contains(i) && !moved.contains(i));
    }
    let rest = std::mem::take(&mut f.blocks[entry].insts);
    f.blocks[entry].insts = hoisted.into_iter().chain(rest).collect();
    f.map_all_args(|v| ir::function::resolve_alias(&alias, v));
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
/// mutable structs (their tangent is their fdata), `NoTangent` for the rest.
fn field_tangent(
    e: &mut Emit,
    cx: &Ctx,
    a: Value,
    tt: &Type,
    vmap: &FxHashMap<Value, Value>,
    fmap: &FxHashMap<Value, Value>,
) -> Option<Value> {
    match tt {
        Type::NoTangent => Some(e.konst(Const::Singleton(Type::NoTangent))),
        Type::Float64 | Type::Float32 => Some(zero_rdata(tt, e, cx.env)),
        // A field whose tangent is known only at run time (`Any`, `Core.Box`'s contents).
        Type::Any => Some(e.prim(Prim::TangentOf, vec![vmap[&a], fmap[&a]], Type::Any)),
        _ if cx.ft(a) == *tt => Some(fmap[&a]),
        _ => None,
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

/// The type of rule states (a prelude mutable struct).
pub fn rule_state_type() -> Type {
    Type::structure("RuleState", vec![])
}

/// `Core.rule_stack(state, k, vt)`: stack `k` of a rule state, of vector type `vt`.
fn rule_stack(e: &mut Emit, state: Value, k: u32, vt: Type) -> Value {
    let kv = e.konst(Const::Int(k as i64));
    let tv = e.konst(Const::Type(vt.clone()));
    e.prim(Prim::RuleStack, vec![state, kv, tv], vt)
}

/// A loop whose header is entered again along exactly one back edge (from a block the header
/// dominates). The forwards pass passes the header an iteration count (0 on entry, one more
/// along the back edge) and pushes it on the block stack wherever control leaves the loop (an
/// exit edge or a return inside it); the pullback pops it there into a counter and, at the
/// header, goes round the back edge while the counter is positive (decrementing it), else to
/// an entry edge. So each iteration costs no block-stack traffic, and while the pullback runs
/// an iteration's blocks the counter equals that iteration's count (see `IvSpec`).
struct CountedLoop {
    back: Edge,
    enters: Vec<Edge>,
    /// The header and every block that reaches the back edge without passing the header.
    body: rustc_hash::FxHashSet<Block>,
}

fn counted_loops(
    f: &Function,
    layout: &[Block],
    incoming: &FxHashMap<Block, Vec<Edge>>,
    live: &rustc_hash::FxHashSet<Block>,
) -> FxHashMap<Block, CountedLoop> {
    let dom = ir::dominators::DomTree::compute(f);
    let mut out = FxHashMap::default();
    for &h in layout.iter().skip(1) {
        if !live.contains(&h) {
            continue;
        }
        let edges = incoming.get(&h).cloned().unwrap_or_default();
        let (back, enters): (Vec<Edge>, Vec<Edge>) =
            edges.into_iter().partition(|(q, _)| dom.dominates(h, *q));
        if back.len() != 1 || enters.is_empty() {
            continue;
        }
        let mut body: rustc_hash::FxHashSet<Block> = [h].into_iter().collect();
        let mut work = vec![back[0].0];
        while let Some(b) = work.pop() {
            if body.insert(b) {
                work.extend(incoming.get(&b).into_iter().flatten().map(|(q, _)| *q));
            }
        }
        out.insert(
            h,
            CountedLoop {
                back: back[0],
                enters,
                body,
            },
        );
    }
    out
}

fn pop_block_stack(f: &mut Function, blk: Block, state: Value, loc: Span) -> Value {
    let mut e = Emit { f, block: blk, loc };
    let bs = rule_stack(&mut e, state, 0, Type::vector(Type::Int64));
    e.prim(Prim::ArrayPop, vec![bs], Type::Int64)
}

/// Branches on `id` to the target whose key equals it (the last target is the default), with
/// `before` emitted on each target's edge block.
fn dispatch<T: Copy>(
    f: &mut Function,
    from: Block,
    id: Value,
    loc: Span,
    targets: Vec<(i64, Block, T)>,
    before: &mut dyn FnMut(&mut Function, Block, T),
) {
    let mut cur = from;
    let n = targets.len();
    for (j, (key, dest, data)) in targets.into_iter().enumerate() {
        let edge = f.add_block();
        before(f, edge, data);
        Emit {
            f,
            block: edge,
            loc,
        }
        .jump(dest, vec![]);
        if j + 1 == n {
            Emit { f, block: cur, loc }.jump(edge, vec![]);
        } else {
            let next = f.add_block();
            let mut e = Emit { f, block: cur, loc };
            let k = e.konst(Const::Int(key));
            let c = e.prim(Prim::EqInt, vec![id, k], Type::Bool);
            e.inst(
                InstData::Branch {
                    cond: c,
                    then_dest: edge,
                    then_args: vec![],
                    else_dest: next,
                    else_args: vec![],
                },
                Type::Any,
            );
            cur = next;
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn emit_reverse(
    f: &mut Function,
    blk: Block,
    loc: Span,
    r: &Rev,
    acc: &FxHashMap<Value, Slot>,
    saved: &SavedVals,
    cx: &Ctx,
    state: Value,
) {
    let env = cx.env;
    let mut e = Emit { f, block: blk, loc };
    let take = |e: &mut Emit, v: Value| -> Option<(Value, Type)> {
        let s = *acc.get(&v)?;
        let t = cx.rt(v);
        let a = e.val(InstData::GetSlot(s), t.clone());
        let z = zero_rdata(&t, e, env);
        e.inst(InstData::SetSlot(s, z), Type::Any);
        Some((a, t))
    };
    let add = |e: &mut Emit, v: Value, x: Value| {
        if let Some(&s) = acc.get(&v) {
            let t = cx.rt(v);
            let xt = e.f.types[x].clone();
            let x = rdata_as(x, &xt, &t, e);
            let old = e.val(InstData::GetSlot(s), t.clone());
            let new = add_rdata(old, x, &t, e, env);
            e.inst(InstData::SetSlot(s, new), Type::Any);
        }
    };
    match r {
        Rev::Scalar { out, args } => {
            let Some((a, t)) = take(&mut e, *out) else {
                return;
            };
            for (arg, p) in args {
                let c = match p {
                    RevPartial::One => a,
                    RevPartial::MinusOne => e.prim(Prim::NegFloat, vec![a], t.clone()),
                    RevPartial::Saved(k) => e.prim(Prim::MulFloat, vec![a, saved[*k]], t.clone()),
                    RevPartial::SavedIf(k) => {
                        let zero = e.konst(match &t {
                            Type::Float32 => Const::F32(0.0),
                            _ => Const::F64(0.0),
                        });
                        e.prim(Prim::SelectFloat, vec![saved[*k], a, zero], t.clone())
                    }
                    RevPartial::SavedSingular(k) => {
                        let m = e.prim(Prim::MulFloat, vec![a, saved[*k]], t.clone());
                        crate::forward::strong_zero(&mut e, a, m, &t)
                    }
                    RevPartial::Convert => {
                        let at = cx.rt(*arg);
                        let tt = e.konst(Const::Type(at.clone()));
                        e.prim(Prim::Fpconvert, vec![tt, a], at)
                    }
                };
                add(&mut e, *arg, c);
            }
        }
        Rev::ArrayRead {
            out,
            fdata,
            idx,
            elem,
            primal,
        } => {
            let Some((a, _)) = take(&mut e, *out) else {
                return;
            };
            let fa = saved[*fdata];
            let is: Vec<Value> = idx.iter().map(|k| saved[*k]).collect();
            let tte = tangent_elem(&e.f.types[fa]);
            let mut ra = vec![fa];
            ra.extend(is.iter().copied());
            let old = e.prim(Prim::ArrayRef, ra, tte.clone());
            let new = match primal {
                Some(x) => e.prim(Prim::TangentAddRdata, vec![saved[*x], old, a], Type::Any),
                None => tangent_plus_rdata(old, &tte, a, elem, &mut e, env),
            };
            let mut wa = vec![fa, new];
            wa.extend(is);
            let at = e.f.types[fa].clone();
            e.prim(Prim::ArraySet, wa, at);
        }
        Rev::Pass { out, val } => {
            if let Some((a, _)) = take(&mut e, *out) {
                add(&mut e, *val, a);
            }
        }
        Rev::ArrayWrite {
            val,
            arr,
            idx,
            old_p,
            fdata,
            ert,
            val_p,
        } => {
            let a = saved[*arr];
            let is: Vec<Value> = idx.iter().map(|k| saved[*k]).collect();
            let at = e.f.types[a].clone();
            if let Some((fa, of)) = fdata {
                let (fa, of) = (saved[*fa], saved[*of]);
                let ft = e.f.types[fa].clone();
                let tte = tangent_elem(&ft);
                let mut ra = vec![fa];
                ra.extend(is.iter().copied());
                let dv = e.prim(Prim::ArrayRef, ra, tte.clone());
                let mut wf = vec![fa, of];
                wf.extend(is.iter().copied());
                e.prim(Prim::ArraySet, wf, ft);
                let dv = match val_p {
                    Some(x) => e.prim(Prim::TangentRdata, vec![saved[*x], dv], Type::Any),
                    None => recast(dv, &tte, ert, &mut e, env),
                };
                add(&mut e, *val, dv);
            }
            let mut wa = vec![a, saved[*old_p]];
            wa.extend(is);
            e.prim(Prim::ArraySet, wa, at);
        }
        Rev::Fast { out, rule, arrays } => {
            let Some((a, _)) = take(&mut e, *out) else {
                return;
            };
            let arrays: Vec<(Value, Value)> = arrays
                .iter()
                .map(|&(x, fx)| (saved[x], saved[fx]))
                .collect();
            rule.pullback(&mut e, a, &arrays);
        }
        Rev::ArrayPush {
            val,
            arr,
            fdata,
            elem,
            ert,
            val_p,
        } => {
            if let Some(fa) = fdata {
                let tte = tangent_elem(&e.f.types[saved[*fa]]);
                let dv = e.prim(Prim::ArrayPop, vec![saved[*fa]], tte.clone());
                let dv = match val_p {
                    Some(x) => e.prim(Prim::TangentRdata, vec![saved[*x], dv], Type::Any),
                    None => recast(dv, &tte, ert, &mut e, env),
                };
                add(&mut e, *val, dv);
            }
            e.prim(Prim::ArrayPop, vec![saved[*arr]], elem.clone());
        }
        Rev::ArrayResize {
            arr,
            saved: copy,
            n,
            fdata,
        } => {
            let n = saved[*n];
            let pairs = std::iter::once((saved[*arr], saved[*copy]))
                .chain(fdata.map(|(fa, fc)| (saved[fa], saved[fc])));
            for (a, c) in pairs {
                let t = e.f.types[a].clone();
                e.prim(Prim::ArrayUnresize, vec![a, c, n], t);
            }
        }
        Rev::ArrayPop {
            out,
            arr,
            val,
            fdata,
        } => {
            let a_out = take(&mut e, *out);
            let at = e.f.types[saved[*arr]].clone();
            e.prim(Prim::ArrayPush, vec![saved[*arr], saved[*val]], at);
            if let Some((fa, of)) = fdata {
                let ft = e.f.types[saved[*fa]].clone();
                let tte = tangent_elem(&ft);
                let restored = match a_out {
                    Some((a, _)) if tte == Type::Any => e.prim(
                        Prim::TangentAddRdata,
                        vec![saved[*val], saved[*of], a],
                        Type::Any,
                    ),
                    Some((a, t)) => tangent_plus_rdata(saved[*of], &tte, a, &t, &mut e, env),
                    None => saved[*of],
                };
                e.prim(Prim::ArrayPush, vec![saved[*fa], restored], ft);
            }
        }
        Rev::MutableNew { tangent, fields } => {
            let mt = saved[*tangent];
            let tts = env.field_types(&e.f.types[mt]).unwrap_or_default();
            for (arg, k, primal) in fields {
                let t = tts[*k as usize].clone();
                let x = e.field(mt, *k, t.clone());
                let z = match primal {
                    Some(p) => {
                        let p = saved[*p];
                        let r = e.prim(Prim::TangentRdata, vec![p, x], Type::Any);
                        add(&mut e, *arg, r);
                        let f = e.prim(Prim::TangentFdata, vec![p, x], Type::Any);
                        e.prim(Prim::TangentOf, vec![p, f], Type::Any)
                    }
                    None => {
                        add(&mut e, *arg, x);
                        zero_rdata(&t, &mut e, env)
                    }
                };
                e.inst(
                    InstData::SetField {
                        obj: mt,
                        field: FieldRef::Index(*k),
                        val: z,
                    },
                    Type::Any,
                );
            }
        }
        Rev::MutableRead {
            out,
            tangent,
            k,
            primal,
        } => {
            let Some((a, t)) = take(&mut e, *out) else {
                return;
            };
            let mt = saved[*tangent];
            let new = match primal {
                Some(p) => {
                    let old = e.field(mt, *k, Type::Any);
                    e.prim(Prim::TangentAddRdata, vec![saved[*p], old, a], Type::Any)
                }
                None => {
                    let old = e.field(mt, *k, t.clone());
                    add_rdata(old, a, &t, &mut e, env)
                }
            };
            e.inst(
                InstData::SetField {
                    obj: mt,
                    field: FieldRef::Index(*k),
                    val: new,
                },
                Type::Any,
            );
        }
        Rev::MutableWrite {
            val,
            obj,
            k,
            old_p,
            tangent,
            float,
            val_p,
        } => {
            if let Some((mt, old_t)) = tangent {
                let (mt, old_t) = (saved[*mt], saved[*old_t]);
                if let Some(p) = val_p {
                    let t = e.field(mt, *k, Type::Any);
                    let dv = e.prim(Prim::TangentRdata, vec![saved[*p], t], Type::Any);
                    add(&mut e, *val, dv);
                } else if *float {
                    let t = e.f.types[old_t].clone();
                    let dv = e.field(mt, *k, t);
                    add(&mut e, *val, dv);
                }
                e.inst(
                    InstData::SetField {
                        obj: mt,
                        field: FieldRef::Index(*k),
                        val: old_t,
                    },
                    Type::Any,
                );
            }
            e.inst(
                InstData::SetField {
                    obj: saved[*obj],
                    field: FieldRef::Index(*k),
                    val: saved[*old_p],
                },
                Type::Any,
            );
        }
        Rev::TupleIndex { out, tuple, idx } => {
            let Some((a, at)) = take(&mut e, *out) else {
                return;
            };
            let Some(&s) = acc.get(tuple) else { return };
            let t = cx.rt(*tuple);
            let Type::Tuple(ets) = &t else { return };
            let i = saved[*idx];
            let old = e.val(InstData::GetSlot(s), t.clone());
            if !ets.contains(&at) {
                // The element types differ in their reverse data (the read's is decided at
                // run time): element i gets it at run time.
                let new = e.prim(Prim::RdataAddAt, vec![old, i, a], t.clone());
                e.inst(InstData::SetSlot(s, new), Type::Any);
                return;
            }
            // Element j gets acc[out] when j == i: a 0/1 mask on every float leaf keeps this
            // branch-free.
            let mut parts = Vec::new();
            for (j, et) in ets.iter().enumerate() {
                let x = e.field(old, j as u32, et.clone());
                if *et != at {
                    parts.push(x);
                    continue;
                }
                let jv = e.konst(Const::Int(j as i64 + 1));
                let hit = e.prim(Prim::EqInt, vec![jv, i], Type::Bool);
                let hi = e.prim(Prim::BoolToInt, vec![hit], Type::Int64);
                parts.push(rdata_leafwise(&[x, a], et, &mut e, env, &mut |e, v, t| {
                    if !t.is_float() {
                        return v[0];
                    }
                    let ft = e.konst(Const::Type(t.clone()));
                    let m = e.prim(Prim::Sitofp, vec![ft, hi], t.clone());
                    let c = e.prim(Prim::MulFloat, vec![m, v[1]], t.clone());
                    e.prim(Prim::AddFloat, vec![v[0], c], t.clone())
                }));
            }
            let new = e.val(InstData::Tuple { args: parts }, t.clone());
            e.inst(InstData::SetSlot(s, new), Type::Any);
        }
        Rev::ArrayCopy { src, dst } => {
            let t = e.f.types[saved[*src]].clone();
            e.prim(Prim::ArrayAccumulate, vec![saved[*src], saved[*dst]], t);
        }
        Rev::Dynamic { out, site, args } => {
            let dy = match take(&mut e, *out) {
                Some((a, _)) => a,
                None => e.konst(Const::Singleton(Type::NoRData)),
            };
            let kv = e.konst(Const::Int(*site as i64));
            let cs = e.prim(Prim::RuleChild, vec![state, kv], rule_state_type());
            let tt = Type::tuple(vec![Type::Any; args.len()]);
            let tv = e.konst(Const::Type(tt.clone()));
            let rd = e.prim(Prim::DynRvs, vec![cs, dy, tv], tt);
            for (j, arg) in args.iter().enumerate() {
                if acc.contains_key(arg) {
                    let x = e.field(rd, j as u32, Type::Any);
                    add(&mut e, *arg, x);
                }
            }
        }
        Rev::DynField {
            out,
            obj,
            primal,
            fdata,
            name,
        } => {
            let Some((a, _)) = take(&mut e, *out) else {
                return;
            };
            let nv = e.konst(Const::Str(name.clone()));
            let r = e.prim(
                Prim::FieldCotangent,
                vec![saved[*primal], saved[*fdata], nv, a],
                Type::Any,
            );
            if acc.contains_key(obj) {
                add(&mut e, *obj, r);
            }
        }
        Rev::Invoke {
            out,
            site,
            callee,
            ret,
            args,
        } => {
            let dy = match take(&mut e, *out) {
                Some((a, _)) => a,
                None => e.konst(Const::Singleton(Type::NoRData)),
            };
            let kv = e.konst(Const::Int(*site as i64));
            let cs = e.prim(Prim::RuleChild, vec![state, kv], rule_state_type());
            let rd = e.val(
                InstData::Invoke {
                    callee: callee.clone(),
                    args: vec![cs, dy],
                },
                ret.clone(),
            );
            let Type::Tuple(rts) = ret else { return };
            for (j, arg) in args.iter().enumerate() {
                if acc.contains_key(arg) {
                    let x = e.field(rd, j as u32, rts[j].clone());
                    add(&mut e, *arg, x);
                }
            }
        }
        Rev::Build { out, args } => {
            let Some((a, t)) = take(&mut e, *out) else {
                return;
            };
            let fts = env.field_types(&t).unwrap_or_default();
            for (k, arg) in args.iter().enumerate() {
                if acc.contains_key(arg) {
                    let x = e.field(a, k as u32, fts.get(k).cloned().unwrap_or_default());
                    add(&mut e, *arg, x);
                }
            }
        }
        Rev::Field { out, obj, k } => {
            let Some((a, _)) = take(&mut e, *out) else {
                return;
            };
            if let Some(&s) = acc.get(obj) {
                let t = cx.rt(*obj);
                let old = e.val(InstData::GetSlot(s), t.clone());
                let fts = env.field_types(&t).unwrap_or_default();
                let parts: Vec<Value> = fts
                    .iter()
                    .enumerate()
                    .map(|(j, ft)| {
                        let x = e.field(old, j as u32, ft.clone());
                        if j as u32 == *k {
                            add_rdata(x, a, ft, &mut e, env)
                        } else {
                            x
                        }
                    })
                    .collect();
                let new = match &t {
                    Type::Tuple(_) => e.val(InstData::Tuple { args: parts }, t.clone()),
                    _ => e.val(
                        InstData::New {
                            ty: t.clone(),
                            args: parts,
                        },
                        t.clone(),
                    ),
                };
                e.inst(InstData::SetSlot(s, new), Type::Any);
            }
        }
    }
}
