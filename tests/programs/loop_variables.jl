# Loop variables are fresh locals; a variable introduced in a loop body is local to it
function f()
    s = 0
    for i in 1:3
        t = i * 2
        s += t
    end
    s
end
println(f())
function g(n)
    result = 0
    i = 1
    while i <= n
        result += i
        i += 1
    end
    (result, i)
end
println(g(4))
x = 0
for i in 1:3
    global x
    x += i
end
println(x)
