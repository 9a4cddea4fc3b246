# With --max-repr 10: reprs of 9, 10 and 11 characters as locals, return values and
# exceptions; a repr raising SystemExit; one returning a lone surrogate.
class E(Exception):
    pass


class Bad:
    def __repr__(self):
        raise SystemExit("no repr")


class Lone:
    def __repr__(self):
        return "a\ud800b"


def fails(k):
    raise E("y" * k)  # E('yyyy') has 9 characters


def echo(v):
    return v


def near(k):
    short = "x" * (k - 1)
    exact = "x" * k
    over = "x" * (k + 1)
    bad = Bad()
    lone = Lone()
    for n in (4, 5, 6):
        try:
            fails(n)
        except E:
            pass
    echo(short)
    echo(over)
    return exact
