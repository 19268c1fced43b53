# A character literal holds one character.
x = 'ab'
