def build(n):
    text = "ab" * n
    return text
