# Julia's operator precedence and associativity, one expression per line; the comment is
# what Julia prints.
x = 3.0
n = 5
println(-(2.0)^2)                 # -4.0: `^` binds tighter than unary minus
println(-2.0^2)                   # -4.0
println(-2^2)                     # -4
println((-2)^2)                   # 4
println(-1.5^2)                   # -2.25
println(-(2, 3)^2)                # 1: with a comma `-(a, b)` is a call
println(+(1, 2)^2)                # 9
println(2^3^2)                    # 512: `^` is right-associative
println(2^-1)                     # 0.5
println(2.0^-2)                   # 0.25
println(x^-2)                     # 0.1111111111111111
println(2 ^ -x)                   # 0.125
println(-x^2)                     # -9.0
println(+x^2)                     # 9.0
println(exp(-(x - 1.0)^2 / 2) == exp(-2.0))  # true
println(2x^2)                     # 18.0: juxtaposition is looser than `^`
println(2(x + 1))                 # 8.0
println(1/2x)                     # 0.16666666666666666: and tighter than `/`
println(2^3x)                     # 512.0: the exponent takes the juxtaposition
println(x^2x)                     # 729.0
println(-2x)                      # -6.0
println(1e2x)                     # 300.0
println((x + 1)x)                 # 12.0
println((16x^2 - 24x + 5)sqrt(4.0))  # 154.0
println(x'x)                      # 9.0
println(2x'x)                     # 18.0
println(-x')                      # -3.0
println(2x')                      # 6.0
println(-x::Float64)              # -3.0
println(1 - -1)                   # 2
println(2 * -3)                   # -6
println(3 - -x)                   # 6.0
println(-3 % 2)                   # -1
println(2 - 3 - 4)                # -5
println(2 / 4 / 2)                # 0.25
println(2 ÷ 3 * 4)                # 0
println(10 - 2 * 3 ^ 2 / 6)       # 7.0
println(1 - 2 ^ 2)                # -3
println([1.0, 2.0] .^ -1)         # [1.0, 0.5]
println([1, 2] .^ -1)             # [1.0, 0.5]: a literal exponent, as `literal_pow`
println([1, 2, 4] .^ -2)          # [1.0, 0.25, 0.0625]
println(2 .* [1, 2] .^ 2)         # [2, 8]
println(1:n-1)                    # 1:4
println(-2:2)                     # -2:2
println(collect(-2:2))            # [-2, -1, 0, 1, 2]
println(0:n÷2)                    # 0:2
println(1:3 .+ 1)                 # 1:4
println(1 < 2 && 3 > 2)           # true
println(1 < 2 < 3 && 4 > 5)       # false
println(1 < 2 == true)            # false: chained, `2 == true` is false
println(1 < 2 <= 2 < 3)           # true
println(!true == false)           # true: `!` binds tighter than `==`
println(!(1 == 2) && true)        # true
println(2 + 3 == 5 && 2 * 3 == 6 || false)  # true
println(1 in 1:3 && 2 ∈ 1:3)      # true
println(x > 2 ? -1 : +1)          # -1
println(2 |> y -> y + 1)          # 3: `->` is tight on its left
f = y -> -y^2
println(f(2))                     # -4
println(-(x))                     # -3.0
println(-(x, 1.0))                # 2.0
println(!(true))                  # false
