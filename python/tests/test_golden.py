"""Golden traces of the sample programs in tests/programs/ (see cases.py).

Goldens are Python-version specific (line events, f_locals order and reprs change between
versions, docs/semantics.md §12). golden/<major.minor>/ holds a version's goldens where its
trace differs from the previous version's; a program without one there inherits the newest
older version's. Regenerate after a deliberate change, under each interpreter, with
    STEPSCOPE_REGEN_GOLDEN=1 python3 python/run_tests.py -k test_golden
(oldest version first: a file equal to the inherited one is not written, or is removed) and
review the diff by eye."""
import json
import os
import sys
import unittest

from .cases import GOLDEN, normalise
from .helpers import TESTS, record_one

VERSION = sys.version_info[:2]
ROOT = os.path.join(TESTS, "golden")
REGEN = os.environ.get("STEPSCOPE_REGEN_GOLDEN") == "1"


def _folders():
    """The version folders, oldest first, as ((major, minor), path)."""
    out = []
    for name in os.listdir(ROOT):
        major, _, minor = name.partition(".")
        if major.isdigit() and minor.isdigit():
            out.append(((int(major), int(minor)), os.path.join(ROOT, name)))
    return sorted(out)


def golden_path(name, version=VERSION, below=False):
    """The golden of `name` for `version` (or, with `below`, the one it would inherit):
    the newest folder at or before that version holding one; None if there is none."""
    for v, path in reversed(_folders()):
        if v < version or (v == version and not below):
            candidate = os.path.join(path, name + ".jsonl")
            if os.path.exists(candidate):
                return candidate
    return None


class GoldenTraces(unittest.TestCase):
    def setUp(self):
        if not REGEN and VERSION < _folders()[0][0]:
            self.skipTest("goldens start at %d.%d; this is Python %d.%d" % (_folders()[0][0] + VERSION))

    def check(self, name):
        header, events, end = record_one(name + ".py", *GOLDEN[name])
        got = [json.dumps(r) for r in normalise(header, events, end)]
        if REGEN:
            self.regenerate(name, got)
            return
        path = golden_path(name)
        with open(path, encoding="utf-8") as f:
            want = f.read().splitlines()
        self.maxDiff = None
        for i, (g, w) in enumerate(zip(got, want)):
            self.assertEqual(g, w, "%s: record %d differs from %s" % (name, i, path))
        self.assertEqual(len(got), len(want), "%s: record count differs from %s" % (name, path))

    def regenerate(self, name, got):
        text = "\n".join(got) + "\n"
        path = os.path.join(ROOT, "%d.%d" % VERSION, name + ".jsonl")
        inherited = golden_path(name, below=True)
        if inherited is not None:
            with open(inherited, encoding="utf-8") as f:
                if f.read() == text:
                    if os.path.exists(path):
                        os.remove(path)
                    return
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def _make(name):
    return lambda self: self.check(name)


for _name in GOLDEN:
    setattr(GoldenTraces, "test_" + _name.rstrip("_"), _make(_name))
