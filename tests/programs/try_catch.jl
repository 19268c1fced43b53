# `try`/`catch`/`else`/`finally`: values, the exception values a `catch` block receives (of
# Julia's types, with Julia's fields), `rethrow`, and `return`/`break`/`continue` leaving a
# `try` from any of its blocks.
x = try
    sqrt(-1.0)
catch e
    println("caught a ", typeof(e), " with value ", e.val)
    -Inf
end
println(x)
y = try
    1 + 1
catch
    0
end
println(y)
z = try
    error("boom")
catch
end
println(z === nothing)
function loglik(θ)
    try
        return log(θ)
    catch err
        err isa DomainError || rethrow()
        return -Inf
    end
end
println(loglik(2.0), " ", loglik(-1.0))
function positives(v)
    s = 0.0
    for x in v
        try
            x < 0 && error("negative: ", x)
            x == 0 && continue
            x > 10 && break
            s += log(x)
        catch e
            println("skipped: ", e.msg)
        end
    end
    s
end
println(positives([1.0, -2.0, 0.0, 3.0, 20.0, 4.0]))
function with_else(x)
    try
        sqrt(x)
    catch e
        println("  caught ", typeof(e))
        0.0
    else
        println("  no error")
        1.0
    finally
        println("  finally")
    end
end
println(with_else(4.0))
println(with_else(-4.0))
function nested(k)
    try
        try
            error("inner $k")
        catch e
            println("inner caught: ", e.msg)
            rethrow()
        end
    catch e2
        println("outer caught: ", e2.msg)
        return 42
    end
    return 0
end
println(nested(1))
function cleanup_order()
    for i in 1:5
        try
            i == 2 && continue
            i == 4 && break
            println("body ", i)
        finally
            println("finally ", i)
        end
    end
    "loop over"
end
println(cleanup_order())
function returns_from_finally_body()
    try
        return "from the body"
    finally
        println("finally runs before the return")
    end
end
println(returns_from_finally_body())
# Julia's exception types, with their fields.
b = try
    [1, 2, 3][5]
catch e
    e
end
println(b, " ", typeof(b), " ", b.a, " ", b.i)
ie = try
    Int(2.5)
catch e
    e
end
println(ie, " ", (ie.func, ie.T, ie.val))
me = try
    sin("x")
catch e
    e
end
println(typeof(me), " ", me.f, " ", me.args)
ue = try
    not_defined_anywhere + 1
catch e
    e
end
println(typeof(ue), " ", ue.var)
te = try
    convert(Float64, 1.0)::Int
catch e
    e
end
println(typeof(te), " ", te.func, " ", te.expected, " ", te.got)
de = try
    div(1, 0)
catch e
    e
end
println(de)
ae = try
    @assert 1 > 2 "one is not above two"
catch e
    e
end
println(ae)
dm = try
    [1, 2] .+ [1, 2, 3]
catch e
    e
end
println(typeof(dm))
# `throw` of any value; a program's own exception type.
println(try
    throw(3.5)
catch e
    e + 1
end)
println(try
    throw((1, "two"))
catch e
    e[2]
end)
struct ShapeError <: Exception
    got::Int
    expected::Int
end
function check_shape(n)
    n == 3 || throw(ShapeError(n, 3))
    "fine"
end
function describe(n)
    try
        check_shape(n)
    catch e
        e isa ShapeError ? "shape $(e.got), not $(e.expected)" : rethrow()
    end
end
println(describe(3), "; ", describe(5))
println(ShapeError(1, 2) isa Exception)
# An error inside a `catch` block is raised from there.
println(try
    try
        error("first")
    catch
        error("second")
    end
catch e
    e.msg
end)
# `showerror` writes what an uncaught error reports.
msg = try
    log(-1.0)
catch e
    sprint(showerror, e)
end
println(msg)
println(sprint(showerror, ErrorException("plain")))
println(sprint(showerror, BoundsError([1.0, 2.0], (3,))))
println(sprint(showerror, ShapeError(1, 2)))
