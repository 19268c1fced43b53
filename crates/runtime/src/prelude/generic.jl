# Generic functions on any value: `typeof`, `isa`, `===`, `identity`, `ifelse`, comparisons
# derived from `==` and `<`.

typeof(x) = Core.typeof(x)
isa(x, T) = Core.isa(x, T)
===(x, y) = Core.egal(x, y)
!==(x, y) = !Core.egal(x, y)
==(x, y) = Core.egal(x, y)
!=(x, y) = !(x == y)
>(x, y) = y < x
>=(x, y) = y <= x
identity(x) = x
isnothing(x) = Core.egal(x, nothing)
ifelse(c::Bool, x, y) = c ? x : y
