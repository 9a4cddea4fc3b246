def evens_squared(nums):
    squares = [n * n for n in nums if n % 2 == 0]
    index = {n: i for i, n in enumerate(squares)}
    total = sum(squares)
    return squares, index, total
