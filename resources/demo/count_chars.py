def count(s, t):
    n = 0
    for c in s:
        n += int(c == t)
    return n
