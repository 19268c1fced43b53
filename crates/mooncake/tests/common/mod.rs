//! Shared by the batteries of `tests/`: the `.jl` programs of a directory.

use std::path::PathBuf;

/// `(file name, source)` of every `.jl` file in `tests/<dir>` at the repository root, sorted by
/// name.
pub fn jl_programs(dir: &str) -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests")
        .join(dir);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jl"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let name = p
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("?")
                .to_string();
            (name, std::fs::read_to_string(p).expect("readable"))
        })
        .collect()
}
