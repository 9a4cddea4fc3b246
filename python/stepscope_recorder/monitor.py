"""The sys.monitoring (PEP 669) backend, Python 3.12+: the same events as tracer.Tracer's
sys.settrace functions, byte for byte (python/tests/test_backends.py checks it).

On 3.12+ sys.settrace is itself a client of sys.monitoring (CPython's legacy_tracing.c), so
its events can be had directly, as that layer derives them:
- call: PY_START, PY_RESUME, PY_THROW;
- line: LINE, plus a JUMP backwards to the same line (settrace reports a line for every
  backward edge; a forward one, or one to another line, is DISABLEd where it is);
- return: PY_RETURN and PY_YIELD with their value, PY_UNWIND (left by an exception) null;
- exception: RAISE and STOP_ITERATION (not RERAISE, not EXCEPTION_HANDLED).
What differs is what no longer has to be done: the exit kind comes with the event instead of
being read from the instruction at f_lasti, and code of other files is DISABLEd at each place
once instead of being entered and declined on every call."""
import _thread
import os
import sys

from .tracer import Tracer

TOOL_NAME = "stepscope"
_UNWOUND = object()  # the value of a frame left by an exception (its 'return' has arg null)


def available():
    return hasattr(sys, "monitoring")


def default_backend():
    """The backend used when none is asked for: settrace, on every version, since monitoring
    records the same events but not faster (docs/semantics.md §12). $STEPSCOPE_BACKEND=monitoring
    changes that where sys.monitoring exists (so that the whole suite can run under it)."""
    if os.environ.get("STEPSCOPE_BACKEND") == "monitoring" and available():
        return "monitoring"
    return "settrace"


class MonitoringTracer(Tracer):
    """Tracer's contract, recorded through a sys.monitoring tool id instead of sys.settrace.
    The tool id is the highest one free when start() runs (5, the optimizer's, normally)."""

    def _hooks(self, emit, line_event, enter, active, value_json):
        mon = sys.monitoring
        ev = mon.events
        DISABLE = mon.DISABLE
        filename = self.filename
        getframe = sys._getframe
        get_ident = _thread.get_ident
        main = get_ident()  # the thread that records; sys.settrace traces no other either
        lines = {}  # code -> {instruction offset: line}, for backward jumps
        # The program frames now running, innermost last, as (frame, state, code) (state None:
        # a frame not recorded). Every entry and exit of a program frame in the main thread is
        # an event here, and only the innermost frame runs, so a LINE needs no frame lookup:
        # sys._getframe and frame.f_code each call every audit hook, and the child has one
        # (procs.py), in Python.
        stack = [(None, None, None)]
        push = stack.append
        pop = stack.pop

        def out_of_step(code):
            self._broke(AssertionError("monitoring stack out of step in %s" % code.co_name))

        def begin(code):
            frame = getframe(2)
            try:
                info = enter(frame)
            except BaseException as e:  # never let a recorder bug leak into the program
                push((frame, None, code))
                self._broke(e)
                return
            push((frame, info, code))
            if info is None:
                # The refused frame's RAISE and PY_UNWIND find it unrecorded: the caller
                # sees the RecursionError on its calling line, as under settrace.
                raise RecursionError("maximum recursion depth exceeded")

        def start(code, offset):  # PY_START, PY_RESUME
            if code.co_filename != filename:
                return DISABLE
            if get_ident() == main:
                begin(code)
            return None

        def thrown(code, offset, exc):  # PY_THROW (cannot be disabled)
            if code.co_filename == filename and get_ident() == main:
                begin(code)

        def line(code, lineno):
            frame, info, running = stack[-1]
            if info is not None and running is code and get_ident() == main:
                try:
                    line_event(frame, info, lineno)
                except BaseException as e:
                    self._broke(e)
                return None
            if code.co_filename != filename:
                return DISABLE
            if info is not None and get_ident() == main:
                out_of_step(code)
            return None

        def jump(code, src, dest):  # JUMP, BRANCH
            if dest > src or code.co_filename != filename:
                return DISABLE
            table = lines.get(code)
            if table is None:
                table = lines[code] = {}
                for begin_, end, n in code.co_lines():
                    for off in range(begin_, end, 2):
                        table[off] = -1 if n is None else n
            to_line = table.get(dest, -1)
            if to_line != table.get(src, -1):
                return DISABLE  # the LINE event at the target reports it
            if to_line >= 0 and get_ident() == main:
                frame, info, _ = stack[-1]
                if info is not None:
                    try:
                        line_event(frame, info, to_line)
                    except BaseException as e:
                        self._broke(e)
            return None

        def leave(code, value, ended):
            """The innermost frame is left: `ended` by return or exception, else by yield."""
            frame, info, running = pop()
            if info is None:
                return
            if running is not code:
                out_of_step(code)
                return
            try:
                if value is _UNWOUND:
                    arg_json, was_cut = "null", False
                else:
                    arg_json, was_cut = value_json(value)
                if ended:
                    del active[frame]
                emit("return", frame, info, arg_json, was_cut)
            except BaseException as e:
                self._broke(e)

        def returned(code, offset, value):  # PY_RETURN
            if code.co_filename != filename:
                return DISABLE
            if get_ident() == main:
                leave(code, value, True)
            return None

        def yielded(code, offset, value):  # PY_YIELD
            if code.co_filename != filename:
                return DISABLE
            if get_ident() == main:
                leave(code, value, False)
            return None

        def unwound(code, offset, exc):  # PY_UNWIND (cannot be disabled)
            if code.co_filename == filename and get_ident() == main:
                leave(code, _UNWOUND, True)

        def raised(code, offset, exc):  # RAISE (cannot be disabled), STOP_ITERATION
            if code.co_filename != filename or get_ident() != main:
                return None
            frame, info, running = stack[-1]
            if info is None:
                return None
            if running is not code:
                out_of_step(code)
                return None
            try:
                arg_json, was_cut = value_json(exc)
                emit("exception", frame, info, arg_json, was_cut)
            except BaseException as e:
                self._broke(e)
            return None

        def untracked(code, offset, *exc):  # entries once the program replaced sys.settrace
            if code.co_filename != filename:
                return DISABLE if not exc else None
            if get_ident() == main:
                # A frame already recorded keeps being recorded (its trace function stays),
                # without a 'call' for this entry; the program's function had that.
                frame = getframe(1)
                push((frame, active.get(frame), code))
            return None

        self._callbacks = (
            (ev.PY_START, start), (ev.PY_RESUME, start), (ev.PY_THROW, thrown),
            (ev.LINE, line), (ev.JUMP, jump), (ev.BRANCH, jump),
            (ev.PY_RETURN, returned), (ev.PY_YIELD, yielded), (ev.PY_UNWIND, unwound),
            (ev.RAISE, raised), (ev.STOP_ITERATION, raised))
        self._untracked = untracked
        self._events = 0
        for event, _ in self._callbacks:
            self._events |= event
        self._tool = None
        self._replaced = False

    # -- installing ----------------------------------------------------------------------------
    def start(self):
        mon = sys.monitoring
        tool = next((i for i in range(5, -1, -1) if mon.get_tool(i) is None), None)
        if tool is None:
            raise RuntimeError("no free sys.monitoring tool id")
        mon.use_tool_id(tool, TOOL_NAME)
        self._tool = tool
        for event, fn in self._callbacks:
            mon.register_callback(tool, event, fn)
        self._watch_settrace()
        mon.set_events(tool, self._events)

    def finish(self):
        tool = self._tool
        mon = sys.monitoring
        lost = (self._replaced or tool is None or mon.get_tool(tool) != TOOL_NAME
                or mon.get_events(tool) != self._events)
        self.halt()
        sys.settrace = self._real_settrace
        return lost

    def halt(self):
        tool = self._tool
        if tool is None:
            return
        self._tool = None
        mon = sys.monitoring
        try:
            if mon.get_tool(tool) == TOOL_NAME:
                mon.set_events(tool, 0)
                for event, _ in self._callbacks:
                    mon.register_callback(tool, event, None)
                mon.free_tool_id(tool)
        except ValueError:
            pass

    def _watch_settrace(self):
        """A program calling sys.settrace ends the settrace backend's recording: with None at
        once; with a function of its own, frames entered or resumed after get no 'call' (the
        program's function gets it), while frames already traced keep their trace function
        and so their line, return and exception events. The same happens here, so that both
        backends record the same events up to the end marked `never` (except where the
        program's function returns a trace function for a resumed generator: settrace then
        stops recording that frame, this backend does not)."""
        real = self._real_settrace = sys.settrace
        tracer = self

        def settrace(function):
            tracer._replaced = True
            tool = tracer._tool
            if tool is not None:
                if function is None:
                    tracer.halt()
                else:
                    mon = sys.monitoring
                    for event in (mon.events.PY_START, mon.events.PY_RESUME, mon.events.PY_THROW):
                        mon.register_callback(tool, event, tracer._untracked)
            return real(function)
        settrace.__doc__ = real.__doc__
        sys.settrace = settrace
