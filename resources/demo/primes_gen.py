def primes():
    found = []
    n = 2
    while True:
        if all(n % p for p in found):
            found.append(n)
            yield n
        n += 1


def first(k):
    gen = primes()
    return [next(gen) for _ in range(k)]
