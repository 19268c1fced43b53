//! Optimisation passes on typed IR, run by one pass manager that verifies after each pass.

pub mod cse;
pub mod hoist_checks;
pub mod inline;
pub mod licm;
pub mod simplify;

use crate::{CompileError, Compiler};
use ir::Function;

/// One transformation of a typed function.
pub trait Pass {
    fn name(&self) -> &'static str;
    /// Returns whether anything changed.
    fn run(&self, compiler: &mut Compiler, f: &mut Function) -> Result<bool, CompileError>;
}

/// The default pipeline.
pub fn default_passes() -> Vec<Box<dyn Pass>> {
    use simplify::{ConstProp, Dce, SimplifyCfg};
    vec![
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
        Box::new(cse::Cse),
        Box::new(licm::Licm),
        Box::new(hoist_checks::HoistRangeChecks),
        Box::new(Dce),
    ]
}

/// Runs the default pipeline on `f`, verifying after every pass when verification is on.
pub fn run_default(compiler: &mut Compiler, f: &mut Function) -> Result<(), CompileError> {
    run_passes(compiler, f, &default_passes(), None)
}

/// Receives the name of each pass and the IR after it.
pub type DumpFn<'a> = &'a mut dyn FnMut(&str, &Function);

/// Runs `passes` in order; `dump` receives the IR after each pass.
pub fn run_passes(
    compiler: &mut Compiler,
    f: &mut Function,
    passes: &[Box<dyn Pass>],
    mut dump: Option<DumpFn<'_>>,
) -> Result<(), CompileError> {
    for p in passes {
        p.run(compiler, f)?;
        if let Some(d) = dump.as_mut() {
            d(p.name(), f);
        }
        compiler.verify_after(f, p.name())?;
    }
    Ok(())
}
