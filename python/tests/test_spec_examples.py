"""The recorder reproduces the traces behind the byte-exact trajectory vectors of the
semantics' worked examples (test/data/semantics): for every state a vector
shows, the event at its seq has the same kind, src, arg and (shown) locals."""
import json
import re
import unittest

from .helpers import VECTORS, record_source

KIND = {"call": "call", "line": "line", "return": "return", "exception": "exception",
        "inv_call": "call", "inv_line": "line", "inv_return": "return",
        "inv_exception": "exception", "inv_line_call": "line"}
STATE = re.compile(r"^<\|(\w+)_sep\|>(.*)$", re.S)


def states(text):
    """[(kind token, fields)] of each state shown in a trajectory text."""
    body = text.split("<|frame_sep|>")[1:]
    out = []
    for chunk in body:
        chunk = re.split(r"<\|action_sep\|>|<\|trace_end\|>", chunk)[0]
        m = STATE.match(chunk)
        if not m:
            continue  # an exit token
        kind, rest = m.group(1), m.group(2)
        fields = dict(re.findall(r"<\|(src|arg)_sep\|>(.*?)(?=<\|(?:src|arg)_sep\|>|$)", rest, re.S))
        out.append((kind, fields))
    return out


class SpecExamples(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(VECTORS, encoding="utf-8") as f:
            cls.vectors = json.load(f)
        cls.traces = {}

    def trace(self, v):
        key = (v["source"], v["call"])
        if key not in self.traces:
            self.traces[key] = record_source(v["source"], v["call"])
        return self.traces[key]

    def test_count_berry_has_18_events(self):
        v = self.vectors[0]
        header, events, end = self.trace(v)
        self.assertEqual([e["seq"] for e in events], list(range(18)))
        self.assertEqual(end["exit"], "normal")
        self.assertEqual(header["context_inverse"], v["source"])
        self.assertTrue(v["text"].startswith(
            "<|begin_of_text|><|trace_context_start|>" + header["context_forward"]))
        ret = events[15]
        self.assertEqual((ret["event"], ret["src"]), ("line", "    return n"))
        self.assertEqual(ret["locals"], {"s": "'berry'", "t": "'r'", "n": "2", "c": "'y'"})
        self.assertEqual([events[16]["arg"], events[17]["arg"]], ["2", "2"])
        self.assertEqual(events[2]["parent"], 1)

    def test_every_vector_state_matches_its_event(self):
        for v in self.vectors:
            with self.subTest(vector=v["name"]):
                header, events, end = self.trace(v)
                shown = states(v["text"])
                self.assertEqual(len(shown), len(v["states_seq"]))
                for (kind, fields), seq in zip(shown, v["states_seq"]):
                    e = events[seq]
                    self.assertEqual(e["event"], KIND[kind], "seq %d" % seq)
                    self.assertEqual(e["src"], fields["src"], "seq %d" % seq)
                    if "arg" not in fields:
                        continue
                    value = json.loads(fields["arg"])
                    if e["event"] in ("return", "exception"):
                        self.assertEqual(e["arg"], value, "seq %d" % seq)
                    else:  # locals, possibly a delta: every shown name has that repr
                        self.assertIsInstance(value, dict)
                        if ".." not in value and e["event"] == "call":
                            self.assertEqual(e["locals"], value, "seq %d" % seq)
                        for name, text in value.items():
                            if name != "..":
                                self.assertEqual(e["locals"].get(name), text,
                                                 "seq %d local %s" % (seq, name))

    def test_exit_status_matches_vector_exits(self):
        exits = {"<|exit_normal|>": "normal", "<|exit_error|>": "error"}
        for v in self.vectors:
            if v["exit"] in exits:
                with self.subTest(vector=v["name"]):
                    self.assertEqual(self.trace(v)[2]["exit"], exits[v["exit"]])
