# An uncaught error of a program's exception type is reported through its own `showerror`.
struct NegativeRate <: Exception
    rate::Float64
end
Base.showerror(io::IO, e::NegativeRate) = print(io, "NegativeRate: the rate ", e.rate, " is below zero")
decay(r) = r < 0 ? throw(NegativeRate(r)) : exp(-r)
println(decay(0.5))
println(try
    decay(-1.0)
catch e
    sprint(showerror, e)
end)
decay(-2.0)
