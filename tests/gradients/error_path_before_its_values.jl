# check: f([-0.5, 1.741], 1.654) => 1.654
# An error path (the DomainError of a float power) laid out before the block computing the
# value it reports, behind a constant-true branch with an empty loop and an empty `if`.
function f(x, b)
    if 0.15 != 0.7
        for i in ()
        end
        if x[1] < x[1]
        end
    end
    exp(b)^2.5
    b
end
