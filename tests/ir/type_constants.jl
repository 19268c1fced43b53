# call: lengths([1.0, 2.0, 3.0])
# stages: optimised
# `1:n` builds `UnitRange{Int64}` via `Core.apply_type`; the optimiser folds such type
# computations to constants, so no `apply_type` remains.
function lengths(x)
    r = 1:length(x)
    length(r) + length(x)
end
