# Strings and output: concatenation, comparison, `string`, `repr`, `print`, `show`, `error`.

*(a::String, b::String) = Core.string_concat(a, b)
length(s::String) = Core.string_len(s)
==(a::String, b::String) = Core.egal(a, b)
# Strings sort by their code points (byte by byte, as Julia compares them).
cmp(a::String, b::String) = Core.string_cmp(a, b)
isless(a::String, b::String) = Core.string_cmp(a, b) < 0
<(a::String, b::String) = isless(a, b)
<=(a::String, b::String) = !isless(b, a)
string(x) = Core.string(x)
Symbol(s::String) = Core.symbol(s)
Symbol(s::Symbol) = s
Symbol(x, xs...) = Core.symbol(string(x, xs...))
String(s::Symbol) = string(s)
function string(xs...)
    s = ""
    for x in xs
        s = Core.string_concat(s, Core.string(x))
    end
    s
end
repr(x) = Core.repr(x)
print(x) = Core.print(x)
function print(xs...)
    for x in xs
        Core.print(x)
    end
    nothing
end
function println(xs...)
    for x in xs
        Core.print(x)
    end
    Core.print("\n")
    nothing
end
show(x) = Core.show(x)
error(msg::String) = Core.throw_error(msg)
function error(xs...)
    s = ""
    for x in xs
        s = Core.string_concat(s, Core.string(x))
    end
    Core.throw_error(s)
end
