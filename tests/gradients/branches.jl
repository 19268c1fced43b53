# check: f(1.5)
# check: f(0.5)
# check: f(-2.0)
function f(x)
    if x > 1.0
        x^3
    elseif x > 0.0
        2x
    else
        -x / 2
    end
end
