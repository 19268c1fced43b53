# repeat (counts, inner, outer, strings) and cat along dimensions 1, 2 and 3.
println(repeat([1, 2], 2), " ", repeat([1 2], 2, 1), " ", repeat([1, 2], inner = 2), " ", repeat([1, 2], inner = 2, outer = 2))
println(repeat([1.0 2.0; 3.0 4.0], 1, 2), " ", repeat([1, 2], 1, 2), " ", repeat("ab", 3), " ", repeat([1, 2], 0))
println(cat([1, 2], [3, 4]; dims = 1), " ", cat([1, 2], [3, 4]; dims = 2), " ", cat([1 2; 3 4], [5 6; 7 8]; dims = 3))
println(size(cat(ones(2, 2), zeros(2, 2), ones(2, 2); dims = 3)))
