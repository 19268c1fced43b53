//! Matrix-level rules: matrix products, triangular solves, the Cholesky and LU factorisations,
//! row exchanges and triangle copies, each written once as IR over the same primitives, for
//! both modes, with their test cases.
//!
//! Every rule's primitive returns a new float array. Reverse mode gives the result a zero
//! fdata array and, in the pullback, adds each argument's cotangent into its fdata from the
//! result's cotangent ([`MatrixRule::pullback`]); forward mode computes the result's tangent
//! from the arguments' ([`MatrixRule::tangent`]). Both are built from primitives that have
//! rules themselves, so forward mode over a pullback (Hessians) needs nothing more.
//!
//! Notation: `op(X)` is `Xᵀ` when the primitive's flag says so; `triu`/`tril` keep one
//! triangle; `Φ(X)` is `triu(X)` with its diagonal halved.

use crate::emit::Emit;
use ir::{Const, Prim, Type, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatrixRule {
    /// `C = array_matmul(A, B, ta, tb)` = `op(A) op(B)`: `Ā += op(C̄ op(B)ᵀ)`,
    /// `B̄ += op(op(A)ᵀ C̄)` (each transposed as its operand was); `Ċ = op(Ȧ) op(B) + op(A) op(Ḃ)`.
    Matmul,
    /// `X = array_trsolve(A, B, upper, trans, unit)` = `op(T)⁻¹ B`, `T` the triangle of `A`:
    /// with `G = op(T)⁻ᵀ X̄`, `B̄ += G` and `T̄ -= op(G Xᵀ)` on the triangle (without the
    /// diagonal when `unit`); `Ẋ = op(T)⁻¹ (Ḃ - op(Ṫ) X)`.
    Trsolve,
    /// `U = array_cholesky(A)`, `A = UᵀU` from `A`'s upper triangle: with
    /// `Z = U⁻¹ (M + Mᵀ) U⁻ᵀ`, `M = Φ(Ū Uᵀ)`, `Ā += Φ(Z)` (upper triangle only: the lower one
    /// is never read); `U̇ = Φ(U⁻ᵀ Ṡ U⁻¹) U` with `Ṡ` the symmetric matrix of `triu(Ȧ)`.
    Cholesky,
    /// `F = array_lu(A, ipiv)`, `P A = L U` packed in `F` (`P` from the pivots, which are
    /// constants of the rule; `ipiv`'s new contents stay after a pullback): with
    /// `G = tril(Lᵀ L̄, -1) + triu(Ū Uᵀ)`, `Ā += Pᵀ L⁻ᵀ G U⁻ᵀ`; with `M = L⁻¹ P Ȧ U⁻¹`,
    /// `Ḟ = L tril(M, -1) + triu(M) U`.
    Lu,
    /// `Y = array_rowswap(X, ipiv, reverse)`: a permutation, so `Ẏ` is the same permutation
    /// of `Ẋ` and `X̄ +=` the inverse one of `Ȳ`.
    Rowswap,
    /// `R = array_tricopy(A, part, diag, trans)`: linear, so `Ṙ` is the same copy of `Ȧ`, and
    /// `Ā += op(mask(R̄))` (the triangle of the transpose is the other one).
    Tricopy,
}

/// The matrix rule of a primitive, if it has one.
pub fn matrix_rule(op: Prim) -> Option<MatrixRule> {
    Some(match op {
        Prim::ArrayMatmul => MatrixRule::Matmul,
        Prim::ArrayTrsolve => MatrixRule::Trsolve,
        Prim::ArrayCholesky => MatrixRule::Cholesky,
        Prim::ArrayTricopy => MatrixRule::Tricopy,
        Prim::ArrayLu => MatrixRule::Lu,
        Prim::ArrayRowswap => MatrixRule::Rowswap,
        _ => return None,
    })
}

/// Emits the IR of the rules: small helpers over `Emit`.
struct M<'e, 'f> {
    e: &'e mut Emit<'f>,
}

impl<'e, 'f> M<'e, 'f> {
    /// The emitter and the constants `false` and `true` every rule uses.
    fn start(e: &'e mut Emit<'f>) -> (M<'e, 'f>, Value, Value) {
        let f = e.konst(Const::Bool(false));
        let t = e.konst(Const::Bool(true));
        (M { e }, f, t)
    }
    fn ty(&self, v: Value) -> Type {
        self.e.f.types[v].clone()
    }
    /// A matrix type of `v`'s element type.
    fn matrix(&self, v: Value) -> Type {
        match self.ty(v) {
            Type::Array(t, _) => Type::Array(t, 2),
            t => t,
        }
    }
    fn elem(&self, v: Value) -> Type {
        match self.ty(v) {
            Type::Array(t, _) => (*t).clone(),
            t => t,
        }
    }
    fn int(&mut self, x: i64) -> Value {
        self.e.konst(Const::Int(x))
    }
    fn bool(&mut self, x: bool) -> Value {
        self.e.konst(Const::Bool(x))
    }
    fn not(&mut self, b: Value) -> Value {
        self.e.prim(Prim::NotBool, vec![b], Type::Bool)
    }
    /// `-1` as an element of `v`'s element type.
    fn minus_one(&mut self, v: Value) -> Value {
        let c = match self.elem(v) {
            Type::Float32 => Const::F32(-1.0),
            _ => Const::F64(-1.0),
        };
        self.e.konst(c)
    }
    fn zero_like(&mut self, v: Value) -> Value {
        let t = self.ty(v);
        self.e.prim(Prim::ArrayZeroLike, vec![v], t)
    }
    /// `x += y` in place.
    fn accumulate(&mut self, x: Value, y: Value) {
        let t = self.ty(x);
        self.e.prim(Prim::ArrayAccumulate, vec![x, y], t);
    }
    /// `x -= y` in place.
    fn subtract(&mut self, x: Value, y: Value) {
        let (t, m) = (self.ty(x), self.minus_one(x));
        self.e.prim(Prim::ArrayAxpy, vec![x, m, y], t);
    }
    fn matmul(&mut self, a: Value, b: Value, ta: Value, tb: Value) -> Value {
        let t = match self.ty(b) {
            Type::Array(_, 1) => self.ty(b),
            _ => self.matrix(a),
        };
        self.e.prim(Prim::ArrayMatmul, vec![a, b, ta, tb], t)
    }
    fn gemm_add(&mut self, c: Value, a: Value, b: Value, flags: [Value; 3]) {
        let t = self.ty(c);
        let [ta, tb, tc] = flags;
        self.e
            .prim(Prim::ArrayGemmAdd, vec![c, a, b, ta, tb, tc], t);
    }
    fn trsolve(&mut self, a: Value, b: Value, flags: [Value; 3]) -> Value {
        let t = self.ty(b);
        let [upper, trans, unit] = flags;
        self.e
            .prim(Prim::ArrayTrsolve, vec![a, b, upper, trans, unit], t)
    }
    fn tricopy(&mut self, a: Value, part: Value, diag: Value, trans: Value) -> Value {
        let t = self.matrix(a);
        self.e
            .prim(Prim::ArrayTricopy, vec![a, part, diag, trans], t)
    }
    fn rowswap(&mut self, x: Value, ipiv: Value, reverse: Value) -> Value {
        let t = self.ty(x);
        self.e.prim(Prim::ArrayRowswap, vec![x, ipiv, reverse], t)
    }
    /// `tricopy` with constant flags.
    fn tri(&mut self, a: Value, part: i64, diag: i64, trans: bool) -> Value {
        let (p, d, t) = (self.int(part), self.int(diag), self.bool(trans));
        self.tricopy(a, p, d, t)
    }
    /// `Xᵀ` (a copy).
    fn transpose(&mut self, x: Value) -> Value {
        self.tri(x, 0, 1, true)
    }
    /// `X + Xᵀ`.
    fn symmetrise(&mut self, x: Value) -> Value {
        let s = self.transpose(x);
        self.accumulate(s, x);
        s
    }
    /// The triangle and diagonal codes of `array_tricopy` for a triangular solve's flags:
    /// `part = upper ? 1 : -1`, `diag = unit ? 0 : 1`.
    fn triangle_of(&mut self, upper: Value, unit: Value) -> (Value, Value) {
        let u = self.e.prim(Prim::BoolToInt, vec![upper], Type::Int64);
        let two_u = self.e.prim(Prim::AddInt, vec![u, u], Type::Int64);
        let one = self.int(1);
        let part = self.e.prim(Prim::SubInt, vec![two_u, one], Type::Int64);
        let n = self.e.prim(Prim::BoolToInt, vec![unit], Type::Int64);
        let diag = self.e.prim(Prim::SubInt, vec![one, n], Type::Int64);
        (part, diag)
    }
}

impl MatrixRule {
    /// Emits the pullback of `out = op(args...)`: `fdata[k]` is argument k's fdata (`None`
    /// for arguments without one), `obar` the result's cotangent. Adds into the fdata in place.
    pub fn pullback(
        self,
        e: &mut Emit,
        args: &[Value],
        fdata: &[Option<Value>],
        out: Value,
        obar: Value,
    ) {
        let (mut m, f, t) = M::start(e);
        match self {
            MatrixRule::Matmul => {
                let (a, b, ta, tb) = (args[0], args[1], args[2], args[3]);
                if let Some(fa) = fdata[0] {
                    let ntb = m.not(tb);
                    m.gemm_add(fa, obar, b, [f, ntb, ta]);
                }
                if let Some(fb) = fdata[1] {
                    let nta = m.not(ta);
                    m.gemm_add(fb, a, obar, [nta, f, tb]);
                }
            }
            MatrixRule::Trsolve => {
                let (a, upper, trans, unit) = (args[0], args[2], args[3], args[4]);
                let ntrans = m.not(trans);
                let g = m.trsolve(a, obar, [upper, ntrans, unit]);
                if let Some(fb) = fdata[1] {
                    m.accumulate(fb, g);
                }
                if let Some(fa) = fdata[0] {
                    let gx = m.zero_like(fa);
                    m.gemm_add(gx, g, out, [f, t, trans]);
                    let (part, diag) = m.triangle_of(upper, unit);
                    let r = m.tricopy(gx, part, diag, f);
                    m.subtract(fa, r);
                }
            }
            MatrixRule::Cholesky => {
                if let Some(fa) = fdata[0] {
                    let uu = m.matmul(obar, out, f, t);
                    let mm = m.tri(uu, 1, 2, false);
                    let n = m.symmetrise(mm);
                    let y = m.trsolve(out, n, [t, f, f]);
                    let yt = m.transpose(y);
                    let z = m.trsolve(out, yt, [t, f, f]);
                    let r = m.tri(z, 1, 2, false);
                    m.accumulate(fa, r);
                }
            }
            MatrixRule::Lu => {
                if let Some(fa) = fdata[0] {
                    let lbar = m.tri(obar, -1, 0, false);
                    let ubar = m.tri(obar, 1, 1, false);
                    let l_strict = m.tri(out, -1, 0, false);
                    let u = m.tri(out, 1, 1, false);
                    // Lᵀ L̄ = L̄ + (L - I)ᵀ L̄.
                    let ltl = m.tri(obar, -1, 0, false);
                    m.gemm_add(ltl, l_strict, lbar, [t, f, f]);
                    let g = m.tri(ltl, -1, 0, false);
                    let uu = m.matmul(ubar, u, f, t);
                    let uu = m.tri(uu, 1, 1, false);
                    m.accumulate(g, uu);
                    let y = m.trsolve(out, g, [f, t, t]);
                    let yt = m.transpose(y);
                    let z = m.trsolve(out, yt, [t, f, f]);
                    let x = m.transpose(z);
                    let r = m.rowswap(x, args[1], t);
                    m.accumulate(fa, r);
                }
            }
            MatrixRule::Rowswap => {
                if let Some(fx) = fdata[0] {
                    let back = m.not(args[2]);
                    let r = m.rowswap(obar, args[1], back);
                    m.accumulate(fx, r);
                }
            }
            MatrixRule::Tricopy => {
                if let Some(fa) = fdata[0] {
                    let (part, diag, trans) = (args[1], args[2], args[3]);
                    // The transpose's triangle is the other one: part × (1 - 2 trans).
                    let k = m.e.prim(Prim::BoolToInt, vec![trans], Type::Int64);
                    let pk = m.e.prim(Prim::MulInt, vec![part, k], Type::Int64);
                    let two_pk = m.e.prim(Prim::AddInt, vec![pk, pk], Type::Int64);
                    let adj = m.e.prim(Prim::SubInt, vec![part, two_pk], Type::Int64);
                    let r = m.tricopy(obar, adj, diag, trans);
                    m.accumulate(fa, r);
                }
            }
        }
    }

    /// Emits the tangent of `out = op(args...)` from the arguments' tangents `dargs` (`None`
    /// where an argument has none).
    pub fn tangent(
        self,
        e: &mut Emit,
        args: &[Value],
        dargs: &[Option<Value>],
        out: Value,
    ) -> Value {
        let (mut m, f, t) = M::start(e);
        match self {
            MatrixRule::Matmul => {
                let (a, b, ta, tb) = (args[0], args[1], args[2], args[3]);
                match (dargs[0], dargs[1]) {
                    (Some(da), Some(db)) => {
                        let c = m.matmul(da, b, ta, tb);
                        m.gemm_add(c, a, db, [ta, tb, f]);
                        c
                    }
                    (Some(da), None) => m.matmul(da, b, ta, tb),
                    (None, Some(db)) => m.matmul(a, db, ta, tb),
                    (None, None) => m.zero_like(out),
                }
            }
            MatrixRule::Trsolve => {
                let (a, upper, trans, unit) = (args[0], args[2], args[3], args[4]);
                if dargs[0].is_none() && dargs[1].is_none() {
                    return m.zero_like(out);
                }
                let rhs = m.zero_like(out);
                if let Some(db) = dargs[1] {
                    m.accumulate(rhs, db);
                }
                if let Some(da) = dargs[0] {
                    let (part, diag) = m.triangle_of(upper, unit);
                    let dt = m.tricopy(da, part, diag, f);
                    let p = m.matmul(dt, out, trans, f);
                    m.subtract(rhs, p);
                }
                m.trsolve(a, rhs, [upper, trans, unit])
            }
            MatrixRule::Cholesky => match dargs[0] {
                Some(da) => {
                    let q = m.tri(da, 1, 2, false);
                    let s = m.symmetrise(q);
                    let w = m.trsolve(out, s, [t, t, f]);
                    let wt = m.transpose(w);
                    let v = m.trsolve(out, wt, [t, t, f]);
                    let p = m.tri(v, 1, 2, false);
                    m.matmul(p, out, f, f)
                }
                None => m.zero_like(out),
            },
            MatrixRule::Lu => match dargs[0] {
                Some(da) => {
                    let pa = m.rowswap(da, args[1], f);
                    let y = m.trsolve(out, pa, [f, f, t]);
                    let yt = m.transpose(y);
                    let z = m.trsolve(out, yt, [t, t, f]);
                    let mm = m.transpose(z);
                    // L tril(M, -1) = tril(M, -1) + (L - I) tril(M, -1).
                    let ml = m.tri(mm, -1, 0, false);
                    let dl = m.tri(mm, -1, 0, false);
                    let l_strict = m.tri(out, -1, 0, false);
                    m.gemm_add(dl, l_strict, ml, [f, f, f]);
                    let mu = m.tri(mm, 1, 1, false);
                    let u = m.tri(out, 1, 1, false);
                    let du = m.matmul(mu, u, f, f);
                    m.accumulate(dl, du);
                    dl
                }
                None => m.zero_like(out),
            },
            MatrixRule::Rowswap => match dargs[0] {
                Some(dx) => m.rowswap(dx, args[1], args[2]),
                None => m.zero_like(out),
            },
            MatrixRule::Tricopy => match dargs[0] {
                Some(da) => m.tricopy(da, args[1], args[2], args[3]),
                None => m.zero_like(out),
            },
        }
    }
}

/// Test cases of the rules above (see `scalar::CASES`).
pub const CASES: &[(Prim, &str, &str)] = &[
    (Prim::ArrayMatmul, "f(A, B) = sum(abs2, Core.array_matmul(A, B, false, false))", "f([1.0 2.0; 3.0 -1.0; 0.5 2.0], [0.5 -1.0 1.5; 2.0 0.25 -0.5])"),
    (Prim::ArrayMatmul, "f(A, B) = sum(sin.(Core.array_matmul(A, B, true, true)))", "f([1.0 2.0 -0.5; 3.0 -1.0 0.25], [0.5 -1.0; 2.0 0.25])"),
    (Prim::ArrayMatmul, "f(A, B) = sum(abs2, Core.array_matmul(A, B, false, true)) + sum(Core.array_matmul(B, A, true, false))", "f([1.0 2.0; 3.0 -1.0], [0.5 -1.0; 2.0 0.25])"),
    (Prim::ArrayMatmul, "f(A, x) = sum(exp.(Core.array_matmul(A, x, true, false))) * Core.array_matmul(A, x, false, false)[2]", "f([0.3 0.2; -0.1 0.4], [0.5, -1.0])"),
    (Prim::ArrayMatmul, "f(A) = sum(abs2, Core.array_matmul(A, A, false, true))", "f([1.0f0 2.0f0; -0.5f0 1.5f0])"),
    // Every triangle, transposed or not, with and without a unit diagonal; entries outside
    // the triangle are not read (their gradient is zero).
    (Prim::ArrayTrsolve, "f(A, b) = sum(abs2, Core.array_trsolve(A, b, true, false, false))", "f([2.0 0.5 -1.0; 0.3 3.0 0.25; -2.0 1.5 4.0], [1.0, -2.0, 0.5])"),
    (Prim::ArrayTrsolve, "f(A, b) = sum(sin.(Core.array_trsolve(A, b, false, false, false)))", "f([2.0 0.5 -1.0; 0.3 3.0 0.25; -2.0 1.5 4.0], [1.0, -2.0, 0.5])"),
    (Prim::ArrayTrsolve, "f(A, B) = sum(abs2, Core.array_trsolve(A, B, true, true, false))", "f([2.0 0.5 -1.0; 0.3 3.0 0.25; -2.0 1.5 4.0], [1.0 0.5; -2.0 1.0; 0.5 -0.75])"),
    (Prim::ArrayTrsolve, "f(A, B) = sum(exp.(Core.array_trsolve(A, B, false, true, true)))", "f([2.0 0.5 -1.0; 0.3 3.0 0.25; -2.0 1.5 4.0], [1.0 0.5; -2.0 1.0; 0.5 -0.75])"),
    (Prim::ArrayTrsolve, "f(A, b) = sum(abs2, Core.array_trsolve(A, b, true, false, true))", "f([2.0f0 0.5f0; 0.3f0 3.0f0], [1.0f0, -2.0f0])"),
    (Prim::ArrayCholesky, "f(A) = sum(abs2, Core.array_cholesky(A))", "f([4.0 1.0 0.5; 1.0 3.0 -0.25; 0.5 -0.25 2.0])"),
    (Prim::ArrayCholesky, "f(A) = sum(sin.(Core.array_cholesky(A)))", "f([4.0 1.0 0.5; 7.0 3.0 -0.25; -2.0 9.0 2.0])"),
    (Prim::ArrayCholesky, "f(A) = sum(abs2, Core.array_cholesky(A))", "f([2.0f0 0.5f0; 0.5f0 1.5f0])"),
    (Prim::ArrayTricopy, "f(A) = sum(abs2, Core.array_tricopy(A, 1, 2, false))", "f([1.0 2.0 3.0; -1.0 0.5 2.0])"),
    (Prim::ArrayTricopy, "f(A) = sum(sin.(Core.array_tricopy(A, -1, 0, true)))", "f([1.0 2.0 3.0; -1.0 0.5 2.0])"),
    (Prim::ArrayTricopy, "f(A) = sum(exp.(Core.array_tricopy(A, 0, 1, true)) .* [1.0 2.0; 3.0 4.0; 5.0 6.0])", "f([1.0 2.0 3.0; -1.0 0.5 2.0])"),
    (Prim::ArrayLu, "function f(A)\n    p = zeros(Int, 3)\n    sum(abs2, Core.array_lu(A, p))\nend", "f([0.5 2.0 1.0; 3.0 -1.0 0.25; 1.0 0.75 2.0])"),
    (Prim::ArrayLu, "function f(A)\n    p = zeros(Int, 3)\n    F = Core.array_lu(A, p)\n    sum(sin.(F)) * F[3, 3]\nend", "f([4.0 2.0 1.0; 3.0 -1.0 0.25; 1.0 0.75 2.0])"),
    (Prim::ArrayLu, "function f(A)\n    p = zeros(Int, 2)\n    sum(abs2, Core.array_lu(A, p))\nend", "f([1.0f0 2.0f0; 3.0f0 -1.0f0])"),
    (Prim::ArrayRowswap, "f(x) = sum(abs2, Core.array_rowswap(x, [3, 3, 3], false) .* [1.0, 2.0, 3.0])", "f([1.0, -2.0, 0.5])"),
    (Prim::ArrayRowswap, "f(X) = sum(sin.(Core.array_rowswap(X, [2, 3, 3], true)) .* [1.0 2.0; 3.0 4.0; 5.0 6.0])", "f([1.0 0.5; -2.0 1.5; 0.5 0.25])"),
];
