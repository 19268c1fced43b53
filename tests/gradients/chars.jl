# Weights chosen by characters of a string (characters carry no derivative).
# check: by_position([1.0, 2.0, 3.0, 4.0, 5.0])
# check: by_character(1.5)
const word = "abcab"
weight(c::Char) = c == 'a' ? 2.0 : (isletter(c) ? 1.0 : 0.0)
by_position(x) = sum(x[i] * weight(word[i]) for i in 1:length(word))
by_character(x) = sum(weight(c) * x^2 for c in word) + (uppercase(word[2]) == 'B' ? x : 0.0)
