//! Source-to-IR snapshots: each `tests/ir/NAME.jl` starts with `# call: EXPR` and
//! `# stages: lowered typed optimised`; `NAME.ir` holds the dumps of the method instance the
//! call runs (locations omitted). `BLESS=1` rewrites them. Every dump also passes the verifier.

use mooncake::{Session, Stage};
use std::path::PathBuf;

fn dump(path: &PathBuf) -> Result<String, String> {
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
    s.compiler().options.verify = true;
    s.load_source("input.jl", &src)
        .map_err(|e| s.render_error(&e))?;
    let mut out = String::new();
    for st in stages.split_whitespace() {
        let stage = match st {
            "lowered" => Stage::Lowered,
            "typed" => Stage::Typed,
            "optimised" => Stage::Optimised,
            other => return Err(format!("unknown stage {other}")),
        };
        let f = s
            .function_ir(&call, stage)
            .map_err(|e| s.render_error(&e))?;
        out.push_str(&ir::write_function(&f, None));
    }
    Ok(out)
}

#[test]
fn ir_dumps() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/ir");
    let bless = std::env::var("BLESS").is_ok_and(|v| v == "1");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/ir exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jl"))
        .collect();
    paths.sort();
    let mut failures = Vec::new();
    for p in &paths {
        let got = match dump(p) {
            Ok(g) => g,
            Err(e) => {
                failures.push(format!("{}: {e}", p.display()));
                continue;
            }
        };
        let want_path = p.with_extension("ir");
        if bless {
            std::fs::write(&want_path, &got).expect("write");
            continue;
        }
        let want = std::fs::read_to_string(&want_path).unwrap_or_default();
        if want != got {
            failures.push(format!(
                "{}: differs (BLESS=1 to accept)\n{got}",
                p.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
