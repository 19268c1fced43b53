# Eigendecompositions (symmetric, and non-symmetric with real or complex eigenvalues) and
# singular value decompositions (values rounded: LAPACK's methods can differ in the last bits,
# and vectors are compared up to sign).
using LinearAlgebra
r(x) = round.(x, digits = 10) .+ 0.0
A = [4.0 1.0 0.5; 1.0 3.0 -0.25; 0.5 -0.25 2.0]
F = eigen(A)
println(r(F.values), " ", typeof(F))
println(r(abs.(F.vectors)))
println(F.vectors * Diagonal(F.values) * F.vectors' ≈ A, " ", F.vectors' * F.vectors ≈ I)
λ, V = eigen(Symmetric([2.0 1.0; 0.0 2.0]))
println(r(λ), " ", r(abs.(V)))
println(r(eigvals(A)), " ", r(eigmax(A)), " ", r(eigmin(A)), " ", eigvecs(A) == F.vectors, " ", det(F) ≈ det(A))
println(eigvals(Symmetric([1 2; 3 4], :L)) ≈ eigvals([1 3; 3 4]))
B = [1.0 2.0; 3.0 4.0; 5.0 6.0]
U, S, W = svd(B)
println(r(S), " ", size(U), size(W), " ", U * Diagonal(S) * W' ≈ B, " ", U' * U ≈ I, " ", svdvals(B) ≈ S)
G = svd(copy(B'))
println(r(G.S), " ", size(G.U), size(G.V), size(G.Vt), " ", G.U * Diagonal(G.S) * G.Vt ≈ B', " ", typeof(G))
println(r(pinv(B) * [1.0, 2.0, 3.0]), " ", r(B \ [1.0, 2.0, 3.0]), " ", r(svd(B) \ [1.0, 2.0, 3.0]))
println(r(pinv([1.0 2.0; 2.0 4.0])), " ", r(pinv([1.0 0.0; 0.0 1e-20])))
Z = svd(zeros(3, 2))
println(Z.S, " ", Z.U' * Z.U ≈ I)
N = [1.0 2.0; 3.0 4.0]
E = eigen(N)
println(r(E.values), " ", typeof(E), " ", r(abs.(E.vectors)), " ", N * E.vectors ≈ E.vectors * Diagonal(E.values))
R = [0.0 1.0; -1.0 0.0]
println(eigvals(R), " ", typeof(eigen(R)))
C = [1.0 2.0 0.5; -3.0 1.0 2.0; 0.5 0.25 4.0]
λc, Vc = eigen(C)
println(r(real(λc)), " ", r(abs.(imag(λc))), " ", λc[1] == conj(λc[2]), " ", C * Vc ≈ Vc * Diagonal(λc))
println(r([norm(Vc[:, j]) for j in 1:3]), " ", Vc[:, 1] == conj(Vc[:, 2]), " ", inv(eigen(C)) ≈ inv(C), " ", det(eigen(C)) ≈ det(C))
D = [2.0 0.0 1.0; 0.0 2.0 0.0; 0.0 0.0 3.0]
println(eigen(D).values, " ", r(abs.(eigen(D).vectors)))
try
    eigmax(R)
catch err
    println(typeof(err))
end
eigen([1.0+im 2.0; 3.0 4.0])
