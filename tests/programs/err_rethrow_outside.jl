println("before")
rethrow()
