function avg_bucket(total, n)
    total ÷ n
end
println(avg_bucket(10, 3))
println(avg_bucket(10, 0))
