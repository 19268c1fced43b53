//! Native code reclaims the memory of temporaries: a loop that allocates a temporary array a
//! million times leaves no array behind (a frame slot frees what it held when overwritten, and
//! a returning function drops its frame). Its own test binary, as the count is per process.

use mooncake::{live_arrays, Backend, Session, Value};

#[test]
fn a_million_temporaries_leave_nothing_behind() {
    let src = "function churn(n)\n s = 0.0\n for i in 1:n\n a = zeros(8)\n a[1] = i\n b = copy(a)\n s += b[1]\n end\n s\nend\nfunction nested(n)\n t = 0.0\n for k in 1:n\n t += churn(2)\n end\n t\nend";
    let mut s = Session::with_output(Box::new(std::io::sink())).expect("prelude");
    assert_eq!(s.backend(), Backend::Native);
    s.load_source("t.jl", src).expect("loads");
    // Warm up (compiles), then count.
    s.call("churn", vec![Value::Int(10)]).expect("runs");
    let before = live_arrays();
    let y = s.call("churn", vec![Value::Int(1_000_000)]).expect("runs");
    assert_eq!(mooncake::show(&y), "5.000005e11");
    let y = s.call("nested", vec![Value::Int(100_000)]).expect("runs");
    assert_eq!(mooncake::show(&y), "300000.0");
    assert_eq!(live_arrays(), before, "arrays leaked");
    let st = s.native_stats().expect("native backend");
    assert!(st.functions >= 2, "{st:?}");
    assert!(st.fallbacks.is_empty(), "{:?}", st.fallbacks);
}
