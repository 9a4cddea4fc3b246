"""Value rendering (values.py, docs/trace-format.md "Values" and "Text"): cutting at the
boundary lengths, reprs that raise anything, and text that is not Unicode."""
import json
import unittest

from stepscope_recorder.values import Values

from .helpers import record_one, record_source


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


class VerdictText(unittest.TestCase):
    """An execution verdict's error text is cut at 500 characters (enough to say what went
    wrong, too short to carry a file out) by the same rule as reprs: limit-1 and limit kept
    whole, limit+1 cut with the count."""

    def test_boundary_lengths(self):
        from stepscope_recorder.sandbox import cut
        self.assertEqual(cut("g" * 499), "g" * 499)
        self.assertEqual(cut("g" * 500), "g" * 500)
        self.assertEqual(cut("g" * 501), "g" * 500 + "\u2026<cut 1 chars>")
        self.assertEqual(cut("abcdef", 5), "abcde\u2026<cut 1 chars>")
        self.assertEqual(cut("abcde", 5), "abcde")


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


class Recorded(unittest.TestCase):
    """The same rules through the tracer's fast and careful paths, in a real recording of
    programs/repr_boundaries.py (also a golden trace; these checks say what matters in it)."""

    @classmethod
    def setUpClass(cls):
        # --max-repr 10: "x" * 8 has a 10-character repr, E("yyyyy") too.
        cls.header, cls.events, cls.end = record_one("repr_boundaries.py", "--call", "near(8)", "--max-repr", "10")

    def returns(self, func):
        return [e for e in self.events if e["func"] == func and e["event"] == "return"]

    def test_the_run_is_not_broken_by_a_repr_raising_system_exit(self):
        self.assertEqual((self.end["exit"], self.end["reason"]), ("normal", None))

    def test_locals_at_the_boundary(self):
        [ret] = self.returns("near")
        self.assertEqual(ret["locals"]["short"], "'xxxxxxx'")
        self.assertEqual(ret["locals"]["exact"], "'xxxxxxxx'")
        self.assertEqual(ret["locals"]["over"], "'xxxxxxxxx\u2026<cut 1 chars>")
        self.assertEqual(ret["locals"]["bad"], "<repr failed: Bad>")  # a marker, never cut
        self.assertEqual(ret["cut"], ["over"])
        self.assertEqual(ret["arg"], "'xxxxxxxx'")

    def test_return_values_at_the_boundary(self):
        short, over = self.returns("echo")
        self.assertEqual((short["arg"], short.get("cut")), ("'xxxxxxx'", None))
        self.assertEqual((over["arg"], over["cut"]), ("'xxxxxxxxx\u2026<cut 1 chars>", ["v", "<arg>"]))

    def test_exceptions_at_the_boundary(self):
        raised = [(e["arg"], e.get("cut")) for e in self.events if e["func"] == "fails" and e["event"] == "exception"]
        self.assertEqual(raised, [("E('yyyy')", None), ("E('yyyyy')", None),
                                  ("E('yyyyyy'\u2026<cut 1 chars>", ["<arg>"])])

    def test_a_lone_surrogate_is_written_as_text(self):
        [ret] = self.returns("near")
        self.assertEqual(ret["locals"]["lone"], "a\\ud800b")
        self.assertIn('"lone": "a\\\\ud800b"', json.dumps(ret))


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
