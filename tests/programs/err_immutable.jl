struct Point
    x::Float64
end
function move!(p)
    p.x = 2.0
end
move!(Point(1.0))
