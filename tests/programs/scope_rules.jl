# Julia's scope rules, one function per rule; comments say what Julia prints.
x = 123
function greet()
    x = "hello"          # hard scope: a new local, the global is untouched
    println(x)
end
greet()                  # hello
println(x)               # 123

function sum_to(n)
    s = 0                # new local
    for i = 1:n
        s = s + i        # assigns the existing local
    end
    s
end
println(sum_to(10))      # 55

function assigned_later()
    for i in 1:3
        acc = i          # `acc` is the function's local: it is assigned below, at function level
    end
    acc = acc + 0
    acc
end
println(assigned_later())  # 3

function closure_assigns_outer(n)
    body = i -> (s = s + i)  # `s` is the enclosing function's local, assigned below
    s = 0
    for i = 1:n
        body(i)
    end
    s
end
println(closure_assigns_outer(10))  # 55

function explicit_local()
    v = 1
    for i in 1:2
        local v = 100    # `local` shadows the outer `v`
        v += i
    end
    v
end
println(explicit_local())  # 1

counter = 0
function bump!()
    global counter += 1  # `global` assigns the global
end
bump!()
bump!()
println(counter)         # 2

function global_declared_below()
    for i in 1:3
        counter = counter + i  # the whole function declares `counter` global
    end
    global counter
    counter
end
println(global_declared_below())  # 8

function if_is_not_a_scope(c)
    if c
        y = 1
    else
        y = 2
    end
    y
end
println(if_is_not_a_scope(false))  # 2

function let_scope()
    a = 1
    let a = a + 10, b = a   # right-hand sides see the outer `a`; `b` the new one
        a += b
        println(a)           # 22
    end
    a
end
println(let_scope())         # 1

function while_updates_local()
    n = 0
    while n < 5
        n += 1
        sq = n^2             # local to the loop body
    end
    n
end
println(while_updates_local())  # 5

fs = Any[]
for i in 1:3
    push!(fs, () -> i)       # each iteration has its own `i`
end
println([f() for f in fs])   # [1, 2, 3]

function captured_per_iteration()
    gs = Any[]
    for i in 1:3
        t = 10i              # a fresh `t` each iteration, captured by the closure
        push!(gs, () -> t)
    end
    [g() for g in gs]
end
println(captured_per_iteration())  # [10, 20, 30]

k = 10
v = [k for k in 1:3]         # the comprehension's `k` is its own
println(v)                   # [1, 2, 3]
println(k)                   # 10

total = 0
for i in 1:4
    global total += i        # a top-level loop assigns a global only when told to
end
println(total)               # 10

for i in 1:2
    fresh = i                # a new local of the loop body
    println(fresh)           # 1, then 2
end

function counter_closure()
    c = 0
    inc = () -> (c += 1)
    inc()
    inc()
    c
end
println(counter_closure())   # 2

# `local` inside an anonymous function, a loop or a `do` block makes a new variable there, even
# when the enclosing function has one of that name.
function local_in_closure()
    i = 100
    g = () -> (local i = 5; i)
    (g(), i)
end
println(local_in_closure())
function local_in_loop_with_closure()
    i = 100
    fs = []
    for k in 1:2
        local i = 10k
        push!(fs, () -> i)
    end
    (i, [f() for f in fs])
end
println(local_in_loop_with_closure())
function local_in_while()
    i = 100
    k = 0
    while k < 2
        local i = k
        k += 1
    end
    i
end
println(local_in_while())
