# LinearAlgebra: linear systems, factorisations, determinants and inverses, triangles,
# diagonals, Kronecker products and the identity `I`.

# Linear systems (LinearAlgebra's `\` and `/`): LU factorisation with partial pivoting
# (LAPACK's `getrf`/`getrs` order of operations, unblocked), which for a diagonal or upper
# triangular matrix does exactly what Julia's substitution does. Julia solves a lower
# triangular matrix by forward substitution, which can differ in the last bits; it is not
# special-cased here because a solve that reads only one triangle has no derivative with
# respect to the other triangle's entries, even where they vary and are zero only at the
# point. A zero pivot (or a zero on a triangular matrix's diagonal) is a `SingularException`.
struct SingularException <: Exception
    info::Int64
end
function istril(A::AbstractMatrix)
    for j in 2:size(A, 2), i in 1:min(j - 1, size(A, 1))
        A[i, j] == 0 || return false
    end
    true
end
function istriu(A::AbstractMatrix)
    for j in 1:size(A, 2), i in (j + 1):size(A, 1)
        A[i, j] == 0 || return false
    end
    true
end
_solve_eltype(A, B) = Core.promote_type(typeof(one(eltype(A)) / one(eltype(A))), eltype(B))
function _solve_copy(B::AbstractVector, ::Type{T}) where {T}
    X = Vector{T}(undef, length(B))
    for i in 1:length(B)
        X[i] = B[i]
    end
    X
end
function _solve_copy(B::AbstractMatrix, ::Type{T}) where {T}
    X = Matrix{T}(undef, size(B, 1), size(B, 2))
    for k in 1:length(B)
        X[k] = B[k]
    end
    X
end
function \(A::AbstractMatrix, B::AbstractVecOrMat)
    m = size(A, 1)
    n = size(A, 2)
    m != n && return _least_squares(A, B)
    if size(B, 1) != n
        throw(DimensionMismatch(string("B has leading dimension ", size(B, 1), ", but needs ", n)))
    end
    T = _solve_eltype(A, B)
    if istril(A) || istriu(A)
        for i in 1:n
            A[i, i] == 0 && throw(SingularException(i))
        end
    end
    F, piv, info = _lu_of(A)
    info > 0 && throw(SingularException(info))
    _lu_solve(F, piv, B, T)
end
# The solution of `A X = B` in element type `T` from A's LU factors and row exchanges: the
# rows of B exchanged, then two triangular solves.
function _lu_solve(F, piv, B, ::Type{T}) where {T}
    X = Core.array_rowswap(_dense(B, T), piv, false)
    _trsolve(F, _trsolve(F, X, T, false, false, true), T, true, false, false)
end
# Triangular solves run on a kernel (`Core.array_trsolve`, with matrix-level AD rules):
# `op(T) \ B` for the upper or lower triangle `T` of `A` (a unit diagonal when `unit`), in
# element type `T` (BLAS `trsm` order: column by column without a transpose, entry by entry as
# dot products with one). `_dense` gives a dense vector or matrix of element type `T`, copying
# only what is not one already.
_dense(B::Vector{T}, ::Type{T}) where {T<:Union{Float64,Float32}} = B
_dense(B::Matrix{T}, ::Type{T}) where {T<:Union{Float64,Float32}} = B
_dense(B::AbstractVecOrMat, ::Type{T}) where {T} = _solve_copy(B, T)
function _trsolve(A::AbstractMatrix, B::AbstractVecOrMat, ::Type{T}, upper::Bool, trans::Bool, unit::Bool) where {T}
    Core.array_trsolve(_dense(A, T), _dense(B, T), upper, trans, unit)
end
# (The triangle of a transposed matrix is the other triangle of its parent, transposed; for
# real elements the adjoint is the transpose.)
function _trsolve(A::Adjoint{S,M}, B::AbstractVecOrMat, ::Type{T}, upper::Bool, trans::Bool, unit::Bool) where {S<:Real,M<:AbstractMatrix,T}
    Core.array_trsolve(_dense(A.parent, T), _dense(B, T), !upper, !trans, unit)
end
function _trsolve(A::Transpose{S,M}, B::AbstractVecOrMat, ::Type{T}, upper::Bool, trans::Bool, unit::Bool) where {S,M<:AbstractMatrix,T}
    Core.array_trsolve(_dense(A.parent, T), _dense(B, T), !upper, !trans, unit)
end
# (Of the leading n×n block of `A`: the triangle R of a tall QR factorisation.)
function _back_subst!(A, X, c::Int64, n::Int64 = size(A, 1))
    for j in n:-1:1
        X[j, c] = X[j, c] / A[j, j]
        t = X[j, c]
        for i in (j - 1):-1:1
            X[i, c] -= t * A[i, j]
        end
    end
    X
end
/(A::AbstractMatrix, B::AbstractMatrix) = copy(adjoint(adjoint(B) \ adjoint(A)))

# Determinants and inverses from the same LU factorisation, as LinearAlgebra computes them for
# a general matrix: `det` is the product of the pivots, negated once per row exchange (zero
# for a singular matrix); `logabsdet` their log-magnitudes and sign; `logdet` its logarithm (a
# `DomainError` for a negative determinant); `inv` the solution of `A X = I`.
function _checksquare(A::AbstractMatrix)
    m = size(A, 1)
    n = size(A, 2)
    if m != n
        throw(DimensionMismatch(string("matrix is not square: dimensions are (", m, ", ", n, ")")))
    end
    n
end
# LU factorisation with partial pivoting on a kernel (`Core.array_lu`: LAPACK's unblocked
# `getf2`, with a matrix-level AD rule): the packed factors, the row exchanges, and the first
# step with a zero pivot (0 if none; the factorisation then goes on, as LAPACK's does).
function _lu_of(A::AbstractMatrix)
    n = _checksquare(A)
    piv = Vector{Int64}(undef, n)
    F = Core.array_lu(_dense(A, typeof(one(eltype(A)) / one(eltype(A)))), piv)
    info = 0
    for k in 1:n
        if F[k, k] == 0
            info = k
            break
        end
    end
    F, piv, info
end
function det(A::AbstractMatrix)
    F, piv, info = _lu_of(A)
    _lu_det(F, piv, info)
end
function _lu_det(F, piv, info)
    T = eltype(F)
    info > 0 && return zero(T)
    P = one(T)
    c = 0
    for i in 1:size(F, 1)
        P *= F[i, i]
        if piv[i] != i
            c += 1
        end
    end
    P * (isodd(c) ? -one(T) : one(T))
end
function logabsdet(A::AbstractMatrix)
    F, piv, info = _lu_of(A)
    _lu_logabsdet(F, piv)
end
function _lu_logabsdet(F, piv)
    T = eltype(F)
    c = 0
    for i in 1:size(F, 1)
        if piv[i] != i
            c += 1
        end
    end
    s = iseven(c) ? one(T) : -one(T)
    d = zero(T)
    for i in 1:size(F, 1)
        u = F[i, i]
        if u < 0
            s = -s
        end
        d += log(abs(u))
    end
    (d, s)
end
function logdet(A::AbstractMatrix)
    d, s = logabsdet(A)
    d + log(s)
end
function inv(A::AbstractMatrix)
    n = _checksquare(A)
    T = typeof(one(eltype(A)) / one(eltype(A)))
    E = zeros(T, n, n)
    for i in 1:n
        E[i, i] = one(T)
    end
    A \ E
end
function tr(A::AbstractMatrix)
    n = _checksquare(A)
    s = zero(eltype(A))
    for i in 1:n
        s += A[i, i]
    end
    s
end
function diag(A::AbstractMatrix)
    n = min(size(A, 1), size(A, 2))
    d = Vector{eltype(A)}(undef, n)
    for i in 1:n
        d[i] = A[i, i]
    end
    d
end
# The upper (`triu`) or lower (`tril`) triangle from the k-th diagonal on, the rest zero.
function triu(A::AbstractMatrix, k::Int64 = 0)
    B = _solve_copy(A, eltype(A))
    for j in 1:size(B, 2), i in 1:size(B, 1)
        if j - i < k
            B[i, j] = zero(eltype(A))
        end
    end
    B
end
function tril(A::AbstractMatrix, k::Int64 = 0)
    B = _solve_copy(A, eltype(A))
    for j in 1:size(B, 2), i in 1:size(B, 1)
        if j - i > k
            B[i, j] = zero(eltype(A))
        end
    end
    B
end
# The square matrix with `v` on its diagonal.
function diagm(v::AbstractVector)
    n = length(v)
    D = zeros(eltype(v), n, n)
    for i in 1:n
        D[i, i] = v[i]
    end
    D
end
# `diagm(k => v, ...)`: each vector on its diagonal (k > 0 above the main one, k < 0 below),
# added where two pairs name the same diagonal; `diagm(m, n, k => v, ...)` with a given size.
function _diagm_size(kv)
    n = 0
    for p in kv
        n = max(n, length(p.second) + abs(p.first))
    end
    n
end
function _diagm_eltype(kv)
    T = Union{}
    for p in kv
        T = Core.promote_type(T, eltype(p.second))
    end
    T
end
function _diagm_fill!(A::Matrix, kv)
    for p in kv
        k = p.first
        v = p.second
        len = k >= 0 ? min(size(A, 1), size(A, 2) - k) : min(size(A, 1) + k, size(A, 2))
        if length(v) > len
            throw(DimensionMismatch(string("invalid size of diagonal ", k, ": ", length(v), " does not fit in a ", size(A, 1), "×", size(A, 2), " matrix")))
        end
        for i in 1:length(v)
            if k >= 0
                A[i, i + k] += v[i]
            else
                A[i - k, i] += v[i]
            end
        end
    end
    A
end
function diagm(kv::Pair...)
    n = _diagm_size(kv)
    _diagm_fill!(zeros(_diagm_eltype(kv), n, n), kv)
end
diagm(m::Int64, n::Int64, kv::Pair...) = _diagm_fill!(zeros(_diagm_eltype(kv), m, n), kv)
diagm(m::Int64, n::Int64, v::AbstractVector) = diagm(m, n, 0 => v)
isdiag(A::AbstractMatrix) = istriu(A) && istril(A)
# The Kronecker product.
function kron(A::AbstractMatrix, B::AbstractMatrix)
    m, n = size(A, 1), size(A, 2)
    p, q = size(B, 1), size(B, 2)
    K = Matrix{Core.promote_type(eltype(A), eltype(B))}(undef, m * p, n * q)
    for j in 1:n, l in 1:q, i in 1:m, k in 1:p
        K[(i - 1) * p + k, (j - 1) * q + l] = A[i, j] * B[k, l]
    end
    K
end
function kron(a::AbstractVector, b::AbstractVector)
    m, p = length(a), length(b)
    c = Vector{Core.promote_type(eltype(a), eltype(b))}(undef, m * p)
    for i in 1:m, k in 1:p
        c[(i - 1) * p + k] = a[i] * b[k]
    end
    c
end
# A vector beside a matrix is its one-column matrix.
kron(a::AbstractVector, B::AbstractMatrix) = kron(reshape(a, length(a), 1), B)
kron(A::AbstractMatrix, b::AbstractVector) = kron(A, reshape(b, length(b), 1))
# `norm(x, p)`: the p-norm of the elements (p = 1: sum of magnitudes; Inf: the largest; 2: the
# Euclidean norm).
function norm(x::AbstractArray, p::Real)
    if p == 2
        return norm(x)
    elseif p == 1
        s = zero(typeof(float(abs(zero(eltype(x))))))
        for v in x
            s += abs(v)
        end
        return s
    elseif p == Inf
        isempty(x) && return zero(typeof(float(abs(zero(eltype(x))))))
        return maximum(abs, x)
    end
    s = zero(typeof(float(abs(zero(eltype(x))))))
    for v in x
        s += abs(v)^p
    end
    s^inv(p)
end
# `normalize(v, p)`: `v` scaled to unit p-norm, multiplied by the norm's inverse as Julia does
# (divided by it when the inverse would overflow).
function normalize(a::AbstractArray, p::Real = 2)
    nrm = norm(a, p)
    out = collect(float.(a))
    if nrm >= _inv_floatmax(nrm)
        r = inv(nrm)
        for k in 1:length(out)
            out[k] = out[k] * r
        end
    else
        for k in 1:length(out)
            out[k] = out[k] / nrm
        end
    end
    out
end
# `inv(prevfloat(typemax(T)))`: below it, a norm's inverse overflows.
_inv_floatmax(::Float64) = 5.562684646268003e-309
_inv_floatmax(::Float32) = 2.938736f-39
# The cross product of two 3-vectors.
×(a::AbstractVector, b::AbstractVector) = cross(a, b)
function cross(a::AbstractVector, b::AbstractVector)
    if !(length(a) == length(b) == 3)
        throw(DimensionMismatch("cross product is only defined for vectors of length 3"))
    end
    a1, a2, a3 = a[1], a[2], a[3]
    b1, b2, b3 = b[1], b[2], b[3]
    [a2 * b3 - a3 * b2, a3 * b1 - a1 * b3, a1 * b2 - a2 * b1]
end
/(x::Adjoint{T,S}, B::AbstractMatrix) where {T,S<:AbstractVector} = adjoint(adjoint(B) \ x.parent)

# The identity of any size (LinearAlgebra's `I`): `A + λ*I` adds λ to the diagonal.
struct UniformScaling{T<:Number}
    λ::T
end
const I = UniformScaling(true)
*(a::Number, J::UniformScaling) = UniformScaling(a * J.λ)
*(J::UniformScaling, a::Number) = UniformScaling(J.λ * a)
/(J::UniformScaling, a::Number) = UniformScaling(J.λ / a)
-(J::UniformScaling) = UniformScaling(-J.λ)
+(J::UniformScaling, K::UniformScaling) = UniformScaling(J.λ + K.λ)
-(J::UniformScaling, K::UniformScaling) = UniformScaling(J.λ - K.λ)
# `Matrix(I, m, n)`, `Matrix{T}(2I, m, n)`: λ on the diagonal, zero elsewhere.
function Matrix{T}(J::UniformScaling, m::Int64, n::Int64) where {T}
    A = fill!(Matrix{T}(undef, m, n), zero(T))
    for i in 1:min(m, n)
        A[i, i] = convert(T, J.λ)
    end
    A
end
Matrix(J::UniformScaling{T}, m::Int64, n::Int64) where {T} = Matrix{T}(J, m, n)
*(J::UniformScaling, A::AbstractArray) = J.λ * A
*(A::AbstractArray, J::UniformScaling) = A * J.λ
function +(A::AbstractMatrix, J::UniformScaling)
    m = size(A, 1)
    n = size(A, 2)
    if m != n
        throw(DimensionMismatch(string("matrix is not square: dimensions are (", m, ", ", n, ")")))
    end
    B = _solve_copy(A, Core.promote_type(eltype(A), typeof(J.λ)))
    for i in 1:n
        B[i, i] += J.λ
    end
    B
end
+(J::UniformScaling, A::AbstractMatrix) = A + J
-(A::AbstractMatrix, J::UniformScaling) = A + (-J)
-(J::UniformScaling, A::AbstractMatrix) = (-A) + J

# `x ≈ y`: Julia's `isapprox` (relative tolerance √eps by default; for arrays, in norm).
_rtol_default(::Type{T}) where {T<:AbstractFloat} = sqrt(eps(T))
_rtol_default(::Type{T}) where {T<:Real} = 0
# (The default relative tolerance is zero for integers: `10^9 ≈ 10^9 + 1` is false.)
function isapprox(x::Number, y::Number; atol = 0, rtol = atol > 0 ? 0 : max(_rtol_default(typeof(x)), _rtol_default(typeof(y))), nans::Bool = false)
    if x isa Integer && y isa Integer && atol < 1 && rtol == 0
        return x == y
    end
    x == y || (isfinite(x) && isfinite(y) && abs(x - y) <= max(atol, rtol * max(abs(x), abs(y)))) || (nans && isnan(x) && isnan(y))
end
function isapprox(x::AbstractArray, y::AbstractArray; atol = 0, rtol = atol > 0 ? 0 : max(_rtol_default(eltype(x)), _rtol_default(eltype(y))), nans::Bool = false)
    d = norm(x - y)
    if isfinite(d)
        return d <= max(atol, rtol * max(norm(x), norm(y)))
    end
    for k in 1:length(x)
        isapprox(x[k], y[k]; atol = atol, rtol = rtol, nans = nans) || return false
    end
    true
end
# A matrix against `λI`: in norm, `λI`'s norm taken as `|λ|√n`.
function isapprox(J::UniformScaling, A::AbstractMatrix; atol = 0, rtol = atol > 0 ? 0 : max(_rtol_default(eltype(A)), _rtol_default(typeof(J.λ))))
    n = size(A, 1)
    if size(A, 2) != n
        throw(DimensionMismatch(string("matrix is not square: dimensions are ", size(A))))
    end
    norm(A - J) <= max(atol, rtol * max(abs(J.λ) * sqrt(n), norm(A)))
end
isapprox(A::AbstractMatrix, J::UniformScaling; atol = 0, rtol = atol > 0 ? 0 : max(_rtol_default(eltype(A)), _rtol_default(typeof(J.λ)))) = isapprox(J, A; atol = atol, rtol = rtol)
≈(x, y) = isapprox(x, y)
⋅(x, y) = dot(x, y)

# Singular values (LinearAlgebra's `svdvals`), largest first, by one-sided Jacobi rotations of
# the columns (LAPACK's bidiagonal method can differ in the last bits). `opnorm(A)` is the
# largest, `cond(A)` the ratio of the largest to the smallest; `opnorm(A, 1)` and
# `opnorm(A, Inf)` are the largest column and row sums of magnitudes.
function svdvals(A::AbstractMatrix)
    T = typeof(float(one(eltype(A))))
    W = size(A, 1) >= size(A, 2) ? _solve_copy(A, T) : _solve_copy(transpose(A), T)
    sort!(_column_norms(_jacobi_orthogonalize!(W, nothing)); rev = true)
end
# The numerical rank (LinearAlgebra's `rank`): the singular values above
# max(atol, rtol * the largest), rtol = min(m, n) * eps by default (0 when `atol` is given).
function rank(A::AbstractMatrix; atol::Real = 0.0, rtol::Real = (min(size(A, 1), size(A, 2)) * eps(typeof(float(one(eltype(A)))))) * iszero(atol))
    isempty(A) && return 0
    s = svdvals(A)
    tol = max(atol, rtol * s[1])
    count(x -> x > tol, s)
end
rank(x::Union{Number,AbstractVector}) = iszero(x) ? 0 : 1
iszero(x::AbstractArray) = all(iszero, x)
# One-sided Jacobi: rotates pairs of W's columns until every pair is orthogonal to working
# precision, applying the same rotations to the columns of V (unless V is `nothing`). The
# tests compare squares, so that no square root of zero enters a derivative.
function _jacobi_orthogonalize!(W::Matrix{T}, V) where {T}
    m = size(W, 1)
    k = size(W, 2)
    for sweep in 1:100
        rotated = false
        for p in 1:(k - 1), q in (p + 1):k
            a = zero(T)
            b = zero(T)
            g = zero(T)
            for i in 1:m
                a += W[i, p] * W[i, p]
                b += W[i, q] * W[i, q]
                g += W[i, p] * W[i, q]
            end
            if !iszero(g) && g * g > eps(T) * eps(T) * (a * b)
                rotated = true
                z = (b - a) / (2 * g)
                t = (z >= 0 ? one(T) : -one(T)) / (abs(z) + sqrt(one(T) + z * z))
                c = one(T) / sqrt(one(T) + t * t)
                s = c * t
                _rotate_columns!(W, p, q, c, s)
                _rotate_columns!(V, p, q, c, s)
            end
        end
        rotated || break
    end
    W
end
_rotate_columns!(V::Nothing, p::Int64, q::Int64, c, s) = nothing
function _rotate_columns!(W::Matrix, p::Int64, q::Int64, c, s)
    for i in 1:size(W, 1)
        wp = W[i, p]
        wq = W[i, q]
        W[i, p] = c * wp - s * wq
        W[i, q] = s * wp + c * wq
    end
    W
end
# The Euclidean norms of W's columns.
function _column_norms(W::Matrix{T}) where {T}
    σ = Vector{T}(undef, size(W, 2))
    for j in 1:size(W, 2)
        s = zero(T)
        for i in 1:size(W, 1)
            s += W[i, j] * W[i, j]
        end
        σ[j] = s > 0 ? sqrt(s) : zero(T)
    end
    σ
end
function opnorm(A::AbstractMatrix, p::Real = 2)
    T = typeof(float(abs(one(eltype(A)))))
    m = size(A, 1)
    n = size(A, 2)
    if p == 2
        (m == 0 || n == 0) && return zero(T)
        return svdvals(A)[1]
    elseif p == 1
        best = zero(T)
        for j in 1:n
            s = zero(T)
            for i in 1:m
                s += abs(A[i, j])
            end
            best = max(best, s)
        end
        return best
    elseif p == Inf
        best = zero(T)
        for i in 1:m
            s = zero(T)
            for j in 1:n
                s += abs(A[i, j])
            end
            best = max(best, s)
        end
        return best
    end
    throw(ArgumentError(string("invalid p-norm p=", p, ". Valid: 1, 2, Inf")))
end
function cond(A::AbstractMatrix, p::Real = 2)
    if p == 2
        σ = svdvals(A)
        return σ[1] / σ[length(σ)]
    end
    opnorm(A, p) * opnorm(inv(A), p)
end
