# A program that installs its own trace function part-way (tests/test_backends.py).
import sys


def inner(n):
    total = 0
    for i in range(n):
        total += i
    return total


def gen():
    yield 1
    yield 2


def mine(frame, event, arg):
    return None


def run():
    g = gen()
    next(g)
    a = inner(3)
    sys.settrace(mine)
    b = inner(4)
    c = next(g)
    d = a + b + c
    return d
