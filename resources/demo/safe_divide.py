def divide(a, b):
    if b == 0:
        raise ZeroDivisionError("b is zero")
    return a / b


def ratios(pairs):
    out = []
    for a, b in pairs:
        try:
            out.append(divide(a, b))
        except ZeroDivisionError:
            out.append(None)
    return out
