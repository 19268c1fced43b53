# call: orbit(0.25 + 0.5im, 20)
# stages: optimised
# A complex number carried around a loop is carried as its two parts: no struct is built
# per iteration, only the one returned.
function orbit(c, n)
    z = zero(c)
    for k in 1:n
        z = z * z + c
    end
    z
end
