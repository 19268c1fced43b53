# Julia's scope rules inside functions
function loopvar()
    i = 0
    for i in 1:3
    end
    i
end
println(loopvar())
function outer_update()
    total = 0
    for k in 1:4
        total += k
    end
    total
end
println(outer_update())
function let_scope()
    x = 1
    let x = 10
        x += 1
    end
    x
end
println(let_scope())
function local_decl()
    x = 1
    for i in 1:2
        local x = 100
    end
    x
end
println(local_decl())
function while_scope()
    n = 0
    while n < 3
        n += 1
        inner = n * 2
    end
    n
end
println(while_scope())
counter = 0
function bump()
    global counter += 1
end
bump()
bump()
println(counter)
a = 5
let a = a + 1
    println(a)
end
println(a)
function shadow(x)
    x = x * 2
    x
end
println(shadow(21))
