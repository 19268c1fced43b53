a = [1.0, 2.0]
b = [3.0, 4.0]
A = [1.0 2.0; 3.0 4.0]
println([A b; [5.0 6.0] 1.0])
println(typeof([1, 2.0]))
println([1 2.5])
println(typeof([1 2.5]))
println([a; 5])
println([1; a])
println(Float32[1 2; 3 4])
println(typeof(Float32[1 2; 3 4]))
println(Float64[1 2])
println(Float64[1; 2])
println(hcat(a, b, a))
println(vcat(A, [5.0 6.0]))
println([A; 7 8])
println([a a; b b])
println(hvcat((2, 2), 1, 2, 3, 4))
println([1 2; 3 4; 5 6])
println(size([a b]))
println([[1.0 2.0]; [3.0 4.0]])
println(hcat(1, 2))
println(vcat(1, 2))
println(hcat(a))
println(typeof(hcat(a)))
println(reshape([1.0, 2.0], 2, 1))
println(zeros(0, 2))
println((zeros(0, 2), 1))
x3 = zeros(2, 2, 2)
x3[1, 1, 2] = 5.0
println(x3)
println(zeros(2, 1, 2))
# Blocks of other array kinds (adjoints, views, ranges, structured matrices) are concatenated
# as the arrays of their elements.
using LinearAlgebra
let x = [1.0, 2.0], y = [3.0, 4.0], A = [1.0 2.0; 3.0 4.0]
    println([x'; y'], " ", hcat(view(A, :, 1), x), " ", vcat(1:2, 3:4), " ", [1:2 3:4])
    println(hcat(A', A), " ", vcat(A[1, :]', A), " ", [1; 2:3], " ", [x' 5.0])
    println([0.5 x'; x' 0.5], " ", [1:2 x], " ", cat(1:2, x; dims = 3)[:, 1, 2], " ", vcat((1:2)', [3 4]))
    println(hcat(x, Diagonal([1.0, 2.0])), " ", typeof([x'; x']), " ", Float64[x'; (1:2)'])
end
