function grade(score)
    if score >= 90
        "A"
    elseif score >= 80
        "B"
    elseif score >= 70
        "C"
    else
        "F"
    end
end
println(grade(95), grade(85), grade(75), grade(10))
function collatz(n)
    steps = 0
    while n != 1
        if n % 2 == 0
            n = n ÷ 2
        else
            n = 3n + 1
        end
        steps += 1
    end
    steps
end
println(collatz(27))
function first_over(v, t)
    for (i, x) in enumerate(v)
        if x > t
            return i
        end
    end
    return -1
end
println(first_over([1, 5, 9], 4), " ", first_over([1, 2], 10))
function odd_sum(n)
    s = 0
    for i in 1:n
        i % 2 == 0 && continue
        i > 9 && break
        s += i
    end
    s
end
println(odd_sum(100))
x = if 3 > 2
    "yes"
else
    "no"
end
println(x)
y = begin
    a = 2
    a * 21
end
println(y)
