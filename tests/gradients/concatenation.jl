# check: f([1.0, 2.0], [3.0, 0.5]) => 45.0
# check: g(0.3, 1.7) => 4.0
# check: rows_of_adjoints([1.0, 2.0])
# check: semicolon_runs([1.0, 2.0])
# `[a b]` is hcat (vectors become columns), `[a; b]` vcat, `[A a; 1.0 2.0 b[1]]` a block
# matrix.
function f(a, b)
    M = [a b]
    v = [a; b; 1.0]
    B = [M a; 1.0 2.0 b[1]]
    sum(M .* M) + sum(v .^ 2) + sum(B)
end
# A 2×2 matrix literal of scalars.
function g(x, y)
    R = [x -y; y x]
    R[1, 1] + R[2, 1] + R[2, 2] - R[1, 2]
end
# Row vectors (adjoints) and ranges as blocks.
rows_of_adjoints(x) = sum(abs2, [x'; 2x'; reshape(1:2, 1, 2)] * x) + sum([x 1:2] * x)
# Concatenation along dimension 2 written with `;;`, and a typed comprehension over two
# iterators (a matrix).
semicolon_runs(v) = sum(abs2, [v[1]; v[2];; 2v[1]; v[2]] * [1.0, 2.0]) + sum(Float64[v[1] * i for i in 1:2, j in 1:2])
