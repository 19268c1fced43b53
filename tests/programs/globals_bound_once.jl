# A global assigned in one place is read by functions with its type known; assigning it again
# (here, in a later statement, or through `global` in a function) makes it an ordinary global,
# and every function reads its new value.
X = [1.0, 2.0]
f() = X .+ 1
println(f())
X = 3
println(f())

Y = 1.0
h() = Y * 2
println(h())
function set_y(v)
    global Y = v
end
set_y(2)
println(h(), " ", typeof(Y))

n = 10
counter() = n + 1
println(counter())
for i in 1:2
    global n += i
end
println(counter())

# A function compiled before its global exists reads it when called.
late() = Z .* 2
Z = [1, 2]
println(late())
sq(v) = v^2
P = sq
println(P(3.0), " ", P(2))
s = "text"
shout() = s * "!"
println(shout())
