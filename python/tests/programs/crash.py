import os

before = "still here"
os.kill(os.getpid(), 9)
