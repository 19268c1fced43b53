# Statistics' covariance and correlation of vectors and of a matrix's columns or rows.
using Statistics
x = [1.0, 2.0, 4.0, 7.0]
y = [2.0, 1.0, 5.0, 6.5]
println(cov(x), " ", var(x), " ", cov(x, y), " ", cov(x; corrected = false), " ", cor(x, y), " ", cor(x))
X = [1.0 2.0 0.5; 2.0 1.0 1.5; 4.0 5.0 0.0; 7.0 6.5 2.0]
println(cov(X))
println(cov(X; dims = 2))
println(cor(X))
println(cov([1, 2, 4]), " ", cor([1, 2, 3], [3, 2, 1]), " ", cov(X; corrected = false)[1, 1])
