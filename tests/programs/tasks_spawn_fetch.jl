# Tasks: `Threads.@spawn` and `@async` make a task, `fetch` gives its value, `wait` waits for
# it, `@sync` for the tasks spawned in its block.
using Base.Threads
t = Threads.@spawn sum([1.0, 2.0])
println(fetch(t), " ", istaskdone(t), " ", typeof(t))
function batched(w, xs)
    tasks = [Threads.@spawn sum(abs2, w .* x) for x in xs]
    sum(fetch.(tasks))
end
function filled(w, xs)
    acc = zeros(length(xs))
    @sync for (i, x) in enumerate(xs)
        @spawn acc[i] = sum(w .* x)
    end
    acc
end
xs = [[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]]
println(batched([0.5, 2.0], xs), " ", filled([0.5, 2.0], xs))
r = @async 3 + 4
println(wait(r), " ", fetch(r))
v = @sync begin
    @spawn println("in a task")
    10
end
println(v)
