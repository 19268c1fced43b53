# Banded matrices of LinearAlgebra: `Tridiagonal`, `SymTridiagonal` and `Bidiagonal`. Each
# keeps its diagonals; solves, products and determinants run in O(n) by the algorithms Julia
# uses (a pivoted tridiagonal LU as LAPACK's `gttrf`/`gtts2`, an LDLᵀ of a symmetric
# tridiagonal matrix, bidiagonal substitution, Usmani's recurrence for determinants).

# An LDLᵀ (or LU without pivoting) that met a zero pivot.
struct ZeroPivotException <: Exception
    info::Int64
end
showerror(io::IO, e::ZeroPivotException) =
    print(io, "ZeroPivotException: factorization encountered one or more zero pivots. Consider switching to a pivoted LU factorization.")

struct Tridiagonal{T,V} <: AbstractMatrix{T}
    dl::V
    d::V
    du::V
end
function Tridiagonal(dl::AbstractVector, d::AbstractVector, du::AbstractVector)
    n = length(d)
    if (length(dl) != n - 1 || length(du) != n - 1) && !(n == 0 && length(dl) == 0 && length(du) == 0)
        throw(ArgumentError(string("cannot construct Tridiagonal from incompatible lengths of subdiagonal, diagonal and superdiagonal: (",
                                   length(dl), ", ", n, ", ", length(du), ")")))
    end
    T = promote_type(eltype(dl), eltype(d), eltype(du))
    l = _vector_of(T, dl)
    u = _vector_of(T, du)
    Tridiagonal{T,Vector{T}}(l, _vector_of(T, d), l === u ? copy(u) : u)
end
# `v` itself if it is a `Vector{T}` (the matrix shares its memory, as in Julia), else a copy
# converted to `T`.
_vector_of(::Type{T}, v::Vector{T}) where {T} = v
_vector_of(::Type{T}, v::AbstractVector) where {T} = Vector{T}(v)
Tridiagonal(A::AbstractMatrix) = Tridiagonal(_band(A, -1), _band(A, 0), _band(A, 1))
Tridiagonal(A::Tridiagonal) = A

struct SymTridiagonal{T,V} <: AbstractMatrix{T}
    dv::V
    ev::V
end
function SymTridiagonal(dv::AbstractVector, ev::AbstractVector)
    if !(length(dv) - 1 <= length(ev) <= length(dv))
        throw(DimensionMismatch(string("subdiagonal has wrong length. Has length ", length(ev),
                                       ", but should be either ", length(dv) - 1, " or ", length(dv), ".")))
    end
    T = promote_type(eltype(dv), eltype(ev))
    SymTridiagonal{T,Vector{T}}(_vector_of(T, dv), _vector_of(T, ev))
end
function SymTridiagonal(A::AbstractMatrix)
    _checksquare(A)
    du = _band(A, 1)
    issymmetric(A) || du == _band(A, -1) ||
        throw(ArgumentError("matrix is not symmetric; cannot convert to SymTridiagonal"))
    SymTridiagonal(_band(A, 0), du)
end
SymTridiagonal(S::SymTridiagonal) = S

struct Bidiagonal{T,V} <: AbstractMatrix{T}
    dv::V
    ev::V
    uplo::Char
end
function Bidiagonal(dv::AbstractVector, ev::AbstractVector, uplo::Symbol)
    if length(ev) != max(length(dv) - 1, 0)
        throw(DimensionMismatch(string("length of diagonal vector is ", length(dv), ", length of off-diagonal vector is ", length(ev))))
    end
    uplo === :U || uplo === :L || throw(ArgumentError(string("uplo argument must be either :U (upper) or :L (lower), got :", uplo)))
    T = promote_type(eltype(dv), eltype(ev))
    Bidiagonal{T,Vector{T}}(_vector_of(T, dv), _vector_of(T, ev), uplo === :U ? 'U' : 'L')
end
Bidiagonal(A::AbstractMatrix, uplo::Symbol) = Bidiagonal(_band(A, 0), _band(A, uplo === :U ? 1 : -1), uplo)
Bidiagonal(B::Bidiagonal) = B

# The k-th diagonal of a matrix (k > 0 above the main one), as a vector.
function _band(A::AbstractMatrix, k::Int64)
    m = size(A, 1)
    n = size(A, 2)
    len = k >= 0 ? max(min(m, n - k), 0) : max(min(m + k, n), 0)
    v = Vector{eltype(A)}(undef, len)
    for i in 1:len
        v[i] = k >= 0 ? A[i, i + k] : A[i - k, i]
    end
    v
end
diag(A::AbstractMatrix, k::Int64) = _band(A, k)

const _Banded = Union{Tridiagonal,SymTridiagonal,Bidiagonal}
size(A::Tridiagonal) = (length(A.d), length(A.d))
size(A::Union{SymTridiagonal,Bidiagonal}) = (length(A.dv), length(A.dv))
size(A::_Banded, d::Int64) = d < 1 ? throw(ArgumentError("dimension out of range")) : (d <= 2 ? size(A)[d] : 1)
length(A::_Banded) = size(A, 1) * size(A, 1)
function getindex(A::Tridiagonal{T,V}, i::Int64, j::Int64) where {T,V}
    _struct_check(A, i, j)
    i == j ? A.d[i] : i == j + 1 ? A.dl[j] : i + 1 == j ? A.du[i] : zero(T)
end
function getindex(A::SymTridiagonal{T,V}, i::Int64, j::Int64) where {T,V}
    _struct_check(A, i, j)
    i == j ? A.dv[i] : i == j + 1 ? A.ev[j] : i + 1 == j ? A.ev[i] : zero(T)
end
function getindex(A::Bidiagonal{T,V}, i::Int64, j::Int64) where {T,V}
    _struct_check(A, i, j)
    i == j && return A.dv[i]
    A.uplo == 'U' && i + 1 == j && return A.ev[i]
    A.uplo == 'L' && i == j + 1 && return A.ev[j]
    zero(T)
end
function setindex!(A::Tridiagonal, x, i::Int64, j::Int64)
    _struct_check(A, i, j)
    if i == j
        A.d[i] = x
    elseif i - j == 1
        A.dl[j] = x
    elseif j - i == 1
        A.du[i] = x
    elseif !iszero(x)
        throw(ArgumentError(string("cannot set entry (", i, ", ", j, ") off the tridiagonal band to a nonzero value (", x, ")")))
    end
    x
end
function Matrix{T}(A::_Banded) where {T}
    n = size(A, 1)
    M = zeros(T, n, n)
    for j in 1:n, i in max(1, j - 1):min(n, j + 1)
        M[i, j] = A[i, j]
    end
    M
end
Matrix(A::_Banded) = Matrix{eltype(A)}(A)
Array(A::_Banded) = Matrix(A)
copy(A::Tridiagonal) = Tridiagonal(copy(A.dl), copy(A.d), copy(A.du))
copy(A::SymTridiagonal) = SymTridiagonal(copy(A.dv), copy(A.ev))
copy(A::Bidiagonal) = Bidiagonal(copy(A.dv), copy(A.ev), A.uplo == 'U' ? :U : :L)
diag(A::Tridiagonal) = copy(A.d)
diag(A::Union{SymTridiagonal,Bidiagonal}) = copy(A.dv)
tr(A::Tridiagonal) = sum(A.d)
tr(A::Union{SymTridiagonal,Bidiagonal}) = sum(A.dv)
transpose(A::Tridiagonal) = Tridiagonal(A.du, A.d, A.dl)
adjoint(A::Tridiagonal) = Tridiagonal(A.du, A.d, A.dl)
transpose(A::SymTridiagonal) = A
adjoint(A::SymTridiagonal) = A
transpose(B::Bidiagonal) = Bidiagonal(B.dv, B.ev, B.uplo == 'U' ? :L : :U)
adjoint(B::Bidiagonal) = transpose(B)
issymmetric(A::SymTridiagonal) = true
issymmetric(A::Tridiagonal) = A.dl == A.du
issymmetric(B::Bidiagonal) = iszero(B.ev)
istriu(A::Tridiagonal) = iszero(A.dl)
istril(A::Tridiagonal) = iszero(A.du)
istriu(A::SymTridiagonal) = iszero(A.ev)
istril(A::SymTridiagonal) = iszero(A.ev)
istriu(B::Bidiagonal) = B.uplo == 'U' || iszero(B.ev)
istril(B::Bidiagonal) = B.uplo == 'L' || iszero(B.ev)
+(A::Tridiagonal, B::Tridiagonal) = Tridiagonal(A.dl + B.dl, A.d + B.d, A.du + B.du)
-(A::Tridiagonal, B::Tridiagonal) = Tridiagonal(A.dl - B.dl, A.d - B.d, A.du - B.du)
-(A::Tridiagonal) = Tridiagonal(-A.dl, -A.d, -A.du)
*(A::Tridiagonal, x::Number) = Tridiagonal(A.dl * x, A.d * x, A.du * x)
*(x::Number, A::Tridiagonal) = Tridiagonal(x * A.dl, x * A.d, x * A.du)
/(A::Tridiagonal, x::Number) = Tridiagonal(A.dl / x, A.d / x, A.du / x)
+(A::SymTridiagonal, B::SymTridiagonal) = SymTridiagonal(A.dv + B.dv, A.ev + B.ev)
-(A::SymTridiagonal, B::SymTridiagonal) = SymTridiagonal(A.dv - B.dv, A.ev - B.ev)
-(A::SymTridiagonal) = SymTridiagonal(-A.dv, -A.ev)
*(A::SymTridiagonal, x::Number) = SymTridiagonal(A.dv * x, A.ev * x)
*(x::Number, A::SymTridiagonal) = SymTridiagonal(x * A.dv, x * A.ev)
/(A::SymTridiagonal, x::Number) = SymTridiagonal(A.dv / x, A.ev / x)
-(B::Bidiagonal) = Bidiagonal(-B.dv, -B.ev, B.uplo == 'U' ? :U : :L)
*(B::Bidiagonal, x::Number) = Bidiagonal(B.dv * x, B.ev * x, B.uplo == 'U' ? :U : :L)
*(x::Number, B::Bidiagonal) = Bidiagonal(x * B.dv, x * B.ev, B.uplo == 'U' ? :U : :L)
/(B::Bidiagonal, x::Number) = Bidiagonal(B.dv / x, B.ev / x, B.uplo == 'U' ? :U : :L)

# The three diagonals of a tridiagonal-shaped matrix: below, on and above.
_tridiags(A::Tridiagonal) = (A.dl, A.d, A.du)
_tridiags(A::SymTridiagonal) = (A.ev, A.dv, A.ev)
function _tridiags(B::Bidiagonal)
    z = zero(B.ev)
    B.uplo == 'U' ? (z, B.dv, B.ev) : (B.ev, B.dv, z)
end
# A x, row by row: (below * x[i-1] + on * x[i]) + above * x[i+1].
*(A::_Banded, B::AbstractVector) = _banded_mul(A, B)
*(A::_Banded, B::AbstractMatrix) = _banded_mul(A, B)
function _banded_mul(A, B)
    n = size(A, 1)
    size(B, 1) == n || throw(DimensionMismatch(string("matrix A has dimensions (", n, ",", n, "), matrix B has dimensions ", size(B))))
    dl, d, du = _tridiags(A)
    T = promote_type(eltype(A), eltype(B))
    C = B isa AbstractVector ? Vector{T}(undef, n) : Matrix{T}(undef, n, size(B, 2))
    for j in 1:size(B, 2)
        if n == 1
            C[1, j] = d[1] * B[1, j]
            continue
        end
        n == 0 && continue
        C[1, j] = d[1] * B[1, j] + du[1] * B[2, j]
        for i in 2:n-1
            C[i, j] = dl[i-1] * B[i-1, j] + d[i] * B[i, j] + du[i] * B[i+1, j]
        end
        C[n, j] = dl[n-1] * B[n-1, j] + d[n] * B[n, j]
    end
    C
end

# `A \ B` of a tridiagonal matrix: LU with partial pivoting (LAPACK's `gttrf`), then the two
# substitutions (`gtts2`).
function \(A::Tridiagonal, B::AbstractVecOrMat)
    n = size(A, 1)
    size(B, 1) == n || throw(DimensionMismatch(string("matrix has dimensions (", n, ",", n, ") but right hand side has ", size(B, 1), " rows")))
    if istril(A)
        istriu(A) && return Diagonal(A.d) \ B
        return LowerTriangular(Matrix(A)) \ B
    end
    istriu(A) && return UpperTriangular(Matrix(A)) \ B
    T = _solve_eltype(A, B)
    dl, d, du, du2, ipiv, info = _tridiag_lu(Vector{T}(A.dl), Vector{T}(A.d), Vector{T}(A.du))
    info > 0 && throw(SingularException(info))
    X = _solve_copy(B, T)
    for j in 1:size(X, 2)
        for i in 1:n-1
            ip = ipiv[i]
            tmp = X[i+1-ip+i, j] - dl[i] * X[ip, j]
            X[i, j] = X[ip, j]
            X[i+1, j] = tmp
        end
        X[n, j] /= d[n]
        if n > 1
            X[n-1, j] = (X[n-1, j] - du[n-1] * X[n, j]) / d[n-1]
        end
        for i in n-2:-1:1
            X[i, j] = (X[i, j] - du[i] * X[i+1, j] - du2[i] * X[i+2, j]) / d[i]
        end
    end
    X
end
function _tridiag_lu(dl, d, du)
    n = length(d)
    du2 = zeros(eltype(d), max(0, n - 2))
    ipiv = collect(1:n)
    for i in 1:n-1
        if abs(d[i]) >= abs(dl[i])
            if d[i] != 0
                fact = dl[i] / d[i]
                dl[i] = fact
                d[i+1] -= fact * du[i]
            end
        else
            fact = d[i] / dl[i]
            d[i] = dl[i]
            dl[i] = fact
            tmp = du[i]
            du[i] = d[i+1]
            d[i+1] = tmp - fact * d[i+1]
            if i < n - 1
                du2[i] = du[i+1]
                du[i+1] = -fact * du[i+1]
            end
            ipiv[i] = i + 1
        end
    end
    info = 0
    for i in 1:n
        if d[i] == 0
            info = i
            break
        end
    end
    dl, d, du, du2, ipiv, info
end

# `S \ B` of a symmetric tridiagonal matrix: its LDLᵀ factors, then the substitutions.
function \(S::SymTridiagonal, B::AbstractVecOrMat)
    n = size(S, 1)
    size(B, 1) == n || throw(DimensionMismatch(string("Matrix has dimensions ", size(S), " but right hand side has first dimension ", n)))
    T = _solve_eltype(S, B)
    d, l = _ldlt_tridiag(Vector{T}(S.dv), Vector{T}(S.ev))
    X = _solve_copy(B, T)
    for j in 1:size(X, 2)
        for i in 2:n
            X[i, j] -= l[i-1] * X[i-1, j]
        end
        X[n, j] /= d[n]
        for i in n-1:-1:1
            X[i, j] /= d[i]
            X[i, j] -= l[i] * X[i+1, j]
        end
    end
    X
end
function _ldlt_tridiag(d, e)
    for i in 1:length(d)-1
        iszero(d[i]) && throw(ZeroPivotException(i))
        e[i] /= d[i]
        d[i+1] -= e[i]^2 * d[i]
    end
    d, e
end

# `B \ C` of a bidiagonal matrix: forward (lower) or backward (upper) substitution.
function \(B::Bidiagonal, C::AbstractVecOrMat)
    n = size(B, 1)
    if size(C, 1) != n
        throw(DimensionMismatch(string("the first dimension of the Bidiagonal matrix, ", n, ", does not match the ",
                                       C isa AbstractVector ? "length" : "first dimension", " of the right-hand-side, ", size(C, 1))))
    end
    T = _solve_eltype(B, C)
    X = _solve_copy(C, T)
    n == 0 && return X
    zi = findfirst(iszero, B.dv)
    zi === nothing || throw(SingularException(zi))
    for j in 1:size(X, 2)
        if B.uplo == 'L'
            x = X[1, j] = B.dv[1] \ C[1, j]
            for i in 2:n
                x = X[i, j] = B.dv[i] \ (C[i, j] - B.ev[i-1] * x)
            end
        else
            x = X[n, j] = B.dv[n] \ C[n, j]
            for i in n-1:-1:1
                x = X[i, j] = B.dv[i] \ (C[i, j] - B.ev[i] * x)
            end
        end
    end
    X
end

# Determinants by Usmani's recurrence of the leading principal minors.
function _det_usmani(a, b, c)
    n = length(b)
    n == 0 && return one(eltype(b))
    θa = one(eltype(b))
    θb = b[1]
    for i in 2:n
        θb, θa = b[i] * θb - a[i-1] * c[i-1] * θa, θb
    end
    θb
end
det(A::Tridiagonal) = _det_usmani(A.dl, A.d, A.du)
det(S::SymTridiagonal) = _det_usmani(S.ev, S.dv, S.ev)
det(B::Bidiagonal) = prod(B.dv)
function logabsdet(A::Tridiagonal)
    dl, d, du, du2, ipiv, info = _tridiag_lu(float.(A.dl), float.(A.d), float.(A.du))
    T = eltype(d)
    info > 0 && return (log(zero(T)), log(one(T)))
    c = 0
    s = one(T)
    l = zero(T)
    for i in 1:length(d)
        s *= sign(d[i])
        ipiv[i] != i && (c += 1)
        l += log(abs(d[i]))
    end
    (l, (isodd(c) ? -one(T) : one(T)) * s)
end
function logabsdet(S::SymTridiagonal)
    d, _ = _ldlt_tridiag(float.(S.dv), float.(S.ev))
    (sum(x -> log(abs(x)), d), prod(sign, d))
end
function logabsdet(B::Bidiagonal)
    (sum(x -> log(abs(x)), B.dv), prod(sign, B.dv))
end
function logdet(A::_Banded)
    l, s = logabsdet(A)
    l + log(s)
end
inv(A::_Banded) = A \ Matrix{typeof(one(eltype(A)) / one(eltype(A)))}(I, size(A, 1), size(A, 1))
