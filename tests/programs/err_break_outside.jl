function f()
    break
end
