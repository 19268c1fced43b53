const answer
println(answer)
