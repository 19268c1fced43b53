function uses_missing(x)
    x + not_defined_anywhere
end
uses_missing(1)
