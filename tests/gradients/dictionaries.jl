# check: regression_loss(params0(), [1.0, 2.0, 3.0, 4.0])
# check: built_inside([0.3, 1.5, -0.7])
# check: grouped_means([0.5, 1.5, -2.0, 0.25, 3.0, 1.0])
# check: array_values(layers0())
# check: set_filtered_sum([0.4, 1.2, -0.3, 2.0])
# check: identity_keyed([1.5, -0.5])
# Dictionaries of parameters and dictionaries built during a computation: a regression whose
# parameters are a `Dict{Symbol,Float64}`, a table filled, rehashed and thinned inside the
# function, sums grouped by key, a dictionary of weight arrays, a set deciding which terms
# count, and an `IdDict`.
params0() = Dict(:slope => 0.5, :intercept => -1.0, :scale => 2.0)
function regression_loss(p, xs)
    s = 0.0
    for x in xs
        s += (p[:slope] * x + p[:intercept] - 2x)^2
    end
    s / p[:scale]^2 + log(p[:scale])
end
function built_inside(w)
    d = Dict{Int,Float64}()
    for i in 1:40
        d[i] = w[1] * i + w[3]
    end
    delete!(d, 3)
    d[100] = w[2]
    d[7] *= w[2]
    sum(values(d)) + d[100]^2 + get(d, 200, w[3]^2)
end
function grouped_means(v)
    sums = Dict{Int,Float64}()
    counts = Dict{Int,Int}()
    for (i, x) in enumerate(v)
        g = i % 3
        sums[g] = get(sums, g, 0.0) + x^2
        counts[g] = get(counts, g, 0) + 1
    end
    total = 0.0
    for (g, s) in sums
        total += sin(s / counts[g]) * (g + 1)
    end
    total
end
layers0() = Dict("w1" => [0.5, -0.25, 1.0], "w2" => [2.0, 0.75, -1.5])
function array_values(layers)
    h = tanh.(layers["w1"] .* 1.5)
    sum(abs2, h .* layers["w2"]) + sum(layers["w1"])
end
function set_filtered_sum(v)
    keep = Set([1, 3, 4])
    s = 0.0
    for i in eachindex(v)
        s += i in keep ? v[i]^3 : 2v[i]
    end
    s
end
function identity_keyed(w)
    a, b = [1, 2], [1, 2]
    d = IdDict{Vector{Int},Float64}()
    d[a] = w[1]
    d[b] = w[2]
    d[a] * exp(d[b])
end
