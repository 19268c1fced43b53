# A function defined inside a top-level loop is not supported yet: an error at the definition.
for i in 1:2
    f() = 1
end
