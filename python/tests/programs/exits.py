# How each frame is left: a return (with its value) or an exception (arg null).
class Quiet:
    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        return kind is KeyError  # swallows KeyError only


def implicit():
    x = 1


def explicit_none():
    return None


def finally_return():
    try:
        return "try"
    finally:
        done = True


def finally_raise():
    try:
        raise ValueError("in try")
    finally:
        done = True


def with_swallowed():
    with Quiet():
        raise KeyError("swallowed")
    return "after with"


def with_raised():
    with Quiet():
        raise IndexError("passes")


def gen():
    try:
        yield 1
        yield 2
    except KeyError:
        yield "caught"


def delegate():
    got = yield from gen()
    return got


a = implicit()
b = explicit_none()
c = finally_return()
try:
    finally_raise()
except ValueError:
    pass
d = with_swallowed()
try:
    with_raised()
except IndexError:
    pass
g = gen()
first = next(g)
third = g.throw(KeyError())
g.close()
h = gen()
next(h)
try:
    h.throw(ValueError("uncaught"))
except ValueError:
    pass
out = list(delegate())
