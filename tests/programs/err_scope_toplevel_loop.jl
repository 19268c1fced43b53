# In a file, a top-level loop that assigns a global's name makes a new local of the loop
# body (with `global s` it would update the global).
s = 0
for i in 1:3
    s = s + i
end
println(s)
