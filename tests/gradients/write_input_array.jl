# check: f!([0.5, -0.7, 1.1])
function f!(x)
    for i in eachindex(x)
        x[i] = x[i]^2 + 1
    end
    sum(x) * x[1]
end
