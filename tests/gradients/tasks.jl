# Losses over a batch computed in tasks (`Threads.@spawn` / `fetch`).
# check: batched([0.5, 2.0], [[1.0, 2.0], [3.0, -1.0]])
# check: filled([0.5, 2.0], [[1.0, 2.0], [3.0, -1.0]])
function batched(w, xs)
    tasks = [Threads.@spawn sum(abs2, w .* x) for x in xs]
    sum(fetch.(tasks))
end
function filled(w, xs)
    acc = zeros(length(xs))
    @sync for (i, x) in enumerate(xs)
        Threads.@spawn acc[i] = sum(sin, w .* x)
    end
    sum(abs2, acc)
end
