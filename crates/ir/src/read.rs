//! The IR text form: parsing (the inverse of `write.rs`). Value and block numbers are kept, so
//! that printing a parsed function reproduces the text.

use crate::function::{
    Block, BlockData, Callee, Const, FieldRef, Function, InstData, Phase, SlotData, Value, ValueDef,
};
use crate::prim::Prim;
use crate::types::{Type, TypeEnv};
use cranelift_entity::EntityRef;
use std::sync::Arc;
use syntax::{sym, Span};

#[derive(Debug, Clone, PartialEq)]
pub struct ReadError {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

#[derive(Debug, Clone, PartialEq)]
enum T {
    Ident(String),
    Int(i64),
    Float(f64),
    Str(String),
    Punct(char),
}

fn tokenize(line: &str) -> Result<Vec<T>, String> {
    let mut out = Vec::new();
    let cs: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c == ';' {
            break;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        if c == '"' {
            let mut s = String::new();
            i += 1;
            while i < cs.len() && cs[i] != '"' {
                if cs[i] == '\\' && i + 1 < cs.len() {
                    i += 1;
                    s.push(match cs[i] {
                        'n' => '\n',
                        't' => '\t',
                        'r' => '\r',
                        '0' => '\0',
                        o => o,
                    });
                } else {
                    s.push(cs[i]);
                }
                i += 1;
            }
            if i >= cs.len() {
                return Err("unterminated string".into());
            }
            i += 1;
            out.push(T::Str(s));
            continue;
        }
        if c.is_ascii_digit()
            || (c == '-' && i + 1 < cs.len() && (cs[i + 1].is_ascii_digit() || cs[i + 1] == 'I'))
        {
            let start = i;
            i += 1;
            while i < cs.len()
                && (cs[i].is_ascii_alphanumeric()
                    || cs[i] == '.'
                    || ((cs[i] == '-' || cs[i] == '+') && matches!(cs[i - 1], 'e' | 'E')))
            {
                i += 1;
            }
            let text: String = cs[start..i].iter().collect();
            if text == "-Inf" {
                out.push(T::Float(f64::NEG_INFINITY));
            } else if let Some(f32text) = text.strip_suffix("f32") {
                let v: f64 = f32text
                    .parse()
                    .map_err(|_| format!("bad number `{text}`"))?;
                out.push(T::Ident(format!("#f32:{v:?}")));
            } else if text.contains(['.', 'e', 'E']) {
                out.push(T::Float(
                    text.parse().map_err(|_| format!("bad number `{text}`"))?,
                ));
            } else {
                out.push(T::Int(
                    text.parse().map_err(|_| format!("bad number `{text}`"))?,
                ));
            }
            continue;
        }
        if c.is_alphabetic()
            || c == '_'
            || c == '!' && i + 1 < cs.len() && cs[i + 1].is_alphabetic()
        {
            let start = i;
            let name_char = |c: char| c.is_alphanumeric() || c == '_' || c == '!';
            while i < cs.len() && name_char(cs[i]) {
                i += 1;
            }
            // A program's own function named like a library one (`Main.sum`) is one name.
            if cs[start..i].iter().collect::<String>() == "Main"
                && cs.get(i) == Some(&'.')
                && cs
                    .get(i + 1)
                    .is_some_and(|c| name_char(*c) || "+-*/^<>=%÷\\&|".contains(*c))
            {
                i += 1;
                let op = !name_char(cs[i]);
                while i < cs.len()
                    && (if op {
                        "+-*/^<>=!%÷\\&|".contains(cs[i])
                    } else {
                        name_char(cs[i])
                    })
                {
                    i += 1;
                }
            }
            out.push(T::Ident(cs[start..i].iter().collect()));
            continue;
        }
        // Operator names of generic functions (`+`, `<=`, `==`) are identifiers after `fn`
        // and before `#` in an invoke; accept runs of operator characters.
        if "+-*/^<>=!%÷\\&|:".contains(c) {
            let start = i;
            while i < cs.len() && "+-*/^<>=!%÷\\&|:".contains(cs[i]) {
                i += 1;
            }
            let text: String = cs[start..i].iter().collect();
            if text.len() == 1 && matches!(c, '=' | ':') {
                out.push(T::Punct(c));
            } else if text == "::" {
                out.push(T::Punct(':'));
                out.push(T::Punct(':'));
            } else {
                out.push(T::Ident(text));
            }
            continue;
        }
        out.push(T::Punct(c));
        i += 1;
    }
    Ok(out)
}

struct Cursor<'a> {
    toks: Vec<T>,
    pos: usize,
    env: &'a TypeEnv,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<&T> {
        self.toks.get(self.pos)
    }
    fn next(&mut self) -> Option<T> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        t
    }
    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&T::Punct(c)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, c: char) -> Result<(), String> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(format!("expected `{c}`, found {:?}", self.peek()))
        }
    }
    fn ident(&mut self) -> Result<String, String> {
        match self.next() {
            Some(T::Ident(s)) => Ok(s),
            // The range function `:` is a name too.
            Some(T::Punct(':')) => Ok(":".into()),
            t => Err(format!("expected a name, found {t:?}")),
        }
    }
    fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    fn value(&mut self) -> Result<Value, String> {
        let s = self.ident()?;
        parse_entity(&s, "v").map(Value::new)
    }

    fn block(&mut self) -> Result<Block, String> {
        let s = self.ident()?;
        parse_entity(&s, "block").map(Block::new)
    }

    fn values_in_parens(&mut self) -> Result<Vec<Value>, String> {
        self.expect('(')?;
        let mut vs = Vec::new();
        if self.eat(')') {
            return Ok(vs);
        }
        loop {
            vs.push(self.value()?);
            if self.eat(')') {
                return Ok(vs);
            }
            self.expect(',')?;
        }
    }

    fn type_list(&mut self, close: char) -> Result<Vec<Type>, String> {
        let mut ts = Vec::new();
        if self.eat(close) {
            return Ok(ts);
        }
        loop {
            ts.push(self.ty()?);
            if self.eat(close) {
                return Ok(ts);
            }
            self.expect(',')?;
        }
    }

    fn ty(&mut self) -> Result<Type, String> {
        if let Some(T::Int(n)) = self.peek() {
            let n = *n;
            self.pos += 1;
            return Ok(Type::Val(n));
        }
        if self.eat(':') {
            return Ok(Type::ValSym(sym(&self.ident()?)));
        }
        if self.eat('@') {
            let name = self.ident()?;
            if name != "NamedTuple" {
                return Err(format!("unknown type `@{name}`"));
            }
            self.expect('{')?;
            let mut names = Vec::new();
            let mut tys = Vec::new();
            if !self.eat('}') {
                loop {
                    names.push(sym(&self.ident()?));
                    self.expect(':')?;
                    self.expect(':')?;
                    tys.push(self.ty()?);
                    if self.eat('}') {
                        break;
                    }
                    self.expect(',')?;
                }
            }
            return Ok(Type::NamedTuple(names.into(), tys.into()));
        }
        let name = self.ident()?;
        if name == "true" || name == "false" {
            return Ok(Type::ValBool(name == "true"));
        }
        if name == "typeof" {
            self.expect('(')?;
            let f = self.ident()?;
            self.expect(')')?;
            return Ok(Type::Function(sym(&f)));
        }
        let params = if self.eat('{') {
            Some(self.type_list('}')?)
        } else {
            None
        };
        let p = |i: usize| -> Result<Type, String> {
            params
                .as_ref()
                .and_then(|ps| ps.get(i).cloned())
                .ok_or_else(|| format!("`{name}` needs parameters"))
        };
        Ok(match name.as_str() {
            "Any" => Type::Any,
            "Int64" | "Int" => Type::Int64,
            "Float64" => Type::Float64,
            "Float32" => Type::Float32,
            "Bool" => Type::Bool,
            "Nothing" => Type::Nothing,
            "String" => Type::String,
            "Symbol" => Type::Symbol,
            "Vector" if params.is_some() => Type::vector(p(0)?),
            "Matrix" if params.is_some() => Type::array(p(0)?, 2),
            "Array" if params.is_some() => match p(1)? {
                Type::Val(n) => Type::array(p(0)?, n as u32),
                _ => return Err("`Array{T, N}` needs an integer N".into()),
            },
            "Tuple" => Type::tuple(params.unwrap_or_default()),
            "Union" => {
                let ps = params.unwrap_or_default();
                if ps.is_empty() {
                    Type::Bottom
                } else {
                    Type::union_of(ps)
                }
            }
            "Type" => Type::type_of_type(p(0)?),
            "UnionAll" => match p(0)? {
                Type::Struct(n, _) | Type::Abstract(n, _) => Type::UnionAll(n),
                Type::UnionAll(n) => Type::UnionAll(n),
                t => Type::UnionAll(sym(&t.to_string())),
            },
            "NoTangent" => Type::NoTangent,
            "NoFData" => Type::NoFData,
            "NoRData" => Type::NoRData,
            "Tangent" => Type::Tangent(Arc::new(p(0)?)),
            "MutableTangent" => Type::MutableTangent(Arc::new(p(0)?)),
            "FData" => Type::FData(Arc::new(p(0)?)),
            "RData" => Type::RData(Arc::new(p(0)?)),
            "AbstractVector" => {
                Type::Abstract(sym("AbstractArray"), vec![p(0)?, Type::Val(1)].into())
            }
            "AbstractMatrix" => {
                Type::Abstract(sym("AbstractArray"), vec![p(0)?, Type::Val(2)].into())
            }
            _ => {
                let s = sym(&name);
                let ps: Arc<[Type]> = params.unwrap_or_default().into();
                if self.env.abstract_def(s).is_some() {
                    Type::Abstract(s, ps)
                } else {
                    Type::Struct(s, ps)
                }
            }
        })
    }
}

fn parse_entity(s: &str, prefix: &str) -> Result<usize, String> {
    s.strip_prefix(prefix)
        .and_then(|n| n.parse::<usize>().ok())
        .ok_or_else(|| format!("expected `{prefix}N`, found `{s}`"))
}

/// Parses every function in `text`.
pub fn read_functions(text: &str, env: &TypeEnv) -> Result<Vec<Function>, ReadError> {
    let mut funcs = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        if line.starts_with("function ") {
            let start = i;
            while i < lines.len() && lines[i].trim() != "end" {
                i += 1;
            }
            if i >= lines.len() {
                return Err(ReadError {
                    line: start + 1,
                    message: "function without `end`".into(),
                });
            }
            funcs.push(read_one(&lines[start..=i], start, env)?);
        }
        i += 1;
    }
    Ok(funcs)
}

/// Parses a single function.
pub fn read_function(text: &str, env: &TypeEnv) -> Result<Function, ReadError> {
    let mut fs = read_functions(text, env)?;
    match fs.len() {
        1 => Ok(fs.pop().unwrap_or_else(|| unreachable!())),
        n => Err(ReadError {
            line: 1,
            message: format!("expected one function, found {n}"),
        }),
    }
}

fn read_one(lines: &[&str], first_line: usize, env: &TypeEnv) -> Result<Function, ReadError> {
    let err = |k: usize, m: String| ReadError {
        line: first_line + k + 1,
        message: m,
    };
    // Header: function NAME -> TYPE [phase]
    let header = lines[0].trim();
    let rest = header.strip_prefix("function ").unwrap_or(header);
    let arrow = rest
        .rfind(" -> ")
        .ok_or_else(|| err(0, "expected `function NAME -> TYPE [phase]`".into()))?;
    let name = rest[..arrow].to_string();
    let after = &rest[arrow + 4..];
    let lb = after
        .rfind('[')
        .ok_or_else(|| err(0, "missing `[phase]`".into()))?;
    let bracket = after[lb..].trim();
    let (phase_name, nsz) = match bracket.strip_suffix(", nsz]") {
        Some(p) => (format!("{p}]"), true),
        None => (bracket.to_string(), false),
    };
    let phase = match phase_name.as_str() {
        "[lowered]" => Phase::Lowered,
        "[ssa]" => Phase::Ssa,
        "[typed]" => Phase::Typed,
        "[optimised]" => Phase::Optimised,
        p => return Err(err(0, format!("unknown phase `{p}`"))),
    };
    let mut c = Cursor {
        toks: tokenize(&after[..lb]).map_err(|m| err(0, m))?,
        pos: 0,
        env,
    };
    let ret_type = c.ty().map_err(|m| err(0, m))?;

    let mut f = Function::new(name, phase);
    f.ret_type = ret_type;
    f.nsz = nsz;

    // First pass: find the highest value and block numbers so entities keep their numbers.
    let mut max_value = 0usize;
    let mut max_block = 0usize;
    let mut max_slot = 0usize;
    let mut any_slot = false;
    for line in &lines[1..] {
        let toks = tokenize(line).unwrap_or_default();
        for t in toks {
            if let T::Ident(s) = t {
                if let Ok(n) = parse_entity(&s, "v") {
                    max_value = max_value.max(n + 1);
                } else if let Ok(n) = parse_entity(&s, "block") {
                    max_block = max_block.max(n + 1);
                } else if let Ok(n) = parse_entity(&s, "s") {
                    max_slot = max_slot.max(n + 1);
                    any_slot = true;
                }
            }
        }
    }
    for _ in 0..max_block {
        f.blocks.push(BlockData::default());
    }
    let placeholder = ValueDef::Param(Block::new(0), u32::MAX);
    for _ in 0..max_value {
        f.values.push(placeholder);
    }
    if any_slot {
        for _ in 0..max_slot {
            f.slots.push(SlotData {
                name: sym("?"),
                ty: Type::Any,
            });
        }
    }

    let mut cur: Option<Block> = None;
    for (k, line) in lines.iter().enumerate().skip(1) {
        let text = line.trim();
        if text.is_empty() || text.starts_with(';') || text == "end" {
            continue;
        }
        let toks = tokenize(text).map_err(|m| err(k, m))?;
        let mut c = Cursor { toks, pos: 0, env };
        let first = match c.peek() {
            Some(T::Ident(s)) => s.clone(),
            _ => return Err(err(k, format!("unexpected line `{text}`"))),
        };
        if first == "slot" && cur.is_none() {
            c.pos += 1;
            let s = parse_entity(&c.ident().map_err(|m| err(k, m))?, "s").map_err(|m| err(k, m))?;
            let n = c.ident().map_err(|m| err(k, m))?;
            f.slots[crate::function::Slot::new(s)].name = sym(&n);
            continue;
        }
        if first.starts_with("block") && !text.contains('=') {
            let b = c.block().map_err(|m| err(k, m))?;
            if f.layout.contains(&b) {
                return Err(err(k, format!("{b} is defined twice")));
            }
            f.layout.push(b);
            if c.eat('(') {
                let mut idx = 0u32;
                loop {
                    let v = c.value().map_err(|m| err(k, m))?;
                    let ty = if c.eat(':') {
                        c.ty().map_err(|m| err(k, m))?
                    } else {
                        Type::Any
                    };
                    f.values[v] = ValueDef::Param(b, idx);
                    f.types[v] = ty;
                    f.blocks[b].params.push(v);
                    idx += 1;
                    if c.eat(')') {
                        break;
                    }
                    c.expect(',').map_err(|m| err(k, m))?;
                }
            }
            c.expect(':').map_err(|m| err(k, m))?;
            cur = Some(b);
            continue;
        }
        let b = cur.ok_or_else(|| err(k, "instruction outside a block".into()))?;
        // Optional result: vN[: T] =
        let mut result: Option<(Value, Type)> = None;
        if first.starts_with('v') && parse_entity(&first, "v").is_ok() {
            let save = c.pos;
            let v = c.value().map_err(|m| err(k, m))?;
            let ty = if c.eat(':') {
                c.ty().map_err(|m| err(k, m))?
            } else {
                Type::Any
            };
            if c.eat('=') {
                result = Some((v, ty));
            } else {
                c.pos = save;
            }
        }
        let data = read_inst(&mut c).map_err(|m| err(k, m))?;
        if !c.at_end() {
            return Err(err(k, format!("unexpected {:?} at end of line", c.peek())));
        }
        if data.has_result() != result.is_some() {
            return Err(err(
                k,
                if result.is_some() {
                    "this instruction has no result".into()
                } else {
                    "this instruction needs a result `vN = ...`".into()
                },
            ));
        }
        let inst = f.insts.push(data);
        f.locs[inst] = Span::DUMMY;
        if let Some((v, ty)) = result {
            f.values[v] = ValueDef::Inst(inst);
            f.types[v] = ty;
            f.results[inst] = v.into();
        }
        f.blocks[b].insts.push(inst);
    }
    if f.layout.is_empty() {
        return Err(err(0, "function has no blocks".into()));
    }
    Ok(f)
}

fn read_inst(c: &mut Cursor) -> Result<InstData, String> {
    let op = c.ident()?;
    Ok(match op.as_str() {
        "const" => InstData::Const(read_const(c)?),
        "prim" => {
            let name = c.ident()?;
            let p = Prim::from_name(&name).ok_or_else(|| format!("unknown primitive `{name}`"))?;
            InstData::Prim {
                op: p,
                args: c.values_in_parens()?,
            }
        }
        "invoke" => {
            let func = c.ident()?;
            c.expect('#')?;
            let method = match c.next() {
                Some(T::Int(n)) if n >= 0 => n as u32,
                t => return Err(format!("expected a method number, found {t:?}")),
            };
            c.expect('(')?;
            let sig = c.type_list(')')?;
            InstData::Invoke {
                callee: Callee {
                    func: sym(&func),
                    method,
                    sig: sig.into(),
                },
                args: c.values_in_parens()?,
            }
        }
        "call" => InstData::Call {
            args: c.values_in_parens()?,
        },
        "new" => {
            let ty = c.ty()?;
            InstData::New {
                ty,
                args: c.values_in_parens()?,
            }
        }
        "tuple" => InstData::Tuple {
            args: c.values_in_parens()?,
        },
        "getfield" => {
            let obj = c.value()?;
            c.expect('.')?;
            InstData::GetField {
                obj,
                field: read_field(c)?,
            }
        }
        "setfield" => {
            let obj = c.value()?;
            c.expect('.')?;
            let field = read_field(c)?;
            c.expect('=')?;
            InstData::SetField {
                obj,
                field,
                val: c.value()?,
            }
        }
        "typeassert" => {
            let val = c.value()?;
            c.expect(':')?;
            c.expect(':')?;
            InstData::TypeAssert { val, ty: c.ty()? }
        }
        "global" => InstData::GetGlobal(sym(&c.ident()?)),
        "setglobal" => {
            let g = sym(&c.ident()?);
            c.expect('=')?;
            InstData::SetGlobal(g, c.value()?)
        }
        "static_param" => match c.next() {
            Some(T::Int(n)) if n >= 0 => InstData::StaticParam(n as u32),
            t => return Err(format!("expected a number, found {t:?}")),
        },
        "slot" => {
            let s = parse_entity(&c.ident()?, "s")?;
            InstData::GetSlot(crate::function::Slot::new(s))
        }
        "setslot" => {
            let s = parse_entity(&c.ident()?, "s")?;
            c.expect('=')?;
            InstData::SetSlot(crate::function::Slot::new(s), c.value()?)
        }
        "jump" => {
            let dest = c.block()?;
            let args = if c.peek() == Some(&T::Punct('(')) {
                c.values_in_parens()?
            } else {
                vec![]
            };
            InstData::Jump { dest, args }
        }
        "br" => {
            let cond = c.value()?;
            c.expect(',')?;
            let then_dest = c.block()?;
            let then_args = if c.peek() == Some(&T::Punct('(')) {
                c.values_in_parens()?
            } else {
                vec![]
            };
            c.expect(',')?;
            let else_dest = c.block()?;
            let else_args = if c.peek() == Some(&T::Punct('(')) {
                c.values_in_parens()?
            } else {
                vec![]
            };
            InstData::Branch {
                cond,
                then_dest,
                then_args,
                else_dest,
                else_args,
            }
        }
        "return" => InstData::Return(c.value()?),
        "unreachable" => InstData::Unreachable,
        other => return Err(format!("unknown instruction `{other}`")),
    })
}

fn read_field(c: &mut Cursor) -> Result<FieldRef, String> {
    match c.next() {
        Some(T::Int(n)) if n >= 0 => Ok(FieldRef::Index(n as u32)),
        Some(T::Ident(s)) => Ok(FieldRef::Name(sym(&s))),
        t => Err(format!("expected a field, found {t:?}")),
    }
}

fn read_const(c: &mut Cursor) -> Result<Const, String> {
    Ok(match c.next() {
        Some(T::Int(i)) => Const::Int(i),
        Some(T::Float(x)) => Const::F64(x),
        Some(T::Str(s)) => Const::Str(s.into()),
        Some(T::Ident(s)) => match s.as_str() {
            "true" => Const::Bool(true),
            "false" => Const::Bool(false),
            "nothing" => Const::Nothing,
            "undef" => Const::Undef,
            "NaN" => Const::F64(f64::NAN),
            "Inf" => Const::F64(f64::INFINITY),
            "type" => Const::Type(c.ty()?),
            "singleton" => Const::Singleton(c.ty()?),
            "fn" => Const::Func(sym(&c.ident()?)),
            "symbol" => Const::Sym(sym(&c.ident()?)),
            s if s.starts_with("#f32:") => Const::F32(
                s[5..]
                    .parse::<f64>()
                    .map_err(|_| format!("bad Float32 `{s}`"))? as f32,
            ),
            other => return Err(format!("unknown constant `{other}`")),
        },
        t => return Err(format!("expected a constant, found {t:?}")),
    })
}
