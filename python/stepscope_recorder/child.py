"""The child process: runs ONE task under the tracer and appends its events (and its own
`end` record) to the trace file the parent already started with the header.

    python3 -m stepscope_recorder.child TASK.json TRACE.jsonl

TASK.json: {"mode", "filename", "context", "call", "argv", "limits"} (see runner.py).
The parent rewrites the `end` record (true event count, output bytes) and writes one
itself when this process dies without finishing. Exit codes are informational only."""
import builtins
import json
import os
import signal
import sys
import time
import types

from .tracer import Tracer
from .values import Values

# The real interpreter limit is this much above the program's, so that the tracer (which
# runs on top of the program's stack) always has room; see Tracer._recursion_error.
RECURSION_HEADROOM = 200


def _set_memory_limit(mb):
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        want = mb * 1024 * 1024
        if hard != resource.RLIM_INFINITY:
            want = min(want, hard)
        resource.setrlimit(resource.RLIMIT_AS, (want, hard))
    except (ImportError, ValueError, OSError):
        pass


class Child:
    def __init__(self, task, trace_path):
        self.task = task
        limits = task["limits"]
        self.limits = limits
        self.out = open(trace_path, "a", encoding="utf-8", buffering=1 << 20)
        self.values = Values(limits["repr_chars"])
        self.started = time.monotonic()
        self.ended = False
        self.time_reason = "time limit %gs" % limits["seconds"]
        self.tracer = None

    # -- ending ---------------------------------------------------------------------------
    def end(self, exit, reason):
        """Writes the end record once and flushes; safe to call from a signal handler."""
        if self.ended:
            return
        self.ended = True
        sys.settrace(None)
        seconds = round(time.monotonic() - self.started, 6)
        events = self.tracer.seq if self.tracer else 0
        if exit != "never" and self.tracer is not None and self.tracer.failed:
            exit, reason = "never", self.tracer.failed
        self.out.write(json.dumps({"type": "end", "exit": exit, "reason": reason,
                                   "events": events, "seconds": seconds}) + "\n")
        self.out.flush()

    def hard_exit(self, exit, reason, code=0):
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)
        except BaseException:
            pass
        self.end(exit, reason)
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                pass
        self._real_exit(code)

    def on_limit(self, reason):
        self.hard_exit("never", reason, 0)

    # -- isolation hooks --------------------------------------------------------------------
    def install_hooks(self):
        self._real_exit = real_exit = os._exit
        child = self

        def _exit(n):
            child.hard_exit("never", "os._exit(%r)" % (n,), n if isinstance(n, int) else 1)
        os._exit = _exit

        # Anything that may kill this process on purpose first flushes the events written
        # so far (the trace ends where the program died instead of at the last 1 MB buffer).
        def flushing(fn):
            def wrapper(*args, **kwargs):
                try:
                    child.out.flush()
                except BaseException:
                    pass
                return fn(*args, **kwargs)
            wrapper.__name__ = fn.__name__
            wrapper.__doc__ = fn.__doc__
            return wrapper
        os.kill = flushing(os.kill)
        os.abort = flushing(os.abort)
        if hasattr(os, "killpg"):
            os.killpg = flushing(os.killpg)
        signal.raise_signal = flushing(signal.raise_signal)

        # The program sees and sets its own recursion limit; the interpreter's real limit
        # stays RECURSION_HEADROOM above it.
        real_set = sys.setrecursionlimit

        def setrecursionlimit(n):
            real_set(int(n) + RECURSION_HEADROOM)
            if child.tracer is not None:
                child.tracer.recursion_limit = int(n)
        sys.setrecursionlimit = setrecursionlimit
        sys.getrecursionlimit = lambda: child.tracer.recursion_limit if child.tracer else 1000

        def on_alarm(signum, frame):
            child.on_limit(child.time_reason)
        signal.signal(signal.SIGALRM, on_alarm)
        signal.signal(signal.SIGTERM, on_alarm)  # the parent's timeout, before its SIGKILL
        signal.setitimer(signal.ITIMER_REAL, float(self.limits["seconds"]))
        _set_memory_limit(int(self.limits["memory_mb"]))

    # -- running --------------------------------------------------------------------------
    def run(self):
        task = self.task
        program_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(program_limit + RECURSION_HEADROOM)
        self.install_hooks()
        filename = task["filename"]
        context = task["context"]
        self.tracer = Tracer(
            filename, context, self.out.write, self.values, int(self.limits["events"]),
            self.started + float(self.limits["seconds"]), self.time_reason, self.on_limit,
            program_limit, self.out.flush)
        if task["mode"] == "call":
            self.run_call(filename, context)
        else:
            self.run_script(filename, context, task.get("argv") or [])
        self.hard_exit(*self.status)

    def _outcome(self, run):
        """Runs `run` under the tracer; sets self.status to (exit, reason)."""
        previous = sys.gettrace()
        sys.settrace(self.tracer.global_trace)
        try:
            run()
            self.status = ("normal", None)
        except BaseException as e:  # SystemExit and KeyboardInterrupt leave the program too
            self.status = ("error", self.values.normalise(_safe_repr(e)))
        finally:
            lost = sys.gettrace() is not self.tracer.global_trace
            sys.settrace(previous)
        if lost and not self.tracer.failed:
            # The program (or a recursion overflow in untraced code) removed the tracer:
            # events after that point are missing, so the trace cannot claim an exit.
            self.tracer.failed = "trace function removed during the run"

    def run_call(self, filename, context):
        module = types.ModuleType("__program__")
        module.__dict__["__builtins__"] = builtins
        sys.modules["__program__"] = module
        try:
            code = compile(context, filename, "exec")
            exec(code, module.__dict__)  # the module body runs untraced
            entry = module.__dict__["main"]
        except BaseException as e:
            # Nothing was traced; the trace is empty and says why.
            self.status = ("error", self.values.normalise(_safe_repr(e)))
            return
        self._outcome(entry)

    def run_script(self, filename, context, argv):
        module = types.ModuleType("__main__")
        module.__dict__.update({"__builtins__": builtins, "__file__": filename})
        sys.modules["__main__"] = module
        sys.argv = [filename] + list(argv)
        sys.path[0] = os.path.dirname(os.path.abspath(filename))
        try:
            code = compile(context, filename, "exec")
        except BaseException as e:
            self.status = ("error", self.values.normalise(_safe_repr(e)))
            return
        self._outcome(lambda: exec(code, module.__dict__))


def _safe_repr(value):
    try:
        return repr(value)
    except BaseException:
        return "<repr failed: %s>" % type(value).__name__


def main(argv):
    with open(argv[1], encoding="utf-8") as f:
        task = json.load(f)
    Child(task, argv[2]).run()


if __name__ == "__main__":
    main(sys.argv)
