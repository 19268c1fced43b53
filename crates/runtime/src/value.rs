//! Run-time values. Scalars are unboxed; immutable aggregates are shared immutable data;
//! arrays and mutable structs are heap objects with identity (`===` compares addresses).
//! Arrays of `Float64`, `Float32`, `Int64` and `Bool` store unboxed elements contiguously in
//! column-major order, the layout native code uses.

use ir::Type;
use std::cell::UnsafeCell;
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
    Tuple(Arc<[Value]>),
    NamedTuple(Arc<NamedTupleVal>),
    /// An immutable struct.
    Struct(Arc<StructVal>),
    /// A mutable struct (identity).
    Mutable(Arc<MutableVal>),
    Array(Arc<ArrayObj>),
    /// A generic function.
    Func(Symbol),
    /// A type as a value.
    Type(Type),
}

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
}

// SAFETY: the language has no data races on mutable structs (the interpreter runs one thread;
// threaded code only writes disjoint array elements), and every access below copies values in
// or out without keeping a reference into the cell.
unsafe impl Sync for MutableVal {}
unsafe impl Send for MutableVal {}

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
        }
    }
    pub fn get(&self, i: usize) -> Option<Value> {
        // SAFETY: see the `Sync` impl; the reference does not outlive this call.
        unsafe { (&*self.fields.get()).get(i).cloned() }
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

/// Element storage of an array.
#[derive(Debug, Clone)]
pub enum ArrayData {
    F64(Vec<f64>),
    F32(Vec<f32>),
    I64(Vec<i64>),
    Bool(Vec<bool>),
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
            ArrayData::Boxed(v) => v.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Zero-filled storage of `n` elements of type `elem`.
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
            ArrayData::Boxed(v) => v.pop()?,
        })
    }
    pub fn resize(&mut self, n: usize) {
        match self {
            ArrayData::F64(v) => v.resize(n, 0.0),
            ArrayData::F32(v) => v.resize(n, 0.0),
            ArrayData::I64(v) => v.resize(n, 0),
            ArrayData::Bool(v) => v.resize(n, false),
            ArrayData::Boxed(v) => v.resize(n, Value::Undef),
        }
    }
}

/// An array: element type, dimensions and contiguous column-major storage.
pub struct ArrayObj {
    pub elem: Type,
    inner: UnsafeCell<ArrayInner>,
}

#[derive(Debug, Clone)]
pub struct ArrayInner {
    pub dims: Vec<usize>,
    pub data: ArrayData,
}

// SAFETY: as for `MutableVal`: no concurrent writes to one element, and accessors below never
// hand out references that outlive the call (closures get the data for their duration only and
// must not reach the same array again).
unsafe impl Sync for ArrayObj {}
unsafe impl Send for ArrayObj {}

impl std::fmt::Debug for ArrayObj {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Array{{{}}}{:?}", self.elem, self.dims())
    }
}

impl ArrayObj {
    pub fn new(elem: Type, dims: Vec<usize>, data: ArrayData) -> ArrayObj {
        ArrayObj {
            elem,
            inner: UnsafeCell::new(ArrayInner { dims, data }),
        }
    }
    pub fn zeros(elem: Type, dims: Vec<usize>) -> ArrayObj {
        let n = dims.iter().product();
        let data = ArrayData::zeros(&elem, n);
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
    /// Reads the array state for the duration of `f`.
    pub fn with<R>(&self, f: impl FnOnce(&ArrayInner) -> R) -> R {
        // SAFETY: see the `Sync` impl.
        unsafe { f(&*self.inner.get()) }
    }
    /// Mutates the array state for the duration of `f`.
    pub fn with_mut<R>(&self, f: impl FnOnce(&mut ArrayInner) -> R) -> R {
        // SAFETY: see the `Sync` impl.
        unsafe { f(&mut *self.inner.get()) }
    }
    pub fn dims(&self) -> Vec<usize> {
        self.with(|a| a.dims.clone())
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
    pub fn deep_copy(&self) -> ArrayObj {
        let inner = self.with(|a| a.clone());
        ArrayObj {
            elem: self.elem.clone(),
            inner: UnsafeCell::new(inner),
        }
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
    /// The concrete type of the value.
    pub fn ty(&self) -> Type {
        match self {
            Value::Int(_) => Type::Int64,
            Value::F64(_) => Type::Float64,
            Value::F32(_) => Type::Float32,
            Value::Bool(_) => Type::Bool,
            Value::Nothing => Type::Nothing,
            Value::Undef => Type::Bottom,
            Value::Str(_) => Type::String,
            Value::Tuple(vs) => Type::tuple(vs.iter().map(|v| v.ty()).collect()),
            Value::NamedTuple(nt) => Type::NamedTuple(
                nt.names.clone(),
                nt.values.iter().map(|v| v.ty()).collect::<Vec<_>>().into(),
            ),
            Value::Struct(s) => s.ty.clone(),
            Value::Mutable(m) => m.ty.clone(),
            Value::Array(a) => a.ty(),
            Value::Func(f) => Type::Function(*f),
            Value::Type(t) => Type::type_of_type(t.clone()),
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
            ir::Const::Type(t) => Value::Type(t.clone()),
            ir::Const::Func(f) => Value::Func(*f),
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
            Value::Type(t) => ir::Const::Type(t.clone()),
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
        (Value::Array(x), Value::Array(y)) => Arc::ptr_eq(x, y),
        (Value::Func(x), Value::Func(y)) => x == y,
        (Value::Type(x), Value::Type(y)) => x == y,
        _ => false,
    }
}
