# In a file, assigning a name inside a top-level loop makes a local of the loop; when a global
# of that name exists, Julia warns (once per loop and name, at the first assignment) and the
# global keeps its value.
s = 0
for i = 1:10
    t = 1 + i
    s = t
    s += 1
end
println(s)

# A `let` is a hard scope: no warning.
let
    for i in 1:2
        s = i
    end
end

# A name declared `local` (or already a local of an enclosing loop) is not ambiguous.
for i in 1:2
    local s = i
    for j in 1:2
        s = j
    end
end

# `global` assigns the global.
for i in 1:3
    global s += i
end
println(s)

# Functions are globals too; nested loops warn on their own.
f(x) = x
for i in 1:2
    f = i
    while false
        s = 3
    end
end
println(f(1))

# Inside a function, loops are ordinary local scopes.
function g()
    s = 1
    for i in 1:2
        s += i
    end
    s
end
println(g())
