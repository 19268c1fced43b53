# Each iteration of a loop has fresh locals: `x` from the previous iteration is gone.
function f()
    for i in 1:2
        if i == 2
            println(x)
        end
        x = i
    end
end
f()
