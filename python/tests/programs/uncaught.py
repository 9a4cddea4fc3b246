def f(n):
    if n == 0:
        raise KeyError(n)
    return f(n - 1)
