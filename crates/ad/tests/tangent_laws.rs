//! The tangent laws, for every kind of value: types agree with `tangent_type`, fdata/rdata
//! split and recombine, increment is in place for mutable parts and safe under aliasing and
//! cycles, scale/dot/add-to-primal/difference are consistent.

use compiler::{Compiler, TopLevel};
use ir::tangent::{fdata_type, rdata_type, tangent_type};
use ir::{Type, TypeEnv};
use mooncake_ad::*;
use rand::{rngs::StdRng, SeedableRng};
use runtime::value::{ArrayObj, MutableVal, StructVal};
use runtime::{SharedArray, Value};
use std::sync::Arc;

fn env() -> TypeEnv {
    let src = "struct P\n x::Float64\n n::Int\nend\nstruct V\n v::Vector{Float64}\n w::Float64\nend\nmutable struct M\n x::Float64\n next\nend\n";
    let mut c = Compiler::new();
    let (ast, d) = syntax::parse_file(src, syntax::FileId(1));
    assert!(d.is_empty());
    for item in &ast.items {
        assert!(matches!(c.toplevel(item, src).unwrap(), TopLevel::Defined));
    }
    (*c.env).clone()
}

fn arr(xs: &[f64]) -> Value {
    Value::Array(SharedArray::new(ArrayObj::vector_f64(xs.to_vec())))
}

fn st(name: &str, fields: Vec<Value>) -> Value {
    Value::Struct(Arc::new(StructVal {
        ty: Type::structure(name, vec![]),
        fields: fields.into(),
    }))
}

fn primals() -> Vec<Value> {
    let m = Arc::new(MutableVal::new(
        Type::structure("M", vec![]),
        vec![Value::F64(2.0), Value::Nothing],
    ));
    // A cycle: m.next = m.
    m.set(1, Value::Mutable(m.clone()));
    let a = arr(&[1.0, -2.0]);
    vec![
        Value::F64(1.5),
        Value::F32(2.5),
        Value::Int(3),
        Value::Bool(true),
        Value::str("s"),
        arr(&[1.0, 2.0, 3.0]),
        Value::tuple(vec![Value::F64(1.0), Value::Int(2), arr(&[4.0])]),
        st("P", vec![Value::F64(0.5), Value::Int(7)]),
        st("V", vec![arr(&[1.0, 2.0]), Value::F64(3.0)]),
        Value::Mutable(m),
        // Aliasing: the same array twice.
        Value::tuple(vec![a.clone(), a]),
        Value::Array(SharedArray::new(ArrayObj::from_values(
            Type::Any,
            vec![3],
            vec![Value::F64(1.0), Value::Int(2), arr(&[5.0])],
        ))),
    ]
}

#[test]
fn tangents_have_the_tangent_type() {
    let env = env();
    let mut rng = StdRng::seed_from_u64(1);
    for p in primals() {
        let want = tangent_type(&p.ty(), &env);
        for t in [zero_tangent(&p, &env), random_tangent(&p, &env, &mut rng)] {
            if want == Type::Any {
                continue;
            }
            assert_eq!(t.ty(), want, "tangent of {}", p.ty());
        }
    }
}

#[test]
fn fdata_rdata_split_and_recombine() {
    let env = env();
    let mut rng = StdRng::seed_from_u64(2);
    for p in primals() {
        let pt = p.ty();
        let t = random_tangent(&p, &env, &mut rng);
        let f = fdata(&t, &pt, &env);
        let r = rdata(&t, &pt, &env);
        if fdata_type(&pt, &env) != Type::Any {
            assert_eq!(f.ty(), fdata_type(&pt, &env), "fdata of {pt}");
            assert_eq!(r.ty(), rdata_type(&pt, &env), "rdata of {pt}");
        }
        let back = tangent_from(&pt, &f, &r, &env);
        assert!(tangent_approx_eq(&back, &t, 0.0, 0.0), "recombine {pt}");
    }
}

#[test]
fn increment_scale_dot_and_primal_arithmetic() {
    let env = env();
    let mut rng = StdRng::seed_from_u64(3);
    for p in primals() {
        let t = random_tangent(&p, &env, &mut rng);
        let z = zero_tangent(&p, &env);
        // 0 + t == t, and in place: the result is `z` itself when z is mutable.
        let s = increment(&z, &t);
        assert!(
            tangent_approx_eq(&s, &t, 1e-15, 0.0),
            "0 + t for {}",
            p.ty()
        );
        if let (Value::Array(a), Value::Array(b)) = (&s, &z) {
            assert!(SharedArray::ptr_eq(a, b), "array increment is in place");
        }
        // dot is bilinear and positive.
        let tt = dot(&t, &t);
        assert!(tt >= 0.0);
        assert!((dot(&scale(2.0, &t), &t) - 2.0 * tt).abs() <= 1e-12 * (1.0 + tt));
        // (p + t) - p == t
        let q = add_to_primal(&p, &t);
        let d = difference(&q, &p, &env);
        assert!(
            tangent_approx_eq(&d, &t, 1e-12, 1e-12),
            "difference for {}",
            p.ty()
        );
    }
}

#[test]
fn aliasing_and_cycles_are_preserved() {
    let env = env();
    let a = arr(&[1.0, -2.0]);
    let p = Value::tuple(vec![a.clone(), a]);
    let t = zero_tangent(&p, &env);
    let (Some(Value::Array(x)), Some(Value::Array(y))) = (t.field(0), t.field(1)) else {
        panic!("tuple of arrays expected")
    };
    assert!(SharedArray::ptr_eq(&x, &y), "one tangent for one array");
    // Incrementing an array by itself doubles it.
    x.set(0, Value::F64(1.5));
    let _ = increment(&Value::Array(x.clone()), &Value::Array(x.clone()));
    assert_eq!(x.get(0).and_then(|v| v.as_f64()), Some(3.0));
    // The tangent of a self-referential mutable struct is self-referential.
    let m = primals()
        .into_iter()
        .find(|v| matches!(v, Value::Mutable(_)))
        .unwrap();
    let tm = zero_tangent(&m, &env);
    let Value::Mutable(tmv) = &tm else { panic!() };
    let Some(Value::Mutable(next)) = tmv.get(1) else {
        panic!("tangent of `next`")
    };
    assert!(Arc::ptr_eq(tmv, &next));
    assert!(dot(&tm, &tm) == 0.0);
}

#[test]
fn fdata_reset_in_place_is_a_new_zero_fdata_or_refused() {
    use mooncake_ad::tangent::reset_fdata;
    let env = env();
    let mut rng = StdRng::seed_from_u64(4);
    for p in primals() {
        let pt = p.ty();
        let f = fdata(&random_tangent(&p, &env, &mut rng), &pt, &env);
        if reset_fdata(&f, &p) {
            let zero = fdata(&zero_tangent(&p, &env), &pt, &env);
            assert!(
                tangent_approx_eq(&f, &zero, 0.0, 0.0),
                "reset fdata of {pt}"
            );
        }
    }
    // Float arrays, and structs and arrays of them, are reset.
    let v = st("V", vec![arr(&[1.0, 2.0]), Value::F64(3.0)]);
    let f = fdata(&random_tangent(&v, &env, &mut rng), &v.ty(), &env);
    assert!(reset_fdata(&f, &v));
    let vv = Value::Array(SharedArray::new(ArrayObj::from_values(
        Type::vector(Type::Float64),
        vec![2],
        vec![arr(&[1.0]), arr(&[2.0, 3.0])],
    )));
    let f = fdata(&random_tangent(&vv, &env, &mut rng), &vv.ty(), &env);
    assert!(reset_fdata(&f, &vv));
    // Refused: a part held elsewhere, another shape, a primal reaching one array twice.
    let x = arr(&[1.0, 2.0]);
    let f = fdata(&random_tangent(&x, &env, &mut rng), &x.ty(), &env);
    let held = f.clone();
    assert!(!reset_fdata(&f, &x));
    assert!(held
        .to_f64_vec()
        .is_some_and(|h| h.iter().any(|e| *e != 0.0)));
    drop(held);
    assert!(!reset_fdata(&f, &arr(&[1.0, 2.0, 3.0])));
    assert!(reset_fdata(&f, &x));
    let a = arr(&[1.0]);
    let twice = Value::tuple(vec![a.clone(), a]);
    let f = fdata(&zero_tangent(&twice, &env), &twice.ty(), &env);
    assert!(!reset_fdata(&f, &twice));
}
