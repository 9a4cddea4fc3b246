def countdown(n):
    while n > 0:
        yield n
        n -= 1
    return "done"


def guarded():
    try:
        yield 1
        yield 2
    finally:
        print("closed")


total = 0
for v in countdown(3):
    total += v
g = guarded()
first = next(g)
g.close()
squares = list(x * x for x in range(3))
