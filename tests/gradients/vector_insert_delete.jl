# check: edited([0.5, -1.0, 2.0])
# Vectors edited in place (inserting, deleting, rotating) inside the differentiated function.
function edited(x)
    v = copy(x)
    insert!(v, 2, x[1] * x[3])
    pushfirst!(v, sin(x[2]))
    a = popfirst!(v)
    deleteat!(v, 1)
    w = circshift(v, 1) .* [1.0, 2.0, 3.0]
    a * sum(w) + sum(abs2, first(v, 2)) + sum(last(x, 2) .^ 3)
end
