//! A small IR builder: appends typed instructions to the current block of a function.

use ir::{Block, Const, Function, InstData, Prim, Type, Value};
use syntax::Span;

pub struct Emit<'f> {
    pub f: &'f mut Function,
    pub block: Block,
    pub loc: Span,
}

impl Emit<'_> {
    pub fn inst(&mut self, data: InstData, ty: Type) -> Option<Value> {
        self.f.append(self.block, data, ty, self.loc)
    }

    /// An instruction that has a result.
    pub fn val(&mut self, data: InstData, ty: Type) -> Value {
        self.inst(data, ty)
            .unwrap_or_else(|| unreachable!("instruction without a result"))
    }

    pub fn konst(&mut self, c: Const) -> Value {
        let t = c.ty();
        self.val(InstData::Const(c), t)
    }

    pub fn prim(&mut self, op: Prim, args: Vec<Value>, ty: Type) -> Value {
        self.val(InstData::Prim { op, args }, ty)
    }

    pub fn field(&mut self, obj: Value, k: u32, ty: Type) -> Value {
        self.val(
            InstData::GetField {
                obj,
                field: ir::FieldRef::Index(k),
            },
            ty,
        )
    }

    pub fn jump(&mut self, dest: Block, args: Vec<Value>) {
        self.inst(InstData::Jump { dest, args }, Type::Any);
    }
}

/// Carries a primal function's inline sites into a function derived from it: the
/// instructions emitted for a primal instruction get that instruction's site, so that an error
/// raised in derived code shows the call chain in the user's source. `start` marks where the
/// code for one primal instruction (or, with site 0, scaffolding) begins; `finish` assigns.
pub struct SiteMarks(Vec<(usize, u32)>);

impl SiteMarks {
    pub fn new(derived: &mut Function, primal: &Function) -> SiteMarks {
        derived.inline_sites = primal.inline_sites.clone();
        SiteMarks(Vec::new())
    }

    /// The instructions `derived` gets from now on carry `site` (from `primal.inlined_at`).
    pub fn start(&mut self, derived: &Function, site: u32) {
        self.0.push((derived.insts.len(), site));
    }

    pub fn finish(mut self, derived: &mut Function) {
        self.start(derived, 0);
        for w in self.0.windows(2) {
            let ((from, site), (to, _)) = (w[0], w[1]);
            for k in from..to {
                derived.inlined_at[ir::Inst::from_u32(k as u32)] = site;
            }
        }
    }
}
