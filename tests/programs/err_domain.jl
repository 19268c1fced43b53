safe_log(x) = log(x)
println(safe_log(1.0))
safe_log(-1.0)
