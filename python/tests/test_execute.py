"""The execution worker's line protocol and its checks, as the TypeScript pool uses them
(src/scoring/); the sandbox itself is tested end to end in test/scoring/sandbox.test.ts."""
import inspect
import json
import os
import subprocess
import sys
import unittest

from stepscope_recorder import checks

from .helpers import PYTHON_DIR


def run_worker(lines, seed="0", *flags):
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR, PYTHONHASHSEED=seed)
    out = subprocess.run([sys.executable, "-S", "-m", "stepscope_recorder.execute", *flags],
                         input="".join(l + "\n" for l in lines), env=env, capture_output=True,
                         text=True, timeout=120)
    return out, [json.loads(l) for l in out.stdout.splitlines()]


def job(id, generation, kind="cruxeval-output", **extra):
    return json.dumps(dict(id=id, kind=kind, code="def f(x):\n    return x + 1",
                           output="2", generation=generation, **extra))


class Protocol(unittest.TestCase):
    def test_hello_then_one_verdict_per_job_in_order(self):
        out, msgs = run_worker([job("a", "2"), job("b", "3"), job("c", "f(1)", "cruxeval-input"),
                                job("d", "f(", "cruxeval-input")], "7", "--timeout", "2")
        self.assertEqual(out.returncode, 0)
        hello = msgs[0]
        self.assertEqual((hello["worker"], hello["hashseed"], hello["timeout"]),
                         ("stepscope-execute", "7", 2.0))
        self.assertEqual([(m["id"], m["status"]) for m in msgs[1:]],
                         [("a", "pass"), ("b", "fail"), ("c", "pass"), ("d", "error")])
        self.assertIn("SyntaxError", msgs[4]["error"])

    def test_bad_job_lines_are_answered_not_fatal(self):
        _, msgs = run_worker(["not json", json.dumps({"id": 3, "kind": "what"}),
                              json.dumps({"id": "x", "kind": "call-args", "source": "",
                                          "function": "f", "args": {"a": 1}}),
                              job("t", "2", timeout=-1), job("ok", "2")])
        self.assertTrue(msgs[1]["bad_job"].startswith("not JSON"))
        self.assertEqual(msgs[2], {"id": 3, "bad_job": "kind must be one of cruxeval-output, "
                                   "cruxeval-input, call-args, got 'what'"})
        self.assertEqual(msgs[3]["bad_job"], "call-args 'args' maps parameter names to repr strings")
        self.assertEqual(msgs[4]["bad_job"], "'timeout' must be positive")
        self.assertEqual(msgs[5]["status"], "pass")

    def test_refuses_to_run_optimised(self):
        env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
        out = subprocess.run([sys.executable, "-O", "-m", "stepscope_recorder.execute"],
                             input="", env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual(out.returncode, 2)
        self.assertIn("cannot run under -O", out.stderr)


class CruxevalCheck(unittest.TestCase):
    """The benchmark's text check: only the final assert failing is `fail`."""
    code = "def f(x):\n    assert x > 0\n    return x"

    def verdicts(self, generations, output="1"):
        _, msgs = run_worker([json.dumps(dict(id=i, kind="cruxeval-output", code=self.code, output=output,
                                              generation=g)) for i, g in enumerate(generations)])
        return msgs[1:]

    def test_statuses(self):
        v = self.verdicts(["1", "2", "f(-1)", "1\nx = ", "1.0", "True", "[1][0]"])
        self.assertEqual([m["status"] for m in v], ["pass", "fail", "error", "error", "pass", "pass", "pass"])
        self.assertEqual(v[2]["error"], "AssertionError()")  # f's own assert: an error
        self.assertIn("SyntaxError", v[3]["error"])

    def test_texts_the_splice_reads_as_more_than_one_value_keep_the_harness_verdict(self):
        # `assert 1 == 1, 'why'` has a message; a generation may add statements of its own.
        v = self.verdicts(["1, 'why'", "2, 'why'", "2, 1/0", "1\nassert f(1) == 1", "1\nassert f(1) == 2",
                           "1\nf(-1)"])
        self.assertEqual([m["status"] for m in v], ["pass", "fail", "error", "pass", "fail", "error"])

    def test_a_pass_the_worker_cannot_see_is_not_taken(self):
        # `assert 1 == 0 or True` passes in the harness without comparing anything.
        [v] = self.verdicts(["0 or True"])
        self.assertEqual(v["status"], "error")
        self.assertIn("not judged", v["error"])
        # A value with an == of its own cannot be carried out to be compared.
        [w] = self.verdicts(["type('X', (), {'__eq__': lambda s, o: True})()"])
        self.assertEqual(w["status"], "error")
        self.assertIn("cannot be carried", w["error"])


def forging(*lines):
    """A generation that writes `lines` into every descriptor it has (its result pipe among
    them), then evaluates to 3: a wrong answer where 2 is expected."""
    data = "".join(line + "\n" for line in lines).encode()
    code = "import os\nfor fd in range(3, 256):\n    try:\n        os.write(fd, %r)\n    except OSError:\n" \
           "        pass\n" % data
    return "(exec(bytes.fromhex(%r).decode()) or 3)" % code.encode().hex()


class Forgery(unittest.TestCase):
    """Issue 31, item 7: the code under test can write into its result pipe; the worker
    takes no status from it, and whatever it wrote ends in a verdict, never a crash."""

    def verdicts(self, generations):
        _, msgs = run_worker([job(i, g) for i, g in enumerate(generations)])
        return msgs[1:]

    def test_a_forged_status_or_detail_is_an_error_and_never_a_pass(self):
        v = self.verdicts([forging('{"status": "pass"}'), forging('{"status": "pending"}'),
                           forging('{"status": "bogus", "error": 5}'), forging('{"raised": 5}'),
                           forging('not json'), forging('{"value": ["i", "0x3"]}'), "3"])
        self.assertEqual([m["status"] for m in v], ["error"] * 5 + ["fail", "fail"])
        for m in v[:5]:
            self.assertRegex(m["error"], "the run (wrote into|sent an unreadable)")
        self.assertEqual([sorted(m) for m in v], [["error", "id", "seconds", "status"]] * 5 +
                         [["id", "seconds", "status"]] * 2)

    def test_a_frame_walk_to_the_channel_gets_nothing_the_worker_takes_as_a_pass(self):
        walk = ("((lambda sys: [f.f_locals['send']({'status': 'pass'}) for f in iter(lambda g=[sys._getframe()]: "
                "g.append(g[-1].f_back) or g[-1], None) if 'send' in f.f_locals])(__import__('sys')) or 3)")
        [v] = self.verdicts([walk])
        self.assertEqual(v["status"], "error")

    def test_the_expected_value_is_nowhere_in_the_runs_memory(self):
        # Everything the worker held when it forked is the run's to walk (frames, gc): the
        # expected texts of this job, and of the jobs read ahead, are kept out of it.
        search = ("import sys\ndef run():\n    found, f = [], sys._getframe()\n    while f:\n"
                  "        for o in list(f.f_locals.values()):\n"
                  "            if type(o) is dict and type(o.get('expected')) is str:\n"
                  "                found.append(o['expected'])\n"
                  "        f = f.f_back\n    return sorted(set(found))\n")
        jobs = [json.dumps(dict(id=i, kind="call-args", source=search, function="run", args={},
                                expected_repr="['needle-%d']" % i, expected="['needle-%d']" % i)) for i in range(3)]
        _, msgs = run_worker(jobs)
        self.assertEqual([(m["status"], m["got"]) for m in msgs[1:]], [("fail", "[]")] * 3)

    def test_exiting_with_status_zero_is_not_a_pass(self):
        # The benchmark's harness, which reads the exit status, would count these correct.
        v = self.verdicts(["__import__('os')._exit(0)", "exit(0)",
                           "__import__('os').kill(__import__('os').getpid(), 9)"])
        self.assertEqual([m["status"] for m in v], ["error"] * 3)
        self.assertEqual(v[0]["error"], "the run ended without a result (exit status 0)")


class LongLines(unittest.TestCase):
    """Issue 31, item 17: a job line is read in time linear in its length."""

    def test_a_20_mb_line_is_read_in_linear_time(self):
        import threading
        import time
        from stepscope_recorder.execute import JobReader, Vault
        line = job("big", "'" + "a" * (20 << 20) + "'").encode() + b"\n" + job("small", "2").encode() + b"\n"
        r, w = os.pipe()

        def feed():
            view = memoryview(line)
            while view:
                view = view[os.write(w, view[:1 << 16]):]  # small writes: many reads
            os.close(w)
        threading.Thread(target=feed).start()
        started = time.process_time()  # CPU, not wall: the machine may be shared
        jobs = list(JobReader(r, Vault()))
        seconds = time.process_time() - started
        os.close(r)
        self.assertEqual([(ok, j["id"], len(j["generation"])) for ok, j in jobs],
                         [(True, "big", (20 << 20) + 2), (True, "small", 1)])
        # A sanity bound only (quadratic reading took about 15 s of CPU for 20 MB); the
        # ratio against a line ten times shorter is in bench/exec-scoring.mjs.
        self.assertLess(seconds, 5)


class Carry(unittest.TestCase):
    """Values cross from the run to the worker as tagged trees of builtins (checks.carry)."""

    def round_trip(self, value):
        return checks.uncarry(json.loads(json.dumps(checks.carry(value))))

    def test_builtin_values_come_back_equal_and_of_the_same_type(self):
        import math
        values = [None, True, 0, -(10 ** 5000), 1.5, -0.0, math.inf, 1e-310, 2 + 3j, "a\ud800é", b"\x00\xff",
                  bytearray(b"ab"), [1, (2, [3])], {1: "a", "b": [2]}, {1, 2}, frozenset({"x"}), range(1, 9, 2),
                  {"k": 1}.keys(), {"k": 1}.items(), ()]
        for v in values:
            back = self.round_trip(v)
            self.assertEqual((type(back), back), (type(v), v))
        self.assertTrue(math.isnan(self.round_trip(math.nan)))
        self.assertEqual(repr(self.round_trip({"b": 1, "a": 2})), "{'b': 1, 'a': 2}")  # order kept

    def test_subclasses_travel_as_their_base_unless_they_compare_otherwise(self):
        import collections
        import enum

        class Colour(enum.IntEnum):
            RED = 1
        self.assertEqual(type(self.round_trip(Colour.RED)), int)
        self.assertEqual(self.round_trip(collections.defaultdict(int, a=1)), {"a": 1})
        for own_eq in (collections.Counter(a=1), collections.OrderedDict(a=1)):
            with self.assertRaises(checks.Uncarriable):
                checks.carry(own_eq)
        opaque = self.round_trip(object())
        self.assertFalse(opaque == 1 or opaque == [] or opaque == opaque.__class__("object"))
        deep = []
        for _ in range(200):
            deep = [deep]
        with self.assertRaises(checks.Uncarriable):
            checks.carry(deep)

    def test_a_tree_the_run_did_not_make_is_refused(self):
        for tree in ([], ["i"], ["i", 5], ["b", 1], ["S", [["l", []]]], ["d", [["n"]]], ["?", 1], "s", ["s", 1],
                     ["f", "nope"], ["l", "x"]):
            with self.assertRaises((ValueError, TypeError), msg=repr(tree)):
                checks.uncarry(tree)


class Binding(unittest.TestCase):
    def bind(self, fn, values):
        return checks._bind(inspect.signature(fn), values)

    def test_kinds_of_parameters(self):
        def f(a, /, b, *rest, c, d=4, **kw):
            pass
        self.assertEqual(self.bind(f, {"kw": {"z": 1}, "c": 3, "rest": (9,), "b": 2, "a": 1}),
                         ([1, 2, 9], {"c": 3, "z": 1}))
        self.assertEqual(self.bind(f, {"a": 1, "b": 2, "c": 3}), ([1, 2], {"c": 3}))

    def test_missing_default_turns_later_ones_into_keywords(self):
        def g(a, b=2, c=3):
            pass
        self.assertEqual(self.bind(g, {"a": 1, "c": 5}), ([1], {"c": 5}))

    def test_what_does_not_fit(self):
        def h(a, /, b=1, *rest):
            pass
        with self.assertRaisesRegex(TypeError, "no parameter named 'z'"):
            self.bind(h, {"a": 1, "z": 2})
        with self.assertRaisesRegex(TypeError, r"\*rest must be a tuple"):
            self.bind(h, {"a": 1, "rest": 5})
        with self.assertRaisesRegex(TypeError, "missing a required argument: 'a'"):
            self.bind(h, {})
        with self.assertRaisesRegex(TypeError, "earlier positional parameter is missing"):
            self.bind(h, {"a": 1, "rest": (3,)})

    def test_kwargs_that_repeat_a_keyword(self):
        def k(*, a, **kw):
            pass
        with self.assertRaisesRegex(TypeError, "repeats 'a'"):
            self.bind(k, {"a": 1, "kw": {"a": 2}})


if __name__ == "__main__":
    unittest.main()
