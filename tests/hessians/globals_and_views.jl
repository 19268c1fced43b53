# Second derivatives of functions that read constant globals and write into a global array
# (the cotangent of what they write flows back through the global).
# hessian: f([1.0, 2.0])
# hessian: g([1.0, 2.0])
# hessian: with_views([0.3, -0.8, 1.2])
const W = [1.0 2.0; 3.0 4.0]
const c = 3.0
const scratch = zeros(2)
function f(x)
    y = W * x
    sum(y .^ 2) + c * x[1]^3
end
# writes into a global array and reads it back: the cotangent flows through the global
function g(x)
    scratch[1] = x[1] * x[2]
    scratch[2] = sin(x[2])
    scratch[1]^2 + scratch[2] * x[1]
end
function with_views(x)
    h = x[1] * x[2]
    s = @view x[2:3]
    h^2 + sum(s .* s) * W[1, 2]
end
