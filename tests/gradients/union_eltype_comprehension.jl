# check: h([0.5, 0.7]) => 1.2
# check: h([-0.5, 0.7]) => 0.7
# check: h2([-0.5, 0.7]) => 0.7
# check: h3([0.5, 0.7]) => 1.2
# Elements of type Union{Int64, Float64}: the comprehension's array widens to Vector{Real}
# when an Int64 comes first, and `sum` starts from the first element (no `zero(Real)`).
h(x) = sum([i > 0 ? i : 0 for i in x])
h2(x) = sum(ifelse(i > 0, i, 0) for i in x)
h3(x) = sum(Real[x[1], x[2]])
