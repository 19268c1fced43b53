//! End-to-end programs: each `tests/programs/NAME.jl` runs in a fresh session; its standard
//! output must equal `NAME.out`, and what it writes to standard error (warnings, then the
//! rendered error of a program that fails) must equal `NAME.err`, on both backends (native code and the interpreter). `BLESS=1 cargo test`
//! rewrites the expectation files (from the interpreter, the reference).

use mooncake::{Backend, OutputBuffer, Session};
use std::path::{Path, PathBuf};

fn programs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/programs")
}

/// Runs one program; returns (stdout, stderr if anything was written there).
fn run_program(path: &Path, backend: Backend) -> (String, Option<String>) {
    let out = OutputBuffer::new();
    let warnings = OutputBuffer::new();
    let mut s = Session::with_output(Box::new(out.clone())).expect("prelude loads");
    s.set_warning_output(Box::new(warnings.clone()));
    s.set_backend(backend).expect("backend available");
    let src = std::fs::read_to_string(path).expect("readable program");
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("program.jl")
        .to_string();
    let err = s.load_source(&name, &src).err().map(|e| s.render_error(&e));
    let stderr = warnings.contents() + &err.unwrap_or_default();
    (out.contents(), (!stderr.is_empty()).then_some(stderr))
}

fn check(path: &Path, bless: bool, backend: Backend) -> Result<(), String> {
    let (stdout, err) = run_program(path, backend);
    let out_path = path.with_extension("out");
    let err_path = path.with_extension("err");
    if bless {
        std::fs::write(&out_path, &stdout).map_err(|e| e.to_string())?;
        match &err {
            Some(e) => std::fs::write(&err_path, e).map_err(|e| e.to_string())?,
            None => {
                let _ = std::fs::remove_file(&err_path);
            }
        }
        return Ok(());
    }
    let want_out = std::fs::read_to_string(&out_path).unwrap_or_default();
    let want_err = std::fs::read_to_string(&err_path).ok();
    let mut problems = Vec::new();
    if stdout != want_out {
        problems.push(format!(
            "{backend:?}: stdout differs:\n--- expected\n{want_out}\n--- actual\n{stdout}"
        ));
    }
    if err != want_err {
        problems.push(format!(
            "{backend:?}: error differs:\n--- expected\n{}\n--- actual\n{}",
            want_err.unwrap_or_else(|| "(no error)".into()),
            err.unwrap_or_else(|| "(no error)".into())
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

#[test]
fn programs() {
    let bless = std::env::var("BLESS").is_ok_and(|v| v == "1");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(programs_dir())
        .expect("tests/programs exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jl"))
        .collect();
    paths.sort();
    assert!(
        paths.len() >= 40,
        "expected at least 40 programs, found {}",
        paths.len()
    );
    let mut failures = Vec::new();
    for p in &paths {
        let p2 = p.clone();
        let r = std::thread::Builder::new()
            .stack_size(16 << 20)
            .spawn(move || {
                check(&p2, bless, Backend::Interpreter)?;
                if !bless {
                    check(&p2, false, Backend::Native)?;
                }
                Ok::<(), String>(())
            })
            .expect("spawn")
            .join();
        match r {
            Ok(Ok(())) => {}
            Ok(Err(msg)) => failures.push(format!("{}: {msg}", p.display())),
            Err(_) => failures.push(format!("{}: panicked", p.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} programs failed:\n\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n\n")
    );
}
