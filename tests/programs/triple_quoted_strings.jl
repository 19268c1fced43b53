# Triple-quoted strings: quotes inside, interpolation, and Julia's dedenting.
str = """
    Hello,
    world.
  """
println(repr(str))
println(repr("""    This
  is
    a test"""))
println(repr("""hello"""), " ", repr("""
hello"""), " ", repr("""

hello"""))
x = 3
s2 = """
    x = $x, "quoted", $(x + 1)
      indented
    """
println(repr(s2))
const data = """
    1.0,2.1
    2.0,3.9
    """
println(split(strip(data), "\n"))
println(repr("""a"b"""), " ", repr(""""q\""""))
