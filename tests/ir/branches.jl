# call: relu(2.0)
# stages: lowered typed optimised
relu(x) = x > 0 ? x : zero(x)
