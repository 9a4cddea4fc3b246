def make_counter(step):
    total = 0

    def tick():
        nonlocal total
        total += step
        return total

    return tick


def run():
    tick = make_counter(3)
    tick()
    tick()
    return tick()
