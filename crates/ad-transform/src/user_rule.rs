//! Rules written in the language: the derived functions of a call the program declared a
//! primitive (`@is_primitive`, `@zero_adjoint`, `@zero_derivative`). They keep the calling
//! conventions of every derived function, so derived code, dynamic calls and threaded loops
//! call them as they call any rule, but their bodies wrap the arguments in `CoDual`s (`Dual`s)
//! and call a prelude adapter that runs the program's `rrule!!` (`frule!!`) and checks what it
//! returns. The AD runtime resolves and infers the adapters' calls; this module only builds IR.
//!
//! - `fwd(state, x0, f0, x1, f1, ...)`: `c_k = CoDual(x_k, f_k)`, then
//!   `((y, fy), pb) = _user_rrule_fwd(rule, Y, FY, c0, c1, ...)`; `pb` is pushed on the state's
//!   stack 0 (or, a closure over a few numbers, number by number on stacks 0, 1, ...) and
//!   `(y, fy)` returned.
//! - `rvs(state, ȳ)`: `pb` popped (rebuilt), `_user_rrule_rvs(pb, ȳ, R, what)` returns the
//!   arguments' rdata (`R`, a tuple type, checked).
//! - `dual{N}(x0, t0_1.., x1, t1_1.., ...)`: per lane, `d_k = Dual(x_k, t_k)` and
//!   `(y, ty) = adapter(d0, d1, ...)`; the first lane's `y` with every lane's `ty`.

use crate::emit::Emit;
use ir::function::Callee;
use ir::{Const, Function, InstData, Phase, Prim, Type, TypeEnv, Value};
use syntax::Span;

/// A call of a prelude adapter the AD runtime resolved: the method instance (its function's
/// singleton first in `callee.sig`), the constant arguments it starts with, and its inferred
/// return type.
#[derive(Clone, Debug)]
pub struct AdapterCall {
    pub callee: Callee,
    pub consts: Vec<Const>,
    pub ret: Type,
    /// For a method with varargs: the position (the function being 0) from which the
    /// arguments are passed packed in one tuple.
    pub pack: Option<usize>,
}

impl AdapterCall {
    /// Emits the call on `args` (the function and constants first, see `consts`).
    fn emit(&self, e: &mut Emit, mut args: Vec<Value>) -> Value {
        if let Some(p) = self.pack.filter(|p| *p <= args.len()) {
            let rest = args.split_off(p);
            let t = Type::tuple(rest.iter().map(|v| e.f.types[*v].clone()).collect());
            args.push(e.val(InstData::Tuple { args: rest }, t));
        }
        e.val(
            InstData::Invoke {
                callee: self.callee.clone(),
                args,
            },
            self.ret.clone(),
        )
    }
}

/// What the reverse-mode rule of a user primitive is built from.
pub struct ReverseRule<'a> {
    /// The primal call, for the functions' names (`foo(Float64)`).
    pub name: &'a str,
    /// The primal's argument types (the function's first) and each one's fdata type.
    pub sig: &'a [Type],
    pub fdata: &'a [Type],
    /// `CoDual{X, FX}` for each argument.
    pub coduals: &'a [Type],
    /// The primal's return type and its fdata and rdata types.
    pub y: &'a Type,
    pub fy: &'a Type,
    pub ry: &'a Type,
    /// `_user_rrule_fwd(rule, Y, FY, coduals...)`, returning `Tuple{Tuple{Y, FY}, PB}`.
    pub fwd: &'a AdapterCall,
    /// `_user_rrule_rvs(pb, ȳ, R, (R's element types...), what)`, returning the arguments'
    /// rdata `R` (`None` when the forwards adapter never returns).
    pub rvs: Option<&'a AdapterCall>,
    /// The arguments' rdata types (the method instance's), and one per argument of the call.
    pub rdata: &'a [Type],
    pub flat_rdata: &'a [Type],
    pub loc: Span,
    /// The method collects its last arguments in a tuple (`f(xs...)`): `sig`, `fdata` and
    /// `rdata` are the method instance's, with that tuple last; `coduals` and what the rule
    /// returns have one element per argument.
    pub packed: bool,
    pub env: &'a TypeEnv,
}

/// Splits a method instance's arguments into one per argument of the call: the last
/// (`x`, with partner `fx` of type `ft`, e.g. its fdata) into its elements when `packed`.
fn unpack(
    e: &mut Emit,
    xs: &[(Value, Value)],
    packed: bool,
    part: &dyn Fn(&Type) -> Type,
    none: &Type,
) -> Vec<(Value, Value)> {
    let mut out = xs.to_vec();
    if !packed {
        return out;
    }
    let Some((x, fx)) = out.pop() else {
        return out;
    };
    let Type::Tuple(ts) = e.f.types[x].clone() else {
        unreachable!("a vararg method's last argument is a tuple")
    };
    let ft = e.f.types[fx].clone();
    for (i, t) in ts.iter().enumerate() {
        let xi = e.field(x, i as u32, t.clone());
        let pt = part(t);
        let fi = if ft == *none || pt == *none {
            e.konst(Const::Singleton(none.clone()))
        } else {
            e.field(fx, i as u32, pt)
        };
        out.push((xi, fi));
    }
    out
}

/// The forwards pass and pullback of a user primitive.
pub fn reverse(r: &ReverseRule) -> (Function, Function) {
    let pair_t = Type::tuple(vec![r.y.clone(), r.fy.clone()]);
    // The forwards pass.
    let mut f = Function::new(format!("fwd {}", r.name), Phase::Typed);
    let b = f.add_block();
    let state = f.add_block_param(b, crate::reverse::rule_state_type());
    let mut xs = Vec::new();
    for (t, ft) in r.sig.iter().zip(r.fdata) {
        let x = f.add_block_param(b, t.clone());
        let fx = f.add_block_param(b, ft.clone());
        xs.push((x, fx));
    }
    let mut e = Emit {
        f: &mut f,
        block: b,
        loc: r.loc,
    };
    let env = r.env;
    let xs = unpack(
        &mut e,
        &xs,
        r.packed,
        &|t| ir::tangent::fdata_type(t, env),
        &Type::NoFData,
    );
    let mut args = consts(&mut e, r.fwd);
    args.extend(wrap(&mut e, &xs, r.coduals));
    let out = r.fwd.emit(&mut e, args);
    let pb_t = match &r.fwd.ret {
        Type::Tuple(ts) if ts.len() == 2 && r.rvs.is_some() => Some(ts[1].clone()),
        _ => None,
    };
    match &pb_t {
        Some(pb_t) => {
            let pair = e.field(out, 0, pair_t.clone());
            let pb = e.field(out, 1, pb_t.clone());
            save_pullback(&mut e, state, pb, pb_t, env);
            e.inst(InstData::Return(pair), Type::Any);
            f.ret_type = pair_t;
        }
        None => {
            e.inst(InstData::Unreachable, Type::Any);
            f.ret_type = Type::Bottom;
        }
    }
    // The pullback.
    let mut g = Function::new(format!("rvs {}", r.name), Phase::Typed);
    g.nsz = true;
    let b = g.add_block();
    let state = g.add_block_param(b, crate::reverse::rule_state_type());
    let dy = g.add_block_param(b, r.ry.clone());
    let mut e = Emit {
        f: &mut g,
        block: b,
        loc: r.loc,
    };
    match (&pb_t, r.rvs) {
        (Some(pb_t), Some(rvs)) => {
            let pb = restore_pullback(&mut e, state, pb_t, env);
            let mut args = consts(&mut e, rvs);
            args.splice(1..1, [pb, dy]);
            // The rdata types one by one (for the message when they are wrong), and the rule.
            let ts: Vec<Value> = r
                .flat_rdata
                .iter()
                .map(|t| e.konst(Const::Type(t.clone())))
                .collect();
            let tt = Type::tuple(
                r.flat_rdata
                    .iter()
                    .cloned()
                    .map(Type::type_of_type)
                    .collect(),
            );
            args.push(e.val(InstData::Tuple { args: ts }, tt));
            args.push(e.konst(Const::Str(r.name.into())));
            let rd = rvs.emit(&mut e, args);
            if rvs.ret == Type::Bottom {
                e.inst(InstData::Unreachable, Type::Any);
                g.ret_type = Type::Bottom;
            } else {
                let rd = if r.packed {
                    repack(&mut e, rd, r.rdata)
                } else {
                    rd
                };
                e.inst(InstData::Return(rd), Type::Any);
                g.ret_type = Type::tuple(r.rdata.to_vec());
            }
        }
        _ => {
            e.inst(InstData::Unreachable, Type::Any);
            g.ret_type = Type::Bottom;
        }
    }
    (f, g)
}

/// The method instance's rdata (types `rdata`, the last a tuple's) from the rule's, which has
/// one element per argument of the call.
fn repack(e: &mut Emit, rd: Value, rdata: &[Type]) -> Value {
    let n = rdata.len() - 1;
    let Type::Tuple(flat) = e.f.types[rd].clone() else {
        unreachable!("a pullback's rdata are a tuple")
    };
    let mut parts: Vec<Value> = (0..n)
        .map(|i| e.field(rd, i as u32, flat[i].clone()))
        .collect();
    let last = match &rdata[n] {
        Type::NoRData => e.konst(Const::Singleton(Type::NoRData)),
        t => {
            let elems: Vec<Value> = (n..flat.len())
                .map(|i| e.field(rd, i as u32, flat[i].clone()))
                .collect();
            e.val(InstData::Tuple { args: elems }, t.clone())
        }
    };
    parts.push(last);
    e.val(InstData::Tuple { args: parts }, Type::tuple(rdata.to_vec()))
}

/// What the forward-mode rule of a user primitive is built from.
pub struct ForwardRule<'a> {
    pub name: &'a str,
    /// The primal's argument types (the function's first) and each one's tangent type.
    pub sig: &'a [Type],
    pub tangents: &'a [Type],
    /// `Dual{X, TX}` for each argument.
    pub duals: &'a [Type],
    /// The primal's return type and its tangent type.
    pub y: &'a Type,
    pub ty: &'a Type,
    /// The adapter, returning `Tuple{Y, TY}`: `_user_frule(rule, Y, TY, duals...)` or
    /// `_user_frule_by_rrule(Y, duals...)`.
    pub adapter: &'a AdapterCall,
    pub width: usize,
    pub loc: Span,
    /// As for [`ReverseRule::packed`]; `duals` have one element per argument of the call.
    pub packed: bool,
    pub env: &'a TypeEnv,
}

/// The forward-mode rule of a user primitive with `width` lanes.
pub fn forward(r: &ForwardRule) -> Function {
    let n = r.width;
    let mut f = Function::new(format!("dual{n} {}", r.name), Phase::Typed);
    let b = f.add_block();
    let mut xs = Vec::new();
    for (t, tt) in r.sig.iter().zip(r.tangents) {
        let x = f.add_block_param(b, t.clone());
        let ts: Vec<Value> = (0..n).map(|_| f.add_block_param(b, tt.clone())).collect();
        xs.push((x, ts));
    }
    let mut e = Emit {
        f: &mut f,
        block: b,
        loc: r.loc,
    };
    let mut outs = Vec::new();
    let env = r.env;
    for lane in 0..n {
        let pairs: Vec<(Value, Value)> = xs.iter().map(|(x, ts)| (*x, ts[lane])).collect();
        let pairs = unpack(
            &mut e,
            &pairs,
            r.packed,
            &|t| crate::forward::tangent_of(t, env),
            &Type::NoTangent,
        );
        let mut args = consts(&mut e, r.adapter);
        args.extend(wrap(&mut e, &pairs, r.duals));
        outs.push(r.adapter.emit(&mut e, args));
        if r.adapter.ret == Type::Bottom {
            e.inst(InstData::Unreachable, Type::Any);
            f.ret_type = Type::Bottom;
            return f;
        }
    }
    let y = e.field(outs[0], 0, r.y.clone());
    let mut res = vec![y];
    for o in &outs {
        res.push(e.field(*o, 1, r.ty.clone()));
    }
    let mut rt = vec![r.y.clone()];
    rt.extend(std::iter::repeat_n(r.ty.clone(), n));
    let rt = Type::tuple(rt);
    let t = e.val(InstData::Tuple { args: res }, rt.clone());
    e.inst(InstData::Return(t), Type::Any);
    f.ret_type = rt;
    f
}

/// The adapter's function and its constant arguments, as values.
fn consts(e: &mut Emit, a: &AdapterCall) -> Vec<Value> {
    let mut args = vec![e.konst(Const::Func(a.callee.func))];
    for c in &a.consts {
        args.push(e.konst(c.clone()));
    }
    args
}

/// Each (primal, tangent or fdata) pair as the struct of type `tys[k]` (`CoDual`, `Dual`).
fn wrap(e: &mut Emit, pairs: &[(Value, Value)], tys: &[Type]) -> Vec<Value> {
    pairs
        .iter()
        .zip(tys)
        .map(|((x, t), ty)| {
            let data = InstData::New {
                ty: ty.clone(),
                args: vec![*x, *t],
            };
            e.val(data, ty.clone())
        })
        .collect()
}

/// The parts a pullback object is saved as: its leaves (numbers), each at a path of field
/// positions, when it is an immutable struct or tuple of at most [`MAX_LEAVES`] numbers and
/// singletons (a closure over floats: saved on stacks of numbers and rebuilt, which inlining
/// then takes apart); else `None` (saved whole).
fn pullback_leaves(t: &Type, env: &TypeEnv) -> Option<Vec<(Vec<u32>, Type)>> {
    fn walk(t: &Type, env: &TypeEnv, path: &mut Vec<u32>, out: &mut Vec<(Vec<u32>, Type)>) -> bool {
        match t {
            Type::Float64 | Type::Float32 | Type::Int64 | Type::Bool => {
                out.push((path.clone(), t.clone()));
                out.len() <= MAX_LEAVES
            }
            _ if singleton(t, env).is_some() => true,
            Type::Struct(..) | Type::Tuple(_) if !env.is_mutable(t) => {
                let Some(fs) = env.field_types(t) else {
                    return false;
                };
                fs.iter().enumerate().all(|(k, ft)| {
                    path.push(k as u32);
                    let ok = walk(ft, env, path, out);
                    path.pop();
                    ok
                })
            }
            _ => false,
        }
    }
    let mut out = Vec::new();
    walk(t, env, &mut Vec::new(), &mut out).then_some(out)
}

/// The most numbers a pullback object is saved as one by one.
const MAX_LEAVES: usize = 8;

/// The constant of a type with one value (`NoFData`, a function, a struct without fields).
fn singleton(t: &Type, env: &TypeEnv) -> Option<Const> {
    match t {
        Type::NoFData | Type::NoRData | Type::NoTangent | Type::Nothing => {
            Some(Const::Singleton(t.clone()))
        }
        Type::Function(n) => Some(Const::Func(*n)),
        Type::Struct(..) if !env.is_mutable(t) => env
            .field_types(t)
            .is_some_and(|fs| fs.is_empty())
            .then(|| Const::Singleton(t.clone())),
        _ => None,
    }
}

/// Pushes the pullback object `pb` (of type `t`) on the rule state's stacks: whole on stack 0,
/// or leaf by leaf on stacks 0, 1, ... (see [`pullback_leaves`]).
fn save_pullback(e: &mut Emit, state: Value, pb: Value, t: &Type, env: &TypeEnv) {
    let Some(leaves) = pullback_leaves(t, env) else {
        let stack = crate::reverse::rule_stack(e, state, 0, Type::vector(t.clone()));
        e.prim(Prim::ArrayPush, vec![stack, pb], Type::vector(t.clone()));
        return;
    };
    for (k, (path, lt)) in leaves.iter().enumerate() {
        let mut v = pb;
        let mut vt = t.clone();
        for &i in path {
            let ft = env.field_types(&vt).expect("a struct or tuple")[i as usize].clone();
            v = e.field(v, i, ft.clone());
            vt = ft;
        }
        let stack = crate::reverse::rule_stack(e, state, k as u32, Type::vector(lt.clone()));
        e.prim(Prim::ArrayPush, vec![stack, v], Type::vector(lt.clone()));
    }
}

/// Pops what [`save_pullback`] pushed and rebuilds the pullback object of type `t`.
fn restore_pullback(e: &mut Emit, state: Value, t: &Type, env: &TypeEnv) -> Value {
    let Some(leaves) = pullback_leaves(t, env) else {
        let stack = crate::reverse::rule_stack(e, state, 0, Type::vector(t.clone()));
        return e.prim(Prim::ArrayPop, vec![stack], t.clone());
    };
    let popped: Vec<Value> = leaves
        .iter()
        .enumerate()
        .map(|(k, (_, lt))| {
            let stack = crate::reverse::rule_stack(e, state, k as u32, Type::vector(lt.clone()));
            e.prim(Prim::ArrayPop, vec![stack], lt.clone())
        })
        .collect();
    let mut next = popped.into_iter();
    rebuild(e, t, env, &mut next)
}

/// The value of type `t` made of the leaves `next` gives, in [`pullback_leaves`]'s order.
fn rebuild(e: &mut Emit, t: &Type, env: &TypeEnv, next: &mut impl Iterator<Item = Value>) -> Value {
    match t {
        Type::Float64 | Type::Float32 | Type::Int64 | Type::Bool => {
            next.next().expect("one leaf per number")
        }
        _ => {
            if let Some(c) = singleton(t, env) {
                return e.konst(c);
            }
            let fs = env.field_types(t).expect("a struct or tuple");
            let args: Vec<Value> = fs.iter().map(|ft| rebuild(e, ft, env, next)).collect();
            let data = match t {
                Type::Tuple(_) => InstData::Tuple { args },
                _ => InstData::New {
                    ty: t.clone(),
                    args,
                },
            };
            e.val(data, t.clone())
        }
    }
}
