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
