# check: horner(0.7)
function horner(x)
    c = [1.0, -2.0, 0.5, 3.0]
    s = 0.0
    for i in length(c):-1:1
        s = s * x + c[i]
    end
    s
end
