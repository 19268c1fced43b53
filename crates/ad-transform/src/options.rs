//! What a derived function is: the method instance it derives, which derived function
//! (forwards pass, pullback, forward mode with some lanes) and the options it is derived with.

use crate::rules::Context;
use compiler::MiKey;

/// Which derived function of a method instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    Forward,
    Pullback,
    /// Forward mode's rule with this many lanes (see `forward`).
    Dual(u8),
}

/// How rules are derived: debug mode (run-time fdata checks at argument and call boundaries),
/// the rule context (`Default` uses the speed-only rules of `rules::fast_rule`), and whether
/// threaded loops are differentiated as their shares run one after another (`serial_threads`:
/// rules that are differentiated again, by forward mode, need that; first-order reverse mode
/// runs the shares' forwards passes and pullbacks on the threads).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleOptions {
    pub debug: bool,
    pub context: Context,
    pub serial_threads: bool,
    /// Reverse-mode rules run inside a `try` body: each write into an array or mutable struct
    /// is noted first (`Core.note_write`), so that a body that raises an error after changing
    /// something that existed before it is refused rather than differentiated wrongly.
    pub in_try: bool,
}

impl RuleOptions {
    /// How many bits [`RuleOptions::to_bits`] uses.
    pub const BITS: u32 = 4;

    /// The options as an integer (a constant operand of `Core.dyn_fwd`).
    pub fn to_bits(self) -> i64 {
        (self.debug as i64)
            | (((self.context == Context::Minimal) as i64) << 1)
            | ((self.serial_threads as i64) << 2)
            | ((self.in_try as i64) << 3)
    }

    pub fn from_bits(b: i64) -> RuleOptions {
        RuleOptions {
            debug: b & 1 != 0,
            context: if b & 2 != 0 {
                Context::Minimal
            } else {
                Context::Default
            },
            serial_threads: b & 4 != 0,
            in_try: b & 8 != 0,
        }
    }
}

/// A derived function: the identity under which derived code calls it and the AD runtime
/// derives it on first use.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DerivedKey {
    /// The method instance whose rule this is (itself possibly a derived function).
    pub primal: MiKey,
    pub mode: Mode,
    pub opts: RuleOptions,
}

impl DerivedKey {
    /// How the derived function is printed in IR (`#fwd f(Float64)`, `#dual2-debug g(...)`).
    pub fn display(&self) -> String {
        let which = match self.mode {
            Mode::Forward => "fwd".to_string(),
            Mode::Pullback => "rvs".to_string(),
            Mode::Dual(n) => format!("dual{n}"),
        };
        let debug = if self.opts.debug { "-debug" } else { "" };
        let ctx = match self.opts.context {
            Context::Default => "",
            Context::Minimal => "-minimal",
        };
        let serial = if self.opts.serial_threads {
            "-serial"
        } else {
            ""
        };
        let tried = if self.opts.in_try { "-try" } else { "" };
        format!(
            "#{which}{debug}{ctx}{serial}{tried} {}",
            self.primal.display()
        )
    }
}

/// What a `Core.dual_call` runs with its operands (`f, ḟ..., x1, ẋ1..., ...`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DualCallKind {
    /// The forward rule of the method the operands' run-time types select.
    Call,
    /// Forward mode of `Core.dual_apply(f, tf, x1, t1, ...)`: AD inside the language,
    /// differentiated again.
    DualApply,
    /// Forward mode of `Core.grad_apply(f, x1, ...)` (Hessian-vector products).
    GradApply,
    /// Forward mode of `Core.try_catch(body, handler)`: the body's forward rule, or, when it
    /// raises an error the program catches, the handler's.
    TryCatch,
    /// Forward mode of `Core.try_finally(body, fin)`.
    TryFinally,
}

/// The options operand of `Core.dual_call`: the rule options and what the call runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DualCallOp {
    pub opts: RuleOptions,
    pub kind: DualCallKind,
}

impl DualCallOp {
    pub fn to_bits(self) -> i64 {
        let kind = match self.kind {
            DualCallKind::Call => 0,
            DualCallKind::DualApply => 1,
            DualCallKind::GradApply => 2,
            DualCallKind::TryCatch => 3,
            DualCallKind::TryFinally => 4,
        };
        self.opts.to_bits() | (kind << RuleOptions::BITS)
    }

    /// The operand decoded (`None` for a value no `to_bits` makes).
    pub fn from_bits(b: i64) -> Option<DualCallOp> {
        let kind = match b >> RuleOptions::BITS {
            0 => DualCallKind::Call,
            1 => DualCallKind::DualApply,
            2 => DualCallKind::GradApply,
            3 => DualCallKind::TryCatch,
            4 => DualCallKind::TryFinally,
            _ => return None,
        };
        Some(DualCallOp {
            opts: RuleOptions::from_bits(b & ((1 << RuleOptions::BITS) - 1)),
            kind,
        })
    }
}
