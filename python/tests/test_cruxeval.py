"""All 800 CRUXEval tasks: recorded in input order, every exit normal, and the value f
returns (its `return` event under main's calling line) equals the benchmark's output."""
import ast
import json
import os
import tempfile
import unittest

from .helpers import CRUXEVAL as DATA, GIVEN_CRUXEVAL, read_traces, run_recorder


class CruxEval(unittest.TestCase):
    def test_all_800_tasks_return_the_expected_output(self):
        with open(DATA, encoding="utf-8") as f:
            records = [json.loads(line) for line in f if line.strip()]
        self.assertEqual(len(records), 800)
        given = GIVEN_CRUXEVAL
        if given and os.path.exists(given) and os.path.exists(given + ".stderr"):
            # npm test recorded them once, with this command, for this suite and the
            # TypeScript one (scripts/test-all.mjs), and kept its stderr; it exited 0.
            with open(given + ".stderr", encoding="utf-8") as f:
                stderr = f.read()
            traces = read_traces(given)
        else:
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "crux.jsonl")
                r = run_recorder("record-cruxeval", DATA, "-o", out, "--jobs", "2")
                self.assertEqual(r.returncode, 0, r.stderr)
                stderr = r.stderr
                traces = read_traces(out)
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
