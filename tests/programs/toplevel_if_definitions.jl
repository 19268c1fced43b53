# Functions and types defined inside a top-level `if` or `begin` block: the condition runs
# first, then the taken branch's statements, as top-level statements.
const USE_FAST = false
if USE_FAST
    energy(x) = sum(x)
elseif USE_FAST === nothing
    energy(x) = 0.0
else
    energy(x) = sum(abs2, x)
    struct Config
        n::Int
    end
    cfg = Config(3)
end
println(energy([1.0, 2.0]), " ", cfg.n)

begin
    scale = 2.0
    double(x) = scale * x
end
println(double(4.0))

n = 3
if n > 2
    above(x) = x > n
end
println(above(5), " ", above(1))
