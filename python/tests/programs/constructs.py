# Constructs whose events come from different sys.monitoring events (tests/test_backends.py).
import asyncio
import contextlib
import sys
import threading


class Box:
    def __init__(self, v):
        self.v = v

    def __repr__(self):
        return "Box(%r)" % (self.v,)


class Loud:
    def __repr__(self):
        raise RuntimeError("no repr")


def one_line_loops(n):
    while n: n -= 1
    for i in range(3): pass
    t = 0
    while t < 3:
        t += 1
    return [i for i in range(3) for j in range(2) if i != j], {k: k for k in "ab"}, {x for x in (1, 1)}


def nested_gen():
    return sum(x for x in (y * 2 for y in range(4)))


def matcher(v):
    match v:
        case [a, b]:
            return a + b
        case {"k": k}:
            return k
        case Box(v=w) if w > 1:
            return w
        case _:
            return None


def groups():
    try:
        raise ExceptionGroup("g", [ValueError(1), KeyError(2)])
    except* ValueError as e:
        got = e
    except* KeyError:
        pass
    return repr(got)


def finally_paths(k):
    for i in range(3):
        try:
            if i == k:
                continue
            if i > k:
                break
        finally:
            last = i
    try:
        try:
            1 / 0
        except ZeroDivisionError:
            raise KeyError("re")
        finally:
            pass
    except KeyError as e:
        caught = e
    try:
        try:
            raise ValueError("v")
        except ValueError:
            raise
    except ValueError:
        pass
    return last, caught


@contextlib.contextmanager
def managed(x):
    try:
        yield x + 1
    finally:
        x = 0


def withs():
    with managed(1) as a, managed(2) as b:
        c = a + b
    with contextlib.suppress(KeyError):
        {}["x"]
    try:
        with managed(3):
            raise IndexError("out")
    except IndexError:
        pass
    return c


async def ticker(n):
    for i in range(n):
        await asyncio.sleep(0)
        yield i


async def collect():
    out = [i async for i in ticker(3)]
    async with contextlib.AsyncExitStack() as stack:
        stack.callback(lambda: None)
        out.append(await asyncio.sleep(0, result=9))
    return out


def deco(f):
    def wrapped(*a):
        return f(*a) * 2
    return wrapped


@deco
def doubled(x):
    return x + 1


def walrus(xs):
    if (n := len(xs)) > 2:
        del xs[0]
    global G
    G = n
    return [y for x in xs if (y := x * 2)]


def reprs():
    a = Box([1, 2])
    b = Loud()
    c = object()
    d = "x" * 50
    return a, c


def gen_paths():
    def g():
        try:
            x = yield 1
            yield x
        except GeneratorExit:
            raise
        finally:
            pass
    it = g()
    next(it)
    v = it.send(5)
    it.close()
    it2 = g()
    next(it2)
    try:
        it2.throw(StopIteration)
    except RuntimeError:
        pass
    return v


def recurse(n):
    if n == 0:
        raise ValueError("bottom")
    try:
        return recurse(n - 1)
    finally:
        n = -n


class Hidden:
    """Holds what another thread changes; its repr stays the same whatever the timing."""

    def __init__(self):
        self.box = []

    def __repr__(self):
        return "Hidden()"


def in_thread(hidden):
    for i in range(50):
        hidden.box.append(i * i)


def threads():
    hidden = Hidden()
    hidden.thread = threading.Thread(target=in_thread, args=(hidden,))
    hidden.thread.start()
    total = 0
    for i in range(200):
        total += i
    hidden.thread.join()
    return total, len(hidden.box)


def run():
    out = [one_line_loops(4), nested_gen(), matcher([1, 2]), matcher({"k": 3}), matcher(Box(5)), matcher(0)]
    out.append(groups())
    out.append(finally_paths(1))
    out.append(withs())
    out.append(asyncio.run(collect()))
    out.append(doubled(3))
    out.append(walrus([1, 2, 3]))
    out.append(reprs())
    out.append(gen_paths())
    try:
        recurse(3)
    except ValueError:
        out.append("bottom")
    out.append(sorted(range(5), key=lambda v: (v % 2, -v)))
    out.append(threads())
    return out
