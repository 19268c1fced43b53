# Tuples: indexing, length, iteration.

length(t::Tuple) = Core.tuple_len(t)
getindex(t::Tuple, i::Int64) = Core.tuple_getindex(t, i)
iterate_start(t::Tuple) = 1
iterate_done(t::Tuple, i::Int64) = i > Core.tuple_len(t)
iterate_next(t::Tuple, i::Int64) = (Core.tuple_getindex(t, i), i + 1)
first(t::Tuple) = t[1]
isempty(t::Tuple) = Core.tuple_len(t) == 0
