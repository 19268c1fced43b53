# check: fibx(0.7, 5)
# check: fibx(1.1, 1)
function fibx(x, n)
    a, b = 1.0, x
    for i in 1:n
        a, b = b, a + b * x
    end
    a * b
end
