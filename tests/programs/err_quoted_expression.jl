# Quoted expressions (metaprogramming) are not supported yet: an error at the construct.
ex = :(a + b)
println(ex)
