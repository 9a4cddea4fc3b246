"""Counterfactuals (stepscope_recorder counterfactual): each edit is checked against an
independent recording of the same change, the program with the assignment written into its
source on the line that runs just before the edited state (the line count kept), recorded
normally. From the edited state on, the two must agree event by event except for `src`."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import unittest

from .helpers import CRUXEVAL, PYTHON_DIR, read_traces, run_recorder


def _find(events, **want):
    for e in events:
        if all(e.get(k) == v if k != "locals" else all(e["locals"].get(n) == r for n, r in v.items())
               for k, v in want.items()):
            return e["seq"]
    raise AssertionError("no event with %r" % (want,))


def _no_src(events):
    return [dict(e, src=None) for e in events]


class Counterfactual(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = tmp.name
        self.n = 0

    def _file(self, name):
        self.n += 1
        sub = os.path.join(self.dir, str(self.n))
        os.mkdir(sub)
        return os.path.join(sub, name)

    def record(self, source, call=None, name="prog.py"):
        """Records `source` (as a call, or as a script at a path named `name`); returns
        (trace file, header, events, end)."""
        prog = self._file(name)
        with open(prog, "w", encoding="utf-8") as f:
            f.write(source)
        out = self._file("t.jsonl")
        r = run_recorder("record", prog, "-o", out, *(["--call", call] if call else []), "--name", "p")
        self.assertEqual(r.returncode, 0, r.stderr)
        (h, ev, end), = read_traces(out)
        return out, h, ev, end

    def counterfactual(self, origin, seq, *sets):
        out = self._file("cf.jsonl")
        args = ["counterfactual", origin, "-o", out, "--seq", str(seq)]
        for s in sets:
            args += ["--set", s]
        r = run_recorder(*args)
        return r, out

    def made(self, origin, seq, *sets):
        r, out = self.counterfactual(origin, seq, *sets)
        self.assertEqual(r.returncode, 0, r.stderr)
        (h, ev, end), = read_traces(out)
        return json.loads(r.stdout), h, ev, end

    def same_as_written(self, source, call, edited_source, edited_call, seq_of, *sets, name="prog.py"):
        """The counterfactual at the state seq_of(events) agrees with the edited program."""
        origin, h0, ev0, end0 = self.record(source, call, name)
        seq = seq_of(ev0)
        out, h1, ev1, end1 = self.made(origin, seq, *sets)
        _, _, want, want_end = self.record(edited_source, edited_call, name)
        self.assertEqual(ev1[:seq], ev0[:seq], "before the edit: the origin's events")
        self.assertEqual(_no_src(ev1[seq:]), _no_src(want[seq:]), "from the edit: the edited program's")
        self.assertEqual((end1["exit"], end1["reason"], end1["events"]),
                         (want_end["exit"], want_end["reason"], want_end["events"]))
        self.assertEqual(h1["meta"]["counterfactual"], [{"seq": seq, "set": dict(s.split("=", 1) for s in sets)}])
        self.assertEqual((h1["limits"], h1["hashseed"], h1["source"], h1["call"]),
                         (h0["limits"], h0["hashseed"], h0["source"], h0["call"]))
        self.assertEqual(out["first_difference"], seq)
        self.assertEqual(out["exit"], end1["exit"])
        return out, ev1

    # -- edits agree with the same change written into the program ---------------------------
    def test_loop_local_at_a_line_event(self):
        src = "def f(n):\n    acc = 0\n    for i in range(n):\n        acc += i\n    return acc\n"
        edited = src.replace("acc += i\n", "acc += i; acc = (100 if i == 1 else acc)\n")
        out, ev = self.same_as_written(
            src, "f(4)", edited, "f(4)",
            lambda ev: _find(ev, event="line", line=3, locals={"i": "1"}), "acc=100")
        self.assertEqual(ev[-1]["arg"], "105")

    def test_argument_at_the_call_event(self):
        src = "def f(n):\n    acc = 0\n    for i in range(n):\n        acc += i\n    return acc\n"
        self.same_as_written(src, "f(4)", src, "f(2)", lambda ev: _find(ev, event="call", func="f"), "n=2")

    def test_cruxeval_task(self):
        with open(CRUXEVAL, encoding="utf-8") as f:
            task = json.loads(f.readline())
        self.assertEqual(task["id"], "sample_0")
        line = "        output.append((nums.count(n), n))"
        self.assertIn(line, task["code"])
        edited = task["code"].replace(line, line + "; output = ([(9, 9)] if len(output) == 1 else output)")
        call = "f(%s)" % task["input"]
        out, ev = self.same_as_written(
            task["code"], call, edited, call,
            lambda ev: _find(ev, event="line", line=3, locals={"output": "[(4, 1)]"}), "output=[(9, 9)]")
        self.assertIn("(9, 9)", ev[-1]["arg"])

    def test_captured_variable_reaches_the_closure(self):
        # k is a cell (the lambda reads it): the edit must reach the cell, not only a copy.
        src = "def f(k):\n    g = lambda x: x * k\n    return g(2)\n"
        edited = src.replace("x * k\n", "x * k; k = 10\n")
        out, ev = self.same_as_written(src, "f(3)", edited, "f(3)",
                                       lambda ev: _find(ev, event="line", line=3), "k=10")
        self.assertEqual(ev[-1]["arg"], "20")

    def test_script_module_globals(self):
        src = "a = 2\nb = a * 3\nc = [b] * 2\n"
        edited = "a = 2; a = 'xy'\nb = a * 3\nc = [b] * 2\n"
        out, ev = self.same_as_written(src, None, edited, None,
                                       lambda ev: _find(ev, event="line", line=2), "a='xy'")
        self.assertEqual(ev[-1]["locals"]["c"], repr(["xyxyxy"] * 2))

    def test_several_names_and_types(self):
        src = "def f(a, b):\n    c = a + b\n    return c\n"
        edited = "def f(a, b):\n    c = a + b; a = (1, 'x'); b = (None, b'\\x00')\n    return a + b\n"
        origin, _, ev0, _ = self.record(src.replace("return c", "return a + b"), "f(1, 2)")
        seq = _find(ev0, event="line", line=3)
        out, _, ev1, _ = self.made(origin, seq, "a=(1, 'x')", "b=(None, b'\\x00')")
        _, _, want, _ = self.record(edited, "f(1, 2)")
        self.assertEqual(_no_src(ev1[seq:]), _no_src(want[seq:]))
        self.assertEqual(ev1[-1]["arg"], repr((1, "x", None, b"\x00")))

    def test_exception_event(self):
        src = ("def f(x):\n    try:\n        y = 1 // x\n    except ZeroDivisionError:\n        y = -1\n"
               "    return y + x\n")
        origin, _, ev0, _ = self.record(src, "f(0)")
        seq = _find(ev0, event="exception", func="f")
        out, _, ev1, end = self.made(origin, seq, "x=5")
        self.assertEqual(ev1[seq]["locals"]["x"], "5")
        self.assertEqual(ev1[-1]["arg"], "4")  # the handler ran on: y = -1, then -1 + 5

    def test_same_value_changes_nothing(self):
        src = "def f(n):\n    m = n + 1\n    return m\n"
        origin, _, ev0, _ = self.record(src, "f(1)")
        seq = _find(ev0, event="line", line=3)
        out, _, ev1, _ = self.made(origin, seq, "m=2")
        self.assertIsNone(out["first_difference"])
        self.assertEqual(ev1, ev0)

    def test_counterfactual_of_a_counterfactual_keeps_the_first_edit(self):
        src = "def f(n):\n    acc = 0\n    for i in range(n):\n        acc += i\n    return acc\n"
        origin, _, ev0, _ = self.record(src, "f(4)")
        first = _find(ev0, event="line", line=3, locals={"i": "1"})
        r, cf1 = self.counterfactual(origin, first, "acc=100")
        self.assertEqual(r.returncode, 0, r.stderr)
        (_, ev1, _), = read_traces(cf1)
        second = _find(ev1, event="line", line=3, locals={"i": "2"})
        out, h2, ev2, _ = self.made(cf1, second, "acc=0")
        self.assertEqual(h2["meta"]["counterfactual"],
                         [{"seq": first, "set": {"acc": "100"}}, {"seq": second, "set": {"acc": "0"}}])
        self.assertEqual(ev2[:second], ev1[:second])
        self.assertEqual(ev2[-1]["arg"], "3")
        r, _ = self.counterfactual(cf1, first - 1, "acc=0")
        self.assertEqual(r.returncode, 2)
        self.assertIn("must come after it", r.stderr)

    # -- refusals: one line, nothing written --------------------------------------------------
    def refused(self, origin, seq, sets, status, text):
        r, out = self.counterfactual(origin, seq, *sets)
        self.assertEqual(r.returncode, status, r.stderr)
        self.assertIn(text, r.stderr)
        self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        self.assertEqual(r.stdout, "")
        self.assertFalse(os.path.exists(out))
        self.assertEqual(os.listdir(os.path.dirname(out)), [])

    def test_refusals(self):
        src = "def f(n):\n    m = n + 1\n    return m\n"
        origin, _, ev0, _ = self.record(src, "f(1)")
        line3 = _find(ev0, event="line", line=3)
        ret = _find(ev0, event="return", func="f")
        self.refused(origin, line3, ["q=1"], 2, "has no local named q (its locals: n, m)")
        self.refused(origin, line3, ["m=print(1)"], 2, "not a Python literal")
        self.refused(origin, line3, ["m=[1,"], 2, "not a Python literal")
        self.refused(origin, line3, ["m"], 2, "expected NAME=LITERAL")
        self.refused(origin, line3, ["m.x=1"], 2, "expected NAME=LITERAL")
        self.refused(origin, line3, [], 2, "at least one --set")
        self.refused(origin, ret, ["m=1"], 2, "is a return")
        self.refused(origin, len(ev0), ["m=1"], 2, "event %d is past the end" % len(ev0))

    def test_a_nondeterministic_program_is_refused(self):
        src = "import os\n\ndef f():\n    r = os.urandom(8)\n    s = 1\n    return s\n"
        origin, _, ev0, _ = self.record(src, "f()")
        seq = _find(ev0, event="line", line=6)
        self.refused(origin, seq, ["s=2"], 1, "differs from trace 'p' before the edit (event %d differs in "
                     "locals): the program does not run the same way twice" % (seq - 1))


def _without_seconds(path):
    """The trace file's records, the end record's `seconds` (wall time) aside."""
    with open(path, encoding="utf-8") as f:
        recs = [json.loads(line) for line in f]
    return [dict(r, seconds=None) if r["type"] == "end" else r for r in recs]


class Serve(unittest.TestCase):
    """`counterfactual-serve`, the warm recorder: its stored traces equal `counterfactual`'s (a
    recorder of its own, "cold"), a warm run that does not reproduce the origin is recorded
    again cold before anything is refused, and one recorder serves many requests."""
    setUp = Counterfactual.setUp
    _file = Counterfactual._file
    record = Counterfactual.record
    counterfactual = Counterfactual.counterfactual

    def serve(self, **env):
        p = subprocess.Popen([sys.executable, "-m", "stepscope_recorder", "counterfactual-serve"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=dict(os.environ, PYTHONPATH=PYTHON_DIR, **env))

        def close():
            p.stdin.close()
            self.assertEqual(p.wait(30), 0, p.stderr.read())
            p.stdout.close()
            p.stderr.close()
        self.addCleanup(close)
        hello = json.loads(p.stdout.readline())
        self.assertEqual((hello["executable"], hello["ready"]), (sys.executable, True))
        return p, hello

    def ask(self, p, origin, seq, *sets):
        out = self._file("warm.jsonl")
        p.stdin.write(json.dumps({"origin": origin, "out": out, "seq": seq, "set": list(sets)}) + "\n")
        p.stdin.flush()
        return json.loads(p.stdout.readline()), out

    def cold(self, origin, seq, *sets):
        r, out = self.counterfactual(origin, seq, *sets)
        self.assertEqual(r.returncode, 0, r.stderr)
        return json.loads(r.stdout), out

    def test_warm_runs_store_what_a_cold_run_stores(self):
        p, hello = self.serve()
        src = "def f(n):\n    acc = 0\n    for i in range(n):\n        acc += i\n    return acc\n"
        origin, _, ev0, _ = self.record(src, "f(4)")
        seq = _find(ev0, event="line", line=3, locals={"i": "1"})
        p.stdin.write(json.dumps({"prestart": 0}) + "\n")  # not answered
        for value in ("100", "-1", "'x'"):
            answer, out = self.ask(p, origin, seq, "acc=" + value)
            want, cold_out = self.cold(origin, seq, "acc=" + value)
            self.assertEqual(answer["ok"].pop("warm"), hello["fork_server"])
            self.assertIsNone(answer["ok"].pop("fallback"))
            self.assertEqual(answer["ok"], want)
            self.assertEqual(_without_seconds(out), _without_seconds(cold_out))

    def test_a_warm_run_that_differs_is_recorded_again_cold(self):
        # The test hook makes every warm run's first event differ, as a forked child's object
        # address numbers may: the request is not refused, the cold run is stored.
        p, hello = self.serve(STEPSCOPE_TEST_WARM_SKEW="1")
        if not hello["fork_server"]:
            self.skipTest("no fork server here (not Linux)")
        src = "class A:\n    pass\n\ndef f(n):\n    a = A()\n    b = [a] * n\n    return b\n"
        origin, _, ev0, _ = self.record(src, "f(2)")
        seq = _find(ev0, event="line", line=7)
        self.assertIn(" at 0x1>", ev0[seq]["locals"]["a"])
        answer, out = self.ask(p, origin, seq, "n=3")
        want, cold_out = self.cold(origin, seq, "n=3")
        self.assertFalse(answer["ok"].pop("warm"))
        self.assertIn("event 0 differs in line", answer["ok"].pop("fallback"))
        self.assertEqual(answer["ok"], want)
        self.assertEqual(_without_seconds(out), _without_seconds(cold_out))
        self.assertEqual(read_traces(out)[0][1][0], ev0[0])

    def test_refusals_are_answered_and_the_recorder_stays(self):
        p, _ = self.serve()
        src = "import os\n\ndef f():\n    r = os.urandom(8)\n    s = 1\n    return s\n"
        origin, _, ev0, _ = self.record(src, "f()")
        seq = _find(ev0, event="line", line=6)
        answer, out = self.ask(p, origin, seq, "s=2")
        self.assertEqual(answer["kind"], "not-reproduced")
        self.assertIn("differs from trace 'p' before the edit", answer["error"])
        self.assertFalse(os.path.exists(out))
        answer, out = self.ask(p, origin, seq, "zz=2")
        self.assertEqual(answer, {"error": "event %d (f#1 line 6): the frame has no local named zz (its locals: r, s)"
                                  % seq, "kind": "bad-input"})
        answer, out = self.ask(p, origin, len(ev0) + 5, "s=2")
        self.assertEqual(answer["kind"], "bad-input")
        p.stdin.write("not json\n")
        p.stdin.flush()
        self.assertEqual(json.loads(p.stdout.readline())["kind"], "failed")
        src = "def f(n):\n    m = n + 1\n    return m\n"
        origin, _, ev0, _ = self.record(src, "f(1)")
        answer, out = self.ask(p, origin, _find(ev0, event="line", line=3), "m=7")
        self.assertEqual(answer["ok"]["events"], len(ev0))
        self.assertEqual(read_traces(out)[0][1][-1]["arg"], "7")

    def test_a_killed_fork_server_is_replaced(self):
        # A traced program may kill the warm interpreter it was forked from: that request is
        # recorded by a child of its own, and the next one by a new fork server.
        p, hello = self.serve()
        if not hello["fork_server"]:
            self.skipTest("no fork server here (not Linux)")
        src = "def f(n):\n    m = n + 1\n    return m\n"
        origin, _, ev0, _ = self.record(src, "f(1)")
        seq = _find(ev0, event="line", line=3)
        answer, _ = self.ask(p, origin, seq, "m=5")
        self.assertTrue(answer["ok"]["warm"])

        def servers():
            return subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
        first = servers()
        self.assertEqual(len(first), 1)
        os.kill(int(first[0]), signal.SIGKILL)
        for value in ("6", "7"):
            answer, out = self.ask(p, origin, seq, "m=" + value)
            self.assertEqual(read_traces(out)[0][1][-1]["arg"], value)
        now = servers()
        self.assertEqual(len(now), 1)
        self.assertNotEqual(now, first)


if __name__ == "__main__":
    unittest.main()
