# check: smallest_two([3.0, -1.0, 2.0, 0.5])
# check: ranked([0.3, 2.0, -1.5, 0.7, 1.1])
# A sort moves values: the gradient follows each value to where it came from.
smallest_two(x) = sum(sort(x)[1:2] .^ 2) + x[sortperm(x, rev = true)[1]] * 3.0
function ranked(x)
    s = sort(x; by = abs)
    w = [1.0, 2.0, 3.0, 4.0, 5.0]
    sum(w .* s) + sum(sort(x .* x; rev = true)[1:2])
end
