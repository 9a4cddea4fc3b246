"""Isolation and limits: what a user sees when a program misbehaves."""
import json
import os
import tempfile
import unittest

from .helpers import read_traces, record_one, record_source, run_recorder


class Limits(unittest.TestCase):
    def test_output_flood_is_counted_not_stored(self):
        header, events, end = record_one("flood.py")
        self.assertEqual(end["exit"], "normal")
        self.assertEqual(end["stdout_bytes"], 800 * 65536)
        self.assertEqual(end["events"], len(events))

    def test_infinite_loop_hits_the_time_limit(self):
        header, events, end = record_one("infinite.py", "--call", "spin()", "--timeout", "1")
        self.assertEqual((end["exit"], end["reason"]), ("never", "time limit 1s"))
        self.assertGreater(len(events), 100)
        self.assertEqual(header["limits"]["seconds"], 1.0)

    def test_parent_kills_a_child_that_cannot_stop_itself(self):
        # SIGALRM blocked and no events: only the parent's kill can end it.
        src = ("import signal, time\n"
               "def stuck():\n"
               "    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})\n"
               "    time.sleep(60)\n")
        header, events, end = record_source(src, "stuck()", "--timeout", "1")
        self.assertEqual((end["exit"], end["reason"]), ("never", "time limit 1s"))
        self.assertEqual([e["seq"] for e in events], list(range(len(events))))
        self.assertEqual(events[-1]["src"], "    time.sleep(60)")

    def test_default_deep_recursion_is_an_error_with_a_complete_trace(self):
        src = "def down(n):\n    return down(n + 1)\n"
        header, events, end = record_source(src, "down(0)")
        self.assertEqual(end["exit"], "error")
        self.assertTrue(end["reason"].startswith("RecursionError("), end["reason"])
        calls = [e for e in events if e["event"] == "call"]
        returns = [e for e in events if e["event"] == "return"]
        self.assertGreater(len(calls), 900)
        self.assertEqual(len(calls), len(returns))  # every frame's exit was recorded
        self.assertIsNone(returns[-1]["arg"])
        self.assertEqual(events[-1]["func"], "main")

    def test_program_sees_its_own_recursion_limit(self):
        src = "import sys\ndef f():\n    n = sys.getrecursionlimit()\n    return n\n"
        header, events, end = record_source(src, "f()")
        self.assertEqual(events[-1]["arg"], "1000")

    def test_a_crash_does_not_stop_the_next_task(self):
        with tempfile.TemporaryDirectory() as tmp:
            progs = {"a.py": "import os\nos.kill(os.getpid(), 9)\n",
                     "b.py": "def f(x):\n    return x * 2\n"}
            for name, text in progs.items():
                with open(os.path.join(tmp, name), "w") as f:
                    f.write(text)
            with open(os.path.join(tmp, "demo.json"), "w") as f:
                json.dump([{"file": "a.py", "call": None, "title": "crash"},
                           {"file": "b.py", "call": "f(21)", "title": "after"}], f)
            out = os.path.join(tmp, "out.jsonl")
            r = run_recorder("record-demo", tmp, "-o", out, "--jobs", "2")
            self.assertEqual(r.returncode, 0, r.stderr)
            traces = read_traces(out)
        self.assertEqual([h["name"] for h, _, _ in traces], ["a", "b"])
        self.assertEqual((traces[0][2]["exit"], traces[0][2]["reason"]), ("never", "killed by signal 9"))
        self.assertEqual(traces[1][2]["exit"], "normal")
        self.assertEqual(traces[1][1][-1]["arg"], "42")
        self.assertIn("exits: normal 1, error 0, never 1", r.stderr)
