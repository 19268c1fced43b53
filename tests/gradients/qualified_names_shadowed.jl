# `Base.max`, `Base.sum` beside locals of the same name.
# check: largest_plus_total([3.0, 7.0, 5.0])
function largest_plus_total(x)
    max = x[1]
    sum = 0.0
    for v in x
        max = Base.max(max, v)
        sum += v * v
    end
    max + sum + Base.sum(x)
end
