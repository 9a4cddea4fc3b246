"""Golden traces of the sample programs in tests/programs/ (see cases.py).

Goldens are Python-version specific (line events, f_locals order and reprs change between
versions), so they live in golden/<major.minor>/. Regenerate after a deliberate change with
    STEPSCOPE_REGEN_GOLDEN=1 python3 python/run_tests.py
and review the diff by eye."""
import json
import os
import sys
import unittest

from .cases import GOLDEN, normalise
from .helpers import TESTS, record_one

VERSION = "%d.%d" % sys.version_info[:2]
GOLDEN_DIR = os.path.join(TESTS, "golden", VERSION)
REGEN = os.environ.get("STEPSCOPE_REGEN_GOLDEN") == "1"


class GoldenTraces(unittest.TestCase):
    def setUp(self):
        if not REGEN and not os.path.isdir(GOLDEN_DIR):
            self.skipTest("goldens exist for %s only; this is Python %s" % (
                ", ".join(sorted(os.listdir(os.path.join(TESTS, "golden")))), VERSION))

    def check(self, name):
        header, events, end = record_one(name + ".py", *GOLDEN[name])
        got = [json.dumps(r) for r in normalise(header, events, end)]
        path = os.path.join(GOLDEN_DIR, name + ".jsonl")
        if REGEN:
            os.makedirs(GOLDEN_DIR, exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(got) + "\n")
            return
        with open(path, encoding="utf-8") as f:
            want = f.read().splitlines()
        self.maxDiff = None
        for i, (g, w) in enumerate(zip(got, want)):
            self.assertEqual(g, w, "%s: record %d differs" % (name, i))
        self.assertEqual(len(got), len(want), "%s: record count differs" % name)


def _make(name):
    return lambda self: self.check(name)


for _name in GOLDEN:
    setattr(GoldenTraces, "test_" + _name.rstrip("_"), _make(_name))
