def spin():
    x = 0
    while True:
        x += 1
