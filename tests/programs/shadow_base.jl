# A script's variable may shadow a Base function name; Base keeps working.
sum = 0.0
for i in 1:3
    global sum += i
end
println(sum)
println(norm([3.0, 4.0]))
for i in 5
    println("a number iterates once: ", i)
end
