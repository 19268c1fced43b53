# Output streams: `stdout`, `stderr` and `IOBuffer`s, written by `print`, `println`, `show`,
# `write`, `join` and `showerror`; `sprint(f, args...)` is what `f(io, args...)` writes. A
# program's own `Base.show(io::IO, x::T)` (or `Base.print`) methods are what printing a `T`
# writes, also inside arrays, tuples and structs.
abstract type IO end
struct _StandardOutput <: IO end
struct _StandardError <: IO end
const stdout = _StandardOutput()
const stderr = _StandardError()
mutable struct IOBuffer <: IO
    parts::Vector{String}
end
IOBuffer() = IOBuffer(String[])
_put(io::_StandardOutput, s::String) = Core.print(s)
_put(io::_StandardError, s::String) = Core.print_stderr(s)
function _put(io::IOBuffer, s::String)
    push!(io.parts, s)
    nothing
end
# What has been written to an `IOBuffer`, as a string (the buffer keeps it).
_contents(io::IOBuffer) = join(io.parts)
print(io::IO, x) = _put(io, string(x))
print(io::IO, s::String) = _put(io, s)
function print(io::IO, x, y, zs...)
    print(io, x)
    print(io, y)
    for z in zs
        print(io, z)
    end
    nothing
end
function println(io::IO, xs...)
    for x in xs
        print(io, x)
    end
    _put(io, "\n")
end
show(io::IO, x) = _put(io, repr(x))
write(io::IO, s::String) = (_put(io, s); ncodeunits(s))
write(io::IO, c::Char) = (_put(io, string(c)); ncodeunits(string(c)))
function join(io::IO, xs, delim = "")
    first = true
    for x in xs
        first || print(io, delim)
        print(io, x)
        first = false
    end
    nothing
end
function sprint(f, args...)
    io = IOBuffer()
    f(io, args...)
    _contents(io)
end
flush(io::IO) = nothing
# `showerror(io, e)`: what Julia prints for an uncaught `e` (the message of Julia's exception
# types, `show(io, e)` for any other value); a program's `Base.showerror(io::IO, e::MyError)`
# method replaces it for its type.
showerror(io::IO, e) = print(io, Core.error_message(e))
