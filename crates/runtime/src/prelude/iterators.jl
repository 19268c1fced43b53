# `Base.Iterators`: lazy iterators, as Julia's (`Iterators.partition(1:n, 32)`, `take`,
# `drop`, `product`, `flatten`, ...). Each is a struct of Julia's fields iterated by the
# `iterate_start`/`iterate_done`/`iterate_next` protocol; `collect`, `sum`, `for` and the
# other consumers of iterables take them. A program's own names stay free: the struct Julia
# calls `Base.Iterators.Take` is `_Iterators_Take` here (and prints as Julia's), and
# `Iterators.filter`, `map`, `reverse`, `accumulate` and `rest`, whose plain names are Base's
# eager functions, are `_Iterators_filter` and so on (the compiler reads `Iterators.x` so).

# Reductions and `first` of any iterable, as of a collection (arrays, tuples and ranges have
# methods of their own).
sum(itr) = mapreduce(identity, +, itr)
prod(itr) = mapreduce(identity, *, itr)
maximum(itr) = mapreduce(identity, max, itr)
minimum(itr) = mapreduce(identity, min, itr)
function first(itr)
    st = iterate_start(itr)
    iterate_done(itr, st) && throw(ArgumentError("collection must be non-empty"))
    iterate_next(itr, st)[1]
end
isempty(itr) = iterate_done(itr, iterate_start(itr))

# `take(itr, n)`: the first `n` elements (all, if fewer).
struct _Iterators_Take{I}
    xs::I
    n::Int64
end
function take(xs, n::Int64)
    n >= 0 || throw(ArgumentError("Take length must be non-negative"))
    _Iterators_Take(xs, n)
end
iterate_start(t::_Iterators_Take) = (t.n, iterate_start(t.xs))
iterate_done(t::_Iterators_Take, st) = st[1] <= 0 || iterate_done(t.xs, st[2])
function iterate_next(t::_Iterators_Take, st)
    x, s = iterate_next(t.xs, st[2])
    (x, (st[1] - 1, s))
end
length(t::_Iterators_Take) = min(length(t.xs), t.n)

# `drop(itr, n)`: all but the first `n` elements.
struct _Iterators_Drop{I}
    xs::I
    n::Int64
end
function drop(xs, n::Int64)
    n >= 0 || throw(ArgumentError("Drop length must be non-negative"))
    _Iterators_Drop(xs, n)
end
function iterate_start(d::_Iterators_Drop)
    st = iterate_start(d.xs)
    for _ in 1:d.n
        iterate_done(d.xs, st) && break
        st = iterate_next(d.xs, st)[2]
    end
    st
end
iterate_done(d::_Iterators_Drop, st) = iterate_done(d.xs, st)
iterate_next(d::_Iterators_Drop, st) = iterate_next(d.xs, st)
length(d::_Iterators_Drop) = max(length(d.xs) - d.n, 0)

# The state of an iterator that looks one element ahead: `nothing` at the end, else the next
# element and the state after it.
_ahead(itr, st) = iterate_done(itr, st) ? nothing : iterate_next(itr, st)

# `takewhile(pred, itr)`: the elements up to the first one `pred` rejects.
struct _Iterators_TakeWhile{I,P}
    pred::P
    xs::I
end
takewhile(pred, xs) = _Iterators_TakeWhile(pred, xs)
function _take_ok(t::_Iterators_TakeWhile, a)
    a === nothing && return nothing
    t.pred(a[1]) ? a : nothing
end
iterate_start(t::_Iterators_TakeWhile) = _take_ok(t, _ahead(t.xs, iterate_start(t.xs)))
iterate_done(t::_Iterators_TakeWhile, st) = st === nothing
iterate_next(t::_Iterators_TakeWhile, st) = (st[1], _take_ok(t, _ahead(t.xs, st[2])))

# `dropwhile(pred, itr)`: the elements from the first one `pred` rejects on.
struct _Iterators_DropWhile{I,P}
    pred::P
    xs::I
end
dropwhile(pred, xs) = _Iterators_DropWhile(pred, xs)
function iterate_start(d::_Iterators_DropWhile)
    a = _ahead(d.xs, iterate_start(d.xs))
    while a !== nothing && d.pred(a[1])
        a = _ahead(d.xs, a[2])
    end
    a
end
iterate_done(d::_Iterators_DropWhile, st) = st === nothing
iterate_next(d::_Iterators_DropWhile, st) = (st[1], _ahead(d.xs, st[2]))

# `flatten(itr)`: the elements of each element of `itr`, one after another.
struct _Iterators_Flatten{I}
    it::I
end
flatten(itr) = _Iterators_Flatten(itr)
flatmap(f, c...) = flatten(_Base_Generator(f, c...))
# The state: `nothing` at the end, else (the outer state after the current inner collection,
# that collection, its state), the inner one never at its end.
function _flatten_from(f::_Iterators_Flatten, so)
    while !iterate_done(f.it, so)
        inner, so = iterate_next(f.it, so)
        si = iterate_start(inner)
        iterate_done(inner, si) || return (so, inner, si)
    end
    nothing
end
iterate_start(f::_Iterators_Flatten) = _flatten_from(f, iterate_start(f.it))
iterate_done(f::_Iterators_Flatten, st) = st === nothing
function iterate_next(f::_Iterators_Flatten, st)
    so, inner, si = st
    x, si = iterate_next(inner, si)
    (x, iterate_done(inner, si) ? _flatten_from(f, so) : (so, inner, si))
end

# `repeated(x)`: `x` forever; `repeated(x, n)`: `n` times.
struct _Iterators_Repeated{O}
    x::O
end
repeated(x) = _Iterators_Repeated(x)
repeated(x, n::Int64) = take(repeated(x), n)
iterate_start(r::_Iterators_Repeated) = nothing
iterate_done(r::_Iterators_Repeated, st) = false
iterate_next(r::_Iterators_Repeated, st) = (r.x, nothing)

# `cycle(itr)`: the elements of `itr` again and again (nothing, if it has none).
struct _Iterators_Cycle{I}
    xs::I
end
cycle(xs) = _Iterators_Cycle(xs)
cycle(xs, n::Int64) = flatten(repeated(xs, n))
# (The state: whether there is nothing to cycle through, and the state in `xs`: one type
# from the start on.)
function iterate_start(c::_Iterators_Cycle)
    st = iterate_start(c.xs)
    (iterate_done(c.xs, st), st)
end
iterate_done(c::_Iterators_Cycle, st) = st[1]
function iterate_next(c::_Iterators_Cycle, st)
    x, s = iterate_next(c.xs, st[2])
    (x, (false, iterate_done(c.xs, s) ? iterate_start(c.xs) : s))
end

# `countfrom(start = 1, step = 1)`: `start`, `start + step`, ... forever.
struct _Iterators_Count{T,S}
    start::T
    step::S
end
countfrom(start = 1, step = 1) = _Iterators_Count(promote(start, step)...)
iterate_start(c::_Iterators_Count) = c.start
iterate_done(c::_Iterators_Count, st) = false
iterate_next(c::_Iterators_Count, st) = (st, st + c.step)

# `Iterators.rest(itr, state)`: the elements after `state`.
struct _Iterators_Rest{I,S}
    itr::I
    st::S
end
_Iterators_rest(itr, st) = _Iterators_Rest(itr, st)
_Iterators_rest(itr) = itr
iterate_start(r::_Iterators_Rest) = r.st
iterate_done(r::_Iterators_Rest, st) = iterate_done(r.itr, st)
iterate_next(r::_Iterators_Rest, st) = iterate_next(r.itr, st)

# `partition(itr, n)`: consecutive parts of `n` elements (the last may have fewer): ranges
# of a range, views of an array, vectors of anything else.
struct _Iterators_PartitionIterator{T}
    c::T
    n::Int64
end
function partition(c, n::Int64)
    n >= 1 || throw(ArgumentError(string("cannot create partitions of length ", n)))
    _Iterators_PartitionIterator(c, n)
end
length(p::_Iterators_PartitionIterator) = cld(length(p.c), p.n)
iterate_start(p::_Iterators_PartitionIterator{<:AbstractArray}) = firstindex(p.c)
iterate_done(p::_Iterators_PartitionIterator{<:AbstractArray}, i::Int64) = i > lastindex(p.c)
function iterate_next(p::_Iterators_PartitionIterator{<:AbstractRange}, i::Int64)
    j = min(i + p.n - 1, lastindex(p.c))
    (p.c[i:j], j + 1)
end
function iterate_next(p::_Iterators_PartitionIterator{<:AbstractArray}, i::Int64)
    j = min(i + p.n - 1, lastindex(p.c))
    (view(p.c, i:j), j + 1)
end
iterate_start(p::_Iterators_PartitionIterator) = _ahead(p.c, iterate_start(p.c))
iterate_done(p::_Iterators_PartitionIterator, st) = st === nothing
function iterate_next(p::_Iterators_PartitionIterator, st)
    part = [st[1]]
    a = _ahead(p.c, st[2])
    while a !== nothing && length(part) < p.n
        push!(part, a[1])
        a = _ahead(p.c, a[2])
    end
    (part, a)
end

# `product(iters...)`: every combination, as tuples, the first iterator varying fastest;
# `collect` makes an array with a dimension per iterator.
struct _Iterators_ProductIterator{T<:Tuple}
    iterators::T
end
product(iters...) = _Iterators_ProductIterator(iters)
size(p::_Iterators_ProductIterator) = map(length, p.iterators)
length(p::_Iterators_ProductIterator) = prod(size(p))
ndims(p::_Iterators_ProductIterator) = length(p.iterators)
# The k-th element of an iterable (by iterating, unless it can be indexed).
_nth(x::Union{AbstractArray,Tuple}, k::Int64) = x[firstindex(x) + k - 1]
function _nth(x, k::Int64)
    st = iterate_start(x)
    for _ in 1:k-1
        st = iterate_next(x, st)[2]
    end
    iterate_next(x, st)[1]
end
# The element at linear position `k` (0-based) of the product.
_product_at(its::Tuple{}, k::Int64) = ()
function _product_at(its::Tuple, k::Int64)
    n = length(its[1])
    (_nth(its[1], k % n + 1), _product_at(_tuple_tail(its...), div(k, n))...)
end
iterate_start(p::_Iterators_ProductIterator) = 0
iterate_done(p::_Iterators_ProductIterator, k::Int64) = k >= length(p)
iterate_next(p::_Iterators_ProductIterator, k::Int64) = (_product_at(p.iterators, k), k + 1)
collect(p::_Iterators_ProductIterator) = reshape([_product_at(p.iterators, k) for k in 0:length(p)-1], size(p))

# `Iterators.reverse(itr)`: the elements from the last.
struct _Iterators_Reverse{T}
    itr::T
end
_Iterators_reverse(itr) = _Iterators_Reverse(itr)
_Iterators_reverse(r::AbstractRange) = reverse(r)
length(r::_Iterators_Reverse) = length(r.itr)
iterate_start(r::_Iterators_Reverse) = lastindex(r.itr)
iterate_done(r::_Iterators_Reverse, i::Int64) = i < firstindex(r.itr)
iterate_next(r::_Iterators_Reverse, i::Int64) = (r.itr[i], i - 1)

# `Iterators.filter(flt, itr)`: the elements `flt` accepts.
struct _Iterators_Filter{F,I}
    flt::F
    itr::I
end
_Iterators_filter(flt, itr) = _Iterators_Filter(flt, itr)
function _filter_from(f::_Iterators_Filter, a)
    while a !== nothing && !f.flt(a[1])
        a = _ahead(f.itr, a[2])
    end
    a
end
iterate_start(f::_Iterators_Filter) = _filter_from(f, _ahead(f.itr, iterate_start(f.itr)))
iterate_done(f::_Iterators_Filter, st) = st === nothing
iterate_next(f::_Iterators_Filter, st) = (st[1], _filter_from(f, _ahead(f.itr, st[2])))

# `Iterators.map(f, iters...)`: `f` of each element (of the elements of each, together), as
# `(f(args...) for args in zip(iters...))`.
struct _Base_Generator{I,F}
    f::F
    iter::I
end
_Base_Generator(f, iter) = _Base_Generator{typeof(iter),typeof(f)}(f, iter)
_Base_Generator(f, a, b, cs...) = _Base_Generator(xs -> f(xs...), zip(a, b, cs...))
_Iterators_map(f, iters...) = _Base_Generator(f, iters...)
length(g::_Base_Generator) = length(g.iter)
iterate_start(g::_Base_Generator) = iterate_start(g.iter)
iterate_done(g::_Base_Generator, st) = iterate_done(g.iter, st)
function iterate_next(g::_Base_Generator, st)
    x, s = iterate_next(g.iter, st)
    (g.f(x), s)
end

# `Iterators.accumulate(f, itr; init)`: the running folds of `itr` (from `init` when given).
struct _Iterators_Accumulate{F,I,T}
    f::F
    itr::I
    init::T
end
_Iterators_accumulate(f, itr; init = _noinit) = _Iterators_Accumulate(f, itr, init)
length(a::_Iterators_Accumulate) = length(a.itr)
iterate_start(a::_Iterators_Accumulate) = (a.init, iterate_start(a.itr))
iterate_done(a::_Iterators_Accumulate, st) = iterate_done(a.itr, st[2])
function iterate_next(a::_Iterators_Accumulate, st)
    x, s = iterate_next(a.itr, st[2])
    acc = st[1] === _noinit ? x : a.f(st[1], x)
    (acc, (acc, s))
end

# `zip` of one iterator or of four and more (two and three have structs of their own).
struct _Iterators_Zip{Is<:Tuple}
    is::Is
end
zip(a) = _Iterators_Zip((a,))
zip(a, b, c, d, es...) = _Iterators_Zip((a, b, c, d, es...))
length(z::_Iterators_Zip) = minimum(map(length, z.is))
iterate_start(z::_Iterators_Zip) = map(iterate_start, z.is)
iterate_done(z::_Iterators_Zip, st) = any(map(iterate_done, z.is, st))
function iterate_next(z::_Iterators_Zip, st)
    ps = map(iterate_next, z.is, st)
    (map(first, ps), map(last, ps))
end
