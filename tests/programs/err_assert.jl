function withdraw(balance, amount)
    @assert amount <= balance "insufficient funds"
    balance - amount
end
println(withdraw(10, 3))
withdraw(10, 30)
