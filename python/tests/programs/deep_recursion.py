import sys

sys.setrecursionlimit(40)


def down(n):
    return down(n + 1)


down(0)
