"""The sys.monitoring backend (Python 3.12+) records the same trace as the sys.settrace one,
byte for byte (on 3.12, but for object numbers: see ADDRESS): every golden program, the
constructs of tests/programs/constructs.py (loops on one line, comprehensions, generators
closed and thrown into, async, with, try/finally, except*, match, threads, failing reprs),
the exits of test_exits and the first CRUXEval tasks. A program that looks at the tracer
itself sees which backend runs it; 3.11 refuses it."""
import json
import os
import re
import sys
import tempfile
import unittest

from stepscope_recorder.monitor import default_backend

from .cases import GOLDEN, normalise
from .helpers import CRUXEVAL, read_traces, record_one, record_source, run_recorder
from .test_events import GENERATORS
from .test_exits import PROGRAM as EXITS

HAS_MONITORING = hasattr(sys, "monitoring")
BACKENDS = ("settrace", "monitoring")

# Sees the backend: sys.gettrace() is the recorder's function under settrace only.
INTROSPECTS = "import sys\n\n\ndef f():\n    seen = sys.gettrace() is None\n    return seen\n"


# On 3.12 the backends can number an object differently: the interpreter allocates around an
# exception differently for sys.settrace's layer than for a monitoring tool written in Python,
# so where an object takes a freed address under one it may take a new one under the other.
# Which does depends on the heap's layout (the exits golden differed in about half of the
# checkout paths tried, either way round). There, the numbers are left out of the comparison;
# on 3.13 they are compared too.
ADDRESS = re.compile(r" at 0x[0-9a-f]+")
NUMBERS_MAY_DIFFER = sys.version_info[:2] == (3, 12)


def lines(traces):
    """The records as text, less what differs between two runs (wall time) and, on 3.12,
    object numbers."""
    out = []
    for header, events, end in traces:
        out += [json.dumps(r) for r in normalise(header, events, end)]
    return [ADDRESS.sub(" at 0x?", line) for line in out] if NUMBERS_MAY_DIFFER else out


@unittest.skipUnless(HAS_MONITORING, "sys.monitoring exists from Python 3.12")
class SameTrace(unittest.TestCase):
    maxDiff = None

    def assertSame(self, record):
        """record(backend) -> [(header, events, end)]; both backends must agree record by record."""
        got = {b: lines(record(b)) for b in BACKENDS}
        for i, (a, b) in enumerate(zip(got["settrace"], got["monitoring"])):
            self.assertEqual(a, b, "record %d differs between the backends" % i)
        self.assertEqual(len(got["settrace"]), len(got["monitoring"]))
        self.assertGreater(len(got["settrace"]), 2)
        return got["settrace"]

    def test_constructs(self):
        records = self.assertSame(lambda b: [record_one("constructs.py", "--call", "run()", "--backend", b)])
        self.assertIn('"exit": "normal"', records[-1])

    def test_a_program_installing_its_own_trace_function(self):
        records = self.assertSame(lambda b: [record_one("own_trace.py", "--call", "run()", "--backend", b)])
        self.assertIn("trace function removed during the run", records[-1])

    def test_exits_of_every_kind(self):
        self.assertSame(lambda b: [record_source(EXITS, "f()", "--backend", b)])
        self.assertSame(lambda b: [record_source(GENERATORS, "f()", "--backend", b)])

    @unittest.skipUnless(os.path.exists(CRUXEVAL), "the CRUXEval benchmark is not in this checkout")
    def test_cruxeval(self):
        def record(backend):
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "crux.jsonl")
                r = run_recorder("record-cruxeval", CRUXEVAL, "-o", out, "--limit", "120", "--jobs", "2",
                                 "--backend", backend)
                self.assertEqual(r.returncode, 0, r.stderr)
                return read_traces(out)
        self.assertSame(record)

    def test_a_program_that_looks_at_the_tracer_sees_the_backend(self):
        # The one difference: what sys.gettrace() returns (and which sys.monitoring tool ids
        # are taken). The comparison above would report it.
        got = {b: record_source(INTROSPECTS, "f()", "--backend", b)[1] for b in BACKENDS}
        self.assertEqual([e["arg"] for e in got["settrace"] if e["event"] == "return"], ["False", "False"])
        self.assertEqual([e["arg"] for e in got["monitoring"] if e["event"] == "return"], ["True", "True"])
        self.assertNotEqual(lines([({"mode": "call", "python": ""}, got["settrace"], {"seconds": 0})]),
                            lines([({"mode": "call", "python": ""}, got["monitoring"], {"seconds": 0})]))


def _golden(name):
    def test(self):
        self.assertSame(lambda b: [record_one(name + ".py", *GOLDEN[name], "--backend", b)])
    return test


for _name in GOLDEN:
    setattr(SameTrace, "test_golden_" + _name.rstrip("_"), _golden(_name))


class Choice(unittest.TestCase):
    @unittest.skipIf(os.environ.get("STEPSCOPE_BACKEND"), "STEPSCOPE_BACKEND is set")
    def test_the_default_is_settrace(self):
        # monitoring is not faster on the benchmark (docs/semantics.md §12), so never the default
        self.assertEqual(default_backend(), "settrace")

    @unittest.skipIf(HAS_MONITORING, "this Python has sys.monitoring")
    def test_monitoring_is_refused_before_3_12(self):
        with tempfile.TemporaryDirectory() as tmp:
            prog = os.path.join(tmp, "p.py")
            with open(prog, "w") as f:
                f.write("x = 1\n")
            out = os.path.join(tmp, "t.jsonl")
            r = run_recorder("record", prog, "-o", out, "--backend", "monitoring")
            self.assertEqual(r.returncode, 2)
            self.assertIn("--backend monitoring needs Python 3.12 or later", r.stderr)
            self.assertFalse(os.path.exists(out))
            r = run_recorder("record", prog, "-o", out, "--backend", "settrace")
            self.assertEqual(r.returncode, 0, r.stderr)


if __name__ == "__main__":
    unittest.main()
