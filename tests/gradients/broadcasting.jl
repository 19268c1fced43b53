# Broadcasting through reverse mode: the fused closure is differentiated like any call.
# check: fused([0.1, 0.2, 0.3], [1.0, -1.0, 2.0])
# check: inplace([0.5, 1.5])
# check: dotmacro([0.1, -0.2], 1.5)
# check: matrix([1.0 2.0; 3.0 4.0], [0.5, -0.5])
fused(x, y) = sum(sin.(x) .* y .+ x .^ 2)
function inplace(x)
    w = similar(x)
    w .= 2 .* x .* x
    sum(w)
end
function dotmacro(x, c)
    z = zeros(length(x))
    @. z = c * exp(x) - x
    sum(z)
end
matrix(A, v) = sum(A .* v .+ A)
