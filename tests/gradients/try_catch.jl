# check: loglik(2.0)
# check: loglik(-2.0) => -1.0e10
# check: robust_sum([1.0, -2.0, 0.0, 3.0, 20.0, 4.0])
# check: with_else([0.4, 2.0])
# check: with_else([-0.4, 2.0])
# check: cleaned(1.5) => 4.375
# check: nested(-1.0)
# check: nested(1.0)
# check: nested(3.0)
# check: fresh_then_caught(2.0)
# check: fresh_then_caught(0.5)
# check: boxed_accumulator([0.5, 1.5, -0.5])
# check: returns_from_loop([0.3, 0.6, 2.0, 0.9])
# `try`/`catch`/`else`/`finally` differentiated: the branch the forwards pass took is the one
# the pullback reverses (the body's, or the handler's after a caught error), and `return`,
# `break` and `continue` leave the `try` as in the primal.
function loglik(θ)
    try
        return log(θ) * θ + θ^2
    catch e
        e isa DomainError || rethrow()
        return -1.0e10
    end
end
function robust_sum(v)
    s = 0.0
    for x in v
        try
            x < 0 && error("negative")
            abs(x) < 0.5 && continue
            x > 10 && break
            s += log(x) * x
        catch
            s += x^2
        end
    end
    s
end
function with_else(x)
    try
        y = sqrt(x[1])
    catch
        x[2]^3
    else
        x[1] * x[2]
    end
end
function cleaned(x)
    y = 0.0
    try
        y = x^3
    finally
        y += 1
    end
    y
end
function nested(x)
    try
        try
            x > 0 ? error("inner") : x^2
        catch e
            x > 2 && rethrow()
            sin(x) * x
        end
    catch
        cos(x)
    end
end
function fresh_then_caught(x)
    try
        w = [x, 2x]
        w[1] = w[2]^2
        x > 1 && error("too big")
        sum(w)
    catch
        3x^2
    end
end
# A variable of the function assigned inside the `try` (a boxed capture).
function boxed_accumulator(v)
    acc = 0.0
    for x in v
        try
            acc += x > 0 ? x^2 : error("skip")
        catch
            acc -= x
        end
    end
    acc
end
function returns_from_loop(v)
    total = 0.0
    for x in v
        try
            x > 1 && return total * x
            total += sin(x)
        catch
        end
    end
    total
end
