# check: f(3.0) => 6.0
# check: g([1.0], 2.0) => 4.0
# A reassigned captured variable (boxed, so untyped): the loop over `1:length(y)` runs on
# values known only at run time, whose tuples are destructured by position.
function f(b)
    y = [b, b]
    for i in 1:length(y)
    end
    b = 2b
    (() -> b)()
end
function g(x, a)
    a = 2a
    x[1] = (() -> a)()
    x[1]
end
