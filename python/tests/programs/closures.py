def make_counter(start):
    count = start

    def bump(step):
        nonlocal count
        count += step
        return count

    return bump


def use():
    bump = make_counter(10)
    bump(1)
    return bump(2)
