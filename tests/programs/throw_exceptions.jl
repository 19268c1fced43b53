function checked(x)
    x < 0 && throw(DomainError(x, "negative values are not allowed"))
    sqrt(x)
end
println(checked(4.0))
checked(-1.0)
