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
import collections
import gc
import json
import os
import signal
import sys

from . import checks
from .sandbox import Sandbox, cut as sandbox_cut

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


# The texts a run must not see: the worker compares with them after the run (checks.py).
_SECRETS = {"cruxeval-output": ("output",), "cruxeval-input": ("output",),
            "call-args": ("expected_repr", "expected")}


class Vault:
    """Expected values of the jobs read but not yet run, kept in an anonymous memory file
    rather than in Python objects: a run is a fork of this process, and code under test
    can walk every object it inherits (gc, frames), but cannot read this file once its
    descriptor is closed (the child closes its copy before the run starts)."""

    def __init__(self):
        self.fd = os.memfd_create("stepscope-expected", os.MFD_CLOEXEC) if hasattr(os, "memfd_create") else None
        self.size = 0
        self.open = 0  # stored and not yet taken

    def put(self, text):
        data = text.encode("utf-8", "surrogatepass")
        if self.fd is None:
            return data  # no memfd here: kept as a Python object after all
        at = self.size
        self.size = _pwrite_all(self.fd, data, at)
        self.open += 1
        return (at, len(data))

    def get(self, ref):
        if type(ref) is bytes:
            return ref.decode("utf-8", "surrogatepass")
        at, n = ref
        chunks = []
        while n:
            chunk = os.pread(self.fd, n, at)
            if not chunk:
                break
            chunks.append(chunk)
            at += len(chunk)
            n -= len(chunk)
        return b"".join(chunks).decode("utf-8", "surrogatepass")

    def done(self):
        self.open -= 1
        if self.open <= 0 and self.fd is not None and self.size:
            os.ftruncate(self.fd, 0)
            self.size = self.open = 0


def _pwrite_all(fd, data, offset):
    """Writes all of `data` at `offset`; returns the offset after it."""
    view = memoryview(data)
    while view:
        n = os.pwrite(fd, view, offset)
        offset += n
        view = view[n:]
    return offset


def prepare(job, vault):
    """Moves the job's expected texts into the vault (refs under "_secret")."""
    kind = job["kind"]
    secrets = {}
    if kind != "call-args":
        job["_comparable"] = checks.literal_output(job["output"])
    for name in _SECRETS[kind]:
        text = job.pop(name, None)
        if text is not None:
            if kind == "call-args" and not checks.literal(text)[0]:
                job["_claim_" + name] = text  # the run compares: nothing to hide
            secrets[name] = vault.put(text)
    job["_secret"] = secrets
    return job


def checker(job, vault):
    """(child, judge) of a prepared job, or a verdict known without running."""
    secret = job["_secret"]

    def text(name):
        ref = secret.get(name)
        return None if ref is None else vault.get(ref)
    kind = job["kind"]
    if kind == "call-args":
        if "expected_repr" not in secret and "expected" not in secret:
            return {"status": "skipped", "reason": "nothing to compare with (no expected value)", "seconds": 0.0}
        import inspect  # noqa: F401  once here, not in every child (cruxeval workers skip it)
        repr_chars = job.get("repr_chars") or 10000
        child = checks.call_args_run(job["source"], job["function"], job["args"], repr_chars,
                                     job.get("_claim_expected"))
        child = _closing(child, vault)
        return child, checks.call_args_judge(text("expected_repr"), text("expected"), repr_chars)

    def output_of(wanted):
        try:
            return text("output") if wanted else None
        finally:
            _close_vault(vault)
    child = checks.cruxeval_run(job["code"], job["generation"], job["_comparable"], output_of)
    return child, checks.cruxeval_judge(lambda: text("output"))


def _close_vault(vault):
    if vault.fd is not None:
        try:
            os.close(vault.fd)
        except OSError:
            pass


def _closing(child, vault):
    def run(send, wait):
        _close_vault(vault)
        child(send, wait)
    return run


class JobReader:
    """Job lines from a file descriptor, in linear time whatever their length: each chunk
    is searched for newlines once, and a line's pieces are joined once. Every complete
    line is parsed at once and its expected texts moved to the vault, so no job line (nor a
    later one read in the same chunk) is left as a Python object when a run forks; the
    piece of a line not yet complete waits in a memory file too."""

    def __init__(self, fd, vault):
        self.fd = fd
        self.vault = vault
        self.ready = collections.deque()
        self.spill = os.memfd_create("stepscope-line", os.MFD_CLOEXEC) if hasattr(os, "memfd_create") else None
        self.pieces = []  # where there is no memfd
        self.spilled = 0
        self.eof = False

    def __iter__(self):
        return self

    def __next__(self):
        while not self.ready:
            if self.eof:
                raise StopIteration
            self._fill()
        return self.ready.popleft()

    def _fill(self):
        chunk = os.read(self.fd, 1 << 16)
        if not chunk:
            self.eof = True
            if self.spilled:
                self._line(b"")
            return
        start = 0
        while True:
            nl = chunk.find(b"\n", start)
            if nl < 0:
                self._keep(chunk[start:])
                return
            self._line(chunk[start:nl])
            start = nl + 1

    def _keep(self, piece):
        if not piece:
            return
        if self.spill is None:
            self.pieces.append(piece)
            self.spilled += len(piece)
        else:
            self.spilled = _pwrite_all(self.spill, piece, self.spilled)

    def _line(self, last):
        if self.spilled:
            if self.spill is None:
                line = b"".join(self.pieces) + last
                self.pieces = []
            else:
                line = os.pread(self.spill, self.spilled, 0) + last
                os.ftruncate(self.spill, 0)
            self.spilled = 0
        else:
            line = last
        if line.strip():
            self.ready.append(self._parse(line))

    def _parse(self, line):
        try:
            job = json.loads(line)
        except ValueError as e:
            return False, {"id": None, "bad_job": "not JSON: %s" % sandbox_cut(str(e))}
        except RecursionError:
            return False, {"id": None, "bad_job": "not JSON: nested too deeply"}
        problem = validate(job)
        job_id = job.get("id") if isinstance(job, dict) else None
        if problem:
            return False, {"id": job_id, "bad_job": problem}
        return True, prepare(job, self.vault)


def _add_site_packages():
    """The worker runs with -S (no .pth side effects, a smaller process to fork); programs
    still find installed packages, without what .pth files would add."""
    import site
    for path in site.getsitepackages() + [site.getusersitepackages()]:
        if path not in sys.path and os.path.isdir(path):
            sys.path.append(path)


def serve(infd, outfd, timeout, memory_mb, layers=("kernel", "hooks")):
    if sys.flags.no_site:
        _add_site_packages()
    sandbox = Sandbox(memory_mb, kernel="kernel" in layers, hooks="hooks" in layers)

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
          "memory_mb": memory_mb, "containment": sandbox.kernel.describe()})
    # Objects that exist now are never collected in a child, so forks share their pages
    # instead of copying them when the child's collector would touch them.
    gc.freeze()
    vault = Vault()
    reader = JobReader(infd, vault)
    sandbox.private_fds = [fd for fd in (reader.spill,) if fd is not None]
    for ok, job in reader:
        if not ok:
            send(job)
            continue
        job_id = job.get("id")
        planned = checker(job, vault)
        if isinstance(planned, dict):
            verdict = planned
        else:
            verdict = sandbox.run(planned[0], planned[1], float(job.get("timeout") or timeout),
                                  job.get("memory_mb") or memory_mb)
        vault.done()
        del job, planned
        verdict["id"] = job_id
        send(verdict)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m stepscope_recorder.execute",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--timeout", type=float, default=3.0, metavar="SECONDS",
                    help="wall-clock limit per job (default %(default)s, as CRUXEval)")
    ap.add_argument("--memory-mb", type=int, default=1024, metavar="MB",
                    help="address-space limit per job, RLIMIT_AS (default %(default)s)")
    ap.add_argument("--only", choices=("kernel", "hooks"),
                    help="tests: keep one layer of containment only, to show that it holds alone")
    args = ap.parse_args(argv)
    if args.timeout <= 0 or args.memory_mb <= 0:
        ap.error("--timeout and --memory-mb must be positive")
    if sys.flags.optimize:
        ap.error("cannot run under -O: the checks use assert")
    serve(0, 1, args.timeout, args.memory_mb, (args.only,) if args.only else ("kernel", "hooks"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
