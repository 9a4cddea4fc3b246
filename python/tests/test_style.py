"""Lines of the recorder's Python stay within 120 characters, as the rest of the repository's
code (ESLint's max-len there). The recorded test programs (tests/programs) are left out: their
line numbers are in the golden traces."""
import os
import unittest

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WIDTH = 120


class LineLength(unittest.TestCase):
    def test_lines_within_120_characters(self):
        long = []
        for folder, dirs, files in os.walk(HERE):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", "programs", "golden")]
            for name in files:
                if not name.endswith(".py"):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    for n, line in enumerate(f, 1):
                        if len(line.rstrip("\n")) > WIDTH:
                            long.append("%s:%d (%d)" % (os.path.relpath(path, HERE), n, len(line.rstrip("\n"))))
        self.assertEqual(long, [], "lines over %d characters" % WIDTH)


if __name__ == "__main__":
    unittest.main()
