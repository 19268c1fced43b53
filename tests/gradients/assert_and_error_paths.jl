# check: f(2.5)
function f(x)
    @assert x > 0.0 "x must be positive"
    x < 100.0 || error("too big: ", x)
    sqrt(x) * log(x)
end
