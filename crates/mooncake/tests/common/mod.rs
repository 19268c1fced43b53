//! Shared by the test binaries of this crate: the `.jl` programs of a directory, the floats of
//! a value. (Each binary uses part of it.)
#![allow(dead_code)]

use mooncake::Value;
use std::path::PathBuf;

/// The floats of a float or a float array (empty for anything else).
pub fn floats(v: &Value) -> Vec<f64> {
    match v {
        Value::F64(x) => vec![*x],
        Value::Array(a) => a.to_f64_vec().unwrap_or_default(),
        _ => vec![],
    }
}

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
