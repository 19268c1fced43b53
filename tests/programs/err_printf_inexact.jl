# %d of a float that is not an integer.
using Printf
@printf("%d\n", 1.5)
