# Mooncake's documented `@from_chainrules` examples, unchanged: a rule in both modes from a
# ChainRules `frule` and `rrule`, and a reverse-mode rule of a function with keyword
# arguments, called through Mooncake's `frule!!`/`rrule!!` and checked by `test_rule`.
using Mooncake: @from_chainrules, DefaultCtx, frule!!, rrule!!, Dual, zero_dual, zero_fcodual, TestUtils
using Random: Xoshiro
import ChainRulesCore

foo(x::Real) = 5x;

ChainRulesCore.frule((df, dx), ::typeof(foo), x::Real) = 5x, 5dx;

function ChainRulesCore.rrule(::typeof(foo), x::Real)
    foo_pb(Ω::Real) = ChainRulesCore.NoTangent(), 5Ω
    return foo(x), foo_pb
end;

@from_chainrules DefaultCtx Tuple{typeof(foo), Base.IEEEFloat}

println(frule!!(zero_dual(foo), Dual(5.0, 2.0)))
println(rrule!!(zero_fcodual(foo), zero_fcodual(5.0))[2](1.0))
TestUtils.test_rule(Xoshiro(123), foo, 5.0; is_primitive=true, print_results=false);

using Mooncake: ReverseMode

bar(x::Real; cond::Bool) = cond ? 5x : 4x;

function ChainRulesCore.rrule(::typeof(bar), x::Real; cond::Bool)
    bar_pb(Ω::Real) = ChainRulesCore.NoTangent(), cond ? 5Ω : 4Ω
    return bar(x; cond), bar_pb
end;

@from_chainrules DefaultCtx Tuple{typeof(bar), Base.IEEEFloat} true ReverseMode

_, pb = rrule!!(
    zero_fcodual(Core.kwcall),
    zero_fcodual((cond=false, )),
    zero_fcodual(bar),
    zero_fcodual(5.0),
);

println(pb(3.0))

TestUtils.test_rule(
    Xoshiro(123), Core.kwcall, (cond=false, ), bar, 5.0;
    is_primitive=true, print_results=false, mode=Mooncake.ReverseMode,
);

# ChainRulesCore's `NoTangent` is its own; Mooncake's is reached through the module.
println(ChainRulesCore.NoTangent() === Mooncake.NoTangent())
println(ChainRulesCore.unthunk(ChainRulesCore.@thunk(2.0 + 1.0)))
println(ChainRulesCore.ZeroTangent() + 1.5)
