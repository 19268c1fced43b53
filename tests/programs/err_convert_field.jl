# Assigning a field converts the value to the field's type; a String is not a Real.
mutable struct Foo
    x::Real
end
g(a) = a > 0 ? "s" : 1.0
function f(a)
    foo = Foo(1.0)
    foo.x = g(a)
    foo.x
end
println(f(-1.0))
f(1.0)
