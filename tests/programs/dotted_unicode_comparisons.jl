# Dotted forms of the Unicode comparison operators broadcast like `.<` and `.==`.
x = [1.0, 2.0, 3.0]
println(x .≈ [1.0, 2.0 + 1e-12, 3.1], " ", x .≤ 2, " ", x .≥ 2, " ", x .≠ 2.0)
println([1, 5] .∈ Ref([5, 6]), " ", [1, 5] .∉ Ref([5, 6]), " ", (1, 7) .∈ Ref(1:5))
println(sum(x .≤ 2.5), " ", count(x .≠ 1.0), " ", all(x .≈ x), " ", 0 .≤ x .≤ 2)
