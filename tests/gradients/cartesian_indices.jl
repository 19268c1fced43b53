# check: smoothness([0.3 0.9 -0.2; 0.45 1.4 0.7; -0.6 0.1 0.8])
# check: masked_peak([0.3, -1.2, 2.5, 0.7])
# check: column_maxima([0.3 0.9 -0.2; 0.45 1.4 0.7; -0.6 0.1 0.8])
# check: volume_stencil(reshape(collect(0.1:0.1:1.2), 2, 3, 2))
# A smoothness penalty over a grid written with Cartesian indices, plus the peak value and the
# sum over a mask (both found by index).
function smoothness(u)
    s = 0.0
    for I in CartesianIndices(u)
        i, j = Tuple(I)
        if i > 1
            s += (u[I] - u[I - CartesianIndex(1, 0)])^2
        end
        if j > 1
            s += (u[I] - u[CartesianIndex(i, j - 1)])^2
        end
    end
    s + u[argmax(u)] + sum(u[findall(u .> 0.5)])
end
function masked_peak(x)
    k = findfirst(v -> v > 1.0, x)
    m, j = findmax(abs2, x)
    x[k] * m + argmax(v -> -v^2, x) + sum(x[findall(x .< 1.0)])
end
function volume_stencil(w)
    s = 0.0
    for I in CartesianIndices(w)
        s += w[I] * I[3] - (I[1] > 1 ? w[I] * w[I - CartesianIndex(1, 0, 0)] : 0.0)
    end
    s
end
# The largest entry of each column (and its row), as a softmax classifier's prediction would.
function column_maxima(P)
    V, I = findmax(P; dims = 1)
    s = sum(V)
    for k in 1:length(I)
        s += P[I[k]] * I[k][1]
    end
    s + sum(findmin(abs2, P; dims = 2)[1])
end
