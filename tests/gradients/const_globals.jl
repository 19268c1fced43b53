# check: f(0.3)
const SCALE = 2.5
const OFFSET = 0.25
f(x) = SCALE * x^2 + OFFSET * x
