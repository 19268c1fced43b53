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
# Destructuring, as LinearAlgebra iterates a factorisation: `L, U = cholesky(A)`.
iterate(C::Cholesky) = (C.L, Val(:U))
iterate(C::Cholesky, ::Val{:U}) = (C.U, Val(:done))
iterate(C::Cholesky, ::Val{:done}) = nothing
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
# Partial pivoting of a non-square matrix (the square case runs on the `Core.array_lu` kernel,
# except for complex matrices): LAPACK's unblocked `getf2` over the first min(m, n) columns,
# choosing pivots by `abs` of real entries and `|re| + |im|` of complex ones, as LAPACK does.
_pivot_size(x::Real) = abs(x)
# Exchanges rows k and p of a matrix (or entries of a vector), in place.
function _swap_rows!(X::AbstractVecOrMat, k::Int64, p::Int64)
    p == k && return X
    for c in 1:size(X, 2)
        t = X[k, c]
        X[k, c] = X[p, c]
        X[p, c] = t
    end
    X
end
_pivot_size(z::Complex) = abs(real(z)) + abs(imag(z))
function _lu_rect(A::AbstractMatrix)
    m = size(A, 1)
    n = size(A, 2)
    F = _solve_copy(A, typeof(one(eltype(A)) / one(eltype(A))))
    kmax = min(m, n)
    piv = Vector{Int64}(undef, kmax)
    info = 0
    for k in 1:kmax
        p = k
        big = _pivot_size(F[k, k])
        for i in (k + 1):m
            if _pivot_size(F[i, k]) > big
                big = _pivot_size(F[i, k])
                p = i
            end
        end
        piv[k] = p
        if iszero(F[p, k])
            info == 0 && (info = k)
        else
            _swap_rows!(F, k, p)
            r = one(eltype(F)) / F[k, k]
            for i in (k + 1):m
                F[i, k] *= r
            end
            for j in (k + 1):n
                a = F[k, j]
                for i in (k + 1):m
                    F[i, j] -= F[i, k] * a
                end
            end
        end
    end
    F, piv, info
end
function lu(A::AbstractMatrix; check::Bool = true)
    m = size(A, 1)
    n = size(A, 2)
    F, piv, info = m == n ? _lu_of(A) : _lu_rect(A)
    check && info > 0 && throw(SingularException(info))
    T = eltype(F)
    k = min(m, n)
    L = zeros(T, m, k)
    U = zeros(T, k, n)
    for j in 1:n, i in 1:m
        if i > j
            j <= k && (L[i, j] = F[i, j])
        elseif i <= k
            U[i, j] = F[i, j]
        end
    end
    for i in 1:k
        L[i, i] = one(T)
    end
    p = collect(1:m)
    for i in 1:k
        t = p[i]
        p[i] = p[piv[i]]
        p[piv[i]] = t
    end
    P = zeros(T, m, m)
    for i in 1:m
        P[i, p[i]] = one(T)
    end
    LU{T,Matrix{T},Vector{Int64}}(F, piv, info, L, U, p, P)
end
issuccess(F::LU) = F.info == 0
size(F::LU) = size(F.factors)
size(F::LU, d::Int64) = size(F.factors, d)
# `L, U, p = lu(A)`.
iterate(F::LU) = (F.L, Val(:U))
iterate(F::LU, ::Val{:U}) = (F.U, Val(:p))
iterate(F::LU, ::Val{:p}) = (F.p, Val(:done))
iterate(F::LU, ::Val{:done}) = nothing
function \(F::LU, B::AbstractVecOrMat)
    n = _checksquare(F.factors)
    F.info > 0 && throw(SingularException(F.info))
    if size(B, 1) != n
        throw(DimensionMismatch(string("B has leading dimension ", size(B, 1), ", but needs ", n)))
    end
    _lu_solve(F.factors, F.ipiv, B, _solve_eltype(F.factors, B))
end
function det(F::LU)
    _checksquare(F.factors)
    _lu_det(F.factors, F.ipiv, F.info)
end
function logabsdet(F::LU)
    _checksquare(F.factors)
    _lu_logabsdet(F.factors, F.ipiv)
end
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
# Reflector k applied to rows k:m of column c of X: X -= τk v (v' X), v = [1; factors[k+1:m, k]].
# Reflector k is H = I - τ[k] v v'; H itself is applied with τk = τ[k] and H' with conj(τ[k])
# (the same for real matrices).
function _qr_reflect!(F, τk, k::Int64, X, c::Int64)
    m = size(F, 1)
    s = X[k, c]
    for i in (k + 1):m
        s += conj(F[i, k]) * X[i, c]
    end
    s *= τk
    X[k, c] -= s
    for i in (k + 1):m
        X[i, c] -= s * F[i, k]
    end
    X
end
# The Householder reflector of a vector [α; x] with ‖x‖² = ss > 0 (LAPACK's `larfg`, real or
# complex): the real value β = ∓‖[α; x]‖ (the sign opposite to real(α)) it maps the vector to,
# its τ, and the factor that scales x into the reflector's stored tail.
function _reflector(α, ss)
    β = -copysign(sqrt(abs2(α) + ss), real(α))
    (β, (β - α) / β, one(β) / (α - β))
end
# Householder step k: the reflector that zeroes column k of F below the diagonal is stored
# there (with τ[k]) and applied to the columns right of k.
function _qr_column!(F::Matrix{T}, τ, k::Int64) where {T}
    m = size(F, 1)
    ss = abs2(zero(T))
    for i in (k + 1):m
        ss += abs2(F[i, k])
    end
    if !iszero(ss)
        β, τ[k], r = _reflector(F[k, k], ss)
        for i in (k + 1):m
            F[i, k] *= r
        end
        F[k, k] = β
        for c in (k + 1):size(F, 2)
            _qr_reflect!(F, conj(τ[k]), k, F, c)
        end
    end
    F
end
function _qr_factor!(F::Matrix{T}) where {T}
    τ = zeros(T, min(size(F, 1), size(F, 2)))
    for k in 1:length(τ)
        _qr_column!(F, τ, k)
    end
    τ
end
# QR with column pivoting (LAPACK's unblocked `laqp2`): before step k the remaining column of
# largest norm (the first of equals) is moved to position k; `jpvt[k]` is the original index of
# column k. The norms of the remaining parts are downdated after each step and recomputed when
# cancellation makes the downdate inaccurate. They are kept squared (the same order of columns)
# so that no square root of zero enters the derivative.
function _qr_pivoted_factor!(F::Matrix{T}) where {T}
    m = size(F, 1)
    n = size(F, 2)
    τ = zeros(T, min(m, n))
    jpvt = collect(1:n)
    vn1 = zeros(T, n)
    vn2 = zeros(T, n)
    for j in 1:n
        s = zero(T)
        for i in 1:m
            s += F[i, j] * F[i, j]
        end
        vn1[j] = s
        vn2[j] = s
    end
    tol = sqrt(eps(T))
    for k in 1:length(τ)
        p = k
        for j in (k + 1):n
            if vn1[j] > vn1[p]
                p = j
            end
        end
        if p != k
            for i in 1:m
                t = F[i, p]
                F[i, p] = F[i, k]
                F[i, k] = t
            end
            jp = jpvt[p]
            jpvt[p] = jpvt[k]
            jpvt[k] = jp
            vn1[p] = vn1[k]
            vn2[p] = vn2[k]
        end
        _qr_column!(F, τ, k)
        for j in (k + 1):n
            if !iszero(vn1[j])
                temp = max(one(T) - F[k, j] * F[k, j] / vn1[j], zero(T))
                if temp * vn1[j] / vn2[j] <= tol
                    s = zero(T)
                    for i in (k + 1):m
                        s += F[i, j] * F[i, j]
                    end
                    vn1[j] = s
                    vn2[j] = s
                else
                    vn1[j] *= temp
                end
            end
        end
    end
    τ, jpvt
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
# `Q, R = qr(A)`.
iterate(F::QR) = (F.Q, Val(:R))
iterate(F::QR, ::Val{:R}) = (F.R, Val(:done))
iterate(F::QR, ::Val{:done}) = nothing
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
        _qr_reflect!(Q.factors, Q.τ[k], k, X, c)
    end
    X
end
function *(Qt::AdjointQ, B::AbstractVecOrMat)
    Q = Qt.Q
    X = _q_rhs(Q, B)
    for c in 1:size(X, 2), k in 1:length(Q.τ)
        _qr_reflect!(Q.factors, conj(Q.τ[k]), k, X, c)
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
function _qr_rhs_check(m::Int64, B::AbstractVecOrMat)
    if size(B, 1) != m
        throw(DimensionMismatch(string("B has leading dimension ", size(B, 1), ", but needs ", m)))
    end
end
function \(F::QR, B::AbstractVecOrMat)
    m = size(F.factors, 1)
    n = size(F.factors, 2)
    _qr_rhs_check(m, B)
    m < n && return _min_norm_solve(F.factors, F.τ, collect(1:n), m, B)
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

# QR with column pivoting, `qr(A, ColumnNorm())`: A[:, p] = Q R. `F.p` is the column
# permutation, `F.P` its matrix (A P = Q R); `F \ b` is the minimum-norm least-squares solution
# over A's numerical rank, as `A \ b` gives for a non-square A.
struct NoPivot end
struct ColumnNorm end
struct QRPivoted{T,S,C,V}
    factors::S
    τ::C
    jpvt::V
    Q::QRPackedQ{T,S,C}
    R::S
    p::V
    P::S
end
qr(A::AbstractMatrix, ::NoPivot) = qr(A)
function qr(A::AbstractMatrix, ::ColumnNorm)
    T = typeof(one(eltype(A)) / one(eltype(A)))
    F = _solve_copy(A, T)
    τ, jpvt = _qr_pivoted_factor!(F)
    m = size(F, 1)
    n = size(F, 2)
    R = zeros(T, min(m, n), n)
    for j in 1:n, i in 1:min(j, m)
        R[i, j] = F[i, j]
    end
    P = zeros(T, n, n)
    for j in 1:n
        P[jpvt[j], j] = one(T)
    end
    QRPivoted{T,Matrix{T},Vector{T},Vector{Int64}}(F, τ, jpvt, QRPackedQ{T,Matrix{T},Vector{T}}(F, τ), R, copy(jpvt), P)
end
size(F::QRPivoted) = size(F.factors)
size(F::QRPivoted, d::Int64) = size(F.factors, d)
# `Q, R, p = qr(A, ColumnNorm())`.
iterate(F::QRPivoted) = (F.Q, Val(:R))
iterate(F::QRPivoted, ::Val{:R}) = (F.R, Val(:p))
iterate(F::QRPivoted, ::Val{:p}) = (F.p, Val(:done))
iterate(F::QRPivoted, ::Val{:done}) = nothing
function \(F::QRPivoted, B::AbstractVecOrMat)
    m = size(F.factors, 1)
    n = size(F.factors, 2)
    _qr_rhs_check(m, B)
    rcond = min(m, n) * eps(eltype(F.factors))
    _min_norm_solve(F.factors, F.τ, F.jpvt, _qr_rank(F.factors, rcond), B)
end

# One step of incremental condition estimation (LAPACK's `laic1`). `sest` estimates the
# largest (`largest`) or smallest singular value of the leading j×j block of a triangle, with
# unit vector x; `alpha` is x'w for the next column's upper part w and `gamma` its diagonal
# entry. Returns the estimate for the (j+1)×(j+1) block and the sine and cosine that extend x
# to (sine x, cosine).
function _condition_step(largest::Bool, sest::T, alpha::T, gamma::T) where {T}
    ϵ = eps(T)
    aα = abs(alpha)
    aγ = abs(gamma)
    aσ = abs(sest)
    if sest == 0
        if largest
            s1 = max(aγ, aα)
            s1 == 0 && return (zero(T), zero(T), one(T))
            s = alpha / s1
            c = gamma / s1
            h = sqrt(s * s + c * c)
            return (s1 * h, s / h, c / h)
        end
        sine = max(aγ, aα) == 0 ? one(T) : -gamma
        cosine = max(aγ, aα) == 0 ? zero(T) : alpha
        s1 = max(abs(sine), abs(cosine))
        s = sine / s1
        c = cosine / s1
        h = sqrt(s * s + c * c)
        return (zero(T), s / h, c / h)
    elseif aγ <= ϵ * aσ
        largest || return (aγ, zero(T), one(T))
        h = max(aσ, aα)
        s1 = aσ / h
        s2 = aα / h
        return (h * sqrt(s1 * s1 + s2 * s2), one(T), zero(T))
    elseif aα <= ϵ * aσ
        if largest
            return aγ <= aσ ? (aσ, one(T), zero(T)) : (aγ, zero(T), one(T))
        end
        return aγ <= aσ ? (aγ, zero(T), one(T)) : (aσ, one(T), zero(T))
    elseif aσ <= ϵ * aα || aσ <= ϵ * aγ
        if aγ <= aα
            h = aγ / aα
            r = sqrt(h * h + one(T))
            largest && return (aα * r, copysign(one(T), alpha) / r, gamma / aα / r)
            return (aσ * (h / r), -(gamma / aα) / r, copysign(one(T), alpha) / r)
        end
        h = aα / aγ
        r = sqrt(h * h + one(T))
        largest && return (aγ * r, alpha / aγ / r, copysign(one(T), gamma) / r)
        return (aσ / r, -copysign(one(T), gamma) / r, alpha / aγ / r)
    end
    z1 = alpha / aσ
    z2 = gamma / aσ
    if largest
        b = (one(T) - z1 * z1 - z2 * z2) / 2
        c = z1 * z1
        t = b > 0 ? c / (b + sqrt(b * b + c)) : sqrt(b * b + c) - b
        sine = -z1 / t
        cosine = -z2 / (t + one(T))
        h = sqrt(sine * sine + cosine * cosine)
        return (sqrt(t + one(T)) * aσ, sine / h, cosine / h)
    end
    norma = max(z1 * z1 + one(T) + abs(z1 * z2), abs(z1 * z2) + z2 * z2)
    if 2 * (z1 - z2) * (z1 + z2) + one(T) >= 0
        b = (z1 * z1 + z2 * z2 + one(T)) / 2
        c = z2 * z2
        t = c / (b + sqrt(abs(b * b - c)))
        sine = z1 / (one(T) - t)
        cosine = -z2 / t
        est = sqrt(t + 4 * ϵ * ϵ * norma) * aσ
    else
        b = (z2 * z2 + z1 * z1 - one(T)) / 2
        c = z1 * z1
        t = b >= 0 ? -c / (b + sqrt(b * b + c)) : b - sqrt(b * b + c)
        sine = -z1 / t
        cosine = -z2 / (t + one(T))
        est = sqrt(t + one(T) + 4 * ϵ * ϵ * norma) * aσ
    end
    h = sqrt(sine * sine + cosine * cosine)
    (est, sine / h, cosine / h)
end
# The numerical rank of a pivoted QR factorisation (as LinearAlgebra's `xgelsy`-like solve
# decides it): the largest leading triangle of R whose estimated condition number stays below
# 1/rcond.
function _qr_rank(F::Matrix{T}, rcond) where {T}
    kmax = min(size(F, 1), size(F, 2))
    (kmax == 0 || iszero(F[1, 1])) && return 0
    xmin = [one(T)]
    xmax = [one(T)]
    smin = abs(F[1, 1])
    smax = smin
    r = 1
    while r < kmax
        γ = F[r + 1, r + 1]
        αmin = zero(T)
        αmax = zero(T)
        for i in 1:r
            αmin += xmin[i] * F[i, r + 1]
            αmax += xmax[i] * F[i, r + 1]
        end
        tmin, sn, cn = _condition_step(false, smin, αmin, γ)
        tmax, sx, cx = _condition_step(true, smax, αmax, γ)
        tmax * rcond > tmin && break
        for i in 1:r
            xmin[i] *= sn
            xmax[i] *= sx
        end
        push!(xmin, cn)
        push!(xmax, cx)
        smin = tmin
        smax = tmax
        r += 1
    end
    r
end
# The minimum-norm solution of min ‖A x - b‖ from A's (pivoted) QR factors over the first `r`
# columns of R (A's rank): Q'b, then the r×n trapezoid [R₁₁ R₁₂] reduced to [U 0] Z by
# reflectors from the right (LAPACK's `tzrzf`), a triangular solve with U, Z' applied, and the
# column permutation undone.
function _min_norm_solve(F::Matrix{T}, τ, jpvt, r::Int64, B::AbstractVecOrMat) where {T}
    n = size(F, 2)
    nrhs = ndims(B) == 1 ? 1 : size(B, 2)
    Y = _solve_copy(B, typeof(one(T) * one(eltype(B))))
    for c in 1:nrhs, k in 1:length(τ)
        _qr_reflect!(F, conj(τ[k]), k, Y, c)
    end
    X = zeros(eltype(Y), n, nrhs)
    for c in 1:nrhs, i in 1:r
        X[i, c] = Y[i, c]
    end
    U = zeros(T, r, n)
    for j in 1:n, i in 1:min(j, r)
        U[i, j] = F[i, j]
    end
    σ = zeros(T, r)
    for k in r:-1:1
        ss = zero(T)
        for j in (r + 1):n
            ss += U[k, j] * U[k, j]
        end
        if !iszero(ss)
            β, σ[k], d = _reflector(U[k, k], ss)
            for j in (r + 1):n
                U[k, j] *= d
            end
            U[k, k] = β
            for i in 1:(k - 1)
                _rz_reflect!(view(U, i, :), U, k, r, σ[k])
            end
        end
    end
    for c in 1:nrhs
        _back_subst!(U, X, c, r)
        for k in 1:r
            _rz_reflect!(view(X, :, c), U, k, r, σ[k])
        end
    end
    Z = zeros(eltype(Y), n, nrhs)
    for c in 1:nrhs, j in 1:n
        Z[jpvt[j], c] = X[j, c]
    end
    ndims(B) == 1 ? vec(Z) : Z
end
# Reflector k of that reduction (v = e_k plus U[k, j] at j = r+1:n, with σk) applied to the
# vector x: a row of U from the right, or a solution column.
function _rz_reflect!(x, U, k::Int64, r::Int64, σk)
    s = x[k]
    for j in (r + 1):size(U, 2)
        s += x[j] * U[k, j]
    end
    s *= σk
    x[k] -= s
    for j in (r + 1):size(U, 2)
        x[j] -= s * U[k, j]
    end
    x
end
# `A \ B` for a non-square A (LinearAlgebra's choice): the minimum-norm least-squares solution
# through a column-pivoted QR over A's numerical rank, for tall, wide and rank-deficient A.
function _least_squares(A::AbstractMatrix, B::AbstractVecOrMat)
    _qr_rhs_check(size(A, 1), B)
    qr(A, ColumnNorm()) \ B
end

# Eigendecomposition of a real symmetric matrix (`eigen(A)` of a symmetric `A` or of a
# `Symmetric` view; `eigvals`, `eigvecs`, `eigmax`, `eigmin`): eigenvalues in ascending order
# and orthonormal eigenvectors in the columns of `F.vectors`, by cyclic Jacobi rotations until
# every off-diagonal entry is negligible against its two diagonal entries. `λ, V = eigen(A)`
# destructures. LAPACK's tridiagonal method gives the same values up to the last bits and each
# eigenvector up to its sign (which LAPACK does not define either).
struct Eigen{T,V,S,U}
    values::U
    vectors::S
end
function _sym_eigen(A::AbstractMatrix)
    n = _checksquare(A)
    T = typeof(float(one(eltype(A))))
    W = _solve_copy(A, T)
    V = Matrix{T}(I, n, n)
    ϵ = eps(T)
    for sweep in 1:100
        rotated = false
        for p in 1:(n - 1), q in (p + 1):n
            apq = W[p, q]
            app = W[p, p]
            aqq = W[q, q]
            if !iszero(apq) && apq * apq > ϵ * ϵ * abs(app * aqq)
                rotated = true
                θ = (aqq - app) / (2 * apq)
                t = (θ >= 0 ? one(T) : -one(T)) / (abs(θ) + sqrt(θ * θ + one(T)))
                c = one(T) / sqrt(t * t + one(T))
                s = t * c
                τ = s / (one(T) + c)
                W[p, p] = app - t * apq
                W[q, q] = aqq + t * apq
                W[p, q] = zero(T)
                W[q, p] = zero(T)
                for r in 1:n
                    if r != p && r != q
                        wrp = W[r, p]
                        wrq = W[r, q]
                        W[r, p] = wrp - s * (wrq + τ * wrp)
                        W[r, q] = wrq + s * (wrp - τ * wrq)
                        W[p, r] = W[r, p]
                        W[q, r] = W[r, q]
                    end
                end
                _rotate_columns!(V, p, q, c, s)
            end
        end
        rotated || break
    end
    λ = [W[i, i] for i in 1:n]
    order = sortperm(λ)
    vals = λ[order]
    vecs = V[:, order]
    Eigen{T,T,Matrix{T},Vector{T}}(vals, vecs)
end

# Eigendecomposition of a real non-symmetric matrix, as LAPACK's `geev` computes it: reduction
# to Hessenberg form by Householder reflectors, Francis double-shift QR steps to the real Schur
# form T = Z' A Z (a 1×1 diagonal block per real eigenvalue, a 2×2 block per complex conjugate
# pair), then each eigenvector by back substitution in T, mapped back by Z and scaled to unit
# length. When every eigenvalue is real the result is real (`Eigen{Float64}`), otherwise
# complex, with each conjugate pair exactly conjugate and each complex eigenvector turned so
# that its largest component is real and positive (LAPACK makes it real; eigenvectors are only
# defined up to such a factor). Eigenvalues are sorted by (real part, imaginary part), as
# `eigen` sorts them. Both modes differentiate through the iteration; the derivative is the
# eigenvalues' (and eigenvectors') own where they are distinct.
#
# The reflector I - τ v v' with v = [1; v2; v3] (v3 unused when nr = 2), applied to rows
# k:k+nr-1 of H over columns c1:n and to columns k:k+nr-1 of H over rows 1:r2 and of Z.
function _francis_reflect!(H, Z, k::Int64, nr::Int64, v2, v3, τ, c1::Int64, r2::Int64)
    n = size(H, 1)
    for j in c1:n
        s = H[k, j] + v2 * H[k + 1, j]
        if nr == 3
            s += v3 * H[k + 2, j]
        end
        s *= τ
        H[k, j] -= s
        H[k + 1, j] -= s * v2
        if nr == 3
            H[k + 2, j] -= s * v3
        end
    end
    for M in (H, Z)
        rows = M === H ? r2 : n
        for i in 1:rows
            s = M[i, k] + v2 * M[i, k + 1]
            if nr == 3
                s += v3 * M[i, k + 2]
            end
            s *= τ
            M[i, k] -= s
            M[i, k + 1] -= s * v2
            if nr == 3
                M[i, k + 2] -= s * v3
            end
        end
    end
    nothing
end
# The reflector mapping [x; y; z] (or [x; y] when nr = 2) to a multiple of e₁, applied as above;
# returns false when the vector is already such a multiple.
function _francis_bulge!(H, Z, k::Int64, nr::Int64, x, y, z, c1::Int64, r2::Int64)
    ss = nr == 3 ? y * y + z * z : y * y
    iszero(ss) && return false
    β, τ, r = _reflector(x, ss)
    _francis_reflect!(H, Z, k, nr, y * r, z * r, τ, c1, r2)
    true
end
function _hessenberg!(H::Matrix{T}, Z::Matrix{T}) where {T}
    n = size(H, 1)
    for k in 1:(n - 2)
        ss = zero(T)
        for i in (k + 2):n
            ss += H[i, k] * H[i, k]
        end
        iszero(ss) && continue
        β, τ, r = _reflector(H[k + 1, k], ss)
        v = zeros(T, n)
        v[k + 1] = one(T)
        for i in (k + 2):n
            v[i] = H[i, k] * r
        end
        for j in k:n
            s = zero(T)
            for i in (k + 1):n
                s += v[i] * H[i, j]
            end
            s *= τ
            for i in (k + 1):n
                H[i, j] -= s * v[i]
            end
        end
        for M in (H, Z), i in 1:n
            s = zero(T)
            for j in (k + 1):n
                s += M[i, j] * v[j]
            end
            s *= τ
            for j in (k + 1):n
                M[i, j] -= s * v[j]
            end
        end
        H[k + 1, k] = β
        for i in (k + 2):n
            H[i, k] = zero(T)
        end
    end
    H
end
# A converged 2×2 block in rows and columns u-1:u with real eigenvalues is rotated to upper
# triangular form (its first column becomes an eigenvector's); a complex pair's block stays.
function _split_block!(H::Matrix{T}, Z::Matrix{T}, u::Int64) where {T}
    n = size(H, 1)
    a = H[u - 1, u - 1]
    b = H[u - 1, u]
    c = H[u, u - 1]
    d = H[u, u]
    p = (a - d) / 2
    disc = p * p + b * c
    disc < 0 && return H
    w = p + copysign(sqrt(disc), p)
    r = sqrt(w * w + c * c)
    cs = w / r
    sn = c / r
    for j in (u - 1):n
        t1 = H[u - 1, j]
        t2 = H[u, j]
        H[u - 1, j] = cs * t1 + sn * t2
        H[u, j] = cs * t2 - sn * t1
    end
    for M in (H, Z)
        rows = M === H ? u : n
        for i in 1:rows
            t1 = M[i, u - 1]
            t2 = M[i, u]
            M[i, u - 1] = cs * t1 + sn * t2
            M[i, u] = cs * t2 - sn * t1
        end
    end
    H[u, u - 1] = zero(T)
    H
end
# The real Schur form of a Hessenberg H, accumulating the orthogonal transformations into Z.
# A subdiagonal entry is zeroed when it is below eps times its two diagonal neighbours; every
# tenth step of a block uses an exceptional shift (LAPACK's `lahqr`) to break cycles.
function _real_schur!(H::Matrix{T}, Z::Matrix{T}) where {T}
    n = size(H, 1)
    ϵ = eps(T)
    scale = zero(T)
    for j in 1:n, i in 1:min(j + 1, n)
        scale = max(scale, abs(H[i, j]))
    end
    u = n
    its = 0
    total = 0
    while u >= 1
        l = u
        while l > 1
            tst = abs(H[l - 1, l - 1]) + abs(H[l, l])
            iszero(tst) && (tst = scale)
            if abs(H[l, l - 1]) <= ϵ * tst
                H[l, l - 1] = zero(T)
                break
            end
            l -= 1
        end
        if l == u
            u -= 1
            its = 0
        elseif l == u - 1
            _split_block!(H, Z, u)
            u -= 2
            its = 0
        else
            its += 1
            total += 1
            total > 30 * n && error("eigen: the QR iteration did not converge")
            if its % 10 == 0
                w = abs(H[u, u - 1]) + abs(H[u - 1, u - 2])
                h11 = T(0.75) * w + H[u, u]
                s = 2 * h11
                t = h11 * h11 + T(0.4375) * w * w
            else
                s = H[u - 1, u - 1] + H[u, u]
                t = H[u - 1, u - 1] * H[u, u] - H[u - 1, u] * H[u, u - 1]
            end
            x = H[l, l] * H[l, l] + H[l, l + 1] * H[l + 1, l] - s * H[l, l] + t
            y = H[l + 1, l] * (H[l, l] + H[l + 1, l + 1] - s)
            z = H[l + 1, l] * H[l + 2, l + 1]
            for k in l:(u - 2)
                if _francis_bulge!(H, Z, k, 3, x, y, z, max(l, k - 1), min(k + 3, u)) && k > l
                    H[k + 1, k - 1] = zero(T)
                    H[k + 2, k - 1] = zero(T)
                end
                x = H[k + 1, k]
                y = H[k + 2, k]
                z = k < u - 2 ? H[k + 3, k] : zero(T)
            end
            if _francis_bulge!(H, Z, u - 1, 2, x, y, zero(T), u - 2, u)
                H[u, u - 2] = zero(T)
            end
        end
    end
    H
end
# The eigenvector of the quasi-triangular T for the eigenvalue λ of the diagonal block that
# starts at k (of size 1 or 2): x[k] = 1 (or the block's own eigenvector), then back
# substitution through the blocks above. A zero pivot (a repeated eigenvalue) is replaced by a
# tiny one, as LAPACK does.
function _schur_eigenvector(T::Matrix{R}, k::Int64, λ) where {R}
    n = size(T, 1)
    S = typeof(λ)
    x = zeros(S, n)
    tiny = eps(R) * max(norm(T), floatmin(R))
    if k < n && !iszero(T[k + 1, k])
        x[k] = T[k, k + 1]
        x[k + 1] = λ - T[k, k]
    else
        x[k] = one(S)
    end
    last = k < n && !iszero(T[k + 1, k]) ? k + 1 : k
    i = k - 1
    while i >= 1
        if i > 1 && !iszero(T[i, i - 1])
            r1 = zero(S)
            r2 = zero(S)
            for j in (i + 1):last
                r1 -= T[i - 1, j] * x[j]
                r2 -= T[i, j] * x[j]
            end
            a = T[i - 1, i - 1] - λ
            b = T[i - 1, i]
            c = T[i, i - 1]
            d = T[i, i] - λ
            δ = a * d - b * c
            iszero(δ) && (δ = tiny + zero(S))
            x[i - 1] = (d * r1 - b * r2) / δ
            x[i] = (a * r2 - c * r1) / δ
            i -= 2
        else
            r = zero(S)
            for j in (i + 1):last
                r -= T[i, j] * x[j]
            end
            δ = T[i, i] - λ
            iszero(δ) && (δ = tiny + zero(S))
            x[i] = r / δ
            i -= 1
        end
    end
    x
end
# Unit length, and a complex vector turned so that its largest component is real and positive.
_eigvec_normalize(v::AbstractVector{<:Real}) = v ./ norm(v)
function _eigvec_normalize(v::AbstractVector{<:Complex})
    k = 1
    for i in 2:length(v)
        abs2(v[i]) > abs2(v[k]) && (k = i)
    end
    w = v .* (conj(v[k]) / (abs(v[k]) * norm(v)))
    w[k] = Complex(real(w[k]), zero(real(w[k])))
    w
end
_eigsortby(λ::Real) = λ
_eigsortby(λ::Complex) = (real(λ), imag(λ))
function _nonsym_eigen(A::AbstractMatrix, vectors::Bool)
    n = _checksquare(A)
    T = typeof(float(one(eltype(A))))
    H = _solve_copy(A, T)
    Z = Matrix{T}(I, n, n)
    _hessenberg!(H, Z)
    _real_schur!(H, Z)
    isreal = true
    for i in 1:(n - 1)
        iszero(H[i + 1, i]) || (isreal = false)
    end
    if isreal
        λ = [H[i, i] for i in 1:n]
        order = sortperm(λ)
        V = zeros(T, n, vectors ? n : 0)
        if vectors
            for (j, i) in enumerate(order)
                V[:, j] = _eigvec_normalize(Z * _schur_eigenvector(H, i, λ[i]))
            end
        end
        return Eigen{T,T,Matrix{T},Vector{T}}(λ[order], V)
    end
    C = Complex{T}
    λ = zeros(C, n)
    i = 1
    while i <= n
        if i < n && !iszero(H[i + 1, i])
            a = H[i, i]
            b = H[i, i + 1]
            c = H[i + 1, i]
            d = H[i + 1, i + 1]
            p = (a - d) / 2
            re = (a + d) / 2
            im = sqrt(-(p * p + b * c))
            λ[i] = Complex(re, im)
            λ[i + 1] = Complex(re, -im)
            i += 2
        else
            λ[i] = Complex(H[i, i], zero(T))
            i += 1
        end
    end
    order = sortperm(λ; by = _eigsortby)
    V = zeros(C, n, vectors ? n : 0)
    if vectors
        vecs = zeros(C, n, n)
        i = 1
        while i <= n
            if i < n && !iszero(H[i + 1, i])
                v = _eigvec_normalize(Z * _schur_eigenvector(H, i, λ[i]))
                vecs[:, i] = v
                vecs[:, i + 1] = conj(v)
                i += 2
            else
                vecs[:, i] = _eigvec_normalize(Z * _schur_eigenvector(H, i, λ[i]))
                i += 1
            end
        end
        V = vecs[:, order]
    end
    Eigen{C,C,Matrix{C},Vector{C}}(λ[order], V)
end
_complex_eigen(f) = error(string("not supported yet: `", f, "` of a complex matrix (real matrices, symmetric or not, are supported)"))
function eigen(A::AbstractMatrix)
    eltype(A) <: Complex && _complex_eigen("eigen")
    issymmetric(A) && return _sym_eigen(A)
    _nonsym_eigen(A, true)
end
eigen(S::Symmetric) = _sym_eigen(S)
function eigvals(A::AbstractMatrix)
    eltype(A) <: Complex && _complex_eigen("eigvals")
    issymmetric(A) && return _sym_eigen(A).values
    _nonsym_eigen(A, false).values
end
eigvecs(A::AbstractMatrix) = eigen(A).vectors
function _real_eigvals(A::AbstractMatrix)
    λ = eigvals(A)
    eltype(λ) <: Complex && throw(DomainError(A, "`A` cannot have complex eigenvalues."))
    λ
end
eigmax(A::AbstractMatrix) = _real_eigvals(A)[end]
eigmin(A::AbstractMatrix) = _real_eigvals(A)[1]
eigvals(F::Eigen) = F.values
eigvecs(F::Eigen) = F.vectors
det(F::Eigen) = prod(F.values)
inv(F::Eigen) = (F.vectors * Diagonal(inv.(F.values))) / F.vectors
# `λ, V = eigen(A)`.
iterate(F::Eigen) = (F.values, Val(:vectors))
iterate(F::Eigen, ::Val{:vectors}) = (F.vectors, Val(:done))
iterate(F::Eigen, ::Val{:done}) = nothing

# The thin singular value decomposition (`svd(A)`): A = U * Diagonal(S) * V' with the singular
# values S in descending order and orthonormal columns in U (m×k) and V (n×k), k = min(m, n);
# `F.Vt` is V', `F \ b` the minimum-norm least-squares solution (singular values below
# eps·S[1] count as zero), and `U, S, V = svd(A)`
# destructures. One-sided Jacobi rotations of the columns (as `svdvals`); LAPACK's bidiagonal
# method gives the same values up to the last bits and each pair of singular vectors up to a
# common sign.
struct SVD{T,Tr,M,C}
    U::M
    S::C
    V::M
    Vt::M
end
function svd(A::AbstractMatrix; full::Bool = false)
    full && error("not supported yet: `svd(A; full = true)` (the thin decomposition is `svd(A)`)")
    T = typeof(float(one(eltype(A))))
    if size(A, 1) < size(A, 2)
        F = svd(copy(transpose(A)))
        return SVD{T,T,Matrix{T},Vector{T}}(F.V, F.S, F.U, copy(transpose(F.U)))
    end
    W = _solve_copy(A, T)
    m = size(W, 1)
    k = size(W, 2)
    V = Matrix{T}(I, k, k)
    _jacobi_orthogonalize!(W, V)
    σ = _column_norms(W)
    order = sortperm(σ; rev = true)
    S = σ[order]
    Vs = V[:, order]
    U = zeros(T, m, k)
    for j in 1:k
        c = order[j]
        if S[j] > 0
            for i in 1:m
                U[i, j] = W[i, c] / S[j]
            end
        else
            _complete_column!(U, j)
        end
    end
    SVD{T,T,Matrix{T},Vector{T}}(U, S, Vs, copy(transpose(Vs)))
end
# Column j of U (a zero singular value's) as a unit vector orthogonal to columns 1:j-1: the
# first coordinate axis that keeps enough of its length after Gram–Schmidt.
function _complete_column!(U::Matrix{T}, j::Int64) where {T}
    m = size(U, 1)
    for e in 1:m
        x = zeros(T, m)
        x[e] = one(T)
        for l in 1:(j - 1)
            d = U[e, l]
            for i in 1:m
                x[i] -= d * U[i, l]
            end
        end
        nx = sqrt(sum(abs2, x))
        if nx > T(0.5)
            for i in 1:m
                U[i, j] = x[i] / nx
            end
            return U
        end
    end
    U
end
svdvals(F::SVD) = F.S
size(F::SVD) = (size(F.U, 1), size(F.V, 1))
size(F::SVD, d::Int64) = d == 1 ? size(F.U, 1) : d == 2 ? size(F.V, 1) : 1
function \(F::SVD, B::AbstractVecOrMat)
    _qr_rhs_check(size(F.U, 1), B)
    tol = eps(eltype(F.S)) * (isempty(F.S) ? zero(eltype(F.S)) : F.S[1])
    Y = F.U' * B
    for i in 1:length(F.S)
        d = F.S[i] >= tol ? 1 / F.S[i] : zero(eltype(F.S))
        for c in 1:size(Y, 2)
            Y[i, c] *= d
        end
    end
    F.V * Y
end
iterate(F::SVD) = (F.U, Val(:S))
iterate(F::SVD, ::Val{:S}) = (F.S, Val(:V))
iterate(F::SVD, ::Val{:V}) = (F.V, Val(:done))
iterate(F::SVD, ::Val{:done}) = nothing
# `pinv(A)`: the Moore–Penrose inverse, through the SVD, with singular values below
# `rtol * σ₁` (default `eps * min(m, n)`) treated as zero.
function pinv(A::AbstractMatrix; atol::Real = 0.0, rtol::Real = (eps(typeof(float(one(eltype(A))))) * min(size(A, 1), size(A, 2))) * iszero(atol))
    F = svd(A)
    T = eltype(F.S)
    tol = isempty(F.S) ? zero(T) : max(T(rtol) * F.S[1], T(atol))
    Sinv = [s > tol ? 1 / s : zero(T) for s in F.S]
    F.V * (Sinv .* F.U')
end
