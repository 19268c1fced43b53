//! The memory of arrays: sizes checked as Julia checks them, a budget for the storage of all
//! live arrays (the user's `--max-memory`), and allocation that reports failure instead of
//! aborting the process.
//!
//! Every array storage that grows (creation, `push!`, `resize!`, copies) asks [`reserve`]
//! first; an array's storage is charged to the budget while it lives (see `ArrayObj`). The
//! budget is the process's: sessions share it.

use crate::prims::Exception;
use std::sync::atomic::{AtomicUsize, Ordering};

static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// Sets the most bytes the storage of all live arrays may take (`None`: no limit beyond what
/// the system gives).
pub fn set_limit(bytes: Option<usize>) {
    LIMIT.store(bytes.unwrap_or(usize::MAX), Ordering::Relaxed);
}

/// The limit set by [`set_limit`].
pub fn limit() -> Option<usize> {
    match LIMIT.load(Ordering::Relaxed) {
        usize::MAX => None,
        n => Some(n),
    }
}

/// Bytes of array storage alive now.
pub fn live() -> usize {
    LIVE.load(Ordering::Relaxed)
}

/// `OutOfMemoryError()` unless `bytes` more of array storage fit in the budget.
pub fn reserve(bytes: usize) -> Result<(), Exception> {
    let live = LIVE.load(Ordering::Relaxed);
    match live.checked_add(bytes) {
        Some(total) if total <= LIMIT.load(Ordering::Relaxed) => Ok(()),
        _ => Err(Exception::OutOfMemory),
    }
}

/// Records a change of an array's storage from `old` to `new` bytes.
pub(crate) fn charge(old: usize, new: usize) {
    if new > old {
        LIVE.fetch_add(new - old, Ordering::Relaxed);
    } else if old > new {
        LIVE.fetch_sub(old - new, Ordering::Relaxed);
    }
}

const INVALID_MEMORY: &str = "invalid GenericMemory size: the number of elements is either negative or too large for system address width";

/// The number of elements of an array with dimensions `dims` whose elements take `elem_size`
/// bytes each, with Julia's errors: `invalid Array dimensions` for a negative or overflowing
/// shape of several dimensions, `invalid GenericMemory size ...` for an impossible length.
pub fn checked_length(dims: &[i64], elem_size: usize) -> Result<usize, Exception> {
    let len = match dims {
        [n] => *n,
        _ => {
            let mut len: i64 = 1;
            let (mut bad, mut overflow, mut zero) = (false, false, false);
            for &d in dims {
                bad |= d < 0 || d == i64::MAX;
                zero |= d == 0;
                match len.checked_mul(d) {
                    Some(p) => len = p,
                    None => {
                        overflow = true;
                        len = len.wrapping_mul(d);
                    }
                }
            }
            if bad || (overflow && !zero) {
                return Err(Exception::Argument("invalid Array dimensions".into()));
            }
            len
        }
    };
    let too_big = |n: i64| {
        !(0..i64::MAX - 1).contains(&n)
            || (n as u128) * (elem_size.max(1) as u128) >= (i64::MAX - 1) as u128
    };
    if too_big(len) {
        return Err(Exception::Argument(INVALID_MEMORY.into()));
    }
    Ok(len as usize)
}

/// `reserve` for `n` more elements of `elem_size` bytes, then `grow` (which makes room with a
/// fallible reservation); either failing is `OutOfMemoryError()`.
pub fn grow<E>(
    n: usize,
    elem_size: usize,
    grow: impl FnOnce() -> Result<(), E>,
) -> Result<(), Exception> {
    let bytes = n
        .checked_mul(elem_size.max(1))
        .ok_or(Exception::OutOfMemory)?;
    reserve(bytes)?;
    grow().map_err(|_| Exception::OutOfMemory)
}
