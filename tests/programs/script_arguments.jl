# A script that reads its command-line arguments: mooncake passes none.
println(ARGS, " ", isempty(ARGS), " ", typeof(ARGS))
n = isempty(ARGS) ? 10 : parse(Int, ARGS[1])
println(n)
