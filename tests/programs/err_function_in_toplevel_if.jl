# A function defined inside a top-level `if` is not supported yet: an error at the definition.
if true
    double(x) = 2x
end
println(double(2))
