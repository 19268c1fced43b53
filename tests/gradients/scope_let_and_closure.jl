# check: f(1.5) => 13.5
# `s` is the function's local although the closure assigning it is written first; `let`
# bindings are made in order (`b` sees the new `a`).
function f(x)
    body = i -> (s = s + x * i)
    s = 0.0
    for i in 1:3
        body(i)
    end
    let a = s, b = a * x
        b
    end
end
