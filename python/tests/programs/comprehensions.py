def stats(words):
    lengths = [len(w) for w in words]
    first = {w[0]: w for w in words}
    vowels = {c for w in words for c in w if c in "aeiou"}
    return sum(lengths), first, sorted(vowels)
