"""The sys.settrace tracer. Runs only inside the child process (see child.py).

Hot path notes: one dict lookup per event for the frame's state, JSON fragments for
func/src precomputed, locals encoded with the C JSON encoder and only re-examined (address
normalisation, cutting) when the encoded text shows it is needed. Events go to a buffered
text writer and are never flushed per event."""
import dis
import json
import sys
import time
from json.encoder import c_make_encoder as _c_make_encoder, encode_basestring_ascii

from .values import well_formed

# Instructions whose 'return' event is a real return or yield. Any other instruction at
# f_lasti means the frame is being left by an exception (checked on 3.11: RAISE_VARARGS,
# RERAISE for try/finally, CALL for a raising callee …). RETURN_CONST exists from 3.12.
_RETURN_OPS = frozenset(dis.opmap[n] for n in ("RETURN_VALUE", "RETURN_CONST") if n in dis.opmap)
_YIELD_OPS = frozenset(dis.opmap[n] for n in ("YIELD_VALUE",) if n in dis.opmap)
# What a 'return' event at each code offset is (_exit_kinds).
_EXCEPTION, _RETURN, _YIELD = 0, 1, 2
_GENERATOR_FLAGS = 0x20 | 0x80 | 0x200  # CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR

# Script mode: the module frame's locals are its globals minus these (docs/trace-format.md).
MODULE_HIDDEN = frozenset((
    "__builtins__", "__name__", "__doc__", "__package__", "__loader__", "__spec__",
    "__annotations__", "__file__", "__cached__",
))

_ENCODER = json.JSONEncoder()

_EVENT = ('{"type": "event", "seq": %d, "event": "%s", "frame": %d, "func": %s, "line": %d, '
          '"src": %s, "locals": %s, "arg": %s, "parent": %s}\n')
_EVENT_CUT = ('{"type": "event", "seq": %d, "event": "%s", "frame": %d, "func": %s, "line": %d, '
              '"src": %s, "locals": %s, "arg": %s, "parent": %s, "cut": %s}\n')


_LINE = ('{"type": "event", "seq": %%d, "event": "line", "frame": %d, "func": %s, "line": %%s%%s, '
         '"arg": null, "parent": %s}\n')


def _line_template(number, func_json, parent):
    """A line event's _EVENT, made once per frame segment, left to fill in: seq, then
    `L, "src": …, "locals": ` and the locals (three `%` arguments instead of nine).

    One string per frame, kept in the frame's state list as its eighth item: the list's item
    array stays the size it was with seven. Traces number object addresses in order of first
    appearance, so which freed addresses a program's objects take shows in a trace's bytes;
    with any other per-frame allocation tried (two strings, a tuple of them, a longer list) an
    `exits` golden numbered a traceback's address differently under 3.12 and 3.13."""
    return _LINE % (number, func_json.replace("%", "%%"), "null" if parent is None else parent)


def _encoder():
    """f(value, 0) -> list of str, joined: json.dumps(value) with json.dumps' defaults. One C
    encoder made once, as JSONEncoder.iterencode makes it but without the markers dict (no
    cycle check: it only ever sees a dict of str), instead of json.dumps' three Python calls
    and a new encoder per event.

    Traces number object addresses in order of first appearance, so which freed addresses a
    program's objects take shows in a trace's bytes: what the tracer allocates per event
    matters. The goldens (python/tests/golden) are unchanged by this encoder."""
    if _c_make_encoder is None:  # no C accelerator
        return lambda value, _: (json.dumps(value),)
    return _c_make_encoder(None, _ENCODER.default, encode_basestring_ascii, None, ": ", ", ",
                           False, False, True)


def _exit_kinds(raw):
    """For each offset of bytecode `raw`: what a 'return' event with f_lasti there is.

    The event order of a yield, a return and an exception exit is the same on 3.11-3.13
    (a generator thrown into or closed at its yield gets call, exception, then return with
    f_lasti at that yield), but where f_lasti points at a yield is not: 3.11 and 3.12 stop
    on the YIELD_VALUE, 3.13 on the RESUME right after it (a sys.settrace probe on each).
    Both offsets count as a yield on every version: the one a version does not stop at is
    only ever reached by an exception raised as the generator resumes, and that return
    follows an 'exception' event, which the tracer checks first."""
    kinds = bytearray(len(raw))
    for offset in range(0, len(raw), 2):
        op = raw[offset]
        if op in _RETURN_OPS:
            kinds[offset] = _RETURN
        elif op in _YIELD_OPS:
            kinds[offset] = _YIELD
            if offset + 2 < len(raw):
                kinds[offset + 2] = _YIELD
    return bytes(kinds)


class Tracer:
    """Records the events of frames whose co_filename is `filename`.

    `write` receives complete JSON lines. `on_limit(reason)` is called when the event or
    time limit is hit and must not return (the child ends the process there). Frames of
    module code (`<module>`) hide the module dunders from their locals (script mode).
    A program frame deeper than `recursion_limit` frames gets a RecursionError.
    Install with sys.settrace(tracer.global_trace); `tracer.seq` is the events written."""

    def __init__(self, filename, context, write, values, max_events, deadline, time_reason,
                 on_limit, recursion_limit, flush=lambda: None, edits=None):
        self.filename = filename
        self.values = values
        self.recursion_limit = recursion_limit
        self.failed = None  # set when the tracer itself broke (the trace is then cut)
        # encode_basestring_ascii(s) is json.dumps(s) for a str, without two calls of Python code
        self._src = ['""'] + [encode_basestring_ascii(well_formed(line)) for line in context.split("\n")]
        self._codes = {}   # code -> (func_json, exit kinds, is_generator, is_module)
        # frame -> [number, segment parent, last seq, depth, last event, code info,
        #           f_lasti at the frame's latest exception event, _line_template]
        self._active = {}
        self._next_frame = 0
        # Counterfactuals (counterfactual.py): {seq: edit(frame)}, each called on the frame of
        # event seq before that event's locals are read.
        self._edits = dict(edits or {})
        self._build(write, flush, max_events, deadline, time_reason, on_limit)

    @property
    def seq(self):
        return self._count()

    def _code_info(self, code):
        info = self._codes.get(code)
        if info is None:
            info = self._codes[code] = (
                encode_basestring_ascii(well_formed(code.co_name)), _exit_kinds(code.co_code),
                bool(code.co_flags & _GENERATOR_FLAGS), code.co_name == "<module>")
        return info

    def _slow_locals(self, loc, is_module):
        """Locals needing care: module dunders, failing reprs, addresses, long reprs."""
        if is_module:
            loc = {(k if type(k) is str else repr(k)): v
                   for k, v in loc.items() if k not in MODULE_HIDDEN}
        snap, cut = self.values.snapshot(loc)
        return json.dumps(snap), cut

    def _value_json(self, value):
        text, was_cut = self.values.repr(value)
        return encode_basestring_ascii(text), was_cut

    def _build(self, write, flush, max_events, deadline, time_reason, on_limit):
        # Everything the hot path touches is a closure variable (cheaper than attributes).
        active = self._active
        src_json = self._src
        n_src = len(src_json)
        located = ['%d, "src": %s, "locals": ' % (n, text) for n, text in enumerate(src_json)]  # _LINE's
        limit = self.values.limit
        dumps = json.dumps
        monotonic = time.monotonic
        slow_locals = self._slow_locals
        value_json = self._value_json
        code_info = self._code_info
        encode = _encoder()
        join = "".join
        seq = 0
        check_at = 0  # the next seq at which checkpoint() runs
        edits = self._edits
        edit_at = min(edits) if edits else -1  # the seq of the next edit; -1: none left

        def count():
            return seq

        self._count = count

        def checkpoint(s, frame):
            """Before event s when it is the event limit, the next edit's, or a multiple of 256
            (the time limit on the clock, and a flush)."""
            nonlocal check_at, edit_at
            if s >= max_events:
                on_limit("event limit %d" % max_events)
            if s == edit_at:
                edits.pop(s)(frame)
                edit_at = min(edits) if edits else -1
            if not s & 255:
                if monotonic() > deadline:
                    on_limit(time_reason)
                # Bounds what a SIGKILL can lose to 256 events. By count, not by the clock:
                # a flush makes and frees objects, and when it ran would decide which freed
                # addresses the program's objects take again (trace numbers, values.py).
                if s:
                    flush()
            check_at = min(max_events, (s | 255) + 1, edit_at if edit_at > s else max_events)

        def emit(event, frame, info, arg_json, arg_cut, lineno=0):
            nonlocal seq
            s = seq
            if s >= check_at:
                checkpoint(s, frame)
            cinfo = info[5]
            loc = frame.f_locals
            cut = None
            if cinfo[3]:
                loc, cut = slow_locals(loc, True)
            else:
                try:
                    loc = join(encode({k: repr(v) for k, v in loc.items()}, 0))
                    # Long reprs, addresses, and `\ud…` (a lone surrogate, or a pair,
                    # or a backslash before "ud") take the careful path.
                    if len(loc) > limit or " at 0x" in loc or "\\ud" in loc:
                        raise ValueError
                except BaseException:  # a __repr__ raising anything, SystemExit included
                    loc, cut = slow_locals(frame.f_locals, False)
            if arg_cut:
                cut = (cut or []) + ["<arg>"]
            lineno = lineno or frame.f_lineno or frame.f_code.co_firstlineno
            parent = info[1]
            if cut is None:
                write(_EVENT % (s, event, info[0], cinfo[0], lineno,
                                src_json[lineno] if lineno < n_src else '""', loc, arg_json,
                                "null" if parent is None else parent))
            else:
                write(_EVENT_CUT % (s, event, info[0], cinfo[0], lineno,
                                    src_json[lineno] if lineno < n_src else '""', loc, arg_json,
                                    "null" if parent is None else parent, dumps(cut)))
            seq = s + 1
            info[2] = s
            info[4] = event

        def line_event(frame, info, lineno=0):
            """emit("line", frame, info, "null", False, lineno), the most frequent event, faster."""
            nonlocal seq
            s = seq
            if s >= check_at:
                checkpoint(s, frame)
            loc = frame.f_locals
            cut = None
            if info[5][3]:
                loc, cut = slow_locals(loc, True)
            else:
                try:  # as in emit
                    loc = join(encode({k: repr(v) for k, v in loc.items()}, 0))
                    if len(loc) > limit or " at 0x" in loc or "\\ud" in loc:
                        raise ValueError
                except BaseException:
                    loc, cut = slow_locals(frame.f_locals, False)
            lineno = lineno or frame.f_lineno or frame.f_code.co_firstlineno
            line = info[7] % (s, located[lineno] if 0 <= lineno < n_src else located_at(lineno), loc)
            write(line if cut is None else '%s, "cut": %s}\n' % (line[:-2], dumps(cut)))
            seq = s + 1
            info[2] = s
            info[4] = "line"

        def located_at(lineno):
            """located[lineno] for any line number (its text as src_json has it, or none)."""
            return '%d, "src": %s, "locals": ' % (lineno, src_json[lineno] if lineno < n_src else '""')

        def enter(frame):
            """The 'call' event of program frame `frame` (new, or a generator resumed); returns
            the frame's state. None when the call would go past the program's recursion
            limit: nothing is emitted, and the caller makes the call fail with RecursionError."""
            info = active.get(frame)
            # Parent: the latest event of the nearest traced ancestor (past untraced frames).
            back = frame.f_back
            steps = 1
            while back is not None and back not in active:
                back = back.f_back
                steps += 1
            if back is None:
                parent, depth = None, steps
            else:
                binfo = active[back]
                parent, depth = binfo[2], binfo[3] + steps
            if info is None:
                if depth > self.recursion_limit:
                    return None
                cinfo = code_info(frame.f_code)
                info = active[frame] = [self._next_frame, parent, None, depth, None, cinfo, -1,
                                        _line_template(self._next_frame, cinfo[0], parent)]
                self._next_frame += 1
            else:  # a generator resumed: a new segment under its new caller
                info[1] = parent
                info[3] = depth
                info[7] = _line_template(info[0], info[5][0], parent)
            emit("call", frame, info, "null", False)
            return info

        self._hooks(emit, line_event, enter, active, value_json)

    def start(self):
        """Starts recording events of the calling thread (the frames called from here on)."""
        self._previous = sys.gettrace()
        sys.settrace(self.global_trace)

    def finish(self):
        """Stops recording and puts back what was installed before start(). Returns True
        when the program removed or replaced the tracer meanwhile (events may be missing)."""
        lost = sys.gettrace() is not self.global_trace
        sys.settrace(self._previous)
        return lost

    def halt(self):
        """Stops recording at once; safe from a signal handler and in a forked copy."""
        sys.settrace(None)

    def _hooks(self, emit, line_event, enter, active, value_json):
        """Defines global_trace and local_trace, the sys.settrace functions."""
        filename = self.filename

        def global_trace(frame, event, arg):
            # Called for every new frame ('call'); only program frames get the local tracer.
            if frame.f_code.co_filename != filename:
                return None
            try:
                entered = enter(frame)
            except BaseException as e:  # never let a recorder bug leak into the program
                self._broke(e)
                return None
            if entered is None:
                return self._recursion_error()
            return local_trace

        def local_trace(frame, event, arg):
            info = active.get(frame)
            if info is None:
                return None
            try:
                if event == "line":
                    line_event(frame, info)
                elif event == "return":
                    kind = info[5][1][frame.f_lasti]
                    if kind == _RETURN:
                        arg_json, was_cut = value_json(arg)
                        del active[frame]
                    elif kind == _YIELD and (info[4] != "exception" or info[6] != frame.f_lasti):
                        # A yield; a generator closed or thrown into at its yield also stops
                        # there, right after an 'exception' event at that very place. (A
                        # `yield from`/`await` whose delegate finishes has an 'exception'
                        # event, StopIteration, elsewhere: it may then yield on the same
                        # line, `yield (yield from g())`.)
                        arg_json, was_cut = value_json(arg)
                    else:
                        arg_json, was_cut = "null", False
                        del active[frame]
                    emit("return", frame, info, arg_json, was_cut)
                elif event == "exception":
                    value = arg[1]
                    if not isinstance(value, BaseException):
                        try:
                            value = arg[0](value) if value is not None else arg[0]()
                        except BaseException:
                            pass
                    arg_json, was_cut = value_json(value)
                    emit("exception", frame, info, arg_json, was_cut)
                    info[6] = frame.f_lasti
            except BaseException as e:
                self._broke(e)
                return None
            return local_trace

        self.global_trace = global_trace
        self.local_trace = local_trace

    # -- failure modes --------------------------------------------------------------------
    def _recursion_error(self):
        """The program went deeper than its recursion limit. Raising from the trace
        function makes CPython drop the trace function, so a one-shot profile hook puts it
        back as soon as the refused frame unwinds; the caller then sees the RecursionError
        on its calling line, as it would untraced. (The real interpreter limit is set
        higher than `recursion_limit` so the tracer itself always has room to run.)"""
        tracer = self.global_trace

        def reinstall(frame, event, arg):
            sys.setprofile(None)
            sys.settrace(tracer)

        sys.setprofile(reinstall)
        raise RecursionError("maximum recursion depth exceeded")

    def _broke(self, exc):
        if self.failed is None:
            self.failed = "recorder error: %s" % self.values.normalise(repr(exc))
        self.halt()
