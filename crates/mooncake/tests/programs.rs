//! End-to-end programs: each `tests/programs/NAME.jl` runs in a fresh session; its standard
//! output must equal `NAME.out`, and what it writes to standard error (warnings, then the
//! rendered error of a program that fails) must equal `NAME.err`, on both backends (native
//! code and the interpreter). One test per program; `BLESS=1 cargo test --test programs`
//! rewrites the expectation files (from the interpreter, the reference).

use mooncake::{Backend, OutputBuffer, Session};
use std::path::Path;

/// Runs one program; returns (stdout, stderr).
fn run_program(path: &Path, backend: Backend) -> (String, String) {
    let out = OutputBuffer::new();
    let warnings = OutputBuffer::new();
    let mut s = Session::with_output(Box::new(out.clone())).expect("prelude loads");
    s.set_warning_output(Box::new(warnings.clone()));
    s.set_backend(backend).expect("backend available");
    let (name, src) = testkit::read(path).expect("readable program");
    let err = s.load_source(&name, &src).err().map(|e| s.render_error(&e));
    (
        out.contents(),
        warnings.contents() + &err.unwrap_or_default(),
    )
}

fn check_backend(path: &Path, backend: Backend) -> Result<(), String> {
    let (stdout, stderr) = run_program(path, backend);
    let on = |r: Result<(), String>| r.map_err(|e| format!("{backend:?}: {e}"));
    let a = on(testkit::expect_file(
        &path.with_extension("out"),
        &stdout,
        false,
    ));
    let b = on(testkit::expect_file(
        &path.with_extension("err"),
        &stderr,
        true,
    ));
    match (a, b) {
        (Ok(()), Ok(())) => Ok(()),
        (Err(e), Ok(())) | (Ok(()), Err(e)) => Err(e),
        (Err(e1), Err(e2)) => Err(format!("{e1}\n{e2}")),
    }
}

fn check(path: &Path) -> Result<(), String> {
    let p = path.to_path_buf();
    // Deeply recursive programs need more stack than a test thread has.
    std::thread::Builder::new()
        .stack_size(16 << 20)
        .spawn(move || {
            check_backend(&p, Backend::Interpreter)?;
            if !testkit::blessing() {
                check_backend(&p, Backend::Native)?;
            }
            Ok(())
        })
        .expect("spawn")
        .join()
        .unwrap_or_else(|_| Err("panicked".into()))
}

fn main() {
    // Threaded loops divide their iterations among 4 threads whatever the machine has, so
    // what a program prints does not depend on it.
    mooncake::set_threads(4);
    testkit::run_suite("programs", "jl", check)
}
