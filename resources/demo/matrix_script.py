import sys

rows = [[1, 2, 3], [4, 5, 6]]
cols = len(rows[0])
transposed = []
for c in range(cols):
    transposed.append([row[c] for row in rows])
size = (len(transposed), len(transposed[0]))
if size != (3, 2):
    sys.exit("unexpected shape")
