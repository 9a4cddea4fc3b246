"""Value rendering (values.py, docs/trace-format.md "Values" and "Text"): cutting at the
boundary lengths, reprs that raise anything, and text that is not Unicode."""
import json
import unittest

from stepscope_recorder.values import Values

from .helpers import record_source


class Meta(type):
    @property
    def __name__(cls):
        raise SystemExit("no name")


class Raising:
    def __init__(self, exc):
        self.exc = exc

    def __repr__(self):
        raise self.exc


class Cutting(unittest.TestCase):
    def test_limit_minus_one_and_limit_are_kept_limit_plus_one_is_cut(self):
        v = Values(10)
        self.assertEqual(v.repr("x" * 7), ("'xxxxxxx'", False))          # 9 characters
        self.assertEqual(v.repr("x" * 8), ("'xxxxxxxx'", False))         # 10: exactly the limit
        self.assertEqual(v.repr("x" * 9), ("'xxxxxxxxx\u2026<cut 1 chars>", True))  # 11

    def test_the_count_is_of_characters_not_bytes(self):
        self.assertEqual(Values(4).repr("éé"), ("'éé'", False))
        self.assertEqual(Values(3).repr("éé"), ("'éé\u2026<cut 1 chars>", True))


class Raisers(unittest.TestCase):
    def test_a_repr_raising_any_base_exception_is_a_repr_failure(self):
        for exc in (SystemExit(3), KeyboardInterrupt(), GeneratorExit(), ValueError("v")):
            self.assertEqual(Values(100).repr(Raising(exc)), ("<repr failed: Raising>", False), exc)

    def test_the_failure_marker_is_never_cut(self):
        self.assertEqual(Values(5).repr(Raising(ValueError())), ("<repr failed: Raising>", False))

    def test_a_type_whose_name_raises(self):
        self.assertEqual(Values(100).repr(Meta("Odd", (Raising,), {})(SystemExit())),
                         ("<repr failed: Odd>", False))


class Surrogates(unittest.TestCase):
    def test_lone_surrogates_are_spelt_out_pairs_of_code_points_too(self):
        class R:
            def __init__(self, text):
                self.text = text

            def __repr__(self):
                return self.text
        v = Values(100)
        self.assertEqual(v.repr(R("a\ud800b")), ("a\\ud800b", False))
        self.assertEqual(v.repr(R("\udcff")), ("\\udcff", False))
        # Two surrogate code points are not the character they would pair into.
        self.assertEqual(v.repr(R("\ud83d\ude00")), ("\\ud83d\\ude00", False))
        self.assertEqual(v.repr(R("😀")), ("😀", False))
        self.assertEqual(v.repr("\ud800"), ("'\\ud800'", False))  # repr of a str escapes it already


RECORDED = '''\
class Bad:
    def __repr__(self):
        raise SystemExit("no repr")


class Lone:
    def __repr__(self):
        return "a\\ud800b"


def near(k):
    short = "x" * (k - 1)
    exact = "x" * k
    over = "x" * (k + 1)
    bad = Bad()
    lone = Lone()
    return exact


def fails(k):
    raise ValueError("y" * k)


def main_(k):
    a = near(k - 2)
    try:
        fails(k)
    except ValueError:
        pass
    b = near(k - 1)
    return lone_arg(Lone())


def lone_arg(x):
    return x
'''


class Recorded(unittest.TestCase):
    """The same rules through the tracer's fast and careful paths, in a real recording."""

    @classmethod
    def setUpClass(cls):
        # --max-repr 10: "x" * 8 has a 10-character repr.
        cls.header, cls.events, cls.end = record_source(RECORDED, "main_(10)", "--max-repr", "10")

    def test_the_run_is_not_broken_by_a_repr_raising_system_exit(self):
        self.assertEqual((self.end["exit"], self.end["reason"]), ("normal", None))

    def test_locals_at_the_boundary(self):
        ret = [e for e in self.events if e["func"] == "near" and e["event"] == "return"][0]
        self.assertEqual(ret["locals"]["short"], "'xxxxxxx'")
        self.assertEqual(ret["locals"]["exact"], "'xxxxxxxx'")
        self.assertEqual(ret["locals"]["over"], "'xxxxxxxxx\u2026<cut 1 chars>")
        self.assertEqual(ret["locals"]["bad"], "<repr failed: Bad>")
        self.assertEqual(ret["locals"]["lone"], "a\\ud800b")
        self.assertEqual(ret["cut"], ["over"])
        self.assertEqual(ret["arg"], "'xxxxxxxx'")

    def test_return_and_exception_values_at_the_boundary(self):
        rets = [e for e in self.events if e["func"] == "near" and e["event"] == "return"]
        self.assertEqual((rets[1]["arg"], rets[1]["cut"]), ("'xxxxxxxxx\u2026<cut 1 chars>", ["exact", "over", "<arg>"]))
        self.assertEqual(rets[1]["locals"]["bad"], "<repr failed: Bad>")  # a marker, not cut
        exc = [e for e in self.events if e["func"] == "fails" and e["event"] == "exception"][0]
        self.assertEqual(exc["arg"], "ValueError\u2026<cut 14 chars>")  # ValueError('yyyyyyyyyy'): 24
        self.assertEqual(exc["cut"], ["<arg>"])

    def test_a_lone_surrogate_is_written_as_text(self):
        last = self.events[-1]
        self.assertEqual((last["func"], last["arg"]), ("main", "a\\ud800b"))
        self.assertIn('"arg": "a\\\\ud800b"', json.dumps(last))


class EventLimit(unittest.TestCase):
    """A program of exactly K events under --max-events K-1, K and K+1."""
    SOURCE = "def f():\n    a = 1\n    return a\n"  # main call, line; f call, 2 lines, return; main return

    def test_limit_minus_one_stops_limit_and_above_finish(self):
        k = len(record_source(self.SOURCE, "f()")[1])
        self.assertEqual(k, 7)
        for limit, want in ((k - 1, ("never", "event limit 6", 6)), (k, ("normal", None, 7)),
                            (k + 1, ("normal", None, 7))):
            header, events, end = record_source(self.SOURCE, "f()", "--max-events", str(limit))
            self.assertEqual((end["exit"], end["reason"], len(events)), want, limit)
