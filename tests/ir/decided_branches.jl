# call: scaled([1.0 2.0; 3.0 4.0])
# stages: optimised
# Branches that the argument types decide leave no trace: a keyword given at the call takes
# its value, not its default (`dims` is an `Int64`, never `Colon()`); `x === nothing` of an
# `x::Nothing` and a helper that always returns `false` for matrices fold, so only the matrix
# path is compiled.
has_high_rank(x::AbstractMatrix) = false
has_high_rank(x::AbstractArray) = true
pick(x; dims = Colon(), shift = nothing) = (shift === nothing ? 0 : shift) + (dims isa Colon ? 0 : dims)
function scaled(A)
    has_high_rank(A) && return -1
    pick(A; dims = 2) * size(A, 1)
end
