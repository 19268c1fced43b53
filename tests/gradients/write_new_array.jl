# check: f([0.5, -0.7, 1.1])
function f(x)
    y = similar(x)
    for i in eachindex(x)
        y[i] = sin(x[i]) * i
    end
    dot(y, x)
end
