# `try`/`catch`/`else`/`finally`. The parser rewrites a `try` into calls of `_try_catch` and
# `_try_finally` with its blocks as functions (so scoping and capture are those of closures);
# a `return`, `break` or `continue` inside them that leaves the `try` becomes a returned
# marker, acted on where the `try` stands.
struct _TryReturn{T}
    x::T
end
struct _TryBreak end
struct _TryContinue end
# The body ran to its end (a `try` with an `else` block runs it then).
struct _TryElse end
# The value of a `try` that ran to its end: a marker never gets here (the code acting on it
# returns, breaks or continues first), so only the blocks' own values remain in its type.
_try_value(x) = x
_try_value(x::Union{_TryReturn,_TryBreak,_TryContinue,_TryElse}) = Core.throw_error("internal error: a marker of a `try` block's control flow was not acted on")
# What a `return` inside the `try` returns.
_try_returned(r::_TryReturn) = r.x
_try_returned(x) = Core.throw_error("internal error: a `try` block's `return` marker was expected")
# `body()`; if it raises an error the program can catch, `handler(e)` with the exception.
_try_catch(body, handler) = Core.try_catch(body, handler)
# `body()`, then `fin()` whether or not `body` raised an error (raised again after `fin`).
_try_finally(body, fin) = Core.try_finally(body, fin)
# Raises again the error the running `catch` block caught, with its backtrace.
rethrow() = Core.rethrow()
rethrow(e) = throw(e)
