//! The IR text form: printing. `read.rs` parses the same form back.
//!
//! ```text
//! function f(Float64) -> Float64 [typed]
//! block0(v0: typeof(f), v1: Float64):
//!     v2: Float64 = const 1.0
//!     v3: Float64 = prim add_float(v1, v2)
//!     return v3
//! end
//! ```
//! Untyped phases omit the `: T` annotations. A `;` starts a comment (source locations).

use crate::function::{Block, Const, FieldRef, Function, Inst, InstData, Phase, Value};
use crate::types::IrType;
use std::fmt::Write;
use syntax::Span;

/// Formats a float the way the IR text writes it: always with a `.` or exponent, and `NaN`,
/// `Inf`, `-Inf` spelled out.
pub fn fmt_f64(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 {
            "Inf".into()
        } else {
            "-Inf".into()
        }
    } else {
        let s = format!("{x:?}");
        s
    }
}

pub fn write_const(out: &mut String, c: &Const) {
    let _ = match c {
        Const::Int(i) => write!(out, "{i}"),
        Const::F64(x) => write!(out, "{}", fmt_f64(*x)),
        Const::F32(x) => write!(out, "{}f32", fmt_f64(*x as f64)),
        Const::Bool(b) => write!(out, "{b}"),
        Const::Nothing => write!(out, "nothing"),
        Const::Str(s) => write!(out, "{s:?}"),
        Const::Sym(s) => write!(out, "symbol {s}"),
        Const::Type(t) => write!(out, "type {}", IrType(t)),
        Const::Func(f) => write!(out, "fn {f}"),
        Const::Singleton(t) => write!(out, "singleton {}", IrType(t)),
        Const::Undef => write!(out, "undef"),
    };
}

fn list(out: &mut String, vs: &[Value]) {
    for (i, v) in vs.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "{v}");
    }
}

fn field(out: &mut String, f: &FieldRef) {
    let _ = match f {
        FieldRef::Index(i) => write!(out, "{i}"),
        FieldRef::Name(n) => write!(out, "{n}"),
    };
}

/// Prints `func`. `loc` renders a source span as a comment (`None` omits locations).
pub fn write_function(func: &Function, loc: Option<&dyn Fn(Span) -> String>) -> String {
    write_annotated(func, loc, &|_| Vec::new())
}

/// What a note printed with the IR is about (see [`write_annotated`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// The function as a whole: notes go after its header line.
    Function,
    /// A block: notes go after its header line.
    Block(Block),
    /// An instruction: notes go on the lines after it.
    Inst(Inst),
}

/// The IR text of `func` with `notes(place)` printed as `; note` lines under each place.
pub fn write_annotated(
    func: &Function,
    loc: Option<&dyn Fn(Span) -> String>,
    notes: &dyn Fn(Place) -> Vec<String>,
) -> String {
    let mut out = String::new();
    let note = |out: &mut String, place: Place| {
        for n in notes(place) {
            let _ = writeln!(out, "    ; {n}");
        }
    };
    let typed = func.phase >= Phase::Typed;
    let _ = writeln!(
        out,
        "function {} -> {} [{}{}]",
        func.name,
        IrType(&func.ret_type),
        func.phase.name(),
        if func.nsz { ", nsz" } else { "" }
    );
    note(&mut out, Place::Function);
    for (s, data) in func.slots.iter() {
        let _ = writeln!(out, "    slot {s} {}", data.name);
    }
    for &b in &func.layout {
        let _ = write!(out, "{b}");
        let params = &func.blocks[b].params;
        if !params.is_empty() {
            out.push('(');
            for (i, p) in params.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if typed {
                    let _ = write!(out, "{p}: {}", IrType(&func.types[*p]));
                } else {
                    let _ = write!(out, "{p}");
                }
            }
            out.push(')');
        }
        out.push_str(":\n");
        note(&mut out, Place::Block(b));
        for &inst in &func.blocks[b].insts {
            out.push_str("    ");
            write_inst(&mut out, func, inst, typed);
            if let Some(loc) = loc {
                let sp = func.locs[inst];
                if !sp.is_dummy() {
                    let _ = write!(out, "  ; {}", loc(sp));
                }
            }
            out.push('\n');
            note(&mut out, Place::Inst(inst));
        }
    }
    out.push_str("end\n");
    out
}

pub fn write_inst(out: &mut String, func: &Function, inst: Inst, typed: bool) {
    if let Some(v) = func.result(inst) {
        if typed {
            let _ = write!(out, "{v}: {} = ", IrType(&func.types[v]));
        } else {
            let _ = write!(out, "{v} = ");
        }
    }
    match &func.insts[inst] {
        InstData::Const(c) => {
            out.push_str("const ");
            write_const(out, c);
        }
        InstData::Prim { op, args } => {
            let _ = write!(out, "prim {op}(");
            list(out, args);
            out.push(')');
        }
        InstData::Invoke { callee, args } => {
            let _ = write!(out, "invoke {}#{}(", callee.func, callee.method);
            for (i, t) in callee.sig.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                let _ = write!(out, "{}", IrType(t));
            }
            out.push_str(")(");
            list(out, args);
            out.push(')');
        }
        InstData::Call { args } => {
            out.push_str("call(");
            list(out, args);
            out.push(')');
        }
        InstData::New { ty, args } => {
            let _ = write!(out, "new {}(", IrType(ty));
            list(out, args);
            out.push(')');
        }
        InstData::Tuple { args } => {
            out.push_str("tuple(");
            list(out, args);
            out.push(')');
        }
        InstData::GetField { obj, field: f } => {
            let _ = write!(out, "getfield {obj}.");
            field(out, f);
        }
        InstData::SetField { obj, field: f, val } => {
            let _ = write!(out, "setfield {obj}.");
            field(out, f);
            let _ = write!(out, " = {val}");
        }
        InstData::TypeAssert { val, ty } => {
            let _ = write!(out, "typeassert {val}::{}", IrType(ty));
        }
        InstData::GetGlobal(g) => {
            let _ = write!(out, "global {g}");
        }
        InstData::SetGlobal(g, v) => {
            let _ = write!(out, "setglobal {g} = {v}");
        }
        InstData::StaticParam(i) => {
            let _ = write!(out, "static_param {i}");
        }
        InstData::GetSlot(s) => {
            let _ = write!(out, "slot {s}");
        }
        InstData::SetSlot(s, v) => {
            let _ = write!(out, "setslot {s} = {v}");
        }
        InstData::Jump { dest, args } => {
            let _ = write!(out, "jump {dest}");
            if !args.is_empty() {
                out.push('(');
                list(out, args);
                out.push(')');
            }
        }
        InstData::Branch {
            cond,
            then_dest,
            then_args,
            else_dest,
            else_args,
        } => {
            let _ = write!(out, "br {cond}, {then_dest}");
            if !then_args.is_empty() {
                out.push('(');
                list(out, then_args);
                out.push(')');
            }
            let _ = write!(out, ", {else_dest}");
            if !else_args.is_empty() {
                out.push('(');
                list(out, else_args);
                out.push(')');
            }
        }
        InstData::Return(v) => {
            let _ = write!(out, "return {v}");
        }
        InstData::Unreachable => out.push_str("unreachable"),
    }
}
