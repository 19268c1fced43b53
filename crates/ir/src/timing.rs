//! Where compile time goes: each phase (parsing, inference, each optimisation pass, AD
//! derivation, code generation, Cranelift) is timed on the current thread, exclusive of the
//! phases nested in it (inlining optimises callees inside the inliner, for instance), so that
//! the totals add up to the time spent. `take` reads and resets the totals.
//!
//! Compilation runs on the thread that asked for it, so per-thread totals are per session
//! as long as a thread runs one session at a time.
//!
//! Timing is off until `enable(true)` on the thread (reading the clock twice per phase costs
//! a few percent of a first gradient): profiling tools turn it on, everything else runs the
//! phases untimed.

use std::cell::{Cell, RefCell};
use std::time::{Duration, Instant};

#[derive(Default)]
struct Timers {
    /// Exclusive time of each phase so far.
    totals: Vec<(&'static str, Duration)>,
    /// For each phase in progress, the time of the phases nested in it so far.
    nested: Vec<Duration>,
}

thread_local! {
    static TIMERS: RefCell<Timers> = RefCell::default();
    static ENABLED: Cell<bool> = const { Cell::new(false) };
}

/// Turns timing on or off for the phases run on this thread from now on.
pub fn enable(on: bool) {
    ENABLED.with(|e| e.set(on));
}

/// Runs `f` as phase `name` (timed if timing is enabled on this thread).
pub fn phase<T>(name: &'static str, f: impl FnOnce() -> T) -> T {
    if !ENABLED.with(|e| e.get()) {
        return f();
    }
    let start = Instant::now();
    TIMERS.with(|t| t.borrow_mut().nested.push(Duration::ZERO));
    let r = f();
    let elapsed = start.elapsed();
    TIMERS.with(|t| {
        let mut t = t.borrow_mut();
        let inner = t.nested.pop().unwrap_or_default();
        if let Some(outer) = t.nested.last_mut() {
            *outer += elapsed;
        }
        let own = elapsed.saturating_sub(inner);
        match t.totals.iter_mut().find(|(n, _)| *n == name) {
            Some((_, d)) => *d += own,
            None => t.totals.push((name, own)),
        }
    });
    r
}

/// The exclusive time of each phase run on this thread since the last `take`, in order of
/// first use; resets the totals.
pub fn take() -> Vec<(&'static str, Duration)> {
    TIMERS.with(|t| std::mem::take(&mut t.borrow_mut().totals))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_phases_are_not_counted_twice() {
        enable(true);
        take();
        let start = Instant::now();
        phase("outer", || {
            std::thread::sleep(Duration::from_millis(2));
            phase("inner", || std::thread::sleep(Duration::from_millis(2)));
        });
        let total = start.elapsed();
        let t = take();
        let names: Vec<_> = t.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["inner", "outer"]);
        let (inner, outer) = (t[0].1, t[1].1);
        assert!(inner >= Duration::from_millis(2) && outer >= Duration::from_millis(2));
        // Counted once: the two add up to no more than the whole.
        assert!(inner + outer <= total);
        assert!(take().is_empty());
        // Off, phases run untimed.
        enable(false);
        phase("off", || ());
        assert!(take().is_empty());
    }
}
