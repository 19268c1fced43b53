# `@views` on a tuple assignment makes each slice a view; `@show` of a tuple.
X = [1.0 2.0; 3.0 4.0; 5.0 6.0]
y = [1.0, 2.0, 3.0]
idx = [1, 3]
@views Xb, yb = X[idx, :], y[idx]
println(Xb, " ", yb)
println(typeof(Xb))
println(typeof(yb))
@views c = X[1, :], y[2:3]
println(typeof(c))
yb[1] = 10.0
println(y)
a = 1; b = 2.0
@show a, b
@show (a,)
