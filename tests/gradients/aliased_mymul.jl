# check: f([0.5, -0.7, 1.1])
function mymul!(C, A, B)
    for i in eachindex(C)
        C[i] = A[i] * B[i] + C[i]
    end
    C
end
function f(x)
    C = copy(x)
    mymul!(C, x, x)
    mymul!(C, C, C)
    sum(C)
end
