//! Which fields `Core.nt_merge` and `Core.nt_drop` (keyword splatting) take: one rule for
//! inference, which knows the names from the types, and the interpreter, which sees values.

use syntax::Symbol;

/// The fields of Julia's `merge(a, b)` of named tuples with names `a` and `b`, each as
/// `(operand, field)` (operand 1 or 2): `a`'s names in order, each taking `b`'s value when `b`
/// has the name too, then `b`'s other names.
pub fn merge_fields(a: &[Symbol], b: &[Symbol]) -> Vec<(u32, u32)> {
    let mut from: Vec<(u32, u32)> = a
        .iter()
        .enumerate()
        .map(|(i, n)| match b.iter().position(|m| m == n) {
            Some(j) => (2, j as u32),
            None => (1, i as u32),
        })
        .collect();
    from.extend(
        b.iter()
            .enumerate()
            .filter(|(_, n)| !a.contains(n))
            .map(|(j, _)| (2, j as u32)),
    );
    from
}

/// The fields of the named tuple with names `a` left after dropping the names `listed`, each
/// as `(1, field)`.
pub fn drop_fields(a: &[Symbol], listed: &[&str]) -> Vec<(u32, u32)> {
    (0..a.len())
        .filter(|&i| !listed.contains(&a[i].as_str()))
        .map(|i| (1, i as u32))
        .collect()
}

/// The error for keyword arguments splatted from a value that is not a named tuple.
/// The error of `Core.nt_like(a, vals)` with `vals` not as long as `a`.
pub fn lengths_differ(names: usize, values: usize) -> String {
    format!("a named tuple of {names} names cannot take {values} values")
}

pub fn not_a_named_tuple(ty: &impl std::fmt::Display) -> String {
    format!("not supported yet: keyword arguments from a value of type {ty}")
}
