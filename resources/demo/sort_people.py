def by_age(people):
    ordered = sorted(people, key=lambda p: (p[1], p[0]))
    return [name for name, age in ordered]


def oldest(people):
    names = by_age(people)
    return names[-1]
