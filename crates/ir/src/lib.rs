//! The typed SSA intermediate representation: types, functions of blocks and instructions,
//! primitives, a text form that prints and parses back, and the verifier.

pub mod bounds;
pub mod dominators;
pub mod fold;
pub mod function;
pub mod liveness;
pub mod pow;
pub mod prim;
pub mod print_scope;
pub mod read;
pub mod special;
pub mod tangent;
pub mod timing;
pub mod types;
pub mod verify;
pub mod write;

pub use function::{
    resolve_alias, Block, BlockData, Callee, Const, FieldRef, Function, InlineSite, Inst, InstData,
    Phase, Preds, Slot, SlotData, Successors, Value, ValueDef,
};
pub use prim::Prim;
pub use read::{read_function, read_functions, ReadError};
pub use types::{
    AbstractDef, Head, IrType, StructDef, Type, TypeEnv, TypePat, TypeVar, MAX_NTUPLE,
};
pub use verify::{verify, VerifyError};
pub use write::write_function;
