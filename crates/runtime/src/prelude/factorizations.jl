# Factorisations (LinearAlgebra): `cholesky` and `lu`, their solves and determinants, and the
# in-place `mul!` and `ldiv!`.

# Cholesky factorisation (LinearAlgebra's `cholesky`): A = U'U for a symmetric positive
# definite A, computed in the upper triangle as LinearAlgebra does by default. `C.U` and `C.L`
# are the triangular factors (`UpperTriangular`, `LowerTriangular`), `C.factors` holds U in its upper triangle and
# A's own entries below, as LAPACK leaves them. A matrix that is not exactly symmetric is
# `PosDefException(-1)`; a non-positive pivot at step j is `PosDefException(j)`.
struct PosDefException <: Exception
    info::Int64
end

# (Julia keeps the triangle of `factors` holding the factor as a `Char` field `uplo`; here it is
# the flag `_upper`.)
struct Cholesky{T,S}
    factors::S
    _upper::Bool
    info::Int64
    U::UpperTriangular{T,S}
    L::LowerTriangular{T,S}
end

function issymmetric(A::AbstractMatrix)
    n = size(A, 1)
    n == size(A, 2) || return false
    for j in 1:n, i in (j + 1):n
        A[i, j] == A[j, i] || return false
    end
    true
end
ishermitian(A::AbstractMatrix{<:Real}) = issymmetric(A)

# The factor runs on a kernel (`Core.array_cholesky`, unblocked and column by column, with a
# matrix-level AD rule) reading the upper triangle of `F`; the first diagonal entry of its
# result that is not positive is the step where the factorisation stopped. `factors` holds the
# factor in the triangle the input was read from and `D`'s own entries in the other one.
function _cholesky_of(F::Matrix{T}, upper::Bool, D::Matrix{T}, check::Bool) where {T}
    U = Core.array_cholesky(F)
    info = 0
    for j in 1:size(U, 1)
        if !(U[j, j] > zero(T))
            info = j
            break
        end
    end
    check && info != 0 && throw(PosDefException(info))
    L = Core.array_tricopy(U, 0, 1, true)
    factors = upper ? U + Core.array_tricopy(D, -1, 0, false) : L + Core.array_tricopy(D, 1, 0, false)
    Cholesky{T,Matrix{T}}(factors, upper, info, UpperTriangular(U), LowerTriangular(L))
end
function cholesky(A::AbstractMatrix; check::Bool = true)
    _checksquare(A)
    T = typeof(sqrt(one(eltype(A))))
    F = _dense(A, T)
    issymmetric(A) && return _cholesky_of(F, true, F, check)
    check && throw(PosDefException(-1))
    U = Core.array_tricopy(F, 1, 1, false)
    Cholesky{T,Matrix{T}}(copy(F), true, -1, UpperTriangular(U), LowerTriangular(Core.array_tricopy(U, 0, 1, true)))
end
# A `Symmetric` matrix is factorised from the triangle it keeps, without a symmetry check.
function cholesky(S::Symmetric; check::Bool = true)
    _checksquare(S.data)
    T = typeof(sqrt(one(eltype(S))))
    D = _dense(S.data, T)
    S._upper ? _cholesky_of(D, true, D, check) : _cholesky_of(Core.array_tricopy(D, 0, 1, true), false, D, check)
end

issuccess(C::Cholesky) = C.info == 0
isposdef(A::AbstractMatrix) = issymmetric(A) && cholesky(A; check = false).info == 0
size(C::Cholesky) = size(C.factors)
size(C::Cholesky, d::Int64) = size(C.factors, d)
function _chol_checked(C::Cholesky)
    C.info == 0 || throw(PosDefException(C.info))
    C
end

# `C \ B`: U'Y = B, then U X = Y, by two triangular solves (LAPACK's `potrs`).
function \(C::Cholesky, B::AbstractVecOrMat)
    _chol_checked(C)
    n = size(C.factors, 1)
    size(B, 1) == n || throw(DimensionMismatch(string("B has first dimension ", size(B, 1), " but needs to match matrix dimension ", n)))
    T = _solve_eltype(C.factors, B)
    _trsolve(C.U.data, _trsolve(C.U.data, B, T, true, true, false), T, true, false, false)
end
function logdet(C::Cholesky)
    _chol_checked(C)
    d = zero(eltype(C.U))
    for i in 1:size(C.U, 1)
        d += log(C.U.data[i, i])
    end
    d + d
end
function det(C::Cholesky)
    _chol_checked(C)
    d = one(eltype(C.U))
    for i in 1:size(C.U, 1)
        d *= C.U.data[i, i]^2
    end
    d
end
logabsdet(C::Cholesky) = (logdet(C), one(eltype(C.U)))
inv(C::Cholesky) = C \ Matrix{eltype(C.U)}(I, size(C.U, 1), size(C.U, 1))

# LU factorisation with partial pivoting (LinearAlgebra's `lu`): P A = L U. `F.L` (unit lower
# triangular), `F.U`, `F.p` (the row permutation) and `F.P` (its matrix) are dense; `F.factors`
# and `F.ipiv` are LAPACK's packed factors and row exchanges. A zero pivot is a
# `SingularException` unless `check = false` (then `issuccess(F)` is false).
struct LU{T,S,V}
    factors::S
    ipiv::V
    info::Int64
    L::S
    U::S
    p::V
    P::S
end
function lu(A::AbstractMatrix; check::Bool = true)
    if size(A, 1) != size(A, 2)
        error("not supported yet: `lu` of a non-square matrix")
    end
    F, piv, info = _lu_of(A)
    check && info > 0 && throw(SingularException(info))
    T = eltype(F)
    n = size(F, 1)
    L = zeros(T, n, n)
    U = zeros(T, n, n)
    for j in 1:n, i in 1:n
        if i > j
            L[i, j] = F[i, j]
        else
            U[i, j] = F[i, j]
        end
    end
    for i in 1:n
        L[i, i] = one(T)
    end
    p = collect(1:n)
    for k in 1:n
        t = p[k]
        p[k] = p[piv[k]]
        p[piv[k]] = t
    end
    P = zeros(T, n, n)
    for i in 1:n
        P[i, p[i]] = one(T)
    end
    LU{T,Matrix{T},Vector{Int64}}(F, piv, info, L, U, p, P)
end
issuccess(F::LU) = F.info == 0
size(F::LU) = size(F.factors)
size(F::LU, d::Int64) = size(F.factors, d)
function \(F::LU, B::AbstractVecOrMat)
    F.info > 0 && throw(SingularException(F.info))
    n = size(F.factors, 1)
    if size(B, 1) != n
        throw(DimensionMismatch(string("B has leading dimension ", size(B, 1), ", but needs ", n)))
    end
    _lu_solve(F.factors, F.ipiv, B, _solve_eltype(F.factors, B))
end
det(F::LU) = _lu_det(F.factors, F.ipiv, F.info)
logabsdet(F::LU) = _lu_logabsdet(F.factors, F.ipiv)
function logdet(F::LU)
    d, s = logabsdet(F)
    d + log(s)
end
inv(F::LU) = F \ Matrix{eltype(F.factors)}(I, size(F.factors, 1), size(F.factors, 1))

# In-place products and solves: `mul!(C, A, B)` writes A*B into C, `mul!(C, A, B, α, β)` writes
# A*B*α + C*β; `ldiv!(F, B)` overwrites B with F \ B for a factorisation or a structured matrix,
# `ldiv!(Y, F, B)` writes F \ B into Y.
function _mul_dest_check(C, A, B)
    m = size(A, 1)
    n = ndims(B) == 1 ? 1 : size(B, 2)
    if size(C, 1) != m || (ndims(C) == 1 ? 1 : size(C, 2)) != n
        throw(DimensionMismatch(string("result C has dimensions ", size(C), ", needs (", m, ", ", n, ")")))
    end
end
function mul!(C::AbstractVecOrMat, A::AbstractVecOrMat, B::AbstractVecOrMat)
    R = A * B
    _mul_dest_check(C, A, B)
    for k in 1:length(R)
        C[k] = R[k]
    end
    C
end
function mul!(C::AbstractVecOrMat, A::AbstractVecOrMat, B::AbstractVecOrMat, α::Number, β::Number)
    R = A * B
    _mul_dest_check(C, A, B)
    if iszero(β)
        for k in 1:length(R)
            C[k] = R[k] * α
        end
    else
        for k in 1:length(R)
            C[k] = R[k] * α + C[k] * β
        end
    end
    C
end
function _ldiv_into!(B::AbstractVecOrMat, X)
    for k in 1:length(X)
        B[k] = X[k]
    end
    B
end
ldiv!(F::Union{LU,Cholesky,Diagonal,LowerTriangular,UpperTriangular}, B::AbstractVecOrMat) = _ldiv_into!(B, F \ B)
function ldiv!(Y::AbstractVecOrMat, F::Union{LU,Cholesky,Diagonal,LowerTriangular,UpperTriangular}, B::AbstractVecOrMat)
    size(Y) == size(B) || throw(DimensionMismatch(string("size of Y, ", size(Y), ", does not match size of B, ", size(B))))
    _ldiv_into!(Y, F \ B)
end

# QR factorisation by Householder reflections (LAPACK's unblocked `geqr2`, with `larfg`'s
# reflectors): A = Q R. `F.R` is the min(m, n)×n upper triangle; `F.Q` applies the reflectors
# (`F.Q * x`, `F.Q' * y`, `Matrix(F.Q)` the thin m×min(m, n) factor); `F \ b` is the least-
# squares solution for m ≥ n. Julia returns the blocked `QRCompactWY` form, with the same
# factors up to the last bits.
struct QRPackedQ{T,S,C}
    factors::S
    τ::C
end
struct AdjointQ{T,Q}
    Q::Q
end
struct QR{T,S,C}
    factors::S
    τ::C
    Q::QRPackedQ{T,S,C}
    R::S
end
# Reflector k applied to rows k:m of column c of X: X -= τ v (v' X), v = [1; factors[k+1:m, k]].
function _qr_reflect!(F, τ, k::Int64, X, c::Int64)
    m = size(F, 1)
    s = X[k, c]
    for i in (k + 1):m
        s += F[i, k] * X[i, c]
    end
    s *= τ[k]
    X[k, c] -= s
    for i in (k + 1):m
        X[i, c] -= s * F[i, k]
    end
    X
end
function _qr_factor!(F::Matrix{T}) where {T}
    m = size(F, 1)
    n = size(F, 2)
    kmax = min(m, n)
    τ = zeros(T, kmax)
    for k in 1:kmax
        α = F[k, k]
        ss = zero(T)
        for i in (k + 1):m
            ss += F[i, k] * F[i, k]
        end
        if !iszero(ss)
            β = -copysign(sqrt(α * α + ss), α)
            τ[k] = (β - α) / β
            r = one(T) / (α - β)
            for i in (k + 1):m
                F[i, k] *= r
            end
            F[k, k] = β
            for c in (k + 1):n
                _qr_reflect!(F, τ, k, F, c)
            end
        end
    end
    τ
end
function qr(A::AbstractMatrix)
    T = typeof(one(eltype(A)) / one(eltype(A)))
    F = _solve_copy(A, T)
    τ = _qr_factor!(F)
    m = size(F, 1)
    n = size(F, 2)
    R = zeros(T, min(m, n), n)
    for j in 1:n, i in 1:min(j, m)
        R[i, j] = F[i, j]
    end
    QR{T,Matrix{T},Vector{T}}(F, τ, QRPackedQ{T,Matrix{T},Vector{T}}(F, τ), R)
end
size(F::QR) = size(F.factors)
size(F::QR, d::Int64) = size(F.factors, d)
size(Q::QRPackedQ) = (size(Q.factors, 1), size(Q.factors, 1))
size(Q::QRPackedQ, d::Int64) = d <= 2 ? size(Q.factors, 1) : 1
size(Q::AdjointQ) = size(Q.Q)
size(Q::AdjointQ, d::Int64) = size(Q.Q, d)
eltype(Q::QRPackedQ{T,S,C}) where {T,S,C} = T
adjoint(Q::QRPackedQ{T,S,C}) where {T,S,C} = AdjointQ{T,typeof(Q)}(Q)
adjoint(Q::AdjointQ) = Q.Q
transpose(Q::QRPackedQ{T,S,C}) where {T<:Real,S,C} = adjoint(Q)
function _q_rhs(Q, B::AbstractVecOrMat)
    m = size(Q, 1)
    if size(B, 1) != m
        throw(DimensionMismatch(string("second dimension of Q, ", m, ", does not match the first of B, ", size(B, 1))))
    end
    _solve_copy(B, Core.promote_type(eltype(Q), eltype(B)))
end
# Q x = H₁ H₂ ⋯ Hₖ x: the last reflector first.
function *(Q::QRPackedQ, B::AbstractVecOrMat)
    X = _q_rhs(Q, B)
    for c in 1:size(X, 2), k in length(Q.τ):-1:1
        _qr_reflect!(Q.factors, Q.τ, k, X, c)
    end
    X
end
function *(Qt::AdjointQ, B::AbstractVecOrMat)
    Q = Qt.Q
    X = _q_rhs(Q, B)
    for c in 1:size(X, 2), k in 1:length(Q.τ)
        _qr_reflect!(Q.factors, Q.τ, k, X, c)
    end
    X
end
function Matrix(Q::QRPackedQ{T,S,C}) where {T,S,C}
    Q * Matrix{T}(I, size(Q.factors, 1), min(size(Q.factors, 1), size(Q.factors, 2)))
end
Matrix{T}(Q::QRPackedQ) where {T} = Matrix{T}(Matrix(Q))
function getindex(Q::QRPackedQ{T,S,C}, i::Int64, j::Int64) where {T,S,C}
    m = size(Q.factors, 1)
    if i < 1 || j < 1 || i > m || j > m
        Core.throw_bounds(Q, (i, j))
    end
    e = zeros(T, m)
    e[j] = one(T)
    (Q * e)[i]
end
function \(F::QR, B::AbstractVecOrMat)
    m = size(F.factors, 1)
    n = size(F.factors, 2)
    if m < n
        error("not supported yet: least squares with fewer rows than columns (minimum-norm solutions)")
    end
    Y = adjoint(F.Q) * B
    for i in 1:n
        iszero(F.factors[i, i]) && throw(SingularException(i))
    end
    X = ndims(B) == 1 ? Y[1:n] : Y[1:n, :]
    for c in 1:size(X, 2)
        _back_subst!(F.factors, X, c, n)
    end
    X
end
det(F::QR) = error("not supported yet: `det` of a QR factorisation")
# `A \ b` with more rows than columns: the least-squares solution, through `qr`. (Julia uses a
# column-pivoted QR; for a matrix of full column rank both give the same solution up to the
# last bits. A rank-deficient matrix is not supported yet.)
function _least_squares(A::AbstractMatrix, B::AbstractVecOrMat)
    m = size(A, 1)
    n = size(A, 2)
    if size(B, 1) != m
        throw(DimensionMismatch(string("B has leading dimension ", size(B, 1), ", but needs ", m)))
    end
    m < n && error("not supported yet: `\\` with more columns than rows (minimum-norm solutions)")
    F = qr(A)
    big = zero(eltype(F.factors))
    for i in 1:n
        big = max(big, abs(F.factors[i, i]))
    end
    for i in 1:n
        if abs(F.factors[i, i]) <= big * max(m, n) * eps(typeof(big))
            error("not supported yet: `\\` with a rank-deficient matrix (least squares needs full column rank here)")
        end
    end
    F \ B
end
