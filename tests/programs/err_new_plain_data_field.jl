# A plain-data field (here a tuple of floats) that `new` is given no value for holds whatever
# bits Julia finds there: not supported.
struct Segment
    length::Float64
    ends::Tuple{Float64, Float64}
    Segment(l) = new(l)
end
println(Segment(1.0).length)
