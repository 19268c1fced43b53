# check: kw_broadcast([0.4, -1.3, 2.2])
# Keyword values of a dotted call are evaluated once and passed to every call; the derivative
# flows through them as through the broadcast operands.
scale(v; by = 1.0, shift = 0.0) = v * by + shift
kw_broadcast(v) = sum(scale.(v; by = v[1], shift = v[2]^2)) + sum(@. scale(v; by = 2.0))
