//! Lowering of one typed IR function to Cranelift IR (calling convention: see `abi`).
//!
//! Values of type `Int64`, `Float64`, `Float32` and `Bool` are Cranelift values (`i64`, `f64`,
//! `f32`, `i8` holding 0 or 1) and IR block parameters of those types are Cranelift block
//! parameters. Every other value has a frame slot. Scalar primitives become Cranelift
//! instructions (or calls of the shared `extern "C"` math functions), array reads, writes and
//! lengths on unboxed element arrays call fast-path helpers, and every other instruction runs
//! through the interpreter's `eval_inst` (`abi::mc_eval`), so both backends share semantics
//! and error messages by construction.
//!
//! `analysis` decides representations and layouts before emission (packed tuples, grouped
//! rule stacks, returned tuples, sin/cos pairs); `lower` here sets up the function; `inst`
//! and `prim` emit instructions and primitives; `vector` gives simple elementwise loops over
//! float arrays a path that runs two trips at a time (`f64x2`); `helpers` declares the
//! `extern "C"` helpers.

mod analysis;
mod helpers;
mod inst;
mod prim;
mod vector;

use analysis::*;
pub use analysis::{fields_of, returned_fields};
pub use helpers::{helpers, AbiReturn, AbiType, Helper, HelperFn, PRESERVING};

use crate::abi::{self, VALUE_SIZE};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    self as cir, types as ct, AbiParam, BlockArg, InstBuilder, MemFlagsData, StackSlotData,
    StackSlotKind,
};
use cranelift_frontend::FunctionBuilder;
use cranelift_module::{FuncId, Module};
use ir::{Block, Const, Function, Inst, InstData, Prim, Type, Value};
use rustc_hash::{FxHashMap, FxHashSet};

/// Whether values of type `t` are tuples or structs (reverse mode's tangents, fdata and
/// rdata of structs are structs) whose fields native code reads in place.
pub(super) fn has_fields(t: &Type) -> bool {
    matches!(
        t,
        Type::Tuple(_) | Type::Struct(..) | Type::Tangent(_) | Type::FData(_) | Type::RData(_)
    )
}

/// How a value of an IR type is held in native code.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Rep {
    I64,
    F64,
    F32,
    Bool,
    /// A frame slot holding a run-time `Value`.
    Boxed,
    /// A value of a singleton type (`nothing`, `NoFData`, a function, a type): nothing at
    /// run time, materialised from the function's constants where a `Value` is needed.
    Unit,
}

/// Whether values of this representation are Cranelift values.
fn is_reg(r: Rep) -> bool {
    matches!(r, Rep::I64 | Rep::F64 | Rep::F32 | Rep::Bool)
}

pub fn rep(t: &Type) -> Rep {
    match t {
        Type::Int64 => Rep::I64,
        Type::Float64 => Rep::F64,
        Type::Float32 => Rep::F32,
        Type::Bool => Rep::Bool,
        t if Const::of_singleton(t).is_some() => Rep::Unit,
        _ => Rep::Boxed,
    }
}

fn cl_type(r: Rep) -> ct::Type {
    match r {
        Rep::I64 | Rep::Boxed | Rep::Unit => ct::I64,
        Rep::F64 => ct::F64,
        Rep::F32 => ct::F32,
        Rep::Bool => ct::I8,
    }
}

/// What lowering needs from the engine: the module and its declared helpers.
pub struct Env<'a> {
    pub module: &'a mut cranelift_jit::JITModule,
    pub helpers: &'a FxHashMap<String, FuncId>,
    pub types: &'a ir::TypeEnv,
}

/// The boxed constants of `f`: the values of its boxed `Const` instructions, of its reads of
/// the constant globals `globals` holds, of its tuples of singletons and of its immutable
/// structs without fields (a closure capturing nothing) (built once, not per execution), then
/// one value per singleton type.
pub fn boxed_consts(
    f: &Function,
    globals: &FxHashMap<syntax::Symbol, runtime::Value>,
    types: &ir::TypeEnv,
) -> Consts {
    let mut vals = Vec::new();
    let mut index = FxHashMap::default();
    let mut units = FxHashMap::default();
    for b in &f.layout {
        for &i in &f.blocks[*b].insts {
            match (&f.insts[i], f.result(i)) {
                (InstData::Const(c), Some(r)) if rep(&f.types[r]) == Rep::Boxed => {
                    index.insert(i, vals.len());
                    vals.push(runtime::Value::from_const(c));
                }
                // A constant global defined when the code is made: its value, read in place.
                (InstData::GetGlobal(name), Some(r)) if rep(&f.types[r]) == Rep::Boxed => {
                    if let Some(v) = globals.get(name) {
                        index.insert(i, vals.len());
                        vals.push(v.clone());
                    }
                }
                // An immutable struct without fields is one value (it has no identity).
                (InstData::New { ty, args }, Some(r))
                    if args.is_empty()
                        && rep(&f.types[r]) == Rep::Boxed
                        && matches!(ty, Type::Struct(..))
                        && !types.is_mutable(ty)
                        && types.field_types(ty).is_some_and(|fs| fs.is_empty()) =>
                {
                    index.insert(i, vals.len());
                    vals.push(runtime::Value::fieldless(ty.clone()));
                }
                // A tuple of singletons (the `(NoRData, NoRData)` of pullbacks) is built once.
                (InstData::Tuple { args }, Some(r)) if rep(&f.types[r]) == Rep::Boxed => {
                    let parts: Option<Vec<runtime::Value>> = args
                        .iter()
                        .map(|a| {
                            Const::of_singleton(&f.types[*a])
                                .map(|c| runtime::Value::from_const(&c))
                        })
                        .collect();
                    if let Some(parts) = parts {
                        index.insert(i, vals.len());
                        vals.push(runtime::Value::tuple(parts));
                    }
                }
                _ => {}
            }
        }
    }
    // One constant per singleton type of the function's values, and of the fields of tuples
    // that calls return field by field (see `Gen::invoke`).
    for (v, _) in f.values.iter() {
        let t = &f.types[v];
        let fields = fields_of(t).unwrap_or_default();
        for t in std::iter::once(t).chain(fields) {
            if rep(t) == Rep::Unit && !units.contains_key(t) {
                if let Some(c) = Const::of_singleton(t) {
                    units.insert(t.clone(), vals.len());
                    vals.push(runtime::Value::from_const(&c));
                }
            }
        }
    }
    (vals, index, units)
}

/// A function's boxed constants (see [`boxed_consts`]): the values, the index of each boxed
/// `Const` instruction's value, and of each singleton type's value.
pub type Consts = (
    Vec<runtime::Value>,
    FxHashMap<Inst, usize>,
    FxHashMap<Type, usize>,
);

struct Gen<'a, 'b> {
    f: &'a Function,
    /// The address of each static call's cell in `Meta::call_cells` (see `invoke`).
    call_cells: FxHashMap<Inst, i64>,
    /// The first of the frame slots that receive the fields of a direct call's tuple result,
    /// or of a spread pop's tuple (see `lower`).
    field_slots: FxHashMap<Inst, u32>,
    /// Tuples returned by direct calls, or popped, whose fields are only read: the first of
    /// their field slots (the tuple itself is never built on the direct path, nor kept whole
    /// by the pop's fast path).
    slot_fields: FxHashMap<Value, u32>,
    /// The entry signature, imported for direct calls on first use.
    entry_sig: Option<cir::SigRef>,
    b: FunctionBuilder<'b>,
    env: Env<'a>,
    meta: i64,
    /// The function's one block that reports an internal error ("unreachable code reached")
    /// and leaves through `err`, created on first use.
    unreachable: Option<cir::Block>,
    /// The function's one block that raises `OutOfMemoryError()` (a push the memory budget or
    /// the system refused) and leaves through `err`, created on first use.
    out_of_memory: Option<cir::Block>,
    /// The function's one return: drops the frame and returns its parameter (the status).
    exit: cir::Block,
    /// Address of the boxed constants of `meta` (see [`boxed_consts`]), which live as long
    /// as the code: singleton operands of helper calls point into them.
    consts: i64,
    const_index: FxHashMap<Inst, usize>,
    unit_index: FxHashMap<Type, usize>,
    refs: FxHashMap<String, cir::FuncRef>,
    blocks: FxHashMap<Block, cir::Block>,
    vals: FxHashMap<Value, cir::Value>,
    slots: FxHashMap<Value, u32>,
    nslots: u32,
    /// First scratch slot (operands of generic instructions, then the result).
    scratch: u32,
    /// A stack slot holding the entry's context, argument array and result pointers.
    regs: cir::StackSlot,
    frame: cir::Value,
    /// The stack slot `frame` points at: slot addresses are taken from it directly.
    frame_ss: cir::StackSlot,
    argv: cir::StackSlot,
    fout: cir::StackSlot,
    err: cir::Block,
    used: FxHashSet<Value>,
    /// `sin(x)` and `cos(x)` of one `Float64` in one block: the first of the two (computing
    /// both through `sincos`), with the results of the sine and of the cosine.
    trig_pairs: FxHashMap<Inst, (Value, Value)>,
    /// Boxed parameters of the entry block read from the caller's argument array (by
    /// position), which has no frame slot.
    in_args: FxHashMap<Value, u32>,
    /// The IR block being lowered.
    cur: Block,
    /// The bodies of the function's natural loops.
    loops: Vec<FxHashSet<Block>>,
    /// Where `sincos` writes its two results.
    trig_buf: cir::StackSlot,
    /// Tuples never built: their only use pushes them onto a vector of such tuples, which
    /// gets their elements' bytes.
    fused: FxHashMap<Value, Packed>,
    /// Tuples popped from a vector of such tuples and only read field by field: their bytes,
    /// in a stack slot each.
    packed: FxHashMap<Value, (Packed, cir::Value)>,
    /// A buffer for the bytes of a fused tuple.
    pack_buf: cir::StackSlot,
    /// The array object (`ArrayObj`, whose `ArrayView` native code reads) of each value of a
    /// `Float64` or `Int64` array type, fetched once where the value is defined.
    arr_obj: FxHashMap<Value, cir::Value>,
    /// Which arrays keep their storage wherever they are used (`ir::bounds::Stability`):
    /// loads from their views are read-only, so Cranelift may hoist them out of loops.
    stability: ir::bounds::Stability<'a>,
    /// Array accesses proved in range (`ir::bounds`): no bounds check.
    inbounds: FxHashSet<Inst>,
    /// Tuples whose only use is being returned: built straight into the caller's return slot.
    returned_only: FxHashSet<Value>,
    /// The entry block's `rule_stack`s fetched together (see `group_rule_stacks`): each one's
    /// position in `rule_sites`.
    rule_group: FxHashMap<Inst, u32>,
    rule_sites: Vec<abi::RuleStackSite>,
    /// Where `mc_rule_stacks` writes the stacks' array objects.
    rule_objs: Option<cir::StackSlot>,
    /// The number of frame slots, at its start, that borrow rather than own their values
    /// (the grouped rule stacks, then `borrowed_fields`): the frame's drop leaves them alone.
    borrowed: u32,
    /// Field reads whose slot borrows the field's value: written by bit copy
    /// (`mc_getfield_borrow`), never assigned otherwise, never dropped.
    borrowed_fields: FxHashSet<Value>,
    /// For a function returning a tuple type, which fields the code writes into the
    /// caller's values (see [`returned_fields`]); `None`: the code returns one value.
    ret_fields: Option<Vec<bool>>,
    /// Boxed values held alone in a frame slot the frame owns (see `Gen::edge_moves`,
    /// `Gen::dead_after`).
    own_slots: FxHashSet<Value>,
    /// The boxed values edges pass to parameters, each with its bit in `live_in`.
    move_bits: FxHashMap<Value, usize>,
    /// Which of `move_bits` are live on entry to each block.
    live_in: FxHashMap<Block, ir::liveness::LiveSet>,
    /// Loops that run two trips at a time where they can (see `vector`), by header.
    vec_loops: FxHashMap<Block, vector::VecLoop>,
}

/// Lowers `f` into `func` (whose signature is the uniform entry signature). `meta` is the
/// address of the function's `abi::Meta`, whose `rule_stacks` must be set to what this
/// returns before the code runs; `consts` its boxed constants, made by [`boxed_consts`] with
/// the indices `const_index` and `unit_index`.
#[allow(clippy::too_many_arguments)]
pub fn lower(
    f: &Function,
    func: &mut cir::Function,
    fctx: &mut cranelift_frontend::FunctionBuilderContext,
    env: Env<'_>,
    meta: i64,
    consts: *const runtime::Value,
    const_index: FxHashMap<Inst, usize>,
    unit_index: FxHashMap<Type, usize>,
    call_cells: FxHashMap<Inst, i64>,
) -> Result<Box<[abi::RuleStackSite]>, String> {
    let order = f.reverse_postorder();
    // Frame slots: boxed values, then scratch.
    let mut slots = FxHashMap::default();
    let mut nslots = 0u32;
    let mut max_args = 1usize;
    let mut used = FxHashSet::default();
    for &b in &order {
        for &i in &f.blocks[b].insts {
            let data = &f.insts[i];
            data.for_each_arg(|a| {
                used.insert(a);
            });
            max_args = max_args.max(data.args().len());
        }
    }
    // The entry block's boxed parameters are read where the caller passed them (the caller
    // keeps its argument array alive and untouched for the call) unless a jump back to the
    // entry block could assign them.
    let ir_entry = f.entry();
    let entry_is_target = order.iter().any(|&b| {
        f.blocks[b]
            .insts
            .last()
            .is_some_and(|&t| f.insts[t].successors().iter().any(|(d, _)| *d == ir_entry))
    });
    let mut in_args = FxHashMap::default();
    if !entry_is_target {
        for (k, &p) in f.blocks[ir_entry].params.iter().enumerate() {
            if rep(&f.types[p]) == Rep::Boxed {
                in_args.insert(p, k as u32);
            }
        }
    }
    // The entry block's grouped rule stacks come first: their slots borrow the state's
    // stacks and are left out of the frame's drop (see `abi::mc_rule_stacks`).
    let mut rule_sites = group_rule_stacks(f, &unit_index);
    let mut rule_group = FxHashMap::default();
    for (j, (site, r)) in rule_sites.iter_mut().enumerate() {
        rule_group.insert(site.inst, j as u32);
        slots.insert(*r, nslots);
        site.slot = nslots * VALUE_SIZE;
        nslots += 1;
    }
    // Fields of immutable structs and tuples that live for the whole call (arguments, values
    // the entry block computes — it runs once, so their slots are assigned once — and fields
    // of those): their slots borrow the field's value (a bit copy, never dropped), which
    // spares cloning it — and, when several threads run the code, their contending for the
    // value's reference count (a pullback reads the fields of the closure it pops once).
    // (Not the values held elsewhere than in a slot of their own: constants, tuples a direct
    // call returns field by field, popped or pushed tuples held packed.)
    let (fused, packed_pops) = packing(f, &order, env.types);
    // Values some instruction reads other than by a field read.
    let mut used_whole = FxHashSet::default();
    for &b in &order {
        for &i in &f.blocks[b].insts {
            if !matches!(
                f.insts[i],
                ir::InstData::GetField {
                    field: ir::FieldRef::Index(_),
                    ..
                }
            ) {
                f.insts[i].for_each_arg(|a| {
                    used_whole.insert(a);
                });
            }
        }
    }
    let only_fields_read = |r: Value| !used_whole.contains(&r);
    // Tuples of boxed values popped from a stack (a pullback taking back what its forwards
    // pass saved) whose only uses read their fields: the pop moves the fields into slots of
    // their own, which the field reads then are, instead of each read cloning its field out
    // of the tuple (and the tuple's drop dropping them again) — which, for an array every
    // iteration of a threaded loop saves, is a reference count every thread changes.
    let mut spread_pops: FxHashMap<Inst, (Value, u32)> = FxHashMap::default();
    for &b in &order {
        for &i in &f.blocks[b].insts {
            let ir::InstData::Prim {
                op: ir::Prim::ArrayPop,
                args,
            } = &f.insts[i]
            else {
                continue;
            };
            let Some(r) = f.result(i) else { continue };
            if fields_of(&f.types[r]).is_some()
                && !packed_pops.contains_key(&r)
                && only_fields_read(r)
                && boxed_storage(&f.types[args[0]], env.types)
            {
                spread_pops.insert(i, (r, 0));
            }
        }
    }
    let spread_tuples: FxHashSet<Value> = spread_pops.values().map(|(r, _)| *r).collect();
    let entry_vals: FxHashSet<Value> = if entry_is_target {
        FxHashSet::default()
    } else {
        f.blocks[ir_entry]
            .insts
            .iter()
            .filter(|&&i| !const_index.contains_key(&i) && !call_cells.contains_key(&i))
            .filter_map(|&i| f.result(i))
            .filter(|r| {
                !fused.contains_key(r) && !packed_pops.contains_key(r) && !spread_tuples.contains(r)
            })
            .collect()
    };
    let mut borrowed_fields = FxHashSet::default();
    for &b in &order {
        for &i in &f.blocks[b].insts {
            let ir::InstData::GetField {
                obj,
                field: ir::FieldRef::Index(_),
            } = f.insts[i]
            else {
                continue;
            };
            let Some(r) = f.result(i) else { continue };
            let ot = &f.types[obj];
            if rep(&f.types[r]) == Rep::Boxed
                && used.contains(&r)
                && !const_index.contains_key(&i)
                && !spread_tuples.contains(&obj)
                && (in_args.contains_key(&obj)
                    || borrowed_fields.contains(&obj)
                    || entry_vals.contains(&obj))
                && ot.is_concrete()
                && has_fields(ot)
                && !env.types.is_mutable(ot)
            {
                borrowed_fields.insert(r);
                slots.insert(r, nslots);
                nslots += 1;
            }
        }
    }
    let borrowed = nslots;
    // A spread pop's field slots; a boxed field read of it is its field's slot.
    let mut spread_reads = FxHashSet::default();
    for (r, base) in spread_pops.values_mut() {
        *base = nslots;
        nslots += fields_of(&f.types[*r]).map_or(0, |ts| ts.len()) as u32;
    }
    let spread_base: FxHashMap<Value, u32> = spread_pops.values().copied().collect();
    for &b in &order {
        for &i in &f.blocks[b].insts {
            if let ir::InstData::GetField {
                obj,
                field: ir::FieldRef::Index(k),
            } = f.insts[i]
            {
                if let (Some(base), Some(r)) = (spread_base.get(&obj), f.result(i)) {
                    if rep(&f.types[r]) == Rep::Boxed {
                        slots.insert(r, base + k);
                        spread_reads.insert(r);
                    }
                }
            }
        }
    }
    // Results nobody reads (the vectors `push!` returns, mostly) share one slot.
    let mut sink = None;
    // The values whose frame slot holds their value alone, owned by the frame: once such a
    // value is dead, its value may be moved out of the slot rather than cloned.
    let mut own_slots = FxHashSet::default();
    for &b in &order {
        for &p in &f.blocks[b].params {
            if rep(&f.types[p]) == Rep::Boxed && !in_args.contains_key(&p) {
                slots.insert(p, nslots);
                own_slots.insert(p);
                nslots += 1;
            }
        }
        for &i in &f.blocks[b].insts {
            if let Some(r) = f.result(i) {
                // Boxed constants are read where they are, in `Meta::consts`.
                if rep(&f.types[r]) == Rep::Boxed
                    && !const_index.contains_key(&i)
                    && !rule_group.contains_key(&i)
                    && !borrowed_fields.contains(&r)
                    && !spread_reads.contains(&r)
                {
                    let k = if used.contains(&r) {
                        own_slots.insert(r);
                        nslots += 1;
                        nslots - 1
                    } else {
                        *sink.get_or_insert_with(|| {
                            nslots += 1;
                            nslots - 1
                        })
                    };
                    slots.insert(r, k);
                }
            }
        }
    }
    let scratch = nslots;
    nslots += max_args as u32 + 1;
    // Each direct call returning a tuple field by field gets as many slots for the fields.
    // Where every use of the tuple reads a field, the tuple is never built: its readers read
    // those slots.
    let mut field_slots = FxHashMap::default();
    let mut slot_fields = FxHashMap::default();
    for (&i, &(r, base)) in &spread_pops {
        field_slots.insert(i, base);
        slot_fields.insert(r, base);
    }
    for &i in call_cells.keys() {
        if let Some((r, ts)) = f
            .result(i)
            .and_then(|r| fields_of(&f.types[r]).map(|ts| (r, ts)))
        {
            field_slots.insert(i, nslots);
            if only_fields_read(r) {
                slot_fields.insert(r, nslots);
            }
            nslots += ts.len() as u32;
        }
    }

    // Boxed values an edge passes to a parameter, for the liveness that lets an edge move a
    // value the destination no longer needs.
    let mut move_bits = FxHashMap::default();
    for &b in &order {
        let Some(&t) = f.blocks[b].insts.last() else {
            continue;
        };
        for (d, args) in f.insts[t].successors() {
            for (p, a) in f.blocks[d].params.iter().zip(args) {
                if p != a && own_slots.contains(a) && rep(&f.types[*p]) == Rep::Boxed {
                    let n = move_bits.len();
                    move_bits.entry(*a).or_insert(n);
                }
            }
        }
    }
    // Values pushed onto vectors of boxed values (what a forwards pass saves), which a push
    // may move when nothing reads them after it.
    for &b in &order {
        for &i in &f.blocks[b].insts {
            if let ir::InstData::Prim {
                op: ir::Prim::ArrayPush,
                args,
            } = &f.insts[i]
            {
                if args.len() == 2 && args[0] != args[1] && own_slots.contains(&args[1]) {
                    let n = move_bits.len();
                    move_bits.entry(args[1]).or_insert(n);
                }
            }
        }
    }
    let live_in = if move_bits.is_empty() {
        FxHashMap::default()
    } else {
        ir::liveness::live_in(f, &order, &move_bits)
    };

    let mut b = FunctionBuilder::new(func, fctx);
    let frame_ss = b.create_sized_stack_slot(StackSlotData::new(
        StackSlotKind::ExplicitSlot,
        nslots * VALUE_SIZE,
        4,
    ));
    let argv_ss = b.create_sized_stack_slot(StackSlotData::new(
        StackSlotKind::ExplicitSlot,
        8 * max_args as u32,
        3,
    ));
    let fout_ss = b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 8, 3));
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    // The entry's three pointers live in a stack slot, loaded where used: error paths inside
    // loops need them, and as SSA values they would keep registers (or spill traffic) across
    // every loop.
    let regs_ss = b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 24, 3));
    let regs = b.ins().stack_addr(ct::I64, regs_ss, 0);
    for k in 0..3 {
        let p = b.block_params(entry)[k];
        b.ins()
            .store(MemFlagsData::trusted(), p, regs, 8 * k as i32);
    }
    let args = b.block_params(entry)[1];
    let frame = b.ins().stack_addr(ct::I64, frame_ss, 0);
    let err = b.create_block();
    let exit = b.create_block();
    let max_pack = fused
        .values()
        .chain(packed_pops.values())
        .map(|p| p.size)
        .max()
        .unwrap_or(8);
    let pack_ss =
        b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, max_pack, 3));

    let trig_ss = b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 16, 3));

    let mut packed = FxHashMap::default();
    for (v, p) in packed_pops {
        let ss =
            b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, p.size, 3));
        let addr = b.ins().stack_addr(ct::I64, ss, 0);
        packed.insert(v, (p, addr));
    }
    // One stability analysis for the views' load flags and the bounds facts.
    let stability = ir::bounds::Stability::new(f, &order);
    let natural = ir::dominators::natural_loops(f);
    let mut g = Gen {
        f,
        b,
        env,
        meta,
        consts: consts as i64,
        unreachable: None,
        out_of_memory: None,
        exit,
        const_index,
        unit_index,
        refs: FxHashMap::default(),
        blocks: FxHashMap::default(),
        vals: FxHashMap::default(),
        slots,
        nslots,
        scratch,
        regs: regs_ss,
        frame,
        frame_ss,
        argv: argv_ss,
        fout: fout_ss,
        err,
        used,
        fused,
        packed,
        pack_buf: pack_ss,
        trig_pairs: sin_cos_pairs(f),
        cur: f.entry(),
        loops: natural.iter().map(|(_, body)| body.clone()).collect(),
        in_args,
        trig_buf: trig_ss,
        arr_obj: FxHashMap::default(),
        inbounds: ir::bounds::inbounds_accesses(f, &stability),
        stability,
        rule_group,
        rule_sites: rule_sites.into_iter().map(|(site, _)| site).collect(),
        rule_objs: None,
        borrowed,
        borrowed_fields,
        returned_only: FxHashSet::default(),
        ret_fields: returned_fields(f).map(|ts| ts.iter().map(|t| rep(t) != Rep::Unit).collect()),
        call_cells,
        field_slots,
        slot_fields,
        entry_sig: None,
        own_slots,
        move_bits,
        live_in,
        vec_loops: FxHashMap::default(),
    };
    g.returned_only = returned_tuples(f, &g.const_index);
    if !g.rule_sites.is_empty() {
        let size = 8 * g.rule_sites.len() as u32;
        let ss =
            g.b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, size, 3));
        g.rule_objs = Some(ss);
    }
    let n = g.b.ins().iconst(ct::I64, nslots as i64);
    g.call("mc_frame_init", &[frame, n]);
    // The IR's entry block continues Cranelift's entry block unless it is a jump target.
    let planned = vector::plan(f, &natural, &g.used, |v| g.tracks_array(v));
    for &blk in &order {
        if blk == ir_entry && !entry_is_target {
            g.blocks.insert(blk, entry);
            continue;
        }
        let cb = g.b.create_block();
        for &p in &f.blocks[blk].params {
            let r = rep(&f.types[p]);
            if is_reg(r) {
                let v = g.b.append_block_param(cb, cl_type(r));
                g.vals.insert(p, v);
            }
        }
        g.blocks.insert(blk, cb);
    }
    for p in planned {
        let [gate, entry] = [g.b.create_block(), g.b.create_block()];
        for _ in &f.blocks[p.header].params {
            g.b.append_block_param(gate, ct::I64);
            g.b.append_block_param(entry, ct::I64);
        }
        g.vec_loops
            .insert(p.header, vector::VecLoop::new(p, gate, entry));
    }
    // Arguments: unbox scalars, copy the rest into their slots.
    let mut entry_args = Vec::new();
    for (k, &p) in f.blocks[ir_entry].params.iter().enumerate() {
        let ap = |g: &mut Gen| g.b.ins().iadd_imm_s(args, (k as u32 * VALUE_SIZE) as i64);
        match rep(&f.types[p]) {
            Rep::Boxed if g.in_args.contains_key(&p) => {}
            Rep::Boxed => {
                let dst = g.slot_addr(p);
                let src = ap(&mut g);
                g.call("mc_clone", &[dst, src]);
            }
            Rep::Unit => {}
            r => {
                let src = ap(&mut g);
                let v = g.unbox(r, src);
                if entry_is_target {
                    entry_args.push(BlockArg::Value(v));
                } else {
                    g.vals.insert(p, v);
                }
            }
        }
    }
    if entry_is_target {
        let ce = g.blocks[&ir_entry];
        g.b.ins().jump(ce, &entry_args);
    }
    for &blk in &order {
        let cb = g.blocks[&blk];
        g.cur = blk;
        if cb != entry {
            g.b.switch_to_block(cb);
        }
        for &p in &f.blocks[blk].params {
            g.track_array(p);
        }
        for &i in &f.blocks[blk].insts {
            g.inst(i)?;
            if let Some(r) = f.result(i) {
                if !g.arr_obj.contains_key(&r) && g.used.contains(&r) {
                    g.track_array(r);
                }
            }
        }
    }
    g.emit_vector_loops();
    if let Some(u) = g.unreachable {
        g.b.switch_to_block(u);
        let c = g.ctx();
        g.call("mc_unreachable", &[c]);
        g.b.ins().jump(err, &[]);
    }
    if let Some(u) = g.out_of_memory {
        g.b.switch_to_block(u);
        let c = g.ctx();
        g.call("mc_out_of_memory", &[c]);
        g.b.ins().jump(err, &[]);
    }
    // The error exit reports failure; every return drops the frame in one place.
    g.b.switch_to_block(err);
    let one = g.b.ins().iconst(ct::I32, abi::FAILED as i64);
    g.b.ins().jump(g.exit, &[BlockArg::Value(one)]);
    g.b.switch_to_block(g.exit);
    let status = g.b.append_block_param(g.exit, ct::I32);
    // The borrowed slots at the frame's start are not dropped.
    let n = g.b.ins().iconst(ct::I64, (g.nslots - g.borrowed) as i64);
    let owned =
        g.b.ins()
            .iadd_imm_s(g.frame, (g.borrowed * VALUE_SIZE) as i64);
    g.call("mc_frame_drop", &[owned, n]);
    g.b.ins().return_(&[status]);
    g.b.seal_all_blocks();
    let cfg = g.env.module.target_config();
    g.b.finalize(cfg);
    Ok(g.rule_sites.into_boxed_slice())
}

/// Whether `t` is a vector storing boxed values (`runtime::ArrayData::stores_boxed`).
fn boxed_storage(t: &Type, types: &ir::TypeEnv) -> bool {
    matches!(t, Type::Array(e, 1) if runtime::ArrayData::stores_boxed(e, types))
}

/// The register representation of an array type's elements, if unboxed.
fn elem_rep(t: &Type) -> Option<Rep> {
    match t {
        Type::Array(e, _) => match rep(e) {
            Rep::Boxed | Rep::Unit => None,
            r => Some(r),
        },
        _ => None,
    }
}

/// The uniform entry signature (of [`abi::Entry`]).
/// The static calls (`Invoke`s) of `f` whose native code may call their callee directly (their
/// positions here index `Meta::call_cells`): those that return (a call of type `Union{}` only
/// raises).
pub fn call_sites(f: &Function) -> Vec<Inst> {
    f.layout
        .iter()
        .flat_map(|b| f.blocks[*b].insts.iter().copied())
        .filter(|&i| {
            matches!(f.insts[i], ir::InstData::Invoke { .. })
                && f.result(i).is_some_and(|r| f.types[r] != Type::Bottom)
        })
        .collect()
}

pub fn entry_signature(module: &impl Module) -> cir::Signature {
    let mut sig = module.make_signature();
    sig.params.extend(
        <abi::Entry as HelperFn>::params()
            .into_iter()
            .map(AbiParam::new),
    );
    sig.returns.extend(
        <abi::Entry as HelperFn>::returns()
            .into_iter()
            .map(AbiParam::new),
    );
    sig
}

impl Gen<'_, '_> {
    fn rep(&self, v: Value) -> Rep {
        rep(&self.f.types[v])
    }

    fn func_ref(&mut self, name: &str) -> cir::FuncRef {
        if let Some(r) = self.refs.get(name) {
            return *r;
        }
        let id = self.env.helpers[name];
        let r = self.env.module.declare_func_in_func(id, self.b.func);
        self.refs.insert(name.to_string(), r);
        r
    }

    fn call(&mut self, name: &str, args: &[cir::Value]) -> Option<cir::Value> {
        let r = self.func_ref(name);
        let c = self.b.ins().call(r, args);
        self.b.inst_results(c).first().copied()
    }

    /// Calls helper `name` through its register-preserving trampoline; its status.
    fn call_preserving(&mut self, name: &str, args: &[cir::Value]) -> cir::Value {
        let mut a = args.to_vec();
        a.push(self.at(self.fout));
        self.call(&format!("{name}_pa"), &a);
        self.b.ins().stack_load(ct::I64, ct::I32, self.fout, 0)
    }

    /// The context pointer (loaded from the `regs` slot).
    fn ctx(&mut self) -> cir::Value {
        self.b.ins().stack_load(ct::I64, ct::I64, self.regs, 0)
    }

    /// The address of stack slot `ss`, computed where it is used: as an SSA value defined
    /// once it would live (in a register or spilled) across the whole function.
    fn at(&mut self, ss: cir::StackSlot) -> cir::Value {
        self.b.ins().stack_addr(ct::I64, ss, 0)
    }

    fn slot_addr(&mut self, v: Value) -> cir::Value {
        if let Some(&k) = self.in_args.get(&v) {
            let args = self.b.ins().stack_load(ct::I64, ct::I64, self.regs, 8);
            return self.b.ins().iadd_imm_s(args, (k * VALUE_SIZE) as i64);
        }
        if let Some(k) = self.const_value_index(v) {
            return self.const_addr(k);
        }
        let k = self.slots[&v];
        self.b
            .ins()
            .stack_addr(ct::I64, self.frame_ss, (k * VALUE_SIZE) as i32)
    }

    /// The index in `Meta::consts` of `v` if it is a boxed constant.
    fn const_value_index(&self, v: Value) -> Option<usize> {
        match self.f.values[v] {
            ir::ValueDef::Inst(i) => self.const_index.get(&i).copied(),
            ir::ValueDef::Param(..) => None,
        }
    }

    /// The address of boxed constant `k`, which lives as long as the code. Helpers only read
    /// (and clone) their operands, so constants are passed in place, never copied.
    fn const_addr(&mut self, k: usize) -> cir::Value {
        let addr = self.consts + (k * VALUE_SIZE as usize) as i64;
        self.b.ins().iconst(ct::I64, addr)
    }

    fn scratch_addr(&mut self, k: u32) -> cir::Value {
        let off = ((self.scratch + k) * VALUE_SIZE) as i32;
        self.b.ins().stack_addr(ct::I64, self.frame_ss, off)
    }

    fn unbox(&mut self, r: Rep, p: cir::Value) -> cir::Value {
        let name = match r {
            Rep::I64 => "mc_unbox_i64",
            Rep::F64 => "mc_unbox_f64",
            Rep::F32 => "mc_unbox_f32",
            Rep::Bool => "mc_unbox_bool",
            Rep::Boxed | Rep::Unit => unreachable!("boxed values are not unboxed"),
        };
        self.call(name, &[p]).unwrap_or_else(|| unreachable!())
    }

    fn box_into(&mut self, r: Rep, dst: cir::Value, x: cir::Value) {
        let name = match r {
            Rep::I64 => "mc_box_i64",
            Rep::F64 => "mc_box_f64",
            Rep::F32 => "mc_box_f32",
            Rep::Bool => "mc_box_bool",
            Rep::Boxed | Rep::Unit => unreachable!("boxed values are not boxed again"),
        };
        self.call(name, &[dst, x]);
    }

    /// A pointer to an initialised `Value` holding `v` (its slot, or scratch slot `k` boxed).
    fn value_ptr(&mut self, v: Value, k: u32) -> cir::Value {
        match self.rep(v) {
            Rep::Boxed => self.slot_addr(v),
            // Read in place: helpers only read (and clone) their operands.
            Rep::Unit => {
                let k = self.unit_index[&self.f.types[v]];
                self.const_addr(k)
            }
            r => {
                let p = self.scratch_addr(k);
                let x = self.vals[&v];
                self.box_into(r, p, x);
                p
            }
        }
    }

    /// Branches to the error exit when `status` is non-zero.
    fn check(&mut self, status: cir::Value) {
        let cont = self.b.create_block();
        self.b.ins().brif(status, self.err, &[], cont, &[]);
        self.b.switch_to_block(cont);
    }

    /// The block that reports reaching code that should be unreachable (a failed internal
    /// fast path, or an operation that should have raised and did not), shared by the whole
    /// function so that each site costs a branch, not a call.
    fn out_of_memory_exit(&mut self) -> cir::Block {
        if let Some(u) = self.out_of_memory {
            return u;
        }
        let u = self.b.create_block();
        self.b.set_cold_block(u);
        self.out_of_memory = Some(u);
        u
    }

    fn unreachable_exit(&mut self) -> cir::Block {
        if let Some(u) = self.unreachable {
            return u;
        }
        let u = self.b.create_block();
        self.b.set_cold_block(u);
        self.unreachable = Some(u);
        u
    }

    /// After a fast-path helper returned `st`: its register result (`fast` reads it) if `OK`,
    /// else instruction `i`'s through the generic path (in a cold block).
    fn reg_unless_ok(
        &mut self,
        i: Inst,
        st: cir::Value,
        rr: Rep,
        fast: impl FnOnce(&mut Self) -> cir::Value,
    ) -> Result<cir::Value, String> {
        let fast_block = self.b.create_block();
        let slow = self.b.create_block();
        self.b.set_cold_block(slow);
        let join = self.b.create_block();
        let jv = self.b.append_block_param(join, cl_type(rr));
        self.b.ins().brif(st, slow, &[], fast_block, &[]);
        self.b.switch_to_block(fast_block);
        let v = fast(self);
        self.b.ins().jump(join, &[BlockArg::Value(v)]);
        self.b.switch_to_block(slow);
        let v = self.generic(i).ok_or("a register result without a value")?;
        self.b.ins().jump(join, &[BlockArg::Value(v)]);
        self.b.switch_to_block(join);
        Ok(jv)
    }

    /// After a fast-path helper returned `st`: unless it is `OK`, runs instruction `i` through
    /// the generic path (in a cold block) and rejoins. For instructions whose result, if any,
    /// lives in a frame slot.
    /// Calls fallible helper `name` on `args`: where it returns non-zero, instruction `i`
    /// runs through the generic path instead (see `fallback_unless_ok`).
    /// Primitive `op` of instruction `i` with result `r` by a helper taking (context, the
    /// primitive's number, bitwise copies of the operands, their count, the result's slot)
    /// (`mc_prim_direct`, `mc_ad_direct`); its failure takes the evaluated path.
    fn direct(&mut self, i: Inst, op: ir::Prim, args: &[Value], r: Value, helper: &str) {
        let buf = self.operand_copies(args);
        let ctx = self.ctx();
        let code = ir::Prim::ALL.iter().position(|p| *p == op).unwrap_or(0);
        let code = self.b.ins().iconst(ct::I64, code as i64);
        let n = self.b.ins().iconst(ct::I64, args.len() as i64);
        let out = self.slot_addr(r);
        self.call_or_fallback(i, helper, &[ctx, code, buf, n, out]);
    }

    fn call_or_fallback(&mut self, i: Inst, name: &str, args: &[cir::Value]) {
        let st = self.call(name, args).unwrap_or_else(|| unreachable!());
        self.fallback_unless_ok(i, st);
    }

    fn fallback_unless_ok(&mut self, i: Inst, st: cir::Value) {
        self.fallback_unless_ok_then(i, st, |_| {});
    }

    /// Unless status `st` is `OK`, instruction `i` the generic way (in a cold block), then
    /// `after` there.
    fn fallback_unless_ok_then(&mut self, i: Inst, st: cir::Value, after: impl FnOnce(&mut Self)) {
        let slow = self.b.create_block();
        self.b.set_cold_block(slow);
        let join = self.b.create_block();
        self.b.ins().brif(st, slow, &[], join, &[]);
        self.b.switch_to_block(slow);
        self.generic(i);
        after(self);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
    }
}
