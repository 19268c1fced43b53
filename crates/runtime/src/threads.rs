//! Threads of `Threads.@threads` loops: the team they run on, its size, and the thread id a
//! running chunk of iterations sees.
//!
//! The number of threads is one setting for the whole process (as Julia's is fixed when it
//! starts): `set_threads`, 0 meaning the machine's cores. A loop of `n` iterations is divided
//! into `nthreads()` chunks exactly as Julia's `@threads` divides it (`chunks`); chunk `t`
//! reports `threadid() == t` while it runs, wherever it runs, and draws random numbers from a
//! generator of its own (`task_rng`).

use crate::team::Team;
use crate::value::Value;
use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The most threads a program may ask for.
pub const MAX_THREADS: usize = 1024;

/// Threads asked for (0: the machine's cores).
static REQUESTED: AtomicUsize = AtomicUsize::new(0);

/// The team of threads loops run on.
static TEAM: Mutex<Option<Arc<Team>>> = Mutex::new(None);

/// What a thread runs: the share of a threaded loop (its thread id and random number
/// generator), saved while a nested share runs.
struct Share {
    tid: i64,
    rng: Option<Value>,
    /// Values noted for keys while the share runs (see `note_in_share`).
    notes: Vec<(Value, Value)>,
}

thread_local! {
    /// The shares this thread is running, innermost last (empty outside threaded loops).
    static SHARES: RefCell<Vec<Share>> = const { RefCell::new(Vec::new()) };
}

/// Sets the number of threads of later threaded loops (0: the machine's cores), clamped to
/// `1..=MAX_THREADS`.
pub fn set_threads(n: usize) {
    REQUESTED.store(n.min(MAX_THREADS), Ordering::Relaxed);
}

/// The number of threads (`Threads.nthreads()`).
pub fn nthreads() -> usize {
    match REQUESTED.load(Ordering::Relaxed) {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS)),
        n => n,
    }
}

/// The team of `nthreads() - 1` threads that runs threaded loops with the starting thread
/// (built on first use, rebuilt when the number changed), or why it could not be built.
pub fn team() -> Result<Arc<Team>, String> {
    let n = nthreads().saturating_sub(1);
    let mut t = TEAM.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(team) = t.as_ref() {
        if team.threads() == n {
            return Ok(team.clone());
        }
    }
    let team = Arc::new(Team::new(n)?);
    *t = Some(team.clone());
    Ok(team)
}

/// Arrays of at least this many elements are zero-filled and shifted by whole-array kernels
/// in parts on the loop team (see [`par_chunks`]): 2^16 elements (512 KiB of `Float64`) take
/// tens of microseconds, against about a microsecond to hand parts to the team.
pub const PAR_MIN_ELEMS: usize = 1 << 16;

/// Runs `f` on every part of `xs` split into up to `nthreads()` contiguous parts, the parts
/// at once on the loop team, when `xs` has at least [`PAR_MIN_ELEMS`] elements, there are
/// several threads and this thread is not running a share of a threaded loop (whose other
/// shares already use the team); otherwise runs `f(xs)` here. Element-wise kernels give the
/// same results either way; the thread that calls takes the last part (see `team`).
pub fn par_chunks<T: Send>(xs: &mut [T], f: &(dyn Fn(&mut [T]) + Sync)) {
    let n = xs.len();
    if n < PAR_MIN_ELEMS || nthreads() < 2 || in_threaded_loop() {
        return f(xs);
    }
    let Ok(team) = team() else {
        return f(xs);
    };
    let shares = (team.threads() + 1).min(nthreads());
    let parts: Vec<Mutex<Option<&mut [T]>>> = xs
        .chunks_mut(n.div_ceil(shares))
        .map(|c| Mutex::new(Some(c)))
        .collect();
    let job = |k: usize| {
        let part = parts
            .get(k)
            .and_then(|m| m.lock().unwrap_or_else(|e| e.into_inner()).take());
        if let Some(part) = part {
            f(part);
        }
    };
    run_scoped(&team, parts.len(), &job);
}

/// `Team::run` of a job that borrows from the caller's stack.
fn run_scoped(team: &Team, shares: usize, job: &(dyn Fn(usize) + Sync)) {
    // SAFETY: only the lifetime changes. `Team::run` returns only after every share has
    // returned from the job, and no thread calls a loop's job after that (a team thread may
    // drop its handle to the loop later, which drops this reference and nothing else), so
    // the job is never called after this function returns, while everything it borrows is
    // still alive.
    let job: &'static (dyn Fn(usize) + Sync) = unsafe {
        std::mem::transmute::<&(dyn Fn(usize) + Sync), &'static (dyn Fn(usize) + Sync)>(job)
    };
    team.run(shares, Box::new(job));
}

/// `Threads.threadid()`: the running share's thread id, 1 outside threaded loops.
pub fn threadid() -> i64 {
    SHARES.with(|s| s.borrow().last().map_or(1, |sh| sh.tid))
}

/// The thread id of the outermost share this thread runs (the share of the loop running on
/// the threads, when loops nest), if it runs one.
pub fn outer_threadid() -> Option<i64> {
    SHARES.with(|s| s.borrow().first().map(|sh| sh.tid))
}

/// What the outermost share this thread runs noted for `key` (compared with `egal`), if it
/// runs one and noted something.
pub fn share_note(key: &Value) -> Option<Value> {
    SHARES.with(|s| {
        let s = s.borrow();
        let notes = &s.first()?.notes;
        notes
            .iter()
            .find(|(k, _)| crate::value::egal(k, key))
            .map(|(_, v)| v.clone())
    })
}

/// Notes `value` for `key` in the outermost share this thread runs (forgotten when the share
/// ends): what the share should see of something the whole loop shares, such as the share's
/// own copy of a global's tangent.
pub fn note_in_share(key: Value, value: Value) {
    let old = SHARES.with(|s| match s.borrow_mut().first_mut() {
        Some(sh) => {
            sh.notes.push((key, value));
            None
        }
        None => Some((key, value)),
    });
    drop(old);
}

/// Whether the current thread is running a share of a threaded loop (a loop nested in it runs
/// its shares one after another on this thread).
pub fn in_threaded_loop() -> bool {
    SHARES.with(|s| !s.borrow().is_empty())
}

/// The random number generator of the running share (Julia gives each task its own), if the
/// thread runs one.
pub fn task_rng() -> Option<Value> {
    SHARES.with(|s| s.borrow().last().and_then(|sh| sh.rng.clone()))
}

/// `task_rng()` if it is of `default`'s type, else `default` (`Core.task_rng`).
pub fn task_rng_or(default: &Value) -> Value {
    SHARES.with(|s| match s.borrow().last().and_then(|sh| sh.rng.as_ref()) {
        Some(r) if r.ty() == default.ty() => r.clone(),
        _ => default.clone(),
    })
}

/// While alive, the current thread runs a share of a threaded loop; dropping it ends the
/// share (see `enter_chunk`).
pub struct ChunkGuard(());

/// Marks the current thread as running share `tid` of a threaded loop, with its own random
/// number generator `rng`, until the guard is dropped.
pub fn enter_chunk(tid: i64, rng: Option<Value>) -> ChunkGuard {
    push_chunk(tid, rng);
    ChunkGuard(())
}

/// `enter_chunk` without a guard: the share lasts until `pop_chunk`.
pub fn push_chunk(tid: i64, rng: Option<Value>) {
    SHARES.with(|s| {
        s.borrow_mut().push(Share {
            tid,
            rng,
            notes: Vec::new(),
        })
    });
}

/// Ends the innermost share `push_chunk` began.
pub fn pop_chunk() {
    // The generator is dropped outside the borrow (dropping values runs no user code, but
    // keep the borrow short anyway).
    let share = SHARES.with(|s| s.borrow_mut().pop());
    drop(share);
}

impl Drop for ChunkGuard {
    fn drop(&mut self) {
        pop_chunk();
    }
}

/// Marks the current thread as running no threaded loop (after an error left a share begun by
/// `Core.chunk_enter` unended).
pub fn leave_all_chunks() {
    let shares = SHARES.with(|s| std::mem::take(&mut *s.borrow_mut()));
    drop(shares);
}

/// One thread's share of a loop: thread id and the first and last index of its iterations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk {
    pub tid: i64,
    pub first: i64,
    pub last: i64,
}

/// The iterations `first .. first + n - 1` divided among `nt` threads as Julia's `@threads`
/// divides them: `n ÷ nt` each, the first `n % nt` threads one more; threads left without
/// iterations get no chunk.
pub fn chunks(first: i64, n: i64, nt: i64) -> Vec<Chunk> {
    (1..=nt.max(1))
        .filter_map(|tid| chunk(first, n, nt, tid))
        .collect()
}

/// Thread `tid`'s share of `chunks(first, n, nt)`, if it has one.
pub fn chunk(first: i64, n: i64, nt: i64, tid: i64) -> Option<Chunk> {
    let nt = nt.max(1);
    let n = n.max(0);
    let (len, rem) = match (n / nt, n % nt) {
        (0, rem) if tid > rem => return None,
        (0, _) => (1, 0),
        lr => lr,
    };
    let mut f = first + (tid - 1) * len;
    let mut l = f + len - 1;
    if rem > 0 {
        if tid <= rem {
            f += tid - 1;
            l += tid;
        } else {
            f += rem;
            l += rem;
        }
    }
    Some(Chunk {
        tid,
        first: f,
        last: l,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(first: i64, n: i64, nt: i64, expect: &[(i64, i64, i64)]) {
        let got: Vec<(i64, i64, i64)> = chunks(first, n, nt)
            .iter()
            .map(|c| (c.tid, c.first, c.last))
            .collect();
        assert_eq!(got, expect);
    }

    #[test]
    fn chunks_follow_julias_division() {
        check(1, 10, 4, &[(1, 1, 3), (2, 4, 6), (3, 7, 8), (4, 9, 10)]);
        check(1, 8, 2, &[(1, 1, 4), (2, 5, 8)]);
        check(1, 3, 4, &[(1, 1, 1), (2, 2, 2), (3, 3, 3)]);
        check(5, 3, 1, &[(1, 5, 7)]);
        check(1, 0, 4, &[]);
    }

    #[test]
    fn chunks_cover_every_iteration_once() {
        for n in 0..40 {
            for nt in 1..9 {
                let cs = chunks(1, n, nt);
                let mut next = 1;
                for c in &cs {
                    assert_eq!(c.first, next);
                    assert!(c.last >= c.first);
                    next = c.last + 1;
                }
                assert_eq!(next, n + 1);
            }
        }
    }

    #[test]
    fn a_chunk_sets_the_thread_id_for_its_time() {
        assert_eq!(threadid(), 1);
        {
            let _g = enter_chunk(3, None);
            assert_eq!(threadid(), 3);
            assert!(in_threaded_loop());
            {
                let _inner = enter_chunk(2, Some(Value::Int(7)));
                assert_eq!(threadid(), 2);
                assert!(matches!(task_rng(), Some(Value::Int(7))));
            }
            assert_eq!(threadid(), 3);
            assert!(task_rng().is_none());
        }
        assert_eq!(threadid(), 1);
        assert!(!in_threaded_loop());
    }

    /// Whole-array kernels on the team touch every element once, in a big array as in a small
    /// one, inside a share (run here) as outside, whatever the number of threads.
    #[test]
    fn parts_cover_every_element_once() {
        for n in [
            0,
            10,
            PAR_MIN_ELEMS - 1,
            PAR_MIN_ELEMS,
            3 * PAR_MIN_ELEMS + 7,
        ] {
            let mut xs = vec![0u32; n];
            par_chunks(&mut xs, &|p| p.iter_mut().for_each(|x| *x += 1));
            assert!(xs.iter().all(|x| *x == 1), "n = {n}");
            {
                let _g = enter_chunk(1, None);
                par_chunks(&mut xs, &|p| p.iter_mut().for_each(|x| *x += 1));
            }
            assert!(xs.iter().all(|x| *x == 2), "n = {n} in a share");
        }
        let big = crate::value::ArrayData::try_zeros_in(
            &ir::types::Type::Float64,
            2 * PAR_MIN_ELEMS + 3,
            &ir::TypeEnv::new(),
        )
        .unwrap_or_else(|e| panic!("{e:?}"));
        match big {
            crate::value::ArrayData::F64(v) => {
                assert_eq!(v.len(), 2 * PAR_MIN_ELEMS + 3);
                assert!(v.iter().all(|x| x.to_bits() == 0));
            }
            _ => panic!("a Float64 array holds Float64 storage"),
        }
    }
}
