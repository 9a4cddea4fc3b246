"""Golden sample programs (tests/programs/NAME.py): how each one is recorded."""

# name -> recorder arguments after the program path
GOLDEN = {
    "caught": ["--call", "f([2, 0, 5])"],
    "uncaught": ["--call", "f(2)"],
    "generators": [],
    "recursion": ["--call", "fact(3)"],
    "comprehensions": ["--call", 'stats(["apple", "kiwi", "fig"])'],
    "lambda_sort": ["--call", 'order(["pear", "fig", "apple"])'],
    "classes": [],
    "closures": ["--call", "use()"],
    "globals_": ["--", "a", "b"],
    "infinite": ["--call", "spin()", "--max-events", "50"],
    "os_exit": [],
    "bad_repr": ["--call", "make()"],
    "sys_exit": [],
    "stdin": [],
    "huge_alloc": ["--call", "grab()", "--max-memory", "256"],
    "deep_recursion": [],
    "crash": [],
    "long_repr": ["--call", "build(30)", "--max-repr", "20"],
    "exits": [],
    "repr_boundaries": ["--call", "near(8)", "--max-repr", "10"],
}


def normalise(header, events, end):
    """What a golden compares: drops what differs between machines and runs (the Python
    patch version, the absolute script path, wall time)."""
    import os
    header = dict(header)
    header.pop("python")
    if header["mode"] == "script":
        header["filename"] = os.path.basename(header["filename"])
    end = dict(end)
    end.pop("seconds")
    return [header] + list(events) + [end]
