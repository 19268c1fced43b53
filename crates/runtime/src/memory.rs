//! The memory of arrays: sizes checked as Julia checks them, a budget for the storage of all
//! live arrays (the user's `--max-memory`), and allocation that reports failure instead of
//! aborting the process.
//!
//! Every array storage that grows (creation, `push!`, `resize!`, copies) asks [`reserve`]
//! first; an array's storage is charged to the budget while it lives (see `ArrayObj`). The
//! budget is the process's: sessions share it.

use crate::exception::Exception;
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};

static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);
/// Bytes of storage of live arrays.
static LIVE: Tally = Tally::with_slot(0);
/// Live arrays (see `value::live_arrays`).
pub(crate) static LIVE_ARRAYS: Tally = Tally::with_slot(1);

/// A process-wide count that each thread changes in its own tally and adds to the shared one
/// only once its own has moved by `BATCH` (or when the thread ends), so that threads counting
/// at once do not fight over one cache line. A reading is the shared count plus the reading
/// thread's own: exact for that thread, off by less than `BATCH` per other thread.
pub(crate) struct Tally {
    shared: AtomicIsize,
    /// Which of the thread's local tallies is this one's.
    slot: usize,
}

/// How far a thread's own tally moves before it is added to the shared one.
const BATCH: isize = 1 << 16;

/// The tallies a thread keeps (one per `Tally`), given back to the shared counts at its end.
struct Local([Cell<isize>; 2]);

impl Drop for Local {
    fn drop(&mut self) {
        for (k, t) in [&LIVE, &LIVE_ARRAYS].iter().enumerate() {
            t.shared.fetch_add(self.0[k].get(), Ordering::Relaxed);
        }
    }
}

thread_local! {
    static LOCAL: Local = const { Local([Cell::new(0), Cell::new(0)]) };
}

impl Tally {
    /// The tally kept in slot `slot` of each thread's `Local`.
    const fn with_slot(slot: usize) -> Tally {
        Tally {
            shared: AtomicIsize::new(0),
            slot,
        }
    }

    /// Adds `d` (through this thread's tally).
    pub(crate) fn add(&self, d: isize) {
        let local = LOCAL.try_with(|l| {
            let c = &l.0[self.slot];
            let v = c.get() + d;
            if v.abs() >= BATCH {
                self.shared.fetch_add(v, Ordering::Relaxed);
                c.set(0);
            } else {
                c.set(v);
            }
        });
        if local.is_err() {
            // The thread is ending: straight to the shared count.
            self.shared.fetch_add(d, Ordering::Relaxed);
        }
    }

    /// The count as this thread sees it.
    pub(crate) fn read(&self) -> isize {
        self.shared.load(Ordering::Relaxed) + LOCAL.try_with(|l| l.0[self.slot].get()).unwrap_or(0)
    }
}

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

/// Bytes of array storage alive now (as this thread sees it: see `Tally`).
pub fn live() -> usize {
    LIVE.read().max(0) as usize
}

/// `OutOfMemoryError()` unless `bytes` more of array storage fit in the budget.
pub fn reserve(bytes: usize) -> Result<(), Exception> {
    let limit = LIMIT.load(Ordering::Relaxed);
    if limit == usize::MAX {
        return Ok(());
    }
    match live().checked_add(bytes) {
        Some(total) if total <= limit => Ok(()),
        _ => Err(Exception::OutOfMemory),
    }
}

/// Records a change of an array's storage from `old` to `new` bytes (each below `isize::MAX`,
/// as `checked_length` ensures).
pub(crate) fn charge(old: usize, new: usize) {
    if new != old {
        LIVE.add(new as isize - old as isize);
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
