"""Command line: record, record-cruxeval, record-demo, counterfactual (argparse; --help on each)."""
import argparse
import json
import os
import platform
import signal
import sys
import time

from . import counterfactual, procs, runner
from .monitor import available as monitoring_available, default_backend
from .tasks import DEFAULT_LIMITS, TaskError, call_task, script_task, source_file_task

# The benchmark shipped with the repository (<repo>/resources/cruxeval): record-cruxeval's
# default dataset, so a fresh clone records CRUXEval with no file of its own.
BUNDLED_CRUXEVAL = os.path.join(os.path.dirname(runner.PYTHON_DIR), "resources", "cruxeval",
                                "cruxeval.jsonl")


class UsageError(Exception):
    """Bad input named by file (and line); printed without a traceback, exit status 2."""


def _add_limits(p):
    g = p.add_argument_group("limits")
    g.add_argument("--max-events", type=int, default=DEFAULT_LIMITS["events"], metavar="N",
                   help="stop after N events: exit never, 'event limit N' (default %(default)s)")
    g.add_argument("--timeout", type=float, default=DEFAULT_LIMITS["seconds"], metavar="SECONDS",
                   help="wall-time limit per program: exit never, 'time limit Ns' (default %(default)s)")
    g.add_argument("--max-memory", type=int, default=DEFAULT_LIMITS["memory_mb"], metavar="MB",
                   help="address-space limit of the child (RLIMIT_AS); allocations beyond it "
                        "raise MemoryError (default %(default)s)")
    g.add_argument("--max-repr", type=int, default=DEFAULT_LIMITS["repr_chars"], metavar="CHARS",
                   help="cut reprs longer than this and list them in 'cut' (default %(default)s)")
    g.add_argument("--hashseed", type=int, default=0, metavar="SEED",
                   help="PYTHONHASHSEED of the traced program, stored in the trace (default 0)")
    g.add_argument("--backend", choices=("settrace", "monitoring"), default=None,
                   help="how events are taken: sys.settrace, or sys.monitoring (PEP 669, Python 3.12+); "
                        "both record the same events (default on this Python: %s)" % default_backend())


def _backend(args):
    if args.backend is None:
        return default_backend()
    if args.backend == "monitoring" and not monitoring_available():
        raise UsageError("--backend monitoring needs Python 3.12 or later (sys.monitoring, PEP 669); "
                         "this is Python %s" % platform.python_version())
    return args.backend


def _limits(args):
    for name in ("max_events", "timeout", "max_memory", "max_repr"):
        if getattr(args, name) <= 0:
            raise UsageError("--%s must be positive" % name.replace("_", "-"))
    return {"events": args.max_events, "seconds": float(args.timeout),
            "memory_mb": args.max_memory, "repr_chars": args.max_repr}


def build_parser():
    parser = argparse.ArgumentParser(
        prog="stepscope_recorder",
        description="Record Python programs with sys.settrace (or sys.monitoring) into stepscope-trace JSON Lines "
                    "(docs/trace-format.md). Every program runs in its own child process.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    p = sub.add_parser(
        "record", help="record one program (a script, or a call of its functions)",
        description="Record one program. Without --call the file runs as a script "
                    "(sys.argv = [PROG, *ARGS], __name__ == '__main__'); with --call the file's "
                    "module body runs untraced and `def main(): return CALL` is traced.",
        usage="%(prog)s PROG.py -o OUT.jsonl [--call CALL] [limits] [-- ARGS ...]",
        epilog="Arguments after -- are the script's sys.argv[1:]. "
               "Example: record prog.py -o prog.jsonl --call 'f([1, 2])'")
    p.add_argument("program", metavar="PROG.py")
    p.add_argument("-o", "--output", required=True, metavar="OUT.jsonl", help="trace file to write")
    p.add_argument("--call", metavar="CALL", help="trace this call, e.g. 'f([1, 2])' (call mode)")
    p.add_argument("--name", help="trace name (default: the file name)")
    _add_limits(p)

    p = sub.add_parser(
        "record-cruxeval", help="record CRUXEval tasks in call mode",
        description="Record every record of a CRUXEval JSON Lines file ({id, code, input, output}) "
                    "as the call f(<input>). Trace name = task id; meta = {task, id, input, output}. "
                    "Output keeps the input order whatever --jobs is. On a terminal, stderr shows "
                    "how many tasks are recorded so far.",
        usage="%(prog)s [cruxeval.jsonl] -o OUT.jsonl [--jobs N] [--limit K] [limits]")
    p.add_argument("dataset", metavar="cruxeval.jsonl", nargs="?", default=BUNDLED_CRUXEVAL,
                   help="the tasks to record (default: the CRUXEval benchmark bundled with "
                        "Stepscope, resources/cruxeval/cruxeval.jsonl, 800 tasks)")
    p.add_argument("-o", "--output", required=True, metavar="OUT.jsonl")
    p.add_argument("--jobs", type=int, default=1, metavar="N", help="children at once (default 1)")
    p.add_argument("--limit", type=int, metavar="K", help="only the first K tasks")
    _add_limits(p)

    p = sub.add_parser(
        "record-demo", help="record the demo programs listed in DIR/demo.json",
        description="Record the built-in demo corpus: DIR/demo.json lists {file, call, title}; "
                    "call null means the file runs as a script.")
    p.add_argument("directory", metavar="DIR")
    p.add_argument("-o", "--output", required=True, metavar="OUT.jsonl")
    p.add_argument("--jobs", type=int, default=1, metavar="N")
    _add_limits(p)

    p = sub.add_parser(
        "counterfactual", help="record a trace's program again with locals set at one event",
        description="Record the program and call of the (first) trace in ORIGIN.jsonl again, under "
                    "its limits and hash seed, and at event N set the named locals of that frame "
                    "to Python literals before state N is recorded: state N shows the new values "
                    "and the program runs on from them. Refused (status 2, nothing written): N "
                    "past the end, a return event, a name the frame does not have, a text that "
                    "is not a literal, a trace recorded under another Python minor version; "
                    "(status 1) a run that differs from the origin before N. Prints one JSON "
                    "line: {seq, set, first_difference, exit, reason, events}.",
        usage="%(prog)s ORIGIN.jsonl -o OUT.jsonl --seq N --set NAME=LITERAL [--set ...]")
    p.add_argument("origin", metavar="ORIGIN.jsonl")
    p.add_argument("-o", "--output", required=True, metavar="OUT.jsonl")
    p.add_argument("--seq", type=int, required=True, metavar="N",
                   help="the event to edit, as `stepscope events` numbers them")
    p.add_argument("--set", action="append", default=[], metavar="NAME=LITERAL", dest="sets",
                   help="a local of that frame and its new value (ast.literal_eval); repeatable")

    sub.add_parser(
        "counterfactual-serve", help="record counterfactuals on request, one warm recorder for many",
        description="Read counterfactual requests, one JSON line each, on stdin and answer each with one "
                    "JSON line on stdout, in order, until stdin ends (the protocol: counterfactual.serve). "
                    "Each is recorded by a child forked from a warm interpreter, and recorded again by a "
                    "child of its own when that run does not reproduce the origin.")
    return parser


def read_cruxeval(path, limit=None):
    """Validates the whole file first: a bad line is reported before anything runs."""
    records = []
    try:
        f = open(path, encoding="utf-8")
    except OSError as e:
        raise UsageError("%s: cannot open: %s" % (path, e.strerror))
    with f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except ValueError as e:
                raise UsageError("%s:%d: expected a JSON object, got invalid JSON (%s)" % (path, n, e))
            if not isinstance(rec, dict) or not all(
                    isinstance(rec.get(k), str) for k in ("id", "code", "input", "output")):
                raise UsageError("%s:%d: expected an object with string fields id, code, input, "
                                 "output" % (path, n))
            records.append(rec)
            if limit is not None and len(records) >= limit:
                break
    return records


def read_demo(directory):
    path = os.path.join(directory, "demo.json")
    try:
        with open(path, encoding="utf-8") as f:
            items = json.load(f)
    except OSError as e:
        raise UsageError("%s: cannot open: %s" % (path, e.strerror))
    except ValueError as e:
        raise UsageError("%s: invalid JSON: %s" % (path, e))
    if not isinstance(items, list):
        raise UsageError("%s: expected a JSON array of {file, call, title}" % path)
    for i, item in enumerate(items):
        if not (isinstance(item, dict) and isinstance(item.get("file"), str)
                and (item.get("call") is None or isinstance(item.get("call"), str))
                and isinstance(item.get("title"), str)):
            raise UsageError("%s: item %d: expected {file: string, call: string|null, title: string}"
                             % (path, i))
    return items


def _write_target(path):
    d = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(d):
        raise UsageError("%s: the folder %s does not exist" % (path, d))


def cmd_record(args):
    limits = _limits(args)
    _write_target(args.output)
    if not os.path.isfile(args.program):
        raise UsageError("%s: no such file" % args.program)
    if args.call is not None:
        if args.args:
            raise UsageError("script arguments cannot be combined with --call")
        task = source_file_task(args.program, args.call, limits, args.hashseed, name=args.name)
    else:
        task = script_task(args.program, args.args, limits, args.hashseed, name=args.name)
    return [task]


def cmd_cruxeval(args):
    limits = _limits(args)
    _write_target(args.output)
    tasks = []
    for rec in read_cruxeval(args.dataset, args.limit):
        meta = {"task": "cruxeval", "id": rec["id"], "input": rec["input"], "output": rec["output"]}
        tasks.append(call_task(rec["id"], rec["code"], "f(%s)" % rec["input"], limits,
                               args.hashseed, meta))
    return tasks


def cmd_demo(args):
    limits = _limits(args)
    _write_target(args.output)
    tasks = []
    for item in read_demo(args.directory):
        path = os.path.join(args.directory, item["file"])
        meta = {"task": "demo", "file": item["file"], "title": item["title"]}
        name = os.path.splitext(item["file"])[0]
        tasks.append(source_file_task(path, item["call"], limits, args.hashseed, meta, name))
    return tasks


class Progress:
    """`recorded N/TOTAL` on one line of `stream` that each step rewrites, only when the stream
    is a terminal: a pipe or a file gets nothing from it (only the closing summary)."""

    def __init__(self, stream, total):
        self.stream = stream
        self.total = total
        self.done = 0
        try:
            self.live = bool(stream.isatty())
        except (AttributeError, OSError, ValueError):
            self.live = False

    def step(self, _result=None):
        self.done += 1
        if self.live:
            self._write("\r\x1b[Krecorded %d/%d" % (self.done, self.total))

    def clear(self):
        """Erases the line, so what is said next (summary or error) starts a clean line."""
        if self.live and self.done:
            self._write("\r\x1b[K")

    def _write(self, text):
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            pass


COMMANDS = {"record": cmd_record, "record-cruxeval": cmd_cruxeval, "record-demo": cmd_demo}


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    script_args = []
    if "--" in argv:  # everything after -- belongs to the traced script
        i = argv.index("--")
        argv, script_args = argv[:i], argv[i + 1:]
    parser = build_parser()
    args = parser.parse_args(argv)
    if script_args and args.command != "record":
        parser.error("arguments after -- are only for 'record'")
    args.args = script_args
    if args.command == "counterfactual":
        return _counterfactual(args)
    if args.command == "counterfactual-serve":
        return _counterfactual_serve()
    started = time.monotonic()
    _stop_on_signals()
    try:
        _stop_with_caller()
        tasks = COMMANDS[args.command](args)
        backend = _backend(args)
        for task in tasks:
            task.backend = backend
        jobs = getattr(args, "jobs", 1)
        if jobs < 1:
            raise UsageError("--jobs must be at least 1")
        progress = Progress(sys.stderr, len(tasks)) if args.command == "record-cruxeval" else None
        try:
            results = runner.record_all(tasks, args.output, jobs, progress and progress.step)
        finally:
            if progress:
                progress.clear()
    except (UsageError, TaskError) as e:
        return _say(str(e), 2)
    except (KeyboardInterrupt, Exception) as e:
        return _ended(e)
    return _say(runner.summary(results, time.monotonic() - started), 0, prefix="")


def _ended(e):
    """The one line and exit status of a recording that did not finish (nothing was written)."""
    if isinstance(e, KeyboardInterrupt):
        return _say("interrupted; nothing written", 130)
    if isinstance(e, runner.Stopped):
        return _say("stopped by %s; nothing written" % e, 128 + e.signum)
    if isinstance(e, OSError):
        where = "%s: " % e.filename if e.filename else ""
        return _say("%s%s; nothing written" % (where, e.strerror or e), 1)
    return _say("recorder error: %r; nothing written" % e, 1)  # a recorder bug: one line, not a traceback


def _counterfactual(args):
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop)
    try:
        _write_target(args.output)
        result = counterfactual.run(args.origin, args.output, args.seq, args.sets)
    except (UsageError, counterfactual.UsageError, TaskError) as e:
        return _say(str(e), 2)
    except counterfactual.NotReproduced as e:
        return _say("%s; nothing written" % e, 1)
    except (KeyboardInterrupt, Exception) as e:
        return _ended(e)
    print(json.dumps(result))
    return 0


def _counterfactual_serve():
    _stop_on_signals()
    try:
        counterfactual.serve(sys.stdin, sys.stdout, os.environ.get("STEPSCOPE_TEST_WARM_SKEW") == "1")
    except (KeyboardInterrupt, Exception) as e:
        return _ended(e)
    return 0


def _stop(signum, frame):
    raise runner.Stopped(signum)


def _stop_on_signals():
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop)


def _stop_with_caller():
    """Started by stepscope's Node CLI (STEPSCOPE_PARENT_PID, src/recorder/python.ts): stopped as by
    SIGTERM when that process dies, SIGKILL included (a pipeline worker lost mid-shard), so no
    recording goes on writing where a retry now works. The variable is removed first: a traced
    program's environment is what it would be without it."""
    pid = os.environ.pop("STEPSCOPE_PARENT_PID", "")
    if pid.isdigit() and procs.prctl(procs.PR_SET_PDEATHSIG, signal.SIGTERM) and os.getppid() != int(pid):
        _stop(signal.SIGTERM, None)  # it died before the setting took


def _say(line, status, prefix="stepscope_recorder: "):
    """Every way the recorder ends says why, in one line on stderr."""
    try:
        print(prefix + line, file=sys.stderr)
    except (OSError, ValueError):
        pass
    return status
