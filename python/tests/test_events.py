"""Event details the goldens do not pin down: return vs. exception exits of generators,
and the trace function of the recording process being restored."""
import io
import json
import sys
import unittest

from stepscope_recorder.child import Child
from stepscope_recorder.tasks import DEFAULT_LIMITS, call_task
from stepscope_recorder.tracer import Tracer

from .helpers import record_source

GENERATORS = '''\
def g():
    try:
        yield 1
    except KeyError:
        yield 2


def h():
    yield 1


def f():
    a = g()
    next(a)
    b = a.throw(KeyError())
    c = h()
    next(c)
    try:
        c.throw(ValueError())
    except ValueError:
        pass
    return None
'''


class Events(unittest.TestCase):
    def test_yield_return_and_exception_exits(self):
        header, events, end = record_source(GENERATORS, "f()")
        returns = {}
        for e in events:
            if e["event"] == "return":
                returns.setdefault(e["func"], []).append(e["arg"])
        # resumed by throw and caught: a real yield; then closed when f drops it: null
        self.assertEqual(returns["g"], ["1", "2", None])
        self.assertEqual(returns["h"], ["1", None])     # thrown into, uncaught: left by exception
        self.assertEqual(returns["f"], ["None"])        # `return None` is a value, not null
        frames = {e["frame"] for e in events if e["func"] == "g"}
        self.assertEqual(len(frames), 1)                # one number across resumes
        calls = [e for e in events if e["func"] == "g" and e["event"] == "call"]
        self.assertEqual(len(calls), 3)
        for call in calls[:2]:                          # each resume sits under its calling line
            self.assertEqual(events[call["parent"]]["func"], "f")
            self.assertEqual(events[call["parent"]]["event"], "line")
        # The close at garbage collection happens after f returned, under main's line.
        self.assertEqual(calls[2]["parent"], 1)
        self.assertGreater(calls[2]["seq"], [e["seq"] for e in events if e["func"] == "f"][-1])

    def test_a_yield_right_after_a_finished_yield_from_has_its_value(self):
        # The delegate's return raises StopIteration in the delegating frame (an 'exception'
        # event on every version for a returned value), which then yields on the same line.
        header, events, end = record_source(
            "def g():\n    yield 1\n    return 2\n\n\ndef relay():\n    yield (yield from g())\n",
            "list(relay())")
        exits = [(e["event"], e["arg"]) for e in events if e["func"] == "relay" and e["event"] != "line"]
        self.assertEqual(exits, [("call", None), ("return", "1"), ("call", None), ("exception", "StopIteration(2)"),
                                 ("return", "2"), ("call", None), ("return", "None")])
        self.assertEqual(events[-1]["arg"], "[1, 2]")


class RestoresTraceFunction(unittest.TestCase):
    """The child leaves whatever trace function was installed before it ran the program."""

    def run_in_process(self, source, call):
        task = call_task("t", source, call, DEFAULT_LIMITS, 0)
        out = io.StringIO()
        child = Child(task.child_spec(), out)
        spec = task.child_spec()
        child.tracer = Tracer(spec["filename"], spec["context"], child.out.write, child.values,
                              1000, child.started + 10, "time", child.on_limit, 900)

        def previous(frame, event, arg):
            return None

        sys.settrace(previous)
        try:
            child.run_call(spec["filename"], spec["context"])
            after = sys.gettrace()
        finally:
            sys.settrace(None)
        events = [json.loads(line) for line in out.getvalue().splitlines()]
        return after is previous, child.status, events

    def test_after_a_normal_return(self):
        restored, status, events = self.run_in_process("def f(x):\n    return x + 1\n", "f(1)")
        self.assertTrue(restored)
        self.assertEqual(status, ("normal", None))
        self.assertEqual(events[-1]["arg"], "2")

    def test_after_an_exception(self):
        restored, status, events = self.run_in_process("def f(x):\n    return 1 // x\n", "f(0)")
        self.assertTrue(restored)
        self.assertEqual(status, ("error", "ZeroDivisionError('integer division or modulo by zero')"))
        self.assertIsNone(events[-1]["arg"])
