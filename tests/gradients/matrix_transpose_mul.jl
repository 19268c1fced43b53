# check: f([0.5, -0.7, 1.1])
function f(x)
    A = [x[1] x[2]; x[3] 1.0]
    B = transpose(A)
    C = A * B
    C[1, 1] + C[2, 1] * C[1, 2] + C[2, 2]
end
