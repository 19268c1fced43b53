//! Analyses that decide how values are held before any code is emitted: tuples packed into
//! frame slots, the rule stacks fetched once, tuples returned field by field, `sin`/`cos`
//! pairs computed together.

use super::*;

/// A tuple of register values stored as bytes (the element layout of a vector of such
/// tuples): its size and each element's offset.
#[derive(Clone)]
pub(super) struct Packed {
    pub(super) size: u32,
    pub(super) offsets: Vec<u32>,
}

/// The byte layout of a tuple type whose elements are all register values.
pub(super) fn packed_layout(t: &Type, types: &ir::TypeEnv) -> Option<Packed> {
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
pub(super) type Packing = (FxHashMap<Value, Packed>, FxHashMap<Value, Packed>);

pub(super) fn packing(f: &Function, order: &[Block], types: &ir::TypeEnv) -> Packing {
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
pub(super) fn group_rule_stacks(
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
    fields_of(&f.ret_type)
}

/// The field types of a function's return type `t` if its code returns them field by field
/// (see [`returned_fields`]).
pub fn fields_of(t: &Type) -> Option<&[Type]> {
    match t {
        Type::Tuple(ts) if rep(t) == Rep::Boxed => Some(ts),
        _ => None,
    }
}

/// Tuples (not constant, see [`boxed_consts`]) built by a `Tuple` instruction right before
/// the `return` that is their one use: building one in the caller's return slot saves a copy
/// (and nothing runs in between that could read the caller's slot).
pub(super) fn returned_tuples(f: &Function, consts: &FxHashMap<Inst, usize>) -> FxHashSet<Value> {
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
pub(super) fn sin_cos_pairs(f: &Function) -> FxHashMap<Inst, (Value, Value)> {
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
