# Loops of a few constant trips in every shape: none, a break, a return, a counted while,
# an inner range bounded by the outer variable, steps of 2 and -1.
function zero_trips(x)
    s = x
    for i in 1:0
        s += i
    end
    s
end
function with_break(x)
    s = 0.0
    for i in 1:5
        s += x * i
        s > 4 && break
    end
    s
end
function with_return(x)
    for i in 1:4
        if x * i > 3
            return i
        end
    end
    0
end
function counted_while(x)
    k = 0
    s = 0.0
    while k < 3
        k += 1
        s = s * x + k
    end
    s, k
end
function triangle(x)
    s = 0.0
    for i in 1:3, j in 1:i
        s += x^i * j
    end
    s
end
function stepped(x)
    s = 0.0
    for i in 1:2:7
        s += i * x
    end
    for i in 3:-1:1
        s = s * i
    end
    s
end
println(zero_trips(1.5), " ", with_break(1.0), " ", with_return(1.0), " ", with_return(0.1))
println(counted_while(2.0), " ", triangle(2.0), " ", stepped(0.5))
