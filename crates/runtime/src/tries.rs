//! What reverse mode needs to know of the `try` bodies whose forwards passes are running:
//! which objects existed before each began (every array and mutable struct made while one
//! runs gets a birth number), and whether a body changed such an object — a body that then
//! raises an error leaves that change behind, and its derivative would be lost.

use crate::value::{ArrayObj, MutableVal, Value};
use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// How many `try` bodies' forwards passes run, on any thread.
static RUNNING: AtomicUsize = AtomicUsize::new(0);
/// The last birth number given.
static BORN: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// The `try` bodies running on this thread, innermost last: the birth number their body
    /// began at, and whether it changed an object born before.
    static LEVELS: RefCell<Vec<(u64, bool)>> = const { RefCell::new(Vec::new()) };
}

/// The birth number of an object made now: 0 (older than every `try`) when no `try` body
/// runs, else a number larger than those of every `try` begun so far.
#[inline]
pub fn birth() -> u64 {
    if RUNNING.load(Ordering::Relaxed) == 0 {
        0
    } else {
        BORN.fetch_add(1, Ordering::Relaxed) + 1
    }
}

/// A `try` body's forwards pass begins.
pub fn enter() {
    RUNNING.fetch_add(1, Ordering::Relaxed);
    let epoch = BORN.fetch_add(1, Ordering::Relaxed) + 1;
    LEVELS.with(|l| l.borrow_mut().push((epoch, false)));
}

/// The `try` body that [`enter`] began has ended: whether it changed an object born before
/// it.
pub fn leave() -> bool {
    RUNNING.fetch_sub(1, Ordering::Relaxed);
    LEVELS
        .with(|l| l.borrow_mut().pop())
        .is_some_and(|(_, dirty)| dirty)
}

/// Reverse mode's forwards pass inside a `try` body writes into `obj` (an array, whose storage
/// may be another's, or a mutable struct): each running body begun after `obj` was made
/// notes the change.
pub fn note_write(obj: &Value) {
    let born = match obj {
        Value::Array(a) => a.born(),
        Value::Mutable(m) => m.born(),
        _ => return,
    };
    LEVELS.with(|l| {
        for (epoch, dirty) in l.borrow_mut().iter_mut() {
            if born < *epoch {
                *dirty = true;
            }
        }
    });
}

impl ArrayObj {
    /// The birth number of the array's storage (its owner's, for an array sharing another's).
    pub fn born(&self) -> u64 {
        self.storage_born()
    }
}

impl MutableVal {
    /// The struct's birth number (see [`birth`]).
    pub fn born(&self) -> u64 {
        self.birth_number()
    }
}
