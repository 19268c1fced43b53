# An array cannot be resized while another shares its memory.
y = zeros(2)
r = reshape(y, 1, 2)
push!(y, 1.0)
