# Formatted output with Printf: @printf and @sprintf with widths, precisions and flags.
using Printf
x = 2 / 3
@printf("x = %.3f, n = %d, s = %s\n", x, 42, "hi")
@printf("%8.2e|%-6d|%+.1f|%g\n", 12345.678, 7, 2.25, 1e-5)
s = @sprintf("%05.1f", 3.14159)
println(s, " ", length(s))
@printf(stdout, "%d%%\n", 50)
f(v) = @sprintf("%.2f", v)
println(f(1.005), " ", f(2.675))
@printf("no args\n")
v = [1.5, 2.25]
@printf("%.1f and %.2f\n", v...)
@printf("%.5f %.3e %s\n", π, ℯ, π)
