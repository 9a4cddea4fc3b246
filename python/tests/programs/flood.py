import sys

chunk = "x" * 65536
for i in range(800):
    sys.stdout.write(chunk)
