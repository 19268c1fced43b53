# Sorting: `sort`, `sort!`, `sortperm`, `issorted` with the keywords `lt`, `by` and `rev`, and
# `isless`, the order they use by default. Sorts are stable (equal elements keep their order),
# as Julia's default sorts are, so every result is exactly Julia's.

# Julia's total order on numbers: -0.0 before 0.0, NaN after everything.
isless(a::AbstractFloat, b::AbstractFloat) = _isless_num(a, b)
isless(a::Real, b::Real) = _isless_mixed(promote(a, b)...)
_isless_mixed(a::AbstractFloat, b::AbstractFloat) = _isless_num(a, b)
_isless_mixed(a, b) = a < b

# Whether `a` goes before `b` under `lt` applied to `by` of each (reversed with `rev`).
_sorts_before(a, b, lt, by, rev::Bool) = rev ? lt(by(b), by(a)) : lt(by(a), by(b))

# Stable merge sort of `v[lo:hi]`, with `w` as scratch space; short runs by insertion.
function _merge_sort!(v::AbstractVector, lo::Int64, hi::Int64, w::AbstractVector, lt, by, rev::Bool)
    if hi - lo < 16
        for i in lo+1:hi
            x = v[i]
            j = i - 1
            while j >= lo && _sorts_before(x, v[j], lt, by, rev)
                v[j+1] = v[j]
                j -= 1
            end
            v[j+1] = x
        end
        return v
    end
    mid = (lo + hi) >>> 1
    _merge_sort!(v, lo, mid, w, lt, by, rev)
    _merge_sort!(v, mid + 1, hi, w, lt, by, rev)
    # Already in order: nothing to merge.
    _sorts_before(v[mid+1], v[mid], lt, by, rev) || return v
    for k in lo:mid
        w[k-lo+1] = v[k]
    end
    i = 1
    n = mid - lo + 1
    j = mid + 1
    k = lo
    while i <= n && j <= hi
        # Take from the right half only when strictly before: stability.
        if _sorts_before(v[j], w[i], lt, by, rev)
            v[k] = v[j]
            j += 1
        else
            v[k] = w[i]
            i += 1
        end
        k += 1
    end
    while i <= n
        v[k] = w[i]
        i += 1
        k += 1
    end
    v
end

function sort!(v::AbstractVector; lt = isless, by = identity, rev::Bool = false)
    n = length(v)
    n < 2 && return v
    w = similar(v, (n + 1) >>> 1)
    _merge_sort!(v, 1, n, w, lt, by, rev)
end
# A range reversed or sorted is a range, as Julia's (`reverse(1:3)` is `3:-1:1`, `sort(1:3)`
# is `1:3`); with keywords, `sort` makes a vector.
reverse(r::Union{UnitRange{Int64},OneTo{Int64},StepRange{Int64,Int64}}) = last(r):-step(r):first(r)
function reverse(r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64})
    _srl_reverse_check(r)
    _srl(r.ref, _tp_neg(r.step), r.len, r.len - r.offset + 1)
end
function reverse(r::StepRangeLen{Int64,Int64,Int64,Int64})
    _srl_reverse_check(r)
    StepRangeLen(r.ref, -r.step, r.len, r.len - r.offset + 1)
end
# (The offset `len - offset + 1` is out of range for an empty range: Julia's constructor error.)
function _srl_reverse_check(r::StepRangeLen)
    off = r.len - r.offset + 1
    if !(1 <= off <= max(1, r.len))
        throw(ArgumentError(string("StepRangeLen: offset must be in [1,", r.len, "], got ", off)))
    end
end
reverse(r::LinRange{Float64,Int64}) = LinRange{Float64,Int64}(r.stop, r.start, r.len, r.lendiv)
sort(r::Union{UnitRange{Int64},OneTo{Int64}}) = r
sort(r::AbstractRange) = issorted(r) ? r : reverse(r)
sort(v::AbstractVector; lt = isless, by = identity, rev::Bool = false) = sort!(collect(v); lt = lt, by = by, rev = rev)

# The permutation that sorts `v`: `v[sortperm(v)] == sort(v)`, ties in their original order.
function sortperm(v::AbstractVector; lt = isless, by = identity, rev::Bool = false)
    p = collect(1:length(v))
    sort!(p; lt = (i, j) -> lt(by(v[i]), by(v[j])), rev = rev)
end

# Sorting a matrix along a dimension sorts each column (`dims = 1`) or row (`dims = 2`).
function sort(A::AbstractMatrix; dims::Int64, lt = isless, by = identity, rev::Bool = false)
    B = copy(A)
    if dims == 1
        for j in 1:size(B, 2)
            B[:, j] = sort!(B[:, j]; lt = lt, by = by, rev = rev)
        end
    elseif dims == 2
        for i in 1:size(B, 1)
            B[i, :] = sort!(B[i, :]; lt = lt, by = by, rev = rev)
        end
    else
        throw(ArgumentError(string("dimension out of range: dims = ", dims)))
    end
    B
end

function issorted(v::AbstractVector; lt = isless, by = identity, rev::Bool = false)
    for i in 2:length(v)
        _sorts_before(v[i], v[i-1], lt, by, rev) && return false
    end
    true
end

# The `k`-th element of `v` in sorted order (a view of the sorted elements for a range `k`).
function partialsort(v::AbstractVector, k; lt = isless, by = identity, rev::Bool = false)
    s = sort(v; lt = lt, by = by, rev = rev)
    k isa Integer ? s[k] : view(s, k)
end

# The distinct elements of `itr` (by `isequal`), in the order of their first occurrence.
function unique(itr)
    v = collect(itr)
    n = length(v)
    keep = fill(false, n)
    if _sortable(eltype(v))
        # Sorted stably, equal elements are neighbours with the first occurrence first.
        p = sortperm(v)
        for k in 1:n
            if k == 1 || !isequal(v[p[k]], v[p[k - 1]])
                keep[p[k]] = true
            end
        end
    else
        for k in 1:n
            seen = false
            for j in 1:(k - 1)
                if keep[j] && isequal(v[j], v[k])
                    seen = true
                    break
                end
            end
            keep[k] = !seen
        end
    end
    v[keep]
end
# Element types `unique` finds duplicates of by sorting (else by comparing every pair).
_sortable(::Type{T}) where {T<:Real} = true
_sortable(::Type{String}) = true
_sortable(T) = false

# Binary search in a vector sorted in the order the keywords give (as for `sort`; `by` applies
# to `x` too): the first index whose element does not sort before `x` (`length(v) + 1` if
# none), the last whose element `x` does not sort before (0 if none), and the range between.
searchsortedfirst(v::AbstractVector, x; lt = isless, by = identity, rev::Bool = false) =
    _prefix_length(y -> _sorts_before(y, x, lt, by, rev), v) + 1
searchsortedlast(v::AbstractVector, x; lt = isless, by = identity, rev::Bool = false) =
    _prefix_length(y -> !_sorts_before(x, y, lt, by, rev), v)
function searchsorted(v::AbstractVector, x; lt = isless, by = identity, rev::Bool = false)
    searchsortedfirst(v, x; lt = lt, by = by, rev = rev):searchsortedlast(v, x; lt = lt, by = by, rev = rev)
end
# How many leading elements of `v` satisfy `p`, for a `p` that holds on a prefix of `v`.
function _prefix_length(p, v::AbstractVector)
    lo = 0
    hi = length(v) + 1
    while lo < hi - 1
        m = (lo + hi) >>> 1
        if p(v[m])
            lo = m
        else
            hi = m
        end
    end
    lo
end
