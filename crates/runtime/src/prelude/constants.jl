# Constants (after the functions they use): `Inf`, `NaN`, `π`, `ℯ`.

const Inf = Core.div_float(1.0, 0.0)
const NaN = Core.div_float(0.0, 0.0)
const Inf64 = Inf
const NaN64 = NaN
const Inf32 = Core.fpconvert(Float32, Inf)
const NaN32 = Core.fpconvert(Float32, NaN)
const π = Irrational{:π}()
const pi = π
const ℯ = Irrational{:ℯ}()
# The other constants of `MathConstants` (reached as `MathConstants.γ`, ...).
const _eulergamma = Irrational{:γ}()
const _golden = Irrational{:φ}()
const _catalan = Irrational{:catalan}()
# The command-line arguments of the script: `mooncake` passes none to the program.
const ARGS = String[]
