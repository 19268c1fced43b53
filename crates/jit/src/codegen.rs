//! Lowering of one typed IR function to Cranelift IR (calling convention: see `abi`).
//!
//! Values of type `Int64`, `Float64`, `Float32` and `Bool` are Cranelift values (`i64`, `f64`,
//! `f32`, `i8` holding 0 or 1) and IR block parameters of those types are Cranelift block
//! parameters. Every other value has a frame slot. Scalar primitives become Cranelift
//! instructions (or calls of the shared `extern "C"` math functions), array reads, writes and
//! lengths on unboxed element arrays call fast-path helpers, and every other instruction runs
//! through the interpreter's `eval_inst` (`abi::mc_eval`), so both backends share semantics
//! and error messages by construction.

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

/// The helpers native code calls: symbol name, address, parameter and result types.
pub struct Helper {
    pub name: String,
    pub addr: *const u8,
    pub params: Vec<ct::Type>,
    pub returns: Vec<ct::Type>,
}

/// A Rust type that crosses the native-code boundary as one Cranelift value.
pub trait AbiType {
    const CLIF: ct::Type;
}

macro_rules! abi_types {
    ($($t:ty => $c:ident),* $(,)?) => {
        $(impl AbiType for $t {
            const CLIF: ct::Type = ct::$c;
        })*
    };
}

abi_types! {
    i64 => I64, u64 => I64, usize => I64, isize => I64,
    i32 => I32, u32 => I32, u8 => I8, i8 => I8,
    f64 => F64, f32 => F32,
}

impl<T> AbiType for *const T {
    const CLIF: ct::Type = ct::I64;
}

impl<T> AbiType for *mut T {
    const CLIF: ct::Type = ct::I64;
}

/// What a helper returns: nothing or one value.
pub trait AbiReturn {
    fn clif() -> Vec<ct::Type>;
}

impl AbiReturn for () {
    fn clif() -> Vec<ct::Type> {
        Vec::new()
    }
}

impl<T: AbiType> AbiReturn for T {
    fn clif() -> Vec<ct::Type> {
        vec![T::CLIF]
    }
}

/// An `extern "C"` function pointer: its address and the Cranelift signature its Rust
/// signature implies, so a helper's declaration in native code cannot disagree with its
/// definition.
pub trait HelperFn: Copy {
    fn addr(self) -> *const u8;
    fn params() -> Vec<ct::Type>;
    fn returns() -> Vec<ct::Type>;
}

macro_rules! helper_fns {
    ($($a:ident)*) => {
        helper_fns!(@impl [$($a)*] unsafe extern "C" fn($($a),*) -> R);
        helper_fns!(@impl [$($a)*] extern "C" fn($($a),*) -> R);
    };
    (@impl [$($a:ident)*] $fn_ty:ty) => {
        impl<R: AbiReturn, $($a: AbiType),*> HelperFn for $fn_ty {
            fn addr(self) -> *const u8 {
                self as *const u8
            }
            fn params() -> Vec<ct::Type> {
                vec![$($a::CLIF),*]
            }
            fn returns() -> Vec<ct::Type> {
                R::clif()
            }
        }
    };
}

helper_fns!();
helper_fns!(A);
helper_fns!(A B);
helper_fns!(A B C);
helper_fns!(A B C D);
helper_fns!(A B C D E);
helper_fns!(A B C D E F);
helper_fns!(A B C D E F G);

impl Helper {
    /// The helper `f` under the symbol `name`, its signature taken from its type.
    pub fn new<F: HelperFn>(name: &str, f: F) -> Helper {
        Helper {
            name: name.to_string(),
            addr: f.addr(),
            params: F::params(),
            returns: F::returns(),
        }
    }
}

/// A helper of `abi` under its own name: `helper!(mc_clone(_, _))` (one `_` per parameter;
/// the types come from the function's definition).
macro_rules! helper {
    ($f:ident($($p:tt),*)) => {
        Helper::new(stringify!($f), abi::$f as unsafe extern "C" fn($($p),*) -> _)
    };
}

/// Helpers also available as register-preserving trampolines (`NAME_pa`; see
/// `define_trampoline`): the slow paths that rejoin a loop.
pub const PRESERVING: &[&str] = &["mc_push_i64", "mc_push_f64", "mc_push_bytes"];

/// Every helper, by name (registered with the JIT builder and declared in the module once).
pub fn helpers() -> Vec<Helper> {
    type Powi64 = extern "C" fn(f64, i64) -> f64;
    type Powi32 = extern "C" fn(f32, i64) -> f32;
    let mut v = vec![
        helper!(mc_frame_init(_, _)),
        helper!(mc_frame_drop(_, _)),
        helper!(mc_clone(_, _)),
        helper!(mc_box_i64(_, _)),
        helper!(mc_box_f64(_, _)),
        helper!(mc_box_f32(_, _)),
        helper!(mc_box_bool(_, _)),
        helper!(mc_unbox_i64(_)),
        helper!(mc_unbox_f64(_)),
        helper!(mc_unbox_f32(_)),
        helper!(mc_unbox_bool(_)),
        helper!(mc_eval(_, _, _, _, _)),
        helper!(mc_const(_, _, _)),
        helper!(mc_unreachable(_)),
        helper!(mc_out_of_memory(_)),
        helper!(mc_arraylen(_)),
        helper!(mc_tuple(_, _, _, _)),
        helper!(mc_sincos_f64(_, _)),
        helper!(mc_getfield(_, _, _)),
        helper!(mc_push_value(_, _)),
        helper!(mc_pop_value(_, _)),
        helper!(mc_rule_stack(_, _, _, _, _, _, _)),
        helper!(mc_rule_stacks(_, _, _, _, _)),
        helper!(mc_array_obj(_)),
        helper!(mc_push_i64(_, _)),
        helper!(mc_push_f64(_, _)),
        helper!(mc_push_bytes(_, _, _)),
        Helper::new("mc_powi_f64", ir::fold::cmath::powi64 as Powi64),
        Helper::new("mc_powi_f32", ir::fold::cmath::powi32 as Powi32),
    ];
    for op in Prim::ALL {
        if let Some((a, b)) = ir::fold::cmath::unary(*op) {
            v.push(Helper::new(&format!("mc_{}_f64", op.name()), a));
            v.push(Helper::new(&format!("mc_{}_f32", op.name()), b));
        }
        if let Some((a, b)) = ir::fold::cmath::binary(*op) {
            v.push(Helper::new(&format!("mc_{}_f64", op.name()), a));
            v.push(Helper::new(&format!("mc_{}_f32", op.name()), b));
        }
    }
    v
}

/// What lowering needs from the engine: the module and its declared helpers.
pub struct Env<'a> {
    pub module: &'a mut cranelift_jit::JITModule,
    pub helpers: &'a FxHashMap<String, FuncId>,
    pub types: &'a ir::TypeEnv,
}

/// A tuple of register values stored as bytes (the element layout of a vector of such
/// tuples): its size and each element's offset.
#[derive(Clone)]
struct Packed {
    size: u32,
    offsets: Vec<u32>,
}

/// The boxed constants of `f`: the values of its boxed `Const` instructions and of its tuples
/// of singletons (built once, not per execution), then one value per singleton type.
pub fn boxed_consts(f: &Function) -> Consts {
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
    // One constant per singleton type of the function's values.
    for (v, _) in f.values.iter() {
        let t = &f.types[v];
        if rep(t) == Rep::Unit && !units.contains_key(t) {
            if let Some(c) = Const::of_singleton(t) {
                units.insert(t.clone(), vals.len());
                vals.push(runtime::Value::from_const(&c));
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
    /// The arrays whose views may change while the function runs (`None`: any array's),
    /// see `changing_arrays`; loads from the others' views are read-only, so Cranelift may
    /// hoist them out of loops.
    changing: Option<FxHashSet<Value>>,
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
    /// (the grouped rule stacks): the frame's drop leaves them alone.
    borrowed: u32,
    /// For a function returning a tuple type, which fields the code writes into the
    /// caller's values (see [`returned_fields`]); `None`: the code returns one value.
    ret_fields: Option<Vec<bool>>,
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
    let borrowed = nslots;
    // Results nobody reads (the vectors `push!` returns, mostly) share one slot.
    let mut sink = None;
    for &b in &order {
        for &p in &f.blocks[b].params {
            if rep(&f.types[p]) == Rep::Boxed && !in_args.contains_key(&p) {
                slots.insert(p, nslots);
                nslots += 1;
            }
        }
        for &i in &f.blocks[b].insts {
            if let Some(r) = f.result(i) {
                // Boxed constants are read where they are, in `Meta::consts`.
                if rep(&f.types[r]) == Rep::Boxed
                    && !const_index.contains_key(&i)
                    && !rule_group.contains_key(&i)
                {
                    let k = if used.contains(&r) {
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
    let (fused, packed_pops) = packing(f, &order, env.types);

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
        loops: ir::dominators::natural_loops(f)
            .into_iter()
            .map(|(_, body)| body)
            .collect(),
        in_args,
        trig_buf: trig_ss,
        arr_obj: FxHashMap::default(),
        changing: ir::bounds::changing_arrays(f, &order),
        inbounds: ir::bounds::inbounds_accesses(f),
        rule_group,
        rule_sites: rule_sites.into_iter().map(|(site, _)| site).collect(),
        rule_objs: None,
        borrowed,
        returned_only: FxHashSet::default(),
        ret_fields: returned_fields(f).map(|ts| ts.iter().map(|t| rep(t) != Rep::Unit).collect()),
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

impl Gen<'_, '_> {
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

    fn rep(&self, v: Value) -> Rep {
        rep(&self.f.types[v])
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

    /// The instruction through `eval_inst`: its result, if a register value.
    fn generic(&mut self, i: Inst) -> Option<cir::Value> {
        // An instruction of type `Union{}` (a `throw`) never returns: what follows it is dead,
        // emitted into a block nothing reaches.
        if self
            .f
            .result(i)
            .is_some_and(|r| self.f.types[r] == Type::Bottom)
        {
            self.generic_raising(i);
            let dead = self.b.create_block();
            self.b.switch_to_block(dead);
            return None;
        }
        let (st, rr) = self.eval_call(i);
        self.check(st);
        let r = rr.filter(|r| is_reg(*r))?;
        Some(self.b.ins().stack_load(ct::I64, cl_type(r), self.fout, 0))
    }

    /// The instruction through `eval_inst` where it can only raise (an access out of bounds,
    /// a pop from an empty vector): leaves through the error exit, never rejoining (so values
    /// in registers need not survive the call); `eval_inst` returning normally is an internal
    /// error.
    fn generic_raising(&mut self, i: Inst) {
        let (st, _) = self.eval_call(i);
        let fail = self.unreachable_exit();
        self.b.ins().brif(st, self.err, &[], fail, &[]);
    }

    /// Stores the operands of `i` in `argv` as words: register values themselves, any other
    /// by address (see `abi::mc_eval`).
    fn store_operands(&mut self, i: Inst) {
        let args = self.f.insts[i].args();
        for (k, a) in args.iter().enumerate() {
            let w = match self.rep(*a) {
                Rep::Boxed | Rep::Unit => self.value_ptr(*a, 0),
                _ => self.vals[a],
            };
            self.b
                .ins()
                .stack_store(ct::I64, w, self.argv, (8 * k) as i32);
        }
    }

    /// Calls `mc_eval` on instruction `i` (operands as words in `argv`: register values
    /// themselves, others by address); its status, and the representation of its result. A
    /// register result is left in the `fout` slot, any other in its frame slot.
    fn eval_call(&mut self, i: Inst) -> (cir::Value, Option<Rep>) {
        self.store_operands(i);
        let res = self.f.result(i);
        let rr = res.map(|r| self.rep(r));
        let out = match (res, rr) {
            (Some(r), Some(Rep::Boxed)) => self.slot_addr(r),
            (Some(_), Some(Rep::Unit)) => self.scratch_addr(0),
            (Some(_), Some(_)) => self.at(self.fout),
            _ => self.b.ins().iconst(ct::I64, 0),
        };
        let ctx = self.ctx();
        let meta = self.b.ins().iconst(ct::I64, self.meta);
        let inst = self.b.ins().iconst(ct::I32, i.as_u32() as i64);
        let argv = self.at(self.argv);
        let st = self
            .call("mc_eval", &[ctx, meta, inst, argv, out])
            .unwrap_or_else(|| unreachable!());
        (st, rr)
    }

    fn inst(&mut self, i: Inst) -> Result<(), String> {
        let f = self.f;
        let res = f.result(i);
        match &f.insts[i] {
            InstData::Const(c) => {
                let r = res.ok_or("a constant without a result")?;
                let v = match (c, self.rep(r)) {
                    (Const::Int(x), Rep::I64) => self.b.ins().iconst(ct::I64, *x),
                    (Const::F64(x), Rep::F64) => self.b.ins().f64const(*x),
                    (Const::F32(x), Rep::F32) => self.b.ins().f32const(*x),
                    (Const::Bool(x), Rep::Bool) => self.b.ins().iconst(ct::I8, *x as i64),
                    // Read in place where used (`slot_addr`, `value_ptr`).
                    (_, Rep::Unit | Rep::Boxed) => return Ok(()),
                    (c, r) => return Err(format!("constant {c:?} of representation {r:?}")),
                };
                self.vals.insert(r, v);
            }
            InstData::Prim { op, args } => {
                if let Some(v) = self.prim(i, *op, args)? {
                    if let Some(r) = res {
                        self.vals.insert(r, v);
                    }
                }
            }
            InstData::Tuple { .. } if res.is_some_and(|r| self.fused.contains_key(&r)) => {}
            InstData::GetField {
                obj,
                field: ir::FieldRef::Index(k),
            } if self.packed.contains_key(obj) => {
                let (p, addr) = self.packed[obj].clone();
                let r = res.ok_or("a field read without a result")?;
                let off = p.offsets[*k as usize] as i32;
                let ty = cl_type(self.rep(r));
                let v = self.b.ins().load(ty, MemFlagsData::trusted(), addr, off);
                self.vals.insert(r, v);
            }
            // A constant tuple is read in place where used, as other boxed constants.
            InstData::Tuple { .. } if self.const_index.contains_key(&i) => {}
            // Its fields go straight into the caller's values at the return.
            InstData::Tuple { .. }
                if self.ret_fields.is_some()
                    && res.is_some_and(|r| self.returned_only.contains(&r)) => {}
            InstData::Tuple { .. } if res.is_some_and(|r| self.rep(r) == Rep::Boxed) => {
                let r = res.unwrap_or_else(|| unreachable!());
                self.store_operands(i);
                // A tuple only returned is built in the caller's return slot.
                let out = if self.returned_only.contains(&r) {
                    self.b.ins().stack_load(ct::I64, ct::I64, self.regs, 16)
                } else {
                    self.slot_addr(r)
                };
                let meta = self.b.ins().iconst(ct::I64, self.meta);
                let inst = self.b.ins().iconst(ct::I32, i.as_u32() as i64);
                let argv = self.at(self.argv);
                self.call("mc_tuple", &[meta, inst, argv, out]);
            }
            InstData::GetField {
                obj,
                field: ir::FieldRef::Index(k),
            } if self.rep(*obj) == Rep::Boxed
                && res.is_some_and(|r| self.rep(r) != Rep::Unit)
                && matches!(f.types[*obj], Type::Tuple(_) | Type::Struct(..))
                && !self.env.types.is_mutable(&f.types[*obj]) =>
            {
                let r = res.unwrap_or_else(|| unreachable!());
                let rr = self.rep(r);
                let o = self.slot_addr(*obj);
                let kv = self.b.ins().iconst(ct::I64, *k as i64);
                let out = if rr == Rep::Boxed {
                    self.slot_addr(r)
                } else {
                    self.scratch_addr(0)
                };
                let st = self
                    .call("mc_getfield", &[o, kv, out])
                    .unwrap_or_else(|| unreachable!());
                let fast = self.b.create_block();
                let slow = self.b.create_block();
                self.b.set_cold_block(slow);
                let join = self.b.create_block();
                self.b.ins().brif(st, slow, &[], fast, &[]);
                self.b.switch_to_block(fast);
                if is_reg(rr) {
                    let jv = self.b.append_block_param(join, cl_type(rr));
                    let v = self.unbox(rr, out);
                    self.b.ins().jump(join, &[BlockArg::Value(v)]);
                    self.b.switch_to_block(slow);
                    let v = self
                        .generic(i)
                        .ok_or("a register field read without a value")?;
                    self.b.ins().jump(join, &[BlockArg::Value(v)]);
                    self.vals.insert(r, jv);
                } else {
                    self.b.ins().jump(join, &[]);
                    self.b.switch_to_block(slow);
                    self.generic(i);
                    self.b.ins().jump(join, &[]);
                }
                self.b.switch_to_block(join);
            }
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
            | InstData::SetSlot(..) => {
                if let (Some(v), Some(r)) = (self.generic(i), res) {
                    self.vals.insert(r, v);
                }
            }
            InstData::Jump { dest, args } => {
                self.edge(*dest, args);
            }
            InstData::Branch {
                cond,
                then_dest,
                then_args,
                else_dest,
                else_args,
            } => {
                let c = self.vals[cond];
                // Cranelift lays blocks out in a reverse postorder that visits a branch's first
                // target first, which places that target's blocks after the second's. A loop
                // whose exit is the second target would have the exit path (with its calls)
                // laid out inside the loop, ending live ranges there and spilling values that
                // live across the loop: the exit goes first.
                let b = self.cur;
                let exits = self.loops.iter().any(|body| {
                    body.contains(&b) && body.contains(then_dest) && !body.contains(else_dest)
                });
                let (c, first, second) = if exits {
                    let nc = self.b.ins().icmp_imm_s(IntCC::Equal, c, 0);
                    (nc, (*else_dest, else_args), (*then_dest, then_args))
                } else {
                    (c, (*then_dest, then_args), (*else_dest, else_args))
                };
                // An edge that only passes register values branches straight to its block;
                // one with code of its own (frame slot copies, boxing) gets a block for it.
                // (Not a loop's exit that passes values: there, a block of its own for the
                // moves gave the register allocator a better allocation of the loop — the
                // naive matrix multiply's inner loop ran 15% slower without it.)
                let direct = |g: &Self, (d, a): (Block, &Vec<Value>)| {
                    let leaves = g.loops.iter().any(|l| l.contains(&b) && !l.contains(&d));
                    g.register_args(d, a)
                        .filter(|args| args.is_empty() || !leaves)
                        .map(|args| (g.blocks[&d], args))
                };
                let same = first.0 == second.0;
                let (t, t_args) = match direct(self, first).filter(|_| !same) {
                    Some(x) => (x, true),
                    None => ((self.b.create_block(), Vec::new()), false),
                };
                let (e, e_args) = match direct(self, second).filter(|_| !same) {
                    Some(x) => (x, true),
                    None => ((self.b.create_block(), Vec::new()), false),
                };
                self.b.ins().brif(c, t.0, &t.1, e.0, &e.1);
                if !t_args {
                    self.b.switch_to_block(t.0);
                    self.edge(first.0, first.1);
                }
                if !e_args {
                    self.b.switch_to_block(e.0);
                    self.edge(second.0, second.1);
                }
            }
            InstData::Return(v) if self.ret_fields.is_some() => {
                self.return_fields(*v);
                let z = self.b.ins().iconst(ct::I32, abi::OK as i64);
                self.b.ins().jump(self.exit, &[BlockArg::Value(z)]);
            }
            InstData::Return(v) => {
                let ret = self.b.ins().stack_load(ct::I64, ct::I64, self.regs, 16);
                match self.rep(*v) {
                    // Built in place (see `returned_only`).
                    Rep::Boxed if self.returned_only.contains(v) => {}
                    Rep::Boxed => {
                        let s = self.slot_addr(*v);
                        self.call("mc_clone", &[ret, s]);
                    }
                    Rep::Unit => self.materialize(*v, ret),
                    r => {
                        let x = self.vals[v];
                        self.box_into(r, ret, x);
                    }
                }
                let z = self.b.ins().iconst(ct::I32, abi::OK as i64);
                self.b.ins().jump(self.exit, &[BlockArg::Value(z)]);
            }
            InstData::Unreachable => {
                let fail = self.unreachable_exit();
                self.b.ins().jump(fail, &[]);
            }
        }
        Ok(())
    }

    /// A control-flow edge to `dest` with `args`: boxed arguments are copied into the
    /// parameters' slots (through scratch when a source is itself overwritten), register
    /// arguments are passed as block arguments.
    /// The block arguments of an edge to `dest` when they are all register values (or
    /// singletons, which pass nothing), so that the edge needs no code of its own.
    fn register_args(&self, dest: Block, args: &[Value]) -> Option<Vec<BlockArg>> {
        let params = &self.f.blocks[dest].params;
        let mut out = Vec::new();
        for (p, a) in params.iter().zip(args) {
            match (self.rep(*p), self.rep(*a)) {
                (Rep::Unit, _) => {}
                // The same frame slot on both sides: nothing to copy.
                (Rep::Boxed, Rep::Boxed) if p == a => {}
                (Rep::Boxed, _) => return None,
                // An undefined value (read only behind a definedness check) into a register.
                _ if self.f.types[*a] == Type::Bottom => return None,
                _ => out.push(BlockArg::Value(self.vals[a])),
            }
        }
        Some(out)
    }

    fn edge(&mut self, dest: Block, args: &[Value]) {
        let params = self.f.blocks[dest].params.clone();
        let mut copies = Vec::new();
        let mut boxes = Vec::new();
        let mut units = Vec::new();
        let mut native = Vec::new();
        for (p, a) in params.iter().zip(args) {
            match (self.rep(*p), self.rep(*a)) {
                (Rep::Boxed, Rep::Boxed) => {
                    if p != a {
                        copies.push((*p, *a));
                    }
                }
                // A singleton into a union-typed parameter.
                (Rep::Boxed, Rep::Unit) => units.push((*p, *a)),
                // A register value into a union-typed parameter.
                (Rep::Boxed, r) => boxes.push((*p, r, self.vals[a])),
                (Rep::Unit, _) => {}
                // An undefined value (a variable not assigned on this path, read only behind a
                // definedness check): any bits of the parameter's register type.
                (r, _) if self.f.types[*a] == Type::Bottom => {
                    let zero = match r {
                        Rep::F64 => self.b.ins().f64const(0.0),
                        Rep::F32 => self.b.ins().f32const(0.0),
                        r => self.b.ins().iconst(cl_type(r), 0),
                    };
                    native.push(BlockArg::Value(zero));
                }
                _ => native.push(BlockArg::Value(self.vals[a])),
            }
        }
        let dests: FxHashSet<Value> = copies.iter().map(|(p, _)| *p).collect();
        let overlap = copies.iter().any(|(_, a)| dests.contains(a));
        if overlap {
            for (k, (_, a)) in copies.iter().enumerate() {
                let s = self.scratch_addr(k as u32);
                let src = self.slot_addr(*a);
                self.call("mc_clone", &[s, src]);
            }
            for (k, (p, _)) in copies.iter().enumerate() {
                let s = self.scratch_addr(k as u32);
                let dst = self.slot_addr(*p);
                self.call("mc_clone", &[dst, s]);
            }
        } else {
            for (p, a) in &copies {
                let src = self.slot_addr(*a);
                let dst = self.slot_addr(*p);
                self.call("mc_clone", &[dst, src]);
            }
        }
        for (p, r, x) in boxes {
            let dst = self.slot_addr(p);
            self.box_into(r, dst, x);
        }
        for (p, a) in units {
            let dst = self.slot_addr(p);
            self.materialize(a, dst);
        }
        let cb = self.blocks[&dest];
        self.b.ins().jump(cb, &native);
    }

    /// A primitive: native code where the operands are registers, fast paths for arrays of
    /// unboxed elements, else `eval_inst`.
    fn prim(&mut self, i: Inst, op: Prim, args: &[Value]) -> Result<Option<cir::Value>, String> {
        let f = self.f;
        let res = f.result(i);
        let rr = res.map(|r| self.rep(r));
        let reps: Vec<Rep> = args.iter().map(|a| self.rep(*a)).collect();
        let all_native = reps.iter().all(|r| is_reg(*r));
        let x = |g: &Self, k: usize| g.vals[&args[k]];
        // The second of a sine/cosine pair: computed with the first.
        if let Some(v) = res.and_then(|r| self.vals.get(&r)) {
            return Ok(Some(*v));
        }
        if let Some(&(s, c)) = self.trig_pairs.get(&i) {
            let a = x(self, 0);
            let buf = self.at(self.trig_buf);
            self.call("mc_sincos_f64", &[a, buf]);
            let sv = self.b.ins().stack_load(ct::I64, ct::F64, self.trig_buf, 0);
            let cv = self.b.ins().stack_load(ct::I64, ct::F64, self.trig_buf, 8);
            self.vals.insert(s, sv);
            self.vals.insert(c, cv);
            return Ok(Some(if op == Prim::Sin { sv } else { cv }));
        }
        if all_native && rr.is_some_and(is_reg) {
            if let Some(v) = self.native_prim(op, args, &reps) {
                return Ok(Some(v));
            }
        }
        use Prim::*;
        match op {
            Sitofp if reps.len() == 2 && reps[1] == Rep::I64 => {
                if let Some(t @ (Rep::F64 | Rep::F32)) = rr {
                    let a1 = x(self, 1);
                    let v = self.b.ins().fcvt_from_sint(cl_type(t), a1);
                    return Ok(Some(v));
                }
            }
            Fpconvert if reps.len() == 2 => match (rr, reps[1]) {
                (Some(Rep::F64), Rep::F32) => {
                    let a1 = x(self, 1);
                    return Ok(Some(self.b.ins().fpromote(ct::F64, a1)));
                }
                (Some(Rep::F32), Rep::F64) => {
                    let a1 = x(self, 1);
                    return Ok(Some(self.b.ins().fdemote(ct::F32, a1)));
                }
                (Some(a), b) if a == b && is_reg(a) => return Ok(Some(x(self, 1))),
                _ => {}
            },
            RuleStack if self.rule_group.contains_key(&i) => {
                let r = res.ok_or("rule_stack without a result")?;
                let j = self.rule_group[&i];
                let objs = self
                    .rule_objs
                    .ok_or("grouped rule stacks without a buffer")?;
                // The first of the group fetches them all.
                if j == 0 {
                    let ctx = self.ctx();
                    let meta = self.b.ins().iconst(ct::I64, self.meta);
                    let st = self.slot_addr(args[0]);
                    let frame = self.at(self.frame_ss);
                    let out = self.at(objs);
                    let failed = self
                        .call("mc_rule_stacks", &[ctx, meta, st, frame, out])
                        .unwrap_or_else(|| unreachable!());
                    self.check(failed);
                }
                if self.tracks_array(r) {
                    let o = self
                        .b
                        .ins()
                        .stack_load(ct::I64, ct::I64, objs, (8 * j) as i32);
                    self.arr_obj.insert(r, o);
                }
                return Ok(None);
            }
            RuleStack if reps.len() == 3 && reps[0] == Rep::Boxed && reps[1] == Rep::I64 => {
                let r = res.ok_or("rule_stack without a result")?;
                let st = self.slot_addr(args[0]);
                let k = x(self, 1);
                let ty = self.value_ptr(args[2], 0);
                let out = self.slot_addr(r);
                let ctx = self.ctx();
                let meta = self.b.ins().iconst(ct::I64, self.meta);
                let inst = self.b.ins().iconst(ct::I32, i.as_u32() as i64);
                let o = self
                    .call("mc_rule_stack", &[ctx, meta, inst, st, k, ty, out])
                    .unwrap_or_else(|| unreachable!());
                let failed = self.b.ins().icmp_imm_s(IntCC::Equal, o, 0);
                self.check(failed);
                // The stack's object comes with it: no `mc_array_obj` call for it.
                if self.tracks_array(r) {
                    self.arr_obj.insert(r, o);
                }
                return Ok(None);
            }
            ArrayLen if self.arr_obj.contains_key(&args[0]) => {
                let o = self.arr_obj[&args[0]];
                let fl = self.view_flags(args[0]);
                let v = self
                    .b
                    .ins()
                    .load(ct::I64, fl, o, runtime::value::ArrayView::LEN);
                return Ok(Some(v));
            }
            // `size(A, d)` with a constant d, of a vector or matrix: the view's extents.
            ArraySize
                if self.arr_obj.contains_key(&args[0])
                    && matches!(f.types[args[0]], Type::Array(_, 1 | 2))
                    && matches!(f.const_value(args[1]), Some(Const::Int(d)) if *d >= 1) =>
            {
                let Some(Const::Int(d)) = f.const_value(args[1]) else {
                    unreachable!()
                };
                let nd = match f.types[args[0]] {
                    Type::Array(_, n) => n,
                    _ => unreachable!(),
                };
                let o = self.arr_obj[&args[0]];
                let fl = self.view_flags(args[0]);
                let v = match (*d, nd) {
                    (1, _) => self
                        .b
                        .ins()
                        .load(ct::I64, fl, o, runtime::value::ArrayView::D1),
                    (2, 2) => self
                        .b
                        .ins()
                        .load(ct::I64, fl, o, runtime::value::ArrayView::D2),
                    _ => self.b.ins().iconst(ct::I64, 1),
                };
                return Ok(Some(v));
            }
            ArrayRef
                if (args.len() == 2 || args.len() == 3)
                    && self.arr_obj.contains_key(&args[0])
                    && reps[1..].iter().all(|r| *r == Rep::I64)
                    && matches!(rr, Some(Rep::F64 | Rep::I64)) =>
            {
                let r = rr.unwrap_or(Rep::F64);
                let o = self.arr_obj[&args[0]];
                let idx: Vec<cir::Value> = (1..args.len()).map(|k| x(self, k)).collect();
                let fl = self.view_flags(args[0]);
                let addr = self.checked_elem(i, o, &idx, fl);
                let v = self
                    .b
                    .ins()
                    .load(cl_type(r), MemFlagsData::trusted(), addr, 0);
                return Ok(Some(v));
            }
            ArraySet
                if (args.len() == 3 || args.len() == 4)
                    && self.arr_obj.contains_key(&args[0])
                    && reps[2..].iter().all(|r| *r == Rep::I64)
                    && elem_rep(&f.types[args[0]]) == Some(reps[1]) =>
            {
                let o = self.arr_obj[&args[0]];
                let idx: Vec<cir::Value> = (2..args.len()).map(|k| x(self, k)).collect();
                let fl = self.view_flags(args[0]);
                let addr = self.checked_elem(i, o, &idx, fl);
                let v = x(self, 1);
                self.b.ins().store(MemFlagsData::trusted(), v, addr, 0);
                self.array_result(res, args[0]);
                return Ok(None);
            }
            ArrayLen if reps.len() == 1 && reps[0] == Rep::Boxed => {
                let p = self.slot_addr(args[0]);
                return Ok(self.call("mc_arraylen", &[p]));
            }
            ArrayPush if reps[0] == Rep::Boxed && self.fused.contains_key(&args[1]) => {
                let p = self.fused[&args[1]].clone();
                let tup = f
                    .def_inst(args[1])
                    .ok_or("a fused tuple without a definition")?;
                let elems = f.insts[tup].args();
                let vals: Vec<cir::Value> = elems.iter().map(|e| self.vals[e]).collect();
                let join = self.b.create_block();
                if let Some(o) = self.arr_obj.get(&args[0]).copied() {
                    let helper = self.stack_push(
                        o,
                        p.size,
                        |g, addr| {
                            for (v, off) in vals.iter().zip(&p.offsets) {
                                g.b.ins()
                                    .store(MemFlagsData::trusted(), *v, addr, *off as i32);
                            }
                        },
                        join,
                    );
                    self.b.switch_to_block(helper);
                }
                for (v, off) in vals.iter().zip(&p.offsets) {
                    self.b
                        .ins()
                        .stack_store(ct::I64, *v, self.pack_buf, *off as i32);
                }
                let a = self.slot_addr(args[0]);
                let size = self.b.ins().iconst(ct::I64, p.size as i64);
                let buf = self.at(self.pack_buf);
                let st = self.call_preserving("mc_push_bytes", &[a, buf, size]);
                // A vector of isbits tuples always stores bytes: it fails only for want of
                // memory.
                let fail = self.out_of_memory_exit();
                self.b.ins().brif(st, fail, &[], join, &[]);
                self.b.switch_to_block(join);
                self.array_result(res, args[0]);
                return Ok(None);
            }
            ArrayPush
                if reps[0] == Rep::Boxed
                    && matches!(reps[1], Rep::F64 | Rep::I64)
                    && elem_rep(&f.types[args[0]]) == Some(reps[1]) =>
            {
                let xv = x(self, 1);
                let join = self.b.create_block();
                if let Some(o) = self.arr_obj.get(&args[0]).copied() {
                    let helper = self.stack_push(
                        o,
                        8,
                        |g, addr| {
                            g.b.ins().store(MemFlagsData::trusted(), xv, addr, 0);
                        },
                        join,
                    );
                    self.b.switch_to_block(helper);
                }
                let helper = if reps[1] == Rep::F64 {
                    "mc_push_f64"
                } else {
                    "mc_push_i64"
                };
                let a = self.slot_addr(args[0]);
                let st = self.call_preserving(helper, &[a, xv]);
                // A vector of floats or integers stores them unboxed: it fails only for want
                // of memory, or because it shares its memory; the generic path raises.
                let fail = self.b.create_block();
                self.b.set_cold_block(fail);
                self.b.ins().brif(st, fail, &[], join, &[]);
                self.b.switch_to_block(fail);
                self.generic_raising(i);
                self.b.switch_to_block(join);
                self.array_result(res, args[0]);
                return Ok(None);
            }
            ArrayPop if res.is_some_and(|r| self.packed.contains_key(&r)) => {
                let r = res.unwrap_or_else(|| unreachable!());
                let (p, buf) = self.packed[&r].clone();
                let Type::Tuple(ts) = f.types[r].clone() else {
                    return Err("a packed value that is not a tuple".into());
                };
                // Every vector of register tuples has its object fetched (`track_array`).
                let o = *self
                    .arr_obj
                    .get(&args[0])
                    .ok_or("a popped tuple whose vector has no array object")?;
                let join = self.b.create_block();
                {
                    let helper = self.stack_pop(
                        o,
                        p.size,
                        |g, addr| {
                            for (t, off) in ts.iter().zip(&p.offsets) {
                                let ty = cl_type(rep(t));
                                let fl = MemFlagsData::trusted();
                                let v = g.b.ins().load(ty, fl, addr, *off as i32);
                                g.b.ins().store(fl, v, buf, *off as i32);
                            }
                            vec![]
                        },
                        join,
                    );
                    // An empty vector: raise the error, never rejoining (no spills).
                    self.b.switch_to_block(helper);
                    self.generic_raising(i);
                    self.b.switch_to_block(join);
                    return Ok(None);
                }
            }
            ArrayPop
                if self.arr_obj.contains_key(&args[0])
                    && matches!(rr, Some(Rep::F64 | Rep::I64))
                    && elem_rep(&f.types[args[0]]) == rr =>
            {
                let r = rr.unwrap_or(Rep::F64);
                let join = self.b.create_block();
                let jv = self.b.append_block_param(join, cl_type(r));
                let o = self.arr_obj[&args[0]];
                {
                    let helper = self.stack_pop(
                        o,
                        8,
                        |g, addr| {
                            vec![g.b.ins().load(cl_type(r), MemFlagsData::trusted(), addr, 0)]
                        },
                        join,
                    );
                    // An empty vector: raise the error, never rejoining (no spills).
                    self.b.switch_to_block(helper);
                    self.generic_raising(i);
                    self.b.switch_to_block(join);
                    return Ok(Some(jv));
                }
            }
            // Vectors of boxed values (the reverse pass's stacks of saved aggregates).
            ArrayPush
                if reps[0] == Rep::Boxed && boxed_storage(&f.types[args[0]], self.env.types) =>
            {
                let a = self.slot_addr(args[0]);
                let xp = self.value_ptr(args[1], 0);
                let st = self
                    .call("mc_push_value", &[a, xp])
                    .unwrap_or_else(|| unreachable!());
                self.fallback_unless_ok(i, st);
                self.array_result(res, args[0]);
                return Ok(None);
            }
            ArrayPop
                if reps[0] == Rep::Boxed
                    && rr == Some(Rep::Boxed)
                    && boxed_storage(&f.types[args[0]], self.env.types) =>
            {
                let r = res.unwrap_or_else(|| unreachable!());
                let a = self.slot_addr(args[0]);
                let out = self.slot_addr(r);
                let st = self
                    .call("mc_pop_value", &[a, out])
                    .unwrap_or_else(|| unreachable!());
                self.fallback_unless_ok(i, st);
                return Ok(None);
            }
            _ => {}
        }
        Ok(self.generic(i))
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

    /// After a fast-path helper returned `st`: unless it is `OK`, runs instruction `i` through
    /// the generic path (in a cold block) and rejoins. For instructions whose result, if any,
    /// lives in a frame slot.
    fn fallback_unless_ok(&mut self, i: Inst, st: cir::Value) {
        let slow = self.b.create_block();
        self.b.set_cold_block(slow);
        let join = self.b.create_block();
        self.b.ins().brif(st, slow, &[], join, &[]);
        self.b.switch_to_block(slow);
        self.generic(i);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
    }

    /// Returns tuple `v` field by field into the caller's values (see [`returned_fields`]):
    /// a tuple built right before the return is never built, its operands are returned.
    fn return_fields(&mut self, v: Value) {
        let written = self.ret_fields.clone().unwrap_or_default();
        let ret = self.b.ins().stack_load(ct::I64, ct::I64, self.regs, 16);
        let f = self.f;
        let operands = match f.values[v] {
            ir::ValueDef::Inst(i) if self.returned_only.contains(&v) => match &f.insts[i] {
                InstData::Tuple { args } if args.len() == written.len() => Some(args),
                _ => None,
            },
            _ => None,
        };
        for (k, _) in written.iter().enumerate().filter(|(_, w)| **w) {
            let dst = self.b.ins().iadd_imm_s(ret, (k as u32 * VALUE_SIZE) as i64);
            match operands.map(|args| args[k]) {
                Some(a) => match self.rep(a) {
                    Rep::Boxed => {
                        let src = self.slot_addr(a);
                        self.call("mc_clone", &[dst, src]);
                    }
                    Rep::Unit => self.materialize(a, dst),
                    r => {
                        let x = self.vals[&a];
                        self.box_into(r, dst, x);
                    }
                },
                None => {
                    let src = self.slot_addr(v);
                    let kv = self.b.ins().iconst(ct::I64, k as i64);
                    let st = self
                        .call("mc_getfield", &[src, kv, dst])
                        .unwrap_or_else(|| unreachable!());
                    // A tuple of the function's return type has every field.
                    let fail = self.unreachable_exit();
                    let cont = self.b.create_block();
                    self.b.ins().brif(st, fail, &[], cont, &[]);
                    self.b.switch_to_block(cont);
                }
            }
        }
    }

    /// Writes the value of singleton-typed `v` into the initialised slot at `dst`.
    fn materialize(&mut self, v: Value, dst: cir::Value) {
        self.const_into(self.unit_index[&self.f.types[v]], dst);
    }

    /// Assigns boxed constant `k` (see [`boxed_consts`]) to the initialised slot at `dst`.
    fn const_into(&mut self, k: usize, dst: cir::Value) {
        let meta = self.b.ins().iconst(ct::I64, self.meta);
        let k = self.b.ins().iconst(ct::I64, k as i64);
        self.call("mc_const", &[meta, k, dst]);
    }

    /// The result of a write that returns its array: the array itself (copied only if used).
    fn array_result(&mut self, res: Option<Value>, arr: Value) {
        if let Some(r) = res.filter(|r| self.used.contains(r)) {
            let src = self.slot_addr(arr);
            let dst = self.slot_addr(r);
            self.call("mc_clone", &[dst, src]);
            if let Some(o) = self.arr_obj.get(&arr).copied() {
                self.arr_obj.insert(r, o);
            }
        }
    }

    /// Pushes inline onto the vector with object `o` when its capacity allows: `write` stores
    /// the `size`-byte element at the address it is given, then the fast path jumps to `join`.
    /// Returns the (cold) block to emit the out-of-line push in, which must end at `join`.
    fn stack_push(
        &mut self,
        o: cir::Value,
        size: u32,
        write: impl FnOnce(&mut Self, cir::Value),
        join: cir::Block,
    ) -> cir::Block {
        use runtime::value::ArrayView as AV;
        let fl = MemFlagsData::trusted();
        let len = self.b.ins().load(ct::I64, fl, o, AV::LEN);
        let cap = self.b.ins().load(ct::I64, fl, o, AV::CAP);
        let ok = self.b.ins().icmp(IntCC::UnsignedLessThan, len, cap);
        let fast = self.b.create_block();
        let helper = self.b.create_block();
        self.b.set_cold_block(helper);
        // The cold block as the branch's first target: Cranelift's lowering order (a
        // reverse postorder visiting first targets first) then places it after the loop's
        // hot blocks, so that the calls in it do not end live ranges inside the loop.
        let full = self.b.ins().icmp_imm_s(IntCC::Equal, ok, 0);
        self.b.ins().brif(full, helper, &[], fast, &[]);
        self.b.switch_to_block(fast);
        let ptr = self.b.ins().load(ct::I64, fl, o, AV::PTR);
        let off = self.b.ins().imul_imm_s(len, size as i64);
        let addr = self.b.ins().iadd(ptr, off);
        write(self, addr);
        let n1 = self.b.ins().iadd_imm_s(len, 1);
        self.b.ins().store(fl, n1, o, AV::LEN);
        self.b.ins().store(fl, n1, o, AV::D1);
        self.b.ins().jump(join, &[]);
        helper
    }

    /// Pops inline from a non-empty vector with object `o`: `read` loads the `size`-byte
    /// element at the address it is given and returns `join`'s arguments. Returns the (cold)
    /// block for the out-of-line pop, which must end at `join`.
    fn stack_pop(
        &mut self,
        o: cir::Value,
        size: u32,
        read: impl FnOnce(&mut Self, cir::Value) -> Vec<cir::Value>,
        join: cir::Block,
    ) -> cir::Block {
        use runtime::value::ArrayView as AV;
        let fl = MemFlagsData::trusted();
        let len = self.b.ins().load(ct::I64, fl, o, AV::LEN);
        let cap = self.b.ins().load(ct::I64, fl, o, AV::CAP);
        let fast = self.b.create_block();
        let helper = self.b.create_block();
        self.b.set_cold_block(helper);
        // The cold block first (see `stack_push`). Out of line when empty (`len - 1` wraps)
        // or when the view shows no capacity (a shared array, which cannot shrink).
        let n = self.b.ins().iadd_imm_s(len, -1);
        let out_of_line = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, n, cap);
        self.b.ins().brif(out_of_line, helper, &[], fast, &[]);
        self.b.switch_to_block(fast);
        let ptr = self.b.ins().load(ct::I64, fl, o, AV::PTR);
        let off = self.b.ins().imul_imm_s(n, size as i64);
        let addr = self.b.ins().iadd(ptr, off);
        let vals = read(self, addr);
        self.b.ins().store(fl, n, o, AV::LEN);
        self.b.ins().store(fl, n, o, AV::D1);
        let args: Vec<BlockArg> = vals.into_iter().map(BlockArg::Value).collect();
        self.b.ins().jump(join, &args);
        helper
    }

    /// Flags for loads from the view of array `arr`: read-only unless its storage may change.
    fn view_flags(&self, arr: Value) -> MemFlagsData {
        match &self.changing {
            Some(c) if !c.contains(&arr) => MemFlagsData::trusted().with_readonly().with_can_move(),
            _ => MemFlagsData::trusted(),
        }
    }

    /// Fetches the array object of `v` if it is an array of `Float64`, `Int64` or tuples of
    /// register values (the element storages native code reads and writes in place).
    /// Whether native code keeps the array object of `v` at hand for inline element access:
    /// arrays of unboxed floats, integers or packed tuples.
    fn tracks_array(&self, v: Value) -> bool {
        let t = &self.f.types[v];
        let packed_elems = match t {
            Type::Array(e, 1) => packed_layout(e, self.env.types).is_some(),
            _ => false,
        };
        self.rep(v) == Rep::Boxed
            && (matches!(elem_rep(t), Some(Rep::F64 | Rep::I64)) || packed_elems)
    }

    fn track_array(&mut self, v: Value) {
        if self.tracks_array(v) {
            let s = self.slot_addr(v);
            let o = self
                .call("mc_array_obj", &[s])
                .unwrap_or_else(|| unreachable!());
            self.arr_obj.insert(v, o);
        }
    }

    /// The address of element `idx` of the array object `o`, continuing on the in-bounds path;
    /// out of bounds, instruction `i` runs in the interpreter to raise the error and the code
    /// leaves through the error exit (never rejoining, so values in registers need not survive
    /// the call). Accesses proved in range have no check.
    fn checked_elem(
        &mut self,
        i: Inst,
        o: cir::Value,
        idx: &[cir::Value],
        fl: MemFlagsData,
    ) -> cir::Value {
        if self.inbounds.contains(&i) {
            let k = self.linear_index(o, idx, fl);
            return self.elem_addr(o, k, fl);
        }
        let (k, ok) = self.inline_index(o, idx, fl);
        let slow = self.b.create_block();
        self.b.set_cold_block(slow);
        let fast = self.b.create_block();
        // The cold block first (see `stack_push`).
        let bad = self.b.ins().icmp_imm_s(IntCC::Equal, ok, 0);
        self.b.ins().brif(bad, slow, &[], fast, &[]);
        self.b.switch_to_block(slow);
        self.generic_raising(i);
        self.b.switch_to_block(fast);
        self.elem_addr(o, k, fl)
    }

    /// The 0-based linear index of `idx` (1-based, one or two) into the array with object
    /// `obj`, known to be in bounds.
    fn linear_index(
        &mut self,
        obj: cir::Value,
        idx: &[cir::Value],
        flags: MemFlagsData,
    ) -> cir::Value {
        let i1 = self.b.ins().iadd_imm_s(idx[0], -1);
        if idx.len() == 1 {
            return i1;
        }
        let j1 = self.b.ins().iadd_imm_s(idx[1], -1);
        let d1 = self
            .b
            .ins()
            .load(ct::I64, flags, obj, runtime::value::ArrayView::D1);
        let col = self.b.ins().imul(j1, d1);
        self.b.ins().iadd(i1, col)
    }

    /// The 0-based linear index of `idx` (1-based, one or two) into the array with object
    /// `obj`, and whether it is in bounds.
    fn inline_index(
        &mut self,
        obj: cir::Value,
        idx: &[cir::Value],
        flags: MemFlagsData,
    ) -> (cir::Value, cir::Value) {
        use runtime::value::ArrayView;
        let i1 = self.b.ins().iadd_imm_s(idx[0], -1);
        if idx.len() == 1 {
            let len = self.b.ins().load(ct::I64, flags, obj, ArrayView::LEN);
            let ok = self.b.ins().icmp(IntCC::UnsignedLessThan, i1, len);
            (i1, ok)
        } else {
            let j1 = self.b.ins().iadd_imm_s(idx[1], -1);
            let d1 = self.b.ins().load(ct::I64, flags, obj, ArrayView::D1);
            let d2 = self.b.ins().load(ct::I64, flags, obj, ArrayView::D2);
            let oki = self.b.ins().icmp(IntCC::UnsignedLessThan, i1, d1);
            let okj = self.b.ins().icmp(IntCC::UnsignedLessThan, j1, d2);
            let ok = self.b.ins().band(oki, okj);
            let col = self.b.ins().imul(j1, d1);
            let k = self.b.ins().iadd(i1, col);
            (k, ok)
        }
    }

    /// The address of element `k` (0-based) of the array with object `obj`.
    fn elem_addr(&mut self, obj: cir::Value, k: cir::Value, flags: MemFlagsData) -> cir::Value {
        let ptr = self
            .b
            .ins()
            .load(ct::I64, flags, obj, runtime::value::ArrayView::PTR);
        let off = self.b.ins().ishl_imm_u(k, 3);
        self.b.ins().iadd(ptr, off)
    }

    /// Scalar primitives on register operands (`None`: not handled natively).
    fn native_prim(&mut self, op: Prim, args: &[Value], reps: &[Rep]) -> Option<cir::Value> {
        use Prim::*;
        let mut a: Vec<cir::Value> = args.iter().map(|v| self.vals[v]).collect();
        // A constant operand of a commutative float operation goes second, where x86 code
        // reads it from the constant pool instead of materialising it in a register (in a
        // loop: every iteration). `x * c` and `c * x` are the same float.
        if matches!(op, AddFloat | MulFloat)
            && self.f.const_value(args[0]).is_some()
            && self.f.const_value(args[1]).is_none()
        {
            a.swap(0, 1);
        }
        let ins = self.b.ins();
        let v = match (op, a.as_slice()) {
            (AddInt, [x, y]) => ins.iadd(*x, *y),
            (SubInt, [x, y]) => ins.isub(*x, *y),
            (MulInt, [x, y]) => ins.imul(*x, *y),
            (AndInt | AndBool, [x, y]) => ins.band(*x, *y),
            (OrInt | OrBool, [x, y]) => ins.bor(*x, *y),
            (XorInt | XorBool, [x, y]) => ins.bxor(*x, *y),
            (NegInt, [x]) => ins.ineg(*x),
            (NotInt, [x]) => ins.bnot(*x),
            (NotBool, [x]) => ins.bxor_imm_s(*x, 1),
            (EqInt, [x, y]) => ins.icmp(IntCC::Equal, *x, *y),
            (NeInt, [x, y]) => ins.icmp(IntCC::NotEqual, *x, *y),
            (SltInt, [x, y]) => ins.icmp(IntCC::SignedLessThan, *x, *y),
            (SleInt, [x, y]) => ins.icmp(IntCC::SignedLessThanOrEqual, *x, *y),
            (BoolToInt, [x]) => ins.uextend(ct::I64, *x),
            (AddFloat, [x, y]) => ins.fadd(*x, *y),
            (SubFloat, [x, y]) => ins.fsub(*x, *y),
            (MulFloat, [x, y]) => ins.fmul(*x, *y),
            (DivFloat, [x, y]) => ins.fdiv(*x, *y),
            (NegFloat, [x]) => ins.fneg(*x),
            (AbsFloat, [x]) => ins.fabs(*x),
            (SelectFloat, [c, x, y]) => ins.select(*c, *x, *y),
            (Copysign, [x, y]) => ins.fcopysign(*x, *y),
            (Sqrt, [x]) => ins.sqrt(*x),
            (Floor, [x]) => ins.floor(*x),
            (Ceil, [x]) => ins.ceil(*x),
            (Trunc, [x]) => ins.trunc(*x),
            (Round, [x]) => ins.nearest(*x),
            (EqFloat, [x, y]) => ins.fcmp(FloatCC::Equal, *x, *y),
            (NeFloat, [x, y]) => ins.fcmp(FloatCC::NotEqual, *x, *y),
            (LtFloat, [x, y]) => ins.fcmp(FloatCC::LessThan, *x, *y),
            (LeFloat, [x, y]) => ins.fcmp(FloatCC::LessThanOrEqual, *x, *y),
            (PowiFloat, [x, n]) if reps[1] == Rep::I64 => {
                let name = if reps[0] == Rep::F64 {
                    "mc_powi_f64"
                } else {
                    "mc_powi_f32"
                };
                return self.call(name, &[*x, *n]);
            }
            _ => {
                let float = |r: &Rep| matches!(r, Rep::F64 | Rep::F32);
                if reps.iter().all(float)
                    && (ir::fold::cmath::unary(op).is_some() && a.len() == 1
                        || ir::fold::cmath::binary(op).is_some() && a.len() == 2)
                {
                    let sfx = if reps[0] == Rep::F64 { "f64" } else { "f32" };
                    let name = format!("mc_{}_{sfx}", op.name());
                    return self.call(&name, &a);
                }
                return None;
            }
        };
        Some(v)
    }
}

/// The byte layout of a tuple type whose elements are all register values.
fn packed_layout(t: &Type, types: &ir::TypeEnv) -> Option<Packed> {
    let Type::Tuple(ts) = t else {
        return None;
    };
    if ts.is_empty() || ts.iter().any(|t| !is_reg(rep(t))) {
        return None;
    }
    let l = runtime::value::BitsLayout::of(t, types)?;
    let offsets = l.scalar_offsets()?;
    Some(Packed {
        size: l.size as u32,
        offsets: offsets.into_iter().map(|o| o as u32).collect(),
    })
}

/// Which tuples are pushed without being built (`fused`), and which popped tuples stay as
/// bytes (`packed`): see `Gen`.
type Packing = (FxHashMap<Value, Packed>, FxHashMap<Value, Packed>);
fn packing(f: &Function, order: &[Block], types: &ir::TypeEnv) -> Packing {
    // Every use of each value: (instruction, operand position).
    let mut uses: FxHashMap<Value, Vec<(Inst, usize)>> = FxHashMap::default();
    for &b in order {
        for &i in &f.blocks[b].insts {
            let mut k = 0;
            f.insts[i].for_each_arg(|a| {
                uses.entry(a).or_default().push((i, k));
                k += 1;
            });
        }
    }
    let mut fused = FxHashMap::default();
    let mut packed = FxHashMap::default();
    for &b in order {
        for &i in &f.blocks[b].insts {
            let Some(r) = f.result(i) else { continue };
            let Some(layout) = packed_layout(&f.types[r], types) else {
                continue;
            };
            let us = uses.get(&r).map(|u| u.as_slice()).unwrap_or(&[]);
            match &f.insts[i] {
                InstData::Tuple { .. } => {
                    if let [(u, 1)] = us {
                        if let InstData::Prim {
                            op: Prim::ArrayPush,
                            args,
                        } = &f.insts[*u]
                        {
                            if f.types[args[0]] == Type::vector(f.types[r].clone()) {
                                fused.insert(r, layout);
                            }
                        }
                    }
                }
                InstData::Prim {
                    op: Prim::ArrayPop, ..
                } => {
                    let only_fields = us.iter().all(|(u, _)| {
                        matches!(
                            f.insts[*u],
                            InstData::GetField {
                                field: ir::FieldRef::Index(_),
                                ..
                            }
                        )
                    });
                    if only_fields {
                        packed.insert(r, layout);
                    }
                }
                _ => {}
            }
        }
    }
    (fused, packed)
}

/// The entry block's `rule_stack`s of one state with constant stack numbers and types, with
/// their results: the first of them fetches them all with one `mc_rule_stacks` call (a
/// derived function starts by fetching each of its stacks; one call instead of one each keeps
/// the code, and Cranelift's work on it, small). Each site's `slot` is left for the caller.
fn group_rule_stacks(
    f: &Function,
    unit_index: &FxHashMap<Type, usize>,
) -> Vec<(abi::RuleStackSite, Value)> {
    let mut state = None;
    let mut sites = Vec::new();
    for &i in &f.blocks[f.entry()].insts {
        let Some((r, st, k, ty)) = f.constant_rule_stack(i) else {
            continue;
        };
        let Some(&ty_const) = unit_index.get(&f.types[ty]) else {
            continue;
        };
        if rep(&f.types[st]) != Rep::Boxed
            || rep(&f.types[ty]) != Rep::Unit
            || rep(&f.types[r]) != Rep::Boxed
            || *state.get_or_insert(st) != st
        {
            continue;
        }
        let site = abi::RuleStackSite {
            inst: i,
            k,
            ty: ty_const,
            slot: 0,
        };
        sites.push((site, r));
    }
    sites
}

/// The field types of `f`'s return type if it is a tuple type: then the compiled code returns
/// the fields themselves, `ret` pointing at one initialised value per field. It writes the
/// fields of other than singleton types; those it leaves as the caller set them (to their
/// one value), so that returning `(y, NoFData())` neither builds a tuple nor touches a
/// singleton.
pub fn returned_fields(f: &Function) -> Option<&[Type]> {
    match &f.ret_type {
        Type::Tuple(ts) if rep(&f.ret_type) == Rep::Boxed => Some(ts),
        _ => None,
    }
}

/// Tuples (not constant, see [`boxed_consts`]) built by a `Tuple` instruction right before
/// the `return` that is their one use: building one in the caller's return slot saves a copy
/// (and nothing runs in between that could read the caller's slot).
fn returned_tuples(f: &Function, consts: &FxHashMap<Inst, usize>) -> FxHashSet<Value> {
    let mut uses: FxHashMap<Value, u32> = FxHashMap::default();
    for b in &f.layout {
        for &i in &f.blocks[*b].insts {
            f.insts[i].for_each_arg(|a| *uses.entry(a).or_default() += 1);
        }
    }
    let mut out = FxHashSet::default();
    for b in &f.layout {
        let insts = &f.blocks[*b].insts;
        let Some(&t) = insts.last() else { continue };
        let InstData::Return(v) = f.insts[t] else {
            continue;
        };
        if uses.get(&v) != Some(&1) {
            continue;
        }
        let def = insts.len().checked_sub(2).map(|k| insts[k]);
        if def.is_some_and(|d| {
            f.result(d) == Some(v)
                && matches!(f.insts[d], InstData::Tuple { .. })
                && !consts.contains_key(&d)
        }) {
            out.insert(v);
        }
    }
    out
}

/// The sine/cosine pairs of `f` (see `Gen::trig_pairs`): `sin(x)` and `cos(x)` of the same
/// `Float64` in the same block, keyed by the first of the two.
fn sin_cos_pairs(f: &Function) -> FxHashMap<Inst, (Value, Value)> {
    let mut pairs = FxHashMap::default();
    for b in &f.layout {
        // By operand: the first instruction seen, and the sine's and cosine's results.
        let mut seen: FxHashMap<Value, (Inst, Option<Value>, Option<Value>)> = FxHashMap::default();
        for &i in &f.blocks[*b].insts {
            if let (InstData::Prim { op, args }, Some(r)) = (&f.insts[i], f.result(i)) {
                if matches!(op, Prim::Sin | Prim::Cos) && f.types[r] == Type::Float64 {
                    let e = seen.entry(args[0]).or_insert((i, None, None));
                    if *op == Prim::Sin {
                        e.1.get_or_insert(r);
                    } else {
                        e.2.get_or_insert(r);
                    }
                }
            }
        }
        for (first, s, c) in seen.into_values() {
            if let (Some(s), Some(c)) = (s, c) {
                pairs.insert(first, (s, c));
            }
        }
    }
    pairs
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
