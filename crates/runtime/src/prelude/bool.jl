# Bool: logic, and arithmetic that promotes to Int64.

!(x::Bool) = Core.not_bool(x)
&(x::Bool, y::Bool) = Core.and_bool(x, y)
|(x::Bool, y::Bool) = Core.or_bool(x, y)
xor(x::Bool, y::Bool) = Core.xor_bool(x, y)
==(x::Bool, y::Bool) = Core.egal(x, y)
<(x::Bool, y::Bool) = Int64(x) < Int64(y)
<=(x::Bool, y::Bool) = Int64(x) <= Int64(y)
+(x::Bool, y::Bool) = Int64(x) + Int64(y)
-(x::Bool, y::Bool) = Int64(x) - Int64(y)
*(x::Bool, y::Bool) = x & y
-(x::Bool) = -Int64(x)
/(x::Bool, y::Bool) = Float64(x) / Float64(y)
abs(x::Bool) = x
