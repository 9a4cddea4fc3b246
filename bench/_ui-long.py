# A long flat loop for bench/ui.mjs: about 2 states per iteration, N from argv.
import sys


def run(n):
    total = 0
    for i in range(n):
        total += i
    return total


run(int(sys.argv[1]))
