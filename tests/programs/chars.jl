# Characters: literals and escapes, printing, arithmetic, classes and case, and strings indexed
# by byte, iterated by character.
c = 'a'
println(c, " ", typeof(c), " ", repr(c), " ", Int(c), " ", c + 1, " ", 'c' - 'a')
show(c); println()
show('\n'); show('\''); show('\\'); show('é'); show('\u200b'); show('\x01'); show(Char(133)); println()
println(['a', 'b'], " ", Any['x', 1])
s = "héllo"
println(s[1], " ", s[2], " ", s[4], " ", s[end], " ", lastindex(s), " ", length(s))
for ch in s
    print(ch, ",")
end
println()
println(collect(s), " ", [uppercase(ch) for ch in s])
println(map(uppercase, s), " ", filter(ch -> ch != 'l', s), " ", reverse(s))
println(s[1:2], " ", s[1:4], " ", first(s), " ", last(s), " ", first(s, 2), " ", last(s, 3))
println(nextind(s, 2), " ", prevind(s, 4), " ", thisind(s, 3), " ", isvalid(s, 3))
println('l' in s, " ", occursin('z', s), " ", findfirst('l', s))
println(isdigit('5'), isletter('é'), isspace(' '), isspace('\u2028'), isuppercase('A'), islowercase('ß'), ispunct('!'), isnumeric('½'))
println(uppercase('ß'), " ", lowercase('Ä'), " ", 'a' * "bc", " ", "ab" * 'c', " ", 'x' * 'y', " ", repeat('z', 3))
println("$(c)!", " ", string('q'), " ", 'a' < 'b', " ", 'a' == 'a', " ", max('a', 'z'))
println(sort(['c', 'a', 'b']), " ", String(['h', 'i']), " ", join(['a', 'b'], "-"))
println(count(ch -> ch == 'l', s), " ", ''', " ", '"')
# Escapes in strings.
println("\u00e9\x41\101\e[0m" == "éAA\e[0m", " ", length("\U1F600"))
println(repr("a\e\x01\u200b\u0085é\$\"\\"), " ", repr("tab\there"))
