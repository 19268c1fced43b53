Threads.@threads :fastest for i in 1:3
    println(i)
end
