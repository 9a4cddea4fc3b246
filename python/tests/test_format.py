"""The written file follows docs/trace-format.md exactly."""
import json
import os
import tempfile
import unittest

from .helpers import PROGRAMS, read_traces, record_source, run_recorder

HEADER_KEYS = ["type", "format", "version", "name", "mode", "python", "hashseed", "filename",
               "source", "call", "context_forward", "context_inverse", "limits", "meta"]
EVENT_KEYS = ["type", "seq", "event", "frame", "func", "line", "src", "locals", "arg", "parent"]


class Format(unittest.TestCase):
    def record_file(self, *args):
        tmp = tempfile.mkdtemp()
        self.addCleanup(lambda: [os.unlink(os.path.join(tmp, n)) for n in os.listdir(tmp)] and os.rmdir(tmp))
        out = os.path.join(tmp, "t.jsonl")
        r = run_recorder("record", *args, "-o", out)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out, encoding="utf-8") as f:
            return f.read()

    def test_lines_are_plain_json_dumps(self):
        text = self.record_file(os.path.join(PROGRAMS, "classes.py"))
        self.assertTrue(text.endswith("\n"))
        for n, line in enumerate(text.split("\n")[:-1], 1):
            rec = json.loads(line)
            self.assertEqual(json.dumps(rec), line, "line %d is not json.dumps output" % n)
            if rec["type"] == "event":
                self.assertEqual(list(rec)[:10], EVENT_KEYS)
            elif rec["type"] == "trace":
                self.assertEqual(list(rec), HEADER_KEYS)
        self.assertTrue(text.isascii())

    def test_non_ascii_is_escaped(self):
        header, events, end = record_source("def f(s):\n    return s + 'é'\n", "f('ü')")
        self.assertEqual(events[-1]["arg"], "'üé'")

    def test_call_mode_contexts(self):
        header, events, end = record_source("def f(x):\n    return x\n\n\n\n", "f(1)")
        self.assertEqual(header["context_inverse"], "def f(x):\n    return x\n")
        self.assertEqual(header["context_forward"],
                         "def f(x):\n    return x\n\ndef main():\n    return f(1)\n")
        self.assertEqual(header["source"], header["context_inverse"])
        self.assertEqual((header["mode"], header["filename"], header["call"]), ("call", "<program>", "f(1)"))
        self.assertEqual(events[0]["func"], "main")
        self.assertEqual(events[0]["event"], "call")
        lines = header["context_forward"].split("\n")
        for e in events:
            self.assertEqual(e["src"], lines[e["line"] - 1])

    def test_addresses_numbered_in_order_of_first_appearance(self):
        src = ("class A:\n    pass\n"
               "def f():\n    a = A()\n    b = A()\n    c = a\n    return c\n")
        header, events, end = record_source(src, "f()")
        final = events[-2]["locals"]
        self.assertEqual(final["a"], "<__program__.A object at 0x1>")
        self.assertEqual(final["b"], "<__program__.A object at 0x2>")
        self.assertEqual(final["c"], final["a"])

    def test_hashseed_is_fixed_and_recorded(self):
        src = "def f():\n    s = {'pear', 'fig', 'apple', 'kiwi', 'plum'}\n    return s\n"
        a = record_source(src, "f()")
        b = record_source(src, "f()")
        c = record_source(src, "f()", "--hashseed", "7")
        self.assertEqual(a[1], b[1])
        self.assertEqual((a[0]["hashseed"], c[0]["hashseed"]), (0, 7))
        self.assertNotEqual(a[1][-1]["arg"], c[1][-1]["arg"])  # set order follows the seed

    def test_module_dunders_hidden_in_script_mode(self):
        text = self.record_file(os.path.join(PROGRAMS, "sys_exit.py"))
        header, events, end = read_traces_text(text)
        for e in events:
            self.assertFalse([k for k in e["locals"] if k.startswith("__")], e)
        self.assertEqual(header["name"], "sys_exit.py")
        self.assertEqual(header["filename"], os.path.join(PROGRAMS, "sys_exit.py"))
        self.assertEqual(events[0]["line"], 1)

    def test_repr_failure_is_recorded(self):
        src = "class B:\n    def __repr__(self):\n        return 1/0\ndef f():\n    b = B()\n    return 5\n"
        header, events, end = record_source(src, "f()")
        self.assertEqual(events[-2]["locals"]["b"], "<repr failed: B>")
        self.assertEqual(end["exit"], "normal")


def read_traces_text(text):
    fd, path = tempfile.mkstemp()
    with os.fdopen(fd, "w") as f:
        f.write(text)
    try:
        return read_traces(path)[0]
    finally:
        os.unlink(path)
