def order(words):
    ranked = sorted(words, key=lambda w: (len(w), w))
    return ranked
