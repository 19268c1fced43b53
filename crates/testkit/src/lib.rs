//! The harness of the file-driven test suites (`tests/programs`, `tests/gradients`,
//! `tests/hessians`, `tests/filetests`, `tests/ir`): one test per file, so a single file can be
//! run alone (`cargo test --test programs -- views_mask`), expectation files rewritten with
//! `BLESS=1`, and a unified diff when an expectation differs.

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};

/// `<path>` relative to the repository root.
pub fn repo_path(path: &str) -> PathBuf {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    p.canonicalize().unwrap_or(p)
}

/// `tests/<dir>` at the repository root.
pub fn suite_dir(dir: &str) -> PathBuf {
    repo_path(&format!("tests/{dir}"))
}

/// The files of `tests/<dir>` whose name ends in `.<ext>`, sorted by name.
pub fn files(dir: &str, ext: &str) -> Vec<PathBuf> {
    files_in(&suite_dir(dir), ext)
}

/// The files of directory `dir` whose name ends in `.<ext>`, sorted by name.
pub fn files_in(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    paths.sort();
    paths
}

/// The file name without its extension: the test's name.
pub fn stem(path: &Path) -> String {
    path.file_stem()
        .and_then(|n| n.to_str())
        .unwrap_or("?")
        .to_string()
}

/// The file's name (as error messages show it) and its text.
pub fn read(path: &Path) -> Result<(String, String), String> {
    let name = path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("?")
        .to_string();
    let src = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((name, src))
}

/// Whether expectation files are being rewritten (`BLESS=1`).
pub fn blessing() -> bool {
    std::env::var("BLESS").is_ok_and(|v| v == "1")
}

/// Compares `actual` with the expectation file `path` (a missing file expects `""`; with
/// `empty_means_absent`, an empty expectation is no file at all). Under `BLESS=1` it writes
/// `actual` there instead.
pub fn expect_file(path: &Path, actual: &str, empty_means_absent: bool) -> Result<(), String> {
    if blessing() {
        if empty_means_absent && actual.is_empty() {
            let _ = std::fs::remove_file(path);
            return Ok(());
        }
        return std::fs::write(path, actual).map_err(|e| format!("{}: {e}", path.display()));
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    if expected == actual {
        return Ok(());
    }
    Err(format!(
        "{} differs (BLESS=1 rewrites it):\n{}",
        path.display(),
        diff(&expected, actual)
    ))
}

/// A unified diff from `expected` to `actual`.
pub fn diff(expected: &str, actual: &str) -> String {
    similar::TextDiff::from_lines(expected, actual)
        .unified_diff()
        .context_radius(3)
        .header("expected", "actual")
        .to_string()
}

/// One test per file of `tests/<dir>` ending in `.<ext>`, named after the file, each running
/// `check` on its path; then runs them as `cargo test` would (filters, `--list`, `--exact`).
pub fn run_suite(dir: &str, ext: &str, check: fn(&Path) -> Result<(), String>) -> ! {
    run_paths(&[&format!("tests/{dir}")], ext, check)
}

/// Like [`run_suite`], over several directories or single files given from the repository
/// root (`tests/gradients`, `examples/models`, `examples/bench_models.jl`).
pub fn run_paths(dirs: &[&str], ext: &str, check: fn(&Path) -> Result<(), String>) -> ! {
    let args = Arguments::from_args();
    let trials = dirs
        .iter()
        .flat_map(|d| {
            let p = repo_path(d);
            if p.is_file() {
                vec![p]
            } else {
                files_in(&p, ext)
            }
        })
        .map(|p| Trial::test(stem(&p), move || check(&p).map_err(Failed::from)))
        .collect();
    libtest_mimic::run(&args, trials).exit()
}
