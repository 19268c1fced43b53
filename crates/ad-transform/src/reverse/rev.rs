//! What the pullback does for one primal instruction: recorded by the forwards pass as it
//! derives the instruction, emitted by `pullback_inst` in reverse order. Saved values are
//! named by their index among the block's saved values (see `saved::SavedVals`).

use crate::rules::MatrixRule;
use ir::{Callee, Type, Value};

/// Where the cotangent of an argument of a rule goes.
pub(super) enum Cotangent {
    /// Into an array's fdata (saved index), in place.
    Fdata(usize),
    /// Added to the accumulator of a float.
    Acc(Value),
}

/// A reverse fragment of one primal instruction, to be emitted in the pullback.
pub(super) enum Rev {
    /// acc[arg] += acc[out] * partial (partials are indices into the block's saved values).
    Scalar {
        out: Value,
        args: Vec<(Value, RevPartial)>,
    },
    /// fdata(array)[idx] += acc[out]
    ArrayRead {
        out: Value,
        fdata: usize,
        idx: Vec<usize>,
        elem: Type,
        /// The element read, when its tangent is known only at run time.
        primal: Option<usize>,
    },
    /// acc[val] += acc[out]
    Pass { out: Value, val: Value },
    /// acc[args[k]] += field k of acc[out]
    Build { out: Value, args: Vec<Value> },
    /// field k of acc[obj] += acc[out]
    Field { out: Value, obj: Value, k: u32 },
    /// Undo `A[idx] = val`: val's cotangent is the element's fdata, then the old fdata and the
    /// old element are restored.
    ArrayWrite(ArrayWrite),
    /// A rule of the default context (`rules::FastRule`): (primal, fdata) of each array argument.
    Fast {
        out: Value,
        rule: crate::rules::FastRule,
        arrays: Vec<(usize, usize)>,
    },
    /// A broadcast by its rule (`rules::BroadcastRule`): the result's fdata (saved index), its
    /// element type, and for each argument with a lane, where its cotangent goes and the
    /// lane's partials (saved index).
    Broadcast {
        fy: usize,
        elem: Type,
        inputs: Vec<(Cotangent, usize)>,
    },
    /// Undo `push!(A, val)`.
    ArrayPush(ArrayPush),
    /// Undo `resize!(A, n)` on A and its fdata from copies taken before it (saved indices).
    ArrayResize {
        arr: usize,
        saved: usize,
        n: usize,
        fdata: Option<(usize, usize)>,
    },
    /// Undo `out = pop!(A)`: push back the value and its fdata plus out's cotangent.
    ArrayPop {
        out: Value,
        arr: usize,
        val: usize,
        fdata: Option<(usize, usize)>,
    },
    /// `new` of a mutable struct: float fields' cotangents (in its tangent) go to the arguments;
    /// so do those of fields whose tangent is known only at run time (with the argument's
    /// primal saved).
    MutableNew {
        tangent: usize,
        fields: Vec<(Value, u32, Option<usize>)>,
    },
    /// `out = obj.k` of a mutable struct: the tangent's field k += acc[out] (with the primal
    /// read saved when the field's tangent is known only at run time).
    MutableRead {
        out: Value,
        tangent: usize,
        k: u32,
        primal: Option<usize>,
    },
    /// Undo `obj.k = val`: a float val's cotangent is the tangent's field; restore both fields.
    MutableWrite(MutableWrite),
    /// `out = t[i]` (run-time i): element i of acc[t] += acc[out].
    TupleIndex {
        out: Value,
        tuple: Value,
        idx: usize,
    },
    /// A copy's cotangent accumulates into the source's fdata.
    ArrayCopy { src: usize, dst: usize },
    /// A primitive with a matrix rule: (primal, fdata if any) of each argument and (primal,
    /// fdata) of the result (saved indices).
    Matrix {
        rule: MatrixRule,
        args: Vec<(usize, Option<usize>)>,
        out: (usize, usize),
    },
    /// A dynamic call's pullback (`Core.dyn_rvs`) on child state `site`: acc[args[j]] += its
    /// result j (reverse data known only at run time, converted to each accumulator's type).
    Dynamic {
        out: Value,
        site: u32,
        args: Vec<Value>,
    },
    /// A threaded loop's pullback (`Core.threads_rvs`) on child state `site`: acc[body] +=
    /// the body's reverse data.
    Threads { site: u32, body: Value },
    /// `out = obj.name` with obj's type known only at run time: acc[obj] += the cotangent
    /// `Core.field_cotangent` builds from the saved primal and fdata of obj.
    DynField {
        out: Value,
        obj: Value,
        primal: usize,
        fdata: usize,
        name: std::sync::Arc<str>,
    },
    /// The callee's pullback on child state `site`: acc[args[j]] += its result j.
    Invoke {
        out: Value,
        site: u32,
        callee: Callee,
        ret: Type,
        args: Vec<Value>,
    },
}

#[derive(Clone, Copy)]
pub(super) enum RevPartial {
    One,
    MinusOne,
    Saved(usize),
    /// A saved derivative that may be infinite: a zero cotangent times it is zero.
    SavedSingular(usize),
    /// The cotangent where a saved `Bool` is true, zero elsewhere.
    SavedIf(usize),
    Convert,
}

/// Undo `A[idx] = val`: val's cotangent is the element's fdata, then the old fdata and the
/// old element are restored.
pub(super) struct ArrayWrite {
    pub(super) val: Value,
    pub(super) arr: usize,
    pub(super) idx: Vec<usize>,
    pub(super) old_p: usize,
    pub(super) fdata: Option<(usize, usize)>,
    pub(super) ert: Type,
    /// The value written, when its tangent is known only at run time.
    pub(super) val_p: Option<usize>,
}

/// Undo `push!(A, val)`.
pub(super) struct ArrayPush {
    pub(super) val: Value,
    pub(super) arr: usize,
    pub(super) fdata: Option<usize>,
    pub(super) elem: Type,
    pub(super) ert: Type,
    /// The value pushed, when its tangent is known only at run time.
    pub(super) val_p: Option<usize>,
}

/// Undo `obj.k = val`: a float val's cotangent is the tangent's field; restore both fields.
pub(super) struct MutableWrite {
    pub(super) val: Value,
    pub(super) obj: usize,
    pub(super) k: u32,
    pub(super) old_p: usize,
    pub(super) tangent: Option<(usize, usize)>,
    pub(super) float: bool,
    /// The value written, when the field's tangent is known only at run time.
    pub(super) val_p: Option<usize>,
}
