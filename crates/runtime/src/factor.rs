//! Triangular solves, the Cholesky factorisation and triangle copies of `Float64` and
//! `Float32` matrices: the primitives `array_trsolve`, `array_cholesky` and `array_tricopy`,
//! on which the prelude builds `cholesky`, `\` with triangular and factorised matrices, and
//! whose matrix-level rules differentiate them.
//!
//! Each loop runs in the order of the reference BLAS/LAPACK routine it stands for (`trsm`,
//! unblocked `potrf`), with no fused multiply-adds, so results are those of the element loops
//! Julia code would run.

use crate::matmul::{shape, Elem};
use crate::prims::{array_new, Exception};
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
/// `unit`) and `op` transposes it when `trans`. (Index loops: they read as the formulas.)
#[allow(clippy::needless_range_loop)]
fn trsolve_in_place<T: Elem>(a: &[T], x: &mut [T], n: usize, upper: bool, trans: bool, unit: bool) {
    if n == 0 {
        return;
    }
    let at = |i: usize, j: usize| a[i + j * n];
    for col in x.chunks_mut(n) {
        match (upper, trans) {
            // Column by column, each solved entry subtracted from the rest of the column.
            (false, false) => {
                for j in 0..n {
                    if !unit {
                        col[j] = col[j] / at(j, j);
                    }
                    let t = col[j];
                    for i in (j + 1)..n {
                        col[i] = col[i] - t * at(i, j);
                    }
                }
            }
            (true, false) => {
                for j in (0..n).rev() {
                    if !unit {
                        col[j] = col[j] / at(j, j);
                    }
                    let t = col[j];
                    for i in (0..j).rev() {
                        col[i] = col[i] - t * at(i, j);
                    }
                }
            }
            // Entry by entry, each a dot product with the solved ones.
            (true, true) => {
                for j in 0..n {
                    let mut t = col[j];
                    for i in 0..j {
                        t = t - at(i, j) * col[i];
                    }
                    if !unit {
                        t = t / at(j, j);
                    }
                    col[j] = t;
                }
            }
            (false, true) => {
                for j in (0..n).rev() {
                    let mut t = col[j];
                    for i in (j + 1)..n {
                        t = t - at(i, j) * col[i];
                    }
                    if !unit {
                        t = t / at(j, j);
                    }
                    col[j] = t;
                }
            }
        }
    }
}

fn trsolve_typed<T: Elem>(
    a: &ArrayObj,
    b: &ArrayObj,
    (upper, trans, unit): (bool, bool, bool),
    env: &TypeEnv,
) -> Option<Result<Value, Exception>> {
    let (av, ad) = elements::<T>(a)?;
    let (mut x, bd) = elements::<T>(b)?;
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
    trsolve_in_place(&av, &mut x, r, upper, trans, unit);
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
    match a.elem {
        ir::Type::Float64 => trsolve_typed::<f64>(a, b, flags, env),
        ir::Type::Float32 => trsolve_typed::<f32>(a, b, flags, env),
        _ => None,
    }
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
    match a.elem {
        ir::Type::Float64 => cholesky_typed::<f64>(a, env),
        ir::Type::Float32 => cholesky_typed::<f32>(a, env),
        _ => None,
    }
}

fn tricopy_typed<T: Elem>(
    a: &ArrayObj,
    part: i64,
    diag: i64,
    trans: bool,
    env: &TypeEnv,
) -> Option<Result<Value, Exception>> {
    let (av, ad) = elements::<T>(a)?;
    let [m, n] = ad[..] else { return None };
    let (rows, cols) = if trans { (n, m) } else { (m, n) };
    let mut r = vec![T::ZERO; rows * cols];
    for j in 0..cols {
        for i in 0..rows {
            let keep = match part {
                1 => i <= j,
                -1 => i >= j,
                _ => true,
            };
            if keep {
                let x = if trans { av[j + i * m] } else { av[i + j * m] };
                r[i + j * rows] = match (i == j, diag) {
                    (false, _) | (true, 1) => x,
                    (true, 2) => x * T::HALF,
                    (true, _) => T::ZERO,
                };
            }
        }
    }
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
    match a.elem {
        ir::Type::Float64 => tricopy_typed::<f64>(a, part, diag, trans, env),
        ir::Type::Float32 => tricopy_typed::<f32>(a, part, diag, trans, env),
        _ => None,
    }
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
        let b = [1.0, -2.0, 0.5];
        for upper in [false, true] {
            for trans in [false, true] {
                for unit in [false, true] {
                    let mut x = b.to_vec();
                    trsolve_in_place(&a, &mut x, n, upper, trans, unit);
                    let back = apply(&a, &x, n, upper, trans, unit);
                    for (u, v) in back.iter().zip(&b) {
                        assert!((u - v).abs() < 1e-12, "{upper} {trans} {unit}: {back:?}");
                    }
                }
            }
        }
    }
}
