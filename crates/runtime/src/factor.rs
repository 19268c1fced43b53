//! Triangular solves, the Cholesky factorisation and triangle copies of `Float64` and
//! `Float32` matrices: the primitives `array_trsolve`, `array_cholesky` and `array_tricopy`,
//! on which the prelude builds `cholesky`, `\` with triangular and factorised matrices, and
//! whose matrix-level rules differentiate them.
//!
//! Each loop runs in the order of the reference BLAS/LAPACK routine it stands for (`trsm`,
//! unblocked `potrf`), with no fused multiply-adds, so results are those of the element loops
//! Julia code would run.

use crate::exception::Exception;
use crate::matmul::{by_float_elem, shape, Elem};
use crate::prims::array_new;
use crate::value::{ArrayObj, Value};
use ir::TypeEnv;

fn not_square(r: usize, c: usize) -> Exception {
    Exception::DimensionMismatch(format!("matrix is not square: dimensions are ({r}, {c})"))
}

/// A new array of `a`'s element type and the dimensions `dims`, holding `data`.
fn new_array<T: Elem>(
    a: &ArrayObj,
    dims: &[usize],
    data: Vec<T>,
    env: &TypeEnv,
) -> Result<Value, Exception> {
    let ds: Vec<i64> = dims.iter().map(|d| *d as i64).collect();
    let c = array_new(&a.elem, &ds, env)?;
    c.with_mut(|d| {
        if let Some(v) = T::data_mut(&mut d.data) {
            v.copy_from_slice(&data);
        }
    });
    Ok(Value::Array(c))
}

/// The elements of a float array of element type `T` (a copy) and its dimensions.
fn elements<T: Elem>(x: &ArrayObj) -> Option<(Vec<T>, Vec<usize>)> {
    x.with(|d| Some((T::data(&d.data)?.clone(), d.dims.to_vec())))
}

/// Solves `op(T) X = B` in place on the columns of `x` (`n` rows each), where `T` is the
/// upper or lower triangle of the n×n column-major matrix `a` (with a unit diagonal when
/// `unit`) and `op` transposes it when `trans`.
fn trsolve_in_place<T: Elem>(a: &[T], x: &mut [T], n: usize, upper: bool, trans: bool, unit: bool) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has the feature the function is compiled for.
        unsafe { trsolve_avx2(a, x, n, upper, trans, unit) };
        return;
    }
    trsolve_body(a, x, n, upper, trans, unit)
}

/// [`trsolve_in_place`] compiled for 256-bit vectors: its updates of whole columns (or rows)
/// run four entries at a time, each entry's operations the same as one at a time (no fused
/// multiply-adds, nothing reassociated), so results are identical.
///
/// # Safety
/// The processor must have the `avx2` feature.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn trsolve_avx2<T: Elem>(
    a: &[T],
    x: &mut [T],
    n: usize,
    upper: bool,
    trans: bool,
    unit: bool,
) {
    trsolve_body(a, x, n, upper, trans, unit)
}

/// The body of [`trsolve_in_place`].
#[inline(always)]
fn trsolve_body<T: Elem>(a: &[T], x: &mut [T], n: usize, upper: bool, trans: bool, unit: bool) {
    if n == 0 {
        return;
    }
    let k = x.len() / n;
    if k > 1 {
        return trsolve_rows(a, x, n, k, upper, trans, unit);
    }
    for col in x.chunks_mut(n) {
        for step in 0..n {
            // Forward (top to bottom) for a lower triangle, backward for an upper one; the
            // transpose swaps the two.
            let j = if upper != trans { n - 1 - step } else { step };
            let aj = &a[j * n..(j + 1) * n];
            // The entries of column j of the triangle other than the diagonal.
            let (lo, hi) = if upper { (0, j) } else { (j + 1, n) };
            let (before, rest) = col.split_at_mut(j);
            let (xj, after) = rest.split_first_mut().unwrap_or_else(|| unreachable!());
            let others = if upper { &mut *before } else { after };
            if trans {
                // Entry j is a dot product with the solved entries (in index order).
                let mut t = *xj;
                for (x, &y) in others.iter().zip(&aj[lo..hi]) {
                    t = t - y * *x;
                }
                *xj = if unit { t } else { t / aj[j] };
            } else {
                // Entry j is solved, then taken from the rest of the column.
                if !unit {
                    *xj = *xj / aj[j];
                }
                let t = *xj;
                for (x, &y) in others.iter_mut().zip(&aj[lo..hi]) {
                    *x = *x - t * y;
                }
            }
        }
    }
}

/// `op(T) X = B` with `k` columns: the same operations as the entry-by-entry solve of each
/// column, in the same order, done a row at a time on a row-major copy (all columns at once,
/// so the inner loops run over contiguous, independent entries, and the divisions of one row
/// do not wait for one another).
#[inline(always)]
fn trsolve_rows<T: Elem>(
    a: &[T],
    x: &mut [T],
    n: usize,
    k: usize,
    upper: bool,
    trans: bool,
    unit: bool,
) {
    let mut rows = vec![T::ZERO; n * k];
    for (c, col) in x.chunks(n).enumerate() {
        for (j, v) in col.iter().enumerate() {
            rows[j * k + c] = *v;
        }
    }
    for step in 0..n {
        // As in the column-at-a-time solve: forward for a lower triangle, backward for an
        // upper one, the transpose swapping the two.
        let j = if upper != trans { n - 1 - step } else { step };
        let aj = &a[j * n..(j + 1) * n];
        let (before, rest) = rows.split_at_mut(j * k);
        let (row, after) = rest.split_at_mut(k);
        // The rows the triangle's column j (other than the diagonal) pairs with row j.
        let (lo, hi) = if upper { (0, j) } else { (j + 1, n) };
        if trans {
            // Row j less its products with the solved rows (in index order), then divided.
            for (i, &y) in aj.iter().enumerate().take(hi).skip(lo) {
                for (v, &o) in row.iter_mut().zip(&*row_apart(before, after, i, j, k)) {
                    *v = *v - y * o;
                }
            }
            if !unit {
                let d = aj[j];
                row.iter_mut().for_each(|v| *v = *v / d);
            }
        } else {
            // Row j solved, then taken from the rows below it (above, for an upper triangle).
            if !unit {
                let d = aj[j];
                row.iter_mut().for_each(|v| *v = *v / d);
            }
            for (i, &y) in aj.iter().enumerate().take(hi).skip(lo) {
                for (o, &v) in row_apart(before, after, i, j, k).iter_mut().zip(&*row) {
                    *o = *o - v * y;
                }
            }
        }
    }
    for (c, col) in x.chunks_mut(n).enumerate() {
        for (j, v) in col.iter_mut().enumerate() {
            *v = rows[j * k + c];
        }
    }
}

/// Row `i` (not `j`) of a row-major copy of `k` columns split around row `j` into the rows
/// before it and those after it.
fn row_apart<'a, T>(
    before: &'a mut [T],
    after: &'a mut [T],
    i: usize,
    j: usize,
    k: usize,
) -> &'a mut [T] {
    if i < j {
        &mut before[i * k..(i + 1) * k]
    } else {
        &mut after[(i - j - 1) * k..(i - j) * k]
    }
}

fn trsolve_typed<T: Elem>(
    a: &ArrayObj,
    b: &ArrayObj,
    (upper, trans, unit): (bool, bool, bool),
    env: &TypeEnv,
) -> Option<Result<Value, Exception>> {
    let (mut x, bd) = elements::<T>(b)?;
    let ad = a.dims();
    let [r, c] = ad[..] else { return None };
    let (br, _) = shape(&bd)?;
    if r != c {
        return Some(Err(not_square(r, c)));
    }
    if br != r {
        return Some(Err(Exception::DimensionMismatch(format!(
            "right hand side B needs first dimension of size {r}, has size {br}"
        ))));
    }
    a.with(|d| {
        trsolve_in_place(T::data(&d.data)?, &mut x, r, upper, trans, unit);
        Some(())
    })?;
    Some(new_array(b, &bd, x, env))
}

/// `Core.array_trsolve(A, B, upper, trans, unit)`: `op(T) \ B` for the upper (or lower)
/// triangle `T` of the square matrix `A` (its diagonal taken as ones when `unit`), a new array
/// shaped like `B`. Entries of `A` outside the triangle are not read. `None` if the arguments
/// are not float arrays of one element type (`A` a matrix, `B` a vector or matrix).
pub fn trsolve(
    a: &ArrayObj,
    b: &ArrayObj,
    flags: (bool, bool, bool),
    env: &TypeEnv,
) -> Option<Result<Value, Exception>> {
    if a.elem != b.elem {
        return None;
    }
    by_float_elem!(a.elem, trsolve_typed(a, b, flags, env))
}

fn cholesky_typed<T: Elem>(a: &ArrayObj, env: &TypeEnv) -> Option<Result<Value, Exception>> {
    let (mut f, ad) = elements::<T>(a)?;
    let [n, c] = ad[..] else { return None };
    if n != c {
        return Some(Err(not_square(n, c)));
    }
    // Column by column in the upper triangle (unblocked `potrf`); stops at the first pivot
    // that is not positive, which is left in place.
    'columns: for j in 0..n {
        for i in 0..j {
            let mut s = f[i + j * n];
            for k in 0..i {
                s = s - f[k + i * n] * f[k + j * n];
            }
            f[i + j * n] = s / f[i + i * n];
        }
        let mut d = f[j + j * n];
        for k in 0..j {
            d = d - f[k + j * n] * f[k + j * n];
        }
        // (`!(d > 0)` also stops at NaN.)
        if d.partial_cmp(&T::ZERO) != Some(std::cmp::Ordering::Greater) {
            f[j + j * n] = d;
            break 'columns;
        }
        f[j + j * n] = d.sqrt();
    }
    for j in 0..n {
        for i in (j + 1)..n {
            f[i + j * n] = T::ZERO;
        }
    }
    Some(new_array(a, &ad, f, env))
}

/// `Core.array_cholesky(A)`: the upper Cholesky factor `U` of the symmetric positive definite
/// `A` (`A = UᵀU`), from `A`'s upper triangle only, as a new matrix with zeros below the
/// diagonal. If the pivot of column `j` is not positive the factorisation stops there: the
/// columns before `j` hold the factor, entry `(j, j)` that pivot, the rest `A`'s entries, so
/// the first diagonal entry that is not positive tells where it failed.
pub fn cholesky(a: &ArrayObj, env: &TypeEnv) -> Option<Result<Value, Exception>> {
    by_float_elem!(a.elem, cholesky_typed(a, env))
}

fn tricopy_typed<T: Elem>(
    a: &ArrayObj,
    part: i64,
    diag: i64,
    trans: bool,
    env: &TypeEnv,
) -> Option<Result<Value, Exception>> {
    let ad = a.dims();
    let [m, n] = ad[..] else { return None };
    let (rows, cols) = if trans { (n, m) } else { (m, n) };
    let mut r = vec![T::ZERO; rows * cols];
    a.with(|d| {
        let av = T::data(&d.data)?;
        for j in 0..cols {
            // The rows of column j in the triangle.
            let (lo, hi) = match part {
                1 => (0, (j + 1).min(rows)),
                -1 => (j.min(rows), rows),
                _ => (0, rows),
            };
            let out = &mut r[j * rows..(j + 1) * rows];
            if trans {
                for (i, x) in out.iter_mut().enumerate().take(hi).skip(lo) {
                    *x = av[j + i * m];
                }
            } else {
                out[lo..hi].copy_from_slice(&av[j * m + lo..j * m + hi]);
            }
            if j < rows && (lo..hi).contains(&j) {
                out[j] = match diag {
                    1 => out[j],
                    2 => out[j] * T::HALF,
                    _ => T::ZERO,
                };
            }
        }
        Some(())
    })?;
    Some(new_array(a, &[rows, cols], r, env))
}

/// `Core.array_tricopy(A, part, diag, trans)`: a new matrix holding the upper (`part = 1`),
/// lower (`part = -1`) or whole (`part = 0`) triangle of `op(A)` (`Aᵀ` when `trans`), zeros
/// elsewhere, its diagonal kept (`diag = 1`), halved (`2`) or zero (`0`). Linear in `A`: the
/// rules of the factorisations are written with it. `None` if `A` is not a float matrix.
pub fn tricopy(
    a: &ArrayObj,
    part: i64,
    diag: i64,
    trans: bool,
    env: &TypeEnv,
) -> Option<Result<Value, Exception>> {
    by_float_elem!(a.elem, tricopy_typed(a, part, diag, trans, env))
}

/// The row exchanges of a pivot vector (1-based, as LAPACK's `ipiv`), checked against `n`.
fn pivots(ipiv: &ArrayObj, n: usize) -> Option<Result<Vec<usize>, Exception>> {
    let p = ipiv.with(|d| match &d.data {
        crate::ArrayData::I64(v) => Some(v.clone()),
        _ => None,
    })?;
    if p.len() != n {
        return Some(Err(Exception::DimensionMismatch(format!(
            "pivot vector has length {}, needs {n}",
            p.len()
        ))));
    }
    let rows: Option<Vec<usize>> = p
        .iter()
        .map(|&k| (1..=n as i64).contains(&k).then(|| k as usize - 1))
        .collect();
    Some(rows.ok_or_else(|| Exception::Argument(format!("pivot vector holds a row outside 1:{n}"))))
}

fn lu_typed<T: Elem>(
    a: &ArrayObj,
    ipiv: &ArrayObj,
    env: &TypeEnv,
) -> Option<Result<Value, Exception>> {
    let (mut f, ad) = elements::<T>(a)?;
    let [n, c] = ad[..] else { return None };
    if n != c {
        return Some(Err(not_square(n, c)));
    }
    let mut piv = vec![0i64; n];
    // Unblocked `getf2`: at step k the row with the largest entry (the first of equals) in
    // column k becomes the pivot row; a zero pivot leaves the column as it is.
    for k in 0..n {
        let mut p = k;
        let mut amax = abs(f[k + k * n]);
        for i in (k + 1)..n {
            let v = abs(f[i + k * n]);
            if v > amax {
                amax = v;
                p = i;
            }
        }
        piv[k] = p as i64 + 1;
        if f[p + k * n] == T::ZERO {
            continue;
        }
        if p != k {
            for j in 0..n {
                f.swap(k + j * n, p + j * n);
            }
        }
        let r = T::ONE / f[k + k * n];
        for v in &mut f[k * n + k + 1..(k + 1) * n] {
            *v = *v * r;
        }
        // The rank-one update of the columns right of k, each from column k below the pivot.
        let (left, right) = f.split_at_mut((k + 1) * n);
        let lk = &left[k * n + k + 1..(k + 1) * n];
        for col in right.chunks_mut(n) {
            let akj = col[k];
            for (v, &l) in col[k + 1..].iter_mut().zip(lk) {
                *v = *v - l * akj;
            }
        }
    }
    let ok = ipiv.with_mut(|d| match &mut d.data {
        crate::ArrayData::I64(v) if v.len() == n => {
            v.copy_from_slice(&piv);
            true
        }
        _ => false,
    });
    if !ok {
        return Some(Err(Exception::DimensionMismatch(format!(
            "pivot vector needs length {n} and Int elements"
        ))));
    }
    Some(new_array(a, &ad, f, env))
}

fn abs<T: Elem>(x: T) -> T {
    if x < T::ZERO {
        T::ZERO - x
    } else {
        x
    }
}

/// `Core.array_lu(A, ipiv)`: the LU factorisation with partial pivoting of the square matrix
/// `A` (`P A = L U`), packed as LAPACK leaves it in a new matrix (`U` on and above the
/// diagonal, the unit lower `L` below), the row exchanges written into the `Int` vector
/// `ipiv`. A zero pivot is left on the diagonal (the first one is LAPACK's `info`).
pub fn lu(a: &ArrayObj, ipiv: &ArrayObj, env: &TypeEnv) -> Option<Result<Value, Exception>> {
    by_float_elem!(a.elem, lu_typed(a, ipiv, env))
}

fn rowswap_typed<T: Elem>(
    x: &ArrayObj,
    ipiv: &ArrayObj,
    reverse: bool,
    env: &TypeEnv,
) -> Option<Result<Value, Exception>> {
    let (mut v, dims) = elements::<T>(x)?;
    let (n, cols) = shape(&dims)?;
    let rows = match pivots(ipiv, n)? {
        Ok(r) => r,
        Err(e) => return Some(Err(e)),
    };
    let order: Vec<usize> = if reverse {
        (0..n).rev().collect()
    } else {
        (0..n).collect()
    };
    for c in 0..cols {
        for &k in &order {
            v.swap(k + c * n, rows[k] + c * n);
        }
    }
    Some(new_array(x, &dims, v, env))
}

/// `Core.array_rowswap(X, ipiv, reverse)`: a copy of the vector or matrix `X` with the row
/// exchanges of `ipiv` applied (row k with row `ipiv[k]`, for k = 1, 2, … — `P X` for the LU
/// factorisation's `P` — or for k = n, …, 1 when `reverse`: `Pᵀ X`).
pub fn rowswap(
    x: &ArrayObj,
    ipiv: &ArrayObj,
    reverse: bool,
    env: &TypeEnv,
) -> Option<Result<Value, Exception>> {
    by_float_elem!(x.elem, rowswap_typed(x, ipiv, reverse, env))
}

#[cfg(test)]
mod tests {
    use super::trsolve_in_place;

    /// Multiplies back: `op(T) x` for the triangle of `a`.
    fn apply(a: &[f64], x: &[f64], n: usize, upper: bool, trans: bool, unit: bool) -> Vec<f64> {
        let t = |i: usize, j: usize| {
            let (i, j) = if trans { (j, i) } else { (i, j) };
            let inside = if upper { i <= j } else { i >= j };
            match (i == j && unit, inside) {
                (true, _) => 1.0,
                (false, true) => a[i + j * n],
                (false, false) => 0.0,
            }
        };
        (0..n)
            .map(|i| (0..n).map(|j| t(i, j) * x[j]).sum())
            .collect()
    }

    #[test]
    fn every_triangle_and_transpose_solves() {
        let n = 3;
        let a = [2.0, 0.5, -1.0, 3.0, 4.0, 0.25, -2.0, 1.5, 5.0];
        let b = [1.0, -2.0, 0.5, 0.25, 3.0, -1.5];
        for upper in [false, true] {
            for trans in [false, true] {
                for unit in [false, true] {
                    // One column, and two at once (solved a row at a time): the same
                    // numbers, bit for bit.
                    let mut x = b.to_vec();
                    trsolve_in_place(&a, &mut x[..n], n, upper, trans, unit);
                    trsolve_in_place(&a, &mut x[n..], n, upper, trans, unit);
                    let mut both = b.to_vec();
                    trsolve_in_place(&a, &mut both, n, upper, trans, unit);
                    assert_eq!(x, both, "{upper} {trans} {unit}");
                    for c in 0..2 {
                        let back = apply(&a, &x[c * n..(c + 1) * n], n, upper, trans, unit);
                        for (u, v) in back.iter().zip(&b[c * n..]) {
                            assert!((u - v).abs() < 1e-12, "{upper} {trans} {unit}: {back:?}");
                        }
                    }
                }
            }
        }
    }
}
