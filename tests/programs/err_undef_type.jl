f(x::Flaot64) = x
