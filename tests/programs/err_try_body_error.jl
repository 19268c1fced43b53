# An error a `catch` block does not catch (one raised inside it) is reported where it
# happened, with the function around the `try` in the backtrace.
function careful(x)
    try
        sqrt(x)
    catch e
        error("could not take the square root of ", x)
    end
end
careful(-1.0)
