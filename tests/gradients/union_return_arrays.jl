# check: k(-1.0) => -10.0
# check: k(1.5) => 3.0
# A callee returning a vector on one path and a matrix on the other (a union-typed result).
function h(x)
    if x > 0.0
        return [x, x]
    end
    [x 2x; 3x 4x]
end
k(x) = sum(h(x))
