//! The `mooncake` command line: run Julia-subset programs and inspect their IR.

use clap::{Parser, Subcommand, ValueEnum};
use mooncake::{Backend, Error, Session, Stage};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Writes the command's output to stdout. A reader that stops early (`mooncake ... | head`)
/// ends the process quietly, as other command-line tools do, instead of a panic.
fn write_out(args: std::fmt::Arguments, newline: bool) {
    let mut out = std::io::stdout().lock();
    let written = out.write_fmt(args).and_then(|_| {
        if newline {
            out.write_all(b"\n")
        } else {
            Ok(())
        }
    });
    match written {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            eprintln!("error: cannot write the output: {e}");
            std::process::exit(1)
        }
        Ok(()) => {}
    }
}
macro_rules! outln {
    ($($t:tt)*) => { write_out(format_args!($($t)*), true) };
}
macro_rules! out {
    ($($t:tt)*) => { write_out(format_args!($($t)*), false) };
}

// Compiling allocates and frees many small objects (IR, types, Cranelift's tables): mimalloc
// takes about an eighth off the time to a first gradient against the system allocator.
#[global_allocator]
static ALLOCATOR: mooncake_alloc::Allocator = mooncake_alloc::Allocator;

#[derive(Parser)]
#[command(
    name = "mooncake",
    version,
    about = "Algorithmic differentiation of a Julia subset by typed-IR transformation"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Run everything in the reference interpreter instead of native code.
    #[arg(long, global = true)]
    interpret: bool,
    /// Print notices to stderr: functions native code left to the interpreter, and threaded
    /// loops reverse mode could not differentiate in parallel, and why.
    #[arg(long, global = true)]
    verbose: bool,
    /// The most memory all arrays together may take, as bytes or with a suffix (`512M`,
    /// `8G`), or `none`; past it a program raises `OutOfMemoryError()`. Default: three
    /// quarters of the machine's memory.
    #[arg(long, global = true, value_parser = parse_memory)]
    max_memory: Option<MemoryLimit>,
    /// Threads of `Threads.@threads` loops and `threaded_map!` (1 to 1024). Default: the
    /// environment variable MOONCAKE_NUM_THREADS, else the machine's cores.
    #[arg(long, global = true, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: Option<u16>,
}

#[derive(Clone, Copy)]
struct MemoryLimit(Option<usize>);

fn parse_memory(s: &str) -> Result<MemoryLimit, String> {
    if s.eq_ignore_ascii_case("none") {
        return Ok(MemoryLimit(None));
    }
    let (digits, scale) = match s.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let scale: u64 = match c.to_ascii_uppercase() {
                'K' => 1 << 10,
                'M' => 1 << 20,
                'G' => 1 << 30,
                'T' => 1 << 40,
                _ => return Err(format!("unknown unit `{c}` (use K, M, G or T)")),
            };
            (&s[..i], scale)
        }
        _ => (s, 1),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("`{s}` is not a size such as 512M, 8G or none"))?;
    let bytes = n
        .checked_mul(scale)
        .and_then(|b| usize::try_from(b).ok())
        .ok_or_else(|| format!("`{s}` is too large"))?;
    Ok(MemoryLimit(Some(bytes)))
}

/// Three quarters of the machine's memory (`MemTotal` of /proc/meminfo), if it can be read.
fn default_memory_limit() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024) / 4 * 3)
}

/// `--budget`: a positive number of seconds, at most an hour.
fn parse_budget(s: &str) -> Result<f64, String> {
    let x: f64 = s
        .parse()
        .map_err(|_| format!("`{s}` is not a number of seconds"))?;
    if x.is_finite() && x > 0.0 && x <= 3600.0 {
        Ok(x)
    } else {
        Err(format!(
            "the budget must be a number of seconds above 0 and at most 3600, not `{s}`"
        ))
    }
}

#[derive(Subcommand)]
enum Command {
    /// Run FILE; with --call, then print the value of EXPR.
    Run {
        file: PathBuf,
        /// An expression evaluated after the file, whose value is printed.
        #[arg(long)]
        call: Option<String>,
        /// Print to stderr how long parsing+compiling and running took.
        #[arg(long)]
        time: bool,
    },
    /// Differentiate the call by reverse mode: print its value and the gradient (the tangent of
    /// the function itself first, then of each argument).
    Grad {
        file: PathBuf,
        /// A call expression such as `f(x0())`: the arguments are evaluated, then `f` is
        /// differentiated at those values.
        #[arg(long)]
        call: String,
        /// Print exactly one JSON object: {"value": V, "gradient": [T_f, T_1, ...]}.
        #[arg(long)]
        json: bool,
        /// Debug mode: check at run time that fdata matches every argument and every derived
        /// call's result (types and array sizes), naming the offending call and line.
        #[arg(long)]
        debug: bool,
        /// Rule context: `default` also uses rules that exist only for speed (`sum`, `dot` of
        /// float vectors); `minimal` differentiates those through their code.
        #[arg(long, value_enum, default_value = "default")]
        context: ContextArg,
        /// `reverse`: one forwards pass and one pullback; `forward`: forward mode, one pass per
        /// chunk of input directions (N-lane duals, N = --chunk).
        #[arg(long, value_enum, default_value = "reverse")]
        mode: ModeArg,
        /// Forward mode: input directions per pass (1 to 8).
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(1..=8))]
        chunk: u8,
    },
    /// Test the reverse-mode rule of the call (interface, finite differences, increments,
    /// argument restoration, reuse); exit 1 if a check fails.
    Check {
        file: PathBuf,
        #[arg(long)]
        call: String,
        /// Rule context: `default` also uses rules that exist only for speed (`sum`, `dot` of
        /// float vectors); `minimal` differentiates those through their code.
        #[arg(long, value_enum, default_value = "default")]
        context: ContextArg,
    },
    /// Value, gradient and Hessian of a function of one float or float vector, by forward mode
    /// over reverse mode.
    Hessian {
        file: PathBuf,
        /// A call `f(x)` with `x` a float or a vector of floats.
        #[arg(long)]
        call: String,
        /// Print exactly one JSON object: {"value": v, "gradient": g, "hessian": H} (H as an
        /// array of rows; numbers for a float argument).
        #[arg(long)]
        json: bool,
        /// Hessian columns computed per pass (1 to 8).
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(1..=8))]
        chunk: u8,
    },
    /// Benchmark the call: medians of the primal and of reverse-mode value+gradient (prepared
    /// cache), time to first gradient in a fresh session, and compile time.
    Bench {
        file: PathBuf,
        #[arg(long)]
        call: String,
        /// Print exactly one JSON object with the keys primal_ns, reverse_ns, forward_ns,
        /// first_gradient_ms, compile_ms, ratio_reverse, ratio_forward.
        #[arg(long)]
        json: bool,
        /// Seconds to spend on each median (default 0.5, at most 3600).
        #[arg(long, default_value_t = 0.5, value_parser = parse_budget)]
        budget: f64,
    },
    /// Print the IR of the method instance that `--call` runs.
    Ir {
        file: PathBuf,
        /// A call expression such as `f(1.0, 2)`: the arguments are evaluated, not the call.
        #[arg(long)]
        call: String,
        #[arg(long, value_enum, default_value = "optimised")]
        stage: StageArg,
        /// Rule context: `default` also uses rules that exist only for speed (`sum`, `dot` of
        /// float vectors); `minimal` differentiates those through their code.
        #[arg(long, value_enum, default_value = "default")]
        context: ContextArg,
    },
}

#[derive(Clone, Copy, PartialEq, ValueEnum)]
enum ModeArg {
    Reverse,
    Forward,
}

#[derive(Clone, Copy, ValueEnum)]
enum ContextArg {
    Minimal,
    Default,
}

impl From<ContextArg> for mooncake::ad_rules::Context {
    fn from(c: ContextArg) -> Self {
        match c {
            ContextArg::Minimal => mooncake::ad_rules::Context::Minimal,
            ContextArg::Default => mooncake::ad_rules::Context::Default,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum StageArg {
    Lowered,
    Typed,
    Optimised,
    /// The reverse-mode forwards pass derived from the optimised IR.
    Forward,
    /// The reverse-mode pullback.
    Pullback,
    /// The forward-mode rule (one lane: each value with its tangent).
    Dual,
}

/// Runs the command; on failure returns the rendered error (`error: ...` with locations).
fn run(cli: Cli) -> Result<(), String> {
    let limit = match cli.max_memory {
        Some(MemoryLimit(l)) => l,
        None => default_memory_limit(),
    };
    mooncake::set_memory_limit(limit);
    let threads = match cli.threads {
        Some(n) => usize::from(n),
        None => match std::env::var("MOONCAKE_NUM_THREADS") {
            Ok(v) => match v.trim().parse::<usize>() {
                Ok(n) if (1..=1024).contains(&n) => n,
                _ => {
                    return Err(format!(
                        "error: MOONCAKE_NUM_THREADS must be a number of threads from 1 to 1024, not `{v}`\n"
                    ))
                }
            },
            Err(_) => 0,
        },
    };
    mooncake::set_threads(threads);
    // With --json, standard output holds exactly one JSON object: what the program prints
    // goes to standard error.
    let json = match &cli.command {
        Command::Grad { json, .. }
        | Command::Hessian { json, .. }
        | Command::Bench { json, .. } => *json,
        _ => false,
    };
    let session = if json {
        Session::with_output(Box::new(std::io::stderr()))
    } else {
        Session::new()
    };
    let mut session = session.map_err(|e| format!("error: {e}\n"))?;
    if cli.interpret {
        session
            .set_backend(Backend::Interpreter)
            .map_err(|e| format!("error: {e}\n"))?;
    }
    let r = run_command(&mut session, cli.command);
    if cli.verbose {
        for (func, why) in session
            .native_stats()
            .map(|s| s.fallbacks)
            .unwrap_or_default()
        {
            eprintln!("note: `{func}` runs in the interpreter: {why}");
        }
        for note in session.ad_notices() {
            eprintln!("note: {note}");
        }
    }
    r
}

fn run_command(session: &mut Session, command: Command) -> Result<(), String> {
    let session = &mut *session;
    let fail = |s: &Session, e: Error| s.render_error(&e);
    match command {
        Command::Run { file, call, time } => {
            let start = std::time::Instant::now();
            let before = session.compile_stats();
            if let Err(e) = session.load_file(&file) {
                return Err(fail(session, e));
            }
            if let Some(c) = call {
                match session.eval(&c) {
                    Ok(v) => outln!("{}", mooncake::show(&v)),
                    Err(e) => return Err(fail(session, e)),
                }
            }
            if time {
                let total = start.elapsed().as_secs_f64() * 1e3;
                let st = session.compile_stats();
                let compile = (st.compile_ns - before.compile_ns) as f64 / 1e6;
                let backend = match session.native_stats() {
                    Some(n) if session.backend() == Backend::Native => format!(
                        "native code; {} functions compiled in {:.1} ms",
                        n.functions,
                        n.compile_time.as_secs_f64() * 1e3
                    ),
                    _ => "interpreter".to_string(),
                };
                eprintln!(
                    "time: {total:.1} ms total = {compile:.1} ms parse+compile ({} method instances) + {:.1} ms running ({backend})",
                    st.instances - before.instances,
                    total - compile
                );
            }
            Ok(())
        }
        Command::Grad {
            file,
            call,
            json,
            debug,
            context,
            mode,
            chunk,
        } => {
            session.set_ad_debug(debug);
            session.set_ad_context(context.into());
            if let Err(e) = session.load_file(&file) {
                return Err(fail(session, e));
            }
            let result = session
                .eval_call_parts(&call)
                .and_then(|(f, args)| {
                    let r = match mode {
                        ModeArg::Reverse => session.value_and_gradient(&f, &args),
                        ModeArg::Forward => {
                            session.value_and_gradient_forward(&f, &args, chunk as usize)
                        }
                    };
                    r.map(|(v, g)| (v, g, f, args))
                })
                .map_err(|e| session.primal_error(&call, e));
            match result {
                Ok((v, g, f, args)) => {
                    // Each gradient in the form of its argument (a `Dict`'s as a `Dict`).
                    let primals = std::iter::once(&f).chain(args.iter());
                    let g: Vec<_> = primals
                        .zip(g.iter())
                        .map(|(p, t)| mooncake::present_gradient(p, t))
                        .collect();
                    if json {
                        outln!("{}", session.gradient_json(&v, &g));
                    } else {
                        outln!("value: {}", mooncake::show(&v));
                        for (k, t) in g.iter().enumerate() {
                            let what = if k == 0 {
                                "the function".to_string()
                            } else {
                                format!("argument {k}")
                            };
                            outln!("gradient with respect to {what}: {}", mooncake::show(t));
                        }
                    }
                    Ok(())
                }
                Err(e) => Err(fail(session, e)),
            }
        }
        Command::Check {
            file,
            call,
            context,
        } => {
            session.set_ad_context(context.into());
            if let Err(e) = session.load_file(&file) {
                return Err(fail(session, e));
            }
            match session.test_rule(&call) {
                Ok(report) => {
                    out!("{}", report.render());
                    if report.passed() {
                        Ok(())
                    } else {
                        Err(format!("error: test_rule failed for {call}\n"))
                    }
                }
                Err(e) => Err(fail(session, e)),
            }
        }
        Command::Hessian {
            file,
            call,
            json,
            chunk,
        } => {
            if let Err(e) = session.load_file(&file) {
                return Err(fail(session, e));
            }
            let (f, args) = session
                .eval_call_parts(&call)
                .map_err(|e| fail(session, e))?;
            let [x] = args.as_slice() else {
                return Err(format!(
                    "error: `mooncake hessian` needs a call of a function of one argument (a float or a vector of floats), got {} arguments\n",
                    args.len()
                ));
            };
            let scalar = matches!(x, mooncake::Value::F64(_) | mooncake::Value::F32(_));
            let r = session
                .value_gradient_and_hessian(&f, x, chunk as usize)
                .map_err(|e| session.primal_error(&call, e))
                .map_err(|e| fail(session, e))?;
            let (v, g, h) = (r.value, r.gradient, r.hessian);
            if json {
                outln!("{}", session.hessian_json(&v, &g, &h, scalar));
            } else {
                outln!("value: {}", mooncake::show(&v));
                if scalar {
                    outln!("gradient: {}", g[0]);
                    outln!("hessian: {}", h[0][0]);
                } else {
                    let cells = |r: &[f64]| -> String {
                        r.iter()
                            .map(|d| format!("{d}"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    };
                    outln!("gradient: [{}]", cells(&g));
                    outln!("hessian:");
                    for r in &h {
                        outln!("  [{}]", cells(r));
                    }
                }
            }
            Ok(())
        }
        Command::Bench {
            file,
            call,
            json,
            budget,
        } => {
            let src = std::fs::read_to_string(&file)
                .map_err(|e| format!("error: cannot read {}: {e}\n", file.display()))?;
            let name = file.display().to_string();
            let backend = session.backend();
            let budget = std::time::Duration::from_secs_f64(budget.max(0.01));
            let r = mooncake::bench::bench(&name, &src, &call, backend, budget)?;
            if json {
                outln!("{}", r.to_json());
            } else {
                let be = match backend {
                    Backend::Native => "native code",
                    Backend::Interpreter => "interpreter",
                };
                outln!("{call} ({be})");
                outln!("  primal                      {:>12.0} ns", r.primal_ns);
                outln!(
                    "  value+gradient (reverse)    {:>12.0} ns   {:.2} x primal",
                    r.reverse_ns,
                    r.ratio_reverse()
                );
                match (r.forward_ns, r.ratio_forward()) {
                    (Some(t), Some(q)) => outln!(
                        "  gradient (forward, 8 lanes) {:>12.0} ns   {:.2} x primal",
                        t, q
                    ),
                    _ => outln!(
                        "  gradient (forward)          not measured (no forward rule, or more than {} input directions)",
                        mooncake::bench::MAX_FORWARD_DIRECTIONS
                    ),
                }
                outln!(
                    "  time to first gradient      {:>12.1} ms   (of which compiling {:.1} ms; {} native functions)",
                    r.first_gradient_ms, r.compile_ms, r.native_functions
                );
            }
            Ok(())
        }
        Command::Ir {
            file,
            call,
            stage,
            context,
        } => {
            session.set_ad_context(context.into());
            if let Err(e) = session.load_file(&file) {
                return Err(fail(session, e));
            }
            let r = match stage {
                StageArg::Lowered => session.ir(&call, Stage::Lowered),
                StageArg::Typed => session.ir(&call, Stage::Typed),
                StageArg::Optimised => session.ir(&call, Stage::Optimised),
                StageArg::Forward => session.ir(&call, Stage::Forward),
                StageArg::Pullback => session.ir(&call, Stage::Pullback),
                StageArg::Dual => session.ir(&call, Stage::Dual),
            };
            match r {
                Ok(text) => {
                    out!("{text}");
                    Ok(())
                }
                Err(e) => Err(fail(session, e)),
            }
        }
    }
}

/// Exit status: 0 on success; 1 when the program, its derivative or a check fails (the error
/// is printed to stderr as `error: ...`), also for an internal error; 2 when the command line
/// itself is wrong (an unknown flag, a missing `--call`, a value out of range).
fn main() -> ExitCode {
    let cli = Cli::parse();
    // Panics are caught where sessions work (and reported as internal errors); any other is
    // reported below, in the same form, without Rust's panic text.
    let message: std::sync::Arc<std::sync::Mutex<Option<String>>> = Default::default();
    let m = message.clone();
    std::panic::set_hook(Box::new(move |info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        if let Ok(mut g) = m.lock() {
            *g = Some(format!("{what}{at}"));
        }
    }));
    // The interpreter and the compiler grow their stacks on demand for deep recursion; this
    // is only their start.
    let handle = std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || match run(cli) {
            Ok(()) => ExitCode::SUCCESS,
            Err(text) => {
                use std::io::Write;
                let _ = std::io::stdout().flush();
                eprint!("{text}");
                ExitCode::from(1)
            }
        });
    match handle.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => {
            let what = message
                .lock()
                .ok()
                .and_then(|g| g.clone())
                .unwrap_or_else(|| "a panic".into());
            eprintln!("error: internal error: {what}\n = this is a bug in mooncake, not in the program; please report it");
            ExitCode::from(1)
        }
    }
}
