"""All 800 CRUXEval tasks: recorded in input order, every exit normal, and the value f
returns (its `return` event under main's calling line) equals the benchmark's output; and
the same bytes whether the children are forked by the run's fork server or each by a server
of its own, an interpreter per task (runner.ForkServer)."""
import ast
import json
import os
import tempfile
import unittest

from .helpers import CRUXEVAL as DATA, GIVEN_CRUXEVAL, read_traces, run_recorder


def _recorded(testcase, env=None):
    """(stderr, path of a copy of the file) of record-cruxeval on all 800 tasks."""
    out = os.path.join(testcase.tmp.name, "crux-%d.jsonl" % len(os.listdir(testcase.tmp.name)))
    r = run_recorder("record-cruxeval", DATA, "-o", out, "--jobs", "2", env=env)
    testcase.assertEqual(r.returncode, 0, r.stderr)
    return r.stderr, out


def _without_times(path):
    """The file's lines, each end record without `seconds` (wall time differs run to run)."""
    lines = []
    with open(path, "rb") as f:
        for line in f:
            if line.startswith(b'{"type": "end"'):
                end = json.loads(line)
                del end["seconds"]
                line = json.dumps(end).encode("utf-8")
            lines.append(line)
    return lines


class CruxEval(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        given = GIVEN_CRUXEVAL
        if given and os.path.exists(given) and os.path.exists(given + ".stderr"):
            # npm test recorded them once, with this command, for this suite and the
            # TypeScript one (scripts/test-all.mjs), and kept its stderr; it exited 0.
            with open(given + ".stderr", encoding="utf-8") as f:
                cls.stderr = f.read()
            cls.path = given
        else:
            cls.stderr, cls.path = None, None

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def recording(self):
        if self.path is None:
            type(self).stderr, type(self).path = _recorded(self, {"STEPSCOPE_FORK_SERVER": "1"})
        return self.stderr, self.path

    def test_fork_server_and_own_interpreters_record_the_same_events(self):
        _, forked = self.recording()
        _, spawned = _recorded(self, {"STEPSCOPE_FORK_SERVER": "0"})
        # Object address numbers included (`<zip object at 0x2>`): every child starts from the
        # same heap, whichever server forked it (python/README.md, the fork server).
        a, b = _without_times(forked), _without_times(spawned)
        self.assertEqual(len(a), len(b))
        differ = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
        self.assertEqual(differ, [], "first differing line: %r / %r" % (
            a[differ[0]][:300], b[differ[0]][:300]) if differ else "")

    def test_all_800_tasks_return_the_expected_output(self):
        with open(DATA, encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.strip()]
        self.assertEqual(len(records), 800)
        stderr, path = self.recording()
        traces = read_traces(path)
        self.assertIn("recorded 800 traces", stderr)
        self.assertIn("exits: normal 800, error 0, never 0", stderr)
        self.assertEqual([h["name"] for h, _, _ in traces], [rec["id"] for rec in records])
        wrong = []
        for (header, events, end), rec in zip(traces, records):
            self.assertEqual(end["exit"], "normal", rec["id"])
            self.assertEqual(header["meta"], {"task": "cruxeval", "id": rec["id"],
                                              "input": rec["input"], "output": rec["output"]})
            self.assertEqual(header["call"], "f(%s)" % rec["input"])
            calling_line = events[1]
            self.assertEqual((calling_line["func"], calling_line["event"]), ("main", "line"))
            returns = [e for e in events if e["event"] == "return" and e["func"] == "f"
                       and e["parent"] == calling_line["seq"]]
            self.assertEqual(len(returns), 1, rec["id"])
            if ast.literal_eval(returns[0]["arg"]) != ast.literal_eval(rec["output"]):
                wrong.append((rec["id"], returns[0]["arg"], rec["output"]))
        self.assertEqual(wrong, [])
