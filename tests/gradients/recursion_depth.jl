# check: depth(0.3, 10)
function depth(x, n)
    n == 0 && return x
    depth(sin(x) + x, n - 1)
end
