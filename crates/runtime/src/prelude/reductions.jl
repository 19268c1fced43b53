# Reductions over dimensions and with `init`, running sums and products, extremes and their
# positions, and Statistics.

# Reductions of arrays with Julia's keywords: `dims` (the reduced dimensions keep length 1:
# `sum(A; dims = 1)` is a 1×n matrix) and `init` (the value the reduction starts from).
struct _NoInit end
const _noinit = _NoInit()
sum(a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(identity, +, a, dims, init)
sum(f, a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(f, +, a, dims, init)
prod(a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(identity, *, a, dims, init)
# Sums and products of Int8 ... Int32 add up as Int64s, of UInt8 ... UInt32 as UInt64s, as
# Julia's `add_sum` and `mul_prod` widen them.
_widen_small(x::_SmallSigned) = Int64(x)
_widen_small(x::_SmallUnsigned) = UInt64(x)
sum(a::AbstractArray{T}; dims = Colon(), init = _noinit) where {T<:Union{_SmallSigned,_SmallUnsigned}} =
    _reduce(_widen_small, +, a, dims, init)
prod(a::AbstractArray{T}; dims = Colon(), init = _noinit) where {T<:Union{_SmallSigned,_SmallUnsigned}} =
    _reduce(_widen_small, *, a, dims, init)
prod(f, a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(f, *, a, dims, init)
maximum(a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(identity, max, a, dims, init)
maximum(f, a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(f, max, a, dims, init)
minimum(a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(identity, min, a, dims, init)
minimum(f, a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(f, min, a, dims, init)
mapreduce(f, op, a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(f, op, a, dims, init)
reduce(op, a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(identity, op, a, dims, init)
# `any`/`all` over dimensions: `|`/`&` from `false`/`true`; over everything they stop at the
# first element that decides.
any(a::AbstractArray; dims = Colon()) = _any_dims(identity, a, dims)
any(f, a::AbstractArray; dims = Colon()) = _any_dims(f, a, dims)
all(a::AbstractArray; dims = Colon()) = _all_dims(identity, a, dims)
all(f, a::AbstractArray; dims = Colon()) = _all_dims(f, a, dims)
_any_dims(f, a, ::Colon) = _any_iter(f, a)
_any_dims(f, a, dims) = _reduce_dims(f, |, a, dims, false)
_all_dims(f, a, ::Colon) = _all_iter(f, a)
_all_dims(f, a, dims) = _reduce_dims(f, &, a, dims, true)
_reduce(f::typeof(identity), op::typeof(+), a, ::Colon, ::_NoInit) = _sum_all(a)
_reduce(f::typeof(identity), op::typeof(*), a, ::Colon, ::_NoInit) = _prod_all(a)
_reduce(f::typeof(identity), op::typeof(max), a, ::Colon, ::_NoInit) = _maximum_all(a)
_reduce(f::typeof(identity), op::typeof(min), a, ::Colon, ::_NoInit) = _minimum_all(a)
_reduce(f, op, a, ::Colon, ::_NoInit) = _mapreduce_iter(f, op, a)
function _reduce(f, op, a, ::Colon, init)
    acc = init
    for x in a
        acc = op(acc, f(x))
    end
    acc
end
_in_dims(d::Int64, dims::Int64) = d == dims
_in_dims(d::Int64, dims::Tuple) = d in dims
function _check_dims(dims)
    for d in dims
        d >= 1 || throw(ArgumentError(string("region dimension(s) must be ≥ 1, got ", d)))
    end
end
# The value a reduction over a dimension starts from: zero for `+`, one for `*`, the first
# element of the slice for `max` and `min`.
_dims_start(op::typeof(+), f, T, A, k::Int64) = zero(T) + zero(T)
_dims_start(op::typeof(*), f, T, A, k::Int64) = one(T) * one(T)
_dims_start(op, f, T, A, k::Int64) = f(A[k])
# (Chosen by dispatch on `init`, so that the result's type is known when compiling.)
_dims_init(op, f, T, A, k::Int64, init::_NoInit) = _dims_start(op, f, T, A, k)
_dims_init(op, f, T, A, k::Int64, init) = init
_dims_init_type(T, init::_NoInit) = typeof(zero(T) + zero(T))
_dims_init_type(T, init) = typeof(init)
_check_nonempty(op::typeof(+), init::_NoInit, empty::Bool) = nothing
_check_nonempty(op::typeof(*), init::_NoInit, empty::Bool) = nothing
function _check_nonempty(op, init::_NoInit, empty::Bool)
    if empty
        throw(ArgumentError("reducing over an empty collection is not allowed; consider supplying `init` to the reducer"))
    end
end
_check_nonempty(op, init, empty::Bool) = nothing
_reduce(f, op, a, dims, init) = _reduce_dims(f, op, a, dims, init)
function _reduce_dims(f, op, A::AbstractVector, dims, init)
    _check_dims(dims)
    if !_in_dims(1, dims)
        return map(f, A)
    end
    T = Core.return_type(f, eltype(A))
    _check_nonempty(op, init, length(A) == 0)
    acc = _dims_init(op, f, T, A, 1, init)
    for i in 1:length(A)
        acc = op(acc, f(A[i]))
    end
    R = Vector{typeof(acc)}(undef, 1)
    R[1] = acc
    R
end
function _reduce_dims(f, op, A::AbstractMatrix, dims, init)
    _check_dims(dims)
    m = size(A, 1)
    n = size(A, 2)
    r1 = _in_dims(1, dims)
    r2 = _in_dims(2, dims)
    rm = r1 ? 1 : m
    rn = r2 ? 1 : n
    T = Core.return_type(f, eltype(A))
    _check_nonempty(op, init, m == 0 || n == 0)
    R = Matrix{Core.promote_type(_dims_init_type(T, init), T)}(undef, rm, rn)
    for j in 1:rn, i in 1:rm
        R[i, j] = _dims_init(op, f, T, A, i + (j - 1) * m, init)
    end
    if r1 && !r2
        # Down each column (`dims = 1`): the same operations in the same order (each step
        # converted to `R`'s element type, as storing it would), with the running value kept
        # in a variable rather than in `R`.
        S = eltype(R)
        for j in 1:n
            acc = R[1, j]
            for i in 1:m
                acc = convert(S, op(acc, f(A[i, j])))
            end
            R[1, j] = acc
        end
        return R
    end
    for j in 1:n, i in 1:m
        ri = r1 ? 1 : i
        rj = r2 ? 1 : j
        R[ri, rj] = op(R[ri, rj], f(A[i, j]))
    end
    R
end

# Running sums and products, differences, extremes and their positions (vectors).
cumsum(x::AbstractVector; dims::Int64 = 1) = dims == 1 ? _cumsum_vec(x) : _cum_along(x, dims, typeof(zero(eltype(x)) + zero(eltype(x))))
cumprod(x::AbstractVector; dims::Int64 = 1) = dims == 1 ? _cumprod_vec(x) : _cum_along(x, dims, typeof(one(eltype(x)) * one(eltype(x))))
cumsum(A::AbstractMatrix; dims::Int64) = accumulate(+, A; dims = dims)
cumprod(A::AbstractMatrix; dims::Int64) = accumulate(*, A; dims = dims)
cumsum(A::AbstractArray; dims::Int64) = accumulate(+, A; dims = dims)
cumprod(A::AbstractArray; dims::Int64) = accumulate(*, A; dims = dims)
# A vector along a dimension other than 1: its elements, as the running result's type.
function _cum_along(x::AbstractVector, dims::Int64, ::Type{T}) where {T}
    dims >= 1 || throw(ArgumentError(string("dimension must be ≥ 1, got ", dims)))
    out = Vector{T}(undef, length(x))
    for i in 1:length(x)
        out[i] = x[i]
    end
    out
end
function _cumsum_vec(x::AbstractVector)
    out = Vector{typeof(zero(eltype(x)) + zero(eltype(x)))}(undef, length(x))
    length(x) == 0 && return out
    s = x[1] + zero(eltype(x))
    out[1] = s
    for i in 2:length(x)
        s += x[i]
        out[i] = s
    end
    out
end
function _cumprod_vec(x::AbstractVector)
    out = Vector{typeof(one(eltype(x)) * one(eltype(x)))}(undef, length(x))
    length(x) == 0 && return out
    s = x[1] * one(eltype(x))
    out[1] = s
    for i in 2:length(x)
        s *= x[i]
        out[i] = s
    end
    out
end
# Differences along one dimension: the array from index 2 on minus the array up to its
# second-to-last index, as views (a vector's along its only dimension).
diff(a::AbstractVector) = diff(a; dims = 1)
function diff(a::AbstractArray{T,N}; dims::Integer) where {T,N}
    1 <= dims <= N || throw(ArgumentError(string("dimension ", dims, " out of range (1:", N, ")")))
    r = axes(a)
    r0 = ntuple(i -> i == dims ? UnitRange(1, last(r[i]) - 1) : UnitRange(r[i]), Val(N))
    r1 = ntuple(i -> i == dims ? UnitRange(2, last(r[i])) : UnitRange(r[i]), Val(N))
    return view(a, r1...) .- view(a, r0...)
end
function diff(r::AbstractRange{T}; dims::Integer = 1) where {T}
    dims == 1 || throw(ArgumentError(string("dimension ", dims, " out of range (1:1)")))
    return T[r[i + 1] - r[i] for i in 1:length(r)-1]
end
function reverse(x::AbstractVector)
    n = length(x)
    out = Vector{eltype(x)}(undef, n)
    for i in 1:n
        out[i] = x[n + 1 - i]
    end
    out
end
# `reverse(v, start, stop)`: a copy with `v[start:stop]` reversed; `reverse!` in place.
function reverse(x::AbstractVector, start::Integer, stop::Integer = lastindex(x))
    reverse!(collect(x), start, stop)
end
function reverse!(x::AbstractVector, start::Integer = firstindex(x), stop::Integer = lastindex(x))
    if start < stop
        1 <= start <= length(x) || throw(BoundsError(x, start))
        1 <= stop <= length(x) || throw(BoundsError(x, stop))
    end
    i, j = start, stop
    while i < j
        x[i], x[j] = x[j], x[i]
        i += 1
        j -= 1
    end
    x
end
# Along dimensions (`dims` an integer or a tuple of them; all of them by default, so that
# `reverse(A)` of a matrix reverses both).
reverse(A::AbstractArray; dims = Colon()) = reverse!(collect(A); dims = dims)
reverse!(A::AbstractArray; dims = Colon()) = _reverse_dims!(A, dims)
_reverse_dims!(A::AbstractArray{T,N}, ::Colon) where {T,N} = _reverse_dims!(A, ntuple(identity, Val(N)))
_reverse_dims!(A::AbstractArray, d::Integer) = _reverse_dims!(A, (Int64(d),))
function _reverse_dims!(A::AbstractArray{T,N}, dims::Tuple) where {T,N}
    rev = ntuple(k -> k in dims, Val(N))
    if N < length(dims) || length(dims) != count(identity, rev)
        throw(ArgumentError(string("invalid dimensions ", dims, " in reverse!")))
    end
    length(dims) == 0 && return A
    src = copy(A)
    for I in CartesianIndices(A)
        A[I] = src[ntuple(k -> rev[k] ? size(A, k) + 1 - I[k] : I[k], Val(N))...]
    end
    A
end
# Julia's order for `findmax`/`findmin` (`cartesian.jl`): `isless`, where NaN beats every number.
_isless_num(a::AbstractFloat, b::AbstractFloat) = isnan(b) ? !isnan(a) : (isnan(a) ? false : (a < b || (a == b && signbit(a) && !signbit(b))))
_isless_num(a, b) = a < b
# `isgreater`: `isless` reversed for numbers, with NaN still the extreme.
_isgreater_num(a::AbstractFloat, b::AbstractFloat) = (isnan(a) || isnan(b)) ? _isless_num(a, b) : _isless_num(b, a)
_isgreater_num(a, b) = b < a
extrema(x::AbstractArray) = (minimum(x), maximum(x))
zero(A::AbstractArray{T}) where {T} = fill!(similar(A, typeof(zero(T))), zero(T))
# The identity matrix of a square matrix's size and element type.
function one(A::AbstractMatrix{T}) where {T}
    m, n = size(A)
    m == n || throw(DimensionMismatch("multiplicative identity defined only for square matrices"))
    u = one(T)
    out = fill!(similar(A, typeof(u), (m, m)), zero(u))
    for i in 1:m
        out[i, i] = u
    end
    out
end

# Statistics: `mean`, `var`, `std` (with `dims` and `corrected`), as Statistics.jl computes them.
mean(a::AbstractArray; dims = Colon()) = _mean(identity, a, dims)
mean(f, a::AbstractArray; dims = Colon()) = _mean(f, a, dims)
_mean(f, a, ::Colon) = sum(f, a) / length(a)
function _mean(f, a, dims)
    R = sum(f, a; dims = dims)
    n = div(length(a), length(R))
    R ./ n
end
function mean(itr)
    st = iterate_start(itr)
    if iterate_done(itr, st)
        throw(ArgumentError("mean of empty collection undefined: " * repr(itr)))
    end
    x, st = iterate_next(itr, st)
    total = x
    count = 1
    while !iterate_done(itr, st)
        x, st = iterate_next(itr, st)
        total += x
        count += 1
    end
    total / count
end
function var(a::AbstractArray; corrected::Bool = true, mean = nothing, dims = Colon())
    _var(a, corrected, mean, dims)
end
function _var(a, corrected::Bool, m, ::Colon)
    n = length(a)
    c = m === nothing ? mean(a) : m
    if n == 0
        return 0.0 / 0.0
    end
    s = mapreduce(x -> abs2(x - c), +, a)
    s / (n - Int64(corrected))
end
function _var(a, corrected::Bool, m, dims)
    c = m === nothing ? mean(a; dims = dims) : m
    n = div(length(a), length(c))
    s = sum(abs2, a .- c; dims = dims)
    s ./ (n - Int64(corrected))
end
# `varm(a, m)`, `stdm(a, m)` (Statistics): with the mean `m` given.
varm(a::AbstractArray, m; corrected::Bool = true, dims = Colon()) = _var(a, corrected, m, dims)
stdm(a::AbstractArray, m; corrected::Bool = true, dims = Colon()) = sqrt.(_var(a, corrected, m, dims))
std(a::AbstractArray; corrected::Bool = true, mean = nothing, dims = Colon()) = sqrt.(var(a; corrected = corrected, mean = mean, dims = dims))
# `median` (Statistics): the middle order statistic, or the `middle` of the two middle ones,
# found by selection (linear time on average), with Julia's order (`-0.0` before `0.0`); NaN if
# any element is NaN.
middle(x::AbstractFloat) = x
middle(x::Number) = (x + zero(x)) / 1
middle(x::Number, y::Number) = x / 2 + y / 2
function median(v::AbstractArray)
    isempty(v) && throw(ArgumentError(string("median of an empty array is undefined, ", repr(v))))
    w = Vector{eltype(v)}(undef, length(v))
    for k in 1:length(v)
        x = v[k]
        _isnan_any(x) && return convert(eltype(v), NaN)
        w[k] = x
    end
    n = length(w)
    mid = div(1 + n, 2)
    a = _select!(w, mid)
    isodd(n) && return middle(a)
    b = w[mid + 1]
    for k in (mid + 2):n
        if _isless_num(w[k], b)
            b = w[k]
        end
    end
    middle(a, b)
end
_isnan_any(x::AbstractFloat) = isnan(x)
_isnan_any(x) = false
# The k-th smallest element of `w` (rearranged so that the elements after position k are not
# smaller): Hoare's selection.
function _select!(w::Vector, k::Int64)
    lo = 1
    hi = length(w)
    while lo < hi
        p = w[div(lo + hi, 2)]
        i = lo
        j = hi
        while i <= j
            while _isless_num(w[i], p)
                i += 1
            end
            while _isless_num(p, w[j])
                j -= 1
            end
            if i <= j
                t = w[i]
                w[i] = w[j]
                w[j] = t
                i += 1
                j -= 1
            end
        end
        if k <= j
            hi = j
        elseif k >= i
            lo = i
        else
            return w[k]
        end
    end
    w[k]
end
+(a, b, c, xs...) = +(a + b, c, xs...)
*(a, b, c, xs...) = *(a * b, c, xs...)
max(a, b, c, xs...) = max(max(a, b), c, xs...)
min(a, b, c, xs...) = min(min(a, b), c, xs...)
sum(t::Tuple) = mapreduce(identity, +, t)
prod(t::Tuple) = mapreduce(identity, *, t)
maximum(t::Tuple) = mapreduce(identity, max, t)
minimum(t::Tuple) = mapreduce(identity, min, t)
sum(t::NamedTuple) = sum(Tuple(t))
prod(t::NamedTuple) = prod(Tuple(t))
maximum(t::NamedTuple) = maximum(Tuple(t))
minimum(t::NamedTuple) = minimum(Tuple(t))
# A number is a collection of one element (`sum(3) == 3`, `sum(abs2, -2) == 4`); a sum of
# `Bool`s counts them.
_sum1(x) = x
_sum1(x::Bool) = Int64(x)
sum(x::Union{Int64,Float64,Float32}) = x
sum(f, x::Union{Int64,Float64,Float32}) = _sum1(f(x))
prod(x::Union{Int64,Float64,Float32}) = x
prod(f, x::Union{Int64,Float64,Float32}) = f(x)
maximum(x::Union{Int64,Float64,Float32}) = x
maximum(f, x::Union{Int64,Float64,Float32}) = f(x)
minimum(x::Union{Int64,Float64,Float32}) = x
minimum(f, x::Union{Int64,Float64,Float32}) = f(x)
any(f, itr) = _any_iter(f, itr)
all(f, itr) = _all_iter(f, itr)
function _any_iter(f, itr)
    for x in itr
        if f(x)
            return true
        end
    end
    false
end
function _all_iter(f, itr)
    for x in itr
        if !f(x)
            return false
        end
    end
    true
end
count(itr) = count(identity, itr)
function count(f, itr)
    n = 0
    for x in itr
        if f(x)
            n += 1
        end
    end
    n
end
function filter(f, a::AbstractArray{T,N}) where {T,N}
    out = Vector{T}(undef, 0)
    for x in a
        if f(x)
            push!(out, x)
        end
    end
    out
end

# Covariance and correlation, as Statistics computes them: centred data, then `sum(abs2, x)`,
# `y' * x` or `X' * X` (`X * X'` along rows), scaled by 1/(n - 1) (1/n when not `corrected`);
# correlations clamped to [-1, 1].
function cov(x::AbstractVector; corrected::Bool = true)
    m = mean(x)
    sum(abs2, map(t -> t - m, x)) / (length(x) - Int(corrected))
end
function cov(x::AbstractVector, y::AbstractVector; corrected::Bool = true)
    mx = mean(x)
    my = mean(y)
    xc = map(t -> t - mx, x)
    yc = map(t -> t - my, y)
    (isempty(xc) || isempty(yc)) && throw(ArgumentError("covariance only defined for non-empty vectors"))
    (adjoint(yc) * xc) / (length(x) - Int(corrected))
end
_unscaled_cov(X::AbstractMatrix, dims::Int64) = dims == 1 ? copy(adjoint(X)) * X : X * copy(adjoint(X))
function cov(X::AbstractMatrix; dims::Int64 = 1, corrected::Bool = true)
    C = _unscaled_cov(X .- mean(X; dims = dims), dims)
    b = 1 / (size(X, dims) - Int(corrected))
    C .* b
end
_clampcor(x::Real) = clamp(x, -one(x), one(x))
cor(x::AbstractVector) = one(float(eltype(x)))
function cor(x::AbstractVector, y::AbstractVector)
    n = length(x)
    length(y) == n || throw(DimensionMismatch("inconsistent lengths"))
    n > 0 || throw(ArgumentError("correlation only defined for non-empty vectors"))
    mx = mean(x)
    my = mean(y)
    xx = zero(sqrt(abs2(one(x[1]))))
    yy = zero(sqrt(abs2(one(y[1]))))
    xy = zero(x[1] * y[1])
    for i in 1:n
        xi = x[i] - mx
        yi = y[i] - my
        xx += abs2(xi)
        yy += abs2(yi)
        xy += xi * yi
    end
    _clampcor(xy / max(xx, yy) / sqrt(min(xx, yy) / max(xx, yy)))
end
function cor(X::AbstractMatrix; dims::Int64 = 1)
    C = _unscaled_cov(X .- mean(X; dims = dims), dims)
    nx = min(size(C, 1), size(C, 2))
    sd = [sqrt(C[i, i]) for i in 1:nx]
    for j in 1:nx
        for i in 1:(j - 1)
            C[i, j] = C[j, i]
        end
        C[j, j] = one(eltype(C))
        for i in (j + 1):nx
            C[i, j] = _clampcor(C[i, j] / (sd[i] * sd[j]))
        end
    end
    C
end

# Quantiles (Statistics): Julia's definition 7 by default (`alpha = beta = 1`), interpolating
# between the order statistics around `(n - 1) p + 1`; `p` a probability or a collection of them.
function quantile(v::AbstractVector, p; sorted::Bool = false, alpha::Real = 1.0, beta::Real = alpha)
    isempty(v) && throw(ArgumentError("empty data vector"))
    w = sorted ? v : sort(v)
    for x in w
        _isnan_any(x) && throw(ArgumentError("quantiles are undefined in presence of NaNs or missing values"))
    end
    p isa Real ? _quantile(w, p, alpha, beta) : map(q -> _quantile(w, q, alpha, beta), p)
end
quantile(f::Function, v, p; sorted::Bool = false, alpha::Real = 1.0, beta::Real = alpha) =
    quantile(map(f, v), p; sorted = sorted, alpha = alpha, beta = beta)
function _quantile(v, p::Real, alpha::Real, beta::Real)
    0 <= p <= 1 || throw(ArgumentError("input probability out of [0,1] range"))
    0 <= alpha <= 1 || throw(ArgumentError("alpha parameter out of [0,1] range"))
    0 <= beta <= 1 || throw(ArgumentError("beta parameter out of [0,1] range"))
    n = length(v)
    m = alpha + p * (one(alpha) - alpha - beta)
    aleph = fma(float(n), p, oftype(p, m))
    j = clamp(trunc(Int, aleph), 1, n - 1)
    γ = clamp(aleph - j, 0, 1)
    a = n == 1 ? v[1] : v[j]
    b = n == 1 ? v[1] : v[j + 1]
    if isfinite(a) && isfinite(b) && a ≈ b
        a + γ * (b - a)
    else
        (1 - γ) * a + γ * b
    end
end
