# `const` inside a function is Julia's lowering error.
function f(x)
    const k = 2
    k * x
end
