# Threads: `Threads.@threads` loops (the parser rewrites each into a call of `_threads_for`
# with the loop body as a function of a range of iteration numbers), the thread queries, and
# `threaded_map!`.

nthreads() = Core.nthreads()
maxthreadid() = Core.nthreads()
threadid() = Core.threadid()

# Runs `body(first, last)` for each thread's share of the iterations `1:length(r)` (numbers
# into `r`), divided as Julia divides them, on the threads. `disjoint` names the captured
# arrays the body indexes only with the loop variable last (as `((:x, 1), (:A, 2))`, with
# the number of indices): reverse mode updates their tangents from every thread at once,
# which is safe when the loop runs over distinct integers.
function _threads_for(body::F, r, disjoint) where {F}
    nt = Core.nthreads()
    Core.threads_run(body, firstindex(r), length(r), nt, _share_rngs(nt),
                     _distinct_integers(r) ? disjoint : ())
    nothing
end

_distinct_integers(r::Union{UnitRange{Int},OneTo{Int}}) = true
_distinct_integers(r::StepRange{Int,Int}) = r.step != 0
_distinct_integers(r) = false

# What forward mode and second order differentiate instead of `_threads_for`: the same
# shares, one after another, each seeing its thread id and drawing from its generator.
function _threads_for_ad(body::F, r, disjoint) where {F}
    first = firstindex(r)
    n = length(r)
    nt = Core.nthreads()
    rngs = _share_rngs(nt)
    for tid in 1:nt
        f, l = Core.chunk_range(first, n, nt, tid)
        f > l && break
        Core.chunk_enter(tid, rngs[tid])
        body(f, l)
        Core.chunk_leave()
    end
    nothing
end

function _threaded_map_check(out, xs)
    for x in xs
        if length(x) != length(out)
            throw(DimensionMismatch(string("threaded_map!: every input must have the output's length ",
                length(out), ", got ", length(x))))
        end
    end
    nothing
end

# `out[i] = f(x1[i], x2[i], ...)` for every `i`, on the threads; returns `out`.
function threaded_map!(f::F, out::AbstractArray, x::AbstractArray) where {F}
    _threaded_map_check(out, (x,))
    Threads.@threads for i in eachindex(out)
        out[i] = f(x[i])
    end
    out
end
function threaded_map!(f::F, out::AbstractArray, x::AbstractArray, y::AbstractArray) where {F}
    _threaded_map_check(out, (x, y))
    Threads.@threads for i in eachindex(out)
        out[i] = f(x[i], y[i])
    end
    out
end
function threaded_map!(f::F, out::AbstractArray, x::AbstractArray, y::AbstractArray,
                       zs::AbstractArray...) where {F}
    _threaded_map_check(out, (x, y, zs...))
    Threads.@threads for i in eachindex(out)
        out[i] = f(x[i], y[i], map(z -> z[i], zs)...)
    end
    out
end

# Tasks (`Threads.@spawn expr`, `@async expr`): the task runs `expr` to completion when it is
# spawned, on the spawning thread (a schedule Julia's scheduler may also choose, so a program
# whose tasks do not race gets Julia's results); `fetch` gives its value, `wait` returns once it
# is done, `@sync` waits for the tasks of its block.
mutable struct Task
    result::Any
end
_spawn(f) = Task(f())
fetch(t::Task) = t.result
wait(t::Task) = nothing
istaskdone(t::Task) = true
istaskstarted(t::Task) = true
istaskfailed(t::Task) = false
