# check: f(0.6)
function f(x)
    p = (w = x, b = 2x, label = "lin")
    p.w * 3 + p.b^2
end
