def g(x):
    if x == 0:
        raise ValueError("zero")
    return 10 // x

def f(xs):
    out = []
    for x in xs:
        try:
            out.append(g(x))
        except ValueError as e:
            out.append(-1)
    return out
