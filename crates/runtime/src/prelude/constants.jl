# Constants (after the functions they use): `Inf`, `NaN`, `π`.

const Inf = Core.div_float(1.0, 0.0)
const NaN = Core.div_float(0.0, 0.0)
const Inf64 = Inf
const NaN64 = NaN
const Inf32 = Core.fpconvert(Float32, Inf)
const NaN32 = Core.fpconvert(Float32, NaN)
const pi = 3.141592653589793
const π = 3.141592653589793
