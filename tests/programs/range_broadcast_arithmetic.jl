# Arithmetic broadcasts over integer ranges give ranges, as in Julia (`(1:5) .+ 1` is `2:6`,
# `2 .* (1:5)` is `2:2:10`); other operations fuse around them.
r = 1:5
println(r .+ 1)
println(2 .* r)
println(r .* 2)
println(r .- 1, " ", 10 .- r)
println(.-r)
println(2 .* r .+ 1)
println(typeof(2 .* r), " ", typeof(r .+ 1))
s = 1:2:9
println(s .+ 1, " ", s .* 3, " ", 1 .- s)
println(r .+ r, " ", r .- 2r)
x = [1.0, 2.0, 3.0, 4.0, 5.0]
println(x .* 2 .+ 1)
println(sin.(r .* 2))
y = zeros(5)
y .= r .* 2
println(y)
println(.-(0:0.5:1))
println(sum(2 .* r), " ", (2 .* r)[3], " ", length(3 .* r), " ", collect(3 .* r))
for v in 2 .* (1:3)
    print(v, " ")
end
println()
println(Base.OneTo(3) .+ 1)
println(0 .* r)
println(sin.(r .* 2) .+ 1)
z = [0, 0, 0, 0, 0]
z .= 2 .* r .+ 1
println(z)
z .+= r
println(z)
println((r .* 2) .== [2, 4, 6, 8, 10])
# An integer range plus or minus a float is a float range from the first element.
s = (1:5) .+ 0.5
println(s, " ", typeof(s))
println(0.5 .+ (1:5), " ", (1:5) .- 0.5, " ", 2.5 .- (1:4))
println((1:2:9) .+ 0.25, " ", (1:2:9) .- 0.25, " ", 0.25 .- (1:2:9))
println(collect((1:5) .+ 0.1), " ", sum(s), " ", s[2], " ", step(s))
println(exp.((1:3) .+ 0.5))
