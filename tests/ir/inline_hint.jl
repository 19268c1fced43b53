# call: both(1.5)
# stages: optimised
# A function declared `@inline` is copied into its caller although it is larger than the
# functions copied without asking; its twin without `@inline` stays a call.
@inline function hinted(x)
    a = x * 1.1 + 2.0; b = a * a - x; c = b * 0.5 + a; d = c * c - b; e = d * 0.25 + c
    f = e * e - d; g = f * 0.125 + e; h = g * g - f; i = h * 0.5 + g; j = i * i - h
    k = j * 0.3 + i; l = k * k - j; m = l * 0.7 + k; n = m * m - l; o = n * 0.1 + m
    p = o * 1.3 + n; q = p * p - o; r = q * 0.9 + p; s = r * r - q; t = s * 0.2 + r
    t * t - s
end
function plain(x)
    a = x * 1.1 + 2.0; b = a * a - x; c = b * 0.5 + a; d = c * c - b; e = d * 0.25 + c
    f = e * e - d; g = f * 0.125 + e; h = g * g - f; i = h * 0.5 + g; j = i * i - h
    k = j * 0.3 + i; l = k * k - j; m = l * 0.7 + k; n = m * m - l; o = n * 0.1 + m
    p = o * 1.3 + n; q = p * p - o; r = q * 0.9 + p; s = r * r - q; t = s * 0.2 + r
    t * t - s
end
both(x) = hinted(x) + plain(2x)
