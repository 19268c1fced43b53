//! The derived-program battery: every `tests/gradients/*.jl` program's `# check: CALL` lines
//! run `test_rule` on that call (interface, central finite differences, increments, argument
//! restoration, reuse) with the verifier on after every pass.

use mooncake::Session;
use std::path::PathBuf;

#[test]
fn gradient_battery() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/gradients");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/gradients exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jl"))
        .collect();
    paths.sort();
    let mut failures = Vec::new();
    let mut checked = 0;
    for p in &paths {
        let src = std::fs::read_to_string(p).expect("readable");
        let name = p
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string();
        let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
        s.compiler().options.verify = true;
        if let Err(e) = s.load_source(&name, &src) {
            failures.push(format!("{name}: {}", s.render_error(&e)));
            continue;
        }
        for call in src.lines().filter_map(|l| l.strip_prefix("# check: ")) {
            checked += 1;
            match s.test_rule(call) {
                Ok(r) if r.passed() => {}
                Ok(r) => failures.push(format!("{name}: {call}\n{}", r.render())),
                Err(e) => failures.push(format!("{name}: {call}\n{}", s.render_error(&e))),
            }
        }
    }
    assert!(checked >= 40, "only {checked} checks");
    assert!(
        failures.is_empty(),
        "{} of {checked} checks failed:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
