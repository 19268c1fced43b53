//! Hash codes of byte strings and object identities: `Core.hash_string` (Julia's `hash` of a
//! `String` or a `Symbol`'s name) and `Core.objectid`.
//!
//! Byte strings are hashed as Julia hashes them: the rapidhash scheme over the bytes read as
//! little-endian words, each step a 64×64→128-bit product whose halves are xor-ed, with
//! Julia's four secrets. Identities of mutable objects are their addresses, mixed so that
//! nearby allocations spread over a hash table; identities of immutable values follow their
//! contents, so that values that are `===` have the same identity.

use crate::value::Value;
use std::sync::Arc;

/// Julia's `HASH_SECRET`.
const SECRET: [u64; 4] = [
    0x2d35_8dcc_aa6c_78a5,
    0x8bb8_4b93_962e_acc9,
    0x4b33_a62e_d433_d4a3,
    0xaaaa_aaaa_aaaa_aaaa,
];

/// The two 64-bit halves of the 128-bit product `a * b` (high, low).
fn mul_parts(a: u64, b: u64) -> (u64, u64) {
    let p = (a as u128) * (b as u128);
    ((p >> 64) as u64, p as u64)
}

/// The xor of the halves of `a * b`.
fn mix(a: u64, b: u64) -> u64 {
    let (hi, lo) = mul_parts(a, b);
    hi ^ lo
}

fn word64(d: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&d[at..at + 8]);
    u64::from_le_bytes(w)
}

fn word32(d: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&d[at..at + 4]);
    u64::from(u32::from_le_bytes(w))
}

/// Julia's `hash_bytes(data, seed, HASH_SECRET)`.
pub fn hash_bytes(d: &[u8], seed: u64) -> u64 {
    let n = d.len();
    let mut seed = seed ^ mix(seed ^ SECRET[2], SECRET[1]);
    let (mut a, mut b) = (0u64, 0u64);
    let mut left = n as u64;
    if n <= 16 {
        if n >= 4 {
            seed ^= n as u64;
            if n >= 8 {
                a = word64(d, 0);
                b = word64(d, n - 8);
            } else {
                a = word32(d, 0);
                b = word32(d, n - 4);
            }
        } else if n > 0 {
            a = (u64::from(d[0]) << 45) | u64::from(d[n - 1]);
            b = u64::from(d[n / 2]);
        }
    } else {
        let mut pos = 0;
        if left > 48 {
            let (mut s1, mut s2) = (seed, seed);
            while left > 48 {
                seed = mix(word64(d, pos) ^ SECRET[0], word64(d, pos + 8) ^ seed);
                s1 = mix(word64(d, pos + 16) ^ SECRET[1], word64(d, pos + 24) ^ s1);
                s2 = mix(word64(d, pos + 32) ^ SECRET[2], word64(d, pos + 40) ^ s2);
                pos += 48;
                left -= 48;
            }
            seed ^= s1 ^ s2;
        }
        if left > 16 {
            seed = mix(word64(d, pos) ^ SECRET[2], word64(d, pos + 8) ^ seed);
            if left > 32 {
                seed = mix(word64(d, pos + 16) ^ SECRET[2], word64(d, pos + 24) ^ seed);
            }
        }
        a = word64(d, n - 16) ^ left;
        b = word64(d, n - 8);
    }
    a ^= SECRET[1];
    b ^= seed;
    let (hi, lo) = mul_parts(a, b);
    mix(lo ^ SECRET[3], hi ^ SECRET[1] ^ left)
}

/// The finishing mix of a 64-bit hash (Julia's `hash_finalizer`).
fn finalize(mut x: u64) -> u64 {
    x ^= x >> 32;
    x = x.wrapping_mul(0x6365_2a4c_d374_b267);
    x ^ (x >> 33)
}

/// The seed a symbol's name is hashed with, so that `:a` and `"a"` hash apart.
const SYMBOL_SEED: u64 = 0xedc3_b677_9c1e_5a03;

/// `objectid(x)`: equal for values that are `===`, and for mutable objects and arrays their
/// identity (the address of the object).
pub fn objectid(v: &Value) -> u64 {
    match v {
        Value::Int(i) => finalize(*i as u64 ^ 0x1),
        Value::F64(x) => finalize(x.to_bits() ^ 0x2),
        Value::F32(x) => finalize(u64::from(x.to_bits()) ^ 0x3),
        Value::Bool(b) => finalize(u64::from(*b) ^ 0x4),
        Value::Nothing => 0x5a5a_1d0e_77c3_0f21,
        Value::Undef => 0,
        Value::Str(s) => hash_bytes(s.as_bytes(), 0),
        Value::Sym(s) => hash_bytes(s.as_str().as_bytes(), SYMBOL_SEED),
        Value::Tuple(xs) => xs.iter().fold(0x77cf_a1ee_f01b_ca90, |h, x| {
            mix(h ^ objectid(x), SECRET[0])
        }),
        Value::NamedTuple(t) => {
            t.names
                .iter()
                .zip(t.values.iter())
                .fold(0x4b33_a62e_d433_d4a3, |h, (n, x)| {
                    let hn = hash_bytes(n.as_str().as_bytes(), SYMBOL_SEED);
                    mix(h ^ hn ^ objectid(x), SECRET[1])
                })
        }
        Value::Struct(s) => {
            let ht = hash_bytes(s.ty.to_string().as_bytes(), 0);
            s.fields
                .iter()
                .fold(ht, |h, x| mix(h ^ objectid(x), SECRET[2]))
        }
        Value::Mutable(m) => finalize(Arc::as_ptr(m) as *const u8 as u64),
        Value::Array(a) => finalize(crate::value::SharedArray::as_ptr(a) as *const u8 as u64),
        Value::Func(f) => hash_bytes(f.as_str().as_bytes(), 0x9e37_79b9_7f4a_7c15),
        Value::Type(t) => hash_bytes(t.to_string().as_bytes(), 0x85eb_ca6b_27d4_eb2f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_length_class_reads_inside_the_bytes() {
        // Lengths 0..=100 cover the short (≤ 3, 4–7, 8–16) and long (17–32, 33–48, > 48)
        // paths; each must hash without reading past the end and differ from its neighbours.
        let data: Vec<u8> = (0..100u8).collect();
        let hs: Vec<u64> = (0..=100).map(|n| hash_bytes(&data[..n], 7)).collect();
        for w in hs.windows(2) {
            assert_ne!(w[0], w[1]);
        }
    }

    #[test]
    fn the_seed_changes_the_hash() {
        assert_ne!(hash_bytes(b"key", 1), hash_bytes(b"key", 2));
    }

    #[test]
    fn identical_immutables_share_an_identity() {
        let a = Value::Tuple(Arc::from(vec![Value::Int(1), Value::F64(2.0)]));
        let b = Value::Tuple(Arc::from(vec![Value::Int(1), Value::F64(2.0)]));
        assert_eq!(objectid(&a), objectid(&b));
        assert_ne!(objectid(&Value::F64(0.0)), objectid(&Value::F64(-0.0)));
    }
}
