//! Matrix products of `Float64` and `Float32` arrays: the primitives `array_matmul`
//! (`op(A) * op(B)`, a new array) and `array_gemm_add` (`C += op(A) * op(B)`, possibly
//! transposed), where `op` transposes its operand when asked. Products with a dimension of one
//! (matrix times vector, outer products) and small products run plain loops; the others run
//! the `matrixmultiply` kernels, which copy their operands into blocks first.
//!
//! Arrays are column-major; a vector is a one-column matrix. Transposes cost nothing: the
//! kernels take a row and a column stride for every operand, and a transposed operand is the
//! same storage with the two strides swapped.

use crate::exception::Exception;
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
    /// `self * a + b`, rounded once (a fused multiply-add).
    fn mul_add(self, a: Self, b: Self) -> Self;
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
            #[inline(always)]
            fn mul_add(self, a: $t, b: $t) -> $t {
                <$t>::mul_add(self, a, b)
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
        let (ptr, (r, c), _) = operand::<T>(x)?;
        // SAFETY: `ptr` addresses the r×c elements of `x`, which nothing resizes meanwhile.
        let copy = x
            .same_memory(result)
            .then(|| unsafe { std::slice::from_raw_parts(ptr, r * c) }.to_vec());
        let ptr = copy.as_ref().map_or(ptr, |c| c.as_ptr());
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
        let (a, b, c) = (
            (a.ptr, a.rs, a.cs),
            (b.ptr, b.rs, b.cs),
            (cv.as_mut_ptr(), rs, cs),
        );
        // SAFETY: every pointer addresses a whole column-major array of the shape its strides
        // assume (checked above), the result's storage is borrowed mutably for the call and
        // operands sharing memory with it were copied (`Operand::_copy`, alive until the end
        // of this function).
        unsafe {
            if by_loops(m, k, n) {
                loop_gemm(m, k, n, a, b, c)
            } else {
                T::gemm(m, k, n, a, b, c)
            }
        };
        Some(Ok(()))
    })
}

/// Whether `C += AB` (A m×k, B k×n) goes by [`loop_gemm`]: a product with a dimension of one
/// (a matrix times a vector, an outer product) or with few multiplications, where the packed
/// kernel's copying of its operands into blocks (and allocating room for them) costs more than
/// the product.
fn by_loops(m: usize, k: usize, n: usize) -> bool {
    m == 1 || n == 1 || k == 1 || m.saturating_mul(k).saturating_mul(n) <= 4096
}

/// `C += AB` by loops over the elements (A m×k, B k×n, each given by its first element's
/// address and its row and column strides): for each column of `C`, the columns of `A` scaled
/// by that column of `B` added in turn, or, when `A`'s rows and `B`'s columns are contiguous,
/// each element of `C` plus the dot product of a row and a column. Each element's sum is
/// taken in a fixed order (the same for every call), so results repeat bit for bit; where the
/// processor has fused multiply-adds (as the packed kernel and BLAS use them), each step is
/// one, so a product into zeros equals the packed kernel's.
///
/// # Safety
/// As [`Kernel::gemm`]'s.
unsafe fn loop_gemm<T: Elem>(
    m: usize,
    k: usize,
    n: usize,
    a: (*const T, isize, isize),
    b: (*const T, isize, isize),
    c: (*mut T, isize, isize),
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("fma") && std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has the features the function is compiled for; the rest is
        // the caller's contract.
        unsafe { loop_gemm_fma(m, k, n, a, b, c) };
        return;
    }
    // SAFETY: the caller's contract.
    unsafe { loop_gemm_with::<T, false>(m, k, n, a, b, c) }
}

/// [`loop_gemm`] compiled for processors with fused multiply-adds and 256-bit vectors.
///
/// # Safety
/// As [`Kernel::gemm`]'s, on a processor with the `avx2` and `fma` features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn loop_gemm_fma<T: Elem>(
    m: usize,
    k: usize,
    n: usize,
    a: (*const T, isize, isize),
    b: (*const T, isize, isize),
    c: (*mut T, isize, isize),
) {
    // SAFETY: the caller's contract.
    unsafe { loop_gemm_with::<T, true>(m, k, n, a, b, c) }
}

/// `x * y + z`: fused when `FMA` (inlined into code compiled with the feature), else a product
/// and a sum.
#[inline(always)]
fn madd<T: Elem, const FMA: bool>(x: T, y: T, z: T) -> T {
    if FMA {
        x.mul_add(y, z)
    } else {
        x * y + z
    }
}

/// The body of [`loop_gemm`].
///
/// # Safety
/// As [`Kernel::gemm`]'s.
#[inline(always)]
unsafe fn loop_gemm_with<T: Elem, const FMA: bool>(
    m: usize,
    k: usize,
    n: usize,
    (ap, ars, acs): (*const T, isize, isize),
    (bp, brs, bcs): (*const T, isize, isize),
    (cp, crs, ccs): (*mut T, isize, isize),
) {
    // SAFETY (every block below): the offsets stay within the shapes the caller's pointers
    // address (rows < m, k; columns < k, n), and a slice is made only over elements the
    // strides make contiguous (stride 1); `C` does not overlap `A` or `B`.
    let at = |i: usize, p: usize| unsafe { *ap.offset(i as isize * ars + p as isize * acs) };
    let bt = |p: usize, j: usize| unsafe { *bp.offset(p as isize * brs + j as isize * bcs) };
    if acs == 1 && brs == 1 && k > 1 {
        // Rows of A and columns of B contiguous (Aᵀ·x, a row times a matrix).
        for j in 0..n {
            let bcol = unsafe { std::slice::from_raw_parts(bp.offset(j as isize * bcs), k) };
            for i in 0..m {
                let arow = unsafe { std::slice::from_raw_parts(ap.offset(i as isize * ars), k) };
                let cij = unsafe { &mut *cp.offset(i as isize * crs + j as isize * ccs) };
                *cij = *cij + dot::<T, FMA>(arow, bcol);
            }
        }
        return;
    }
    for j in 0..n {
        if ars == 1 && crs == 1 {
            // Columns of A and of C contiguous (A·x, outer products): a column at a time.
            let ccol = unsafe { std::slice::from_raw_parts_mut(cp.offset(j as isize * ccs), m) };
            for p in 0..k {
                let bpj = bt(p, j);
                let acol = unsafe { std::slice::from_raw_parts(ap.offset(p as isize * acs), m) };
                for (c, &a) in ccol.iter_mut().zip(acol) {
                    *c = madd::<T, FMA>(a, bpj, *c);
                }
            }
        } else {
            for i in 0..m {
                let mut s = T::ZERO;
                for p in 0..k {
                    s = madd::<T, FMA>(at(i, p), bt(p, j), s);
                }
                let cij = unsafe { &mut *cp.offset(i as isize * crs + j as isize * ccs) };
                *cij = *cij + s;
            }
        }
    }
}

/// `x · y` of two slices of one length, in four interleaved partial sums (which the compiler
/// keeps in vector registers) added at the end.
#[inline(always)]
fn dot<T: Elem, const FMA: bool>(x: &[T], y: &[T]) -> T {
    let mut acc = [T::ZERO; 4];
    let (xc, yc) = (x.chunks_exact(4), y.chunks_exact(4));
    let (xr, yr) = (xc.remainder(), yc.remainder());
    for (a, b) in xc.zip(yc) {
        for l in 0..4 {
            acc[l] = madd::<T, FMA>(a[l], b[l], acc[l]);
        }
    }
    let mut s = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    for (a, b) in xr.iter().zip(yr) {
        s = madd::<T, FMA>(*a, *b, s);
    }
    s
}

/// `op(A) op(B)` of two 2×2 or two 3×3 matrices into `C` (column-major, `n`×`n`), each
/// element `a₁b₁ + a₂b₂ (+ a₃b₃)` added left to right without fused multiply-adds, as Julia
/// computes these sizes (`matmul2x2!`, `matmul3x3!`) instead of calling BLAS.
fn small_square<T: Elem>(n: usize, a: &[T], b: &[T], (ta, tb): (bool, bool), c: &mut [T]) {
    // Element (i, j) of op(X), column-major.
    let at = |x: &[T], t: bool, i: usize, j: usize| if t { x[j + i * n] } else { x[i + j * n] };
    for j in 0..n {
        for i in 0..n {
            let mut s = at(a, ta, i, 0) * at(b, tb, 0, j);
            for l in 1..n {
                s = s + at(a, ta, i, l) * at(b, tb, l, j);
            }
            c[i + j * n] = s;
        }
    }
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
    flags: (bool, bool),
    env: &TypeEnv,
) -> Option<Result<Value, Exception>> {
    by_float_elem!(a.elem, matmul_typed(a, b, flags, env))
}

/// An operand's first element, its rows and columns, and whether it is a vector. The pointer
/// stays valid while nothing resizes the array.
fn operand<T: Elem>(x: &ArrayObj) -> Option<(*const T, (usize, usize), bool)> {
    x.with(|d| {
        Some((
            T::data(&d.data)?.as_ptr(),
            shape(&d.dims)?,
            d.dims.len() == 1,
        ))
    })
}

/// [`matmul`] of element type `T`. The result is new, so neither operand shares its memory
/// and the product is written straight into it.
fn matmul_typed<T: Kernel>(
    a: &ArrayObj,
    b: &ArrayObj,
    (ta, tb): (bool, bool),
    env: &TypeEnv,
) -> Option<Result<Value, Exception>> {
    if b.elem != a.elem {
        return None;
    }
    let (ap, (ar, ac), _) = operand::<T>(a)?;
    let (bp, (br, bc), b_vector) = operand::<T>(b)?;
    let (m, ka) = if ta { (ac, ar) } else { (ar, ac) };
    let (kb, n) = if tb { (bc, br) } else { (br, bc) };
    if ka != kb {
        return Some(Err(mismatch((m, ka), (kb, n))));
    }
    let dims: &[i64] = match (b_vector, tb) {
        (true, false) => &[m as i64],
        (true, true) => return None,
        _ => &[m as i64, n as i64],
    };
    let c = match crate::prims::array_new(&a.elem, dims, env) {
        Ok(c) => c,
        Err(e) => return Some(Err(e)),
    };
    // Strides reading op(X) of an r×c column-major X.
    let strides = |r: usize, t: bool| if t { (r as isize, 1) } else { (1, r as isize) };
    let (a_rs, a_cs) = strides(ar, ta);
    let (b_rs, b_cs) = strides(br, tb);
    let small = (ar, ac) == (br, bc) && ar == ac && (ar == 2 || ar == 3) && !b_vector;
    c.with_mut(|d| {
        let cv = T::data_mut(&mut d.data)?;
        // SAFETY: `ap` and `bp` address whole arrays of the shapes read above (nothing can
        // resize them during this call), the strides stay within those shapes, and `C` is a
        // new m×n array of its own storage, borrowed mutably for the call.
        unsafe {
            if small {
                let a = std::slice::from_raw_parts(ap, ar * ar);
                let b = std::slice::from_raw_parts(bp, ar * ar);
                small_square(ar, a, b, (ta, tb), cv);
            } else {
                let (a, b, c) = (
                    (ap, a_rs, a_cs),
                    (bp, b_rs, b_cs),
                    (cv.as_mut_ptr(), 1, m as isize),
                );
                if by_loops(m, ka, n) {
                    loop_gemm(m, ka, n, a, b, c)
                } else {
                    T::gemm(m, ka, n, a, b, c)
                }
            }
        }
        Some(())
    })?;
    Some(Ok(Value::Array(c)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn array(dims: &[usize], seed: usize) -> ArrayObj {
        let len = dims.iter().product::<usize>();
        let data = (0..len)
            .map(|q| ((q * 7 + seed * 13) % 11) as f64 / 4.0 - 1.2)
            .collect();
        ArrayObj::new(ir::Type::Float64, dims.to_vec(), ArrayData::F64(data))
    }

    fn elements(a: &ArrayObj) -> Vec<f64> {
        a.with(|d| f64::data(&d.data).cloned()).unwrap()
    }

    /// `C + op(A) op(B)` (or its transpose into `C` when `tc`) by the definition, for shapes
    /// that take the loops and shapes that take the packed kernel, every transpose.
    fn check(m: usize, k: usize, n: usize) {
        for flags in 0..8 {
            let (ta, tb, tc) = (flags & 1 != 0, flags & 2 != 0, flags & 4 != 0);
            let a = array(&if ta { [k, m] } else { [m, k] }, 1);
            let b = array(&if tb { [n, k] } else { [k, n] }, 2);
            let c = array(&if tc { [n, m] } else { [m, n] }, 3);
            let (av, bv, cv) = (elements(&a), elements(&b), elements(&c));
            let a_at = |i: usize, p: usize| if ta { av[p + i * k] } else { av[i + p * m] };
            let b_at = |p: usize, j: usize| if tb { bv[j + p * n] } else { bv[p + j * k] };
            gemm_add(&c, &a, &b, (ta, tb, tc)).unwrap().unwrap();
            let got = elements(&c);
            for i in 0..m {
                for j in 0..n {
                    let at = if tc { j + i * n } else { i + j * m };
                    let want = cv[at] + (0..k).map(|p| a_at(i, p) * b_at(p, j)).sum::<f64>();
                    assert!(
                        (got[at] - want).abs() <= 1e-12 * (1.0 + want.abs()),
                        "({m}×{k})·({k}×{n}) flags {flags}: element ({i}, {j}) is {}, not {want}",
                        got[at]
                    );
                }
            }
        }
    }

    #[test]
    fn products_by_loops_match_the_definition() {
        for (m, k, n) in [
            (7, 5, 1),
            (1, 9, 6),
            (6, 1, 4),
            (4, 3, 4),
            (5, 16, 3),
            (0, 3, 2),
        ] {
            assert!(by_loops(m, k, n));
            check(m, k, n);
        }
    }

    #[test]
    fn products_by_the_packed_kernel_match_the_definition() {
        for (m, k, n) in [(17, 19, 23), (40, 9, 33)] {
            assert!(!by_loops(m, k, n));
            check(m, k, n);
        }
    }

    /// `op(A) op(B)` into a new array by the definition: matrices and vectors, the 2×2 and
    /// 3×3 products Julia sums without fused steps (exactly, in its order), loops and the
    /// packed kernel, every transpose, and a matrix times its own transpose.
    #[test]
    fn new_products_match_the_definition() {
        let env = TypeEnv::new();
        for (m, k, n, b_vector) in [
            (2, 2, 2, false),
            (3, 3, 3, false),
            (3, 3, 1, true),
            (8, 4, 1, true),
            (5, 7, 3, false),
            (1, 6, 4, false),
            (17, 19, 23, false),
        ] {
            for flags in 0..4 {
                let (ta, tb) = (flags & 1 != 0, flags & 2 != 0);
                if b_vector && tb {
                    continue;
                }
                let a = array(&if ta { [k, m] } else { [m, k] }, 1);
                let b = if b_vector {
                    array(&[k], 2)
                } else {
                    array(&if tb { [n, k] } else { [k, n] }, 2)
                };
                let (av, bv) = (elements(&a), elements(&b));
                let a_at = |i: usize, p: usize| if ta { av[p + i * k] } else { av[i + p * m] };
                let b_at = |p: usize, j: usize| if tb { bv[j + p * n] } else { bv[p + j * k] };
                let Value::Array(c) = matmul(&a, &b, (ta, tb), &env).unwrap().unwrap() else {
                    panic!("the product is an array");
                };
                let want_dims: &[usize] = if b_vector { &[m] } else { &[m, n] };
                assert_eq!(c.dims().as_slice(), want_dims);
                let got = elements(&c);
                for i in 0..m {
                    for j in 0..n {
                        let terms = (0..k).map(|p| a_at(i, p) * b_at(p, j));
                        let want = if m == k && k == n && (n == 2 || n == 3) && !b_vector {
                            terms.reduce(|s, t| s + t).unwrap()
                        } else {
                            terms.sum::<f64>()
                        };
                        let (x, exact) = (got[i + j * m], m == k && k == n && n <= 3);
                        assert!(
                            if exact { x == want } else { (x - want).abs() <= 1e-12 * (1.0 + want.abs()) },
                            "({m}×{k})·({k}×{n}) flags {flags}: element ({i}, {j}) is {x}, not {want}"
                        );
                    }
                }
            }
        }
        // Aᵀ A with both operands the same array; a vector cannot be transposed here.
        let a = array(&[4, 3], 6);
        let av = elements(&a);
        let Value::Array(c) = matmul(&a, &a, (true, false), &env).unwrap().unwrap() else {
            panic!("the product is an array");
        };
        let got = elements(&c);
        for i in 0..3 {
            for j in 0..3 {
                let want: f64 = (0..4).map(|p| av[p + i * 4] * av[p + j * 4]).sum();
                assert!((got[i + j * 3] - want).abs() <= 1e-12);
            }
        }
        assert!(matmul(&array(&[4, 1], 1), &array(&[3], 1), (false, true), &env).is_none());
        assert!(matches!(
            matmul(&a, &array(&[5], 1), (false, false), &env),
            Some(Err(Exception::DimensionMismatch(_)))
        ));
    }

    #[test]
    fn a_matrix_times_a_vector_into_zeros_is_the_packed_kernels_product() {
        // Both take each element's sum in column order with fused steps (where the processor
        // has them), so a product with a vector does not change with the kernel.
        let (m, k) = (32, 16);
        let (a, x) = (array(&[m, k], 4), array(&[k], 5));
        let (av, xv) = (elements(&a), elements(&x));
        let mut by_loops = vec![0.0; m];
        let mut packed = vec![0.0; m];
        let (ap, xp) = ((av.as_ptr(), 1, m as isize), (xv.as_ptr(), 1, k as isize));
        // SAFETY: each pointer addresses the whole column-major array its strides describe,
        // and the results are separate vectors of `m` elements.
        unsafe {
            loop_gemm(m, k, 1, ap, xp, (by_loops.as_mut_ptr(), 1, m as isize));
            f64::gemm(m, k, 1, ap, xp, (packed.as_mut_ptr(), 1, m as isize));
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("fma") && std::arch::is_x86_feature_detected!("avx2")
        {
            assert_eq!(by_loops, packed);
        }
        for (x, y) in by_loops.iter().zip(&packed) {
            assert!((x - y).abs() <= 1e-13);
        }
    }
}
