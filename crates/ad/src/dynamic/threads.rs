//! Reverse mode of threaded loops (`Core.threads_fwd`, `Core.threads_rvs`): the shares'
//! forwards passes run on the threads, each on a child state of its own, and so do their
//! pullbacks, without races and with a result that depends only on the number of threads.
//!
//! A pullback adds cotangents into the fdata (tangent arrays) of the arrays its iterations
//! read, so two shares reading the same array would race. The loop body's captured arrays
//! are therefore of two kinds:
//! - *disjoint*: arrays the body indexes only with the loop variable last (the parser lists
//!   them, `Core.threads_run`'s `disjoint` operand) in a loop over distinct integers: no two
//!   shares touch the same element, so every share works on the real tangent array;
//! - *private*: every other array in the body's fdata. Each share gets a copy of the tangent
//!   array for its forwards pass (whose writes zero the elements the primal overwrites; they
//!   are merged back after the forwards passes: an element a share changed takes that
//!   share's value) and, refreshed from the real one, for its pullback; afterwards each
//!   element takes the one share's value where only one share changed it, or the real value
//!   plus the shares' changes, added in descending share order (the order the serial loop's
//!   pullbacks run in), where several did.
//!
//! So the merged cotangents are sums in a fixed order: bit-identical from run to run for a
//! given number of threads, equal to the serial loop's up to rounding. A share that reads a
//! global's fdata (`Core.global_fdata`, shared by every share) makes the pullbacks run one
//! after another, each on its copies refreshed from and copied back to the real arrays —
//! exactly the serial loop's arithmetic. The interpreter, a single share, a loop inside
//! another threaded loop, or fdata this scheme does not cover (mutable structs, arrays of
//! structs or of arrays, arrays sharing memory) run the serial loop: forwards passes in
//! order, pullbacks in reverse order, on the real fdata.

use super::{ad_error, child_state, cotangent_type, internal, prim, site_stack, Runtime};
use crate::tangent::{no_rdata, rdata_add, rdata_convert, singleton_of};
use ad_transform::RuleOptions;
use interp::{Machine, RuntimeError, Share};
use ir::{Prim, Type};
use runtime::value::{ArrayData, ArrayObj, NamedTupleVal, StructVal};
use runtime::{Exception, SharedArray, Value};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// How a loop's pullbacks run, as its forwards pass decided.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    /// One after another in reverse order, on the real fdata.
    Serial = 0,
    /// On the threads, private arrays on per-share copies merged afterwards.
    Parallel = 1,
    /// One after another in reverse order, each share on its copies, refreshed from the real
    /// arrays before and copied back after (a share read a global's fdata with mutable parts,
    /// which all shares shared).
    SerialCopies = 2,
}

/// What `threads_fwd` leaves on the site's state for `threads_rvs`.
struct Record {
    mode: Mode,
    /// The body's rule (`Ad::dyn_id`).
    rule: usize,
    first: i64,
    n: i64,
    nt: i64,
    rngs: Value,
    /// The private arrays' real fdata and each share's copy.
    private: Private,
}

/// Private fdata arrays: each real one with each share's copy of it (in share order).
pub(super) type Private = Vec<(SharedArray, Vec<SharedArray>)>;

/// The private arrays of the loop whose forwards passes run on the threads, which shares
/// extend with globals' fdata as they read them (`Core.global_fdata`).
pub(super) struct SharedFdata {
    shares: usize,
    private: Private,
}

impl SharedFdata {
    /// Fdata `f` (a global's) as share `tid` sees it: its arrays replaced by the share's
    /// copies (made for every share on first sight); `None` if it holds something else that
    /// changes (the loop's pullbacks then run one after another).
    pub(super) fn share_view(&mut self, f: &Value, tid: i64) -> Option<Value> {
        let mut arrays = Vec::new();
        fdata_arrays(f, &mut arrays).ok()?;
        let k = usize::try_from(tid - 1).ok().filter(|k| *k < self.shares)?;
        let mut reals = Vec::new();
        let mut mine = Vec::new();
        for a in arrays {
            let j = match self
                .private
                .iter()
                .position(|(r, _)| SharedArray::ptr_eq(r, &a))
            {
                Some(j) => j,
                None => {
                    let copies = (0..self.shares)
                        .map(|_| a.try_copy().ok())
                        .collect::<Option<Vec<_>>>()?;
                    self.private.push((a.clone(), copies));
                    self.private.len() - 1
                }
            };
            reals.push(a);
            mine.push(self.private[j].1[k].clone());
        }
        Some(substitute(f, &reals, &mine).unwrap_or_else(|| f.clone()))
    }
}

impl Record {
    fn to_value(&self) -> Value {
        let private = self
            .private
            .iter()
            .map(|(r, cs)| {
                let copies = cs.iter().cloned().map(Value::Array).collect();
                Value::tuple(vec![Value::Array(r.clone()), Value::tuple(copies)])
            })
            .collect();
        Value::tuple(vec![
            Value::Int(self.mode as i64),
            Value::Int(self.rule as i64),
            Value::Int(self.first),
            Value::Int(self.n),
            Value::Int(self.nt),
            self.rngs.clone(),
            Value::tuple(private),
        ])
    }

    fn from_value(v: &Value) -> Option<Record> {
        let Value::Tuple(parts) = v else {
            return None;
        };
        let int = |k: usize| parts.get(k)?.as_int();
        let array = |v: &Value| match v {
            Value::Array(a) => Some(a.clone()),
            _ => None,
        };
        let mode = match int(0)? {
            0 => Mode::Serial,
            1 => Mode::Parallel,
            2 => Mode::SerialCopies,
            _ => return None,
        };
        let Value::Tuple(ps) = parts.get(6)? else {
            return None;
        };
        let private = ps
            .iter()
            .map(|p| {
                let Value::Tuple(cs) = p.field(1)? else {
                    return None;
                };
                Some((
                    array(&p.field(0)?)?,
                    cs.iter().map(array).collect::<Option<Vec<_>>>()?,
                ))
            })
            .collect::<Option<Private>>()?;
        Some(Record {
            mode,
            rule: usize::try_from(int(1)?).ok()?,
            first: int(2)?,
            n: int(3)?,
            nt: int(4)?,
            rngs: parts.get(5)?.clone(),
            private,
        })
    }
}

/// The stack of a threaded loop site's records.
fn record_stack(m: &mut Machine, site: &Value) -> Result<Value, RuntimeError> {
    site_stack(m, site, 0, Type::Any)
}

fn no_fdata() -> Value {
    singleton_of(Type::NoFData)
}

impl Runtime {
    /// `Core.threads_fwd(state, opts, body, fbody, first, n, nt, rngs, disjoint)`.
    pub(super) fn threads_fwd(
        &self,
        m: &mut Machine,
        args: &[Value],
    ) -> Result<Value, RuntimeError> {
        let [site, Value::Int(opts), body, fbody, Value::Int(first), Value::Int(n), Value::Int(nt), rngs, disjoint] =
            args
        else {
            return Err(internal("`Core.threads_fwd` takes a state, options, the body and its fdata, three Int64s, generators and names"));
        };
        let opts = RuleOptions::from_bits(*opts);
        let chunks = runtime::threads::chunks(*first, *n, *nt);
        let key = m.loop_body(body)?;
        let rule = self
            .ad
            .rule_with(&mut m.compiler, &key, opts)
            .map_err(ad_error)?;
        let reals = if m.shares_in_parallel(&rule.fwd, chunks.len()) {
            private_arrays(body, fbody, disjoint, &m.compiler.env)
                .map_err(|why| {
                    self.notice(&key, &format!("runs its shares one after another: {why}"))
                })
                .ok()
        } else {
            None
        };
        let mut record = Record {
            mode: if reals.is_some() {
                Mode::Parallel
            } else {
                Mode::Serial
            },
            rule: self.ad.dyn_id(&key, opts),
            first: *first,
            n: *n,
            nt: *nt,
            rngs: rngs.clone(),
            private: Vec::new(),
        };
        for real in reals.unwrap_or_default() {
            let copies = chunks
                .iter()
                .map(|_| real.try_copy().map_err(RuntimeError::new))
                .collect::<Result<Vec<_>, _>>()?;
            record.private.push((real, copies));
        }
        let parallel = record.mode == Mode::Parallel;
        let mut shares = Vec::with_capacity(chunks.len());
        for (k, c) in chunks.iter().enumerate() {
            let reals: Vec<SharedArray> = record.private.iter().map(|p| p.0.clone()).collect();
            let mine: Vec<SharedArray> = record.private.iter().map(|p| p.1[k].clone()).collect();
            shares.push(Share::new(
                c,
                rngs,
                vec![
                    child_state(m, site, c.tid as usize)?,
                    if parallel {
                        own_copy(body)
                    } else {
                        body.clone()
                    },
                    substitute(fbody, &reals, &mine).unwrap_or_else(|| fbody.clone()),
                    Value::Int(c.first),
                    no_fdata(),
                    Value::Int(c.last),
                    no_fdata(),
                ],
            ));
        }
        self.global_in_share.store(false, Ordering::Relaxed);
        if parallel {
            *self.shared_fdata.lock().unwrap_or_else(|e| e.into_inner()) = Some(SharedFdata {
                shares: chunks.len(),
                private: std::mem::take(&mut record.private),
            });
        }
        let ran = m.run_shares(&rule.fwd, shares, parallel);
        if parallel {
            let shared = self
                .shared_fdata
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .take();
            record.private = shared.map(|s| s.private).unwrap_or_default();
        }
        ran?;
        if parallel {
            merge(&record.private, Merge::Forwards)?;
            if self.global_in_share.load(Ordering::Relaxed) {
                record.mode = Mode::SerialCopies;
                self.notice(
                    &key,
                    "runs its pullbacks one after another: an iteration reads a global holding a mutable struct (or an array of structs or arrays)",
                );
            }
        }
        let stack = record_stack(m, site)?;
        prim(m, Prim::ArrayPush, &[stack, record.to_value()])?;
        Ok(Value::Nothing)
    }

    /// `Core.threads_rvs(state)`: the body's reverse data, summed over the shares.
    pub(super) fn threads_rvs(
        &self,
        m: &mut Machine,
        args: &[Value],
    ) -> Result<Value, RuntimeError> {
        let site = &args[0];
        let stack = record_stack(m, site)?;
        let record = Record::from_value(&prim(m, Prim::ArrayPop, &[stack])?)
            .ok_or_else(|| internal("a threaded loop's record is damaged"))?;
        let (key, opts) = self
            .ad
            .dyn_key(record.rule)
            .ok_or_else(|| internal("unknown threaded loop body rule"))?;
        let rule = self
            .ad
            .rule_with(&mut m.compiler, &key, opts)
            .map_err(ad_error)?;
        // The pullback's cotangent (the body returns `nothing`).
        let yt = cotangent_type(&rule)?;
        let dy = rdata_convert(&no_rdata(), &yt, &m.compiler.env)
            .ok_or_else(|| internal("a threaded loop body's cotangent"))?;
        let chunks = runtime::threads::chunks(record.first, record.n, record.nt);
        let mut shares = Vec::with_capacity(chunks.len());
        for c in &chunks {
            shares.push(Share::new(
                c,
                &record.rngs,
                vec![child_state(m, site, c.tid as usize)?, dy.clone()],
            ));
        }
        // Each share's reverse data, in share order.
        let results = match record.mode {
            Mode::Serial => {
                shares.reverse();
                let mut rs = m.run_shares(&rule.rvs, shares, false)?;
                rs.reverse();
                rs
            }
            Mode::Parallel => {
                for (real, copies) in &record.private {
                    copies.iter().for_each(|c| copy_into(real, c));
                }
                let rs = m.run_shares(&rule.rvs, shares, true)?;
                merge(&record.private, Merge::Pullbacks)?;
                rs
            }
            Mode::SerialCopies => {
                let mut rs = Vec::with_capacity(shares.len());
                for (k, share) in shares.into_iter().enumerate().rev() {
                    for (real, copies) in &record.private {
                        copy_into(real, &copies[k]);
                    }
                    rs.extend(m.run_shares(&rule.rvs, vec![share], false)?);
                    for (real, copies) in &record.private {
                        copy_into(&copies[k], real);
                    }
                }
                rs.reverse();
                rs
            }
        };
        // The body's reverse data, added in the order the serial loop's pullbacks run.
        let mut acc = no_rdata();
        for r in results.iter().rev() {
            let rb = r.field(0).unwrap_or_else(no_rdata);
            acc = rdata_add(&acc, &rb);
        }
        Ok(acc)
    }

    /// `Core.threads_dual(width, opts, body, ḃody..., first, n, nt, rngs, disjoint)`: each share's
    /// forward rule of the body, on the threads where it can. Nothing is accumulated in
    /// forward mode (a tangent is written where its value is), so the shares share the
    /// tangents as they share the values, and the result is the serial loop's exactly.
    pub(super) fn threads_dual(
        &self,
        m: &mut Machine,
        args: &[Value],
    ) -> Result<Value, RuntimeError> {
        let (Some(Value::Int(w)), Some(Value::Int(opts))) = (args.first(), args.get(1)) else {
            return Err(internal(
                "`Core.threads_dual` takes a width and options first",
            ));
        };
        let w = usize::try_from(*w).map_err(|_| internal("a negative width"))?;
        let [Value::Int(first), Value::Int(n), Value::Int(nt), rngs, _disjoint] = &args[3 + w..]
        else {
            return Err(internal(
                "`Core.threads_dual` takes the body with its tangents, three Int64s, generators and names",
            ));
        };
        let (body, tbody) = (&args[2], &args[3..3 + w]);
        let key = m.loop_body(body)?;
        let opts = RuleOptions::from_bits(*opts);
        let code = self
            .ad
            .dual_rule_with(&mut m.compiler, &key, opts, w)
            .map_err(ad_error)?;
        let no_tangent = crate::tangent::no_tangent();
        let shares: Vec<Share> = runtime::threads::chunks(*first, *n, *nt)
            .iter()
            .map(|c| {
                let mut a = vec![own_copy(body)];
                a.extend(tbody.iter().cloned());
                for k in [c.first, c.last] {
                    a.push(Value::Int(k));
                    a.extend((0..w).map(|_| no_tangent.clone()));
                }
                Share::new(c, rngs, a)
            })
            .collect();
        m.run_shares(&code, shares, true)?;
        Ok(Value::Nothing)
    }

    /// Notes (once) that the threaded loop whose body is the method instance `body` is not
    /// differentiated in parallel by reverse mode, and why.
    fn notice(&self, body: &compiler::MiKey, why: &str) {
        // A loop body is the anonymous function `#f#N` of the function `f` it is in.
        let name = body.table.as_str();
        let within = name
            .strip_prefix('#')
            .and_then(|n| n.rsplit_once('#'))
            .map_or(name, |(f, _)| f);
        let note = format!("reverse mode of the threaded loop in `{within}` {why}");
        let mut ns = self.notices.lock().unwrap_or_else(|e| e.into_inner());
        if !ns.contains(&note) {
            ns.push(note);
        }
    }
}

/// The real fdata arrays each share gets a copy of (see the module's documentation), or why
/// the loop must run serially: its fdata holds mutable parts this scheme does not cover.
fn private_arrays(
    body: &Value,
    fbody: &Value,
    disjoint: &Value,
    env: &ir::TypeEnv,
) -> Result<Vec<SharedArray>, String> {
    let unexpected = || "the loop body's tangent has an unexpected form".to_string();
    let Value::Struct(fb) = fbody else {
        return if crate::tangent::is_singleton_of(fbody, &Type::NoFData) {
            Ok(Vec::new())
        } else {
            Err(unexpected())
        };
    };
    if fb.fields.is_empty() {
        return Ok(Vec::new());
    }
    let Value::Struct(b) = body else {
        return Err(unexpected());
    };
    if b.fields.len() != fb.fields.len() {
        return Err(unexpected());
    }
    // (name, number of indices) of the disjoint arrays.
    let names: Vec<(String, i64)> = match disjoint {
        Value::Tuple(ds) => ds
            .iter()
            .filter_map(|d| match d {
                Value::Tuple(p) => match (p.first(), p.get(1)) {
                    (Some(Value::Sym(s)), Some(Value::Int(k))) => Some((s.to_string(), *k)),
                    _ => None,
                },
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let field_names: Vec<String> = env
        .field_names(&b.ty)
        .unwrap_or_default()
        .iter()
        .map(|n| n.to_string())
        .collect();
    // Every fdata array, with how it is used: `Some(k)` disjoint with k indices, `None` not.
    let mut uses: Vec<(SharedArray, Vec<Option<i64>>)> = Vec::new();
    for (k, f) in fb.fields.iter().enumerate() {
        let disjoint_k = match (&b.fields[k], f, field_names.get(k)) {
            (Value::Array(p), Value::Array(_), Some(name)) if !p.is_shared() => names
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, count)| *count),
            _ => None,
        };
        let mut arrays = Vec::new();
        fdata_arrays(f, &mut arrays).map_err(|what| {
            let name = field_names.get(k).map_or("?", |n| n.as_str());
            format!("its captured `{name}` holds {what}")
        })?;
        for a in arrays {
            match uses.iter_mut().find(|(x, _)| SharedArray::ptr_eq(x, &a)) {
                Some((_, us)) => us.push(disjoint_k),
                None => uses.push((a, vec![disjoint_k])),
            }
        }
    }
    Ok(uses
        .into_iter()
        .filter(|(_, us)| us.iter().any(|u| u.is_none() || *u != us[0]))
        .map(|(a, _)| a)
        .collect())
}

/// Collects the arrays in fdata `v`; what else it holds that can change, if anything (a
/// mutable tangent, an array of other than floats, an array sharing memory).
fn fdata_arrays(v: &Value, out: &mut Vec<SharedArray>) -> Result<(), &'static str> {
    let all =
        |vs: &[Value], out: &mut Vec<SharedArray>| vs.iter().try_for_each(|f| fdata_arrays(f, out));
    match v {
        Value::Array(a) => {
            if !a.with(|i| matches!(i.data, ArrayData::F64(_) | ArrayData::F32(_))) {
                return Err("an array of structs, tuples or arrays");
            }
            if a.is_shared() {
                return Err("an array sharing memory with another (a `reshape`)");
            }
            if !out.iter().any(|x| SharedArray::ptr_eq(x, a)) {
                out.push(a.clone());
            }
            Ok(())
        }
        Value::Struct(s) => all(&s.fields, out),
        Value::Tuple(vs) => all(vs, out),
        Value::NamedTuple(nt) => all(&nt.values, out),
        Value::Mutable(_) => Err("a mutable struct"),
        Value::Int(_)
        | Value::F64(_)
        | Value::F32(_)
        | Value::Bool(_)
        | Value::Nothing
        | Value::Undef
        | Value::Str(_)
        | Value::Sym(_)
        | Value::Func(_)
        | Value::Type(_) => Ok(()),
    }
}

/// `v` with each array of `reals` replaced by the same position's array of `copies` (`None`
/// if `v` holds none of them).
fn substitute(v: &Value, reals: &[SharedArray], copies: &[SharedArray]) -> Option<Value> {
    let parts = |vs: &[Value]| -> Option<Vec<Value>> {
        let new: Vec<Option<Value>> = vs.iter().map(|x| substitute(x, reals, copies)).collect();
        new.iter().any(Option::is_some).then(|| {
            new.into_iter()
                .zip(vs)
                .map(|(n, old)| n.unwrap_or_else(|| old.clone()))
                .collect()
        })
    };
    match v {
        Value::Array(a) => reals
            .iter()
            .position(|r| SharedArray::ptr_eq(r, a))
            .map(|k| Value::Array(copies[k].clone())),
        Value::Struct(s) => parts(&s.fields).map(|fields| {
            Value::Struct(Arc::new(StructVal {
                ty: s.ty.clone(),
                fields: fields.into(),
            }))
        }),
        Value::Tuple(vs) => parts(vs).map(Value::tuple),
        Value::NamedTuple(nt) => parts(&nt.values).map(|values| {
            Value::NamedTuple(Arc::new(NamedTupleVal {
                names: nt.names.clone(),
                values: values.into(),
            }))
        }),
        _ => None,
    }
}

/// `v` with its immutable structs and tuples rebuilt (their parts shared): a share's own copy
/// of the loop body, whose reference counts only that share's thread changes (the values
/// the body's rules save for its pullbacks are cloned for every iteration).
fn own_copy(v: &Value) -> Value {
    match v {
        Value::Struct(s) => Value::Struct(Arc::new(StructVal {
            ty: s.ty.clone(),
            fields: s.fields.iter().map(own_copy).collect(),
        })),
        Value::Tuple(vs) => Value::tuple(vs.iter().map(own_copy).collect()),
        _ => v.clone(),
    }
}

/// Which merge of the shares' copies into the real arrays.
#[derive(Clone, Copy)]
enum Merge {
    /// After the forwards passes: an element a share changed takes that share's value (the
    /// last share's if several did, which only a loop racing on it does).
    Forwards,
    /// After the pullbacks: the one share's value where only one changed an element, else the
    /// real value plus each share's change, in descending share order.
    Pullbacks,
}

/// Merges each share's copies into the real arrays (see [`Merge`]).
fn merge(private: &Private, how: Merge) -> Result<(), RuntimeError> {
    for (real, copies) in private {
        let theirs: Vec<&ArrayObj> = copies.iter().map(|c| &**c).collect();
        let ok = match real.with(|ri| ri.data.len()) {
            len if theirs.iter().any(|c| c.len() != len) => false,
            _ => match real.ty() {
                Type::Array(e, _) if *e == Type::Float64 => merge_into::<f64>(real, &theirs, how),
                Type::Array(e, _) if *e == Type::Float32 => merge_into::<f32>(real, &theirs, how),
                _ => false,
            },
        };
        if !ok {
            return Err(RuntimeError::new(Exception::Error(
                "reverse mode of a threaded loop that changes the size of an array its iterations share is not supported yet"
                    .into(),
            )));
        }
    }
    Ok(())
}

/// The float element types whose arrays [`merge`] merges.
trait Float: Copy + std::ops::Add<Output = Self> + std::ops::Sub<Output = Self> {
    /// The elements of a storage of this type.
    fn of(d: &ArrayData) -> Option<&[Self]>;
    fn of_mut(d: &mut ArrayData) -> Option<&mut [Self]>;
    /// Bitwise identity (a change of the sign of zero, or to another NaN, is a change).
    fn same(a: Self, b: Self) -> bool;
    /// [`Float::same`] of every pair of elements of two slices of one length (without an
    /// early exit, so that the compiler vectorises it).
    fn same_all(a: &[Self], b: &[Self]) -> bool;
}

/// `Float` for an element type and the `ArrayData` variant holding it.
macro_rules! float_storage {
    ($t:ty, $variant:ident) => {
        impl Float for $t {
            fn of(d: &ArrayData) -> Option<&[$t]> {
                match d {
                    ArrayData::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn of_mut(d: &mut ArrayData) -> Option<&mut [$t]> {
                match d {
                    ArrayData::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn same(a: $t, b: $t) -> bool {
                a.to_bits() == b.to_bits()
            }
            fn same_all(a: &[$t], b: &[$t]) -> bool {
                a.iter()
                    .zip(b)
                    .fold(0, |d, (x, y)| d | (x.to_bits() ^ y.to_bits()))
                    == 0
            }
        }
    };
}
float_storage!(f64, F64);
float_storage!(f32, F32);

/// [`merge`] of one array; false if an array's elements are not of type `T`.
fn merge_into<T: Float>(real: &ArrayObj, copies: &[&ArrayObj], how: Merge) -> bool {
    real.with_mut(|ri| {
        let Some(r) = T::of_mut(&mut ri.data) else {
            return false;
        };
        with_elements(copies, &[], &mut |theirs: &[&[T]]| {
            merge_elements(r, theirs, how)
        })
        .is_some()
    })
}

/// `f` on the elements of every array of `arrays` after those of `got`, borrowed at once;
/// `None` if an array's elements are not of type `T`.
fn with_elements<T: Float, R>(
    arrays: &[&ArrayObj],
    got: &[&[T]],
    f: &mut dyn FnMut(&[&[T]]) -> R,
) -> Option<R> {
    match arrays.split_first() {
        None => Some(f(got)),
        Some((a, rest)) => a.with(|inner| {
            let mine = T::of(&inner.data)?;
            let mut all = got.to_vec();
            all.push(mine);
            with_elements(rest, &all, f)
        }),
    }
}

/// [`merge`] of elements: `real` the real array's (as every copy was made), `copies` each
/// share's, in share order.
fn merge_elements<T: Float>(real: &mut [T], copies: &[&[T]], how: Merge) {
    // Blocks no share changed (most of an array, when each share changes a part) are
    // recognised by a comparison the compiler vectorises, and skipped; a block one share
    // changed takes that share's elements (an element it left is the real one); only blocks
    // several shares changed are merged element by element.
    const BLOCK: usize = 64;
    let n = copies.len();
    for lo in (0..real.len()).step_by(BLOCK) {
        let hi = (lo + BLOCK).min(real.len());
        let changed = |c: &&[T]| !T::same_all(&c[lo..hi], &real[lo..hi]);
        let mut changers = copies.iter().enumerate().filter(|(_, c)| changed(c));
        match (changers.next(), changers.next()) {
            (None, _) => continue,
            (Some((_, c)), None) => {
                real[lo..hi].copy_from_slice(&c[lo..hi]);
                continue;
            }
            (Some(_), Some(_)) => {}
        }
        for (e, r) in real.iter_mut().enumerate().take(hi).skip(lo) {
            let o = *r;
            let mut changes = 0u32;
            for j in 0..n {
                // Forwards: ascending (the last share's write wins); pullbacks: descending.
                let x = match how {
                    Merge::Forwards => copies[j][e],
                    Merge::Pullbacks => copies[n - 1 - j][e],
                };
                if T::same(x, o) {
                    continue;
                }
                changes += 1;
                *r = match (how, changes) {
                    (Merge::Forwards, _) | (Merge::Pullbacks, 1) => x,
                    // The first change's value was taken as it is; from the second on, the
                    // sum `old + Δ₁ + Δ₂ + ...`.
                    (Merge::Pullbacks, 2) => o + (*r - o) + (x - o),
                    (Merge::Pullbacks, _) => *r + (x - o),
                };
            }
        }
    }
}

/// `dst`'s elements set to `src`'s (same length and element type).
fn copy_into(src: &SharedArray, dst: &SharedArray) {
    src.with(|si| {
        dst.with_mut(|di| match (&si.data, &mut di.data) {
            (ArrayData::F64(s), ArrayData::F64(d)) if s.len() == d.len() => d.copy_from_slice(s),
            (ArrayData::F32(s), ArrayData::F32(d)) if s.len() == d.len() => d.copy_from_slice(s),
            _ => {}
        })
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vector(xs: &[f64]) -> SharedArray {
        SharedArray::new(ArrayObj::vector_f64(xs.to_vec()))
    }

    fn values(a: &ArrayObj) -> Vec<f64> {
        a.to_f64_vec().unwrap_or_default()
    }

    /// The real array after merging copies made of `real` and changed to `shares`.
    fn check(real: &[f64], shares: &[&[f64]], how: Merge) -> Vec<f64> {
        let r = vector(real);
        let copies = shares.iter().map(|s| vector(s)).collect();
        merge(&vec![(r.clone(), copies)], how).expect("merges");
        values(&r)
    }

    #[test]
    fn forwards_merge_takes_each_changed_element() {
        // Share 1 zeroed element 1 (it wrote x[1]), share 2 element 3; element 2 untouched;
        // element 4 written by both (a racing loop): the later share's value.
        let got = check(
            &[1.0, 2.0, 3.0, 4.0],
            &[&[0.0, 2.0, 3.0, 7.0], &[1.0, 2.0, 0.0, 8.0]],
            Merge::Forwards,
        );
        assert_eq!(got, [0.0, 2.0, 0.0, 8.0]);
    }

    #[test]
    fn pullbacks_merge_adds_the_changes_in_descending_share_order() {
        let (a, b, c) = (0.1, 1e16, -1e16);
        let got = check(
            &[a, 5.0, 1.0, -0.0],
            &[
                &[a + 0.2, 5.0, 1.0, -0.0],
                &[a + b, 5.0, 2.0, -0.0],
                &[a + c, 5.0, 1.0, 0.0],
            ],
            Merge::Pullbacks,
        );
        // Element 1: a + Δ₃ + Δ₂ + Δ₁ in that order; element 3: the one share's value as it
        // is; element 4: a changed sign of zero counts as a change.
        let sum = a + ((a + c) - a) + ((a + b) - a) + ((a + 0.2) - a);
        assert_eq!(got[0].to_bits(), sum.to_bits());
        assert_eq!(got[1..3], [5.0, 2.0]);
        assert_eq!(got[3].to_bits(), 0.0f64.to_bits());
    }

    #[test]
    fn merges_skip_unchanged_blocks_and_merge_the_changed_ones() {
        let real: Vec<f64> = (0..200).map(|k| k as f64).collect();
        let (mut a, mut b) = (real.clone(), real.clone());
        a[10] += 1.0;
        b[10] += 2.0;
        b[150] = -1.0;
        b[199] = 0.5;
        let got = check(&real, &[&a, &b], Merge::Pullbacks);
        let mut want = real.clone();
        want[10] = 10.0 + (12.0 - 10.0) + (11.0 - 10.0);
        want[150] = -1.0;
        want[199] = 0.5;
        assert_eq!(got, want);
    }

    #[test]
    fn a_copy_of_another_length_is_an_error() {
        let r = vector(&[1.0, 2.0]);
        let copies = vec![vector(&[1.0, 2.0, 3.0])];
        assert!(merge(&vec![(r, copies)], Merge::Pullbacks).is_err());
    }

    #[test]
    fn substitution_keeps_structure_and_sharing() {
        let (x, y) = (vector(&[1.0]), vector(&[2.0]));
        let cx = vector(&[1.0]);
        let v = Value::tuple(vec![
            Value::Array(x.clone()),
            Value::tuple(vec![Value::Array(y.clone()), Value::Array(x.clone())]),
            Value::F64(3.0),
        ]);
        let mut found = Vec::new();
        assert!(fdata_arrays(&v, &mut found).is_ok());
        assert_eq!(found.len(), 2);
        let s = substitute(&v, std::slice::from_ref(&x), std::slice::from_ref(&cx))
            .expect("x is in it");
        let arr = |v: Option<Value>| match v {
            Some(Value::Array(a)) => a,
            _ => panic!("an array"),
        };
        assert!(SharedArray::ptr_eq(&arr(s.field(0)), &cx));
        let inner = s.field(1).expect("inner tuple");
        assert!(SharedArray::ptr_eq(&arr(inner.field(0)), &y));
        assert!(SharedArray::ptr_eq(&arr(inner.field(1)), &cx));
        assert!(substitute(&Value::F64(1.0), &[x], &[cx]).is_none());
    }
}
