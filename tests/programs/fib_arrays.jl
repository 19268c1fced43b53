function fibs(n)
    f = zeros(Int, n)
    f[1] = 1
    f[2] = 1
    for i in 3:n
        f[i] = f[i-1] + f[i-2]
    end
    f
end
println(fibs(10))
function cumsum2(v)
    out = similar(v)
    acc = zero(eltype(v))
    for i in eachindex(v)
        acc += v[i]
        out[i] = acc
    end
    out
end
println(cumsum2([1.0, 2.0, 3.0, 4.0]))
function bubble!(v)
    n = length(v)
    for i in 1:n-1, j in 1:n-i
        if v[j] > v[j+1]
            v[j], v[j+1] = v[j+1], v[j]
        end
    end
    v
end
println(bubble!([5, 2, 9, 1, 3]))
