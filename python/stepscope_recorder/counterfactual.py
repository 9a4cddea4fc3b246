"""Counterfactuals: record a trace's program again and, at event N, set named locals of that
frame to Python literals before state N is recorded (docs/semantics.md, "Counterfactuals").

    counterfactual ORIGIN.jsonl -o OUT.jsonl --seq N --set NAME=LITERAL [--set ...]

ORIGIN.jsonl holds one trace (the first is used). The new recording runs under the origin's
limits and hash seed; its header is the origin's with `python` of this interpreter and
`meta.counterfactual`, the list of edits made (an origin that is itself a counterfactual has
its own edits made again first). Refused, with one line and nothing written:
- a request that cannot be an edit: N past the end, a `return` event (below), a NAME the
  frame does not have at N, a LITERAL that ast.literal_eval does not take (UsageError);
- a recording that does not reproduce the origin: an event before N differs (the program is
  not deterministic under the same hash seed, or ran under another Python), or state N is
  not the origin's state N with the edited values (NotReproduced).
On success stdout gets one JSON line: {"seq", "set", "first_difference", "exit", "reason",
"events"}; first_difference is the first seq at which the two traces differ (state N counts
when an edited value changed), or null when they do not."""
import ast
import json
import keyword
import os
import platform
import re
import sys

from . import procs, runner
from .output import Output
from .tasks import Task, TaskError, _text
from .values import Values

# Events whose state can be edited. A `return` is refused: the frame is leaving and its
# value is already computed, so an edit there would change what the state shows and nothing
# that follows (a generator's yield too: edit its next `line` after it resumes instead).
EDITABLE = ("call", "line", "exception")


class UsageError(ValueError):
    """The request cannot be an edit of this trace; nothing ran or nothing is written."""


class NotReproduced(Exception):
    """The new recording does not reproduce the origin up to the edit; nothing is written."""


def _events(lines):
    """The header and a generator of the event records of the first trace in `lines`."""
    it = iter(lines)
    first = next(it, None)
    header = json.loads(first) if first else None
    if not isinstance(header, dict) or header.get("type") != "trace":
        raise UsageError("the origin file does not start with a trace header")

    def gen():
        for line in it:
            rec = json.loads(line)
            if rec.get("type") != "event":
                return
            yield rec
    return header, gen()


def parse_sets(pairs):
    """[(name, literal text)] from `NAME=LITERAL` strings; refuses bad names and non-literals."""
    out = []
    for pair in pairs:
        name, eq, text = pair.partition("=")
        name, text = name.strip(), text.strip()
        if not eq or not name.isidentifier() or keyword.iskeyword(name):
            raise UsageError("--set %s: expected NAME=LITERAL with NAME a Python identifier" % pair)
        if any(name == n for n, _ in out):
            raise UsageError("--set %s: %s is set twice" % (pair, name))
        try:
            ast.literal_eval(text)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError) as e:
            raise UsageError("--set %s: not a Python literal (numbers, strings, bytes, True/False/None, "
                             "and tuples, lists, dicts, sets of them): %s" % (pair, _why(e)))
        out.append((name, text))
    if not out:
        raise UsageError("at least one --set NAME=LITERAL is required")
    return out


def _why(e):
    node = re.search(r"<ast\.(\w+) object", str(e))
    if node:  # literal_eval names the node by its address; say what it is instead
        return "it contains a %s expression" % node.group(1)
    text = str(e).splitlines()[0] if str(e) else type(e).__name__
    return text if len(text) <= 120 else text[:117] + "..."


def task_for(header, seq, sets):
    """The Task re-recording `header`'s program with `sets` made at event `seq`."""
    meta = dict(header.get("meta") or {})
    earlier = meta.get("counterfactual") or []
    if not isinstance(earlier, list) or not all(
            isinstance(e, dict) and isinstance(e.get("seq"), int) and isinstance(e.get("set"), dict)
            for e in earlier):
        raise UsageError("the origin's meta.counterfactual is not a list of {seq, set}")
    if any(e["seq"] >= seq for e in earlier):
        # An earlier edit at or after N would be made on a run that already differs.
        raise UsageError("event %d: the origin is a counterfactual edited at event %d; a further edit "
                         "must come after it" % (seq, max(e["seq"] for e in earlier)))
    edits = earlier + [{"seq": seq, "set": dict(sets)}]
    meta["counterfactual"] = edits
    new = dict(header, python=platform.python_version(), meta=meta)
    spec = [[e["seq"], [[n, t] for n, t in e["set"].items()]] for e in edits]
    if header["mode"] == "script":
        # The script's arguments are not in the header: it runs with none (an origin recorded
        # with some then differs before N and is refused as not reproduced).
        return Task(_text(new), [], header["filename"], spec)
    return Task(_text(new), edits=spec)


def _same(a, b):
    """Records equal, `locals` in the same order too (the order is part of a state)."""
    return a == b and (a is None or list(a["locals"]) == list(b["locals"]))


def _describe(n, old, new):
    if old is None or new is None:
        return "event %d is %s" % (n, "missing in the new run" if new is None else "not in the origin")
    fields = [k for k in ("event", "frame", "func", "line", "locals", "arg", "parent", "cut")
              if old.get(k) != new.get(k)]
    return "event %d differs in %s" % (n, ", ".join(fields))


def check(header, origin_events, new_events, seq, sets, end=None):
    """Compares the new recording with the origin; returns first_difference or raises.
    `end`: the new run's end record, to say why it stopped short of the edit."""
    limit = header["limits"]["repr_chars"]
    values = Values(limit)
    want = {name: values.repr(ast.literal_eval(text))[0] for name, text in sets}
    first = None
    n = 0
    while True:
        old = next(origin_events, None)
        new = next(new_events, None)
        if old is None and new is None:
            return first
        if new is None and old is not None and n <= seq and end is not None:
            # E.g. a time limit hit on a loaded machine: not the program's nondeterminism.
            raise NotReproduced("the new run stopped after %d events, before the edit at event %d (%s: %s)"
                                % (n, seq, end["exit"], end["reason"]))
        if n < seq:
            if not _same(old, new):
                raise NotReproduced(
                    "the new run differs from trace %r before the edit (%s): the program does not run "
                    "the same way twice under hash seed %s%s, so no counterfactual is made"
                    % (header["name"], _describe(n, old, new), header["hashseed"], _python_note(header)))
        elif n == seq:
            expected = None if old is None else dict(old, locals=dict(old["locals"], **want))
            if new is None or expected is None or _strip_cut(new) != _strip_cut(expected) or \
                    list(new["locals"]) != list(old["locals"]):
                raise NotReproduced("event %d of the new run is not the origin's state with the edit made (%s)"
                                    % (seq, _describe(n, expected, new)))
            if not _same(new, old):
                first = seq
        elif first is None and not _same(old, new):
            first = n
        n += 1


def _strip_cut(e):
    # An edited value may be cut where the old one was not (or the reverse): `cut` is not
    # compared at the edited state.
    return {k: v for k, v in e.items() if k != "cut"}


def _python_note(header):
    mine = platform.python_version()
    if header.get("python") != mine:
        return " (or because the origin was recorded with Python %s, this is %s)" % (header.get("python"), mine)
    return ""


def prepare(origin_path, seq, set_pairs):
    """Validates a request against its origin file; returns (header, sets, task) or raises
    UsageError (nothing has run)."""
    sets = parse_sets(set_pairs)
    if seq < 0:
        raise UsageError("--seq must be 0 or more")
    try:
        f = open(origin_path, encoding="utf-8")
    except OSError as e:
        raise UsageError("%s: cannot open: %s" % (origin_path, e.strerror))
    with f:
        header, events = _events(f)
        if header.get("format") != "stepscope-trace" or header.get("version") != 1:
            raise UsageError("%s: not a stepscope-trace version 1 file" % origin_path)
        mine = platform.python_version_tuple()[:2]
        theirs = str(header.get("python", "")).split(".")[:2]
        if theirs != list(mine):
            raise UsageError("trace %r was recorded with Python %s and this is Python %s: events differ "
                             "between versions, so the counterfactual must run under %s (STEPSCOPE_PYTHON)"
                             % (header["name"], header.get("python"), platform.python_version(),
                                ".".join(theirs)))
        target = None
        count = 0
        for e in events:
            if count == seq:
                target = e
            count += 1
    if target is None:
        raise UsageError("event %d is past the end of trace %r (its events are 0 to %d)"
                         % (seq, header["name"], count - 1) if count else
                         "trace %r has no events to edit" % header["name"])
    where = "%s#%d line %d" % (target["func"], target["frame"], target["line"])
    if target["event"] not in EDITABLE:
        raise UsageError("event %d (%s) is a return: the frame is leaving and its value is already "
                         "computed, so an edit there changes nothing that follows; edit a call, line "
                         "or exception event" % (seq, where))
    missing = [n for n, _ in sets if n not in target["locals"]]
    if missing:
        have = ", ".join(target["locals"]) or "none"
        raise UsageError("event %d (%s): the frame has no local named %s (its locals: %s)"
                         % (seq, where, ", ".join(missing), have))
    return header, sets, task_for(header, seq, sets)


def _record(task, header, origin_path, out_path, seq, sets, skew=False):
    """Records `task`, checks it against the origin and writes it to out_path; returns the
    result dict. `skew` (a test hook, see serve) makes the new run's first event differ."""
    out = Output(out_path)
    try:
        result, trace = runner.record_task(task)
        with trace:
            with open(origin_path, encoding="utf-8") as f:
                _, origin_events = _events(f)
                lines = (line.decode("utf-8") for line in trace)
                _, new_events = _events(lines)
                if skew:
                    new_events = _skewed(new_events)
                first = check(header, origin_events, new_events, seq, sets, result.end)
            trace.seek(0)
            out.append(trace)
        out.commit()
    except BaseException:
        out.discard()
        raise
    return {"seq": seq, "set": dict(sets), "first_difference": first, "exit": result.exit,
            "reason": result.end["reason"], "events": result.events}


def _skewed(events):
    # What an object address numbered otherwise in a forked child looks like to check().
    for n, e in enumerate(events):
        yield dict(e, line=-1) if n == 0 else e


def run(origin_path, out_path, seq, set_pairs):
    """Records the counterfactual into out_path; returns the result dict (module docstring)."""
    header, sets, task = prepare(origin_path, seq, set_pairs)
    runner.start_forking(warm=False)  # forked as record_all's children are: the same heap
    procs.prctl(procs.PR_SET_DUMPABLE, 0)
    return _record(task, header, origin_path, out_path, seq, sets)


# The warm recorder ---------------------------------------------------------------------------
# `counterfactual-serve` keeps one recorder up for many counterfactuals (the explorer's server,
# `evalset create --task counterfactual`): requests on stdin, one JSON line each, answers on
# stdout in the same order. Each is recorded by a child forked from a fork server
# (runner.ForkServer: the same isolation and limits as a child of its own), which saves both
# interpreter starts of `counterfactual`. Every task child starts from the same heap, warm or
# not (child.serve), so a warm run records what a cold one would; as a guard (an origin recorded
# by an earlier recorder may number object addresses otherwise), a warm run that does not
# reproduce the origin is recorded again cold, and only a cold run that does not is refused.

def serve(inp, out, skew=False):
    """Serves requests until `inp` ends. Hello line first: {"ready", "executable", "python",
    "env", "fork_server"}. A request {"origin", "out", "seq", "set": ["NAME=LITERAL", ...]} is
    answered {"ok": result} (result as run's, plus "warm": whether the warm run was kept and
    "fallback": why it was not, or null) or {"error": one line, "kind": "bad-input" |
    "not-reproduced" | "failed"}; {"prestart": HASHSEED} starts that seed's fork server and is
    not answered. `skew`: the test hook STEPSCOPE_TEST_WARM_SKEW=1, every warm run differs."""
    procs.prctl(procs.PR_SET_CHILD_SUBREAPER, 1)
    procs.prctl(procs.PR_SET_DUMPABLE, 0)
    warm = runner.use_fork_servers(True)
    _answer(out, {"ready": True, "executable": sys.executable, "python": platform.python_version(),
                  "env": dict(os.environ), "fork_server": warm})
    try:
        for line in inp:
            if not line.strip():
                continue
            try:
                req = json.loads(line)
                if "prestart" in req:
                    if warm:
                        runner.start_fork_server(int(req["prestart"]))
                    continue
            except (ValueError, TypeError, KeyError) as e:
                _answer(out, {"error": "a malformed request: %s" % e, "kind": "failed"})
                continue
            _answer(out, _serve_one(req, warm, skew))
    finally:
        runner.close_fork_servers()


def _serve_one(req, warm, skew):
    try:
        origin, path, seq, pairs = str(req["origin"]), str(req["out"]), int(req["seq"]), list(req["set"])
    except (KeyError, TypeError, ValueError) as e:
        return {"error": "a malformed request: %r" % e, "kind": "failed"}
    try:
        header, sets, task = prepare(origin, seq, pairs)
        fallback = None
        if warm:
            runner.use_fork_servers(True)  # a server that failed (a program may kill it) starts again
            try:
                result = _record(task, header, origin, path, seq, sets, skew)
                return {"ok": dict(result, warm=True, fallback=None)}
            except NotReproduced as e:
                fallback = str(e)
        runner.use_fork_servers(False)
        try:
            result = _record(task, header, origin, path, seq, sets)
        finally:
            runner.use_fork_servers(warm)
        return {"ok": dict(result, warm=False, fallback=fallback)}
    except (UsageError, TaskError) as e:
        return {"error": str(e), "kind": "bad-input"}
    except NotReproduced as e:
        return {"error": str(e), "kind": "not-reproduced"}
    except runner.Stopped:
        raise
    except OSError as e:
        where = "%s: " % e.filename if e.filename else ""
        return {"error": "%s%s" % (where, e.strerror or e), "kind": "failed"}
    except Exception as e:  # a recorder bug: this request fails, the recorder stays
        return {"error": "recorder error: %r" % e, "kind": "failed"}


def _answer(out, obj):
    out.write(json.dumps(obj) + "\n")
    out.flush()
