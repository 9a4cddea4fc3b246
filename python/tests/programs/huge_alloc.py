def grab():
    block = bytearray(1024 * 1024 * 1024)
    return len(block)
