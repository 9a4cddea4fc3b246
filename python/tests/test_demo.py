"""The built-in demo corpus (resources/demo) records cleanly and stays small."""
import json
import os
import sys
import tempfile
import unittest

from .helpers import REPO, read_traces, run_recorder

DEMO = os.path.join(REPO, "resources", "demo")


class Demo(unittest.TestCase):
    def test_manifest_lists_short_existing_programs(self):
        with open(os.path.join(DEMO, "demo.json"), encoding="utf-8") as f:
            items = json.load(f)
        self.assertGreaterEqual(len(items), 12)
        for item in items:
            self.assertEqual(set(item), {"file", "call", "title"})
            with open(os.path.join(DEMO, item["file"]), encoding="utf-8") as f:
                n = len(f.read().splitlines())
            self.assertTrue(5 <= n <= 40, "%s has %d lines" % (item["file"], n))

    def test_record_demo_records_every_program(self):
        with open(os.path.join(DEMO, "demo.json"), encoding="utf-8") as f:
            items = json.load(f)
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "demo.jsonl")
            r = run_recorder("record-demo", DEMO, "-o", out, "--jobs", "2")
            self.assertEqual(r.returncode, 0, r.stderr)
            traces = read_traces(out)
        self.assertEqual([h["meta"]["file"] for h, _, _ in traces], [i["file"] for i in items])
        exits = {h["name"]: end["exit"] for h, _, end in traces}
        self.assertEqual(exits.pop("parse_error"), "error")  # the uncaught-exception demo
        self.assertEqual(set(exits.values()), {"normal"})
        for header, events, end in traces:
            self.assertLess(len(events), 2000, header["name"])
            self.assertEqual(header["meta"]["task"], "demo")
        funcs = {e["func"] for _, events, _ in traces for e in events}
        for wanted in ("<lambda>", "<genexpr>", "<module>", "tick", "primes"):
            self.assertIn(wanted, funcs)
        comps = {"<listcomp>", "<dictcomp>"}
        if sys.version_info < (3, 12):
            self.assertLessEqual(comps, funcs)
            return
        # PEP 709 (3.12): list, dict and set comprehensions run inline in their function's
        # frame. The squares demo has no frame of its own for them; its comprehension
        # variable shows among evens_squared's locals while the comprehension runs.
        self.assertEqual(comps & funcs, set())
        [squares] = [events for h, events, _ in traces if h["meta"]["file"] == "squares_comp.py"]
        self.assertEqual({e["func"] for e in squares}, {"main", "evens_squared"})
        inline = [e["locals"]["n"] for e in squares if e["func"] == "evens_squared" and "n" in e["locals"]]
        self.assertEqual(inline[:3], ["1", "2", "3"])
