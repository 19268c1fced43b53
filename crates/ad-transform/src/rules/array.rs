//! Rules of array and tuple primitives: what the transform does to an element read, write,
//! push, pop, copy, reshape or resize (the transform emits the code: these rules are
//! structural, not formulas), with their test cases.

use super::Rule;
use ir::Prim;

/// The rule of an array or tuple primitive (`None` for other primitives).
pub(super) fn rule(op: Prim) -> Option<Rule> {
    use Prim::*;
    Some(match op {
        ArrayRef | ArrayRefRaw => Rule::ArrayRead,
        ArraySet => Rule::ArrayWrite,
        ArrayPush => Rule::ArrayPush,
        ArrayPop => Rule::ArrayPop,
        ArrayCopy => Rule::ArrayCopy,
        ArrayReshape => Rule::ArrayShare,
        TupleGetIndex => Rule::TupleIndex,
        ArrayResize => Rule::ArrayResize,
        _ => return None,
    })
}

/// Test cases of the rules above (see `scalar::CASES`).
pub const CASES: &[(Prim, &str, &str)] = &[
    (Prim::ArrayRef, "f(x) = Core.arrayref(x, 2) * 3.0", "f([1.0, 2.0, 3.0])"),
    (Prim::ArrayRef, "f(A) = Core.arrayref(A, 2, 1) * Core.arrayref(A, 1, 2)", "f([1.0 2.0; 3.0 4.0])"),
    (Prim::ArrayRefRaw, "f(x) = Core.arrayref_raw(x, 2) * 3.0", "f([1.0, 2.0, 3.0])"),
    (Prim::ArrayResize, "function f(x)\n y = copy(x)\n Core.array_resize(y, 2)\n s = y[1] * y[2]\n Core.array_resize(y, 4)\n y[4] = x[3]\n s * y[4]\nend", "f([1.0, 2.0, 3.0])"),
    (Prim::ArrayResize, "function f(x)\n Core.array_resize(x, 1)\n s = x[1] * 2.0\n Core.array_resize(x, 2)\n x[2] = s\n s * x[2]\nend", "f([1.5, 2.0, 3.0])"),
    (Prim::ArraySet, "function f(x, y)\n    Core.arrayset(x, y * 2.0, 1)\n    Core.arrayref(x, 1) * Core.arrayref(x, 2)\nend", "f([1.0, 2.0], 0.5)"),
    (Prim::ArrayPush, "function f(x, y)\n    Core.array_push(x, y^2)\n    s = Core.arrayref(x, 3) * Core.arrayref(x, 1)\n    Core.array_pop(x)\n    s\nend", "f([1.0, 2.0], 0.5)"),
    (Prim::ArrayPop, "function f(x)\n    v = Core.array_pop(x)\n    Core.array_push(x, 0.0)\n    v * Core.arrayref(x, 1)\nend", "f([1.0, 2.0, 3.0])"),
    (Prim::ArrayCopy, "function f(x)\n    y = Core.array_copy(x)\n    Core.arrayset(y, 0.0, 1)\n    Core.arrayref(y, 2) * Core.arrayref(x, 1)\nend", "f([1.0, 2.0])"),
    (Prim::ArrayReshape, "function f(x)\n    A = Core.array_reshape(x, 2, 2)\n    Core.arrayref(A, 1, 2) * Core.arrayref(A, 2, 1)\nend", "f([1.0, 2.0, 3.0, 4.0])"),
    (Prim::ArrayReshape, "function f(x)\n    A = Core.array_reshape(x, 2, 2)\n    Core.arrayset(A, Core.arrayref(x, 4) * 3.0, 1, 1)\n    Core.arrayref(x, 1) * Core.arrayref(A, 2, 1)\nend", "f([1.0, 2.0, 3.0, 4.0])"),
    (Prim::TupleGetIndex, "function f(x, y)\n    t = (x, y, x * y)\n    s = 0.0\n    for i in 1:3\n        s += Core.tuple_getindex(t, i) * i\n    end\n    s\nend", "f(0.3, 0.8)"),
];
