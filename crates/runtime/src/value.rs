//! Run-time values. Scalars are unboxed; immutable aggregates are shared immutable data;
//! arrays and mutable structs are heap objects with identity (`===` compares addresses).
//! Arrays of `Float64`, `Float32`, `Int64` and `Bool` store unboxed elements contiguously in
//! column-major order, the layout native code uses.

use crate::exception::Exception;
use crate::memory;
use ir::Type;
use std::cell::UnsafeCell;
use std::fmt;
use std::sync::Arc;
use syntax::Symbol;

#[derive(Clone, Debug)]
pub enum Value {
    Int(i64),
    F64(f64),
    F32(f32),
    Bool(bool),
    Nothing,
    /// An unassigned variable or array slot.
    Undef,
    Str(Arc<str>),
    /// A quoted name (`:a`).
    Sym(Symbol),
    Tuple(Arc<[Value]>),
    NamedTuple(Arc<NamedTupleVal>),
    /// An immutable struct.
    Struct(Arc<StructVal>),
    /// A mutable struct (identity).
    Mutable(Arc<MutableVal>),
    Array(SharedArray),
    /// A generic function.
    Func(Symbol),
    /// A type as a value.
    Type(Arc<Type>),
}

/// A reference to an array: counted, without weak references (so dropping one changes one
/// count, not two).
pub type SharedArray<T = ArrayObj> = triomphe::Arc<T>;

#[derive(Debug)]
pub struct NamedTupleVal {
    pub names: Arc<[Symbol]>,
    pub values: Box<[Value]>,
}

#[derive(Debug)]
pub struct StructVal {
    pub ty: Type,
    pub fields: Box<[Value]>,
}

/// A mutable struct: its fields change in place and it has identity.
pub struct MutableVal {
    pub ty: Type,
    fields: UnsafeCell<Box<[Value]>>,
    /// When it was made, relative to the running `try` bodies (see `tries`).
    born: u64,
}

// SAFETY: the language has no data races on mutable structs (the interpreter runs one thread;
// threaded code only writes disjoint array elements), and every access below copies values in
// or out without keeping a reference into the cell.
unsafe impl Sync for MutableVal {}
unsafe impl Send for MutableVal {}

// Values nest as deeply as a program makes them (a linked list of a million nodes, the rule
// state of a recursion 100,000 calls deep); dropping them must not recurse as deeply. A
// container's drop moves the parts it owns alone into a work list and drops them one by one,
// each emptied of its own parts first.
impl Drop for MutableVal {
    fn drop(&mut self) {
        let fields = std::mem::take(self.fields.get_mut());
        drop_all(fields.into_vec());
    }
}

impl Drop for StructVal {
    fn drop(&mut self) {
        drop_all(std::mem::take(&mut self.fields).into_vec());
    }
}

impl Drop for NamedTupleVal {
    fn drop(&mut self) {
        drop_all(std::mem::take(&mut self.values).into_vec());
    }
}

/// Drops `stack` without recursing into nested containers.
fn drop_all(mut stack: Vec<Value>) {
    while let Some(mut v) = stack.pop() {
        take_parts(&mut v, &mut stack);
    }
}

/// Moves the parts of `v` onto `stack` if `v` is the only owner of its container (which is
/// then dropped empty).
fn take_parts(v: &mut Value, stack: &mut Vec<Value>) {
    match v {
        Value::Mutable(m) => {
            if let Some(mv) = Arc::get_mut(m) {
                stack.extend(std::mem::take(mv.fields.get_mut()).into_vec());
            }
        }
        Value::Struct(st) => {
            if let Some(sv) = Arc::get_mut(st) {
                stack.extend(std::mem::take(&mut sv.fields).into_vec());
            }
        }
        Value::NamedTuple(nt) => {
            if let Some(nv) = Arc::get_mut(nt) {
                stack.extend(std::mem::take(&mut nv.values).into_vec());
            }
        }
        Value::Tuple(t) => {
            if let Some(parts) = Arc::get_mut(t) {
                stack.extend(
                    parts
                        .iter_mut()
                        .map(|p| std::mem::replace(p, Value::Nothing)),
                );
            }
        }
        Value::Array(a) => {
            if let Some(ao) = SharedArray::get_mut(a) {
                if let ArrayData::Boxed(vs) = &mut ao.inner.get_mut().data {
                    stack.append(vs);
                }
            }
        }
        _ => {}
    }
}

impl std::fmt::Debug for MutableVal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MutableVal({})", self.ty)
    }
}

impl MutableVal {
    pub fn new(ty: Type, fields: Vec<Value>) -> MutableVal {
        MutableVal {
            ty,
            fields: UnsafeCell::new(fields.into_boxed_slice()),
            born: crate::tries::birth(),
        }
    }
    pub(crate) fn birth_number(&self) -> u64 {
        self.born
    }
    pub fn get(&self, i: usize) -> Option<Value> {
        // SAFETY: see the `Sync` impl; the reference does not outlive this call.
        unsafe { (&*self.fields.get()).get(i).cloned() }
    }
    /// `f` applied to field `i` (if it exists), without copying the field.
    pub fn with_field<R>(&self, i: usize, f: impl FnOnce(&Value) -> R) -> Option<R> {
        // SAFETY: see the `Sync` impl; the reference does not outlive this call, and `f`
        // must not reach this object again (it gets one field, not the object).
        unsafe { (&*self.fields.get()).get(i).map(f) }
    }
    pub fn set(&self, i: usize, v: Value) -> bool {
        // SAFETY: see the `Sync` impl; the old value is dropped after the write completes.
        unsafe {
            let fields = &mut *self.fields.get();
            match fields.get_mut(i) {
                Some(slot) => {
                    let _old = std::mem::replace(slot, v);
                    true
                }
                None => false,
            }
        }
    }
    pub fn len(&self) -> usize {
        // SAFETY: see the `Sync` impl.
        unsafe { (&*self.fields.get()).len() }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn snapshot(&self) -> Vec<Value> {
        // SAFETY: see the `Sync` impl.
        unsafe { (&*self.fields.get()).to_vec() }
    }
}

/// A scalar stored inside a bits layout.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Scalar {
    F64,
    F32,
    I64,
    Bool,
}

/// How to rebuild an isbits value from its bytes.
#[derive(Debug, Clone)]
enum Shape {
    Scalar(Scalar, usize),
    /// A field-less value (`nothing`, a function, a type, an empty struct).
    Singleton(Value),
    Struct(Type, Vec<Shape>),
    Tuple(Vec<Shape>),
    NamedTuple(Arc<[Symbol]>, Vec<Shape>),
}

/// The C layout of an isbits struct or tuple type: size, alignment and field offsets, as
/// native code lays the value out in memory.
#[derive(Debug, Clone)]
pub struct BitsLayout {
    pub ty: Type,
    pub size: usize,
    pub align: usize,
    shape: Shape,
}

impl BitsLayout {
    /// The layout of `ty` if it is an isbits aggregate (structs, tuples, named tuples of
    /// isbits fields); primitives have their own typed storage and return `None`.
    pub fn of(ty: &Type, env: &ir::TypeEnv) -> Option<BitsLayout> {
        if !matches!(
            ty,
            Type::Struct(..)
                | Type::Tuple(_)
                | Type::NamedTuple(..)
                | Type::Tangent(_)
                | Type::FData(_)
                | Type::RData(_)
        ) || !ty.is_bits(env)
        {
            return None;
        }
        let mut size = 0usize;
        let mut align = 1usize;
        let shape = Self::place(ty, env, &mut size, &mut align)?;
        let size = size.div_ceil(align) * align;
        Some(BitsLayout {
            ty: ty.clone(),
            size,
            align,
            shape,
        })
    }

    fn place(ty: &Type, env: &ir::TypeEnv, off: &mut usize, align: &mut usize) -> Option<Shape> {
        let scalar = |k: Scalar, w: usize, off: &mut usize, align: &mut usize| {
            *off = off.div_ceil(w) * w;
            *align = (*align).max(w);
            let at = *off;
            *off += w;
            Shape::Scalar(k, at)
        };
        Some(match ty {
            Type::Float64 => scalar(Scalar::F64, 8, off, align),
            Type::Int64 => scalar(Scalar::I64, 8, off, align),
            Type::Float32 => scalar(Scalar::F32, 4, off, align),
            Type::Bool => scalar(Scalar::Bool, 1, off, align),
            Type::Nothing => Shape::Singleton(Value::Nothing),
            Type::Function(f) => Shape::Singleton(Value::Func(*f)),
            Type::Type(t) => Shape::Singleton(Value::Type(t.clone())),
            Type::NoTangent | Type::NoFData | Type::NoRData => {
                Shape::Singleton(Value::fieldless(ty.clone()))
            }
            Type::Struct(..) | Type::Tangent(_) | Type::FData(_) | Type::RData(_) => {
                let fts = env.field_types(ty)?;
                let fields = fts
                    .iter()
                    .map(|ft| Self::place(ft, env, off, align))
                    .collect::<Option<Vec<_>>>()?;
                Shape::Struct(ty.clone(), fields)
            }
            Type::Tuple(ts) => Shape::Tuple(
                ts.iter()
                    .map(|t| Self::place(t, env, off, align))
                    .collect::<Option<Vec<_>>>()?,
            ),
            Type::NamedTuple(ns, ts) => Shape::NamedTuple(
                ns.clone(),
                ts.iter()
                    .map(|t| Self::place(t, env, off, align))
                    .collect::<Option<Vec<_>>>()?,
            ),
            _ => return None,
        })
    }

    /// The offsets of the float fields of a value of this layout, all `Float64` (`true`) or
    /// all `Float32` (`false`); `None` if it holds an integer or a Bool, or floats of both
    /// widths. (A tangent of this layout is added field by field at these offsets.)
    pub fn float_fields(&self) -> Option<(bool, Vec<usize>)> {
        fn walk(s: &Shape, wide: &mut Option<bool>, out: &mut Vec<usize>) -> bool {
            match s {
                Shape::Scalar(k @ (Scalar::F64 | Scalar::F32), at) => {
                    let w = matches!(k, Scalar::F64);
                    out.push(*at);
                    *wide.get_or_insert(w) == w
                }
                Shape::Scalar(Scalar::I64 | Scalar::Bool, _) => false,
                Shape::Singleton(_) => true,
                Shape::Struct(_, fs) | Shape::Tuple(fs) | Shape::NamedTuple(_, fs) => {
                    fs.iter().all(|f| walk(f, wide, out))
                }
            }
        }
        let (mut wide, mut out) = (None, Vec::new());
        walk(&self.shape, &mut wide, &mut out).then(|| (wide.unwrap_or(true), out))
    }

    fn read_shape(shape: &Shape, b: &[u8]) -> Value {
        let word = |at: usize, w: usize| -> [u8; 8] {
            let mut buf = [0u8; 8];
            buf[..w].copy_from_slice(&b[at..at + w]);
            buf
        };
        match shape {
            Shape::Scalar(Scalar::F64, at) => Value::F64(f64::from_le_bytes(word(*at, 8))),
            Shape::Scalar(Scalar::I64, at) => Value::Int(i64::from_le_bytes(word(*at, 8))),
            Shape::Scalar(Scalar::F32, at) => {
                let w = word(*at, 4);
                Value::F32(f32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            }
            Shape::Scalar(Scalar::Bool, at) => Value::Bool(b[*at] != 0),
            Shape::Singleton(v) => v.clone(),
            Shape::Struct(ty, fs) => Value::Struct(Arc::new(StructVal {
                ty: ty.clone(),
                fields: fs.iter().map(|f| Self::read_shape(f, b)).collect(),
            })),
            Shape::Tuple(fs) => Value::Tuple(fs.iter().map(|f| Self::read_shape(f, b)).collect()),
            Shape::NamedTuple(ns, fs) => Value::NamedTuple(Arc::new(NamedTupleVal {
                names: ns.clone(),
                values: fs.iter().map(|f| Self::read_shape(f, b)).collect(),
            })),
        }
    }

    fn write_shape(shape: &Shape, b: &mut [u8], v: &Value) -> bool {
        match (shape, v) {
            (Shape::Scalar(Scalar::F64, at), Value::F64(x)) => {
                b[*at..*at + 8].copy_from_slice(&x.to_le_bytes())
            }
            (Shape::Scalar(Scalar::I64, at), Value::Int(x)) => {
                b[*at..*at + 8].copy_from_slice(&x.to_le_bytes())
            }
            (Shape::Scalar(Scalar::F32, at), Value::F32(x)) => {
                b[*at..*at + 4].copy_from_slice(&x.to_le_bytes())
            }
            (Shape::Scalar(Scalar::Bool, at), Value::Bool(x)) => b[*at] = *x as u8,
            (Shape::Singleton(_), _) => {}
            (Shape::Struct(ty, fs), Value::Struct(sv))
                if sv.ty == *ty && sv.fields.len() == fs.len() =>
            {
                return fs
                    .iter()
                    .zip(sv.fields.iter())
                    .all(|(f, x)| Self::write_shape(f, b, x));
            }
            (Shape::Tuple(fs), Value::Tuple(xs)) if xs.len() == fs.len() => {
                return fs
                    .iter()
                    .zip(xs.iter())
                    .all(|(f, x)| Self::write_shape(f, b, x));
            }
            (Shape::NamedTuple(_, fs), Value::NamedTuple(nt)) if nt.values.len() == fs.len() => {
                return fs
                    .iter()
                    .zip(nt.values.iter())
                    .all(|(f, x)| Self::write_shape(f, b, x));
            }
            _ => return false,
        }
        true
    }

    /// For a tuple of `Int64`/`Float64`/`Float32`/`Bool` elements: each element's byte
    /// offset (native code reads and writes such elements in place).
    pub fn scalar_offsets(&self) -> Option<Vec<usize>> {
        match &self.shape {
            Shape::Tuple(fs) => fs
                .iter()
                .map(|f| match f {
                    Shape::Scalar(_, at) => Some(*at),
                    _ => None,
                })
                .collect(),
            _ => None,
        }
    }

    /// Decodes the element stored in `bytes` (exactly `size` bytes).
    pub fn read(&self, bytes: &[u8]) -> Value {
        Self::read_shape(&self.shape, bytes)
    }

    /// Encodes `v` into `bytes`; false if `v` does not have this layout's type.
    pub fn write(&self, bytes: &mut [u8], v: &Value) -> bool {
        Self::write_shape(&self.shape, bytes, v)
    }
}

/// Element storage of an array.
#[derive(Debug, Clone)]
pub enum ArrayData {
    F64(Vec<f64>),
    F32(Vec<f32>),
    I64(Vec<i64>),
    Bool(Vec<bool>),
    /// Isbits structs and tuples, inline in their C layout (`len` elements of `layout.size`
    /// bytes each, so that zero-size elements still have a length).
    Bits {
        layout: Arc<BitsLayout>,
        bytes: Vec<u8>,
        len: usize,
    },
    /// Any other element type: values (unassigned slots are `Value::Undef`).
    Boxed(Vec<Value>),
}

impl ArrayData {
    pub fn len(&self) -> usize {
        match self {
            ArrayData::F64(v) => v.len(),
            ArrayData::F32(v) => v.len(),
            ArrayData::I64(v) => v.len(),
            ArrayData::Bool(v) => v.len(),
            ArrayData::Bits { len, .. } => *len,
            ArrayData::Boxed(v) => v.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Whether arrays of element type `elem` store boxed values ([`ArrayData::Boxed`]): not
    /// floats, integers, booleans or isbits aggregates, which are stored inline.
    pub fn stores_boxed(elem: &Type, env: &ir::TypeEnv) -> bool {
        !matches!(
            elem,
            Type::Float64 | Type::Float32 | Type::Int64 | Type::Bool
        ) && BitsLayout::of(elem, env).is_none()
    }

    /// Zero-filled storage of `n` elements of type `elem`, inline when `elem` is an isbits
    /// aggregate.
    pub fn zeros_in(elem: &Type, n: usize, env: &ir::TypeEnv) -> ArrayData {
        match BitsLayout::of(elem, env) {
            Some(layout) => ArrayData::Bits {
                bytes: vec![0; layout.size * n],
                layout: Arc::new(layout),
                len: n,
            },
            None => ArrayData::zeros(elem, n),
        }
    }

    /// Zero-filled storage of `n` elements of type `elem` (aggregates boxed).
    pub fn zeros(elem: &Type, n: usize) -> ArrayData {
        match elem {
            Type::Float64 => ArrayData::F64(vec![0.0; n]),
            Type::Float32 => ArrayData::F32(vec![0.0; n]),
            Type::Int64 => ArrayData::I64(vec![0; n]),
            Type::Bool => ArrayData::Bool(vec![false; n]),
            Type::Nothing => ArrayData::Boxed(vec![Value::Nothing; n]),
            _ => ArrayData::Boxed(vec![Value::Undef; n]),
        }
    }
    pub fn get(&self, i: usize) -> Option<Value> {
        Some(match self {
            ArrayData::F64(v) => Value::F64(*v.get(i)?),
            ArrayData::F32(v) => Value::F32(*v.get(i)?),
            ArrayData::I64(v) => Value::Int(*v.get(i)?),
            ArrayData::Bool(v) => Value::Bool(*v.get(i)?),
            ArrayData::Bits { layout, bytes, len } => {
                if i >= *len {
                    return None;
                }
                layout.read(&bytes[i * layout.size..(i + 1) * layout.size])
            }
            ArrayData::Boxed(v) => v.get(i)?.clone(),
        })
    }
    /// Stores `x` (which must already have the element type).
    pub fn set(&mut self, i: usize, x: Value) -> bool {
        match (self, x) {
            (ArrayData::F64(v), Value::F64(x)) => v.get_mut(i).map(|s| *s = x).is_some(),
            (ArrayData::F32(v), Value::F32(x)) => v.get_mut(i).map(|s| *s = x).is_some(),
            (ArrayData::I64(v), Value::Int(x)) => v.get_mut(i).map(|s| *s = x).is_some(),
            (ArrayData::Bool(v), Value::Bool(x)) => v.get_mut(i).map(|s| *s = x).is_some(),
            (ArrayData::Bits { layout, bytes, len }, x) => {
                i < *len && layout.write(&mut bytes[i * layout.size..(i + 1) * layout.size], &x)
            }
            (ArrayData::Boxed(v), x) => v.get_mut(i).map(|s| *s = x).is_some(),
            _ => false,
        }
    }
    pub fn push(&mut self, x: Value) -> bool {
        match (self, x) {
            (ArrayData::F64(v), Value::F64(x)) => v.push(x),
            (ArrayData::F32(v), Value::F32(x)) => v.push(x),
            (ArrayData::I64(v), Value::Int(x)) => v.push(x),
            (ArrayData::Bool(v), Value::Bool(x)) => v.push(x),
            (ArrayData::Bits { layout, bytes, len }, x) => {
                let at = bytes.len();
                bytes.resize(at + layout.size, 0);
                if !layout.write(&mut bytes[at..], &x) {
                    bytes.truncate(at);
                    return false;
                }
                *len += 1;
            }
            (ArrayData::Boxed(v), x) => v.push(x),
            _ => return false,
        }
        true
    }
    pub fn pop(&mut self) -> Option<Value> {
        Some(match self {
            ArrayData::F64(v) => Value::F64(v.pop()?),
            ArrayData::F32(v) => Value::F32(v.pop()?),
            ArrayData::I64(v) => Value::Int(v.pop()?),
            ArrayData::Bool(v) => Value::Bool(v.pop()?),
            ArrayData::Bits { layout, bytes, len } => {
                if *len == 0 {
                    return None;
                }
                *len -= 1;
                let v = layout.read(&bytes[*len * layout.size..]);
                bytes.truncate(*len * layout.size);
                v
            }
            ArrayData::Boxed(v) => v.pop()?,
        })
    }
    /// Empty storage of the same kind.
    pub fn clone_empty(&self) -> ArrayData {
        match self {
            ArrayData::F64(_) => ArrayData::F64(Vec::new()),
            ArrayData::I64(_) => ArrayData::I64(Vec::new()),
            ArrayData::F32(_) => ArrayData::F32(Vec::new()),
            ArrayData::Bool(_) => ArrayData::Bool(Vec::new()),
            ArrayData::Bits { layout, .. } => ArrayData::Bits {
                layout: layout.clone(),
                bytes: Vec::new(),
                len: 0,
            },
            ArrayData::Boxed(_) => ArrayData::Boxed(Vec::new()),
        }
    }

    /// Bytes per element.
    pub fn elem_size(&self) -> usize {
        match self {
            ArrayData::F64(_) | ArrayData::I64(_) => 8,
            ArrayData::F32(_) => 4,
            ArrayData::Bool(_) => 1,
            ArrayData::Bits { layout, .. } => layout.size,
            ArrayData::Boxed(_) => std::mem::size_of::<Value>(),
        }
    }

    /// Bytes of storage held (the capacity, not only the length).
    pub fn capacity_bytes(&self) -> usize {
        match self {
            ArrayData::F64(v) => v.capacity() * 8,
            ArrayData::I64(v) => v.capacity() * 8,
            ArrayData::F32(v) => v.capacity() * 4,
            ArrayData::Bool(v) => v.capacity(),
            ArrayData::Bits { bytes, .. } => bytes.capacity(),
            ArrayData::Boxed(v) => v.capacity() * std::mem::size_of::<Value>(),
        }
    }

    /// Room for `additional` more elements, within the array memory budget, or
    /// `OutOfMemoryError()` (never an abort).
    pub fn try_reserve(&mut self, additional: usize) -> Result<(), Exception> {
        let len = self.len();
        let cap = match self {
            ArrayData::Bits { bytes, layout, .. } => bytes.capacity() / layout.size.max(1),
            _ => self.capacity_bytes() / self.elem_size().max(1),
        };
        if len + additional <= cap {
            return Ok(());
        }
        // Amortised growth: at least double, as `Vec` does.
        let want = (len.checked_add(additional).ok_or(Exception::OutOfMemory)?).max(2 * cap);
        let extra = want - len;
        let es = self.elem_size();
        memory::grow(extra, es, || match self {
            ArrayData::F64(v) => v.try_reserve_exact(extra),
            ArrayData::I64(v) => v.try_reserve_exact(extra),
            ArrayData::F32(v) => v.try_reserve_exact(extra),
            ArrayData::Bool(v) => v.try_reserve_exact(extra),
            ArrayData::Bits { bytes, layout, .. } => {
                bytes.try_reserve_exact(extra.saturating_mul(layout.size))
            }
            ArrayData::Boxed(v) => v.try_reserve_exact(extra),
        })
    }

    /// `push`, after making room within the budget.
    pub fn try_push(&mut self, x: Value) -> Result<bool, Exception> {
        self.try_reserve(1)?;
        Ok(self.push(x))
    }

    /// `resize`, after making room within the budget.
    pub fn try_resize(&mut self, n: usize) -> Result<(), Exception> {
        let len = self.len();
        if n > len {
            self.try_reserve(n - len)?;
        }
        self.resize(n);
        Ok(())
    }

    /// A copy, within the budget.
    pub fn try_clone(&self) -> Result<ArrayData, Exception> {
        let mut c = match self {
            ArrayData::Bits { layout, .. } => ArrayData::Bits {
                layout: layout.clone(),
                bytes: Vec::new(),
                len: 0,
            },
            ArrayData::F64(_) => ArrayData::F64(Vec::new()),
            ArrayData::I64(_) => ArrayData::I64(Vec::new()),
            ArrayData::F32(_) => ArrayData::F32(Vec::new()),
            ArrayData::Bool(_) => ArrayData::Bool(Vec::new()),
            ArrayData::Boxed(_) => ArrayData::Boxed(Vec::new()),
        };
        c.try_reserve(self.len())?;
        match (&mut c, self) {
            (ArrayData::F64(d), ArrayData::F64(s)) => d.extend_from_slice(s),
            (ArrayData::I64(d), ArrayData::I64(s)) => d.extend_from_slice(s),
            (ArrayData::F32(d), ArrayData::F32(s)) => d.extend_from_slice(s),
            (ArrayData::Bool(d), ArrayData::Bool(s)) => d.extend_from_slice(s),
            (ArrayData::Boxed(d), ArrayData::Boxed(s)) => d.extend_from_slice(s),
            (
                ArrayData::Bits {
                    bytes: d, len: dl, ..
                },
                ArrayData::Bits {
                    bytes: s, len: sl, ..
                },
            ) => {
                d.extend_from_slice(s);
                *dl = *sl;
            }
            _ => {}
        }
        Ok(c)
    }

    /// `n` zero elements of type `elem` (see `zeros_in`), within the budget.
    pub fn try_zeros_in(elem: &Type, n: usize, env: &ir::TypeEnv) -> Result<ArrayData, Exception> {
        let mut d = ArrayData::zeros_in(elem, 0, env);
        d.try_reserve(n)?;
        match &mut d {
            ArrayData::F64(v) => zero_fresh(v, n),
            ArrayData::F32(v) => zero_fresh(v, n),
            ArrayData::I64(v) => zero_fresh(v, n),
            // An array of `nothing`s holds its one value from the start, as Julia's does.
            ArrayData::Boxed(v) if *elem == Type::Nothing => v.resize(n, Value::Nothing),
            _ => d.resize(n),
        }
        Ok(d)
    }

    pub fn resize(&mut self, n: usize) {
        match self {
            ArrayData::F64(v) => v.resize(n, 0.0),
            ArrayData::F32(v) => v.resize(n, 0.0),
            ArrayData::I64(v) => v.resize(n, 0),
            ArrayData::Bool(v) => v.resize(n, false),
            ArrayData::Bits { layout, bytes, len } => {
                bytes.resize(n * layout.size, 0);
                *len = n;
            }
            ArrayData::Boxed(v) => v.resize(n, Value::Undef),
        }
    }
}

/// Makes the empty `v`, with room for `n` elements, hold `n` zeros (`T` a number type, whose
/// zero is all zero bits): for a large `n`, in parts on the loop team
/// (`threads::par_chunks`), so that zeroing a big tangent array is not left to one thread.
fn zero_fresh<T: Copy + Default + Send>(v: &mut Vec<T>, n: usize) {
    if n < crate::threads::PAR_MIN_ELEMS || !v.is_empty() || v.capacity() < n {
        return v.resize(n, T::default());
    }
    crate::threads::par_chunks(&mut v.spare_capacity_mut()[..n], &|part| {
        // SAFETY: `part` is memory of `v` this closure alone writes, valid for `part.len()`
        // elements; zero bytes are a valid `T` (see above).
        unsafe { part.as_mut_ptr().write_bytes(0, part.len()) }
    });
    // SAFETY: `v` was empty and its first `n` slots were all written above (`par_chunks` runs
    // the closure on every part of the slice it is given, or panics before this line).
    unsafe { v.set_len(n) };
}

/// An array: element type, dimensions and contiguous column-major storage.
#[repr(C)]
pub struct ArrayObj {
    /// First, at fixed offsets, for native code (see [`ArrayView`]).
    pub view: ArrayView,
    pub elem: Type,
    inner: UnsafeCell<ArrayInner>,
    /// Bytes of storage charged to the array memory budget (see `memory`).
    charged: std::cell::Cell<usize>,
    /// The array whose storage this one shares (`reshape`, `vec`), as Julia's arrays share
    /// their memory: then this array's own `inner.data` is an empty placeholder and its
    /// `inner.dims` its own shape. Always the owner of the storage, never another sharer.
    parent: Option<SharedArray>,
    /// How many arrays share this one's storage. While any does, neither can be resized
    /// (native code's view shows a capacity of 0, so its inline push and pop take the
    /// checked path).
    sharers: std::sync::atomic::AtomicUsize,
    /// When it was made, relative to the running `try` bodies (see `tries`).
    born: u64,
}

/// What native code reads and writes directly in an array: the element buffer of a
/// `Float64`, `Int64` or isbits-aggregate array (null for other storage), its length and
/// capacity in elements, the first dimension and the product of the others, and the second
/// dimension alone and the product of those after it.
///
/// Invariant: for those storages the view's length is authoritative. `with_mut` refreshes the
/// view from the storage after a change; native code may push or pop within the capacity by
/// writing the buffer and the view's `len` (and `d1` of a vector) only, and `with`/`with_mut`
/// first bring the storage's length up to the view's (the elements in between were written by
/// native code, so they are initialised).
#[repr(C)]
pub struct ArrayView {
    pub ptr: std::cell::Cell<*mut u8>,
    pub len: std::cell::Cell<usize>,
    pub d1: std::cell::Cell<usize>,
    pub d2: std::cell::Cell<usize>,
    pub cap: std::cell::Cell<usize>,
    /// The second dimension alone (1 for a vector), for indexing with three indices.
    pub e2: std::cell::Cell<usize>,
    /// The product of the dimensions after the second (1 for a vector or matrix).
    pub e3: std::cell::Cell<usize>,
}

impl ArrayView {
    /// Byte offsets of the fields within an `ArrayObj`.
    pub const PTR: i32 = 0;
    pub const LEN: i32 = 8;
    pub const D1: i32 = 16;
    pub const D2: i32 = 24;
    pub const CAP: i32 = 32;
    pub const E2: i32 = 40;
    pub const E3: i32 = 48;
}

/// An array's dimensions: inline for vectors and matrices (no allocation of their own).
pub type Dims = smallvec::SmallVec<[usize; 2]>;

#[derive(Debug, Clone)]
pub struct ArrayInner {
    pub dims: Dims,
    pub data: ArrayData,
}

// SAFETY: as for `MutableVal`: no concurrent writes to one element, and accessors below never
// hand out references that outlive the call (closures get the data for their duration only and
// must not reach the same array again).
unsafe impl Sync for ArrayObj {}
unsafe impl Send for ArrayObj {}

/// How many arrays are alive in this process (allocated and not yet freed), for tests that
/// memory of temporaries is reclaimed: counted per thread and added up now and then
/// (`memory::Tally`), so exact for arrays this thread made and freed.
pub fn live_arrays() -> usize {
    memory::LIVE_ARRAYS.read().max(0) as usize
}

impl Drop for ArrayObj {
    fn drop(&mut self) {
        memory::LIVE_ARRAYS.add(-1);
        memory::charge(self.charged.get(), 0);
        if let Some(p) = &self.parent {
            if p.sharers.fetch_sub(1, std::sync::atomic::Ordering::AcqRel) == 1 {
                // The owner may grow again.
                p.touch();
            }
        }
        if let ArrayData::Boxed(vs) = &mut self.inner.get_mut().data {
            drop_all(std::mem::take(vs));
        }
    }
}

impl std::fmt::Debug for ArrayObj {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Array{{{}}}{:?}", self.elem, self.dims())
    }
}

impl ArrayObj {
    /// An array of `elem`s with dimensions `dims` (a `Vec` or [`Dims`]) holding `data`.
    pub fn new(elem: Type, dims: impl Into<Dims>, data: ArrayData) -> ArrayObj {
        ArrayObj::with_dims(elem, dims.into(), data)
    }
    /// As [`ArrayObj::with_dims`], built in its shared allocation (an array object is some
    /// 200 bytes: built elsewhere and moved in, the copy costs as much as the rest of a small
    /// array's allocation).
    #[inline(always)]
    pub fn shared(elem: Type, dims: Dims, data: ArrayData) -> SharedArray {
        // (A raw pointer into the new allocation, not `get_mut`, whose uniqueness test is an
        // atomic read.)
        let mut a = SharedArray::<std::mem::MaybeUninit<ArrayObj>>::new_uninit();
        let p = a.as_mut_ptr();
        // SAFETY: `p` points into the fresh allocation `a` alone owns: it is initialised here,
        // before anything reads it.
        unsafe {
            let obj = (*p).write(ArrayObj::unviewed(elem, dims, data));
            obj.refresh(&mut *obj.inner.get());
            a.assume_init()
        }
    }
    /// As [`ArrayObj::new`], with the dimensions given inline.
    pub fn with_dims(elem: Type, dims: Dims, data: ArrayData) -> ArrayObj {
        let a = ArrayObj::unviewed(elem, dims, data);
        // SAFETY: `a` is not shared yet.
        a.refresh(unsafe { &mut *a.inner.get() });
        a
    }
    /// A new array whose view is not set yet (see `refresh`).
    #[inline(always)]
    fn unviewed(elem: Type, dims: Dims, data: ArrayData) -> ArrayObj {
        memory::LIVE_ARRAYS.add(1);
        ArrayObj {
            view: ArrayView {
                ptr: std::cell::Cell::new(std::ptr::null_mut()),
                len: std::cell::Cell::new(0),
                d1: std::cell::Cell::new(0),
                d2: std::cell::Cell::new(0),
                e2: std::cell::Cell::new(0),
                e3: std::cell::Cell::new(0),
                cap: std::cell::Cell::new(0),
            },
            elem,
            inner: UnsafeCell::new(ArrayInner { dims, data }),
            charged: std::cell::Cell::new(0),
            parent: None,
            sharers: std::sync::atomic::AtomicUsize::new(0),
            born: crate::tries::birth(),
        }
    }
    /// Zero-filled, with isbits aggregates stored inline (their native layout).
    pub fn zeros_in(elem: Type, dims: Vec<usize>, env: &ir::TypeEnv) -> ArrayObj {
        let n = dims.iter().product();
        let data = ArrayData::zeros_in(&elem, n, env);
        ArrayObj::new(elem, dims, data)
    }
    pub fn from_values(elem: Type, dims: Vec<usize>, vals: Vec<Value>) -> ArrayObj {
        let mut data = ArrayData::zeros(&elem, 0);
        for v in vals {
            data.push(v);
        }
        ArrayObj::new(elem, dims, data)
    }
    pub fn vector_f64(v: Vec<f64>) -> ArrayObj {
        let n = v.len();
        ArrayObj::new(Type::Float64, vec![n], ArrayData::F64(v))
    }
    /// An array of shape `dims` sharing the storage of `a` (Julia's `reshape` of an `Array`):
    /// writes through either are seen by both. `dims` must hold `a`'s length.
    pub fn share(a: &SharedArray, dims: Vec<usize>) -> ArrayObj {
        let owner = a.parent.clone().unwrap_or_else(|| a.clone());
        owner
            .sharers
            .fetch_add(1, std::sync::atomic::Ordering::AcqRel);
        // The owner's view now shows no spare capacity.
        owner.touch();
        let placeholder = owner.with(|i| {
            let mut d = i.data.clone_empty();
            d.resize(0);
            d
        });
        memory::LIVE_ARRAYS.add(1);
        let c = ArrayObj {
            view: ArrayView {
                ptr: std::cell::Cell::new(std::ptr::null_mut()),
                len: std::cell::Cell::new(0),
                d1: std::cell::Cell::new(0),
                d2: std::cell::Cell::new(0),
                e2: std::cell::Cell::new(0),
                e3: std::cell::Cell::new(0),
                cap: std::cell::Cell::new(0),
            },
            elem: a.elem.clone(),
            inner: UnsafeCell::new(ArrayInner {
                dims: dims.into(),
                data: placeholder,
            }),
            charged: std::cell::Cell::new(0),
            parent: Some(owner),
            sharers: std::sync::atomic::AtomicUsize::new(0),
            born: 0,
        };
        c.touch();
        c
    }

    /// Brings the view up to date (after its storage or its sharing changed).
    fn touch(&self) {
        // SAFETY: see the `Sync` impl.
        let inner = unsafe { &mut *self.inner.get() };
        if self.parent.is_none() {
            self.sync(inner);
        }
        self.refresh(inner);
    }

    /// Whether the two arrays read and write the same storage.
    pub fn same_memory(&self, other: &ArrayObj) -> bool {
        let root = |a: &ArrayObj| -> *const ArrayObj {
            a.parent
                .as_deref()
                .map_or(a as *const ArrayObj, |p| p as *const ArrayObj)
        };
        std::ptr::eq(root(self), root(other))
    }

    /// Whether this array shares its storage with another (so cannot be resized).
    /// The birth number of the storage: the owner's, for an array sharing another's.
    pub(crate) fn storage_born(&self) -> u64 {
        self.parent.as_ref().map_or(self.born, |p| p.born)
    }
    pub fn is_shared(&self) -> bool {
        self.parent.is_some() || self.sharers.load(std::sync::atomic::Ordering::Acquire) > 0
    }

    /// Reads the array state for the duration of `f`.
    pub fn with<R>(&self, f: impl FnOnce(&ArrayInner) -> R) -> R {
        if let Some(p) = &self.parent {
            // SAFETY: see the `Sync` impl; only this array's shape is read.
            let dims = unsafe { &mut (*self.inner.get()).dims };
            return p.with_shape(dims, |inner| f(inner));
        }
        // SAFETY: see the `Sync` impl; `sync` only changes lengths within the capacity.
        let inner = unsafe { &mut *self.inner.get() };
        self.sync(inner);
        f(inner)
    }
    /// Mutates the array state for the duration of `f` (then brings the view up to date).
    pub fn with_mut<R>(&self, f: impl FnOnce(&mut ArrayInner) -> R) -> R {
        if let Some(p) = &self.parent {
            // SAFETY: see the `Sync` impl.
            let dims = unsafe { &mut (*self.inner.get()).dims };
            let r = p.with_shape(dims, f);
            // The owner's view (its elements may have changed) and this one's.
            p.touch();
            // SAFETY: as above.
            self.refresh(unsafe { &mut *self.inner.get() });
            return r;
        }
        // SAFETY: see the `Sync` impl.
        let inner = unsafe { &mut *self.inner.get() };
        self.sync(inner);
        let r = f(inner);
        self.refresh(inner);
        r
    }
    /// Overwrites the elements of this `Float64` array in place with `fill` when its shape is
    /// `dims` and it shares its storage with no other array; returns whether it did. Neither
    /// the length nor the buffer changes, so the view stays as it is.
    pub fn overwrite_f64(&self, dims: &[usize], fill: impl FnOnce(&mut [f64])) -> bool {
        if self.is_shared() {
            return false;
        }
        // SAFETY: see the `Sync` impl; `fill` gets the elements for its duration only.
        let inner = unsafe { &mut *self.inner.get() };
        self.sync(inner);
        let same = inner.dims.as_slice() == dims;
        match &mut inner.data {
            ArrayData::F64(v) if same => {
                fill(v);
                true
            }
            _ => false,
        }
    }
    /// `f` on this array's state with `dims` (a sharer's shape) in place of its own.
    fn with_shape<R>(&self, dims: &mut Dims, f: impl FnOnce(&mut ArrayInner) -> R) -> R {
        // SAFETY: see the `Sync` impl.
        let inner = unsafe { &mut *self.inner.get() };
        self.sync(inner);
        std::mem::swap(&mut inner.dims, dims);
        let r = f(inner);
        std::mem::swap(&mut inner.dims, dims);
        r
    }
    /// Brings the storage's length up to the view's (native code pushed or popped).
    fn sync(&self, inner: &mut ArrayInner) {
        let n = self.view.len.get();
        let changed = match &mut inner.data {
            ArrayData::F64(v) if v.len() != n && n <= v.capacity() => {
                // SAFETY: elements up to `n` are initialised (see `ArrayView`).
                unsafe { v.set_len(n) };
                true
            }
            ArrayData::I64(v) if v.len() != n && n <= v.capacity() => {
                // SAFETY: as above.
                unsafe { v.set_len(n) };
                true
            }
            ArrayData::Bits { layout, bytes, len }
                if *len != n && layout.size > 0 && n * layout.size <= bytes.capacity() =>
            {
                // SAFETY: as above, for the elements' bytes.
                unsafe { bytes.set_len(n * layout.size) };
                *len = n;
                true
            }
            _ => false,
        };
        if changed && inner.dims.len() == 1 {
            inner.dims[0] = n;
        }
    }
    /// Brings the view up to date with the storage.
    fn refresh(&self, inner: &mut ArrayInner) {
        if let Some(p) = &self.parent {
            // The owner's storage, this array's shape.
            self.view.ptr.set(p.view.ptr.get());
            self.view.len.set(p.view.len.get());
            let d1 = inner.dims.first().copied().unwrap_or(0);
            let d2 = inner.dims.iter().skip(1).product::<usize>();
            self.view.d1.set(d1);
            self.view.d2.set(if inner.dims.len() > 1 { d2 } else { 1 });
            self.view.e2.set(inner.dims.get(1).copied().unwrap_or(1));
            self.view
                .e3
                .set(inner.dims.iter().skip(2).product::<usize>());
            self.view.cap.set(0);
            return;
        }
        let (ptr, len, cap) = match &mut inner.data {
            ArrayData::F64(v) => (v.as_mut_ptr() as *mut u8, v.len(), v.capacity()),
            ArrayData::I64(v) => (v.as_mut_ptr() as *mut u8, v.len(), v.capacity()),
            ArrayData::Bits { layout, bytes, len } if layout.size > 0 => {
                (bytes.as_mut_ptr(), *len, bytes.capacity() / layout.size)
            }
            _ => (std::ptr::null_mut(), 0, 0),
        };
        let d1 = inner.dims.first().copied().unwrap_or(len);
        let d2 = if inner.dims.len() > 1 {
            inner.dims[1..].iter().product::<usize>()
        } else {
            1
        };
        self.view.ptr.set(ptr);
        self.view.len.set(len);
        self.view.d1.set(d1);
        self.view.d2.set(d2);
        self.view.e2.set(inner.dims.get(1).copied().unwrap_or(1));
        self.view
            .e3
            .set(inner.dims.iter().skip(2).product::<usize>());
        self.view.cap.set(
            if self.sharers.load(std::sync::atomic::Ordering::Acquire) > 0 {
                0
            } else {
                cap
            },
        );
        self.recharge(inner);
    }
    /// Pushes `x` onto this vector of boxed values when it owns its storage alone (as a rule
    /// state's stack does), within the memory budget: `Err(x)` otherwise, for the general path.
    pub fn push_boxed(&self, x: Value) -> Result<(), Value> {
        let Some(inner) = self.own_boxed_vector() else {
            return Err(x);
        };
        let full = matches!(&inner.data, ArrayData::Boxed(v) if v.len() == v.capacity());
        // Growing goes through the memory budget.
        if full && inner.data.try_reserve(1).is_err() {
            return Err(x);
        }
        let ArrayData::Boxed(v) = &mut inner.data else {
            return Err(x);
        };
        v.push(x);
        self.boxed_len_changed(inner);
        if full {
            self.recharge(inner);
        }
        Ok(())
    }

    /// Pops the last value of this vector of boxed values when it owns its storage alone and
    /// is not empty; `None` otherwise, for the general path.
    pub fn pop_boxed(&self) -> Option<Value> {
        let inner = self.own_boxed_vector()?;
        let ArrayData::Boxed(v) = &mut inner.data else {
            return None;
        };
        let x = v.pop()?;
        // The capacity stays: nothing to charge.
        self.boxed_len_changed(inner);
        Some(x)
    }

    /// After a push or pop on a vector of boxed values: its dimension and the view's.
    fn boxed_len_changed(&self, inner: &mut ArrayInner) {
        let n = inner.data.len();
        inner.dims[0] = n;
        self.view.d1.set(n);
    }

    /// This array's state if it is a vector of boxed values that shares its storage with no
    /// other array. Such storage has no element view for native code: of the view, only the
    /// first dimension follows its length (what `refresh` would set).
    #[allow(clippy::mut_from_ref)]
    fn own_boxed_vector(&self) -> Option<&mut ArrayInner> {
        if self.parent.is_some() || self.sharers.load(std::sync::atomic::Ordering::Acquire) > 0 {
            return None;
        }
        // SAFETY: see the `Sync` impl; the caller uses the state for the duration of its own
        // call only.
        let inner = unsafe { &mut *self.inner.get() };
        (inner.dims.len() == 1 && matches!(inner.data, ArrayData::Boxed(_))).then_some(inner)
    }

    /// The memory charged for the array, after its storage changed.
    fn recharge(&self, inner: &ArrayInner) {
        let bytes = inner.data.capacity_bytes();
        if bytes != self.charged.get() {
            memory::charge(self.charged.get(), bytes);
            self.charged.set(bytes);
        }
    }

    /// The dimensions (held inline for vectors and matrices: no allocation).
    pub fn dims(&self) -> Dims {
        self.with(|a| Dims::from_slice(&a.dims))
    }
    pub fn len(&self) -> usize {
        self.with(|a| a.data.len())
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn get(&self, i: usize) -> Option<Value> {
        self.with(|a| a.data.get(i))
    }
    pub fn set(&self, i: usize, v: Value) -> bool {
        self.with_mut(|a| a.data.set(i, v))
    }
    pub fn ndims(&self) -> usize {
        self.with(|a| a.dims.len())
    }
    pub fn ty(&self) -> Type {
        Type::array(self.elem.clone(), self.ndims() as u32)
    }
    pub fn snapshot(&self) -> Vec<Value> {
        self.with(|a| (0..a.data.len()).filter_map(|i| a.data.get(i)).collect())
    }
    /// A copy with its own storage.
    /// A new array with the same dimensions and elements (shared, for elements that are
    /// references: see `Value::deepcopy` for a copy of those too).
    pub fn deep_copy(&self) -> ArrayObj {
        let inner = self.with(|a| a.clone());
        ArrayObj::with_dims(self.elem.clone(), inner.dims, inner.data)
    }
    /// `deep_copy` within the array memory budget.
    pub fn try_copy(&self) -> Result<SharedArray, Exception> {
        let (dims, data) = self.with(|a| {
            let dims = Dims::from_slice(&a.dims);
            // Up to a few thousand numbers stored unboxed (the common case, also in hot
            // loops): one allocation of the same length, within the budget (as `array_new`).
            let small =
                |n: usize, size: usize| n <= 1 << 12 && crate::memory::reserve(n * size).is_ok();
            let data = match &a.data {
                ArrayData::F64(v) if small(v.len(), 8) => ArrayData::F64(v.clone()),
                ArrayData::I64(v) if small(v.len(), 8) => ArrayData::I64(v.clone()),
                ArrayData::F32(v) if small(v.len(), 4) => ArrayData::F32(v.clone()),
                ArrayData::Bool(v) if small(v.len(), 1) => ArrayData::Bool(v.clone()),
                d => d.try_clone()?,
            };
            Ok::<_, Exception>((dims, data))
        })?;
        Ok(ArrayObj::shared(self.elem.clone(), dims, data))
    }
    /// A zero-filled array of `elem` with these dimensions (isbits aggregates boxed).
    pub fn zeros_shared(elem: Type, dims: &[usize]) -> SharedArray {
        let data = ArrayData::zeros(&elem, dims.iter().product());
        ArrayObj::shared(elem, Dims::from_slice(dims), data)
    }
    /// The `Float64` elements, if that is the element type.
    pub fn to_f64_vec(&self) -> Option<Vec<f64>> {
        self.with(|a| match &a.data {
            ArrayData::F64(v) => Some(v.clone()),
            _ => None,
        })
    }
}

impl Value {
    /// The type `t` as a value.
    pub fn of_type(t: Type) -> Value {
        Value::Type(Arc::new(t))
    }

    /// The value of a struct type without fields (`NoTangent`, a closure capturing nothing).
    pub fn fieldless(t: Type) -> Value {
        Value::Struct(Arc::new(StructVal {
            ty: t,
            fields: Box::new([]),
        }))
    }

    /// Julia's `deepcopy`: a copy that shares no mutable memory (arrays, mutable structs) with
    /// `self` and keeps its aliasing (an object reached twice, or through a cycle, is copied
    /// once).
    pub fn deepcopy(&self) -> Value {
        self.deepcopy_in(&mut std::collections::HashMap::new())
    }

    fn deepcopy_in(&self, seen: &mut std::collections::HashMap<usize, Value>) -> Value {
        let all = |vs: &[Value], seen: &mut std::collections::HashMap<usize, Value>| {
            vs.iter().map(|v| v.deepcopy_in(seen)).collect::<Vec<_>>()
        };
        match self {
            Value::Int(_)
            | Value::F64(_)
            | Value::F32(_)
            | Value::Bool(_)
            | Value::Nothing
            | Value::Undef
            | Value::Str(_)
            | Value::Sym(_)
            | Value::Func(_)
            | Value::Type(_) => self.clone(),
            Value::Tuple(vs) => Value::tuple(all(vs, seen)),
            Value::NamedTuple(nt) => Value::NamedTuple(Arc::new(NamedTupleVal {
                names: nt.names.clone(),
                values: all(&nt.values, seen).into_boxed_slice(),
            })),
            Value::Struct(sv) => Value::Struct(Arc::new(StructVal {
                ty: sv.ty.clone(),
                fields: all(&sv.fields, seen).into_boxed_slice(),
            })),
            Value::Mutable(m) => {
                let key = Arc::as_ptr(m) as usize;
                if let Some(v) = seen.get(&key) {
                    return v.clone();
                }
                let fields = m.snapshot();
                let copy = Arc::new(MutableVal::new(m.ty.clone(), fields.clone()));
                seen.insert(key, Value::Mutable(copy.clone()));
                for (k, f) in fields.iter().enumerate() {
                    copy.set(k, f.deepcopy_in(seen));
                }
                Value::Mutable(copy)
            }
            Value::Array(a) => {
                let key = SharedArray::as_ptr(a) as usize;
                if let Some(v) = seen.get(&key) {
                    return v.clone();
                }
                let copy = SharedArray::new(a.deep_copy());
                seen.insert(key, Value::Array(copy.clone()));
                if copy.with(|i| matches!(i.data, ArrayData::Boxed(_))) {
                    for k in 0..copy.len() {
                        if let Some(v) = copy.get(k) {
                            copy.set(k, v.deepcopy_in(seen));
                        }
                    }
                }
                Value::Array(copy)
            }
        }
    }

    /// The concrete type of the value.
    /// Whether `self.ty() == *t`, without building the type for scalars and arrays.
    pub fn has_type(&self, t: &Type) -> bool {
        match (self, t) {
            (Value::Int(_), Type::Int64)
            | (Value::F64(_), Type::Float64)
            | (Value::F32(_), Type::Float32)
            | (Value::Bool(_), Type::Bool) => true,
            (Value::Array(a), Type::Array(e, n)) => a.elem == **e && a.ndims() == *n as usize,
            (Value::Int(_) | Value::F64(_) | Value::F32(_) | Value::Bool(_), _)
            | (Value::Array(_), _) => false,
            _ => self.ty() == *t,
        }
    }

    /// The value's type with tuples nested deeper than `depth` typed `Any` below that depth:
    /// what dispatch looks at. A part shared by several places (`(x, x)` built again and
    /// again) is typed once, and its type shared, so the work is bounded by the distinct parts.
    pub fn ty_limited(&self, depth: usize) -> Type {
        self.ty_limited_in(depth, &mut Vec::new())
    }

    fn ty_limited_in(&self, depth: usize, seen: &mut Vec<(usize, usize, Type)>) -> Type {
        let parts: &[Value] = match self {
            Value::Tuple(vs) => vs,
            Value::NamedTuple(nt) => &nt.values,
            v => return v.ty(),
        };
        if parts.is_empty() {
            return self.ty();
        }
        if depth == 0 {
            return Type::Any;
        }
        let key = parts.as_ptr() as usize;
        if let Some((_, _, t)) = seen.iter().find(|(k, d, _)| *k == key && *d == depth) {
            return t.clone();
        }
        let ts: Vec<Type> = parts
            .iter()
            .map(|v| v.ty_limited_in(depth - 1, seen))
            .collect();
        let t = match self {
            Value::NamedTuple(nt) => Type::NamedTuple(nt.names.clone(), ts.into()),
            _ => Type::tuple(ts),
        };
        seen.push((key, depth, t.clone()));
        t
    }

    pub fn ty(&self) -> Type {
        match self {
            Value::Int(_) => Type::Int64,
            Value::F64(_) => Type::Float64,
            Value::F32(_) => Type::Float32,
            Value::Bool(_) => Type::Bool,
            Value::Nothing => Type::Nothing,
            Value::Undef => Type::Bottom,
            Value::Str(_) => Type::String,
            Value::Sym(_) => Type::Symbol,
            Value::Tuple(vs) => Type::tuple(vs.iter().map(|v| v.ty()).collect()),
            Value::NamedTuple(nt) => Type::NamedTuple(
                nt.names.clone(),
                nt.values.iter().map(|v| v.ty()).collect::<Vec<_>>().into(),
            ),
            Value::Struct(s) => s.ty.clone(),
            Value::Mutable(m) => m.ty.clone(),
            Value::Array(a) => a.ty(),
            Value::Func(f) => Type::Function(*f),
            Value::Type(t) => Type::type_of_type((**t).clone()),
        }
    }

    pub fn str(s: &str) -> Value {
        Value::Str(Arc::from(s))
    }

    pub fn tuple(vs: Vec<Value>) -> Value {
        Value::Tuple(vs.into())
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::F64(x) => Some(*x),
            _ => None,
        }
    }
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(x) => Some(*x),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(x) => Some(*x),
            _ => None,
        }
    }

    /// Field `i` of a struct, mutable struct, tuple or named tuple.
    pub fn field(&self, i: usize) -> Option<Value> {
        match self {
            Value::Tuple(vs) => vs.get(i).cloned(),
            Value::NamedTuple(nt) => nt.values.get(i).cloned(),
            Value::Struct(s) => s.fields.get(i).cloned(),
            Value::Mutable(m) => m.get(i),
            _ => None,
        }
    }

    pub fn from_const(c: &ir::Const) -> Value {
        match c {
            ir::Const::Int(i) => Value::Int(*i),
            ir::Const::F64(x) => Value::F64(*x),
            ir::Const::F32(x) => Value::F32(*x),
            ir::Const::Bool(b) => Value::Bool(*b),
            ir::Const::Nothing => Value::Nothing,
            ir::Const::Str(s) => Value::Str(s.clone()),
            ir::Const::Sym(s) => Value::Sym(*s),
            ir::Const::Type(t) => Value::of_type(t.clone()),
            ir::Const::Func(f) => Value::Func(*f),
            ir::Const::Singleton(t) => Value::fieldless(t.clone()),
            ir::Const::Undef => Value::Undef,
        }
    }

    /// A constant for a scalar value (for constant globals).
    pub fn to_const(&self) -> Option<ir::Const> {
        Some(match self {
            Value::Int(i) => ir::Const::Int(*i),
            Value::F64(x) => ir::Const::F64(*x),
            Value::F32(x) => ir::Const::F32(*x),
            Value::Bool(b) => ir::Const::Bool(*b),
            Value::Nothing => ir::Const::Nothing,
            Value::Str(s) => ir::Const::Str(s.clone()),
            Value::Sym(s) => ir::Const::Sym(*s),
            Value::Type(t) => ir::Const::Type((**t).clone()),
            Value::Func(f) => ir::Const::Func(*f),
            _ => return None,
        })
    }
}

/// Julia's `===`: identity for mutable objects, structural equality (bitwise for floats)
/// for everything else.
pub fn egal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => x == y,
        (Value::F64(x), Value::F64(y)) => x.to_bits() == y.to_bits(),
        (Value::F32(x), Value::F32(y)) => x.to_bits() == y.to_bits(),
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::Nothing, Value::Nothing) => true,
        (Value::Str(x), Value::Str(y)) => x == y,
        (Value::Sym(x), Value::Sym(y)) => x == y,
        (Value::Tuple(x), Value::Tuple(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(a, b)| egal(a, b))
        }
        (Value::NamedTuple(x), Value::NamedTuple(y)) => {
            x.names == y.names
                && x.values
                    .iter()
                    .zip(y.values.iter())
                    .all(|(a, b)| egal(a, b))
        }
        (Value::Struct(x), Value::Struct(y)) => {
            x.ty == y.ty
                && x.fields
                    .iter()
                    .zip(y.fields.iter())
                    .all(|(a, b)| egal(a, b))
        }
        (Value::Mutable(x), Value::Mutable(y)) => Arc::ptr_eq(x, y),
        (Value::Array(x), Value::Array(y)) => SharedArray::ptr_eq(x, y),
        (Value::Func(x), Value::Func(y)) => x == y,
        (Value::Type(x), Value::Type(y)) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::{StructDef, TypeEnv, TypePat};
    use syntax::sym;

    fn env_with(name: &str, fields: &[(&str, Type)]) -> TypeEnv {
        let mut env = TypeEnv::new();
        env.add_struct(StructDef {
            name: sym(name),
            params: vec![],
            fields: fields
                .iter()
                .map(|(n, t)| (sym(n), TypePat::Ty(t.clone())))
                .collect(),
            mutable: false,
            supertype: TypePat::Ty(Type::Any),
        });
        env
    }

    #[test]
    fn isbits_structs_use_c_layout_inline() {
        let env = env_with(
            "S",
            &[
                ("a", Type::Float32),
                ("b", Type::Float64),
                ("c", Type::Bool),
            ],
        );
        let t = Type::structure("S", vec![]);
        let l = BitsLayout::of(&t, &env).expect("isbits");
        // f32 at 0, f64 at 8, bool at 16; size rounded up to the 8-byte alignment.
        assert_eq!((l.size, l.align), (24, 8));
        let arr = ArrayObj::zeros_in(t.clone(), vec![2], &env);
        arr.with(|a| assert!(matches!(a.data, ArrayData::Bits { .. })));
        let v = Value::Struct(Arc::new(StructVal {
            ty: t.clone(),
            fields: vec![Value::F32(1.5), Value::F64(-2.0), Value::Bool(true)].into(),
        }));
        assert!(arr.set(1, v.clone()));
        assert!(egal(&arr.get(1).unwrap(), &v));
        assert_eq!(
            crate::show::show_string(&arr.get(0).unwrap()),
            "S(0.0f0, 0.0, false)"
        );
        let tup = Type::tuple(vec![Type::Int64, Type::Float32]);
        assert_eq!(BitsLayout::of(&tup, &env).map(|l| l.size), Some(16));
        assert!(BitsLayout::of(&Type::Float64, &env).is_none());
    }

    #[test]
    fn deepcopy_keeps_aliasing_and_cycles_and_shares_nothing() {
        let m = Arc::new(MutableVal::new(
            Type::structure("M", vec![]),
            vec![Value::F64(1.0), Value::Nothing],
        ));
        // A cycle: m.next = m.
        m.set(1, Value::Mutable(m.clone()));
        let arr = Value::Array(SharedArray::new(ArrayObj::from_values(
            Type::structure("M", vec![]),
            vec![2],
            vec![Value::Mutable(m.clone()), Value::Mutable(m.clone())],
        )));
        let Value::Tuple(c) = Value::tuple(vec![arr.clone(), Value::Mutable(m.clone())]).deepcopy()
        else {
            panic!("not a tuple")
        };
        let (Value::Array(a2), Value::Mutable(m2)) = (&c[0], &c[1]) else {
            panic!("wrong shape")
        };
        // Nothing shared with the original...
        assert!(!Arc::ptr_eq(&m, m2));
        m2.set(0, Value::F64(5.0));
        assert_eq!(m.get(0).and_then(|v| v.as_f64()), Some(1.0));
        // ...and the copy aliases where the original does.
        for k in 0..2 {
            let Some(Value::Mutable(e)) = a2.get(k) else {
                panic!("element")
            };
            assert!(Arc::ptr_eq(&e, m2));
        }
        let Some(Value::Mutable(next)) = m2.get(1) else {
            panic!("field")
        };
        assert!(Arc::ptr_eq(&next, m2));
    }
}

/// Conversions from Rust data, so values go in and out of the API without building arrays by
/// hand: `Value::from(2.0)`, `Value::from(vec![1.0, 2.0])` (a `Vector{Float64}`),
/// `Value::matrix_from_rows(&[vec![1.0, 2.0], vec![3.0, 4.0]])` (a `Matrix{Float64}`).
impl From<f64> for Value {
    fn from(x: f64) -> Value {
        Value::F64(x)
    }
}

impl From<f32> for Value {
    fn from(x: f32) -> Value {
        Value::F32(x)
    }
}

impl From<i64> for Value {
    fn from(x: i64) -> Value {
        Value::Int(x)
    }
}

impl From<bool> for Value {
    fn from(x: bool) -> Value {
        Value::Bool(x)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Str(s.into())
    }
}

impl From<Vec<f64>> for Value {
    fn from(v: Vec<f64>) -> Value {
        Value::Array(SharedArray::new(ArrayObj::vector_f64(v)))
    }
}

impl From<&[f64]> for Value {
    fn from(v: &[f64]) -> Value {
        Value::from(v.to_vec())
    }
}

impl Value {
    /// A `Matrix{Float64}` from its columns (each of the same length; `None` otherwise).
    pub fn matrix_from_columns(cols: &[Vec<f64>]) -> Option<Value> {
        let m = cols.first().map_or(0, |c| c.len());
        if cols.iter().any(|c| c.len() != m) {
            return None;
        }
        let data: Vec<f64> = cols.iter().flatten().copied().collect();
        Some(Value::Array(SharedArray::new(ArrayObj::new(
            Type::Float64,
            vec![m, cols.len()],
            ArrayData::F64(data),
        ))))
    }

    /// A `Matrix{Float64}` from its rows (each of the same length; `None` otherwise).
    pub fn matrix_from_rows(rows: &[Vec<f64>]) -> Option<Value> {
        let n = rows.first().map_or(0, |r| r.len());
        if rows.iter().any(|r| r.len() != n) {
            return None;
        }
        let cols: Vec<Vec<f64>> = (0..n)
            .map(|j| rows.iter().map(|r| r[j]).collect())
            .collect();
        if rows.is_empty() {
            return Value::matrix_from_columns(&[]);
        }
        Value::matrix_from_columns(&cols)
    }

    /// The elements of a `Float64` array, in memory (column-major) order.
    pub fn to_f64_vec(&self) -> Option<Vec<f64>> {
        match self {
            Value::Array(a) => a.to_f64_vec(),
            _ => None,
        }
    }

    /// The rows of a `Matrix{Float64}`.
    pub fn to_f64_rows(&self) -> Option<Vec<Vec<f64>>> {
        let Value::Array(a) = self else { return None };
        let dims = a.dims();
        let [m, n] = dims[..] else { return None };
        let data = a.to_f64_vec()?;
        Some(
            (0..m)
                .map(|i| (0..n).map(|j| data[i + j * m]).collect())
                .collect(),
        )
    }
}

/// Julia's `show`: `[1.0, 2.0]`, `(1, 2.5)`, `Point(1.0, 2.0)`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::show::show_string(self))
    }
}

#[cfg(test)]
mod conversion_tests {
    use super::*;

    #[test]
    fn values_from_rust_data_show_as_julia() {
        assert_eq!(Value::from(vec![1.0, 2.0]).to_string(), "[1.0, 2.0]");
        assert_eq!(Value::from(2.5).to_string(), "2.5");
        assert_eq!(Value::from(3i64).to_string(), "3");
        let m = Value::matrix_from_rows(&[vec![1.0, 2.0], vec![3.0, 4.0]]).unwrap();
        assert_eq!(m.to_string(), "[1.0 2.0; 3.0 4.0]");
        assert_eq!(m.to_f64_vec(), Some(vec![1.0, 3.0, 2.0, 4.0]));
        assert_eq!(m.to_f64_rows(), Some(vec![vec![1.0, 2.0], vec![3.0, 4.0]]));
        assert!(Value::matrix_from_rows(&[vec![1.0], vec![1.0, 2.0]]).is_none());
    }
}
