# check: f([0.5, -1.0, 2.0, 0.25])
function f(x)
    n = length(x)
    y = zeros(n)
    for i in 1:n
        y[n - i + 1] = x[i] * i
    end
    dot(y, x)
end
