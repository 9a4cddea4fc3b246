"""Command-line behaviour: help, bad input reported by file and line, nothing half-written."""
import io
import json
import os
import pty
import subprocess
import sys
import tempfile
import unittest

from stepscope_recorder.cli import Progress

from .helpers import PROGRAMS, PYTHON_DIR, read_traces, run_recorder


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

    def test_cruxeval_without_a_file_records_the_bundled_benchmark(self):
        out = os.path.join(self.dir, "o.jsonl")
        r = run_recorder("record-cruxeval", "-o", out, "--limit", "3")
        self.assertEqual(r.returncode, 0, r.stderr)
        traces = read_traces(out)
        self.assertEqual([h["name"] for h, _, _ in traces], ["sample_0", "sample_1", "sample_2"])
        self.assertEqual(traces[0][0]["meta"]["output"], "[(4, 1), (4, 1), (4, 1), (4, 1), (2, 3), (2, 3)]")
        # stderr is a pipe here: the summary line and no progress line.
        self.assertEqual(r.stderr.splitlines(), [r.stderr.strip()])
        self.assertNotIn("\r", r.stderr)
        self.assertNotIn("3/3", r.stderr)
        self.assertIn("resources/cruxeval/cruxeval.jsonl", run_recorder("record-cruxeval", "--help").stdout)

    def test_cruxeval_shows_progress_on_a_terminal(self):
        out = os.path.join(self.dir, "o.jsonl")
        main, sub = pty.openpty()
        try:
            p = subprocess.run([sys.executable, "-m", "stepscope_recorder", "record-cruxeval", "-o", out,
                                "--limit", "3"], env=dict(os.environ, PYTHONPATH=PYTHON_DIR),
                               stdout=subprocess.DEVNULL, stderr=sub, timeout=120)
            os.close(sub)
            seen = b""
            while True:
                try:
                    chunk = os.read(main, 4096)
                except OSError:  # EIO: the terminal's other side is closed and drained
                    break
                if not chunk:
                    break
                seen += chunk
        finally:
            os.close(main)
        self.assertEqual(p.returncode, 0, seen)
        text = seen.decode()
        for n in (1, 2, 3):
            self.assertIn("\r\x1b[Krecorded %d/3" % n, text)
        # The progress line is erased before the summary, which ends the output.
        self.assertRegex(text, r"recorded 3/3\r\x1b\[Krecorded 3 traces, \d+ events; exits: normal 3")

    def test_progress_writes_only_to_a_terminal(self):
        class Terminal(io.StringIO):
            def isatty(self):
                return True

        tty, pipe = Terminal(), io.StringIO()
        for stream in (tty, pipe):
            progress = Progress(stream, 800)
            for _ in range(312):
                progress.step()
            progress.clear()
        self.assertEqual(pipe.getvalue(), "")
        self.assertTrue(tty.getvalue().startswith("\r\x1b[Krecorded 1/800\r\x1b[Krecorded 2/800"))
        self.assertTrue(tty.getvalue().endswith("\r\x1b[Krecorded 312/800\r\x1b[K"))
        # Nothing recorded, nothing to erase.
        idle = Terminal()
        Progress(idle, 800).clear()
        self.assertEqual(idle.getvalue(), "")

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
