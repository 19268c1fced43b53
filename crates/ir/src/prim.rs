//! Primitive operations: the closed set of operations implemented in Rust, with their type
//! rules and effects. Everything else in the language is written in the prelude on top of them.
//! The prelude calls them as `Core.name(args...)`.

use crate::types::{Type, TypeEnv};
use std::fmt;

macro_rules! prims {
    ($( $(#[doc = $doc:literal])* $variant:ident = $name:literal : $effects:ident ),* $(,)?) => {
        /// A primitive operation.
        #[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub enum Prim { $( $(#[doc = $doc])* $variant ),* }

        impl Prim {
            pub const ALL: &'static [Prim] = &[ $( Prim::$variant ),* ];
            pub fn name(self) -> &'static str {
                match self { $( Prim::$variant => $name ),* }
            }
            pub fn from_name(s: &str) -> Option<Prim> {
                match s { $( $name => Some(Prim::$variant), )* _ => None }
            }
            /// What the primitive may do besides computing its result (declared with it in
            /// the table below).
            pub fn effects(self) -> Effects {
                match self { $( Prim::$variant => Effects::$effects ),* }
            }
        }
    };
}

prims! {
    // Int64 arithmetic (wrapping, as Julia's).
    AddInt = "add_int": PURE,
    SubInt = "sub_int": PURE,
    MulInt = "mul_int": PURE,
    NegInt = "neg_int": PURE,
    /// Truncated division; throws `DivideError` on zero.
    SdivInt = "sdiv_int": MAY_THROW,
    /// Remainder with the sign of the dividend; throws `DivideError` on zero.
    SremInt = "srem_int": MAY_THROW,
    AndInt = "and_int": PURE,
    OrInt = "or_int": PURE,
    XorInt = "xor_int": PURE,
    /// `x << n` for a shift amount `n` in `0:63` (the prelude handles other amounts).
    ShlInt = "shl_int": PURE,
    /// Arithmetic `x >> n` for `n` in `0:63`.
    AshrInt = "ashr_int": PURE,
    /// Logical `x >>> n` for `n` in `0:63`.
    LshrInt = "lshr_int": PURE,
    NotInt = "not_int": PURE,
    EqInt = "eq_int": PURE,
    NeInt = "ne_int": PURE,
    SltInt = "slt_int": PURE,
    SleInt = "sle_int": PURE,
    // Float arithmetic, for Float64 and Float32 alike (operands of one type).
    AddFloat = "add_float": PURE,
    SubFloat = "sub_float": PURE,
    MulFloat = "mul_float": PURE,
    DivFloat = "div_float": PURE,
    NegFloat = "neg_float": PURE,
    RemFloat = "rem_float": PURE,
    EqFloat = "eq_float": PURE,
    NeFloat = "ne_float": PURE,
    LtFloat = "lt_float": PURE,
    LeFloat = "le_float": PURE,
    /// `x^y` for floats.
    PowFloat = "pow_float": PURE,
    /// `x^n` for a float and an Int64.
    PowiFloat = "powi_float": PURE,
    Sqrt = "sqrt": PURE,
    Sin = "sin": PURE,
    Cos = "cos": PURE,
    Tan = "tan": PURE,
    Exp = "exp": PURE,
    Log = "log": PURE,
    Log1p = "log1p": PURE,
    /// `Core.cbrt(x)`: the real cube root.
    Cbrt = "cbrt": PURE,
    Expm1 = "expm1": PURE,
    Tanh = "tanh": PURE,
    Sinh = "sinh": PURE,
    Cosh = "cosh": PURE,
    Asin = "asin": PURE,
    Acos = "acos": PURE,
    Atan = "atan": PURE,
    Atan2 = "atan2": PURE,
    Hypot = "hypot": PURE,
    /// `fma(x, y, z)`: `x * y + z` rounded once, for floats of one type.
    Fma = "fma": PURE,
    Exp2 = "exp2": PURE,
    Log2 = "log2": PURE,
    Log10 = "log10": PURE,
    // The `special` family: special functions of one float (see `special.rs`).
    Erf = "erf": PURE,
    Erfc = "erfc": PURE,
    Erfinv = "erfinv": PURE,
    Erfcinv = "erfcinv": PURE,
    /// Γ(x) (NaN at the poles).
    Gamma = "gamma": PURE,
    /// log|Γ(x)|.
    Lgamma = "lgamma": PURE,
    Digamma = "digamma": PURE,
    Trigamma = "trigamma": PURE,
    /// `Core.polygamma(m, x)`: ψ⁽ᵐ⁾(x) for an Int64 order and a float.
    Polygamma = "polygamma": PURE,
    BesselJ0 = "besselj0": PURE,
    BesselJ1 = "besselj1": PURE,
    AbsFloat = "abs_float": PURE,
    /// `Core.select_float(c, x, y)`: `x` if `c` else `y`, for floats of one type (both are
    /// evaluated; no branch).
    SelectFloat = "select_float": PURE,
    Floor = "floor": PURE,
    Ceil = "ceil": PURE,
    /// Round to nearest, ties to even.
    Round = "round": PURE,
    Trunc = "trunc": PURE,
    Copysign = "copysign": PURE,
    // Bool.
    NotBool = "not_bool": PURE,
    AndBool = "and_bool": PURE,
    OrBool = "or_bool": PURE,
    XorBool = "xor_bool": PURE,
    // Conversions. The target type is the first argument (a type constant).
    /// `Core.sitofp(Float64, i)`
    Sitofp = "sitofp": PURE,
    /// `Core.fptosi(Int64, x)`: throws `InexactError` unless `x` is integral and in range.
    Fptosi = "fptosi": MAY_THROW,
    /// `Core.fpconvert(Float32, x)`: between float widths (rounding).
    Fpconvert = "fpconvert": PURE,
    /// `Core.bitcast(Int64, x::Float64)`, `Core.bitcast(Float64, i::Int64)`: the same 64 bits.
    Bitcast = "bitcast": PURE,
    /// `Core.bool_to_int(b)`
    BoolToInt = "bool_to_int": PURE,
    /// `Core.int_to_bool(i)`: throws `InexactError` unless 0 or 1.
    IntToBool = "int_to_bool": MAY_THROW,
    // Generic.
    /// `x === y`
    Egal = "egal": PURE,
    /// `isa(x, T)`
    Isa = "isa": PURE,
    /// `typeof(x)`
    Typeof = "typeof": PURE,
    /// `Core.promote_type(S, T)` on type constants.
    PromoteType = "promote_type": MAY_THROW,
    /// `Core.apply_type(Vector, Float64)`: builds a type from constants.
    ApplyType = "apply_type": MAY_THROW,
    /// `Core.promote_typejoin(S, T)`: Julia's `Base.promote_typejoin` of two types.
    PromoteTypejoin = "promote_typejoin": PURE,
    /// `Core.tangent_type(P)`, `Core.fdata_type(P)`, `Core.rdata_type(P)`: the tangent type
    /// of primal type `P` and its forward and reverse data types (`ir::tangent`).
    TangentTypeOf = "tangent_type": PURE,
    FdataTypeOf = "fdata_type": PURE,
    RdataTypeOf = "rdata_type": PURE,
    /// `Core.promote_eltype(t::Tuple)`: the element type of an array literal of t's elements.
    PromoteEltype = "promote_eltype": PURE,
    /// `Core.vcat_type(T, xs::Tuple)`: the array type `vcat` of `xs` makes with element type
    /// `T`: a vector, unless an element is an array of more dimensions.
    VcatType = "vcat_type": PURE,
    /// `Core.cat_eltype(xs::Tuple)`: the element type of a concatenation of `xs`: the
    /// promotion (as for array literals) of the arrays' element types and the other values'
    /// types.
    CatEltype = "cat_eltype": PURE,
    /// `Core.subarray_type(parent, indices::Tuple)`: the type of the view of `parent` at
    /// `indices`, as Julia's `SubArray{T, N, P, I, L}`.
    SubarrayType = "subarray_type": PURE,
    // Arrays.
    /// `Core.array_new(Array{T,N}, d1, ..., dN)`: uninitialised (zeroed bits) array.
    ArrayNew = "array_new": MAY_THROW,
    /// `Core.arrayref(A, i1, ..., ik)`: bounds-checked, 1-based, column-major.
    ArrayRef = "arrayref": READS,
    /// `Core.arrayref_raw(A, i1, ..., ik)`: like `arrayref`, but an unassigned slot reads as
    /// `#undef` instead of throwing (reverse mode saves an overwritten slot with it).
    ArrayRefRaw = "arrayref_raw": READS,
    /// `Core.arrayset(A, v, i1, ..., ik)`: returns `A`.
    ArraySet = "arrayset": WRITES,
    ArrayLen = "arraylen": READS,
    /// `Core.same_memory(a::Array, b::Array)`: whether the two arrays read and write the same
    /// storage (one is the other, or a `reshape`/`vec` of it or of the same array).
    SameMemory = "same_memory": INSPECTS,
    /// `Core.arraysize(A, d)`
    ArraySize = "arraysize": READS,
    /// `Core.array_push(A, v)`: for vectors; returns `A`.
    ArrayPush = "array_push": RESIZES,
    /// `Core.array_pop(A)`: throws `ArgumentError` on an empty vector.
    ArrayPop = "array_pop": RESIZES,
    /// `Core.array_resize(A, n)`: returns `A`.
    ArrayResize = "array_resize": RESIZES,
    /// `Core.array_unresize(A, saved, n)`: undoes `array_resize(A, n)` given a copy `saved`
    /// of `A` from before it: `A` gets `saved`'s length back, and the slots after `n` its
    /// contents (slots up to `n` are kept). Reverse mode's undo of `resize!`.
    ArrayUnresize = "array_unresize": RESIZES,
    /// `Core.array_copy(A)`: a shallow copy.
    ArrayCopy = "array_copy": READS,
    /// `Core.array_reshape(A, d1, ..., dN)`: a copy with the new shape.
    ArrayReshape = "array_reshape": READS,
    /// `Core.array_zero_like(A)`: a zero-filled array of A's type and dimensions (AD fdata).
    ArrayZeroLike = "array_zero_like": READS,
    /// `Core.array_accumulate(A, B)`: `A[i] += B[i]` for every linear index (AD rules); returns A.
    ArrayAccumulate = "array_accumulate": WRITES,
    /// `Core.array_axpy(A, a, B)`: `A[i] += a * B[i]` for every linear index (AD rules);
    /// returns A.
    ArrayAxpy = "array_axpy": WRITES,
    /// `Core.array_add_scalar(A, a)`: `A[i] += a` for every linear index (AD rules); returns A.
    ArrayAddScalar = "array_add_scalar": WRITES,
    /// `Core.array_muladd(a, B, C)`: the products `B[k] * C[k]` of two float arrays of one
    /// shape, summed down to `a`: an array of their element type whose every extent equals
    /// theirs or is 1 (missing trailing extents count as 1) has each product added into the
    /// element the broadcast read (updated in place and returned), a float is returned plus
    /// their sum. The pullback of a broadcast from its elements' partial derivatives.
    ArrayMulAdd = "array_muladd": WRITES,
    /// `Core.array_matmul(A, B, ta, tb)`: the matrix product `op(A) * op(B)` of two float
    /// arrays of one element type, where `op` transposes its operand if its `Bool` flag is
    /// true and a vector is a one-column matrix: a new array, a vector when `B` is one.
    ArrayMatmul = "array_matmul": READS,
    /// `Core.array_gemm_add(C, A, B, ta, tb, tc)`: `C += op(A) * op(B)` (the product
    /// transposed when `tc`), flags and vectors as for `array_matmul`; returns C. Matrix
    /// products' rules.
    ArrayGemmAdd = "array_gemm_add": WRITES,
    /// `Core.array_trsolve(A, B, upper, trans, unit)`: `op(T) \\ B` for the upper (or lower)
    /// triangle `T` of the square float matrix `A` (its diagonal taken as ones when `unit`),
    /// `op` transposing when `trans`: a new array shaped like `B` (a vector or matrix).
    ArrayTrsolve = "array_trsolve": READS,
    /// `Core.array_cholesky(A)`: the upper Cholesky factor of a float matrix from its upper
    /// triangle, zeros below the diagonal; a pivot that is not positive stops it and stays
    /// on the diagonal.
    ArrayCholesky = "array_cholesky": READS,
    /// `Core.array_tricopy(A, part, diag, trans)`: the upper (`part = 1`), lower (`-1`) or
    /// whole (`0`) triangle of `op(A)`, zeros elsewhere, its diagonal kept (`diag = 1`),
    /// halved (`2`) or zero (`0`): a new matrix (the factorisations' rules).
    ArrayTricopy = "array_tricopy": READS,
    /// `Core.array_lu(A, ipiv)`: the LU factorisation with partial pivoting of a square float
    /// matrix, packed in a new matrix as LAPACK's `getrf` leaves it; the row exchanges are
    /// written into the `Vector{Int64}` `ipiv`.
    ArrayLu = "array_lu": WRITES,
    /// `Core.array_rowswap(X, ipiv, reverse)`: a copy of the float vector or matrix `X` with
    /// the row exchanges of `ipiv` applied in order (`P X`), or in reverse order (`Pᵀ X`).
    ArrayRowswap = "array_rowswap": READS,
    // AD rule state (a `RuleState`: lazily created stacks and child states).
    /// `Core.rule_stack(state, k, Vector{T})`: stack `k` of the state (created empty on first
    /// use), a `Vector{T}`.
    RuleStack = "rule_stack": WRITES,
    /// `Core.rule_child(state, k)`: the state of the rule called at call site `k` (created on
    /// first use).
    RuleChild = "rule_child": WRITES,
    /// `Core.ad_check(x, fx, what)`: debug mode: throws unless `fx` is fdata of `x`'s type with
    /// the same array sizes (`what` names the checked value).
    AdCheck = "ad_check": WRITES,
    /// `Core.tangent_check(x, tx, what)`: forward mode's debug mode: throws unless `tx` is a
    /// tangent of `x`'s type with the same array sizes.
    TangentCheck = "tangent_check": WRITES,
    // AD of values whose tangent type is only known at run time (`Any`, abstract types,
    // unions whose members have different reverse data). Their fdata and rdata are typed
    // `Any`; `NoRData` stands for a zero rdata of any type (Mooncake's `ZeroRData`) and never
    // reaches a rule: `rdata_convert` turns it into a typed zero. Evaluated by the AD runtime.
    /// `Core.rdata_add(a, b)`: the sum of two reverse data (`NoRData` is zero).
    RdataAdd = "rdata_add": MAY_THROW,
    /// `Core.rdata_convert(r, T)`: reverse data `r` as type `T` (`NoRData` becomes T's zero).
    RdataConvert = "rdata_convert": MAY_THROW,
    /// `Core.rdata_add_at(t, i, r)`: reverse data `t` of a tuple with `r` added to element `i`
    /// (the reverse of reading a tuple at a run-time index whose element types differ).
    RdataAddAt = "rdata_add_at": MAY_THROW,
    /// `Core.tangent_fdata(x, t)`: the forward data of tangent `t` of primal `x`.
    TangentFdata = "tangent_fdata": MAY_THROW,
    /// `Core.tangent_rdata(x, t)`: the reverse data of tangent `t` of primal `x`.
    TangentRdata = "tangent_rdata": MAY_THROW,
    /// `Core.tangent_add_rdata(x, t, r)`: tangent `t` of primal `x` with `r` added to its
    /// reverse data (its forward data, which has identity, is kept).
    TangentAddRdata = "tangent_add_rdata": MAY_THROW,
    /// `Core.tangent_of(x, fx)`: the tangent of primal `x` whose forward data is `fx` and whose
    /// reverse data is zero.
    TangentOf = "tangent_of": MAY_THROW,
    /// `Core.field_fdata(x, fx, name)`: the forward data of field `name` (a string) of `x`, whose
    /// forward data is `fx` (a field read whose object's type is known only at run time).
    FieldFdata = "field_fdata": MAY_THROW,
    /// `Core.global_fdata(x)`: the forward data of the value `x` of a global, the same for
    /// every read of that value during one gradient (the global's tangent).
    GlobalFdata = "global_fdata": MAY_THROW,
    /// `Core.zero_tangent(x)`: a zero tangent of `x` (forward mode: a value whose tangent type
    /// needs the value's shape, or is known only at run time).
    ZeroTangent = "zero_tangent": READS,
    /// `Core.tangent_field(x, tx, name)`: the tangent of field `name` (a string) of `x`, whose
    /// tangent is `tx` (forward mode's field read by name).
    TangentField = "tangent_field": READS,
    /// `Core.global_tangent(x, lane)`: the tangent of the value `x` of a global in forward
    /// mode's lane `lane`, the same for every read during one derivative.
    GlobalTangent = "global_tangent": READS,
    /// `Core.dual_call(width, opts, f, tf_1, ..., tf_N, x1, t1_1, ...)`: a dynamic call in
    /// forward mode with `N = width` lanes: runs the forward rule of the method the run-time
    /// types select; returns `(y, ty_1, ..., ty_N)`.
    DualCall = "dual_call": RUNS_USER_CODE,
    /// `Core.dual_apply(f, tf, x1, t1, ...)`: AD inside the language (the prelude's
    /// `derivative`): the tangent of `f(x1, ...)` by forward mode, for the tangents given.
    DualApply = "dual_apply": RUNS_USER_CODE,
    /// `Core.vjp_apply(dy, f, x1, ...)`: Mooncake's `value_and_pullback!!` in the language:
    /// `(f(x1, ...), (tangent of f, tangent of x1, ...))` by reverse mode for the output's
    /// cotangent `dy` (`nothing`: a float output's gradient).
    VjpApply = "vjp_apply": RUNS_USER_CODE,
    /// `Core.jvp_apply(f, tf, x1, t1, ...)`: Mooncake's `value_and_derivative!!` in the
    /// language: `(f(x1, ...), its tangent)` by forward mode for the tangents given.
    JvpApply = "jvp_apply": RUNS_USER_CODE,
    /// `Core.test_rule_apply(seed, is_primitive, f, x1, ...)`: Mooncake's
    /// `TestUtils.test_rule` in the language: `(passed, report)` of `test_rule` on the call,
    /// with random directions from `seed`; with `is_primitive`, also that a program's own
    /// function is a declared primitive.
    TestRuleApply = "test_rule_apply": RUNS_USER_CODE,
    /// `Core.grad_apply(f, x)`: AD inside the language (the prelude's `gradient`): the tangent
    /// of `x` in the gradient of `f(x)` (a float) by reverse mode.
    GradApply = "grad_apply": RUNS_USER_CODE,
    /// `Core.field_cotangent(x, fx, name, r)`: the reverse data of `x` for cotangent `r` of its
    /// field `name` (`NoRData` for a mutable `x`, whose tangent's field is incremented).
    FieldCotangent = "field_cotangent": WRITES,
    /// `Core.dyn_fwd(state, opts, f, ff, x1, fx1, ...)`: a dynamic call's forwards pass: the
    /// rule of the method the run-time types select (derived on first use, with options
    /// `opts`) runs in a child state of `state` kept per callee; returns `(y, fy)`.
    DynFwd = "dyn_fwd": RUNS_USER_CODE,
    /// `Core.dyn_rvs(state, dy, T)`: the pullback of the latest `dyn_fwd` on `state`: the
    /// reverse data of the function and of each argument, as a `T` (a tuple of `Any`).
    DynRvs = "dyn_rvs": RUNS_USER_CODE,
    // Tuples.
    TupleLen = "tuple_len": PURE,
    /// `Core.tuple_getindex(t, i)`: dynamic index (bounds-checked).
    TupleGetIndex = "tuple_getindex": MAY_THROW,
    // Strings and output.
    /// `Core.string(x)`: `print` formatting to a string.
    ToString = "string": INSPECTS,
    /// `Core.repr(x)`: `show` formatting to a string.
    Repr = "repr": INSPECTS,
    StringConcat = "string_concat": PURE,
    /// `Core.symbol(s::String)`: the symbol named `s` (`Symbol("a")`).
    StringToSymbol = "symbol": PURE,
    /// `Core.fieldnames(T)`: the field names of struct or named-tuple type `T`, as a tuple of
    /// symbols.
    FieldNames = "fieldnames": MAY_THROW,
    /// `Core.fieldtypes(T)`: the declared (concrete) field types of struct, tuple or
    /// named-tuple type `T`, as a tuple of types (also of a struct's tangent, fdata or rdata
    /// type).
    FieldTypes = "fieldtypes": MAY_THROW,
    /// `Core.isdefined(x, name::Symbol)`: whether `x` has a field `name` holding a value
    /// (false for a field `new` left `#undef`, and for a name that is not a field).
    FieldDefined = "isdefined": INSPECTS,
    /// `Core.getfield_raw(x, i::Int64, T)`: field `i` of struct `x` as a `T`, where a field
    /// `new` left `#undef` reads as `#undef` instead of throwing (reverse mode saves a field
    /// before overwriting it, to restore it).
    GetFieldRaw = "getfield_raw": READS,
    /// `Core.sprintf(fmt, args)`: the C-style format string applied to a tuple of values
    /// (`@printf`, `@sprintf`).
    Sprintf = "sprintf": MAY_THROW,
    StringLen = "string_len": PURE,
    /// `Core.hash_string(s, h)`: Julia's `hash` of the bytes of string `s` mixed with `h`, as
    /// an `Int64` holding the bits of Julia's `UInt`.
    StringHash = "hash_string": PURE,
    /// `Core.objectid(x)`: an identity code, equal for values that are `===` (the address
    /// of a mutable object or array, a hash of the contents of anything else).
    ObjectId = "objectid": INSPECTS,
    /// `Core.string_cmp(a, b)`: -1, 0 or 1 as `a` sorts before, with or after `b`, comparing
    /// their bytes (Julia's `cmp` of strings, the order of code points).
    StringCmp = "string_cmp": PURE,
    /// `Core.string_ncodeunits(s)`: the number of bytes of `s`'s UTF-8 encoding.
    StringBytes = "string_ncodeunits": PURE,
    /// `Core.string_find(s, pat, from)`: the byte index (1-based) of the first occurrence of
    /// `pat` in `s` starting at byte `from` or later, 0 if none.
    StringFind = "string_find": PURE,
    /// `Core.string_case(s, upper)`: `s` in upper (or lower) case, character by character.
    StringCase = "string_case": PURE,
    /// `Core.string_replace(s, pat, r)`: `s` with every occurrence of `pat` (left to right,
    /// not overlapping) replaced by `r`.
    StringReplace = "string_replace": PURE,
    /// `Core.string_parse(T, s)`: `s` read as an `Int64` or `Float64` as Julia's `parse`
    /// reads it (surrounding whitespace allowed), raising Julia's errors otherwise.
    StringParse = "string_parse": MAY_THROW,
    /// `Core.string_char(s, i)`: the code point of the character of `s` that starts at byte
    /// `i` (Julia's `s[i]`), raising `BoundsError` or `StringIndexError` as Julia does.
    StringChar = "string_char": MAY_THROW,
    /// `Core.string_index(s, i, k)`: Julia's `thisind(s, i)` (`k == 0`), `nextind(s, i)`
    /// (`k == 1`) or `prevind(s, i)` (`k == -1`), raising `BoundsError` as Julia does.
    StringIndex = "string_index": MAY_THROW,
    /// `Core.string_slice(s, i, j)`: Julia's `s[i:j]`, the characters starting at bytes `i`
    /// through `j` (empty when `j < i`), raising `BoundsError` or `StringIndexError`.
    StringSlice = "string_slice": MAY_THROW,
    /// `Core.char_property(c, k)` of code point `c`: its Unicode general category numbered as
    /// utf8proc's (`k == 0`), whether it is uppercase (`1`) or lowercase (`2`) in Unicode's
    /// sense (1 or 0), its simple uppercase (`3`) or lowercase (`4`) mapping.
    CharProperty = "char_property": MAY_THROW,
    /// `Core.issubtype(A, B)`: whether type `A` is a subtype of type `B` (`A <: B`).
    IsSubtype = "issubtype": PURE,
    /// `Core.print(x)`: writes `print` formatting of x to standard output.
    // Threads.
    /// `Core.threads_run(body, first, n, nt, rngs, disjoint)`: the iterations
    /// `first .. first + n - 1` of a `Threads.@threads` loop divided into `nt` shares as Julia
    /// divides them, share `t` run as `body(f, l)` (its first and last iteration) with the
    /// random number generator `rngs[t]`, on a thread of its own where the backend allows,
    /// else one after another; returns `nothing`. `disjoint` (`((:name, k), ...)`) names the
    /// body's captured arrays no two iterations share an element of, for reverse mode.
    ThreadsRun = "threads_run": RUNS_USER_CODE,
    /// `Core.threads_fwd(state, opts, body, fbody, first, n, nt, rngs, disjoint)`: reverse
    /// mode's forwards pass of `Core.threads_run`: each share's forwards pass of the body on a
    /// child state of its own, on the threads where it can; returns `nothing`.
    ThreadsFwd = "threads_fwd": RUNS_USER_CODE,
    /// `Core.threads_rvs(state)`: the pullback of the latest `threads_fwd` on `state`: the
    /// shares' pullbacks, the body's reverse data (summed over the shares) returned.
    ThreadsRvs = "threads_rvs": RUNS_USER_CODE,
    /// `Core.threads_dual(width, opts, body, ḃody_1..ḃody_width, first, n, nt, rngs, disjoint)`: forward
    /// mode of `Core.threads_run` with `width` lanes: each share's forward rule of the body,
    /// on the threads where it can; returns `nothing`.
    ThreadsDual = "threads_dual": RUNS_USER_CODE,
    // Exceptions.
    /// `Core.try_catch(body, handler)`: `body()`, or, if it raises an error the program can
    /// catch, `handler(e)` with the exception as a value (a `try`/`catch`).
    TryCatch = "try_catch": RUNS_USER_CODE,
    /// `Core.try_finally(body, fin)`: `body()`, then `fin()` whether or not `body` raised an
    /// error (which is raised again after `fin`); the value is `body`'s (a `try`/`finally`).
    TryFinally = "try_finally": RUNS_USER_CODE,
    /// `Core.rethrow()`: raises again the error the innermost running `catch` block caught,
    /// with its backtrace.
    Rethrow = "rethrow": RAISES,
    /// `Core.error_message(e)`: what `showerror` prints for the exception value `e`.
    ErrorMessage = "error_message": INSPECTS,
    /// `Core.print_stderr(s)`: writes the string `s` to standard error.
    PrintStderr = "print_stderr": OUTPUT,
    /// `Core.note_write(x)`: reverse mode's forwards pass inside a `try` body is about to
    /// write into the array or mutable struct `x` (see `runtime::tries`).
    NoteWrite = "note_write": WRITES,
    /// `Core.chunk_range(first, n, nt, tid)`: thread `tid`'s share of a threaded loop's
    /// iterations, as `(f, l)` (`l < f` when it has none).
    ChunkRange = "chunk_range": PURE,
    /// `Core.nthreads()`: the number of threads of threaded loops.
    NThreads = "nthreads": INSPECTS,
    /// `Core.threadid()`: the running share's thread id (1 outside threaded loops).
    ThreadId = "threadid": INSPECTS,
    /// `Core.in_threaded_loop()`: whether this thread runs a share of a threaded loop.
    InThreadedLoop = "in_threaded_loop": INSPECTS,
    /// `Core.task_rng(default)`: the running share's random number generator if it has the
    /// type of `default` (it has, inside threaded loops), else `default`.
    TaskRng = "task_rng": INSPECTS,
    /// `Core.chunk_enter(tid, rng)`: from now on this thread runs share `tid` of a threaded
    /// loop with generator `rng` (what a loop run one share after another does).
    ChunkEnter = "chunk_enter": WRITES,
    /// `Core.chunk_leave()`: ends the share the latest `Core.chunk_enter` began.
    ChunkLeave = "chunk_leave": WRITES,
    Print = "print": OUTPUT,
    /// `Core.show(x)`: writes `show` formatting.
    Show = "show": OUTPUT,
    // Errors. Each builds the error and throws it; the result type is `Union{}`.
    /// `Core.throw_error(msg)`: ErrorException.
    ThrowError = "throw_error": RAISES,
    /// `Core.throw_assert(msg)`: AssertionError.
    ThrowAssert = "throw_assert": RAISES,
    /// `Core.throw_argument(msg)`: ArgumentError.
    ThrowArgument = "throw_argument": RAISES,
    /// `Core.throw_bounds(x, i)`: BoundsError for x at index i (a tuple of indices).
    ThrowBounds = "throw_bounds": RAISES,
    /// `Core.throw_domain(x, msg)`: DomainError.
    ThrowDomain = "throw_domain": RAISES,
    /// `Core.throw_inexact(T, x)`: InexactError.
    ThrowInexact = "throw_inexact": RAISES,
    /// `Core.throw_undefvar(name)`: UndefVarError (the name is a string constant).
    ThrowUndefVar = "throw_undefvar": RAISES,
    /// `Core.throw_method_error(f, args...)`: MethodError for a call no method matches.
    ThrowMethodError = "throw_method_error": RAISES,
    /// `Core.throw_type_error(expected, got)`: TypeError of a failed `::T`.
    ThrowTypeError = "throw_type_error": RAISES,
    /// `Core.throw_divide()`: DivideError.
    ThrowDivide = "throw_divide": RAISES,
    /// `Core.throw_value(x)`: `throw(x)` of any value.
    ThrowValue = "throw_value": RAISES,
}

impl fmt::Display for Prim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a primitive may do besides computing its result. Optimisations and native code rely
/// on these: a primitive that does not declare an effect is moved, merged or removed freely.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Effects {
    /// May throw an error.
    pub throws: bool,
    /// Writes memory or does I/O (must not be removed or reordered).
    pub writes: bool,
    /// Reads mutable memory (must not be moved across writes).
    pub reads: bool,
    /// May change the length of an array (so cached lengths and buffers are stale after it).
    pub resizes: bool,
    /// Runs user code (a derivative or gradient of a user function): may do anything any
    /// call may do, to any array reachable from anywhere.
    pub runs_user_code: bool,
}

impl Effects {
    /// Computes its result from its arguments only.
    pub const PURE: Effects = Effects {
        throws: false,
        writes: false,
        reads: false,
        resizes: false,
        runs_user_code: false,
    };
    /// Pure, but may throw.
    pub const MAY_THROW: Effects = Effects {
        throws: true,
        ..Effects::PURE
    };
    /// Reads mutable memory and never throws.
    pub const INSPECTS: Effects = Effects {
        reads: true,
        ..Effects::PURE
    };
    /// Reads mutable memory, may throw.
    pub const READS: Effects = Effects {
        reads: true,
        ..Effects::MAY_THROW
    };
    /// Writes memory (not array lengths), may throw.
    pub const WRITES: Effects = Effects {
        writes: true,
        ..Effects::READS
    };
    /// Writes memory and may change array lengths.
    pub const RESIZES: Effects = Effects {
        resizes: true,
        ..Effects::WRITES
    };
    /// Writes output (never throws).
    pub const OUTPUT: Effects = Effects {
        writes: true,
        reads: true,
        ..Effects::PURE
    };
    /// Throws, always (ordered like a write, reads nothing).
    pub const RAISES: Effects = Effects {
        throws: true,
        writes: true,
        ..Effects::PURE
    };
    /// Anything a call may do.
    pub const RUNS_USER_CODE: Effects = Effects {
        runs_user_code: true,
        ..Effects::RESIZES
    };
}

impl Prim {
    /// Whether the instruction can be removed when its result is unused.
    pub fn is_removable(self) -> bool {
        let e = self.effects();
        !e.writes && !e.throws
    }

    /// Whether the AD runtime evaluates it (it needs the rule cache or the tangent library).
    pub fn is_ad_runtime(self) -> bool {
        use Prim::*;
        self.ad_runtime_on_values()
            || matches!(
                self,
                DualCall
                    | DualApply
                    | GradApply
                    | VjpApply
                    | JvpApply
                    | TestRuleApply
                    | FieldCotangent
                    | DynFwd
                    | DynRvs
                    | ThreadsFwd
                    | ThreadsRvs
                    | ThreadsDual
            )
    }

    /// The AD runtime's primitives that read only their operands and the type environment
    /// (no machine, no user code, no writes): native code calls them without the machine.
    pub fn ad_runtime_on_values(self) -> bool {
        use Prim::*;
        matches!(
            self,
            RdataAdd
                | RdataConvert
                | RdataAddAt
                | TangentFdata
                | TangentRdata
                | TangentAddRdata
                | TangentOf
                | FieldFdata
                | GlobalFdata
                | ZeroTangent
                | TangentField
                | GlobalTangent
        )
    }

    /// Whether the machine itself evaluates it (it calls functions, or needs the error being
    /// handled), not `runtime::eval_prim`.
    pub fn runs_on_machine(self) -> bool {
        use Prim::*;
        matches!(
            self,
            ThreadsRun
                | TryCatch
                | TryFinally
                | Rethrow
                | ErrorMessage
                | PrintStderr
                | Print
                | Show
                | Repr
                | ToString
        )
    }

    /// Whether inference types the result by the functions the primitive calls (a `try`):
    /// `result_type` then says only `Any`.
    pub fn typed_by_calls(self) -> bool {
        matches!(self, Prim::TryCatch | Prim::TryFinally)
    }

    pub fn is_throw(self) -> bool {
        use Prim::*;
        matches!(
            self,
            ThrowError
                | ThrowAssert
                | ThrowArgument
                | ThrowBounds
                | ThrowDomain
                | ThrowInexact
                | ThrowUndefVar
                | ThrowMethodError
                | ThrowTypeError
                | ThrowDivide
                | ThrowValue
                | Rethrow
        )
    }

    /// The result type for arguments of the given types, or a message saying why they are
    /// wrong. Argument types may be abstract only where noted; callers resolve `Core.*` calls
    /// with concrete argument types.
    pub fn result_type(self, args: &[Type], env: &TypeEnv) -> Result<Type, String> {
        use Prim::*;
        let n = args.len();
        let arity = |k: usize| -> Result<(), String> {
            if n == k {
                Ok(())
            } else {
                Err(format!(
                    "`Core.{}` takes {k} arguments, got {n}",
                    self.name()
                ))
            }
        };
        let all = |t: &Type| args.iter().all(|a| a == t);
        let same_float = || -> Result<Type, String> {
            if !args.is_empty() && args[0].is_float() && args.iter().all(|a| *a == args[0]) {
                Ok(args[0].clone())
            } else {
                Err(format!(
                    "`Core.{}` needs float arguments of one type, got {}",
                    self.name(),
                    show_types(args)
                ))
            }
        };
        let type_arg = |i: usize| -> Result<Type, String> {
            match args.get(i) {
                Some(Type::Type(t)) => Ok((**t).clone()),
                Some(t) => Err(format!(
                    "`Core.{}` needs a type constant as argument {}, got a value of type {t}",
                    self.name(),
                    i + 1
                )),
                None => Err(format!("`Core.{}` is missing arguments", self.name())),
            }
        };
        match self {
            AddInt | SubInt | MulInt | SdivInt | SremInt | AndInt | OrInt | XorInt | ShlInt
            | AshrInt | LshrInt => {
                arity(2)?;
                if all(&Type::Int64) {
                    Ok(Type::Int64)
                } else {
                    Err(format!(
                        "`Core.{}` needs Int64 arguments, got {}",
                        self.name(),
                        show_types(args)
                    ))
                }
            }
            NegInt | NotInt => {
                arity(1)?;
                if all(&Type::Int64) {
                    Ok(Type::Int64)
                } else {
                    Err(format!("`Core.{}` needs an Int64", self.name()))
                }
            }
            EqInt | NeInt | SltInt | SleInt => {
                arity(2)?;
                if all(&Type::Int64) {
                    Ok(Type::Bool)
                } else {
                    Err(format!(
                        "`Core.{}` needs Int64 arguments, got {}",
                        self.name(),
                        show_types(args)
                    ))
                }
            }
            AddFloat | SubFloat | MulFloat | DivFloat | RemFloat | PowFloat | Atan2 | Hypot
            | Copysign => {
                arity(2)?;
                same_float()
            }
            EqFloat | NeFloat | LtFloat | LeFloat => {
                arity(2)?;
                same_float().map(|_| Type::Bool)
            }
            PowiFloat => {
                arity(2)?;
                if args[0].is_float() && args[1] == Type::Int64 {
                    Ok(args[0].clone())
                } else {
                    Err("`Core.powi_float` needs a float and an Int64".into())
                }
            }
            Polygamma => {
                arity(2)?;
                if args[0] == Type::Int64 && args[1].is_float() {
                    Ok(args[1].clone())
                } else {
                    Err("`Core.polygamma` needs an Int64 and a float".into())
                }
            }
            NegFloat | Sqrt | Sin | Cos | Tan | Exp | Log | Log1p | Cbrt | Expm1 | Tanh | Sinh
            | Cosh | Asin | Acos | Atan | Exp2 | Log2 | Log10 | AbsFloat | Floor | Ceil | Round
            | Trunc | Erf | Erfc | Erfinv | Erfcinv | Gamma | Lgamma | Digamma | Trigamma
            | BesselJ0 | BesselJ1 => {
                arity(1)?;
                same_float()
            }
            Fma => {
                arity(3)?;
                same_float()
            }
            SelectFloat => {
                arity(3)?;
                if args[0] == Type::Bool && args[1].is_float() && args[1] == args[2] {
                    Ok(args[1].clone())
                } else {
                    Err("`Core.select_float` needs a Bool and two floats of one type".into())
                }
            }
            NotBool => {
                arity(1)?;
                if all(&Type::Bool) {
                    Ok(Type::Bool)
                } else {
                    Err("`Core.not_bool` needs a Bool".into())
                }
            }
            AndBool | OrBool | XorBool => {
                arity(2)?;
                if all(&Type::Bool) {
                    Ok(Type::Bool)
                } else {
                    Err(format!("`Core.{}` needs Bool arguments", self.name()))
                }
            }
            Sitofp => {
                arity(2)?;
                let t = type_arg(0)?;
                if t.is_float() && args[1] == Type::Int64 {
                    Ok(t)
                } else {
                    Err("`Core.sitofp` converts an Int64 to Float64 or Float32".into())
                }
            }
            Bitcast => {
                arity(2)?;
                match (type_arg(0)?, &args[1]) {
                    (Type::Int64, Type::Float64) => Ok(Type::Int64),
                    (Type::Float64, Type::Int64) => Ok(Type::Float64),
                    _ => Err("`Core.bitcast` reinterprets a Float64 as an Int64 or back".into()),
                }
            }
            Fptosi => {
                arity(2)?;
                let t = type_arg(0)?;
                if t == Type::Int64 && args[1].is_float() {
                    Ok(t)
                } else {
                    Err("`Core.fptosi` converts a float to Int64".into())
                }
            }
            Fpconvert => {
                arity(2)?;
                let t = type_arg(0)?;
                if t.is_float() && args[1].is_float() {
                    Ok(t)
                } else {
                    Err("`Core.fpconvert` converts between float types".into())
                }
            }
            BoolToInt => {
                arity(1)?;
                if args[0] == Type::Bool {
                    Ok(Type::Int64)
                } else {
                    Err("`Core.bool_to_int` needs a Bool".into())
                }
            }
            IntToBool => {
                arity(1)?;
                if args[0] == Type::Int64 {
                    Ok(Type::Bool)
                } else {
                    Err("`Core.int_to_bool` needs an Int64".into())
                }
            }
            Egal => {
                arity(2)?;
                Ok(Type::Bool)
            }
            SameMemory => {
                arity(2)?;
                if args.iter().all(|t| matches!(t, Type::Array(..))) {
                    Ok(Type::Bool)
                } else {
                    Err("`Core.same_memory` needs two arrays".into())
                }
            }
            Isa => {
                arity(2)?;
                type_arg(1)?;
                Ok(Type::Bool)
            }
            Typeof => {
                arity(1)?;
                if args[0].is_concrete() {
                    Ok(Type::type_of_type(args[0].clone()))
                } else {
                    // The result is some type value; which one is known only at run time.
                    Ok(Type::Any)
                }
            }
            PromoteType => {
                arity(2)?;
                let a = type_arg(0)?;
                let b = type_arg(1)?;
                Ok(Type::type_of_type(promote_type(&a, &b)))
            }
            TangentTypeOf | FdataTypeOf | RdataTypeOf => {
                arity(1)?;
                match &args[0] {
                    Type::Type(t) => Ok(Type::type_of_type(tangent_type_of(self, t, env))),
                    _ => Ok(Type::Any),
                }
            }
            PromoteTypejoin => {
                arity(2)?;
                match (&args[0], &args[1]) {
                    (Type::Type(a), Type::Type(b)) => {
                        Ok(Type::type_of_type(env.promote_typejoin(a, b)))
                    }
                    _ => Ok(Type::Any),
                }
            }
            PromoteEltype => {
                arity(1)?;
                match &args[0] {
                    Type::Tuple(ts) => Ok(Type::type_of_type(promote_eltype(ts))),
                    t => Err(format!("`Core.promote_eltype` needs a tuple, got {t}")),
                }
            }
            SubarrayType => {
                arity(2)?;
                subarray_type(&args[0], &args[1])
                    .map(Type::type_of_type)
                    .ok_or_else(|| format!("no view of a {} at indices {}", args[0], args[1]))
            }
            CatEltype => {
                arity(1)?;
                match &args[0] {
                    Type::Tuple(ts) => Ok(Type::type_of_type(cat_eltype(ts))),
                    t => Err(format!("`Core.cat_eltype` needs a tuple, got {t}")),
                }
            }
            VcatType => {
                arity(2)?;
                let t = type_arg(0)?;
                match &args[1] {
                    Type::Tuple(ts) => Ok(Type::type_of_type(vcat_type(t, ts))),
                    t => Err(format!("`Core.vcat_type` needs a tuple, got {t}")),
                }
            }
            ApplyType => {
                if n == 0 {
                    return Err("`Core.apply_type` needs a type".into());
                }
                // A parameter whose value is known only at run time (`NTuple{n,T}` for a
                // computed `n`) makes a type known only then.
                if args[1..]
                    .iter()
                    .any(|a| matches!(a, Type::Int64 | Type::Bool | Type::Symbol))
                {
                    return Ok(Type::Any);
                }
                let params: Result<Vec<Type>, String> = (1..n)
                    .map(|i| match &args[i] {
                        Type::Type(t) => Ok((**t).clone()),
                        t => Err(format!(
                            "type parameter must be a type, got a value of type {t}"
                        )),
                    })
                    .collect();
                let base = match &args[0] {
                    Type::Type(t) => (**t).clone(),
                    t => return Err(format!("cannot apply parameters to a value of type {t}")),
                };
                apply_type(&base, params?, env).map(Type::type_of_type)
            }
            ArrayNew => {
                if n == 0 {
                    return Err("`Core.array_new` needs an array type".into());
                }
                let t = type_arg(0)?;
                match &t {
                    Type::Array(_, nd) if *nd as usize == n - 1 && args[1..].iter().all(|a| *a == Type::Int64) => Ok(t),
                    _ => Err(format!("`Core.array_new({t}, ...)` needs an array type and one Int64 per dimension")),
                }
            }
            ArrayRef | ArrayRefRaw => match args.first() {
                Some(Type::Array(e, _))
                    if n >= 2 && args[1..].iter().all(|a| *a == Type::Int64) =>
                {
                    Ok((**e).clone())
                }
                _ => Err(format!(
                    "`Core.arrayref` needs an array and Int64 indices, got {}",
                    show_types(args)
                )),
            },
            ArraySet => match args.first() {
                Some(Type::Array(e, _))
                    if n >= 3 && args[2..].iter().all(|a| *a == Type::Int64) =>
                {
                    if env.subtype(&args[1], e) {
                        Ok(args[0].clone())
                    } else {
                        Err(format!("cannot store a {} in a {}", args[1], args[0]))
                    }
                }
                _ => Err(format!(
                    "`Core.arrayset` needs an array, a value and Int64 indices, got {}",
                    show_types(args)
                )),
            },
            ArrayLen => {
                arity(1)?;
                match &args[0] {
                    Type::Array(..) => Ok(Type::Int64),
                    t => Err(format!("`Core.arraylen` needs an array, got {t}")),
                }
            }
            ArraySize => {
                arity(2)?;
                match (&args[0], &args[1]) {
                    (Type::Array(..), Type::Int64) => Ok(Type::Int64),
                    _ => Err("`Core.arraysize` needs an array and an Int64".into()),
                }
            }
            ArrayPush => {
                arity(2)?;
                match &args[0] {
                    Type::Array(e, 1) if env.subtype(&args[1], e) => Ok(args[0].clone()),
                    t => Err(format!("cannot push a {} onto a {t}", args[1])),
                }
            }
            ArrayPop => {
                arity(1)?;
                match &args[0] {
                    Type::Array(e, 1) => Ok((**e).clone()),
                    t => Err(format!("`Core.array_pop` needs a vector, got {t}")),
                }
            }
            ArrayUnresize => {
                arity(3)?;
                match (&args[0], &args[1], &args[2]) {
                    (Type::Array(_, 1), b, Type::Int64) if *b == args[0] => Ok(args[0].clone()),
                    _ => Err(format!(
                        "`Core.array_unresize` needs two vectors of one type and an Int64, got {}",
                        show_types(args)
                    )),
                }
            }
            ArrayResize => {
                arity(2)?;
                match (&args[0], &args[1]) {
                    (Type::Array(_, 1), Type::Int64) => Ok(args[0].clone()),
                    _ => Err("`Core.array_resize` needs a vector and an Int64".into()),
                }
            }
            ArrayCopy => {
                arity(1)?;
                match &args[0] {
                    Type::Array(..) => Ok(args[0].clone()),
                    t => Err(format!("`Core.array_copy` needs an array, got {t}")),
                }
            }
            ArrayZeroLike => {
                arity(1)?;
                match &args[0] {
                    Type::Array(..) => Ok(args[0].clone()),
                    t => Err(format!("`Core.array_zero_like` needs an array, got {t}")),
                }
            }
            ArrayAxpy => {
                arity(3)?;
                match (&args[0], &args[1], &args[2]) {
                    (Type::Array(a, _), s, Type::Array(b, _)) if a == b && *s == **a && s.is_float() => {
                        Ok(args[0].clone())
                    }
                    _ => Err("`Core.array_axpy` needs a float array, a float of its element type and an array like the first".into()),
                }
            }
            ArrayMatmul => {
                arity(4)?;
                match (&args[0], &args[1], &args[2], &args[3]) {
                    (Type::Array(a, ra), Type::Array(b, rb), Type::Bool, Type::Bool)
                        if a == b && a.is_float() && (1..=2).contains(ra) && (1..=2).contains(rb) =>
                    {
                        Ok(args[1].clone())
                    }
                    _ => Err(format!(
                        "`Core.array_matmul` needs two float vectors or matrices of one element type and two Bools, got {}",
                        show_types(args)
                    )),
                }
            }
            ArrayGemmAdd => {
                arity(6)?;
                match args {
                    [Type::Array(c, rc), Type::Array(a, ra), Type::Array(b, rb), Type::Bool, Type::Bool, Type::Bool]
                        if a == b && a == c && a.is_float() && [rc, ra, rb].iter().all(|r| (1..=2).contains(*r)) =>
                    {
                        Ok(args[0].clone())
                    }
                    _ => Err(format!(
                        "`Core.array_gemm_add` needs three float vectors or matrices of one element type and three Bools, got {}",
                        show_types(args)
                    )),
                }
            }
            ArrayTrsolve => {
                arity(5)?;
                match args {
                    [Type::Array(a, 2), Type::Array(b, rb), Type::Bool, Type::Bool, Type::Bool]
                        if a == b && a.is_float() && (1..=2).contains(rb) =>
                    {
                        Ok(args[1].clone())
                    }
                    _ => Err(format!(
                        "`Core.array_trsolve` needs a float matrix, a vector or matrix of its element type and three Bools, got {}",
                        show_types(args)
                    )),
                }
            }
            ArrayCholesky => {
                arity(1)?;
                match args {
                    [Type::Array(a, 2)] if a.is_float() => Ok(args[0].clone()),
                    _ => Err(format!(
                        "`Core.array_cholesky` needs a float matrix, got {}",
                        show_types(args)
                    )),
                }
            }
            ArrayLu => {
                arity(2)?;
                match args {
                    [Type::Array(a, 2), Type::Array(p, 1)]
                        if a.is_float() && **p == Type::Int64 =>
                    {
                        Ok(args[0].clone())
                    }
                    _ => Err(format!(
                        "`Core.array_lu` needs a float matrix and a Vector{{Int64}}, got {}",
                        show_types(args)
                    )),
                }
            }
            ArrayRowswap => {
                arity(3)?;
                match args {
                    [Type::Array(a, ra), Type::Array(p, 1), Type::Bool]
                        if a.is_float() && (1..=2).contains(ra) && **p == Type::Int64 =>
                    {
                        Ok(args[0].clone())
                    }
                    _ => Err(format!(
                        "`Core.array_rowswap` needs a float vector or matrix, a Vector{{Int64}} and a Bool, got {}",
                        show_types(args)
                    )),
                }
            }
            ArrayTricopy => {
                arity(4)?;
                match args {
                    [Type::Array(a, 2), Type::Int64, Type::Int64, Type::Bool] if a.is_float() => {
                        Ok(args[0].clone())
                    }
                    _ => Err(format!(
                        "`Core.array_tricopy` needs a float matrix, two Ints and a Bool, got {}",
                        show_types(args)
                    )),
                }
            }
            ArrayAddScalar => {
                arity(2)?;
                match (&args[0], &args[1]) {
                    (Type::Array(a, _), s) if *s == **a && s.is_float() => Ok(args[0].clone()),
                    _ => Err("`Core.array_add_scalar` needs a float array and a float of its element type".into()),
                }
            }
            ArrayMulAdd => {
                arity(3)?;
                let elem = match &args[0] {
                    Type::Array(a, _) => &**a,
                    t => t,
                };
                match (&args[1], &args[2]) {
                    (Type::Array(b, _), Type::Array(c, _))
                        if b == c && **b == *elem && elem.is_float() =>
                    {
                        Ok(args[0].clone())
                    }
                    _ => Err(format!(
                        "`Core.array_muladd` needs a float array or float and two float arrays of its element type, got {}",
                        show_types(args)
                    )),
                }
            }
            ArrayAccumulate => {
                arity(2)?;
                match (&args[0], &args[1]) {
                    (Type::Array(a, _), Type::Array(b, _))
                        if a == b
                            && (a.is_float()
                                || matches!(
                                    **a,
                                    Type::Struct(..)
                                        | Type::Tuple(_)
                                        | Type::NamedTuple(..)
                                        | Type::Tangent(_)
                                )) =>
                    {
                        Ok(args[0].clone())
                    }
                    _ => Err(
                        "`Core.array_accumulate` needs two arrays of one element type of floats"
                            .into(),
                    ),
                }
            }
            ArrayReshape => match args.first() {
                Some(Type::Array(e, _))
                    if n >= 2 && args[1..].iter().all(|a| *a == Type::Int64) =>
                {
                    Ok(Type::array((**e).clone(), (n - 1) as u32))
                }
                _ => Err("`Core.array_reshape` needs an array and Int64 dimensions".into()),
            },
            RuleStack => {
                arity(3)?;
                match (&args[0], &args[1], type_arg(2)?) {
                    (Type::Struct(n, _), Type::Int64, t @ Type::Array(_, 1))
                        if n.as_str() == "RuleState" =>
                    {
                        Ok(t)
                    }
                    _ => Err(
                        "`Core.rule_stack` needs a RuleState, an Int64 and a vector type".into(),
                    ),
                }
            }
            AdCheck | TangentCheck => {
                arity(3)?;
                Ok(Type::Nothing)
            }
            RdataAdd | TangentFdata | TangentRdata | TangentOf => {
                arity(2)?;
                Ok(Type::Any)
            }
            GlobalFdata | ZeroTangent => {
                arity(1)?;
                Ok(Type::Any)
            }
            GlobalTangent => {
                arity(2)?;
                Ok(Type::Any)
            }
            TangentField => {
                arity(3)?;
                Ok(Type::Any)
            }
            GradApply => {
                arity(2)?;
                Ok(Type::Any)
            }
            ThreadsFwd => {
                arity(9)?;
                Ok(Type::Nothing)
            }
            ThreadsRvs => {
                arity(1)?;
                Ok(Type::Any)
            }
            ThreadsDual => {
                if n < 8 {
                    return Err("`Core.threads_dual` needs a width, options, the body with its tangents, three Int64s, generators and names".into());
                }
                Ok(Type::Nothing)
            }
            ThreadsRun => {
                arity(6)?;
                if args[1..4].iter().all(|a| *a == Type::Int64) {
                    Ok(Type::Nothing)
                } else {
                    Err("`Core.threads_run` takes a function, three Int64s and generators".into())
                }
            }
            NThreads | ThreadId => {
                arity(0)?;
                Ok(Type::Int64)
            }
            InThreadedLoop => {
                arity(0)?;
                Ok(Type::Bool)
            }
            ChunkRange => {
                arity(4)?;
                if all(&Type::Int64) {
                    Ok(Type::tuple(vec![Type::Int64, Type::Int64]))
                } else {
                    Err("`Core.chunk_range` takes four Int64s".into())
                }
            }
            TaskRng => {
                arity(1)?;
                Ok(args[0].clone())
            }
            ChunkEnter => {
                arity(2)?;
                match &args[0] {
                    Type::Int64 => Ok(Type::Nothing),
                    _ => Err("`Core.chunk_enter` takes an Int64 and a generator".into()),
                }
            }
            ChunkLeave => {
                arity(0)?;
                Ok(Type::Nothing)
            }
            TestRuleApply => {
                if n < 7 {
                    return Err("`Core.test_rule_apply` needs a seed, four options, the tolerances and a function".into());
                }
                Ok(Type::tuple(vec![Type::Bool, Type::String]))
            }
            VjpApply | JvpApply => {
                if n < 2 {
                    return Err(format!("`Core.{}` needs a function", self.name()));
                }
                Ok(Type::Any)
            }
            DualApply | DualCall => match args.first() {
                Some(_) => Ok(Type::Any),
                None => Err(format!("`Core.{}` needs a width", self.name())),
            },
            TangentAddRdata | FieldFdata => {
                arity(3)?;
                Ok(Type::Any)
            }
            FieldCotangent => {
                arity(4)?;
                Ok(Type::Any)
            }
            RdataAddAt => {
                arity(3)?;
                Ok(args[0].clone())
            }
            RdataConvert | DynRvs => {
                let k = if self == RdataConvert { 1 } else { 2 };
                arity(k + 1)?;
                type_arg(k)
            }
            DynFwd => {
                if n < 4 || !n.is_multiple_of(2) {
                    return Err(
                        "`Core.dyn_fwd` needs a state, options and (value, fdata) pairs".into(),
                    );
                }
                Ok(Type::tuple(vec![Type::Any, Type::Any]))
            }
            RuleChild => {
                arity(2)?;
                match (&args[0], &args[1]) {
                    (Type::Struct(n, _), Type::Int64) if n.as_str() == "RuleState" => {
                        Ok(args[0].clone())
                    }
                    _ => Err("`Core.rule_child` needs a RuleState and an Int64".into()),
                }
            }
            TupleLen => {
                arity(1)?;
                match &args[0] {
                    Type::Tuple(_) | Type::NamedTuple(..) => Ok(Type::Int64),
                    t => Err(format!("`Core.tuple_len` needs a tuple, got {t}")),
                }
            }
            TupleGetIndex => {
                arity(2)?;
                match (&args[0], &args[1]) {
                    (Type::Tuple(ts), Type::Int64) | (Type::NamedTuple(_, ts), Type::Int64) => {
                        Ok(Type::union_of(ts.iter().cloned()))
                    }
                    _ => Err("`Core.tuple_getindex` needs a tuple and an Int64".into()),
                }
            }
            ToString | Repr => {
                arity(1)?;
                Ok(Type::String)
            }
            Sprintf => {
                arity(2)?;
                match (&args[0], &args[1]) {
                    (Type::String, Type::Tuple(_)) => Ok(Type::String),
                    _ => Err("`Core.sprintf` needs a format string and a tuple".into()),
                }
            }
            StringConcat => {
                arity(2)?;
                if all(&Type::String) {
                    Ok(Type::String)
                } else {
                    Err("`Core.string_concat` needs two strings".into())
                }
            }
            StringLen => {
                arity(1)?;
                Ok(Type::Int64)
            }
            IsSubtype => {
                arity(2)?;
                Ok(Type::Bool)
            }
            StringCmp => {
                arity(2)?;
                if all(&Type::String) {
                    Ok(Type::Int64)
                } else {
                    Err("`Core.string_cmp` needs two strings".into())
                }
            }
            StringBytes => {
                arity(1)?;
                match args[0] {
                    Type::String => Ok(Type::Int64),
                    _ => Err("`Core.string_ncodeunits` needs a string".into()),
                }
            }
            StringFind => {
                arity(3)?;
                match (&args[0], &args[1], &args[2]) {
                    (Type::String, Type::String, Type::Int64) => Ok(Type::Int64),
                    _ => Err("`Core.string_find` needs two strings and a byte index".into()),
                }
            }
            StringCase => {
                arity(2)?;
                match (&args[0], &args[1]) {
                    (Type::String, Type::Bool) => Ok(Type::String),
                    _ => Err("`Core.string_case` needs a string and a Bool".into()),
                }
            }
            StringReplace => {
                arity(3)?;
                if all(&Type::String) {
                    Ok(Type::String)
                } else {
                    Err("`Core.string_replace` needs three strings".into())
                }
            }
            StringChar | StringIndex | StringSlice => {
                let (n, what) = match self {
                    StringIndex => (3, "a string, a byte index and a direction"),
                    StringSlice => (3, "a string and two byte indices"),
                    _ => (2, "a string and a byte index"),
                };
                arity(n)?;
                if args[0] == Type::String && args[1..].iter().all(|a| *a == Type::Int64) {
                    Ok(if self == StringSlice {
                        Type::String
                    } else {
                        Type::Int64
                    })
                } else {
                    Err(format!("`Core.{}` needs {what}", self.name()))
                }
            }
            CharProperty => {
                arity(2)?;
                if all(&Type::Int64) {
                    Ok(Type::Int64)
                } else {
                    Err("`Core.char_property` needs a code point and a property number".into())
                }
            }
            StringParse => {
                arity(2)?;
                match (&args[0], &args[1]) {
                    (Type::Type(t), Type::String) if matches!(**t, Type::Int64 | Type::Float64) => {
                        Ok((**t).clone())
                    }
                    _ => Err("`Core.string_parse` needs `Int64` or `Float64` and a string".into()),
                }
            }
            StringHash => {
                arity(2)?;
                match (&args[0], &args[1]) {
                    (Type::String, Type::Int64) => Ok(Type::Int64),
                    _ => Err("`Core.hash_string` needs a string and an `Int64`".into()),
                }
            }
            ObjectId => {
                arity(1)?;
                Ok(Type::Int64)
            }
            StringToSymbol => {
                arity(1)?;
                if all(&Type::String) {
                    Ok(Type::Symbol)
                } else {
                    Err("`Core.symbol` needs a string".into())
                }
            }
            FieldTypes => {
                arity(1)?;
                let t = type_arg(0)?;
                match env.field_types(&t) {
                    Some(ts) => Ok(Type::tuple(
                        ts.into_iter().map(Type::type_of_type).collect(),
                    )),
                    None => Err(format!(
                        "not supported yet: `fieldtypes` of {t} (only of struct and tuple types)"
                    )),
                }
            }
            FieldNames => {
                arity(1)?;
                let t = type_arg(0)?;
                match env.field_names(&t) {
                    Some(ns) => Ok(Type::tuple(vec![Type::Symbol; ns.len()])),
                    None => Err(format!(
                        "not supported yet: `fieldnames` of {t} (only of struct and named tuple types)"
                    )),
                }
            }
            GetFieldRaw => {
                arity(3)?;
                if args[1] == Type::Int64 {
                    type_arg(2)
                } else {
                    Err("`Core.getfield_raw` needs a struct, a field index and a type".into())
                }
            }
            FieldDefined => {
                arity(2)?;
                if args[1] == Type::Symbol {
                    Ok(Type::Bool)
                } else {
                    Err("`Core.isdefined` needs a value and a field name".into())
                }
            }
            Print | Show => {
                arity(1)?;
                Ok(Type::Nothing)
            }
            ThrowError | ThrowAssert | ThrowArgument | ThrowUndefVar => {
                arity(1)?;
                Ok(Type::Bottom)
            }
            ThrowBounds | ThrowDomain | ThrowInexact | ThrowTypeError => {
                arity(2)?;
                Ok(Type::Bottom)
            }
            ThrowDivide => {
                arity(0)?;
                Ok(Type::Bottom)
            }
            ThrowValue => {
                arity(1)?;
                Ok(Type::Bottom)
            }
            ThrowMethodError => Ok(Type::Bottom),
            // Inference types a `try` by the types of calling its functions.
            TryCatch | TryFinally => {
                arity(2)?;
                Ok(Type::Any)
            }
            Rethrow => {
                arity(0)?;
                Ok(Type::Bottom)
            }
            ErrorMessage => {
                arity(1)?;
                Ok(Type::String)
            }
            PrintStderr | NoteWrite => {
                arity(1)?;
                Ok(Type::Nothing)
            }
        }
    }
}

fn show_types(ts: &[Type]) -> String {
    let parts: Vec<String> = ts.iter().map(|t| t.to_string()).collect();
    format!("({})", parts.join(", "))
}

/// The element type Julia gives an array literal with elements of these types: numeric
/// promotion, `Union{Nothing, T}` with `nothing`, otherwise `Any` unless all agree.
pub fn promote_eltype(ts: &[Type]) -> Type {
    let mut acc: Option<Type> = None;
    for t in ts {
        acc = Some(match acc {
            None => t.clone(),
            Some(a) if a == *t => a,
            Some(a) => {
                let p = promote_type(&a, t);
                if p != Type::Any {
                    p
                } else if a == Type::Nothing || *t == Type::Nothing || matches!(a, Type::Union(_)) {
                    let u = Type::union_of([a, t.clone()]);
                    if matches!(u, Type::Union(ref ms) if ms.len() == 2 && ms.contains(&Type::Nothing))
                    {
                        u
                    } else {
                        Type::Any
                    }
                } else {
                    Type::Any
                }
            }
        });
    }
    acc.unwrap_or(Type::Any)
}

/// `SubArray{T, N, P, I, L}` for a view of an array of type `parent` at indices of tuple
/// type `indices` (integers, `UnitRange`s, `StepRange`s, `Base.Slice`s and vectors of
/// integers): `N` counts the non-scalar indices and `L` is Julia's `viewindexing`, whether the
/// view's elements are evenly spaced in the parent (fast linear indexing).
pub fn subarray_type(parent: &Type, indices: &Type) -> Option<Type> {
    let Type::Array(elem, _) = parent else {
        return None;
    };
    let Type::Tuple(ix) = indices else {
        return None;
    };
    let is = |t: &Type, name: &str| matches!(t, Type::Struct(n, _) if n.as_str() == name);
    let scalar = |t: &Type| *t == Type::Int64;
    let unit = |t: &Type| is(t, "UnitRange") || is(t, "Slice") || is(t, "OneTo");
    let range = |t: &Type| unit(t) || is(t, "StepRange");
    // Julia's `viewindexing`: leading scalars skipped; slices may begin a section followed by
    // a unit range and scalars; any range followed only by scalars.
    fn linear(
        ix: &[Type],
        scalar: &dyn Fn(&Type) -> bool,
        unit: &dyn Fn(&Type) -> bool,
        range: &dyn Fn(&Type) -> bool,
        slice: &dyn Fn(&Type) -> bool,
    ) -> bool {
        match ix {
            [] => true,
            [s, rest @ ..] if scalar(s) => linear(rest, scalar, unit, range, slice),
            [a, b, ..] if slice(a) && slice(b) => linear(&ix[1..], scalar, unit, range, slice),
            [a, b, rest @ ..] if slice(a) && unit(b) && rest.iter().all(scalar) => true,
            [r, rest @ ..] if range(r) && rest.iter().all(scalar) => true,
            _ => false,
        }
    }
    let slice = |t: &Type| is(t, "Slice");
    let l = linear(ix, &scalar, &unit, &range, &slice);
    let n = ix.iter().filter(|t| !scalar(t)).count() as i64;
    Some(Type::Struct(
        syntax::sym("SubArray"),
        vec![
            (**elem).clone(),
            Type::Val(n),
            parent.clone(),
            indices.clone(),
            Type::ValBool(l),
        ]
        .into(),
    ))
}

/// The element type of a concatenation of values of types `ts`: array literal promotion of
/// the arrays' element types and the other values' types.
pub fn cat_eltype(ts: &[Type]) -> Type {
    let elems: Vec<Type> = ts
        .iter()
        .map(|t| match t {
            Type::Array(e, _) => (**e).clone(),
            t => t.clone(),
        })
        .collect();
    promote_eltype(&elems)
}

/// The type of `vcat` of values of types `ts` with element type `elem`: `Array{elem, N}` with
/// `N` the most dimensions among the arrays in `ts`, at least 1.
pub fn vcat_type(elem: Type, ts: &[Type]) -> Type {
    let nd = ts
        .iter()
        .map(|t| match t {
            Type::Array(_, n) => *n,
            _ => 0,
        })
        .max()
        .unwrap_or(0)
        .max(1);
    Type::array(elem, nd)
}

/// The fixed-width integer types as (signed, bits): `Int64` and the prelude's `Int8` to
/// `UInt64` (structs holding their value in an `Int64`).
pub fn bit_integer(t: &Type) -> Option<(bool, u32)> {
    match t {
        Type::Int64 => Some((true, 64)),
        Type::Struct(n, ps) if ps.is_empty() => BIT_INTEGERS
            .iter()
            .find(|(name, _, _)| *name == n.as_str())
            .map(|&(_, s, w)| (s, w)),
        _ => None,
    }
}

/// The prelude's integer types besides `Int64`: name, signed, bits.
pub const BIT_INTEGERS: &[(&str, bool, u32)] = &[
    ("Int8", true, 8),
    ("Int16", true, 16),
    ("Int32", true, 32),
    ("UInt8", false, 8),
    ("UInt16", false, 16),
    ("UInt32", false, 32),
    ("UInt64", false, 64),
];

/// The integer type of a signedness and width.
pub fn bit_integer_type(signed: bool, bits: u32) -> Type {
    if signed && bits == 64 {
        return Type::Int64;
    }
    BIT_INTEGERS
        .iter()
        .find(|&&(_, s, w)| s == signed && w == bits)
        .map_or(Type::Any, |(name, _, _)| {
            Type::Struct(syntax::sym(name), std::sync::Arc::from(Vec::new()))
        })
}

/// Julia's `promote_type` on the numeric types of the subset.
pub fn promote_type(a: &Type, b: &Type) -> Type {
    if a == b {
        return a.clone();
    }
    // A complex number meets a real or complex one as the complex number of the promoted
    // parts (`Complex{Int64}` and `Float64` give `Complex{Float64}`).
    let complex_part = |t: &Type| match t {
        Type::Struct(n, ps) if n.as_str() == "Complex" && ps.len() == 1 => Some(ps[0].clone()),
        _ => None,
    };
    if let (Some(_), _) | (_, Some(_)) = (complex_part(a), complex_part(b)) {
        let pa = complex_part(a).unwrap_or_else(|| a.clone());
        let pb = complex_part(b).unwrap_or_else(|| b.clone());
        return match promote_type(&pa, &pb) {
            Type::Any => Type::Any,
            p => Type::Struct(syntax::sym("Complex"), std::sync::Arc::from(vec![p])),
        };
    }
    // Two integer types: the wider of one signedness; a signed and an unsigned one meet as
    // Int64, or UInt64 if the unsigned one is (Julia's table for a 64-bit machine).
    if let (Some((sa, wa)), Some((sb, wb))) = (bit_integer(a), bit_integer(b)) {
        return if sa == sb {
            if wa >= wb {
                a.clone()
            } else {
                b.clone()
            }
        } else if (!sa && wa == 64) || (!sb && wb == 64) {
            bit_integer_type(false, 64)
        } else {
            Type::Int64
        };
    }
    let rank = |t: &Type| match t {
        Type::Bool => Some(0),
        t if bit_integer(t).is_some() => Some(1),
        Type::Float32 => Some(2),
        Type::Float64 => Some(3),
        _ => None,
    };
    // A constant such as `π` meets Float32 as Float32 and every other number as Float64.
    let irrational = |t: &Type| matches!(t, Type::Struct(n, _) if n.as_str() == "Irrational");
    if irrational(a) || irrational(b) {
        let other = if irrational(a) { b } else { a };
        return match other {
            Type::Float32 => Type::Float32,
            Type::Float64 | Type::Bool => Type::Float64,
            t if irrational(t) || bit_integer(t).is_some() => Type::Float64,
            _ => Type::Any,
        };
    }
    match (rank(a), rank(b)) {
        (Some(x), Some(y)) => {
            if x >= y {
                a.clone()
            } else {
                b.clone()
            }
        }
        _ => {
            if *a == Type::Bottom {
                b.clone()
            } else if *b == Type::Bottom {
                a.clone()
            } else {
                Type::Any
            }
        }
    }
}

/// `base{params...}` for a type value `base` (a `UnionAll` or partially applied name).
pub fn apply_type(base: &Type, params: Vec<Type>, env: &TypeEnv) -> Result<Type, String> {
    match base {
        Type::UnionAll(n) => {
            let name = n.as_str();
            match name {
                "Array" => match params.as_slice() {
                    [t, Type::Val(k)] if *k >= 0 => Ok(Type::array(t.clone(), *k as u32)),
                    [_] => Err("`Array{T}` needs a dimension: write `Array{T, N}`".into()),
                    _ => Err("`Array{T, N}` takes an element type and a dimension count".into()),
                },
                "Vector" => match params.as_slice() {
                    [t] => Ok(Type::vector(t.clone())),
                    _ => Err("`Vector{T}` takes one parameter".into()),
                },
                "Matrix" => match params.as_slice() {
                    [t] => Ok(Type::array(t.clone(), 2)),
                    _ => Err("`Matrix{T}` takes one parameter".into()),
                },
                "Tuple" => Ok(Type::tuple(params)),
                "NTuple" => match params.as_slice() {
                    [Type::Val(k), t] if (0..=crate::MAX_NTUPLE).contains(k) => {
                        Ok(Type::tuple(vec![t.clone(); *k as usize]))
                    }
                    _ => Err(format!(
                        "`NTuple{{N, T}}` takes a length from 0 to {} and an element type",
                        crate::MAX_NTUPLE
                    )),
                },
                "Union" => {
                    let has_any = params.contains(&Type::Any);
                    let names: Vec<String> = params.iter().map(|p| p.to_string()).collect();
                    match Type::union_of(params) {
                        // A union of an abstract type or of many types has no value here: as
                        // `Any` it would hold, and test true for, everything.
                        Type::Any if !has_any => Err(format!(
                            "not supported yet: `Union{{{}}}` as a value (a union with an abstract member or of more than {} types; as the type of a parameter or a field, and in `isa`, it works)",
                            names.join(", "),
                            crate::types::MAX_UNION
                        )),
                        u => Ok(u),
                    }
                }
                "Type" => match params.as_slice() {
                    [t] => Ok(Type::type_of_type(t.clone())),
                    _ => Err("`Type{T}` takes one parameter".into()),
                },
                "AbstractArray" => match params.as_slice() {
                    [t, n @ Type::Val(_)] => Ok(Type::Abstract(
                        syntax::sym("AbstractArray"),
                        vec![t.clone(), n.clone()].into(),
                    )),
                    _ => Err(
                        "`AbstractArray{T, N}` takes an element type and a dimension count".into(),
                    ),
                },
                "AbstractVector" => match params.as_slice() {
                    [t] => Ok(Type::Abstract(
                        syntax::sym("AbstractArray"),
                        vec![t.clone(), Type::Val(1)].into(),
                    )),
                    _ => Err("`AbstractVector{T}` takes one parameter".into()),
                },
                "AbstractMatrix" => match params.as_slice() {
                    [t] => Ok(Type::Abstract(
                        syntax::sym("AbstractArray"),
                        vec![t.clone(), Type::Val(2)].into(),
                    )),
                    _ => Err("`AbstractMatrix{T}` takes one parameter".into()),
                },
                _ => {
                    if let Some(def) = env.struct_def(*n) {
                        if def.params.len() != params.len() {
                            return Err(format!(
                                "`{name}` takes {} type parameters, got {}",
                                def.params.len(),
                                params.len()
                            ));
                        }
                        Ok(Type::Struct(*n, params.into()))
                    } else if let Some(def) = env.abstract_def(*n) {
                        if def.params.len() != params.len() {
                            return Err(format!(
                                "`{name}` takes {} type parameters, got {}",
                                def.params.len(),
                                params.len()
                            ));
                        }
                        Ok(Type::Abstract(*n, params.into()))
                    } else {
                        Err(format!("`{name}` is not a parametric type"))
                    }
                }
            }
        }
        t => Err(format!("`{t}` does not take type parameters")),
    }
}

/// What `Core.tangent_type(P)` (of a primal type), `Core.fdata_type(T)` and
/// `Core.rdata_type(T)` (of a tangent type, as Mooncake's) give.
pub fn tangent_type_of(op: Prim, t: &Type, env: &TypeEnv) -> Type {
    match op {
        Prim::FdataTypeOf => crate::tangent::fdata_type(&primal_of_tangent(t), env),
        Prim::RdataTypeOf => crate::tangent::rdata_type(&primal_of_tangent(t), env),
        _ => crate::tangent::tangent_type(t, env),
    }
}

/// A primal type whose tangent type is `t` (the one splitting into the same fdata and rdata).
fn primal_of_tangent(t: &Type) -> Type {
    match t {
        Type::Tangent(p) | Type::MutableTangent(p) => (**p).clone(),
        Type::NoTangent => Type::Nothing,
        Type::Array(e, n) => Type::Array(std::sync::Arc::new(primal_of_tangent(e)), *n),
        Type::Tuple(ts) => Type::tuple(ts.iter().map(primal_of_tangent).collect()),
        Type::NamedTuple(ns, ts) => Type::NamedTuple(
            ns.clone(),
            ts.iter().map(primal_of_tangent).collect::<Vec<_>>().into(),
        ),
        _ => t.clone(),
    }
}
