# A byte index inside a character: Julia's StringIndexError names the valid indices around it.
s = "héllo"
println(s[2], " ", s[4:5])
println(s[3])
