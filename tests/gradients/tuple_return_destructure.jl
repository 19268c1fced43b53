# check: f([0.3, 1.2, -0.4, 0.9])
function stats(x)
    s = 0.0
    q = 0.0
    for xi in x
        s += xi
        q += xi^2
    end
    (s, q)
end
function f(x)
    s, q = stats(x)
    q / length(x) - (s / length(x))^2
end
