//! Matrix products of `Float64` and `Float32` arrays on the `matrixmultiply` kernels: the
//! primitives `array_matmul` (`op(A) * op(B)`, a new array) and `array_gemm_add`
//! (`C += op(A) * op(B)`, possibly transposed), where `op` transposes its operand when asked.
//!
//! Arrays are column-major; a vector is a one-column matrix. Transposes cost nothing: the
//! kernels take a row and a column stride for every operand, and a transposed operand is the
//! same storage with the two strides swapped.

use crate::prims::Exception;
use crate::value::{ArrayObj, Value};
use crate::ArrayData;
use ir::TypeEnv;

/// A float element type as stored in an array: its storage and the arithmetic the matrix
/// kernels of this crate need (products here, factorisations and solves in `factor`).
pub(crate) trait Elem:
    Copy
    + PartialOrd
    + 'static
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
{
    const ZERO: Self;
    const HALF: Self;
    const ONE: Self;
    fn data(d: &ArrayData) -> Option<&Vec<Self>>;
    fn data_mut(d: &mut ArrayData) -> Option<&mut Vec<Self>>;
    fn sqrt(self) -> Self;
}

/// A float element type with a matrix-product kernel.
trait Kernel: Elem {
    /// `C = αAB + βC` with `A` m×k, `B` k×n, `C` m×n, each given by its first element's
    /// address and its row and column strides.
    ///
    /// # Safety
    /// The pointers must address every element the strides reach, `C` must not overlap `A`
    /// or `B`, and nothing else may access `C` during the call.
    #[allow(clippy::too_many_arguments)]
    unsafe fn gemm(
        m: usize,
        k: usize,
        n: usize,
        a: (*const Self, isize, isize),
        b: (*const Self, isize, isize),
        c: (*mut Self, isize, isize),
    );
}

/// `Elem` and `Kernel` of element type `$t`, stored as `ArrayData::$v` and `Value::$v`,
/// multiplied by `$gemm`.
macro_rules! kernel {
    ($t:ty, $v:ident, $gemm:path) => {
        impl Elem for $t {
            const ZERO: $t = 0.0;
            const HALF: $t = 0.5;
            const ONE: $t = 1.0;
            fn data(d: &ArrayData) -> Option<&Vec<$t>> {
                match d {
                    ArrayData::$v(v) => Some(v),
                    _ => None,
                }
            }
            fn data_mut(d: &mut ArrayData) -> Option<&mut Vec<$t>> {
                match d {
                    ArrayData::$v(v) => Some(v),
                    _ => None,
                }
            }
            fn sqrt(self) -> $t {
                <$t>::sqrt(self)
            }
        }
        impl Kernel for $t {
            unsafe fn gemm(
                m: usize,
                k: usize,
                n: usize,
                a: (*const $t, isize, isize),
                b: (*const $t, isize, isize),
                c: (*mut $t, isize, isize),
            ) {
                // SAFETY: the caller's contract is the kernel's.
                unsafe {
                    $gemm(
                        m, k, n, 1.0, a.0, a.1, a.2, b.0, b.1, b.2, 1.0, c.0, c.1, c.2,
                    )
                }
            }
        }
    };
}
kernel!(f64, F64, matrixmultiply::dgemm);
kernel!(f32, F32, matrixmultiply::sgemm);

/// `$f::<f64>(args)` or `$f::<f32>(args)` by the element type `$elem`; `None` for any other.
macro_rules! by_float_elem {
    ($elem:expr, $f:ident($($arg:expr),* $(,)?)) => {
        match $elem {
            ir::Type::Float64 => $f::<f64>($($arg),*),
            ir::Type::Float32 => $f::<f32>($($arg),*),
            _ => None,
        }
    };
}
pub(crate) use by_float_elem;

/// Rows and columns of a vector or matrix (a vector is one column).
pub(crate) fn shape(dims: &[usize]) -> Option<(usize, usize)> {
    match *dims {
        [n] => Some((n, 1)),
        [m, n] => Some((m, n)),
        _ => None,
    }
}

/// An operand: its elements (copied when it shares memory with the result), its shape as
/// used (after `op`), and the strides that read it so.
struct Operand<T> {
    /// Keeps a copy made for an aliased operand alive while `ptr` points into it.
    _copy: Option<Vec<T>>,
    ptr: *const T,
    rows: usize,
    cols: usize,
    rs: isize,
    cs: isize,
}

impl<T: Kernel> Operand<T> {
    fn new(x: &ArrayObj, transposed: bool, result: &ArrayObj) -> Option<Operand<T>> {
        let alias = x.same_memory(result);
        let (copy, ptr, (r, c)) = x.with(|d| {
            let v = T::data(&d.data)?;
            let copy = alias.then(|| v.clone());
            let ptr = copy.as_ref().map_or(v.as_ptr(), |c| c.as_ptr());
            Some((copy, ptr, shape(&d.dims)?))
        })?;
        let (rows, cols, rs, cs) = if transposed {
            (c, r, r as isize, 1)
        } else {
            (r, c, 1, r as isize)
        };
        Some(Operand {
            _copy: copy,
            ptr,
            rows,
            cols,
            rs,
            cs,
        })
    }
}

fn mismatch(a: (usize, usize), b: (usize, usize)) -> Exception {
    Exception::DimensionMismatch(format!(
        "matrix A has dimensions ({},{}), matrix B has dimensions ({},{})",
        a.0, a.1, b.0, b.1
    ))
}

/// `C += op(A) op(B)`, transposed when `tc`. `None` if an array has another element type or
/// rank.
fn gemm_add_typed<T: Kernel>(
    c: &ArrayObj,
    a: &ArrayObj,
    b: &ArrayObj,
    (ta, tb, tc): (bool, bool, bool),
) -> Option<Result<(), Exception>> {
    let a = Operand::<T>::new(a, ta, c)?;
    let b = Operand::<T>::new(b, tb, c)?;
    if a.cols != b.rows {
        return Some(Err(mismatch((a.rows, a.cols), (b.rows, b.cols))));
    }
    let (m, k, n) = (a.rows, a.cols, b.cols);
    // (The operands' copies, if any, live until the end of this function.)
    c.with_mut(|d| {
        let (cr, cc) = shape(&d.dims)?;
        let fits = if tc {
            (cr, cc) == (n, m)
        } else {
            (cr, cc) == (m, n)
        };
        if !fits {
            return Some(Err(Exception::DimensionMismatch(format!(
                "destination has dimensions ({cr},{cc}), the product ({},{})",
                if tc { n } else { m },
                if tc { m } else { n }
            ))));
        }
        let cv = T::data_mut(&mut d.data)?;
        let (rs, cs) = if tc {
            (cr as isize, 1)
        } else {
            (1, cr as isize)
        };
        // SAFETY: every pointer addresses a whole column-major array of the shape its strides
        // assume (checked above), the result's storage is borrowed mutably for the call and
        // operands sharing memory with it were copied (`Operand::_copy`, alive until the end
        // of this function).
        unsafe {
            T::gemm(
                m,
                k,
                n,
                (a.ptr, a.rs, a.cs),
                (b.ptr, b.rs, b.cs),
                (cv.as_mut_ptr(), rs, cs),
            )
        };
        Some(Ok(()))
    })
}

/// `op(A) op(B)` of two 2×2 or two 3×3 matrices into a zero-filled `C`, each element
/// `a₁b₁ + a₂b₂ (+ a₃b₃)` added left to right without fused multiply-adds, as Julia computes
/// these sizes (`matmul2x2!`, `matmul3x3!`) instead of calling BLAS. `None` for other shapes.
fn small_square<T: Kernel>(
    c: &ArrayObj,
    a: &ArrayObj,
    b: &ArrayObj,
    (ta, tb): (bool, bool),
) -> Option<()> {
    let n = match (a.dims().as_slice(), b.dims().as_slice()) {
        ([2, 2], [2, 2]) => 2,
        ([3, 3], [3, 3]) => 3,
        _ => return None,
    };
    let read = |x: &ArrayObj, t: bool| {
        x.with(|d| {
            let v = T::data(&d.data)?;
            // Element (i, j) of op(X), column-major.
            Some(
                (0..n * n)
                    .map(|q| {
                        let (i, j) = (q % n, q / n);
                        if t {
                            v[j + i * n]
                        } else {
                            v[i + j * n]
                        }
                    })
                    .collect::<Vec<T>>(),
            )
        })
    };
    let (av, bv) = (read(a, ta)?, read(b, tb)?);
    c.with_mut(|d| {
        let cv = T::data_mut(&mut d.data)?;
        for j in 0..n {
            for i in 0..n {
                let mut s = av[i] * bv[j * n];
                for l in 1..n {
                    s = s + av[i + l * n] * bv[l + j * n];
                }
                cv[i + j * n] = s;
            }
        }
        Some(())
    })
}

/// `Core.array_gemm_add(C, A, B, ta, tb, tc)`; `None` if the arguments are not float
/// vectors or matrices of one element type.
pub fn gemm_add(
    c: &ArrayObj,
    a: &ArrayObj,
    b: &ArrayObj,
    flags: (bool, bool, bool),
) -> Option<Result<(), Exception>> {
    by_float_elem!(c.elem, gemm_add_typed(c, a, b, flags))
}

/// `Core.array_matmul(A, B, ta, tb)`: a new array, a vector when `B` is a vector (then `tb`
/// must be false). `None` if the arguments do not fit the primitive.
pub fn matmul(
    a: &ArrayObj,
    b: &ArrayObj,
    (ta, tb): (bool, bool),
    env: &TypeEnv,
) -> Option<Result<Value, Exception>> {
    let (ad, bd) = (a.dims(), b.dims());
    let (ar, ac) = shape(&ad)?;
    let (br, bc) = shape(&bd)?;
    let (m, ka) = if ta { (ac, ar) } else { (ar, ac) };
    let (kb, n) = if tb { (bc, br) } else { (br, bc) };
    if ka != kb {
        return Some(Err(mismatch((m, ka), (kb, n))));
    }
    let dims: &[i64] = match bd.len() {
        1 if !tb => &[m as i64],
        1 => return None,
        _ => &[m as i64, n as i64],
    };
    let c = match crate::prims::array_new(&a.elem, dims, env) {
        Ok(c) => c,
        Err(e) => return Some(Err(e)),
    };
    let small = by_float_elem!(c.elem, small_square(&c, a, b, (ta, tb)));
    if small.is_some() {
        return Some(Ok(Value::Array(c)));
    }
    Some(gemm_add(&c, a, b, (ta, tb, false))?.map(|()| Value::Array(c)))
}
