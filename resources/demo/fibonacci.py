def fib(n):
    # Tree recursion: each call below 2 is a leaf.
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)
