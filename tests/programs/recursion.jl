fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2)
println(fib(20))
function fact(n)
    n <= 1 && return 1
    n * fact(n - 1)
end
println(fact(20))
iseven_rec(n) = n == 0 ? true : isodd_rec(n - 1)
isodd_rec(n) = n == 0 ? false : iseven_rec(n - 1)
println(iseven_rec(10), " ", isodd_rec(7))
function depth(n)
    n == 0 && return 0
    1 + depth(n - 1)
end
println(depth(10000))
power(x, n) = n == 0 ? one(x) : x * power(x, n - 1)
println(power(2.0, 10), " ", power(3, 4))
ackermann(m, n) = m == 0 ? n + 1 : (n == 0 ? ackermann(m - 1, 1) : ackermann(m - 1, ackermann(m, n - 1)))
println(ackermann(2, 3))
