//! The rule registry. Each scalar formula is written once, as partial derivatives emitted as
//! IR; reverse mode multiplies the output's cotangent by them, forward mode multiplies the
//! arguments' tangents. The transform knows no maths: it asks here.
//!
//! `scalar` has the formulas of scalar primitives, `array` the structural rules of array and
//! tuple primitives, `matrix` the matrix-level rules of products and factorisations, `fast` the
//! default context's rules for prelude functions; each file
//! carries its test cases, run through `test_rule` by one harness.

mod array;
mod fast;
mod matrix;
mod scalar;

pub use fast::{
    broadcast_rule, fast_rule, is_primitive, BroadcastRule, FastRule, BROADCAST_CASES,
    BROADCAST_MAX_LANES, FAST_CASES, FAST_FUNCTIONS,
};
pub use matrix::{matrix_rule, MatrixRule};
pub(crate) use scalar::fconst;

use crate::emit::Emit;
use ir::{Prim, Type, Value};

/// ∂out/∂arg for one argument of a primitive.
#[derive(Clone, Copy, Debug)]
pub enum Partial {
    /// The argument has no derivative (an integer, a type, a zero derivative).
    Zero,
    One,
    MinusOne,
    /// The derivative's value, computed in the forwards pass.
    Val(Value),
    /// A conversion between float widths: the cotangent converts back to the argument's type.
    Convert,
    /// A derivative that is infinite (or undefined) where the function is not differentiable
    /// (`sqrt` and `log` at 0, `x^p` at 0 for p < 1): a zero tangent or cotangent times it is
    /// zero (a strong zero), so it cannot make other directions' derivatives NaN.
    Singular(Value),
    /// The (co)tangent itself where the `Bool` value is true, zero elsewhere: a choice, not a
    /// product, so that a non-finite (co)tangent on the side not chosen does not leak.
    If(Value),
}

/// What the registry knows about a primitive in reverse mode.
pub enum Rule {
    /// Not differentiable: no argument or result carries a derivative (comparisons, integer
    /// arithmetic, printing, errors).
    NonDifferentiable,
    /// A scalar function: the partials of the result with respect to each argument.
    Scalar(Vec<Partial>),
    /// An array read: the cotangent goes into the array's fdata at the same indices.
    ArrayRead,
    /// `arrayset(A, v, i...)`: saves and restores the old element and its fdata.
    ArrayWrite,
    /// `array_push(A, v)`.
    ArrayPush,
    /// `array_pop(A)`.
    ArrayPop,
    /// `array_copy(A)`: a new array whose cotangent accumulates into A's.
    ArrayCopy,
    /// `array_reshape(A, dims...)`: an array sharing A's memory, whose tangent (and fdata) is
    /// the same reshape of A's.
    ArrayShare,
    /// `tuple_getindex(t, i)` with a run-time index: the cotangent goes to element i.
    TupleIndex,
    /// `array_resize(A, n)`: saves A and its fdata; the pullback gives both their old length
    /// and the elements that were cut off back (`array_unresize`).
    ArrayResize,
    /// A primitive returning a new float matrix or vector with a matrix-level rule (products,
    /// triangular solves, Cholesky, LU, row exchanges, triangle copies): the pullback adds into the arguments' fdata from the
    /// result's, forward mode computes the result's tangent, both as the rule emits them.
    Matrix(MatrixRule),
}

/// Which rules the transform may use. `Minimal` has the rules needed for
/// correctness (every primitive of the runtime); `Default` adds rules that exist only for
/// speed, for prelude functions that would otherwise be differentiated through their code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Context {
    Minimal,
    #[default]
    Default,
}

impl Context {
    pub fn name(self) -> &'static str {
        match self {
            Context::Minimal => "minimal",
            Context::Default => "default",
        }
    }
}

/// The mode a rule is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AdMode {
    Reverse,
    Forward,
}

/// The rule for `out = op(args...)` (types `ats`, result type `rt`), emitting any partials
/// into `e`. `None` if the primitive has no reverse rule yet.
pub fn reverse_rule(
    op: Prim,
    args: &[Value],
    ats: &[Type],
    out: Value,
    rt: &Type,
    e: &mut Emit,
) -> Option<Rule> {
    use Prim::*;
    let _ = ats;
    match op {
        // Integer, boolean, comparison and bookkeeping primitives carry no derivative.
        AddInt | SubInt | MulInt | NegInt | SdivInt | SremInt | AndInt | OrInt | XorInt
        | ShlInt | AshrInt | LshrInt | NotInt | EqInt | NeInt | SltInt | SleInt | EqFloat
        | NeFloat | LtFloat | LeFloat | NotBool | AndBool | OrBool | XorBool | Sitofp | Bitcast
        | Fptosi | BoolToInt | IntToBool | Egal | Isa | Typeof | PromoteType | PromoteTypejoin
        | TangentTypeOf | FdataTypeOf | RdataTypeOf | ApplyType | PromoteEltype | VcatType
        | SubarrayType | CatEltype | ArrayNew | ArrayLen | ArraySize | SameMemory | TupleLen
        | RuleStack | RuleChild | AdCheck | TangentCheck | RdataAdd | RdataConvert | RdataAddAt
        | TangentFdata | TangentRdata | TangentAddRdata | TangentOf | FieldFdata | GlobalFdata
        | FieldCotangent | DynFwd | DynRvs | ThreadsFwd | ThreadsRvs | ThreadsDual
        | ZeroTangent | TangentField | GlobalTangent | DualCall | ToString | Repr
        | StringConcat | StringToSymbol | StringHash | ObjectId | FieldNames | FieldTypes
        | FieldDefined | StringLen | StringCmp | StringBytes | StringFind | StringCase
        | StringChar | StringIndex | StringSlice | CharProperty | StringReplace | StringParse
        | IsSubtype | Sprintf | Print | Show | ThrowError | ThrowAssert | ThrowArgument
        | ThrowBounds | ThrowDomain | ThrowInexact | ThrowUndefVar | ThrowMethodError
        | ThrowTypeError | ThrowDivide | ThrowValue | NThreads | ThreadId | InThreadedLoop
        | TaskRng | ChunkEnter | ChunkLeave | ChunkRange => Some(Rule::NonDifferentiable),
        // Reverse mode's own bookkeeping on tangent arrays.
        ArrayZeroLike | ArrayAccumulate | ArrayAxpy | ArrayAddScalar | ArrayMulAdd
        | ArrayUnresize | ArrayGemmAdd => Some(Rule::NonDifferentiable),
        ArrayMatmul | ArrayTrsolve | ArrayCholesky | ArrayTricopy | ArrayLu | ArrayRowswap => {
            matrix_rule(op).map(Rule::Matrix)
        }
        Floor | Ceil | Round | Trunc | AddFloat | SubFloat | NegFloat | MulFloat | DivFloat
        | RemFloat | PowFloat | PowiFloat | SelectFloat | Sqrt | Sin | Cos | Tan | Exp | Expm1
        | Log | Log1p | Cbrt | Log2 | Log10 | Exp2 | Tanh | Sinh | Cosh | Asin | Acos | Atan
        | Atan2 | Hypot | Fma | AbsFloat | Copysign | Fpconvert | Erf | Erfc | Erfinv | Erfcinv
        | Gamma | Lgamma | Digamma | Trigamma | Polygamma | BesselJ0 | BesselJ1 => {
            scalar::rule(op, args, out, rt, e)
        }
        ArrayRef | ArrayRefRaw | ArraySet | ArrayPush | ArrayPop | ArrayCopy | ArrayReshape
        | TupleGetIndex | ArrayResize => array::rule(op),
        // AD inside the language: differentiated by forward mode (`forward`), not yet by
        // reverse mode. A threaded loop is differentiated through the prelude's definition of
        // its loop (the AD runtime derives `_threads_for` from `_threads_for_ad`), so its
        // primitive never reaches a transform.
        DualApply | GradApply | ThreadsRun => None,
        // Mooncake's interface in the language: not differentiated (yet).
        VjpApply | JvpApply | TestRuleApply => None,
        // A `try`: the transforms give it rules of its own (its functions' derived rules);
        // `rethrow` and the error text carry no derivative.
        TryCatch | TryFinally => None,
        // Reverse mode's save of a field it overwrites: differentiated code never reads a
        // field this way, and second order through such a save is not derived yet.
        GetFieldRaw => None,
        Rethrow | ErrorMessage | PrintStderr | NoteWrite => Some(Rule::NonDifferentiable),
    }
}

/// Whether a primitive's result is always a type (whose static type may still be `Any`): it
/// has no fdata, whatever inference knows of it.
pub fn returns_type_value(op: Prim) -> bool {
    use Prim::*;
    matches!(
        op,
        Typeof
            | TangentTypeOf
            | FdataTypeOf
            | RdataTypeOf
            | ApplyType
            | PromoteType
            | PromoteTypejoin
            | PromoteEltype
            | VcatType
            | SubarrayType
            | CatEltype
    )
}

/// Whether a primitive carries derivatives (and so needs test cases below).
pub fn is_differentiable(op: Prim) -> bool {
    use Prim::*;
    match op {
        AddFloat | SubFloat | MulFloat | DivFloat | NegFloat | RemFloat | PowFloat | PowiFloat
        | Sqrt | Sin | Cos | Tan | Exp | Log | Log1p | Cbrt | Expm1 | Tanh | Sinh | Cosh | Asin
        | Acos | Atan | Atan2 | Hypot | Fma | Exp2 | Log2 | Log10 | AbsFloat | SelectFloat
        | Copysign | Fpconvert | Erf | Erfc | Erfinv | Erfcinv | Gamma | Lgamma | Digamma
        | Trigamma | Polygamma | BesselJ0 | BesselJ1 | ArrayRef | ArrayRefRaw | ArraySet
        | ArrayPush | ArrayPop | ArrayCopy | ArrayReshape | ArrayResize | TupleGetIndex
        | ArrayMatmul | ArrayTrsolve | ArrayCholesky | ArrayTricopy | ArrayLu | ArrayRowswap => {
            true
        }
        Floor | Ceil | Round | Trunc | AddInt | SubInt | MulInt | NegInt | SdivInt | SremInt
        | AndInt | OrInt | XorInt | ShlInt | AshrInt | LshrInt | NotInt | EqInt | NeInt
        | SltInt | SleInt | EqFloat | NeFloat | LtFloat | LeFloat | NotBool | AndBool | OrBool
        | XorBool | Sitofp | Bitcast | Fptosi | BoolToInt | IntToBool | Egal | Isa | Typeof
        | PromoteType | PromoteTypejoin | ApplyType | PromoteEltype | VcatType | CatEltype
        | TangentTypeOf | FdataTypeOf | RdataTypeOf | SubarrayType | ArrayNew | ArrayLen
        | ArraySize | SameMemory | ArrayUnresize | ArrayZeroLike | ArrayAccumulate | ArrayAxpy
        | ArrayAddScalar | ArrayMulAdd | ArrayGemmAdd | RuleStack | RuleChild | AdCheck
        | TangentCheck | RdataAdd | RdataConvert | RdataAddAt | TangentFdata | TangentRdata
        | TangentAddRdata | TangentOf | FieldFdata | GlobalFdata | FieldCotangent | DynFwd
        | DynRvs | ThreadsFwd | ThreadsRvs | ThreadsDual | ZeroTangent | TangentField
        | GlobalTangent | DualCall | DualApply | GradApply | VjpApply | JvpApply
        | TestRuleApply | TupleLen | ToString | Repr | StringConcat | StringToSymbol
        | StringHash | ObjectId | FieldNames | FieldTypes | FieldDefined | StringLen
        | StringCmp | StringBytes | StringFind | StringCase | StringChar | StringIndex
        | StringSlice | CharProperty | StringReplace | StringParse | IsSubtype | Sprintf
        | Print | Show | ThrowError | ThrowAssert | ThrowArgument | ThrowBounds | ThrowDomain
        | ThrowInexact | ThrowUndefVar | ThrowMethodError | ThrowTypeError | ThrowDivide
        | ThrowValue | ThreadsRun | NThreads | ThreadId | InThreadedLoop | TaskRng | ChunkEnter
        | ChunkLeave | ChunkRange | TryCatch | TryFinally | Rethrow | ErrorMessage
        | PrintStderr | NoteWrite | GetFieldRaw => false,
    }
}

/// The test cases of every primitive's rule: (primitive, definitions, call).
pub fn cases() -> impl Iterator<Item = &'static (Prim, &'static str, &'static str)> {
    scalar::CASES
        .iter()
        .chain(array::CASES)
        .chain(matrix::CASES)
}
