x = 1
try
    x += 1
end
