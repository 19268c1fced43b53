# hessian: f([0.3, 1.5])
# Second derivatives through values whose type inference knows only as a union: a function
# returning a real or a complex number, and a vector of either.
function real_or_complex(a, b, flag)
    if flag
        return a + b
    end
    Complex(a, b)
end
function vector_of_either(a, b, flag)
    flag ? [a + b] : [Complex(a, b)]
end
function f(p)
    z = real_or_complex(p[1] * p[2], p[2], p[1] < 0.0)
    v = vector_of_either(p[2], p[1]^2, p[2] > 10.0)
    real(z)^2 + imag(z) * real(z) + abs2(v[1]) * p[1]
end
