# Structured matrices (LinearAlgebra): `Diagonal`, `Symmetric`, `LowerTriangular` and
# `UpperTriangular`. Each wraps its data and reads the entries its structure defines; products,
# solves, determinants and inverses use the structure (a diagonal solve is O(n), a triangular
# one O(n²)), in the order of operations Julia's methods use.

struct Diagonal{T,V} <: AbstractMatrix{T}
    diag::V
end
Diagonal(v::AbstractVector{T}) where {T} = Diagonal{T,typeof(v)}(v)
Diagonal(A::AbstractMatrix) = Diagonal(diag(A))
Diagonal(D::Diagonal) = D
size(D::Diagonal) = (length(D.diag), length(D.diag))
size(D::Diagonal, d::Int64) = d < 1 ? throw(ArgumentError("dimension out of range")) : (d <= 2 ? length(D.diag) : 1)
length(D::Diagonal) = length(D.diag) * length(D.diag)
parent(D::Diagonal) = D.diag
function _struct_check(A, i::Int64, j::Int64)
    if i < 1 || j < 1 || i > size(A, 1) || j > size(A, 2)
        Core.throw_bounds(A, (i, j))
    end
end
function getindex(D::Diagonal{T,V}, i::Int64, j::Int64) where {T,V}
    _struct_check(D, i, j)
    i == j ? D.diag[i] : zero(T)
end
function setindex!(D::Diagonal, x, i::Int64, j::Int64)
    _struct_check(D, i, j)
    if i == j
        D.diag[i] = x
    elseif !iszero(x)
        throw(ArgumentError(string("cannot set off-diagonal entry (", i, ", ", j, ") to a nonzero value (", x, ")")))
    end
    x
end
diag(D::Diagonal) = copy(D.diag)
copy(D::Diagonal) = Diagonal(copy(D.diag))
adjoint(D::Diagonal) = Diagonal(adjoint.(D.diag))
transpose(D::Diagonal) = Diagonal(transpose.(D.diag))
isdiag(D::Diagonal) = true
issymmetric(D::Diagonal) = true
istriu(D::Diagonal) = true
istril(D::Diagonal) = true
tr(D::Diagonal) = sum(D.diag)
det(D::Diagonal) = prod(D.diag)
function logdet(D::Diagonal)
    s = zero(typeof(log(one(eltype(D)))))
    for d in D.diag
        s += log(d)
    end
    s
end
function logabsdet(D::Diagonal)
    s = one(eltype(D))
    l = zero(typeof(log(abs(one(eltype(D))))))
    for d in D.diag
        l += log(abs(d))
        s *= sign(d)
    end
    (l, s)
end
function _diag_check_nonsingular(D::Diagonal)
    for i in 1:length(D.diag)
        iszero(D.diag[i]) && throw(SingularException(i))
    end
end
function inv(D::Diagonal)
    _diag_check_nonsingular(D)
    Diagonal(inv.(D.diag))
end
-(D::Diagonal) = Diagonal(-D.diag)
+(D::Diagonal, E::Diagonal) = Diagonal(D.diag + E.diag)
-(D::Diagonal, E::Diagonal) = Diagonal(D.diag - E.diag)
*(a::Number, D::Diagonal) = Diagonal(a * D.diag)
*(D::Diagonal, a::Number) = Diagonal(D.diag * a)
/(D::Diagonal, a::Number) = Diagonal(D.diag / a)
+(D::Diagonal, J::UniformScaling) = Diagonal(D.diag .+ J.λ)
+(J::UniformScaling, D::Diagonal) = Diagonal(J.λ .+ D.diag)
-(D::Diagonal, J::UniformScaling) = Diagonal(D.diag .- J.λ)
-(J::UniformScaling, D::Diagonal) = Diagonal(J.λ .- D.diag)
function _diag_mismatch(D::Diagonal, B)
    throw(DimensionMismatch(string("second dimension of D, ", length(D.diag), ", does not match the first of B, ", size(B, 1))))
end
function *(D::Diagonal, E::Diagonal)
    length(D.diag) == length(E.diag) || _diag_mismatch(D, E)
    Diagonal(D.diag .* E.diag)
end
function *(D::Diagonal, x::AbstractVector)
    length(D.diag) == length(x) || _diag_mismatch(D, x)
    D.diag .* x
end
function *(D::Diagonal, B::AbstractMatrix)
    length(D.diag) == size(B, 1) || _diag_mismatch(D, B)
    D.diag .* B
end
function *(A::AbstractMatrix, D::Diagonal)
    if size(A, 2) != length(D.diag)
        throw(DimensionMismatch(string("second dimension of A, ", size(A, 2), ", does not match the first of D, ", length(D.diag))))
    end
    A .* transpose(D.diag)
end
*(x::Adjoint{T,S}, D::Diagonal) where {T,S<:AbstractVector} = adjoint(adjoint(D) * x.parent)
*(x::Transpose{T,S}, D::Diagonal) where {T,S<:AbstractVector} = transpose(transpose(D) * x.parent)
function \(D::Diagonal, E::Diagonal)
    length(D.diag) == length(E.diag) || _diag_mismatch(D, E)
    _diag_check_nonsingular(D)
    Diagonal(E.diag ./ D.diag)
end
function \(D::Diagonal, B::AbstractVecOrMat)
    length(D.diag) == size(B, 1) || _diag_mismatch(D, B)
    _diag_check_nonsingular(D)
    B ./ D.diag
end
function /(A::AbstractMatrix, D::Diagonal)
    if size(A, 2) != length(D.diag)
        throw(DimensionMismatch(string("second dimension of A, ", size(A, 2), ", does not match the first of D, ", length(D.diag))))
    end
    _diag_check_nonsingular(D)
    A ./ transpose(D.diag)
end
function /(D::Diagonal, E::Diagonal)
    length(D.diag) == length(E.diag) || _diag_mismatch(D, E)
    _diag_check_nonsingular(E)
    Diagonal(D.diag ./ E.diag)
end

# `Symmetric(A)`, `Symmetric(A, :U)`: the symmetric matrix A's upper triangle defines;
# `Symmetric(A, :L)`: the one its lower triangle defines. Only the diagonal can be written.
# (Julia keeps the triangle as a `Char` field `uplo`; here it is the flag `_upper`.)
struct Symmetric{T,S} <: AbstractMatrix{T}
    data::S
    _upper::Bool
end
function Symmetric(A::AbstractMatrix{T}, uplo::Symbol = :U) where {T}
    _checksquare(A)
    Symmetric{T,typeof(A)}(A, _uplo_upper(uplo))
end
function _uplo_upper(uplo::Symbol)
    uplo === :U && return true
    uplo === :L && return false
    throw(ArgumentError("uplo argument must be either :U (upper) or :L (lower)"))
end
_uplo(S::Symmetric) = S._upper ? :U : :L
Symmetric(S::Symmetric) = S
Symmetric(S::Symmetric, uplo::Symbol) = (_uplo_upper(uplo); S)
function getindex(S::Symmetric, i::Int64, j::Int64)
    _struct_check(S, i, j)
    (i <= j) == S._upper ? S.data[i, j] : S.data[j, i]
end
function setindex!(S::Symmetric, x, i::Int64, j::Int64)
    i == j || throw(ArgumentError("Cannot set a non-diagonal index in a symmetric matrix"))
    S.data[i, i] = x
    S
end
copy(S::Symmetric) = Symmetric(copy(S.data), _uplo(S))
adjoint(S::Symmetric{T,V}) where {T<:Real,V} = S
transpose(S::Symmetric) = S
issymmetric(S::Symmetric) = true
ishermitian(S::Symmetric{T,V}) where {T<:Real,V} = true
-(S::Symmetric) = Symmetric(-S.data, _uplo(S))
*(a::Number, S::Symmetric) = Symmetric(a * S.data, _uplo(S))
*(S::Symmetric, a::Number) = Symmetric(S.data * a, _uplo(S))
/(S::Symmetric, a::Number) = Symmetric(S.data / a, _uplo(S))
# With the other triangle, R's data is transposed so that the same triangle holds R.
_same_triangle(S::Symmetric, R::Symmetric) = S._upper == R._upper ? R.data : copy(transpose(R.data))
+(S::Symmetric, R::Symmetric) = Symmetric(S.data + _same_triangle(S, R), _uplo(S))
-(S::Symmetric, R::Symmetric) = Symmetric(S.data - _same_triangle(S, R), _uplo(S))

# Triangular views: the entries outside the triangle read as zero and can be written only
# with zero.
struct LowerTriangular{T,S} <: AbstractMatrix{T}
    data::S
end
struct UpperTriangular{T,S} <: AbstractMatrix{T}
    data::S
end
function LowerTriangular(A::AbstractMatrix{T}) where {T}
    _checksquare(A)
    LowerTriangular{T,typeof(A)}(A)
end
function UpperTriangular(A::AbstractMatrix{T}) where {T}
    _checksquare(A)
    UpperTriangular{T,typeof(A)}(A)
end
LowerTriangular(L::LowerTriangular) = L
UpperTriangular(U::UpperTriangular) = U
# The shape of a symmetric or triangular matrix is its data's.
size(A::Union{Symmetric,LowerTriangular,UpperTriangular}) = size(A.data)
size(A::Union{Symmetric,LowerTriangular,UpperTriangular}, d::Int64) = size(A.data, d)
length(A::Union{Symmetric,LowerTriangular,UpperTriangular}) = length(A.data)
parent(A::Union{Symmetric,LowerTriangular,UpperTriangular}) = A.data
function getindex(L::LowerTriangular{T,S}, i::Int64, j::Int64) where {T,S}
    _struct_check(L, i, j)
    i >= j ? L.data[i, j] : zero(T)
end
function getindex(U::UpperTriangular{T,S}, i::Int64, j::Int64) where {T,S}
    _struct_check(U, i, j)
    i <= j ? U.data[i, j] : zero(T)
end
function setindex!(L::LowerTriangular, x, i::Int64, j::Int64)
    _struct_check(L, i, j)
    if i < j
        x == 0 || throw(ArgumentError(string("cannot set index in the upper triangular part (", i, ", ", j, ") of a LowerTriangular matrix to a nonzero value (", x, ")")))
    else
        L.data[i, j] = x
    end
    L
end
function setindex!(U::UpperTriangular, x, i::Int64, j::Int64)
    _struct_check(U, i, j)
    if i > j
        x == 0 || throw(ArgumentError(string("cannot set index in the lower triangular part (", i, ", ", j, ") of an UpperTriangular matrix to a nonzero value (", x, ")")))
    else
        U.data[i, j] = x
    end
    U
end
copy(L::LowerTriangular) = LowerTriangular(copy(L.data))
copy(U::UpperTriangular) = UpperTriangular(copy(U.data))
adjoint(L::LowerTriangular) = UpperTriangular(adjoint(L.data))
adjoint(U::UpperTriangular) = LowerTriangular(adjoint(U.data))
transpose(L::LowerTriangular) = UpperTriangular(transpose(L.data))
transpose(U::UpperTriangular) = LowerTriangular(transpose(U.data))
istril(L::LowerTriangular) = true
istriu(U::UpperTriangular) = true
-(L::LowerTriangular) = LowerTriangular(-L.data)
-(U::UpperTriangular) = UpperTriangular(-U.data)
*(a::Number, L::LowerTriangular) = LowerTriangular(a * Matrix(L))
*(a::Number, U::UpperTriangular) = UpperTriangular(a * Matrix(U))
*(L::LowerTriangular, a::Number) = LowerTriangular(Matrix(L) * a)
*(U::UpperTriangular, a::Number) = UpperTriangular(Matrix(U) * a)
/(L::LowerTriangular, a::Number) = LowerTriangular(Matrix(L) / a)
/(U::UpperTriangular, a::Number) = UpperTriangular(Matrix(U) / a)
+(L::LowerTriangular, M::LowerTriangular) = LowerTriangular(Matrix(L) + Matrix(M))
+(U::UpperTriangular, V::UpperTriangular) = UpperTriangular(Matrix(U) + Matrix(V))
-(L::LowerTriangular, M::LowerTriangular) = LowerTriangular(Matrix(L) - Matrix(M))
-(U::UpperTriangular, V::UpperTriangular) = UpperTriangular(Matrix(U) - Matrix(V))
function det(L::LowerTriangular)
    d = one(eltype(L))
    for i in 1:size(L, 1)
        d *= L.data[i, i]
    end
    d
end
function det(U::UpperTriangular)
    d = one(eltype(U))
    for i in 1:size(U, 1)
        d *= U.data[i, i]
    end
    d
end
function logabsdet(A::Union{LowerTriangular,UpperTriangular})
    s = one(eltype(A))
    l = zero(typeof(log(abs(one(eltype(A))))))
    for i in 1:size(A, 1)
        d = A.data[i, i]
        l += log(abs(d))
        s *= sign(d)
    end
    (l, s)
end
function logdet(A::Union{LowerTriangular,UpperTriangular})
    l, s = logabsdet(A)
    l + log(s)
end
tr(L::LowerTriangular) = tr(L.data)
tr(U::UpperTriangular) = tr(U.data)
function _tri_check_nonsingular(A)
    for i in 1:size(A, 1)
        iszero(A.data[i, i]) && throw(SingularException(i))
    end
end
# The element type of `A \\ B`, after checking the sizes and the diagonal.
function _tri_rhs(A, B::AbstractVecOrMat)
    n = size(A, 1)
    if size(B, 1) != n
        throw(DimensionMismatch(string("right hand side B needs first dimension of size ", n, ", has size ", size(B, 1))))
    end
    _tri_check_nonsingular(A)
    _solve_eltype(A, B)
end
\(L::LowerTriangular, B::AbstractVecOrMat) = _trsolve(L.data, B, _tri_rhs(L, B), false, false, false)
\(U::UpperTriangular, B::AbstractVecOrMat) = _trsolve(U.data, B, _tri_rhs(U, B), true, false, false)
inv(L::LowerTriangular) = LowerTriangular(L \ Matrix{typeof(one(eltype(L)) / one(eltype(L)))}(I, size(L, 1), size(L, 1)))
inv(U::UpperTriangular) = UpperTriangular(U \ Matrix{typeof(one(eltype(U)) / one(eltype(U)))}(I, size(U, 1), size(U, 1)))
# Triangular times vector or matrix, reading one triangle only.
function *(L::LowerTriangular, x::AbstractVector)
    n = size(L, 1)
    n == length(x) || throw(DimensionMismatch(string("matrix A has dimensions (", n, ",", n, "), vector B has length ", length(x))))
    A = L.data
    y = zeros(Core.promote_type(eltype(L), eltype(x)), n)
    for j in 1:n
        for i in j:n
            y[i] += A[i, j] * x[j]
        end
    end
    y
end
function *(U::UpperTriangular, x::AbstractVector)
    n = size(U, 1)
    n == length(x) || throw(DimensionMismatch(string("matrix A has dimensions (", n, ",", n, "), vector B has length ", length(x))))
    A = U.data
    y = zeros(Core.promote_type(eltype(U), eltype(x)), n)
    for j in 1:n
        for i in 1:j
            y[i] += A[i, j] * x[j]
        end
    end
    y
end

