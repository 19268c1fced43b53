# Whole-array arithmetic and products, adjoints and transposes, norms and dot products, and the
# generic fallbacks of the array interface (LinearAlgebra and Base).

# LinearAlgebra.
function dot(x::AbstractArray, y::AbstractArray)
    if length(x) != length(y)
        throw(DimensionMismatch(string("first array has length ", length(x), " which does not match the length of the second, ", length(y), ".")))
    end
    s = zero(eltype(x)) * zero(eltype(y))
    for i in 1:length(x)
        s += x[i] * y[i]
    end
    s
end
dot(x::Number, y::Number) = x * y
# `x' * A * y` without forming `A * y`; a column whose `y` entry is zero is skipped, as
# LinearAlgebra does (so an `Inf` or `NaN` there does not reach the result).
function dot(x::AbstractVector, A::AbstractMatrix, y::AbstractVector)
    (length(x), length(y)) == size(A) || throw(DimensionMismatch(""))
    s = zero(eltype(x)) * zero(eltype(A)) * zero(eltype(y))
    for j in 1:length(y)
        yj = y[j]
        if !iszero(yj)
            temp = zero(eltype(A)) * zero(eltype(x))
            for i in 1:length(x)
                temp += A[i, j] * x[i]
            end
            s += temp * yj
        end
    end
    s
end
norm(x::AbstractVector) = sqrt(dot(x, x))
# The Frobenius norm of a matrix.
function norm(A::AbstractMatrix)
    s = zero(eltype(A)) * zero(eltype(A))
    for k in 1:length(A)
        s += A[k] * A[k]
    end
    sqrt(s)
end

# Generic fallbacks of the array interface for array types defined by `size` and `getindex`
# (views, adjoints, user-defined arrays): Julia's `AbstractArray` methods.
length(a::AbstractArray) = _prod_dims(size(a))
_prod_dims(d::Tuple{Int64}) = d[1]
_prod_dims(d::Tuple{Int64,Int64}) = d[1] * d[2]
_prod_dims(d::Tuple{Int64,Int64,Int64}) = d[1] * d[2] * d[3]
isempty(a::AbstractArray) = length(a) == 0
axes(a::AbstractArray{T,1}) where {T} = (OneTo(size(a, 1)),)
axes(a::AbstractArray{T,2}) where {T} = (OneTo(size(a, 1)), OneTo(size(a, 2)))
axes(a::AbstractArray, d::Int64) = OneTo(size(a, d))
eachindex(a::AbstractArray) = OneTo(length(a))
eachindex(a::AbstractArray, b::AbstractArray) = _eachindex2(length(a), length(b))
firstindex(a::AbstractArray) = 1
firstindex(a::AbstractArray, d::Int64) = first(axes(a, d))
lastindex(a::AbstractArray) = length(a)
lastindex(a::AbstractArray, d::Int64) = size(a, d)
first(a::AbstractArray) = a[1]
last(a::AbstractArray) = a[length(a)]
iterate_start(a::AbstractArray) = 1
iterate_done(a::AbstractArray, k::Int64) = k > length(a)
iterate_next(a::AbstractArray, k::Int64) = (a[k], k + 1)
# Linear indexing of a two-dimensional array: column-major.
function getindex(A::AbstractMatrix, k::Int64)
    if k < 1 || k > length(A)
        Core.throw_bounds(A, k)
    end
    m = size(A, 1)
    A[1 + rem(k - 1, m), 1 + div(k - 1, m)]
end
function setindex!(A::AbstractMatrix, x, k::Int64)
    if k < 1 || k > length(A)
        Core.throw_bounds(A, k)
    end
    m = size(A, 1)
    A[1 + rem(k - 1, m), 1 + div(k - 1, m)] = x
end
function collect(a::AbstractArray{T,1}) where {T}
    out = Vector{T}(undef, length(a))
    for k in 1:length(a)
        out[k] = a[k]
    end
    out
end
function collect(a::AbstractArray{T,2}) where {T}
    out = Matrix{T}(undef, size(a, 1), size(a, 2))
    for k in 1:length(a)
        out[k] = a[k]
    end
    out
end
similar(a::AbstractArray{T,1}) where {T} = Vector{T}(undef, size(a, 1))
similar(a::AbstractArray{T,2}) where {T} = Matrix{T}(undef, size(a, 1), size(a, 2))
similar(a::AbstractArray{T,1}, ::Type{S}) where {T,S} = Vector{S}(undef, size(a, 1))
similar(a::AbstractArray{T,2}, ::Type{S}) where {T,S} = Matrix{S}(undef, size(a, 1), size(a, 2))
# Dense copies: `Matrix(A')`, `Vector(r)`, `Matrix{Float64}(A)` (converting each element).
function Matrix{T}(A::AbstractMatrix) where {T}
    B = Matrix{T}(undef, size(A, 1), size(A, 2))
    for j in 1:size(A, 2), i in 1:size(A, 1)
        B[i, j] = convert(T, A[i, j])
    end
    B
end
function Vector{T}(v::AbstractVector) where {T}
    w = Vector{T}(undef, length(v))
    for i in 1:length(v)
        w[i] = convert(T, v[i])
    end
    w
end
Matrix(A::AbstractMatrix{T}) where {T} = Matrix{T}(A)
Vector(v::AbstractVector{T}) where {T} = Vector{T}(v)
Array(A::AbstractVector) = Vector(A)
Array(A::AbstractMatrix) = Matrix(A)
similar(a::AbstractArray{T}, n::Int64) where {T} = Vector{T}(undef, n)
similar(a::AbstractArray{T}, m::Int64, n::Int64) where {T} = Matrix{T}(undef, m, n)
similar(a::AbstractArray, ::Type{S}, n::Int64) where {S} = Vector{S}(undef, n)
similar(a::AbstractArray, ::Type{S}, m::Int64, n::Int64) where {S} = Matrix{S}(undef, m, n)
similar(a::AbstractArray{T}, d::Tuple{Int64}) where {T} = Vector{T}(undef, d[1])
similar(a::AbstractArray{T}, d::Tuple{Int64,Int64}) where {T} = Matrix{T}(undef, d[1], d[2])
function ==(a::AbstractArray, b::AbstractArray)
    size(a) == size(b) || return false
    for i in 1:length(a)
        a[i] == b[i] || return false
    end
    true
end

# Adjoint and transpose (LinearAlgebra): lazy wrappers. `x'` of a vector is its 1×n row, `A'`
# of a matrix its transpose; both read and write their parent's memory.
struct Adjoint{T,S} <: AbstractMatrix{T}
    parent::S
end
struct Transpose{T,S} <: AbstractMatrix{T}
    parent::S
end
adjoint(x::AbstractVector{T}) where {T} = Adjoint{T,typeof(x)}(x)
adjoint(A::AbstractMatrix{T}) where {T} = Adjoint{T,typeof(A)}(A)
adjoint(A::Adjoint) = A.parent
transpose(x::AbstractVector{T}) where {T} = Transpose{T,typeof(x)}(x)
transpose(A::AbstractMatrix{T}) where {T} = Transpose{T,typeof(A)}(A)
transpose(A::Transpose) = A.parent
parent(A::Adjoint) = A.parent
parent(A::Transpose) = A.parent
size(A::Adjoint{T,S}) where {T,S<:AbstractVector} = (1, length(A.parent))
size(A::Adjoint{T,S}) where {T,S<:AbstractMatrix} = (size(A.parent, 2), size(A.parent, 1))
size(A::Transpose{T,S}) where {T,S<:AbstractVector} = (1, length(A.parent))
size(A::Transpose{T,S}) where {T,S<:AbstractMatrix} = (size(A.parent, 2), size(A.parent, 1))
# (Without building the size tuple: indexing checks bounds through these.)
size(A::Adjoint{T,S}, d::Int64) where {T,S<:AbstractVector} = d == 2 ? length(A.parent) : 1
size(A::Adjoint{T,S}, d::Int64) where {T,S<:AbstractMatrix} = d == 1 ? size(A.parent, 2) : (d == 2 ? size(A.parent, 1) : 1)
size(A::Transpose{T,S}, d::Int64) where {T,S<:AbstractVector} = d == 2 ? length(A.parent) : 1
size(A::Transpose{T,S}, d::Int64) where {T,S<:AbstractMatrix} = d == 1 ? size(A.parent, 2) : (d == 2 ? size(A.parent, 1) : 1)
length(A::Adjoint) = length(A.parent)
length(A::Transpose) = length(A.parent)
function _adj_check(A, i::Int64, j::Int64)
    if i < 1 || j < 1 || i > size(A, 1) || j > size(A, 2)
        Core.throw_bounds(A, (i, j))
    end
end
function getindex(A::Adjoint{T,S}, i::Int64, j::Int64) where {T,S<:AbstractVector}
    _adj_check(A, i, j)
    adjoint(A.parent[j])
end
function getindex(A::Adjoint{T,S}, i::Int64, j::Int64) where {T,S<:AbstractMatrix}
    _adj_check(A, i, j)
    adjoint(A.parent[j, i])
end
function getindex(A::Transpose{T,S}, i::Int64, j::Int64) where {T,S<:AbstractVector}
    _adj_check(A, i, j)
    transpose(A.parent[j])
end
function getindex(A::Transpose{T,S}, i::Int64, j::Int64) where {T,S<:AbstractMatrix}
    _adj_check(A, i, j)
    transpose(A.parent[j, i])
end
function setindex!(A::Adjoint{T,S}, x, i::Int64, j::Int64) where {T,S<:AbstractVector}
    _adj_check(A, i, j)
    A.parent[j] = adjoint(x)
    A
end
function setindex!(A::Adjoint{T,S}, x, i::Int64, j::Int64) where {T,S<:AbstractMatrix}
    _adj_check(A, i, j)
    A.parent[j, i] = adjoint(x)
    A
end
function setindex!(A::Transpose{T,S}, x, i::Int64, j::Int64) where {T,S<:AbstractVector}
    _adj_check(A, i, j)
    A.parent[j] = transpose(x)
    A
end
function setindex!(A::Transpose{T,S}, x, i::Int64, j::Int64) where {T,S<:AbstractMatrix}
    _adj_check(A, i, j)
    A.parent[j, i] = transpose(x)
    A
end
# A row vector indexed linearly reads its parent's element.
function _adj_check(A, k::Int64)
    if k < 1 || k > length(A)
        Core.throw_bounds(A, k)
    end
end
function getindex(A::Adjoint{T,S}, k::Int64) where {T,S<:AbstractVector}
    _adj_check(A, k)
    adjoint(A.parent[k])
end
function getindex(A::Transpose{T,S}, k::Int64) where {T,S<:AbstractVector}
    _adj_check(A, k)
    transpose(A.parent[k])
end
# `copy` of a row vector is a row vector of a copy; of a matrix, the transposed matrix.
copy(A::Adjoint{T,S}) where {T,S<:AbstractVector} = adjoint(copy(A.parent))
copy(A::Transpose{T,S}) where {T,S<:AbstractVector} = transpose(copy(A.parent))
copy(A::Adjoint{T,S}) where {T,S<:AbstractMatrix} = collect(A)
copy(A::Transpose{T,S}) where {T,S<:AbstractMatrix} = collect(A)

# Products. A row vector times a vector is their dot product; a vector times a row vector
# their outer product; the rest are matrix products, computed from the elements.
*(x::Adjoint{T,S}, y::AbstractVector) where {T,S<:AbstractVector} = dot(x.parent, y)
*(x::Transpose{T,S}, y::AbstractVector) where {T,S<:AbstractVector} = dot(x.parent, y)
*(x::Adjoint{T,S}, A::AbstractMatrix) where {T,S<:AbstractVector} = adjoint(adjoint(A) * x.parent)
*(x::Transpose{T,S}, A::AbstractMatrix) where {T,S<:AbstractVector} = transpose(transpose(A) * x.parent)
function _mul_mismatch(A, B)
    throw(DimensionMismatch(string("matrix A has dimensions (", size(A, 1), ",", size(A, 2), "), matrix B has dimensions (", size(B, 1), ",", size(B, 2), ")")))
end
function *(A::AbstractMatrix, x::AbstractVector)
    m = size(A, 1)
    n = size(A, 2)
    if n != length(x)
        throw(DimensionMismatch(string("matrix A has dimensions (", m, ",", n, "), vector B has length ", length(x))))
    end
    y = zeros(Core.promote_type(eltype(A), eltype(x)), m)
    for j in 1:n
        for i in 1:m
            y[i] += A[i, j] * x[j]
        end
    end
    y
end
function *(A::AbstractMatrix, B::AbstractMatrix)
    m = size(A, 1)
    k = size(A, 2)
    n = size(B, 2)
    k == size(B, 1) || _mul_mismatch(A, B)
    C = zeros(Core.promote_type(eltype(A), eltype(B)), m, n)
    for j in 1:n
        for l in 1:k
            for i in 1:m
                C[i, j] += A[i, l] * B[l, j]
            end
        end
    end
    C
end
# A vector is an n×1 matrix here.
function *(x::AbstractVector, B::AbstractMatrix)
    m = length(x)
    n = size(B, 2)
    if size(B, 1) != 1
        throw(DimensionMismatch(string("matrix A has dimensions (", m, ",1), matrix B has dimensions (", size(B, 1), ",", n, ")")))
    end
    C = Matrix{Core.promote_type(eltype(x), eltype(B))}(undef, m, n)
    for j in 1:n
        for i in 1:m
            C[i, j] = x[i] * B[1, j]
        end
    end
    C
end

# Products of Float64 or Float32 matrices and vectors (also transposed, as `A' * B`, `A * B'`,
# `A' * x`) run on an optimised kernel (`Core.array_matmul`, with matrix-level AD rules), as
# Julia's call BLAS; the methods above compute other element types from the elements.
function _matmul_check(A, B, ta::Bool, tb::Bool)
    k = ta ? size(A, 1) : size(A, 2)
    kb = ndims(B) == 1 ? length(B) : (tb ? size(B, 2) : size(B, 1))
    if k != kb
        m = ta ? size(A, 2) : size(A, 1)
        if ndims(B) == 1
            throw(DimensionMismatch(string("matrix A has dimensions (", m, ",", k, "), vector B has length ", kb)))
        end
        n = tb ? size(B, 1) : size(B, 2)
        throw(DimensionMismatch(string("matrix A has dimensions (", m, ",", k, "), matrix B has dimensions (", kb, ",", n, ")")))
    end
    Core.array_matmul(A, B, ta, tb)
end
*(A::Matrix{T}, B::Matrix{T}) where {T<:Union{Float64,Float32}} = _matmul_check(A, B, false, false)
*(A::Matrix{T}, x::Vector{T}) where {T<:Union{Float64,Float32}} = _matmul_check(A, x, false, false)
*(A::Adjoint{T,Matrix{T}}, B::Matrix{T}) where {T<:Union{Float64,Float32}} = _matmul_check(A.parent, B, true, false)
*(A::Transpose{T,Matrix{T}}, B::Matrix{T}) where {T<:Union{Float64,Float32}} = _matmul_check(A.parent, B, true, false)
*(A::Adjoint{T,Matrix{T}}, x::Vector{T}) where {T<:Union{Float64,Float32}} = _matmul_check(A.parent, x, true, false)
*(A::Transpose{T,Matrix{T}}, x::Vector{T}) where {T<:Union{Float64,Float32}} = _matmul_check(A.parent, x, true, false)
*(A::Matrix{T}, B::Adjoint{T,Matrix{T}}) where {T<:Union{Float64,Float32}} = _matmul_check(A, B.parent, false, true)
*(A::Matrix{T}, B::Transpose{T,Matrix{T}}) where {T<:Union{Float64,Float32}} = _matmul_check(A, B.parent, false, true)
*(A::Adjoint{T,Matrix{T}}, B::Adjoint{T,Matrix{T}}) where {T<:Union{Float64,Float32}} = _matmul_check(A.parent, B.parent, true, true)
*(A::Transpose{T,Matrix{T}}, B::Transpose{T,Matrix{T}}) where {T<:Union{Float64,Float32}} = _matmul_check(A.parent, B.parent, true, true)

# Whole-array arithmetic (Julia's arraymath.jl): `+` and `-` of arrays of one shape (trailing
# dimensions of length 1 aside), negation, and multiples and quotients by a number, each an
# elementwise broadcast.
function _axes_string(a::AbstractArray)
    n = ndims(a)
    s = "("
    for d in 1:n
        s = string(s, "Base.OneTo(", size(a, d), ")", d < n ? ", " : "")
    end
    n == 1 ? string(s, ",)") : string(s, ")")
end
function _promote_shape(a::AbstractArray, b::AbstractArray)
    if ndims(a) < ndims(b)
        return _promote_shape(b, a)
    end
    for i in 1:ndims(b)
        if size(a, i) != size(b, i)
            throw(DimensionMismatch(string("dimensions must match: a has dims ", _axes_string(a), ", b has dims ", _axes_string(b), ", mismatch at ", i)))
        end
    end
    for i in (ndims(b) + 1):ndims(a)
        if size(a, i) != 1
            throw(DimensionMismatch(string("dimensions must match: a has dims ", _axes_string(a), ", must have singleton at dim ", i)))
        end
    end
    nothing
end
function +(A::AbstractArray, B::AbstractArray)
    _promote_shape(A, B)
    broadcast(+, A, B)
end
function -(A::AbstractArray, B::AbstractArray)
    _promote_shape(A, B)
    broadcast(-, A, B)
end
-(A::AbstractArray) = broadcast(-, A)
*(a::Number, B::AbstractArray) = broadcast(*, a, B)
*(B::AbstractArray, a::Number) = broadcast(*, B, a)
/(B::AbstractArray, a::Number) = broadcast(/, B, a)
# (`a \ b` is `b / a` for real numbers.)
\(a::Number, B::AbstractArray) = broadcast(/, B, a)
# Row vectors stay row vectors.
+(x::Adjoint{T,S}, y::Adjoint{U,V}) where {T,S<:AbstractVector,U,V<:AbstractVector} = adjoint(x.parent + y.parent)
-(x::Adjoint{T,S}, y::Adjoint{U,V}) where {T,S<:AbstractVector,U,V<:AbstractVector} = adjoint(x.parent - y.parent)
-(x::Adjoint{T,S}) where {T,S<:AbstractVector} = adjoint(-x.parent)
*(a::Number, x::Adjoint{T,S}) where {T,S<:AbstractVector} = adjoint(a * x.parent)
*(x::Adjoint{T,S}, a::Number) where {T,S<:AbstractVector} = adjoint(x.parent * a)
/(x::Adjoint{T,S}, a::Number) where {T,S<:AbstractVector} = adjoint(x.parent / a)
+(x::Transpose{T,S}, y::Transpose{U,V}) where {T,S<:AbstractVector,U,V<:AbstractVector} = transpose(x.parent + y.parent)
-(x::Transpose{T,S}, y::Transpose{U,V}) where {T,S<:AbstractVector,U,V<:AbstractVector} = transpose(x.parent - y.parent)
-(x::Transpose{T,S}) where {T,S<:AbstractVector} = transpose(-x.parent)
*(a::Number, x::Transpose{T,S}) where {T,S<:AbstractVector} = transpose(a * x.parent)
*(x::Transpose{T,S}, a::Number) where {T,S<:AbstractVector} = transpose(x.parent * a)
/(x::Transpose{T,S}, a::Number) where {T,S<:AbstractVector} = transpose(x.parent / a)
# Integer ranges stay ranges, as in Julia (`2 * (1:3) == 2:2:6`).
function _int_range(start::Int64, st::Int64, n::Int64)
    if st == 0
        error("not supported yet: range arithmetic giving a step of zero")
    end
    Core.new(StepRange{Int64,Int64}, start, st, start + (n - 1) * st)
end
_range_step(r::UnitRange{Int64}) = 1
_range_step(r::OneTo{Int64}) = 1
_range_step(r::StepRange{Int64,Int64}) = r.step
-(r::AbstractRange{Int64}) = _int_range(-first(r), -_range_step(r), length(r))
*(a::Int64, r::AbstractRange{Int64}) = _int_range(a * first(r), a * _range_step(r), length(r))
*(r::AbstractRange{Int64}, a::Int64) = _int_range(first(r) * a, _range_step(r) * a, length(r))
function _range_lengths(a::AbstractRange, b::AbstractRange)
    if length(a) != length(b)
        throw(DimensionMismatch("argument dimensions must match"))
    end
end
function +(a::AbstractRange{Int64}, b::AbstractRange{Int64})
    _range_lengths(a, b)
    _int_range(first(a) + first(b), _range_step(a) + _range_step(b), length(a))
end
function -(a::AbstractRange{Int64}, b::AbstractRange{Int64})
    _range_lengths(a, b)
    _int_range(first(a) - first(b), _range_step(a) - _range_step(b), length(a))
end
