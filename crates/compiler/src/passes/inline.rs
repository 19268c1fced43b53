//! Inlining of small static callees (`invoke`s), bottom-up: a callee is optimised (and so has
//! its own callees inlined) before it is copied. Copied instructions record the inline site.

use super::Pass;
use crate::passes::simplify::apply_aliases;
use crate::{CompileError, Compiler, MiKey};
use ir::{Block, Function, InlineSite, Inst, InstData, Value};
use rustc_hash::FxHashMap;

pub struct Inline;

/// Inlining of the callees (up to [`SCALAR_INLINE_LIMIT`] instructions) given a small fresh
/// array (see `sroa`): inside the caller, the array's size is known and its loops can be
/// unrolled, which makes the array scalars.
pub struct InlineForScalars;

/// The largest callee [`InlineForScalars`] copies.
const SCALAR_INLINE_LIMIT: usize = 400;

/// The largest callee declared `@inline` that [`Inline`] copies.
const HINTED_INLINE_LIMIT: usize = 200;

/// Inlining stops growing a function past this many instructions.
const MAX_GROWTH: usize = 4000;

impl Pass for Inline {
    fn name(&self) -> &'static str {
        "inline"
    }

    fn run(&self, c: &mut Compiler, f: &mut Function) -> Result<bool, CompileError> {
        inline(c, f, false)
    }
}

impl Pass for InlineForScalars {
    fn name(&self) -> &'static str {
        "inline-for-scalars"
    }

    fn run(&self, c: &mut Compiler, f: &mut Function) -> Result<bool, CompileError> {
        inline(c, f, true)
    }
}

/// Inlines small callees, or with `scalars` those given a small fresh array.
///
/// One sweep over the blocks: after an inlined call, the scan goes on in the callee's copy,
/// then in the block that continues after the call. The results' aliases are applied once at
/// the end, so the pass is linear in the function's size.
fn inline(c: &mut Compiler, f: &mut Function, scalars: bool) -> Result<bool, CompileError> {
    let mut changed = false;
    let mut budget = MAX_GROWTH;
    let mut alias: FxHashMap<Value, Value> = FxHashMap::default();
    // Calls on the way to an error (in cold blocks) stay calls: copying them would only
    // make this function bigger (and so less likely to be inlined itself). (In a function
    // that never returns, every block is; there the calls are inlined as anywhere.)
    let mut cold = f.cold_blocks();
    if cold.contains(&f.entry()) {
        cold.clear();
    }
    // Each block with the callees it was copied from (a callee is not inlined into its own
    // copy: recursion is not unrolled).
    let mut work: Vec<(Block, std::rc::Rc<Vec<MiKey>>)> = f
        .layout
        .iter()
        .rev()
        .map(|b| (*b, std::rc::Rc::new(Vec::new())))
        .collect();
    'blocks: while let Some((b, chain)) = work.pop() {
        let mut pos = 0;
        while pos < f.blocks[b].insts.len() {
            let i = f.blocks[b].insts[pos];
            pos += 1;
            let InstData::Invoke { callee, args } = &f.insts[i] else {
                continue;
            };
            // (The small callees were inlined before; again, they would unroll recursion.)
            let hinted = || {
                let table = MiKey::of(callee).table;
                c.options.inline_hint.contains(&table)
            };
            let limit = if !scalars && hinted() {
                HINTED_INLINE_LIMIT
            } else if !scalars {
                c.options.inline_limit
            } else if args.iter().any(|a| {
                f.def_inst(*a)
                    .is_some_and(|d| super::sroa::small_fresh_array(f, d))
            }) {
                SCALAR_INLINE_LIMIT
            } else {
                continue;
            };
            if cold.contains(&b) {
                continue;
            }
            let key = MiKey::of(callee);
            let kept = c.options.no_inline.contains(&key.table) || keyword_call_kept(c, &key);
            let for_ad_only = c.run_mode
                && (c.ad_view_only.contains(&key.table) || key.table.as_str() == "#kwcall");
            if c.is_optimising(&key) || (kept && !for_ad_only) || chain.contains(&key) {
                continue;
            }
            let body = if c.run_mode {
                c.runnable(&key)
            } else {
                c.optimised(&key)
            };
            let Ok(body) = body else {
                continue;
            };
            let entry_has_preds = !body.predecessors()[body.entry()].is_empty();
            // Weighed by what it does on the way to a return; its error paths count
            // towards the growth budget only.
            if body.hot_work_count() > limit || entry_has_preds {
                continue;
            }
            let size = body.work_count();
            if size > budget {
                break 'blocks;
            }
            budget -= size;
            let (copied, k) = inline_at(f, b, pos - 1, &body, &mut alias);
            changed = true;
            // (`b` is not cold, nor then is the continuation `k`.)
            let body_cold = body.cold_blocks();
            for (cb, nb) in body.layout.iter().zip(&copied) {
                if body_cold.contains(cb) {
                    cold.insert(*nb);
                }
            }
            // Next the callee's copy (calls it could not inline, such as calls back into
            // this function, are seen again here), then what follows the call.
            work.push((k, chain.clone()));
            let mut inner = (*chain).clone();
            inner.push(key);
            let inner = std::rc::Rc::new(inner);
            work.extend(copied.into_iter().rev().map(|cb| (cb, inner.clone())));
            continue 'blocks;
        }
    }
    apply_aliases(f, &alias);
    Ok(changed)
}

/// Replaces the `invoke` at `f.blocks[b].insts[pos]` by a copy of `callee`.
/// Returns the callee's copied blocks and the block that continues after the call; the call's
/// result becomes an alias (in `alias`) of that block's parameter.
fn inline_at(
    f: &mut Function,
    b: Block,
    pos: usize,
    callee: &Function,
    alias: &mut FxHashMap<Value, Value>,
) -> (Vec<Block>, Block) {
    let inv = f.blocks[b].insts[pos];
    let InstData::Invoke { args, .. } = f.insts[inv].clone() else {
        unreachable!("inline_at is given an invoke")
    };
    let res = f.result(inv);
    // Inline sites: one for this call, then the callee's own, re-parented under it.
    let parent = match f.inlined_at[inv] {
        0 => None,
        k => Some(k - 1),
    };
    f.inline_sites.push(InlineSite {
        call: f.locs[inv],
        parent,
        func: callee.name.clone(),
    });
    let this_site = f.inline_sites.len() as u32 - 1;
    let base = f.inline_sites.len() as u32;
    for s in &callee.inline_sites {
        f.inline_sites.push(InlineSite {
            call: s.call,
            parent: Some(s.parent.map_or(this_site, |p| p + base)),
            func: s.func.clone(),
        });
    }
    // Split: the continuation block receives the result.
    let tail = f.blocks[b].insts.split_off(pos + 1);
    f.blocks[b].insts.pop();
    let k = f.blocks.push(Default::default());
    f.blocks[k].insts = tail;
    let kp = res.map(|r| f.add_block_param(k, f.types[r].clone()));
    // Blocks and parameters.
    let mut bmap: FxHashMap<Block, Block> = FxHashMap::default();
    let mut vmap: FxHashMap<Value, Value> = FxHashMap::default();
    let mut new_blocks = Vec::new();
    for &cb in &callee.layout {
        let nb = f.blocks.push(Default::default());
        bmap.insert(cb, nb);
        new_blocks.push(nb);
        if cb == callee.entry() {
            for (p, a) in callee.blocks[cb].params.iter().zip(args.iter()) {
                vmap.insert(*p, *a);
            }
        } else {
            for &p in &callee.blocks[cb].params {
                let np = f.add_block_param(nb, callee.types[p].clone());
                vmap.insert(p, np);
            }
        }
    }
    // Instructions: copy them all first (so every callee value has its copy), then map the
    // operands once.
    let mut copies: Vec<Inst> = Vec::new();
    for &cb in &callee.layout {
        let nb = bmap[&cb];
        for &ci in &callee.blocks[cb].insts {
            let mut data = callee.insts[ci].clone();
            if let InstData::Return(v) = data {
                data = InstData::Jump {
                    dest: k,
                    args: kp.map(|_| vec![v]).unwrap_or_default(),
                };
            } else {
                data.map_successors(|s| bmap[&s]);
            }
            let ty = callee
                .result(ci)
                .map(|r| callee.types[r].clone())
                .unwrap_or_default();
            let (ni, nv) = f.make_inst(data, ty, callee.locs[ci]);
            f.inlined_at[ni] = match callee.inlined_at[ci] {
                0 => this_site + 1,
                s => base + s,
            };
            if let (Some(r), Some(nv)) = (callee.result(ci), nv) {
                vmap.insert(r, nv);
            }
            f.blocks[nb].insts.push(ni);
            copies.push(ni);
        }
    }
    for ni in copies {
        f.insts[ni].map_args(|a| vmap.get(&a).copied().unwrap_or(a));
    }
    let entry_nb = bmap[&callee.entry()];
    let loc = f.locs[inv];
    f.append(
        b,
        InstData::Jump {
            dest: entry_nb,
            args: vec![],
        },
        Default::default(),
        loc,
    );
    // Layout: the callee's blocks, then the continuation, right after `b`.
    let at = f
        .layout
        .iter()
        .position(|x| *x == b)
        .map_or(f.layout.len(), |p| p + 1);
    let mut ins = new_blocks.clone();
    ins.push(k);
    f.layout.splice(at..at, ins);
    if let (Some(r), Some(kp)) = (res, kp) {
        alias.insert(r, kp);
    }
    (new_blocks, k)
}

/// Whether `key` is a call with keyword arguments (`#kwcall(kw, f, args...)`) of a function
/// whose keyword calls have a rule of their own.
pub(crate) fn keyword_call_kept(c: &Compiler, key: &MiKey) -> bool {
    key.table.as_str() == "#kwcall"
        && matches!(key.sig.get(2), Some(ir::Type::Function(f))
            if c.options.no_inline_kwcall.contains(f))
}
