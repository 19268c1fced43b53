//! The team of threads that runs the shares of threaded loops: `nthreads() - 1` threads kept
//! for the whole process, the thread that starts a loop running its last share itself.
//!
//! A threaded loop is a fork and a join: every share starts at once, and the loop ends when
//! the last one does. What that costs decides how short a loop can be and still gain from
//! threads, so the team is built for it: share `k` always runs on team thread `k + 1` (what a
//! share of a loop's forwards pass allocates, the same share of its pullback frees on the
//! same thread), and a thread waiting for work or for the other shares first spins for
//! [`SPIN`] before it sleeps. Loops that follow one another closely (a forwards pass and its
//! pullback, a loop called in a loop) hand over in about a microsecond; a sleeping thread
//! takes tens of microseconds to wake, as it does in a general work-stealing pool.
//!
//! The starting thread takes the last share because it has usually just gone through the
//! loop's arrays from first to last (filled them, or added a cotangent into every element), so
//! their last elements are in its cache: the team threads then read their shares from memory
//! rather than out of another core's cache (on a 2-core machine, a pullback reading a tangent
//! array just written whole by the starting thread ran its second share 4× slower when the
//! starting thread took the first).
//!
//! One loop runs on the team at a time; a second caller (another session on another thread)
//! waits for it. Shares never start loops on the team: a loop inside a share runs its shares
//! one after another on the share's thread.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::Thread;
use std::time::{Duration, Instant};

/// How long a thread waits for work, or for a loop's other shares, before it sleeps.
pub const SPIN: Duration = Duration::from_micros(100);

/// Stack of each team thread; deeper recursion continues on stacks grown on demand.
const STACK: usize = 16 << 20;

/// One loop on the team: what each share runs, and how many shares there are.
struct Run {
    /// The loop's number on this team (threads run each number once).
    number: u64,
    job: Box<dyn Fn(usize) + Send + Sync>,
    shares: usize,
    /// The thread that started the loop, woken by the last share to end.
    starter: Thread,
    /// The first panic of a share, to be resumed on the starting thread.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

/// What the team's threads and the loops' starters share.
struct Shared {
    /// The number of the latest loop posted (a hint to wake up; the loop itself is `run`).
    posted: AtomicU64,
    run: Mutex<Option<Arc<Run>>>,
    /// Shares of the current loop that ended on team threads.
    ended: AtomicUsize,
    stop: AtomicBool,
}

/// A team of threads (see the module documentation).
pub struct Team {
    shared: Arc<Shared>,
    threads: Vec<Thread>,
    /// Held while a loop runs on the team.
    busy: Mutex<()>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Waits until `ready` gives a value: spinning for [`SPIN`] (after the first few checks,
/// offering the core to other threads between checks, which matters when there are more
/// threads than cores), then sleeping until unparked (and checking again on every wake-up).
fn wait_for<T>(mut ready: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    let mut spins = 0u32;
    loop {
        if let Some(v) = ready() {
            return v;
        }
        spins = spins.wrapping_add(1);
        if spins < 256 {
            std::hint::spin_loop();
            continue;
        }
        if start.elapsed() >= SPIN {
            break;
        }
        std::thread::yield_now();
    }
    loop {
        if let Some(v) = ready() {
            return v;
        }
        std::thread::park();
    }
}

impl Team {
    /// Starts a team of `threads` threads (for loops of up to `threads + 1` shares), or says
    /// why it could not.
    pub fn new(threads: usize) -> Result<Team, String> {
        let shared = Arc::new(Shared {
            posted: AtomicU64::new(0),
            run: Mutex::new(None),
            ended: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        });
        let mut handles = Vec::with_capacity(threads);
        for k in 1..=threads {
            let sh = shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("mooncake-{k}"))
                .stack_size(STACK)
                .spawn(move || serve(&sh, k));
            match spawned {
                Ok(h) => handles.push(h.thread().clone()),
                Err(e) => {
                    stop(&shared, &handles);
                    return Err(format!("could not start {threads} threads: {e}"));
                }
            }
        }
        Ok(Team {
            shared,
            threads: handles,
            busy: Mutex::new(()),
        })
    }

    /// The number of team threads (loops may have one share more).
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Runs `job(k)` for every share `k` in `0..shares` (at most `threads() + 1`): the last
    /// share on this thread, share `k` on team thread `k + 1`; returns when all have returned.
    /// A share's panic is resumed here once every share has ended.
    pub fn run(&self, shares: usize, job: Box<dyn Fn(usize) + Send + Sync>) {
        assert!(shares <= self.threads.len() + 1, "more shares than threads");
        if shares == 0 {
            return;
        }
        let _busy = lock(&self.busy);
        let sh = &self.shared;
        let run = Arc::new(Run {
            number: sh.posted.load(Ordering::Relaxed) + 1,
            job,
            shares,
            starter: std::thread::current(),
            panic: Mutex::new(None),
        });
        sh.ended.store(0, Ordering::Relaxed);
        *lock(&sh.run) = Some(run.clone());
        sh.posted.store(run.number, Ordering::Release);
        for t in &self.threads[..shares.saturating_sub(1)] {
            t.unpark();
        }
        let mine = catch_unwind(AssertUnwindSafe(|| (run.job)(shares - 1)));
        let others = shares.saturating_sub(1);
        wait_for(|| (sh.ended.load(Ordering::Acquire) == others).then_some(()));
        *lock(&sh.run) = None;
        let theirs = lock(&run.panic).take();
        match (mine, theirs) {
            (Err(p), _) | (Ok(()), Some(p)) => std::panic::resume_unwind(p),
            (Ok(()), None) => {}
        }
    }
}

impl Drop for Team {
    fn drop(&mut self) {
        stop(&self.shared, &self.threads);
    }
}

/// Tells the team's threads to end (each ends when it next wakes, which this makes happen).
fn stop(shared: &Shared, threads: &[Thread]) {
    shared.stop.store(true, Ordering::Release);
    shared.posted.fetch_add(1, Ordering::Release);
    for t in threads {
        t.unpark();
    }
}

/// The life of team thread `k` (from 1): run share `k - 1` of every loop whose last share is
/// a later one, until stopped.
fn serve(sh: &Shared, k: usize) {
    let mut seen = 0u64;
    loop {
        let posted = wait_for(|| {
            let p = sh.posted.load(Ordering::Acquire);
            (p != seen).then_some(p)
        });
        if sh.stop.load(Ordering::Acquire) {
            return;
        }
        // A loop is posted before its number, and stays posted until its shares on team
        // threads have ended: so `run` holds loop `posted` or a later one, or nothing if loop
        // `posted` ended (this thread had no share of it).
        let Some(run) = lock(&sh.run).clone() else {
            seen = posted;
            continue;
        };
        if run.number == seen {
            continue;
        }
        seen = run.number;
        if k >= run.shares {
            continue;
        }
        if let Err(p) = catch_unwind(AssertUnwindSafe(|| (run.job)(k - 1))) {
            lock(&run.panic).get_or_insert(p);
        }
        let starter = run.starter.clone();
        // The loop's closure is released before its starter may return.
        drop(run);
        sh.ended.fetch_add(1, Ordering::AcqRel);
        starter.unpark();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicI64;

    /// Runs `runs` loops of `shares` shares on `team`, each share adding its number plus one
    /// to a total and noting its thread; checks every share ran once per loop, the last on the
    /// caller and share `k` always on team thread `k + 1`.
    fn check_runs(team: &Team, shares: usize, runs: usize) {
        let total = Arc::new(AtomicI64::new(0));
        let threads: Arc<Vec<Mutex<Vec<String>>>> =
            Arc::new((0..shares).map(|_| Mutex::new(Vec::new())).collect());
        for _ in 0..runs {
            let (t, th) = (total.clone(), threads.clone());
            team.run(
                shares,
                Box::new(move |k| {
                    t.fetch_add(k as i64 + 1, Ordering::Relaxed);
                    let name = std::thread::current().name().unwrap_or("").to_string();
                    lock(&th[k]).push(name);
                }),
            );
        }
        let per_run = (shares * (shares + 1) / 2) as i64;
        assert_eq!(total.load(Ordering::Relaxed), per_run * runs as i64);
        for (k, names) in threads.iter().enumerate() {
            let names = lock(names);
            assert_eq!(names.len(), runs, "share {k} ran once per loop");
            let mine = if k + 1 < shares {
                format!("mooncake-{}", k + 1)
            } else {
                std::thread::current().name().unwrap_or("").to_string()
            };
            assert!(
                names.iter().all(|n| *n == mine),
                "share {k} ran on {names:?}"
            );
        }
    }

    #[test]
    fn every_share_runs_once_on_its_own_thread() {
        let team = Team::new(3).unwrap();
        check_runs(&team, 4, 200);
        // Fewer shares than threads; one share runs on the caller alone.
        check_runs(&team, 2, 50);
        check_runs(&team, 1, 5);
        check_runs(&team, 0, 5);
    }

    #[test]
    fn loops_after_a_pause_wake_the_sleeping_threads() {
        let team = Team::new(1).unwrap();
        check_runs(&team, 2, 3);
        std::thread::sleep(SPIN * 5);
        check_runs(&team, 2, 3);
    }

    #[test]
    fn callers_on_other_threads_take_turns() {
        let team = Arc::new(Team::new(2).unwrap());
        let callers: Vec<_> = (0..3)
            .map(|_| {
                let team = team.clone();
                std::thread::spawn(move || check_runs(&team, 3, 100))
            })
            .collect();
        for c in callers {
            c.join().unwrap();
        }
    }

    #[test]
    fn a_shares_panic_reaches_the_caller_after_every_share_ended() {
        let team = Team::new(2).unwrap();
        let ended = Arc::new(AtomicUsize::new(0));
        let e = ended.clone();
        let r = catch_unwind(AssertUnwindSafe(|| {
            team.run(
                3,
                Box::new(move |k| {
                    if k == 1 {
                        panic!("share 1 fails");
                    }
                    std::thread::sleep(Duration::from_millis(2));
                    e.fetch_add(1, Ordering::Relaxed);
                }),
            )
        }));
        assert!(r.is_err());
        assert_eq!(ended.load(Ordering::Relaxed), 2);
        // The team still works.
        check_runs(&team, 3, 10);
    }
}
