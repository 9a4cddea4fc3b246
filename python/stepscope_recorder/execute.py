"""Execution worker: scores generations by running them, many per process.

    PYTHONHASHSEED=0 python3 -S -m stepscope_recorder.execute [--timeout 3] [--memory-mb 1024]

A long-lived process. It first writes one hello line, then reads one JSON job per line on
stdin and writes one JSON verdict per line on stdout, in job order, until stdin ends.
Every job runs in a child forked from this warm process (sandbox.py, policy.py), never in
the worker itself, so one job cannot affect the next. The hash seed is fixed when an
interpreter starts: run one worker per PYTHONHASHSEED (the hello line says which).

Hello:   {"worker": "stepscope-execute", "version": 1, "python": "3.11.7",
          "hashseed": "0" (null = random), "pid": N, "subreaper": true, "timeout": 3.0,
          "memory_mb": 1024}
Jobs (`timeout` seconds and `memory_mb` are optional overrides of the worker's defaults):
  {"id": ID, "kind": "cruxeval-output", "code": SRC, "output": LITERAL, "generation": TEXT}
  {"id": ID, "kind": "cruxeval-input",  "code": SRC, "output": LITERAL, "generation": "f(...)"}
  {"id": ID, "kind": "call-args", "source": SRC, "function": NAME, "args": {PARAM: REPR},
   "expected_repr": REPR?, "expected": LITERAL?, "repr_chars": N?}
Verdicts: {"id": ID, "status": "pass"|"fail"|"error"|"timeout"|"skipped", "seconds": S,
           "error": TEXT (error), "reason": TEXT (timeout, skipped), "got": REPR (call-args)}
A job line that is not a valid job gets {"id": ID or null, "bad_job": "what is wrong"}.
See src/scoring/README.md for the meaning of each status."""
import argparse
import gc
import json
import os
import signal
import sys

from . import checks
from .sandbox import Sandbox

VERSION = 1
_STR = str
_FIELDS = {
    "cruxeval-output": {"code": _STR, "output": _STR, "generation": _STR},
    "cruxeval-input": {"code": _STR, "output": _STR, "generation": _STR},
    "call-args": {"source": _STR, "function": _STR, "args": dict},
}
_OPTIONAL = {"expected_repr": _STR, "expected": _STR, "repr_chars": int,
             "timeout": (int, float), "memory_mb": int}


def validate(job):
    """None when `job` is a well-formed job, else what is wrong (user-facing)."""
    if not isinstance(job, dict):
        return "a job is a JSON object"
    kind = job.get("kind")
    fields = _FIELDS.get(kind)
    if fields is None:
        return "kind must be one of %s, got %r" % (", ".join(_FIELDS), kind)
    for name, typ in fields.items():
        if not isinstance(job.get(name), typ):
            return "%s job needs %r (%s)" % (kind, name, typ.__name__)
    for name, typ in _OPTIONAL.items():
        if job.get(name) is not None and (not isinstance(job[name], typ) or isinstance(job[name], bool)):
            return "%r has the wrong type" % name
    for name in ("timeout", "memory_mb", "repr_chars"):
        if job.get(name) is not None and job[name] <= 0:
            return "%r must be positive" % name
    if kind == "call-args" and not all(isinstance(v, str) for v in job["args"].values()):
        return "call-args 'args' maps parameter names to repr strings"
    return None


def checker(job):
    kind = job["kind"]
    if kind == "call-args":
        import inspect  # noqa: F401  once here, not in every child (cruxeval workers skip it)
        return lambda: checks.call_args(job["source"], job["function"], job["args"],
                                        job.get("expected_repr"), job.get("expected"),
                                        job.get("repr_chars") or 10000)
    return lambda: checks.cruxeval(job["code"], job["output"], job["generation"])


def _lines(fd):
    """Lines read straight from a file descriptor: no buffered copy for a fork to inherit."""
    pending = b""
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            if pending.strip():
                yield pending
            return
        pending += chunk
        *lines, pending = pending.split(b"\n")
        yield from lines


def _add_site_packages():
    """The worker runs with -S (no .pth side effects, a smaller process to fork); programs
    still find installed packages, without what .pth files would add."""
    import site
    for path in site.getsitepackages() + [site.getusersitepackages()]:
        if path not in sys.path and os.path.isdir(path):
            sys.path.append(path)


def serve(infd, outfd, timeout, memory_mb):
    if sys.flags.no_site:
        _add_site_packages()
    sandbox = Sandbox(memory_mb)

    def on_term(signum, frame):  # a clean stop: the running job's processes die with us
        sandbox.kill_current()
        raise SystemExit(0)
    signal.signal(signal.SIGTERM, on_term)

    def send(obj):
        data = (json.dumps(obj) + "\n").encode("utf-8")
        while data:
            data = data[os.write(outfd, data):]

    send({"worker": "stepscope-execute", "version": VERSION,
          "python": "%d.%d.%d" % sys.version_info[:3], "hashseed": os.environ.get("PYTHONHASHSEED"),
          "pid": os.getpid(), "subreaper": sandbox.subreaper, "timeout": timeout,
          "memory_mb": memory_mb})
    # Objects that exist now are never collected in a child, so forks share their pages
    # instead of copying them when the child's collector would touch them.
    gc.freeze()
    for line in _lines(infd):
        if not line.strip():
            continue
        try:
            job = json.loads(line)
        except ValueError as e:
            send({"id": None, "bad_job": "not JSON: %s" % e})
            continue
        problem = validate(job)
        job_id = job.get("id") if isinstance(job, dict) else None
        if problem:
            send({"id": job_id, "bad_job": problem})
            continue
        verdict = sandbox.run(checker(job), float(job.get("timeout") or timeout),
                              job.get("memory_mb") or memory_mb)
        verdict["id"] = job_id
        send(verdict)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m stepscope_recorder.execute",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--timeout", type=float, default=3.0, metavar="SECONDS",
                    help="wall-clock limit per job (default %(default)s, as CRUXEval)")
    ap.add_argument("--memory-mb", type=int, default=1024, metavar="MB",
                    help="address-space limit per job, RLIMIT_AS (default %(default)s)")
    args = ap.parse_args(argv)
    if args.timeout <= 0 or args.memory_mb <= 0:
        ap.error("--timeout and --memory-mb must be positive")
    if sys.flags.optimize:
        ap.error("cannot run under -O: the checks use assert")
    serve(0, 1, args.timeout, args.memory_mb)
    return 0


if __name__ == "__main__":
    sys.exit(main())
