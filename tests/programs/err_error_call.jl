function parse_mode(m)
    m == 1 && return "fast"
    m == 2 && return "slow"
    error("unknown mode: ", m)
end
println(parse_mode(1))
parse_mode(7)
