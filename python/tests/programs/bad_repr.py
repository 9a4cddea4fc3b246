class Bad:
    def __repr__(self):
        raise RuntimeError("no repr")


def make():
    b = Bad()
    return b
