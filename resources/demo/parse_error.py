def parse(fields):
    total = 0
    for f in fields:
        total += int(f)
    return total


def load(line):
    fields = line.split(",")
    return parse(fields)
