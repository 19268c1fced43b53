//! IR filetests: each `tests/filetests/*.ir` file holds
//!
//! ```text
//! ; test: constprop dce simplify-cfg      (passes to run, in order; `verify` runs none)
//! ; run: 2.0, 3 => 5.0                     (optional: arguments after the function => result)
//! function f(...) ... end                  (input IR)
//! ; expect:
//! function f(...) ... end                  (IR after the passes)
//! ```
//!
//! The verifier checks the input and the output; `; run:` lines execute the input and the
//! output on the interpreter and in native code, which must all give the result. With
//! `; test: verify-errors` the input must fail verification instead, and the expectation is
//! the input with each error (`; error: ...`) under the entity it is about. `BLESS=1`
//! rewrites the expectation. One test per file.

use compiler::passes::{inline::Inline, run_passes, simplify, Pass};
use compiler::Compiler;
use interp::{Machine, Native};
use ir::{read_functions, verify, write_function, Function};
use runtime::{SharedArray, Value};
use std::path::Path;

fn pass_by_name(name: &str) -> Option<Box<dyn Pass>> {
    Some(match name {
        "constprop" => Box::new(simplify::ConstProp),
        "dce" => Box::new(simplify::Dce),
        "simplify-cfg" => Box::new(simplify::SimplifyCfg),
        "inline" => Box::new(Inline),
        "licm" => Box::new(compiler::passes::licm::Licm),
        "cse" => Box::new(compiler::passes::cse::Cse),
        "hoist-range-checks" => Box::new(compiler::passes::hoist_checks::HoistRangeChecks),
        "branch-facts" => Box::new(compiler::passes::facts::BranchFacts),
        "sroa" => Box::new(compiler::passes::sroa::ScalarReplace),
        "sroa-joins" => Box::new(compiler::passes::sroa_joins::ScalarReplaceJoins),
        "unroll" => Box::new(compiler::passes::unroll::Unroll),
        "small-arrays" => Box::new(compiler::passes::SmallArrays),
        _ => return None,
    })
}

fn parse_value(s: &str) -> Value {
    let s = s.trim();
    if s == "true" || s == "false" {
        return Value::Bool(s == "true");
    }
    if let Some(inner) = s.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        let xs: Vec<f64> = inner
            .split(',')
            .filter(|t| !t.trim().is_empty())
            .map(|t| t.trim().parse().unwrap_or(f64::NAN))
            .collect();
        return Value::Array(SharedArray::new(runtime::ArrayObj::vector_f64(xs)));
    }
    if s.contains('.') || s.contains('e') || s == "NaN" || s.ends_with("Inf") {
        return Value::F64(s.parse().unwrap_or(f64::NAN));
    }
    Value::Int(
        s.parse()
            .unwrap_or_else(|_| panic!("cannot parse value `{s}`")),
    )
}

/// The result of `f(args...)` (or its error) as text, in the interpreter or in native code.
fn run(f: &Function, args: &[Value], native: bool) -> Result<String, String> {
    let mut m = Machine::new(Compiler::new(), Box::new(std::io::sink()));
    let mut all = vec![Value::Nothing];
    all.extend(args.iter().cloned());
    let r = if native {
        let jit = mooncake_jit::Jit::new()?;
        let mut f = f.clone();
        f.assign_id();
        jit.exec(&mut m, &f, &all)
            .ok_or("native code could not compile the function")?
    } else {
        m.exec(f, all)
    };
    Ok(match r {
        Ok(v) => runtime::show::show_string(&v),
        Err(e) => format!("error: {}", e.exception),
    })
}

fn check(path: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let (input, _expected) = match text.split_once("; expect:\n") {
        Some((a, b)) => (a.to_string(), Some(b.to_string())),
        None => (text.clone(), None),
    };
    let mut passes = Vec::new();
    let mut runs = Vec::new();
    let mut expect_errors = false;
    for line in input.lines() {
        if let Some(t) = line.strip_prefix("; test:") {
            for name in t.split_whitespace() {
                if name == "verify" {
                    continue;
                }
                if name == "verify-errors" {
                    expect_errors = true;
                    continue;
                }
                passes.push(pass_by_name(name).ok_or_else(|| format!("unknown pass `{name}`"))?);
            }
        } else if let Some(r) = line.strip_prefix("; run:") {
            let (args, want) = r
                .split_once("=>")
                .ok_or("`; run:` needs `args => result`")?;
            let args: Vec<Value> = if args.trim().is_empty() {
                vec![]
            } else {
                split_args(args).iter().map(|a| parse_value(a)).collect()
            };
            runs.push((args, want.trim().to_string()));
        }
    }
    let mut compiler = Compiler::new();
    compiler.options.verify = true;
    let funcs = read_functions(&input, &compiler.env).map_err(|e| e.to_string())?;
    let mut out = String::new();
    for f in funcs {
        if expect_errors {
            match verify(&f, &compiler.env) {
                Ok(()) => return Err(format!("`{}` verifies; errors were expected", f.name)),
                Err(es) => out.push_str(&ir::verify::write_with_errors(&f, &es)),
            }
            continue;
        }
        verify(&f, &compiler.env).map_err(|es| format!("input does not verify: {es:?}"))?;
        let mut g = f.clone();
        run_passes(&mut compiler, &mut g, &passes, None).map_err(|e| e.message)?;
        verify(&g, &compiler.env).map_err(|es| format!("output does not verify: {es:?}"))?;
        for (args, want) in &runs {
            for (which, func) in [("input", &f), ("output", &g)] {
                for (backend, native) in [("the interpreter", false), ("native code", true)] {
                    let got = run(func, args, native)?;
                    if &got != want {
                        return Err(format!(
                            "run on the {which} in {backend}: expected {want}, got {got}"
                        ));
                    }
                }
            }
        }
        out.push_str(&write_function(&g, None));
    }
    testkit::expect_file(path, &format!("{input}; expect:\n{out}"), false)
}

fn split_args(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

fn main() {
    testkit::run_suite("filetests", "ir", check)
}
