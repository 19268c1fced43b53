//! Tangent values and the operations every tangent supports: zero, random,
//! increment (in place for mutable parts, safe under aliasing and cycles), scale, dot,
//! add-to-primal, difference of primals, and the split into fdata and rdata with its inverse.
//!
//! Representation: a float's tangent is a float; `NoTangent`, `NoFData` and `NoRData` are
//! field-less struct values of those types; an array's tangent is an array of element tangents;
//! tuples and named tuples are element-wise; an immutable struct `P` has a `Tangent{P}` struct
//! value, a mutable struct a `MutableTangent{P}` mutable value (with identity: the tangent of one
//! object reached twice is one tangent object).

use ir::{Type, TypeEnv};
use rand::Rng;
use runtime::value::{ArrayObj, MutableVal, NamedTupleVal, StructVal};
use runtime::{SharedArray, Value};
use rustc_hash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// The `NoTangent` value (one shared object).
pub fn no_tangent() -> Value {
    static V: std::sync::LazyLock<Value> =
        std::sync::LazyLock::new(|| Value::fieldless(Type::NoTangent));
    V.clone()
}

/// The `NoRData` value (also the zero of reverse data whose type is known only at run time;
/// one shared object).
pub fn no_rdata() -> Value {
    static V: std::sync::LazyLock<Value> =
        std::sync::LazyLock::new(|| Value::fieldless(Type::NoRData));
    V.clone()
}

/// The value of a field-less type such as `NoFData`.
pub fn singleton_of(t: Type) -> Value {
    Value::fieldless(t)
}

/// Whether `v` is the `NoTangent` value.
pub fn is_no_tangent(v: &Value) -> bool {
    matches!(v, Value::Struct(s) if matches!(s.ty, Type::NoTangent))
}

/// Whether `v` is the value of field-less type `t`.
pub fn is_singleton_of(v: &Value, t: &Type) -> bool {
    is_singleton(v, t)
}

fn is_singleton(v: &Value, t: &Type) -> bool {
    matches!(v, Value::Struct(s) if s.ty == *t)
}

/// Identity of a heap object (arrays and mutable structs), for aliasing and cycles.
fn addr(v: &Value) -> Option<usize> {
    match v {
        Value::Array(a) => Some(SharedArray::as_ptr(a) as *const u8 as usize),
        Value::Mutable(m) => Some(Arc::as_ptr(m) as *const u8 as usize),
        _ => None,
    }
}

fn new_struct(ty: Type, fields: Vec<Value>) -> Value {
    Value::Struct(Arc::new(StructVal {
        ty,
        fields: fields.into_boxed_slice(),
    }))
}

// ---------------------------------------------------------------------------------------------
// Construction

/// A zero tangent for primal `p` (arrays and mutable structs get fresh objects, shared where the
/// primal shares them).
pub fn zero_tangent(p: &Value, env: &TypeEnv) -> Value {
    build(p, env, &mut FxHashMap::default(), &mut Fill::Zero)
}

/// A tangent of `p` whose float entries are `g()`, called once per entry in a fixed order (an
/// object reached twice is built, and counted, once). With the same `p`, the order is the same
/// from call to call: forward mode's chunked gradient enumerates input directions with it.
pub fn tangent_with(p: &Value, env: &TypeEnv, g: &mut dyn FnMut() -> f64) -> Value {
    build(p, env, &mut FxHashMap::default(), &mut Fill::With(g))
}

/// Makes `f`, the fdata of a zero tangent of a primal like `x` that an earlier gradient used,
/// zero again in place so that the next gradient can use it instead of a new one. True if it
/// did; false if `f` cannot serve (a part of it is held elsewhere, no longer has `x`'s shape,
/// or is of a kind this does not reset, or `x` reaches one object twice, which a new fdata
/// would mirror), and the caller builds a new one. Only parts held by nothing but `f` are
/// zeroed, so no one can observe a reset that then fails part way.
pub fn reset_fdata(f: &Value, x: &Value) -> bool {
    reset_f(f, x, &mut Seen::default())
}

/// The primal objects a reset has met: a few in a list (the common case, without hashing or
/// allocating), more in a set.
#[derive(Default)]
struct Seen {
    few: smallvec::SmallVec<[usize; 16]>,
    many: FxHashSet<usize>,
}

impl Seen {
    /// Whether object address `a` is met for the first time (recording it).
    fn insert(&mut self, a: usize) -> bool {
        if self.few.contains(&a) {
            return false;
        }
        if self.few.len() < self.few.inline_size() {
            self.few.push(a);
            return true;
        }
        self.many.insert(a)
    }
}

/// Whether an array or mutable struct is reached twice from `values` (from two of them, as
/// when one array is passed as two arguments, or twice from one). Their zero tangents must
/// then be built together so that such an object has one tangent.
pub fn reaches_an_object_twice<'a>(values: impl IntoIterator<Item = &'a Value>) -> bool {
    let mut seen = Seen::default();
    values.into_iter().any(|v| met_again(v, &mut seen))
}

fn met_again(v: &Value, seen: &mut Seen) -> bool {
    if !first_visit(v, seen) {
        return true;
    }
    match v {
        Value::Array(a) => a.with(|d| match &d.data {
            runtime::ArrayData::Boxed(xs) => xs.iter().any(|x| met_again(x, seen)),
            _ => false,
        }),
        Value::Tuple(xs) => xs.iter().any(|x| met_again(x, seen)),
        Value::Struct(s) => s.fields.iter().any(|x| met_again(x, seen)),
        Value::NamedTuple(t) => t.values.iter().any(|x| met_again(x, seen)),
        Value::Mutable(m) => m.snapshot().iter().any(|x| met_again(x, seen)),
        Value::Int(_)
        | Value::F64(_)
        | Value::F32(_)
        | Value::Bool(_)
        | Value::Nothing
        | Value::Undef
        | Value::Str(_)
        | Value::Sym(_)
        | Value::Func(_)
        | Value::Type(_) => false,
    }
}

/// The zero fdata of each of `all` (declared types `types`), built together: an object
/// reached from several of them gets one tangent, which all their fdata share.
pub fn joint_zero_fdatas(all: &[Value], types: &[Type], env: &TypeEnv) -> Vec<Value> {
    let t = zero_tangent(&Value::tuple(all.to_vec()), env);
    types
        .iter()
        .enumerate()
        .map(|(k, ty)| fdata(&t.field(k).unwrap_or_else(no_tangent), ty, env))
        .collect()
}

/// Whether the primal object `x` (if it is one) is met for the first time.
fn first_visit(x: &Value, seen: &mut Seen) -> bool {
    addr(x).is_none_or(|a| seen.insert(a))
}

fn reset_f(f: &Value, x: &Value, seen: &mut Seen) -> bool {
    if !first_visit(x, seen) {
        return false;
    }
    if is_singleton(f, &Type::NoFData) {
        return without_fdata(x);
    }
    match (f, x) {
        (Value::Array(g), Value::Array(a)) => reset_array(g, a, seen),
        (Value::Tuple(fs), Value::Tuple(xs)) => {
            Arc::strong_count(fs) == 1
                && fs.len() == xs.len()
                && fs.iter().zip(xs.iter()).all(|(f, x)| reset_f(f, x, seen))
        }
        (Value::Struct(s), Value::Struct(p)) => {
            Arc::strong_count(s) == 1
                && s.fields.len() == p.fields.len()
                && s.fields
                    .iter()
                    .zip(p.fields.iter())
                    .all(|(f, x)| reset_f(f, x, seen))
        }
        _ => false,
    }
}

/// Whether the fdata of `x` is `NoFData` whatever its declared type: numbers and other
/// values without parts, integer and boolean arrays, and aggregates of such values.
fn without_fdata(x: &Value) -> bool {
    match x {
        Value::Int(_)
        | Value::F64(_)
        | Value::F32(_)
        | Value::Bool(_)
        | Value::Nothing
        | Value::Str(_)
        | Value::Sym(_)
        | Value::Func(_)
        | Value::Type(_) => true,
        Value::Array(a) => matches!(a.elem, Type::Int64 | Type::Bool),
        Value::Tuple(xs) => xs.iter().all(without_fdata),
        Value::Struct(s) => s.fields.iter().all(without_fdata),
        Value::Undef | Value::NamedTuple(_) | Value::Mutable(_) => false,
    }
}

/// Zeroes tangent array `g` of primal array `a` in place (see [`reset_fdata`]): float arrays,
/// and arrays of such arrays.
fn reset_array(g: &SharedArray, a: &ArrayObj, seen: &mut Seen) -> bool {
    if SharedArray::count(g) != 1 || g.is_shared() {
        return false;
    }
    if a.with(|ad| g.with(|gd| gd.dims != ad.dims)) {
        return false;
    }
    let elems = match &a.elem {
        Type::Float64 | Type::Float32 => None,
        Type::Array(..) => Some(a.snapshot()),
        _ => return false,
    };
    g.with_mut(|gd| match (&mut gd.data, elems) {
        (runtime::ArrayData::F64(v), None) => {
            v.fill(0.0);
            true
        }
        (runtime::ArrayData::F32(v), None) => {
            v.fill(0.0);
            true
        }
        (runtime::ArrayData::Boxed(ts), Some(xs)) => {
            ts.len() == xs.len()
                && ts.iter().zip(&xs).all(|(t, x)| match (t, x) {
                    (Value::Array(t), Value::Array(x)) => {
                        seen.insert(SharedArray::as_ptr(x) as *const u8 as usize)
                            && reset_array(t, x, seen)
                    }
                    _ => false,
                })
        }
        _ => false,
    })
}

/// The float entries of a tangent being built.
enum Fill<'a> {
    Zero,
    With(&'a mut dyn FnMut() -> f64),
}

impl Fill<'_> {
    fn next(&mut self) -> f64 {
        match self {
            Fill::Zero => 0.0,
            Fill::With(g) => g(),
        }
    }

    fn vec<T: Clone + Default>(&mut self, n: usize, conv: fn(f64) -> T) -> Vec<T> {
        match self {
            // One allocation of zeroed memory, no per-element call.
            Fill::Zero => vec![T::default(); n],
            Fill::With(g) => (0..n).map(|_| conv(g())).collect(),
        }
    }
}

/// A random tangent for primal `p` (standard normal entries).
pub fn random_tangent(p: &Value, env: &TypeEnv, rng: &mut impl Rng) -> Value {
    let mut normal = || {
        // Box–Muller.
        let u1: f64 = rng.random::<f64>().max(1e-300);
        let u2: f64 = rng.random::<f64>();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).cos()
    };
    build(
        p,
        env,
        &mut FxHashMap::default(),
        &mut Fill::With(&mut normal),
    )
}

fn build(
    p: &Value,
    env: &TypeEnv,
    memo: &mut FxHashMap<usize, Value>,
    gen: &mut Fill<'_>,
) -> Value {
    if let Some(a) = addr(p) {
        if let Some(t) = memo.get(&a) {
            return t.clone();
        }
    }
    // Floats and float arrays (the common cases) without working out their types; float
    // arrays without a per-element walk.
    match p {
        Value::F64(_) => return Value::F64(gen.next()),
        Value::F32(_) => return Value::F32(gen.next() as f32),
        Value::Array(a) if matches!(a.elem, Type::Float64 | Type::Float32) => {
            let n = a.len();
            let data = if a.elem == Type::Float64 {
                runtime::ArrayData::F64(gen.vec(n, |x| x))
            } else {
                runtime::ArrayData::F32(gen.vec(n, |x| x as f32))
            };
            let out = Value::Array(SharedArray::new(ArrayObj::new(
                a.elem.clone(),
                a.dims(),
                data,
            )));
            memo.insert(addr(p).unwrap_or(0), out.clone());
            return out;
        }
        _ => {}
    }
    let tt = ir::tangent::tangent_type(&p.ty(), env);
    if tt == Type::NoTangent {
        return no_tangent();
    }
    match p {
        Value::Array(a) => {
            let Type::Array(te, _) = &tt else {
                return no_tangent();
            };
            let dims = a.dims();
            let elems = a.snapshot();
            // Register the (empty) tangent first so that cycles through the array resolve.
            let out = ArrayObj::zeros_shared((**te).clone(), &dims);
            memo.insert(addr(p).unwrap_or(0), Value::Array(out.clone()));
            for (i, e) in elems.iter().enumerate() {
                let v = build(e, env, memo, gen);
                out.set(i, v);
            }
            Value::Array(out)
        }
        Value::Tuple(vs) => Value::Tuple(vs.iter().map(|v| build(v, env, memo, gen)).collect()),
        Value::NamedTuple(nt) => Value::NamedTuple(Arc::new(NamedTupleVal {
            names: nt.names.clone(),
            values: nt.values.iter().map(|v| build(v, env, memo, gen)).collect(),
        })),
        Value::Struct(s) => new_struct(
            tt.clone(),
            s.fields.iter().map(|v| build(v, env, memo, gen)).collect(),
        ),
        Value::Mutable(m) => {
            let fields = m.snapshot();
            let out = Arc::new(MutableVal::new(
                tt.clone(),
                vec![Value::Undef; fields.len()],
            ));
            memo.insert(addr(p).unwrap_or(0), Value::Mutable(out.clone()));
            for (i, f) in fields.iter().enumerate() {
                let v = match f {
                    Value::Undef => Value::Undef,
                    f => build(f, env, memo, gen),
                };
                out.set(i, v);
            }
            Value::Mutable(out)
        }
        _ => no_tangent(),
    }
}

// ---------------------------------------------------------------------------------------------
// Arithmetic

/// `f` on the corresponding parts of two tuples or two named tuples, rebuilt as an aggregate of
/// the same kind (the recursion shared by increment, add-to-primal and difference).
fn zip_parts(a: &Value, b: &Value, mut f: impl FnMut(&Value, &Value) -> Value) -> Value {
    match (a, b) {
        (Value::Tuple(xs), Value::Tuple(ys)) => {
            Value::Tuple(xs.iter().zip(ys.iter()).map(|(x, y)| f(x, y)).collect())
        }
        (Value::NamedTuple(x), Value::NamedTuple(y)) => {
            Value::NamedTuple(Arc::new(NamedTupleVal {
                names: x.names.clone(),
                values: x
                    .values
                    .iter()
                    .zip(y.values.iter())
                    .map(|(p, q)| f(p, q))
                    .collect(),
            }))
        }
        _ => a.clone(),
    }
}

/// `t + s`. Mutable parts of `t` (arrays, mutable tangents) are incremented in place and
/// returned; immutable parts are new values. Safe when `t` and `s` alias and under cycles.
pub fn increment(t: &Value, s: &Value) -> Value {
    inc(t, s, &mut FxHashSet::default())
}

fn inc(t: &Value, s: &Value, seen: &mut FxHashSet<(usize, usize)>) -> Value {
    match (t, s) {
        (Value::F64(a), Value::F64(b)) => Value::F64(a + b),
        (Value::F32(a), Value::F32(b)) => Value::F32(a + b),
        (Value::Array(a), Value::Array(b)) => {
            let key = (addr(t).unwrap_or(0), addr(s).unwrap_or(0));
            if !seen.insert(key) {
                return t.clone();
            }
            // Read both first: when `t` and `s` are the same array this doubles it.
            let (xs, ys) = (a.snapshot(), b.snapshot());
            for (i, (x, y)) in xs.iter().zip(ys.iter()).enumerate() {
                let v = inc(x, y, seen);
                a.set(i, v);
            }
            t.clone()
        }
        (Value::Tuple(_), Value::Tuple(_)) | (Value::NamedTuple(_), Value::NamedTuple(_)) => {
            zip_parts(t, s, |x, y| inc(x, y, seen))
        }
        (Value::Struct(x), Value::Struct(y)) if x.fields.is_empty() => {
            let _ = y;
            t.clone()
        }
        (Value::Struct(x), Value::Struct(y)) => new_struct(
            x.ty.clone(),
            x.fields
                .iter()
                .zip(y.fields.iter())
                .map(|(a, b)| inc(a, b, seen))
                .collect(),
        ),
        (Value::Mutable(x), Value::Mutable(y)) => {
            let key = (addr(t).unwrap_or(0), addr(s).unwrap_or(0));
            if !seen.insert(key) {
                return t.clone();
            }
            let (xs, ys) = (x.snapshot(), y.snapshot());
            for (i, (a, b)) in xs.iter().zip(ys.iter()).enumerate() {
                if matches!(a, Value::Undef) {
                    continue;
                }
                let v = inc(a, b, seen);
                x.set(i, v);
            }
            t.clone()
        }
        // NoTangent (and fdata/rdata singletons) absorb.
        _ => t.clone(),
    }
}

/// `a * t` as a new tangent (mutable parts copied).
pub fn scale(a: f64, t: &Value) -> Value {
    map_floats(t, &mut |x| a * x, &mut FxHashMap::default())
}

fn map_floats(
    t: &Value,
    f: &mut dyn FnMut(f64) -> f64,
    memo: &mut FxHashMap<usize, Value>,
) -> Value {
    if let Some(k) = addr(t) {
        if let Some(v) = memo.get(&k) {
            return v.clone();
        }
    }
    match t {
        Value::F64(x) => Value::F64(f(*x)),
        Value::F32(x) => Value::F32(f(*x as f64) as f32),
        Value::Array(a) => {
            let out = ArrayObj::zeros_shared(a.elem.clone(), &a.dims());
            memo.insert(addr(t).unwrap_or(0), Value::Array(out.clone()));
            for (i, x) in a.snapshot().iter().enumerate() {
                let v = map_floats(x, f, memo);
                out.set(i, v);
            }
            Value::Array(out)
        }
        Value::Tuple(xs) => Value::Tuple(xs.iter().map(|x| map_floats(x, f, memo)).collect()),
        Value::NamedTuple(nt) => Value::NamedTuple(Arc::new(NamedTupleVal {
            names: nt.names.clone(),
            values: nt.values.iter().map(|x| map_floats(x, f, memo)).collect(),
        })),
        Value::Struct(s) => new_struct(
            s.ty.clone(),
            s.fields.iter().map(|x| map_floats(x, f, memo)).collect(),
        ),
        Value::Mutable(m) => {
            let fields = m.snapshot();
            let out = Arc::new(MutableVal::new(
                m.ty.clone(),
                vec![Value::Undef; fields.len()],
            ));
            memo.insert(addr(t).unwrap_or(0), Value::Mutable(out.clone()));
            for (i, x) in fields.iter().enumerate() {
                let v = match x {
                    Value::Undef => Value::Undef,
                    x => map_floats(x, f, memo),
                };
                out.set(i, v);
            }
            Value::Mutable(out)
        }
        other => other.clone(),
    }
}

/// The inner product of two tangents of one primal.
pub fn dot(t: &Value, s: &Value) -> f64 {
    dot_rec(t, s, &mut FxHashSet::default())
}

fn dot_rec(t: &Value, s: &Value, seen: &mut FxHashSet<(usize, usize)>) -> f64 {
    match (t, s) {
        (Value::F64(a), Value::F64(b)) => a * b,
        (Value::F32(a), Value::F32(b)) => (*a as f64) * (*b as f64),
        (Value::Array(a), Value::Array(b)) => {
            if !seen.insert((addr(t).unwrap_or(0), addr(s).unwrap_or(0))) {
                return 0.0;
            }
            a.snapshot()
                .iter()
                .zip(b.snapshot().iter())
                .map(|(x, y)| dot_rec(x, y, seen))
                .sum()
        }
        (Value::Tuple(xs), Value::Tuple(ys)) => xs
            .iter()
            .zip(ys.iter())
            .map(|(x, y)| dot_rec(x, y, seen))
            .sum(),
        (Value::NamedTuple(x), Value::NamedTuple(y)) => x
            .values
            .iter()
            .zip(y.values.iter())
            .map(|(a, b)| dot_rec(a, b, seen))
            .sum(),
        (Value::Struct(x), Value::Struct(y)) => x
            .fields
            .iter()
            .zip(y.fields.iter())
            .map(|(a, b)| dot_rec(a, b, seen))
            .sum(),
        (Value::Mutable(x), Value::Mutable(y)) => {
            if !seen.insert((addr(t).unwrap_or(0), addr(s).unwrap_or(0))) {
                return 0.0;
            }
            x.snapshot()
                .iter()
                .zip(y.snapshot().iter())
                .map(|(a, b)| dot_rec(a, b, seen))
                .sum()
        }
        _ => 0.0,
    }
}

/// `p + t`: a new primal moved along tangent `t` (arrays and mutable structs are new objects,
/// shared where `p` shares them).
pub fn add_to_primal(p: &Value, t: &Value) -> Value {
    add_rec(p, t, &mut FxHashMap::default())
}

fn add_rec(p: &Value, t: &Value, memo: &mut FxHashMap<usize, Value>) -> Value {
    if let Some(k) = addr(p) {
        if let Some(v) = memo.get(&k) {
            return v.clone();
        }
    }
    match (p, t) {
        (Value::F64(x), Value::F64(d)) => Value::F64(x + d),
        (Value::F32(x), Value::F32(d)) => Value::F32(x + d),
        (Value::Array(a), Value::Array(d)) => {
            let out = ArrayObj::zeros_shared(a.elem.clone(), &a.dims());
            memo.insert(addr(p).unwrap_or(0), Value::Array(out.clone()));
            for (i, (x, dx)) in a.snapshot().iter().zip(d.snapshot().iter()).enumerate() {
                let v = add_rec(x, dx, memo);
                out.set(i, v);
            }
            Value::Array(out)
        }
        (Value::Tuple(_), Value::Tuple(_)) | (Value::NamedTuple(_), Value::NamedTuple(_)) => {
            zip_parts(p, t, |x, d| add_rec(x, d, memo))
        }
        (Value::Struct(x), Value::Struct(d)) if !d.fields.is_empty() => new_struct(
            x.ty.clone(),
            x.fields
                .iter()
                .zip(d.fields.iter())
                .map(|(a, b)| add_rec(a, b, memo))
                .collect(),
        ),
        (Value::Mutable(m), Value::Mutable(d)) => {
            let fields = m.snapshot();
            let out = Arc::new(MutableVal::new(
                m.ty.clone(),
                vec![Value::Undef; fields.len()],
            ));
            memo.insert(addr(p).unwrap_or(0), Value::Mutable(out.clone()));
            for (i, (x, dx)) in fields.iter().zip(d.snapshot().iter()).enumerate() {
                let v = match x {
                    Value::Undef => Value::Undef,
                    x => add_rec(x, dx, memo),
                };
                out.set(i, v);
            }
            Value::Mutable(out)
        }
        // No tangent: the primal does not move.
        _ => p.clone(),
    }
}

/// The tangent `p - q` between two primals of one type.
pub fn difference(p: &Value, q: &Value, env: &TypeEnv) -> Value {
    diff_rec(p, q, env, &mut FxHashMap::default())
}

fn diff_rec(p: &Value, q: &Value, env: &TypeEnv, memo: &mut FxHashMap<usize, Value>) -> Value {
    if let Some(k) = addr(p) {
        if let Some(v) = memo.get(&k) {
            return v.clone();
        }
    }
    let tt = ir::tangent::tangent_type(&p.ty(), env);
    if tt == Type::NoTangent {
        return no_tangent();
    }
    match (p, q) {
        (Value::F64(a), Value::F64(b)) => Value::F64(a - b),
        (Value::F32(a), Value::F32(b)) => Value::F32(a - b),
        (Value::Array(a), Value::Array(b)) => {
            let Type::Array(te, _) = &tt else {
                return no_tangent();
            };
            let out = ArrayObj::zeros_shared((**te).clone(), &a.dims());
            memo.insert(addr(p).unwrap_or(0), Value::Array(out.clone()));
            for (i, (x, y)) in a.snapshot().iter().zip(b.snapshot().iter()).enumerate() {
                let v = diff_rec(x, y, env, memo);
                out.set(i, v);
            }
            Value::Array(out)
        }
        (Value::Tuple(_), Value::Tuple(_)) | (Value::NamedTuple(_), Value::NamedTuple(_)) => {
            zip_parts(p, q, |x, y| diff_rec(x, y, env, memo))
        }
        (Value::Struct(x), Value::Struct(y)) => new_struct(
            tt,
            x.fields
                .iter()
                .zip(y.fields.iter())
                .map(|(a, b)| diff_rec(a, b, env, memo))
                .collect(),
        ),
        (Value::Mutable(x), Value::Mutable(y)) => {
            let fields = x.snapshot();
            let out = Arc::new(MutableVal::new(tt, vec![Value::Undef; fields.len()]));
            memo.insert(addr(p).unwrap_or(0), Value::Mutable(out.clone()));
            for (i, (a, b)) in fields.iter().zip(y.snapshot().iter()).enumerate() {
                let v = match a {
                    Value::Undef => Value::Undef,
                    a => diff_rec(a, b, env, memo),
                };
                out.set(i, v);
            }
            Value::Mutable(out)
        }
        _ => no_tangent(),
    }
}

// ---------------------------------------------------------------------------------------------
// fdata / rdata

/// Which half of a tangent to take.
#[derive(Clone, Copy, PartialEq)]
enum Half {
    /// Forward data: the parts identified by address (arrays, mutable tangents).
    F,
    /// Reverse data: the parts identified by value (floats, immutable aggregates).
    R,
}

/// The forward data of tangent `t` (of a primal of type `p`): the parts identified by address.
pub fn fdata(t: &Value, p: &Type, env: &TypeEnv) -> Value {
    half(t, p, env, Half::F)
}

/// The reverse data of tangent `t` (of a primal of type `p`): the parts identified by value.
pub fn rdata(t: &Value, p: &Type, env: &TypeEnv) -> Value {
    half(t, p, env, Half::R)
}

fn half(t: &Value, p: &Type, env: &TypeEnv, h: Half) -> Value {
    // A float array's tangent is its own fdata (the common case, without type work).
    if let (Value::Array(a), Half::F) = (t, h) {
        if matches!(a.elem, Type::Float64 | Type::Float32) {
            return t.clone();
        }
    }
    let (ty, none) = match h {
        Half::F => (ir::tangent::fdata_type(p, env), Type::NoFData),
        Half::R => (ir::tangent::rdata_type(p, env), Type::NoRData),
    };
    if ty == none {
        return Value::fieldless(none);
    }
    match (t, p) {
        (Value::F64(_) | Value::F32(_), _) if h == Half::R => t.clone(),
        (Value::Array(_) | Value::Mutable(_), _) if h == Half::F => t.clone(),
        (Value::Tuple(xs), Type::Tuple(ps)) => Value::Tuple(
            xs.iter()
                .zip(ps.iter())
                .map(|(x, pt)| half(x, pt, env, h))
                .collect(),
        ),
        (Value::NamedTuple(x), Type::NamedTuple(_, ps)) => {
            Value::NamedTuple(Arc::new(NamedTupleVal {
                names: x.names.clone(),
                values: x
                    .values
                    .iter()
                    .zip(ps.iter())
                    .map(|(v, pt)| half(v, pt, env, h))
                    .collect(),
            }))
        }
        (Value::Struct(s), Type::Struct(..)) => {
            let fts = env.field_types(p).unwrap_or_default();
            new_struct(
                ty,
                s.fields
                    .iter()
                    .zip(fts.iter())
                    .map(|(v, pt)| half(v, pt, env, h))
                    .collect(),
            )
        }
        // A primal of abstract type: split by the value's own type.
        (v, _) if h == Half::F && *p != v.ty() => half(v, &v.ty(), env, h),
        _ => Value::fieldless(none),
    }
}

/// Recombines fdata and rdata into the tangent of a primal of type `p`:
/// `tangent_from(p, fdata(t), rdata(t)) == t`.
pub fn tangent_from(p: &Type, f: &Value, r: &Value, env: &TypeEnv) -> Value {
    let tt = ir::tangent::tangent_type(p, env);
    if tt == Type::NoTangent {
        return no_tangent();
    }
    match p {
        Type::Float64 | Type::Float32 => r.clone(),
        Type::Array(..) => f.clone(),
        Type::Tuple(ps) => Value::Tuple(
            ps.iter()
                .enumerate()
                .map(|(i, pt)| tangent_from(pt, &part(f, i), &part(r, i), env))
                .collect(),
        ),
        Type::NamedTuple(ns, ps) => Value::NamedTuple(Arc::new(NamedTupleVal {
            names: ns.clone(),
            values: ps
                .iter()
                .enumerate()
                .map(|(i, pt)| tangent_from(pt, &part(f, i), &part(r, i), env))
                .collect(),
        })),
        Type::Struct(..) if env.is_mutable(p) => f.clone(),
        Type::Struct(..) => {
            let fts = env.field_types(p).unwrap_or_default();
            new_struct(
                tt,
                fts.iter()
                    .enumerate()
                    .map(|(i, pt)| tangent_from(pt, &part(f, i), &part(r, i), env))
                    .collect(),
            )
        }
        _ => match (f, r) {
            (f, r) if is_singleton(r, &Type::NoRData) => f.clone(),
            (_, r) => r.clone(),
        },
    }
}

/// Field `i` of an aggregate, or the singleton itself (`NoFData` has no fields: every part of
/// it is `NoFData`).
fn part(v: &Value, i: usize) -> Value {
    match v.field(i) {
        Some(x) => x,
        None => v.clone(),
    }
}

/// The least relative tolerance for comparing the results of two different algorithms on
/// `Float32` numbers (a forward rule and a pullback round differently; in single precision that
/// is far above tolerances meant for `Float64`): about 80 units in the last place.
pub const F32_RTOL: f64 = 1e-5;

/// `rtol` for comparing tangents like `t` computed by two different algorithms: at least
/// [`F32_RTOL`] if `t` holds `Float32` numbers.
pub fn algorithms_rtol(t: &Value, rtol: f64) -> f64 {
    fn single(v: &Value) -> bool {
        match v {
            Value::F32(_) => true,
            Value::Array(a) => a.elem == ir::Type::Float32,
            Value::Tuple(t) => t.iter().any(single),
            _ => false,
        }
    }
    if single(t) {
        rtol.max(F32_RTOL)
    } else {
        rtol
    }
}

/// Whether two tangents are equal up to `rtol`/`atol` on their floats (structure must match).
pub fn tangent_approx_eq(a: &Value, b: &Value, rtol: f64, atol: f64) -> bool {
    approx_rec(a, b, rtol, atol, &mut FxHashSet::default())
}

fn approx_rec(
    a: &Value,
    b: &Value,
    rtol: f64,
    atol: f64,
    seen: &mut FxHashSet<(usize, usize)>,
) -> bool {
    if let (Some(x), Some(y)) = (addr(a), addr(b)) {
        if !seen.insert((x, y)) {
            return true;
        }
    }
    let tangent_approx_eq = |p: &Value, q: &Value, rtol: f64, atol: f64| {
        approx_rec(p, q, rtol, atol, &mut seen.clone())
    };
    let close = |x: f64, y: f64| {
        (x - y).abs() <= atol + rtol * x.abs().max(y.abs()) || (x.is_nan() && y.is_nan())
    };
    match (a, b) {
        (Value::F64(x), Value::F64(y)) => close(*x, *y),
        (Value::F32(x), Value::F32(y)) => close(*x as f64, *y as f64),
        (Value::Array(x), Value::Array(y)) => {
            x.dims() == y.dims()
                && x.snapshot()
                    .iter()
                    .zip(y.snapshot().iter())
                    .all(|(p, q)| tangent_approx_eq(p, q, rtol, atol))
        }
        (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|(p, q)| tangent_approx_eq(p, q, rtol, atol))
        }
        (Value::NamedTuple(x), Value::NamedTuple(y)) => {
            x.names == y.names
                && x.values
                    .iter()
                    .zip(y.values.iter())
                    .all(|(p, q)| tangent_approx_eq(p, q, rtol, atol))
        }
        (Value::Struct(x), Value::Struct(y)) => {
            x.ty == y.ty
                && x.fields
                    .iter()
                    .zip(y.fields.iter())
                    .all(|(p, q)| tangent_approx_eq(p, q, rtol, atol))
        }
        (Value::Mutable(x), Value::Mutable(y)) => {
            Arc::ptr_eq(x, y)
                || (x.ty == y.ty
                    && x.snapshot()
                        .iter()
                        .zip(y.snapshot().iter())
                        .all(|(p, q)| tangent_approx_eq(p, q, rtol, atol)))
        }
        (Value::Undef, Value::Undef) => true,
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------------
// Reverse data known only at run time (values of type `Any`)

/// Whether `v` is the `NoRData` value, which also stands for the zero of reverse data whose
/// type is only known at run time.
pub fn is_no_rdata(v: &Value) -> bool {
    is_singleton(v, &Type::NoRData)
}

/// Whether reverse data `v` is `NoRData` or a tuple or named tuple of such, all the way down.
fn carries_no_rdata(v: &Value) -> bool {
    match v {
        Value::Tuple(vs) => vs.iter().all(carries_no_rdata),
        Value::NamedTuple(nt) => nt.values.iter().all(carries_no_rdata),
        _ => is_no_rdata(v) || is_singleton(v, &Type::NoTangent),
    }
}

/// The zero of reverse-data type `t` (`NoRData` for `Any`: a zero of any type).
pub fn zero_rdata_of(t: &Type, env: &TypeEnv) -> Value {
    match t {
        Type::Float64 => Value::F64(0.0),
        Type::Float32 => Value::F32(0.0),
        Type::Tuple(ts) => Value::Tuple(ts.iter().map(|t| zero_rdata_of(t, env)).collect()),
        Type::NamedTuple(ns, ts) => Value::NamedTuple(Arc::new(NamedTupleVal {
            names: ns.clone(),
            values: ts.iter().map(|t| zero_rdata_of(t, env)).collect(),
        })),
        Type::RData(_) => new_struct(
            t.clone(),
            env.field_types(t)
                .unwrap_or_default()
                .iter()
                .map(|f| zero_rdata_of(f, env))
                .collect(),
        ),
        // (The tangent of reverse data, in forward mode over a pullback.)
        Type::NoTangent => no_tangent(),
        _ => Value::fieldless(Type::NoRData),
    }
}

/// `a + b` for reverse data of any type, `NoRData` being zero (and, in forward mode over a
/// pullback, `NoTangent`: the tangent of a `NoRData` constant).
pub fn rdata_add(a: &Value, b: &Value) -> Value {
    let zero = |v: &Value| is_no_rdata(v) || is_singleton(v, &Type::NoTangent);
    if zero(a) {
        return b.clone();
    }
    if zero(b) {
        return a.clone();
    }
    match (a, b) {
        (Value::F64(x), Value::F64(y)) => Value::F64(x + y),
        (Value::F32(x), Value::F32(y)) => Value::F32(x + y),
        (Value::Tuple(_), Value::Tuple(_)) | (Value::NamedTuple(_), Value::NamedTuple(_)) => {
            zip_parts(a, b, rdata_add)
        }
        (Value::Struct(x), Value::Struct(y)) if x.ty == y.ty => new_struct(
            x.ty.clone(),
            x.fields
                .iter()
                .zip(y.fields.iter())
                .map(|(p, q)| rdata_add(p, q))
                .collect(),
        ),
        _ => a.clone(),
    }
}

/// Reverse data `r` as a value of reverse-data type `t`: a `NoRData` zero becomes `t`'s zero,
/// part by part. `None` if `r` cannot be reverse data of that type.
pub fn rdata_convert(r: &Value, t: &Type, env: &TypeEnv) -> Option<Value> {
    if *t == Type::Any {
        return Some(r.clone());
    }
    // No reverse data, or (in forward mode over a pullback) the tangent of none.
    if is_no_rdata(r) || is_singleton(r, &Type::NoTangent) {
        return Some(zero_rdata_of(t, env));
    }
    // A tuple whose elements carry no reverse data (a tuple of ranges built at run time) is
    // `NoRData` where its type is known (`NoTangent` where it is a tangent's part).
    if *t == Type::NoRData && carries_no_rdata(r) {
        return Some(no_rdata());
    }
    if *t == Type::NoTangent && carries_no_rdata(r) {
        return Some(no_tangent());
    }
    let parts = |ts: &[Type], vs: &[Value]| -> Option<Vec<Value>> {
        if ts.len() != vs.len() {
            return None;
        }
        ts.iter()
            .zip(vs)
            .map(|(t, v)| rdata_convert(v, t, env))
            .collect()
    };
    match (t, r) {
        (Type::Float64, Value::F64(_)) | (Type::Float32, Value::F32(_)) => Some(r.clone()),
        (Type::Tuple(ts), Value::Tuple(vs)) => Some(Value::Tuple(parts(ts, vs)?.into())),
        (Type::NamedTuple(ns, ts), Value::NamedTuple(nt)) => {
            Some(Value::NamedTuple(Arc::new(NamedTupleVal {
                names: ns.clone(),
                values: parts(ts, &nt.values)?.into(),
            })))
        }
        (Type::RData(_), Value::Struct(s)) if s.ty == *t => {
            let fts = env.field_types(t)?;
            Some(new_struct(t.clone(), parts(&fts, &s.fields)?))
        }
        _ => None,
    }
}
