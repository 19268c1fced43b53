# check: find([0.2, 0.5, 1.2], 0.9)
# check: find([0.1, 0.1], 5.0)
function find(x, t)
    for i in eachindex(x)
        for j in 1:i
            if x[i] * j > t
                return x[i] * j + t
            end
        end
    end
    return t * 2
end
