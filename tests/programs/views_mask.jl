# A logical mask in a view, or in a broadcast assignment `y[mask] .= rhs`, selects the places
# where the mask is true: the view holds their positions (Julia collects the mask), shares
# the parent's memory, and is the value of the assignment.
x = [1.0, -2.0, 3.0, -4.0]
v = (x[x .< 0] .= 0)
println(x)
println(v)
println(typeof(v))
println(parentindices(v))
w = view(x, [true, false, true, false])
w .= 7
println(x, " ", w, " ", length(w), " ", sum(w))
@views y = x[x .> 5]
y[1] = 1.5
println(x)

A = [1.0 2.0; 3.0 4.0]
A[[true, false], :] .= 9
println(A)
A[:, [false, true]] .+= 1
println(A)
B = view(A, [true, true], [false, true])
println(B, " ", size(B))

function double_positives!(x)
    x[x .> 0] .*= 2
    sum(x)
end
println(double_positives!([1.0, -1.0, 2.0]))

# The mask must have the array's length.
view(x, [true, false])
