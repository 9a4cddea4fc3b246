"""Command-line behaviour: help, bad input reported by file and line, nothing half-written."""
import json
import os
import tempfile
import unittest

from .helpers import PROGRAMS, read_traces, run_recorder


class Cli(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dir = self.tmp.name

    def test_help_on_every_command(self):
        for cmd, words in {"record": ["--call", "--max-events", "--timeout", "--max-memory",
                                      "--max-repr", "--hashseed", "--"],
                           "record-cruxeval": ["--jobs", "--limit", "--timeout"],
                           "record-demo": ["demo.json", "--jobs"]}.items():
            r = run_recorder(cmd, "--help")
            self.assertEqual(r.returncode, 0)
            for w in words:
                self.assertIn(w, r.stdout, cmd)

    def test_bad_cruxeval_line_is_named_and_nothing_written(self):
        data = os.path.join(self.dir, "bad.jsonl")
        with open(data, "w") as f:
            f.write(json.dumps({"id": "a", "code": "def f(x):\n    return x", "input": "1", "output": "1"}) + "\n")
            f.write('{"id": "b", "code": 3}\n')
        out = os.path.join(self.dir, "out.jsonl")
        r = run_recorder("record-cruxeval", data, "-o", out)
        self.assertEqual(r.returncode, 2)
        self.assertIn("bad.jsonl:2: expected an object with string fields", r.stderr)
        self.assertEqual(os.listdir(self.dir), ["bad.jsonl"])

    def test_invalid_json_line(self):
        data = os.path.join(self.dir, "bad.jsonl")
        with open(data, "w") as f:
            f.write("{not json\n")
        r = run_recorder("record-cruxeval", data, "-o", os.path.join(self.dir, "o.jsonl"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("bad.jsonl:1: expected a JSON object", r.stderr)

    def test_missing_program(self):
        r = run_recorder("record", os.path.join(self.dir, "nope.py"), "-o", os.path.join(self.dir, "o.jsonl"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("nope.py: no such file", r.stderr)

    def test_multiline_call_is_refused(self):
        r = run_recorder("record", os.path.join(PROGRAMS, "recursion.py"), "--call", "fact(\n3)",
                         "-o", os.path.join(self.dir, "o.jsonl"))
        self.assertEqual(r.returncode, 2)
        self.assertIn("one line", r.stderr)

    def test_cruxeval_limit_and_order(self):
        data = os.path.join(self.dir, "d.jsonl")
        with open(data, "w") as f:
            for i in range(5):
                f.write(json.dumps({"id": "t%d" % i, "code": "def f(x):\n    return x * %d" % i,
                                    "input": str(i), "output": str(i * i)}) + "\n")
        out = os.path.join(self.dir, "o.jsonl")
        r = run_recorder("record-cruxeval", data, "-o", out, "--jobs", "3", "--limit", "4")
        self.assertEqual(r.returncode, 0, r.stderr)
        traces = read_traces(out)
        self.assertEqual([h["name"] for h, _, _ in traces], ["t0", "t1", "t2", "t3"])
        self.assertEqual([ev[-2]["arg"] for _, ev, _ in traces], ["0", "1", "4", "9"])

    def test_script_arguments_and_syntax_error(self):
        prog = os.path.join(self.dir, "p.py")
        with open(prog, "w") as f:
            f.write("import sys\nargs = sys.argv[1:]\n")
        out = os.path.join(self.dir, "o.jsonl")
        r = run_recorder("record", prog, "-o", out, "--", "x", "--y")
        self.assertEqual(r.returncode, 0, r.stderr)
        (header, events, end), = read_traces(out)
        self.assertEqual(events[-1]["locals"]["args"], "['x', '--y']")
        with open(prog, "w") as f:
            f.write("def f(:\n")
        r = run_recorder("record", prog, "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        (header, events, end), = read_traces(out)
        self.assertEqual((events, end["exit"]), ([], "error"))
        self.assertTrue(end["reason"].startswith("SyntaxError("))
