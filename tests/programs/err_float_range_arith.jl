# Julia turns `r .* 2` on a float range into range arithmetic in twice precision, whose
# elements can differ in the last bit from the elementwise products: not supported yet.
ts = 0:0.1:1
println(sum(sin.(ts)))
ys = 2 .* ts .+ 1
println(ys)
