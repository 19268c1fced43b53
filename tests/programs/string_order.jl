# Strings compare by code points, as Julia orders them: `<`, `cmp`, `isless`, `sort`, `unique`, `maximum`.
println("a" < "b", " ", cmp("b", "a"), " ", cmp("ab", "abc"), " ", "ab" <= "ab", " ", "b" > "ab", " ", isless("Z", "a"), " ", "é" > "z")
println(sort(["pear", "apple", "fig", "Apple"]), " ", sortperm(["b", "a", "c"]), " ", unique(["b", "a", "b", "c", "a"]), " ", maximum(["x", "yy", "y"]))
println(cmp(1, 2), " ", cmp(2.0, 2), " ", cmp(NaN, 1.0), " ", sort(["b", "a"]; rev = true))
