# Views (view, @view, @views, eachcol, eachrow) read and write their parent array; broadcasting
# over and into views, with arguments that share the destination's memory copied first.
x = [1.0, 2.0, 3.0, 4.0]
v = view(x, 2:3)
println(typeof(v))
println(v[1], " ", length(v), " ", size(v))
v[2] = 30.0
println(x)
A = [1.0 2.0 3.0; 4.0 5.0 6.0]
c = view(A, :, 2)
println(typeof(c))
c[1] = 20.0
println(A)
r = view(A, 2, :)
println(typeof(r))
println(r[3])
B = view(A, 1:2, [1, 3])
println(typeof(B))
println(B[2, 2], " ", size(B))
println(sum(v), " ", dot(v, v))
for e in v
    println(e)
end
for col in eachcol(A)
    println(sum(col))
end
println(typeof(eachcol(A)))
println(v)
println(view(A, :, 2))
println(view(A, 1:2, [1, 3]))
println(eachcol(A))
println((v, 1))
println(view(x, 1:2:4))
x2 = [1.0, 2.0, 3.0, 4.0]
v = view(x2, 2:3)
println(v .+ 1)
v .= 7.0
println(x2)
v .*= 2
println(x2)
println(2 .* v)
A = [1.0 2.0; 3.0 4.0]
c = view(A, :, 1)
c .= c .+ v
println(A)
println(sin.(c))
x = [1.0, 2.0, 3.0, 4.0, 5.0]
w = view(x, 2:5)
w .= view(x, 1:4)
println(x)
y = [1.0, 2.0, 3.0, 4.0, 5.0]
view(y, 2:5) .= view(y, 1:4) .+ 0.5
println(y)
z = [1.0, 2.0, 3.0, 4.0]
zv = view(z, [4, 3, 2, 1])
z .= zv
println(z)
A = [1.0 2.0; 3.0 4.0]
r = view(A, 1, :)
view(A, 2, :) .= r .* 10
println(A)
m = reshape([1.0, 2.0, 3.0, 4.0], 2, 2)
vm = vec(m)
vm .= vm .+ 1
println(m)
s = sum.(eachcol(A))
println(s)
println(typeof(s))
x = [1.0, 2.0, 3.0, 4.0]
v = @view x[2:end]
println(typeof(v), " ", v)
A = [1.0 2.0 3.0; 4.0 5.0 6.0]
@view(A[:, end]) .= 0.0
println(A)
@views function colsum!(out, A)
    for j in 1:size(A, 2)
        out[j] = sum(A[:, j])
    end
    out
end
println(colsum!(zeros(3), A))
@views f(x) = x[1:2]
println(typeof(f(x)))
y = @views x[2:3]
y[1] = 100.0
println(x)
z = @views x[1] + x[end]
println(z)
@views x[1:2] .= x[3:4]
println(x)
w = @views Float64[1, 2]
println(w)
@views begin
    s = x[1:2]
    s[2] = -1.0
end
println(x)
t = (1, 2, 3)
println(@views t[2])
# Broadcasting into an indexed place broadcasts into a view, which is the expression's value.
yv = zeros(4)
rv = (yv[2:3] .= 1.5)
println(typeof(rv), " ", rv, " ", yv)
