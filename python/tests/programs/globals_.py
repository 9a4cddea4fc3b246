import sys

LIMIT = 3
seen = []


def remember(x):
    global LIMIT
    seen.append(x)
    LIMIT -= 1
    return LIMIT


while LIMIT > 0:
    remember(len(sys.argv))
