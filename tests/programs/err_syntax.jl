function broken(x)
    y = (x +
end
z = [1, 2
q = 3 +* 4
