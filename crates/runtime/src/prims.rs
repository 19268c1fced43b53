//! Native implementations of the primitives.

pub use crate::exception::{exception_of_value, method_error, Callee, Exception};
use crate::show::{in_program_scope, print_string, show_string};
use crate::value::{egal, ArrayObj, SharedArray, Value};
use crate::ArrayData;
use ir::{Prim, Type, TypeEnv};
use std::sync::Arc;

type R = Result<Value, Exception>;

/// An error for resizing an array that shares its memory with another.
pub fn not_shared(a: &ArrayObj) -> Result<(), Exception> {
    if a.is_shared() {
        return Err(Exception::Error(
            "not supported yet: resizing an array that shares its memory with another (made by `reshape` or `vec`, or one they were made from)".into(),
        ));
    }
    Ok(())
}

fn bad(op: Prim, args: &[Value]) -> Exception {
    let ts: Vec<String> = args.iter().map(|a| a.ty().to_string()).collect();
    Exception::Internal(format!(
        "primitive `{}` applied to ({})",
        op.name(),
        ts.join(", ")
    ))
}

/// The scalar arguments as constants (`None` if any is not a scalar).
fn scalar_consts(args: &[Value]) -> Option<smallvec::SmallVec<[ir::Const; 3]>> {
    if args.len() > 3 {
        return None;
    }
    let mut out = smallvec::SmallVec::new();
    for a in args {
        out.push(match a {
            Value::Int(i) => ir::Const::Int(*i),
            Value::F64(x) => ir::Const::F64(*x),
            Value::F32(x) => ir::Const::F32(*x),
            Value::Bool(b) => ir::Const::Bool(*b),
            Value::Type(t) => ir::Const::Type((**t).clone()),
            Value::Nothing => ir::Const::Nothing,
            _ => return None,
        });
    }
    Some(out)
}

/// The `UnitRange{Int64}` `i:j`, as a value.
fn unit_range(i: i64, j: i64) -> Value {
    Value::Struct(Arc::new(crate::value::StructVal {
        ty: Type::Struct(syntax::sym("UnitRange"), Arc::from(vec![Type::Int64])),
        fields: vec![Value::Int(i), Value::Int(j)].into_boxed_slice(),
    }))
}

/// Linear index (0-based) of 1-based indices into an array of `dims`, or a bounds error.
pub fn linear_index(a: &SharedArray, dims: &[usize], idx: &[i64]) -> Result<usize, Exception> {
    let err = || Exception::Bounds {
        a: Value::Array(a.clone()),
        i: Value::tuple(idx.iter().map(|&i| Value::Int(i)).collect()),
    };
    if idx.len() == 1 {
        let n: usize = dims.iter().product();
        let i = idx[0];
        if i < 1 || i as usize > n {
            return Err(err());
        }
        return Ok(i as usize - 1);
    }
    // Trailing indices beyond the dimensions must be 1; missing ones count as 1.
    let mut lin = 0usize;
    let mut stride = 1usize;
    for (k, &i) in idx.iter().enumerate() {
        let d = dims.get(k).copied().unwrap_or(1);
        if i < 1 || i as usize > d {
            return Err(err());
        }
        lin += (i as usize - 1) * stride;
        stride *= d;
    }
    if idx.len() < dims.len() {
        // Fewer indices than dimensions: the rest must have extent 1 (else bounds error).
        if dims[idx.len()..].iter().any(|&d| d != 1) {
            return Err(err());
        }
    }
    Ok(lin)
}

fn ints(args: &[Value], op: Prim) -> Result<Vec<i64>, Exception> {
    args.iter()
        .map(|a| a.as_int().ok_or_else(|| bad(op, args)))
        .collect()
}

/// Converts `v` to the element type of an array for storing (values already of that type).
fn fits(elem: &Type, v: &Value) -> bool {
    matches!(
        (elem, v),
        (Type::Float64, Value::F64(_))
            | (Type::Float32, Value::F32(_))
            | (Type::Int64, Value::Int(_))
            | (Type::Bool, Value::Bool(_))
    ) || !matches!(
        elem,
        Type::Float64 | Type::Float32 | Type::Int64 | Type::Bool
    )
}

/// `Core.array_new(Array{elem, N}, dims...)`: a new array of the dimensions `ds`, its elements
/// zero (their zero bits for isbits structs, unassigned for boxed elements), charged to the
/// memory budget. Julia's `ArgumentError` for negative or overflowing dimensions.
pub fn array_new(elem: &Type, ds: &[i64], env: &TypeEnv) -> Result<SharedArray, Exception> {
    // Small arrays of unboxed numbers (the common case, also in hot loops): allocated directly.
    let size = match elem {
        Type::Float64 | Type::Int64 => 8,
        Type::Float32 => 4,
        Type::Bool => 1,
        _ => 0,
    };
    if size > 0 {
        let n = crate::memory::checked_length(ds, size)?;
        if n <= 1 << 12 {
            crate::memory::reserve(n * size)?;
            let data = ArrayData::zeros(elem, n);
            return Ok(ArrayObj::shared(elem.clone(), dims_of(ds), data));
        }
    }
    let empty = ArrayData::zeros_in(elem, 0, env);
    let n = crate::memory::checked_length(ds, empty.elem_size())?;
    let data = ArrayData::try_zeros_in(elem, n, env)?;
    Ok(ArrayObj::shared(elem.clone(), dims_of(ds), data))
}

/// Checked dimensions as an array's shape. A vector's and a matrix's are written whole
/// (collecting them element by element leaves the length and the elements in separate
/// stores, which the shape's next read, as one, waits for).
#[inline(always)]
fn dims_of(ds: &[i64]) -> crate::value::Dims {
    match *ds {
        [n] => crate::value::Dims::from_buf_and_len([n as usize, 0], 1),
        [m, n] => crate::value::Dims::from_buf([m as usize, n as usize]),
        _ => ds.iter().map(|d| *d as usize).collect(),
    }
}

/// The whole-array kernels among the primitives: zero-filled tangents, the pullbacks'
/// accumulations, matrix products, factorisations and solves. Native code calls them directly,
/// past the rest of [`eval_prim`], which sends only these here.
pub fn eval_array_kernel(op: Prim, args: &[Value], env: &TypeEnv) -> R {
    use Prim::*;
    let b = || bad(op, args);
    match op {
        ArrayZeroLike => match args {
            [Value::Array(a)] => Ok(Value::Array(array_zero_like(a, env)?)),
            _ => Err(b()),
        },
        // The pullbacks' whole-array updates, on the unboxed storage (`a` and `c` may be one
        // array).
        ArrayAccumulate => match args {
            [Value::Array(a), Value::Array(c)] => {
                let ok = match a.elem {
                    Type::Float64 => update_from::<f64>(a, c, |x, y| x + y),
                    Type::Float32 => update_from::<f32>(a, c, |x, y| x + y),
                    _ => accumulate_float_structs(a, c),
                };
                ok.map(|()| args[0].clone()).ok_or_else(b)
            }
            _ => Err(b()),
        },
        ArrayMatmul => match args {
            [Value::Array(a), Value::Array(c), Value::Bool(ta), Value::Bool(tb)] => {
                crate::matmul::matmul(a, c, (*ta, *tb), env).unwrap_or_else(|| Err(b()))
            }
            _ => Err(b()),
        },
        ArrayTrsolve => match args {
            [Value::Array(a), Value::Array(c), Value::Bool(u), Value::Bool(t), Value::Bool(d)] => {
                crate::factor::trsolve(a, c, (*u, *t, *d), env).unwrap_or_else(|| Err(b()))
            }
            _ => Err(b()),
        },
        ArrayCholesky => match args {
            [Value::Array(a)] => crate::factor::cholesky(a, env).unwrap_or_else(|| Err(b())),
            _ => Err(b()),
        },
        ArrayTricopy => match args {
            [Value::Array(a), Value::Int(p), Value::Int(d), Value::Bool(t)] => {
                crate::factor::tricopy(a, *p, *d, *t, env).unwrap_or_else(|| Err(b()))
            }
            _ => Err(b()),
        },
        ArrayRowswap => match args {
            [Value::Array(x), Value::Array(p), Value::Bool(r)] => {
                crate::factor::rowswap(x, p, *r, env).unwrap_or_else(|| Err(b()))
            }
            _ => Err(b()),
        },
        ArrayGemmAdd => match args {
            [Value::Array(c), Value::Array(a), Value::Array(bm), Value::Bool(ta), Value::Bool(tb), Value::Bool(tc)] => {
                match crate::matmul::gemm_add(c, a, bm, (*ta, *tb, *tc)) {
                    Some(Ok(())) => Ok(args[0].clone()),
                    Some(Err(e)) => Err(e),
                    None => Err(b()),
                }
            }
            _ => Err(b()),
        },
        ArrayAxpy => match args {
            [Value::Array(a), s, Value::Array(c)] => {
                let ok = match (s, &a.elem) {
                    (Value::F64(k), Type::Float64) => update_from::<f64>(a, c, |x, y| x + k * y),
                    (Value::F32(k), Type::Float32) => update_from::<f32>(a, c, |x, y| x + k * y),
                    _ => None,
                };
                ok.map(|()| args[0].clone()).ok_or_else(b)
            }
            _ => Err(b()),
        },
        ArrayMulAdd => match args {
            [a, Value::Array(bm), Value::Array(cm)] => array_muladd(a, bm, cm).ok_or_else(b),
            _ => Err(b()),
        },
        ArrayAddScalar => match args {
            [Value::Array(a), s] => {
                // (In parts on the loop team for a large array: a reverse pass's `sum` rule
                // adds its cotangent to every element of what was summed.)
                let ok = a.with_mut(|d| match (&mut d.data, s) {
                    (ArrayData::F64(xs), Value::F64(k)) => {
                        crate::threads::par_chunks(xs, &|p| p.iter_mut().for_each(|x| *x += k));
                        true
                    }
                    (ArrayData::F32(xs), Value::F32(k)) => {
                        crate::threads::par_chunks(xs, &|p| p.iter_mut().for_each(|x| *x += k));
                        true
                    }
                    _ => false,
                });
                if ok {
                    Ok(args[0].clone())
                } else {
                    Err(b())
                }
            }
            _ => Err(b()),
        },
        // `eval_prim` sends no other primitive here.
        op => Err(bad(op, args)),
    }
}

/// `a[i] = f(a[i], c[i])` for every element of the float arrays `a` and `c` of element type
/// `T` and one length (`None` otherwise). `c` may be `a` itself (each element is read before
/// it is written).
fn update_from<T: crate::matmul::Elem>(
    a: &ArrayObj,
    c: &ArrayObj,
    f: impl Fn(T, T) -> T,
) -> Option<()> {
    if a.same_memory(c) {
        return a.with_mut(|d| {
            let xs = T::data_mut(&mut d.data)?;
            xs.iter_mut().for_each(|x| *x = f(*x, *x));
            Some(())
        });
    }
    let (yp, n) = c.with(|d| T::data(&d.data).map(|v| (v.as_ptr(), v.len())))?;
    a.with_mut(|d| {
        let xs = T::data_mut(&mut d.data)?;
        if xs.len() != n {
            return None;
        }
        // SAFETY: `c`'s storage is apart from `a`'s, holds `n` elements, and nothing resizes
        // it during this call.
        let ys = unsafe { std::slice::from_raw_parts(yp, n) };
        xs.iter_mut().zip(ys).for_each(|(x, y)| *x = f(*x, *y));
        Some(())
    })
}

/// `a .+= c` for arrays of one isbits element type made of floats (the tangents of complex
/// numbers, of tuples and structs of floats): each float field added in place; `None` for
/// other element types or lengths.
fn accumulate_float_structs(a: &ArrayObj, c: &ArrayObj) -> Option<()> {
    if a.elem != c.elem {
        return None;
    }
    let src = c.with(|d| match &d.data {
        ArrayData::Bits { layout, bytes, len } => Some((layout.clone(), bytes.clone(), *len)),
        _ => None,
    })?;
    let (layout, ys, n) = src;
    let (wide, offsets) = layout.float_fields()?;
    a.with_mut(|d| {
        let ArrayData::Bits { bytes: xs, len, .. } = &mut d.data else {
            return None;
        };
        if *len != n {
            return None;
        }
        for i in 0..n {
            for &off in &offsets {
                let at = i * layout.size + off;
                if wide {
                    let x = f64::from_le_bytes(xs[at..at + 8].try_into().ok()?);
                    let y = f64::from_le_bytes(ys[at..at + 8].try_into().ok()?);
                    xs[at..at + 8].copy_from_slice(&(x + y).to_le_bytes());
                } else {
                    let x = f32::from_le_bytes(xs[at..at + 4].try_into().ok()?);
                    let y = f32::from_le_bytes(ys[at..at + 4].try_into().ok()?);
                    xs[at..at + 4].copy_from_slice(&(x + y).to_le_bytes());
                }
            }
        }
        Some(())
    })
}

/// `Core.array_muladd(a, B, C)` (see `Prim::ArrayMulAdd`), or `None` where the operands do not
/// fit (other element types, shapes that do not broadcast).
fn array_muladd(a: &Value, bm: &ArrayObj, cm: &ArrayObj) -> Option<Value> {
    if bm.elem != cm.elem {
        return None;
    }
    let (bdims, cdims) = (bm.dims(), cm.dims());
    if bdims != cdims {
        return None;
    }
    // The sum of the products, in the arrays' precision.
    let dot = |xs: &ArrayData, ys: &ArrayData| match (xs, ys) {
        (ArrayData::F64(xs), ArrayData::F64(ys)) => Some(Value::F64(
            xs.iter().zip(ys).map(|(x, y)| x * y).sum::<f64>(),
        )),
        (ArrayData::F32(xs), ArrayData::F32(ys)) => Some(Value::F32(
            xs.iter().zip(ys).map(|(x, y)| x * y).sum::<f32>(),
        )),
        _ => None,
    };
    match a {
        Value::F64(_) | Value::F32(_) => {
            let d = if bm.same_memory(cm) {
                let xs = bm.with(|b| b.data.clone());
                cm.with(|c| dot(&xs, &c.data))
            } else {
                bm.with(|b| cm.with(|c| dot(&b.data, &c.data)))
            }?;
            match (a, d) {
                (Value::F64(s), Value::F64(d)) => Some(Value::F64(s + d)),
                (Value::F32(s), Value::F32(d)) => Some(Value::F32(s + d)),
                _ => None,
            }
        }
        Value::Array(am) => {
            if am.elem != bm.elem {
                return None;
            }
            let idx = BroadcastIndex::new(&am.dims(), &bdims)?;
            let run = |xs: &ArrayData, ys: &ArrayData| {
                am.with_mut(|d| match (&mut d.data, xs, ys) {
                    (ArrayData::F64(zs), ArrayData::F64(xs), ArrayData::F64(ys)) => {
                        idx.muladd(zs, xs, ys);
                        Some(())
                    }
                    (ArrayData::F32(zs), ArrayData::F32(xs), ArrayData::F32(ys)) => {
                        idx.muladd(zs, xs, ys);
                        Some(())
                    }
                    _ => None,
                })
            };
            if am.same_memory(bm) || am.same_memory(cm) || bm.same_memory(cm) {
                // Operands sharing memory: the products' operands read first.
                let (xs, ys) = (bm.with(|b| b.data.clone()), cm.with(|c| c.data.clone()));
                run(&xs, &ys)
            } else {
                bm.with(|b| cm.with(|c| run(&b.data, &c.data)))
            }?;
            Some(a.clone())
        }
        _ => None,
    }
}

/// Walks the linear indices of an array of dimensions `full`, with the linear index of the
/// element of a smaller array (dimensions equal or 1, trailing ones missing) that a broadcast
/// reads there.
struct BroadcastIndex {
    full: smallvec::SmallVec<[usize; 4]>,
    /// The smaller array's stride along each dimension of `full` (0 where it is expanded).
    strides: smallvec::SmallVec<[usize; 4]>,
    /// Nothing is expanded: the two linear indices are equal.
    same: bool,
}

impl BroadcastIndex {
    /// `None` where `small` does not broadcast to `full`.
    fn new(small: &[usize], full: &[usize]) -> Option<BroadcastIndex> {
        if small.len() > full.len() && small[full.len()..].iter().any(|d| *d != 1) {
            return None;
        }
        let mut strides = smallvec::SmallVec::new();
        let mut step = 1;
        for (k, &n) in full.iter().enumerate() {
            let m = small.get(k).copied().unwrap_or(1);
            if m == n {
                strides.push(step);
            } else if m == 1 {
                strides.push(0);
            } else {
                return None;
            }
            step *= m;
        }
        let same = strides.iter().all(|s| *s != 0) || full.iter().product::<usize>() == 0;
        Some(BroadcastIndex {
            full: full.into(),
            strides,
            same,
        })
    }

    /// `zs[j] += xs[k] * ys[k]` for each linear index `k` of the full array, `j` the smaller
    /// array's.
    fn muladd<T: Copy + std::ops::Mul<Output = T> + std::ops::AddAssign>(
        &self,
        zs: &mut [T],
        xs: &[T],
        ys: &[T],
    ) {
        if self.same {
            for ((z, x), y) in zs.iter_mut().zip(xs).zip(ys) {
                *z += *x * *y;
            }
        } else {
            self.each(|k, j| zs[j] += xs[k] * ys[k]);
        }
    }

    /// `g(k, j)` for each linear index `k` of the full array, `j` the smaller array's.
    fn each(&self, mut g: impl FnMut(usize, usize)) {
        let n: usize = self.full.iter().product();
        let mut sub: smallvec::SmallVec<[usize; 4]> = smallvec::smallvec![0; self.full.len()];
        let mut j = 0;
        for k in 0..n {
            g(k, j);
            // The next subscript, carrying into later dimensions.
            for d in 0..self.full.len() {
                sub[d] += 1;
                j += self.strides[d];
                if sub[d] < self.full[d] {
                    break;
                }
                j -= self.strides[d] * sub[d];
                sub[d] = 0;
            }
        }
    }
}

/// `Core.array_zero_like(A)`: a zero-filled array of A's element type and dimensions.
fn array_zero_like(a: &ArrayObj, env: &TypeEnv) -> Result<SharedArray, Exception> {
    let ds: smallvec::SmallVec<[i64; 4]> = a.with(|d| d.dims.iter().map(|&x| x as i64).collect());
    array_new(&a.elem, &ds, env)
}

/// Evaluates a primitive. `out` receives printed text. `env` answers type questions.
pub fn eval_prim(op: Prim, args: &[Value], env: &TypeEnv, out: &mut dyn std::io::Write) -> R {
    use Prim::*;
    let b = || bad(op, args);
    // Scalar arithmetic has one definition, shared with the optimiser's constant folder.
    if let Some(cs) = scalar_consts(args) {
        if let Some(c) = ir::fold::fold_prim(op, &cs) {
            return Ok(Value::from_const(&c));
        }
    }
    match op {
        // Scalar primitives that reach here were misapplied or throw.
        AddInt | SubInt | MulInt | AndInt | OrInt | XorInt | ShlInt | AshrInt | LshrInt | EqInt
        | NeInt | SltInt | SleInt | NegInt | NotInt | AddFloat | SubFloat | MulFloat | DivFloat
        | RemFloat | PowFloat | Atan2 | Hypot | Fma | Copysign | PowiFloat | NegFloat | Sqrt
        | Sin | Cos | Tan | Exp | Log | Log1p | Cbrt | Expm1 | Tanh | Sinh | Cosh | Asin | Acos
        | Atan | Exp2 | Log2 | Log10 | AbsFloat | SelectFloat | Floor | Ceil | Round | Trunc
        | Erf | Erfc | Erfinv | Erfcinv | Gamma | Lgamma | Digamma | Trigamma | Polygamma
        | BesselJ0 | BesselJ1 | EqFloat | NeFloat | LtFloat | LeFloat | NotBool | AndBool
        | OrBool | XorBool | Sitofp | Bitcast | Fpconvert | BoolToInt | PromoteType => Err(b()),
        SdivInt | SremInt => match args {
            [Value::Int(_), Value::Int(_)] => Err(Exception::Divide),
            _ => Err(b()),
        },
        Fptosi => match args {
            [Value::Type(t), x @ (Value::F64(_) | Value::F32(_))] if **t == Type::Int64 => {
                Err(Exception::Inexact {
                    func: "Int64".into(),
                    target: Type::Int64,
                    value: x.clone(),
                })
            }
            _ => Err(b()),
        },
        IntToBool => match args {
            [Value::Int(i)] => Err(Exception::Inexact {
                func: "Bool".into(),
                target: Type::Bool,
                value: Value::Int(*i),
            }),
            _ => Err(b()),
        },
        Egal => match args {
            [x, y] => Ok(Value::Bool(egal(x, y))),
            _ => Err(b()),
        },
        SameMemory => match args {
            [Value::Array(x), Value::Array(y)] => Ok(Value::Bool(x.same_memory(y))),
            _ => Err(b()),
        },
        Isa => match args {
            [x, Value::Type(t)] => Ok(Value::Bool(env.subtype(&x.ty(), t))),
            _ => Err(b()),
        },
        Typeof => match args {
            [x] => Ok(Value::of_type(x.ty())),
            _ => Err(b()),
        },
        TangentTypeOf | FdataTypeOf | RdataTypeOf => match args {
            [Value::Type(t)] => Ok(Value::of_type(ir::prim::tangent_type_of(op, t, env))),
            _ => Err(b()),
        },
        PromoteTypejoin => match args {
            [Value::Type(a), Value::Type(b)] => Ok(Value::of_type(env.promote_typejoin(a, b))),
            _ => Err(b()),
        },
        PromoteEltype => match args {
            [x @ Value::Tuple(_)] => match x.ty() {
                Type::Tuple(ts) => Ok(Value::of_type(ir::prim::promote_eltype(&ts))),
                _ => Err(b()),
            },
            _ => Err(b()),
        },
        SubarrayType => match args {
            [p, i] => ir::prim::subarray_type(&p.ty(), &i.ty())
                .map(Value::of_type)
                .ok_or_else(b),
            _ => Err(b()),
        },
        CatEltype => match args {
            [x @ Value::Tuple(_)] => match x.ty() {
                Type::Tuple(ts) => Ok(Value::of_type(ir::prim::cat_eltype(&ts))),
                _ => Err(b()),
            },
            _ => Err(b()),
        },
        VcatType => match args {
            [Value::Type(t), x @ Value::Tuple(_)] => match x.ty() {
                Type::Tuple(ts) => Ok(Value::of_type(ir::prim::vcat_type((**t).clone(), &ts))),
                _ => Err(b()),
            },
            _ => Err(b()),
        },
        ApplyType => {
            let [Value::Type(base), rest @ ..] = args else {
                return Err(b());
            };
            let mut ps = Vec::new();
            for r in rest {
                match r {
                    Value::Type(t) => ps.push((**t).clone()),
                    Value::Int(n) => ps.push(Type::Val(*n)),
                    Value::Bool(v) => ps.push(Type::ValBool(*v)),
                    Value::Sym(s) => ps.push(Type::ValSym(*s)),
                    other => {
                        return Err(Exception::Type {
                            func: "Type{...} expression".into(),
                            context: "".into(),
                            expected: Box::new(Type::Any),
                            got: other.clone(),
                        })
                    }
                }
            }
            ir::prim::apply_type(base, ps, env)
                .map(Value::of_type)
                .map_err(Exception::TypeText)
        }
        ArrayNew => {
            let [Value::Type(t), dims @ ..] = args else {
                return Err(b());
            };
            let Type::Array(elem, _) = &**t else {
                return Err(b());
            };
            let ds = ints(dims, op)?;
            Ok(Value::Array(array_new(elem, &ds, env)?))
        }
        ArrayRef => {
            let [Value::Array(a), idx @ ..] = args else {
                return Err(b());
            };
            let idx = ints(idx, op)?;
            let dims = a.dims();
            let li = linear_index(a, &dims, &idx)?;
            match a.get(li) {
                Some(Value::Undef) => Err(Exception::UndefRef),
                Some(v) => Ok(v),
                None => Err(b()),
            }
        }
        ArrayRefRaw => {
            let [Value::Array(a), idx @ ..] = args else {
                return Err(b());
            };
            let idx = ints(idx, op)?;
            let li = linear_index(a, &a.dims(), &idx)?;
            a.get(li).ok_or_else(b)
        }
        ArraySet => {
            let [Value::Array(a), v, idx @ ..] = args else {
                return Err(b());
            };
            let idx = ints(idx, op)?;
            let dims = a.dims();
            let li = linear_index(a, &dims, &idx)?;
            if !fits(&a.elem, v) || !a.set(li, v.clone()) {
                return Err(b());
            }
            Ok(args[0].clone())
        }
        ArrayLen => match args {
            [Value::Array(a)] => Ok(Value::Int(a.len() as i64)),
            _ => Err(b()),
        },
        ArraySize => match args {
            [Value::Array(a), Value::Int(d)] => {
                if *d < 1 {
                    return Err(Exception::Argument("dimension out of range".into()));
                }
                let dims = a.dims();
                Ok(Value::Int(
                    dims.get(*d as usize - 1).copied().unwrap_or(1) as i64
                ))
            }
            _ => Err(b()),
        },
        ArrayPush => match args {
            [Value::Array(a), v] => {
                if a.ndims() != 1 || !fits(&a.elem, v) {
                    return Err(b());
                }
                not_shared(a)?;
                a.with_mut(|inner| {
                    inner.data.try_push(v.clone())?;
                    inner.dims[0] += 1;
                    Ok::<(), Exception>(())
                })?;
                Ok(args[0].clone())
            }
            _ => Err(b()),
        },
        ArrayPop => match args {
            [Value::Array(a)] => {
                not_shared(a)?;
                let r = a.with_mut(|inner| {
                    let v = inner.data.pop()?;
                    inner.dims[0] -= 1;
                    Some(v)
                });
                r.ok_or_else(|| Exception::Argument("array must be non-empty".into()))
            }
            _ => Err(b()),
        },
        ArrayResize => match args {
            [Value::Array(a), Value::Int(n)] => {
                not_shared(a)?;
                if *n < 0 {
                    return Err(Exception::Argument("new length must be ≥ 0".to_string()));
                }
                let elem_size = a.with(|inner| inner.data.elem_size());
                let n = crate::memory::checked_length(&[*n], elem_size)?;
                let len = a.len();
                a.with_mut(|inner| {
                    inner.data.try_resize(n)?;
                    inner.dims[0] = n;
                    Ok::<(), Exception>(())
                })?;
                // The new elements of a `Vector{Nothing}` are `nothing`, as Julia's are.
                if a.elem == Type::Nothing {
                    for k in len..n {
                        a.set(k, Value::Nothing);
                    }
                }
                Ok(args[0].clone())
            }
            _ => Err(b()),
        },
        ArrayUnresize => match args {
            [Value::Array(a), Value::Array(saved), Value::Int(n)] => {
                let n0 = saved.len();
                let keep = (*n).clamp(0, n0 as i64) as usize;
                a.with_mut(|inner| {
                    inner.data.resize(n0);
                    inner.dims[0] = n0;
                });
                for k in keep..n0 {
                    let v = saved.get(k).ok_or_else(b)?;
                    if !a.set(k, v) {
                        return Err(b());
                    }
                }
                Ok(args[0].clone())
            }
            _ => Err(b()),
        },
        ArrayCopy => match args {
            [Value::Array(a)] => Ok(Value::Array(a.try_copy()?)),
            _ => Err(b()),
        },
        ArrayReshape => {
            let [Value::Array(a), dims @ ..] = args else {
                return Err(b());
            };
            let ds = ints(dims, op)?;
            let n = ds
                .iter()
                .try_fold(1i64, |p, d| if *d < 0 { None } else { p.checked_mul(*d) });
            if n != Some(a.len() as i64) {
                let dstr: Vec<String> = ds.iter().map(|d| d.to_string()).collect();
                let shape = match dstr.len() {
                    1 => format!("({},)", dstr[0]),
                    _ => format!("({})", dstr.join(", ")),
                };
                return Err(Exception::DimensionMismatch(format!(
                    "new dimensions {shape} must be consistent with array length {}",
                    a.len()
                )));
            }
            // As Julia's arrays: the same array for its own shape, else one sharing its
            // memory.
            let dims: Vec<usize> = ds.iter().map(|d| *d as usize).collect();
            if dims[..] == a.dims()[..] {
                return Ok(args[0].clone());
            }
            Ok(Value::Array(SharedArray::new(ArrayObj::share(a, dims))))
        }
        RuleStack => match args {
            [Value::Mutable(st), Value::Int(k), Value::Type(t)] => {
                let (Type::Array(elem, 1), Some(Value::Array(stacks))) = (&**t, st.get(0)) else {
                    return Err(b());
                };
                Ok(slot_or_create(&stacks, *k as usize, || {
                    Value::Array(SharedArray::new(ArrayObj::zeros_in(
                        (**elem).clone(),
                        vec![0],
                        env,
                    )))
                }))
            }
            _ => Err(b()),
        },
        RuleChild => match args {
            [Value::Mutable(st), Value::Int(k)] => {
                let Some(Value::Array(children)) = st.get(1) else {
                    return Err(b());
                };
                Ok(slot_or_create(&children, *k as usize, || {
                    new_rule_state(&st.ty)
                }))
            }
            _ => Err(b()),
        },
        // Whole-array kernels (which native code also calls directly).
        ArrayZeroLike | ArrayAccumulate | ArrayAxpy | ArrayAddScalar | ArrayMulAdd
        | ArrayMatmul | ArrayGemmAdd | ArrayTrsolve | ArrayCholesky | ArrayTricopy
        | ArrayRowswap => eval_array_kernel(op, args, env),
        ArrayLu => match args {
            [Value::Array(a), Value::Array(p)] => {
                crate::factor::lu(a, p, env).unwrap_or_else(|| Err(b()))
            }
            _ => Err(b()),
        },
        // The interpreter hands these to the AD runtime (`interp::AdRuntime`).
        RdataAdd | RdataConvert | RdataAddAt | TangentFdata | TangentRdata | TangentAddRdata
        | TangentOf | FieldFdata | GlobalFdata | FieldCotangent | DynFwd | DynRvs | ZeroTangent
        | TangentField | GlobalTangent | DualCall | DualApply | GradApply | VjpApply | JvpApply
        | TestRuleApply | ThreadsFwd | ThreadsDual | ThreadsRvs => {
            Err(Exception::Internal(format!(
                "`Core.{}` runs only in derived code, with the AD runtime installed",
                op.name()
            )))
        }
        // The machine runs these: they call functions, or need the error being handled.
        ThreadsRun | TryCatch | TryFinally | Rethrow | ErrorMessage | PrintStderr => Err(
            Exception::Internal(format!("`Core.{}` runs only on a machine", op.name())),
        ),
        NoteWrite => match args {
            [x] => {
                crate::tries::note_write(x);
                Ok(Value::Nothing)
            }
            _ => Err(b()),
        },
        NThreads => Ok(Value::Int(crate::threads::nthreads() as i64)),
        ThreadId => Ok(Value::Int(crate::threads::threadid())),
        InThreadedLoop => Ok(Value::Bool(crate::threads::in_threaded_loop())),
        ChunkRange => match args {
            [Value::Int(first), Value::Int(n), Value::Int(nt), Value::Int(tid)] => {
                let (f, l) = crate::threads::chunk(*first, *n, *nt, *tid)
                    .map_or((1, 0), |c| (c.first, c.last));
                Ok(Value::tuple(vec![Value::Int(f), Value::Int(l)]))
            }
            _ => Err(b()),
        },
        TaskRng => match args {
            [default] => Ok(crate::threads::task_rng_or(default)),
            _ => Err(b()),
        },
        ChunkEnter => match args {
            [Value::Int(tid), rng] => {
                crate::threads::push_chunk(*tid, Some(rng.clone()));
                Ok(Value::Nothing)
            }
            _ => Err(b()),
        },
        ChunkLeave => {
            crate::threads::pop_chunk();
            Ok(Value::Nothing)
        }
        AdCheck | TangentCheck => match args {
            [x, fx, what] => match if op == AdCheck {
                fdata_mismatch(x, fx, env)
            } else {
                tangent_mismatch(x, fx, env)
            } {
                None => Ok(Value::Nothing),
                Some(why) => Err(Exception::Error(format!(
                    "debug mode: {}: {why}",
                    print_string(what)
                ))),
            },
            _ => Err(b()),
        },
        TupleLen => match args {
            [Value::Tuple(t)] => Ok(Value::Int(t.len() as i64)),
            [Value::NamedTuple(t)] => Ok(Value::Int(t.values.len() as i64)),
            _ => Err(b()),
        },
        TupleGetIndex => match args {
            [t @ (Value::Tuple(_) | Value::NamedTuple(_)), Value::Int(i)] => {
                let n = match t {
                    Value::Tuple(v) => v.len(),
                    Value::NamedTuple(nt) => nt.values.len(),
                    _ => 0,
                };
                if *i < 1 || *i as usize > n {
                    return Err(Exception::Bounds {
                        a: t.clone(),
                        i: Value::Int(*i),
                    });
                }
                t.field(*i as usize - 1).ok_or_else(b)
            }
            _ => Err(b()),
        },
        ToString => match args {
            [x] => Ok(Value::str(&in_program_scope(args, env, || print_string(x)))),
            _ => Err(b()),
        },
        Repr => match args {
            [x] => Ok(Value::str(&in_program_scope(args, env, || show_string(x)))),
            _ => Err(b()),
        },
        Sprintf => match args {
            [Value::Str(f), Value::Tuple(t)] => {
                in_program_scope(t, env, || crate::printf::sprintf(f, t)).map(|s| Value::str(&s))
            }
            _ => Err(b()),
        },
        StringConcat => match args {
            [Value::Str(a), Value::Str(c)] => {
                let mut s = String::with_capacity(a.len() + c.len());
                s.push_str(a);
                s.push_str(c);
                Ok(Value::str(&s))
            }
            _ => Err(b()),
        },
        FieldTypes => match args {
            [Value::Type(t)] => match env.field_types(t) {
                Some(ts) => Ok(Value::tuple(
                    ts.into_iter().map(|t| Value::Type(Arc::new(t))).collect(),
                )),
                None => Err(Exception::Argument(format!(
                    "not supported yet: `fieldtypes` of {t} (only of struct and tuple types)"
                ))),
            },
            _ => Err(b()),
        },
        FieldNames => match args {
            [Value::Type(t)] => match env.field_names(t) {
                Some(ns) => Ok(Value::tuple(ns.into_iter().map(Value::Sym).collect())),
                None => Err(Exception::Argument(format!(
                    "not supported yet: `fieldnames` of {t} (only of struct and named tuple types)"
                ))),
            },
            _ => Err(b()),
        },
        GetFieldRaw => match args {
            [x, Value::Int(i), _] => usize::try_from(*i - 1)
                .ok()
                .and_then(|k| x.field(k))
                .ok_or_else(b),
            _ => Err(b()),
        },
        FieldDefined => match args {
            [x, Value::Sym(n)] => {
                let k = match x {
                    Value::Tuple(_) => n
                        .as_str()
                        .parse::<usize>()
                        .ok()
                        .and_then(|k| k.checked_sub(1)),
                    _ => env.field_index(&x.ty(), *n),
                };
                Ok(Value::Bool(
                    k.and_then(|k| x.field(k))
                        .is_some_and(|v| !matches!(v, Value::Undef)),
                ))
            }
            _ => Err(b()),
        },
        StringHash => match args {
            [Value::Str(s), Value::Int(h)] => Ok(Value::Int(crate::hashing::hash_bytes(
                s.as_bytes(),
                *h as u64,
            ) as i64)),
            _ => Err(b()),
        },
        ObjectId => match args {
            [x] => Ok(Value::Int(crate::hashing::objectid(x) as i64)),
            _ => Err(b()),
        },
        StringToSymbol => match args {
            [Value::Str(s)] => Ok(Value::Sym(syntax::Symbol::intern(s))),
            _ => Err(b()),
        },
        StringLen => match args {
            [Value::Str(s)] => Ok(Value::Int(s.chars().count() as i64)),
            _ => Err(b()),
        },
        IsSubtype => match args {
            [Value::Type(a), Value::Type(c)] => Ok(Value::Bool(env.subtype(a, c))),
            _ => Err(b()),
        },
        StringCmp => match args {
            [Value::Str(a), Value::Str(c)] => {
                Ok(Value::Int(match a.as_bytes().cmp(c.as_bytes()) {
                    std::cmp::Ordering::Less => -1,
                    std::cmp::Ordering::Equal => 0,
                    std::cmp::Ordering::Greater => 1,
                }))
            }
            _ => Err(b()),
        },
        StringBytes => match args {
            [Value::Str(s)] => Ok(Value::Int(s.len() as i64)),
            _ => Err(b()),
        },
        StringFind => match args {
            [Value::Str(s), Value::Str(p), Value::Int(from)] => {
                let from = (*from).max(1) as usize - 1;
                let at = s
                    .get(from..)
                    .and_then(|rest| rest.find(&**p))
                    .map_or(0, |i| (from + i + 1) as i64);
                Ok(Value::Int(at))
            }
            _ => Err(b()),
        },
        StringCase => match args {
            [Value::Str(s), Value::Bool(upper)] => Ok(Value::Str(
                s.chars()
                    .map(|c| simple_case(c, *upper))
                    .collect::<String>()
                    .into(),
            )),
            _ => Err(b()),
        },
        StringChar => match args {
            [Value::Str(s), Value::Int(i)] => {
                let at = string_char_start(s, *i)?;
                let c = s[at..].chars().next().map_or(0, |c| c as i64);
                Ok(Value::Int(c))
            }
            _ => Err(b()),
        },
        StringIndex => match args {
            [Value::Str(s), Value::Int(i), Value::Int(k)] => {
                string_index(s, *i, *k).map(Value::Int)
            }
            _ => Err(b()),
        },
        StringSlice => match args {
            [Value::Str(s), Value::Int(i), Value::Int(j)] => {
                if j < i {
                    return Ok(Value::Str("".into()));
                }
                let n = s.len() as i64;
                if *i < 1 || *j > n {
                    return Err(Exception::Bounds {
                        a: args[0].clone(),
                        i: unit_range(*i, *j),
                    });
                }
                let from = string_char_start(s, *i)?;
                let last = string_char_start(s, *j)?;
                let to = last + s[last..].chars().next().map_or(0, |c| c.len_utf8());
                Ok(Value::Str(s[from..to].into()))
            }
            _ => Err(b()),
        },
        CharProperty => match args {
            [Value::Int(code), Value::Int(k)] => {
                let c = u32::try_from(*code)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(b)?;
                Ok(Value::Int(match k {
                    0 => general_category(c),
                    1 => c.is_uppercase() as i64,
                    2 => c.is_lowercase() as i64,
                    3 => simple_case(c, true) as i64,
                    4 => simple_case(c, false) as i64,
                    _ => return Err(b()),
                }))
            }
            _ => Err(b()),
        },
        StringReplace => match args {
            [Value::Str(s), Value::Str(p), Value::Str(r)] => {
                Ok(Value::Str(s.replace(&**p, r).into()))
            }
            _ => Err(b()),
        },
        StringParse => match args {
            [Value::Type(t), Value::Str(s)] => match &**t {
                Type::Int64 => parse_int(s).map(Value::Int),
                Type::Float64 => parse_float(s).map(Value::F64),
                _ => Err(b()),
            },
            _ => Err(b()),
        },
        Print | Show => match args {
            [x] => {
                let s = in_program_scope(args, env, || {
                    if op == Print {
                        print_string(x)
                    } else {
                        show_string(x)
                    }
                });
                let _ = out.write_all(s.as_bytes());
                Ok(Value::Nothing)
            }
            _ => Err(b()),
        },
        ThrowError => Err(Exception::Error(
            args.first().map(print_string).unwrap_or_default(),
        )),
        ThrowAssert => Err(Exception::Assertion(
            args.first().map(print_string).unwrap_or_default(),
        )),
        ThrowArgument => Err(Exception::Argument(
            args.first().map(print_string).unwrap_or_default(),
        )),
        ThrowUndefVar => Err(Exception::UndefVar {
            name: args.first().map(print_string).unwrap_or_default(),
            local: true,
        }),
        ThrowDivide => Err(Exception::Divide),
        ThrowBounds => match args {
            [x, idx] => Err(Exception::Bounds {
                a: x.clone(),
                i: idx.clone(),
            }),
            _ => Err(b()),
        },
        ThrowDomain => match args {
            [x, msg] => Err(Exception::Domain {
                value: x.clone(),
                msg: print_string(msg),
            }),
            _ => Err(b()),
        },
        ThrowInexact => match args {
            [Value::Type(t), x] => Err(Exception::Inexact {
                func: t.to_string(),
                target: (**t).clone(),
                value: x.clone(),
            }),
            _ => Err(b()),
        },
        ThrowTypeError => match args {
            [Value::Type(t), x] => Err(Exception::Type {
                func: "typeassert".into(),
                context: "".into(),
                expected: Box::new((**t).clone()),
                got: x.clone(),
            }),
            _ => Err(b()),
        },
        ThrowValue => match args {
            [x] => Err(exception_of_value(x)),
            _ => Err(b()),
        },
        ThrowMethodError => match args.split_first() {
            Some((f, rest)) => Err(method_error(f, rest, vec![])),
            None => Err(b()),
        },
    }
}

/// Why `fx` is not the fdata of primal `x` (its type per `ir::tangent::fdata_type` of `x`'s
/// type, and array sizes equal to `x`'s), or `None` if it is.
pub fn fdata_mismatch(x: &Value, fx: &Value, env: &TypeEnv) -> Option<String> {
    mismatch(x, fx, env, "fdata", ir::tangent::fdata_type)
}

/// Why `t` is not a tangent of `x` (type, array sizes), if it is not.
pub fn tangent_mismatch(x: &Value, t: &Value, env: &TypeEnv) -> Option<String> {
    mismatch(x, t, env, "tangent", ir::tangent::tangent_type)
}

fn mismatch(
    x: &Value,
    fx: &Value,
    env: &TypeEnv,
    what: &str,
    ty: fn(&Type, &TypeEnv) -> Type,
) -> Option<String> {
    let want = ty(&x.ty(), env);
    let got = fx.ty();
    if want != got && want != Type::Any {
        return Some(format!(
            "{what} of type {got} for a primal of type {} (expected {want})",
            x.ty()
        ));
    }
    match (x, fx) {
        (Value::Array(a), Value::Array(b)) => {
            if a.dims() != b.dims() {
                return Some(format!(
                    "fdata array of size {:?} for a primal array of size {:?}",
                    b.dims(),
                    a.dims()
                ));
            }
            None
        }
        (Value::Tuple(xs), Value::Tuple(fs)) => xs
            .iter()
            .zip(fs.iter())
            .find_map(|(x, f)| mismatch(x, f, env, what, ty)),
        _ => None,
    }
}

/// A fresh AD rule state: no stacks and no child states yet.
pub fn new_rule_state(ty: &Type) -> Value {
    let any_vec = || Value::Array(ArrayObj::zeros_shared(Type::Any, &[0]));
    Value::Mutable(Arc::new(crate::value::MutableVal::new(
        ty.clone(),
        vec![any_vec(), any_vec()],
    )))
}

/// Element `k` (0-based) of a `Vector{Any}`, created with `make` (and the vector grown) if it
/// is not there yet.
fn slot_or_create(v: &ArrayObj, k: usize, make: impl FnOnce() -> Value) -> Value {
    if let Some(x) = v.get(k).filter(|x| !matches!(x, Value::Undef)) {
        return x;
    }
    let x = make();
    v.with_mut(|inner| {
        if inner.data.len() <= k {
            inner.data.resize(k + 1);
            inner.dims[0] = k + 1;
        }
        inner.data.set(k, x.clone());
    });
    x
}

/// `throw(x)`: prelude exception structs map to the built-in exceptions.
/// Julia's `isspace` for the whitespace `parse` skips around a number.
fn julia_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{85}'
}

/// `parse(Int64, s)` as Julia reads it: surrounding whitespace, an optional sign, an optional
/// base prefix (`0x`, `0o`, `0b`), then digits of that base.
fn parse_int(s: &str) -> Result<i64, Exception> {
    let t = s.trim_matches(julia_space);
    if t.is_empty() {
        return Err(Exception::Argument(
            "input string is empty or only contains whitespace".into(),
        ));
    }
    let (neg, body) = match t.as_bytes()[0] {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    let (base, digits) = match body.get(..2) {
        Some("0x") => (16u32, &body[2..]),
        Some("0o") => (8, &body[2..]),
        Some("0b") => (2, &body[2..]),
        _ => (10, body),
    };
    if digits.is_empty() {
        return Err(Exception::Argument(format!(
            "premature end of integer: {s:?}"
        )));
    }
    if digits.contains(julia_space) {
        return Err(Exception::Argument(format!(
            "extra characters after whitespace in {s:?}"
        )));
    }
    let mut v: i64 = 0;
    for c in digits.chars() {
        let Some(d) = c.to_digit(base) else {
            return Err(Exception::Argument(format!(
                "invalid base {base} digit {c:?} in {s:?}"
            )));
        };
        v = v
            .checked_mul(base as i64)
            .and_then(|v| {
                if neg {
                    v.checked_sub(d as i64)
                } else {
                    v.checked_add(d as i64)
                }
            })
            .ok_or_else(|| Exception::Overflow(format!("overflow parsing {s:?}")))?;
    }
    Ok(v)
}

/// `parse(Float64, s)` as Julia reads it: surrounding whitespace, then a decimal number,
/// `Inf` or `NaN` (any case), correctly rounded.
fn parse_float(s: &str) -> Result<f64, Exception> {
    let t = s.trim_matches(julia_space);
    let unsigned = t.trim_start_matches(['+', '-']);
    if unsigned.starts_with("0x") || unsigned.starts_with("0X") {
        return Err(Exception::Argument(format!(
            "not supported yet: parsing a hexadecimal float ({s:?})"
        )));
    }
    t.parse::<f64>()
        .map_err(|_| Exception::Argument(format!("cannot parse {s:?} as Float64")))
}

/// `c` in upper (or lower) case by a one-character mapping, as Julia's `uppercase` maps
/// characters: a character whose case mapping is several characters (`ß`) stays as it is.
/// The byte offset of the character that starts at 1-based byte index `i` of `s`, or Julia's
/// `BoundsError` (outside the string) or `StringIndexError` (inside a character).
fn string_char_start(s: &Arc<str>, i: i64) -> Result<usize, Exception> {
    let n = s.len() as i64;
    if i < 1 || i > n {
        return Err(Exception::Bounds {
            a: Value::Str(s.clone()),
            i: Value::Int(i),
        });
    }
    let at = (i - 1) as usize;
    if s.is_char_boundary(at) {
        return Ok(at);
    }
    Err(Exception::StringIndex {
        s: Value::Str(s.clone()),
        index: i,
    })
}

/// Julia's `thisind(s, i)` (`k == 0`), `nextind(s, i)` (`k == 1`) and `prevind(s, i)`
/// (`k == -1`) on the 1-based byte indices of `s`.
fn string_index(s: &Arc<str>, i: i64, k: i64) -> Result<i64, Exception> {
    let n = s.len() as i64;
    let bounds = || Exception::Bounds {
        a: Value::Str(s.clone()),
        i: Value::Int(i),
    };
    let start_at_or_before = |j: i64| -> i64 {
        let mut at = (j - 1) as usize;
        while at > 0 && !s.is_char_boundary(at) {
            at -= 1;
        }
        at as i64 + 1
    };
    match k {
        0 => {
            if i == 0 || i == n + 1 {
                Ok(i)
            } else if (1..=n).contains(&i) {
                Ok(start_at_or_before(i))
            } else {
                Err(bounds())
            }
        }
        1 => {
            if i == 0 {
                Ok(1)
            } else if (1..=n).contains(&i) {
                let mut j = i + 1;
                while j <= n && !s.is_char_boundary((j - 1) as usize) {
                    j += 1;
                }
                Ok(j)
            } else {
                Err(bounds())
            }
        }
        _ => {
            if i == n + 1 {
                Ok(if n == 0 { 0 } else { start_at_or_before(n) })
            } else if i == 1 {
                Ok(0)
            } else if (2..=n).contains(&i) {
                Ok(start_at_or_before(i - 1))
            } else {
                Err(bounds())
            }
        }
    }
}

/// `c`'s Unicode general category, numbered as utf8proc numbers them (Julia's
/// `Base.Unicode.category_code`): unassigned 0, `Lu` 1, `Ll`, `Lt`, `Lm`, `Lo`, `Mn`, `Mc`,
/// `Me`, `Nd`, `Nl`, `No`, `Pc`, `Pd`, `Ps`, `Pe`, `Pi`, `Pf`, `Po`, `Sm`, `Sc`, `Sk`, `So`,
/// `Zs` 23, `Zl`, `Zp`, `Cc`, `Cf`, `Cs`, `Co` 29.
pub(crate) fn general_category(c: char) -> i64 {
    use unicode_general_category::{get_general_category, GeneralCategory as G};
    match get_general_category(c) {
        G::UppercaseLetter => 1,
        G::LowercaseLetter => 2,
        G::TitlecaseLetter => 3,
        G::ModifierLetter => 4,
        G::OtherLetter => 5,
        G::NonspacingMark => 6,
        G::SpacingMark => 7,
        G::EnclosingMark => 8,
        G::DecimalNumber => 9,
        G::LetterNumber => 10,
        G::OtherNumber => 11,
        G::ConnectorPunctuation => 12,
        G::DashPunctuation => 13,
        G::OpenPunctuation => 14,
        G::ClosePunctuation => 15,
        G::InitialPunctuation => 16,
        G::FinalPunctuation => 17,
        G::OtherPunctuation => 18,
        G::MathSymbol => 19,
        G::CurrencySymbol => 20,
        G::ModifierSymbol => 21,
        G::OtherSymbol => 22,
        G::SpaceSeparator => 23,
        G::LineSeparator => 24,
        G::ParagraphSeparator => 25,
        G::Control => 26,
        G::Format => 27,
        G::Surrogate => 28,
        G::PrivateUse => 29,
        _ => 0,
    }
}

fn simple_case(c: char, upper: bool) -> char {
    fn single(mut m: impl Iterator<Item = char>) -> Option<char> {
        match (m.next(), m.next()) {
            (Some(one), None) => Some(one),
            _ => None,
        }
    }
    let mapped = if upper {
        single(c.to_uppercase())
    } else {
        single(c.to_lowercase())
    };
    mapped.unwrap_or(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vector(xs: &[f64]) -> Value {
        Value::Array(SharedArray::new(ArrayObj::vector_f64(xs.to_vec())))
    }

    fn elements(v: &Value) -> Vec<f64> {
        v.to_f64_vec().expect("a vector of floats")
    }

    fn kernel(op: Prim, args: &[Value]) -> R {
        eval_array_kernel(op, args, &TypeEnv::new())
    }

    /// The pullbacks' updates `a .+= c` and `a .+= k .* c`: into another array, into the
    /// array itself, through a reshaped array sharing its storage, and refused (not changed)
    /// for arrays of different lengths.
    #[test]
    fn whole_array_updates_read_each_element_before_writing_it() {
        let (a, c) = (vector(&[1.0, 2.0, 3.0]), vector(&[0.5, 0.25, 4.0]));
        kernel(Prim::ArrayAccumulate, &[a.clone(), c.clone()]).unwrap();
        assert_eq!(elements(&a), [1.5, 2.25, 7.0]);
        kernel(Prim::ArrayAxpy, &[a.clone(), Value::F64(2.0), c.clone()]).unwrap();
        assert_eq!(elements(&a), [2.5, 2.75, 15.0]);
        kernel(Prim::ArrayAccumulate, &[a.clone(), a.clone()]).unwrap();
        assert_eq!(elements(&a), [5.0, 5.5, 30.0]);
        kernel(Prim::ArrayAxpy, &[a.clone(), Value::F64(-0.5), a.clone()]).unwrap();
        assert_eq!(elements(&a), [2.5, 2.75, 15.0]);
        let Value::Array(owner) = &a else {
            unreachable!()
        };
        let m = Value::Array(SharedArray::new(ArrayObj::share(owner, vec![3, 1])));
        kernel(Prim::ArrayAccumulate, &[a.clone(), m]).unwrap();
        assert_eq!(elements(&a), [5.0, 5.5, 30.0]);
        let short = vector(&[1.0, 1.0]);
        assert!(kernel(Prim::ArrayAccumulate, &[a.clone(), short.clone()]).is_err());
        assert!(kernel(Prim::ArrayAxpy, &[a.clone(), Value::F64(1.0), short]).is_err());
        assert_eq!(elements(&a), [5.0, 5.5, 30.0]);
    }
}
