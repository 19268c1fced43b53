//! Interned identifiers: a `Symbol` is a small copyable handle to a string that lives forever.

use rustc_hash::FxHashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

/// An interned string. Equality and hashing are on the handle, so they are O(1).
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(u32);

struct Interner {
    map: FxHashMap<&'static str, Symbol>,
    strings: Vec<&'static str>,
}

fn interner() -> &'static Mutex<Interner> {
    static INTERNER: OnceLock<Mutex<Interner>> = OnceLock::new();
    INTERNER.get_or_init(|| {
        Mutex::new(Interner {
            map: FxHashMap::default(),
            strings: Vec::new(),
        })
    })
}

impl Symbol {
    /// Interns `s`. The string is leaked once per distinct name, so the set of names a process
    /// sees must be bounded (identifiers of loaded programs are).
    pub fn intern(s: &str) -> Symbol {
        let mut i = interner().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&sym) = i.map.get(s) {
            return sym;
        }
        let leaked: &'static str = Box::leak(s.to_owned().into_boxed_str());
        let sym = Symbol(i.strings.len() as u32);
        i.strings.push(leaked);
        i.map.insert(leaked, sym);
        sym
    }

    pub fn as_str(self) -> &'static str {
        let i = interner().lock().unwrap_or_else(|e| e.into_inner());
        i.strings[self.0 as usize]
    }
}

impl fmt::Debug for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_str())
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Shorthand for [`Symbol::intern`].
pub fn sym(s: &str) -> Symbol {
    Symbol::intern(s)
}
