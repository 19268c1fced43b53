function maybe_assigned(flag)
    if flag
        y = 1
    end
    y
end
println(maybe_assigned(true))
maybe_assigned(false)
