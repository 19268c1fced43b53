# Checked before anything is allocated.
v = [1.0, 2.0, 3.0]
println(v[1:2:9223372036854775807])
