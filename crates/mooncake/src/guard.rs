//! Panics are bugs, but a bug must not reach the user as Rust's panic text or abort the
//! process: the entry points of [`Session`](crate::Session) run their work through [`catch`],
//! which turns a panic into an internal error (with the place in the library where it
//! happened, and the user's source location the session was working on).
//!
//! While a guarded call runs, the process's panic hook records the panic's message instead of
//! printing it; outside guarded calls it behaves as it did before the first session.

use std::cell::{Cell, RefCell};
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    static GUARDED: Cell<u32> = const { Cell::new(0) };
    static LAST: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// Installs the hook (once per process): quiet inside guarded calls, the previous hook
/// elsewhere.
pub(crate) fn install() {
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if GUARDED.with(|g| g.get()) > 0 {
                let what = info
                    .payload()
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| info.payload().downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".to_string());
                let at = info
                    .location()
                    .map(|l| format!(" at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                LAST.with(|l| *l.borrow_mut() = Some(format!("{what}{at}")));
            } else {
                previous(info);
            }
        }));
    });
}

/// Runs `f`; a panic inside it becomes `Err` with its message and where it happened.
pub(crate) fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    GUARDED.with(|g| g.set(g.get() + 1));
    let r = panic::catch_unwind(AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(g.get() - 1));
    r.map_err(|_| {
        LAST.with(|l| l.borrow_mut().take())
            .unwrap_or_else(|| "a panic".to_string())
    })
}
