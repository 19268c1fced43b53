for i in 1:3
    print(i, " ")
end
println()
for x in [1.5, 2.5]
    print(x, " ")
end
println()
for i in eachindex([10, 20, 30])
    print(i)
end
println()
for (i, x) in enumerate(["a", "b"])
    print(i, "=", x, " ")
end
println()
for (a, b) in zip([1, 2, 3], [4.0, 5.0])
    print(a + b, " ")
end
println()
for i in 1:2, j in 1:3
    print((i, j), " ")
end
println()
function nested_break()
    found = (0, 0)
    for i in 1:5, j in 1:5
        if i * j == 6
            found = (i, j)
            break
        end
    end
    found
end
println(nested_break())
for t in (1, "two", 3.0)
    print(t, ";")
end
println()
A = [1 2; 3 4]
for x in A
    print(x, " ")
end
println()
for i in axes(A, 1)
    print(A[i, 2], " ")
end
println()
k = 0
while true
    global k += 1
    k >= 5 && break
end
println(k)
