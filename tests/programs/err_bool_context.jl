function check(x)
    if x
        "yes"
    else
        "no"
    end
end
println(check(true))
check(1)
