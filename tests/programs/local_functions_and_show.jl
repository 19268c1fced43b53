# Functions defined inside functions are closures over the enclosing locals; `@show` prints
# each expression with its value.
function outer(x)
    helper(y) = y^2 + x
    function twice(f, v)
        f(f(v))
    end
    twice(helper, 1.0)
end
println(outer(2.0))
function counter()
    n = 0
    bump() = (n += 1; n)
    bump()
    bump()
    n
end
println(counter())
function fib_local(k)
    fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2)
    fib(k)
end
println(fib_local(10))
x = 2
v = [1.5, 2.5]
p = (a = 1, b = "s")
@show x v[2] p.b
y = @show x
println(y)
# `@show` of calls and operators prints the expression as Julia prints it.
let x = [1.0, 2.0], A = [1.0 2.0; 3.0 4.0]
    @show size(A) typeof(x) x[1] + 2 A * x
    @show -x[2] x' 1:3 length(x) ≤ 3 2x 2 * x[1] -(x[1] + 1) sum(abs2, x) 0.25
end
