//! Source-to-IR snapshots: each `tests/ir/NAME.jl` starts with `# call: EXPR` and
//! `# stages: lowered typed optimised` (or the derived `forward pullback dual`: the
//! reverse-mode rule's two functions and the forward-mode rule); `NAME.ir` holds the dumps of the method instance the
//! call runs (locations omitted). `BLESS=1` rewrites them. Every dump also passes the verifier.
//! One test per file.

use mooncake::{Session, Stage};
use std::path::Path;

fn dump(path: &Path) -> Result<String, String> {
    let src = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let call = src
        .lines()
        .find_map(|l| l.strip_prefix("# call: "))
        .ok_or("missing `# call:`")?
        .to_string();
    let stages = src
        .lines()
        .find_map(|l| l.strip_prefix("# stages: "))
        .unwrap_or("lowered typed optimised");
    let mut s = Session::with_output(Box::new(std::io::sink())).map_err(|e| e.to_string())?;
    s.set_verify(true);
    s.load_source("input.jl", &src)
        .map_err(|e| s.render_error(&e))?;
    let mut out = String::new();
    for st in stages.split_whitespace() {
        let stage = match st {
            "lowered" => Stage::Lowered,
            "typed" => Stage::Typed,
            "optimised" => Stage::Optimised,
            "forward" => Stage::Forward,
            "pullback" => Stage::Pullback,
            "dual" => Stage::Dual,
            other => return Err(format!("unknown stage {other}")),
        };
        let f = s
            .function_ir(&call, stage)
            .map_err(|e| s.render_error(&e))?;
        out.push_str(&ir::write_function(&f, None));
    }
    Ok(out)
}

fn check(path: &Path) -> Result<(), String> {
    testkit::expect_file(&path.with_extension("ir"), &dump(path)?, false)
}

fn main() {
    testkit::run_suite("ir", "jl", check)
}
