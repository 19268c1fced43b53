//! Optimisation passes on typed IR, run by one pass manager that verifies after each pass.

pub mod cse;
pub mod facts;
pub mod hoist_checks;
pub mod inline;
pub mod licm;
pub mod simplify;
pub mod sroa;
pub mod sroa_joins;
pub mod unbox;
pub mod unroll;

use crate::{CompileError, Compiler};
use ir::Function;

/// One transformation of a typed function.
pub trait Pass {
    fn name(&self) -> &'static str;
    /// Returns whether anything changed.
    fn run(&self, compiler: &mut Compiler, f: &mut Function) -> Result<bool, CompileError>;
    /// Whether a second run straight after a first always finds nothing to do (the pass
    /// iterates to its own fixpoint), so that the pass manager need not repeat it.
    fn idempotent(&self) -> bool {
        false
    }
}

/// The default pipeline.
pub fn default_passes() -> Vec<Box<dyn Pass>> {
    use simplify::{ConstProp, Dce, SimplifyCfg};
    vec![
        // Inference leaves dead code (unused constants and values); removing it first means
        // the first constant propagation usually finishes the job in small functions.
        Box::new(Dce),
        Box::new(ConstProp),
        Box::new(Dce),
        Box::new(SimplifyCfg),
        Box::new(inline::Inline),
        Box::new(ConstProp),
        Box::new(Dce),
        Box::new(SimplifyCfg),
        Box::new(ConstProp),
        Box::new(Dce),
        Box::new(SimplifyCfg),
        Box::new(SmallArrays),
        Box::new(cse::Cse),
        Box::new(licm::Licm),
        Box::new(hoist_checks::HoistRangeChecks),
        Box::new(Dce),
        Box::new(simplify::SinkReturnedTuples),
    ]
}

/// Small arrays of known size become scalars: their sizes are constants, which (with what
/// size checks tell about other arrays) lets the broadcasts and loops over them be inlined
/// and unrolled, after which every access has a constant index and the array goes. Each
/// step enables the next, so they repeat until nothing changes (at most [`ROUNDS`] times).
/// Runs only in functions that allocate such an array or have a loop (loops of a few
/// constant trips are unrolled anywhere).
pub struct SmallArrays;

/// The most rounds [`SmallArrays`] makes.
const ROUNDS: usize = 10;

impl Pass for SmallArrays {
    fn name(&self) -> &'static str {
        "small-arrays"
    }

    fn run(&self, c: &mut Compiler, f: &mut Function) -> Result<bool, CompileError> {
        let any = f.layout.iter().any(|b| {
            f.blocks[*b]
                .insts
                .iter()
                .any(|i| sroa::small_fresh_array(f, *i))
        });
        if !any && !ir::dominators::has_cycle(f) {
            return Ok(false);
        }
        use simplify::{ConstProp, Dce, SimplifyCfg};
        let steps: [&dyn Pass; 15] = [
            &facts::BranchFacts,
            &sroa::ScalarReplace,
            &sroa_joins::ScalarReplaceJoins,
            &unbox::UnboxStructParams,
            &ConstProp,
            &Dce,
            &SimplifyCfg,
            &inline::InlineForScalars,
            &ConstProp,
            &Dce,
            &SimplifyCfg,
            &unroll::Unroll,
            &ConstProp,
            &Dce,
            &SimplifyCfg,
        ];
        // The cleaning passes ran just before (if they had something left to do, skipping them
        // here only costs optimisation).
        let mut idle: Vec<&'static str> = vec![ConstProp.name(), Dce.name(), SimplifyCfg.name()];
        let mut changed = false;
        for _ in 0..ROUNDS {
            if !run_list(c, f, &steps, &mut idle, None)? {
                break;
            }
            changed = true;
        }
        Ok(changed)
    }
}

/// Runs the default pipeline on `f`, verifying after every pass when verification is on.
pub fn run_default(compiler: &mut Compiler, f: &mut Function) -> Result<(), CompileError> {
    run_passes(compiler, f, &default_passes(), None)
}

/// Receives the name of each pass and the IR after it.
pub type DumpFn<'a> = &'a mut dyn FnMut(&str, &Function);

/// Runs `passes` in order; `dump` receives the IR after each pass.
///
/// A pass that already ran on this function without changing it (or, if it is idempotent,
/// at all), with no other pass changing the function since, is not run again: it would find
/// nothing to do. (This relies on passes reporting their changes; one that under-reports
/// costs optimisation, never correctness.)
/// Most method instances are small and come out of the first passes unchanged, so this
/// skips most of the pipeline for them.
pub fn run_passes(
    compiler: &mut Compiler,
    f: &mut Function,
    passes: &[Box<dyn Pass>],
    dump: Option<DumpFn<'_>>,
) -> Result<(), CompileError> {
    let passes: Vec<&dyn Pass> = passes.iter().map(|p| p.as_ref()).collect();
    run_list(compiler, f, &passes, &mut Vec::new(), dump).map(|_| ())
}

/// Runs `passes` in order, skipping those named in `idle` (passes that found nothing to do
/// since the function last changed; kept up to date for the caller), verifying after each
/// pass it runs; `dump` receives the IR after each pass. Returns whether
/// any pass changed the function.
fn run_list(
    compiler: &mut Compiler,
    f: &mut Function,
    passes: &[&dyn Pass],
    idle: &mut Vec<&'static str>,
    mut dump: Option<DumpFn<'_>>,
) -> Result<bool, CompileError> {
    let mut changed = false;
    for p in passes {
        let name = p.name();
        if !idle.contains(&name) {
            let ch = ir::timing::phase(name, || p.run(compiler, f))?;
            if ch {
                idle.clear();
                changed = true;
            }
            compiler.verify_after(f, name)?;
            if !ch || p.idempotent() {
                idle.push(name);
            }
        }
        if let Some(d) = dump.as_mut() {
            d(name, f);
        }
    }
    Ok(changed)
}
