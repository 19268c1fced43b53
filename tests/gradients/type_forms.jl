# check: layered([0.3, -0.7, 1.2])
# check: ref_cell(1.3)
# Value type parameters choosing methods, an inner constructor with `where`, a typed `Ref`.
struct Act{A} end
act(::Act{:relu}, x) = max(x, 0.0)
act(::Act{:tanh}, x) = tanh(x)
struct Scaled{T<:Real}
    s::T
    Scaled(s::T) where {T<:Real} = new{T}(s)
end
layered(x) = sum(act(Act{:tanh}(), xi) * Scaled(2.0).s + act(Act{:relu}(), xi)^2 for xi in x)
function ref_cell(a)
    r = Ref{Float64}(1)
    for k in 1:3
        r[] = r[] * a + k
    end
    r[] + real([a, 2a])[2] + sum(imag([a]))
end
