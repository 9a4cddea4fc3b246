"""Parent side: one child process per task, limits enforced from outside, and the
trace file always left well-formed (header, complete event lines, one end record)."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The child checks its own clock; the parent kills it this long after the time limit
# (covers interpreter start-up and code stuck in C where no event or signal handler runs).
GRACE_SECONDS = 5.0
TERM_SECONDS = 1.0  # between the parent's SIGTERM and its SIGKILL
_CHUNK = 1 << 20


class Result:
    def __init__(self, name, end):
        self.name = name
        self.end = end

    @property
    def exit(self):
        return self.end["exit"]

    @property
    def events(self):
        return self.end["events"]


def child_env(hashseed):
    env = dict(os.environ)
    old = env.get("PYTHONPATH")
    env["PYTHONPATH"] = PYTHON_DIR + (os.pathsep + old if old else "")
    env["PYTHONHASHSEED"] = str(hashseed)
    env["PYTHONIOENCODING"] = "utf-8"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    for var in ("PYTHONSTARTUP", "PYTHONINSPECT", "PYTHONBREAKPOINT"):
        env.pop(var, None)
    return env


def record_task(task, trace_path, workdir):
    """Records one task into trace_path (created/overwritten). Returns a Result."""
    with open(trace_path, "w", encoding="utf-8") as f:
        f.write(task.header_line())
    spec_path = trace_path + ".task.json"
    with open(spec_path, "w", encoding="utf-8") as f:
        json.dump(task.child_spec(), f)
    limits = task.header["limits"]
    started = time.monotonic()
    status, rusage, timed_out, out_bytes = _run_child(
        [sys.executable, "-m", "stepscope_recorder.child", spec_path, trace_path],
        child_env(task.header["hashseed"]), float(limits["seconds"]) + GRACE_SECONDS)
    wall = time.monotonic() - started
    os.unlink(spec_path)
    end = _finish_file(trace_path, status, rusage, timed_out, limits, wall)
    end["stdout_bytes"] = out_bytes
    with open(trace_path, "a", encoding="utf-8") as f:
        f.write(json.dumps(end) + "\n")
    return Result(task.name, end)


def _run_child(cmd, env, kill_after):
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=env, start_new_session=True)
    counted = [0]

    def drain():  # the program's output is counted and dropped, never stored
        fd = proc.stdout.fileno()
        try:
            while True:
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    return
                counted[0] += len(chunk)
        except OSError:
            return

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    timed_out = threading.Event()

    def kill():
        # First ask (the child's SIGTERM handler flushes its events and writes the end
        # record); code stuck in C never runs that handler, so then force.
        timed_out.set()
        try:
            os.kill(proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        if not exited.wait(TERM_SECONDS):
            _kill_group(proc.pid)

    exited = threading.Event()
    timer = threading.Timer(kill_after, kill)
    timer.daemon = True
    timer.start()
    _, status, rusage = os.wait4(proc.pid, 0)
    exited.set()
    timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    _kill_group(proc.pid)  # whatever the program left running in its session
    reader.join(2.0)
    proc.stdout.close()
    return status, rusage, timed_out.is_set(), counted[0]


def _kill_group(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _finish_file(path, status, rusage, timed_out, limits, wall):
    """Drops a partial last line and the child's own end record; returns the end record
    to append (its `events` counted from the file, not trusted from the child)."""
    child_end = None
    with open(path, "r+b") as f:
        size = f.seek(0, os.SEEK_END)
        last_nl = _rfind_newline(f, size)
        if last_nl + 1 != size:  # the child died mid-line
            f.truncate(last_nl + 1)
        prev_nl = _rfind_newline(f, last_nl)
        f.seek(prev_nl + 1)
        if f.read(15) == b'{"type": "end",':
            f.seek(prev_nl + 1)
            child_end = json.loads(f.read(last_nl - prev_nl))
            f.truncate(prev_nl + 1)
        f.seek(0)
        lines = 0
        while True:
            chunk = f.read(_CHUNK)
            if not chunk:
                break
            lines += chunk.count(b"\n")
    events = lines - 1  # minus the header
    if child_end is not None:
        return {"type": "end", "exit": child_end["exit"], "reason": child_end["reason"],
                "events": events, "seconds": child_end["seconds"]}
    if timed_out:
        reason = "time limit %gs" % float(limits["seconds"])
    elif os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        # RLIMIT_AS makes allocations fail (MemoryError); a child killed while near the
        # limit is reported as the memory limit rather than a bare signal.
        if sig in (signal.SIGKILL, signal.SIGSEGV, signal.SIGABRT) and \
                rusage.ru_maxrss * 1024 >= 0.9 * limits["memory_mb"] * 1024 * 1024:
            reason = "memory limit %d MB" % limits["memory_mb"]
        else:
            reason = "killed by signal %d" % sig
    else:
        reason = "recorder child exited with status %d before the end" % os.waitstatus_to_exitcode(status)
    return {"type": "end", "exit": "never", "reason": reason, "events": events,
            "seconds": round(wall, 6)}


def _rfind_newline(f, before):
    """Offset of the last b'\\n' strictly before `before`, or -1."""
    pos = before
    while pos > 0:
        start = max(0, pos - (1 << 16))
        f.seek(start)
        i = f.read(pos - start).rfind(b"\n")
        if i >= 0:
            return start + i
        pos = start
    return -1


def record_all(tasks, out_path, jobs=1, on_result=None):
    """Records tasks (jobs at a time) into out_path in input order. The file appears only
    when complete (written as OUT.partial, then renamed). Returns the Results."""
    partial = out_path + ".partial"
    results = []
    futures = []
    with tempfile.TemporaryDirectory(prefix="stepscope-rec-") as tmp, \
            ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        try:
            with open(partial, "wb") as out:
                for i, task in enumerate(tasks):
                    path = os.path.join(tmp, "%06d.jsonl" % i)
                    futures.append((path, pool.submit(record_task, task, path, tmp)))
                for path, fut in futures:  # in input order, whatever order they finish in
                    result = fut.result()
                    with open(path, "rb") as f:
                        while True:
                            chunk = f.read(_CHUNK)
                            if not chunk:
                                break
                            out.write(chunk)
                    os.unlink(path)
                    results.append(result)
                    if on_result:
                        on_result(result)
            os.replace(partial, out_path)
        except BaseException:
            for _, fut in futures:
                fut.cancel()
            if os.path.exists(partial):
                os.unlink(partial)
            raise
    return results


def summary(results, seconds):
    exits = {"normal": 0, "error": 0, "never": 0}
    for r in results:
        exits[r.exit] = exits.get(r.exit, 0) + 1
    return "recorded %d traces, %d events; exits: normal %d, error %d, never %d (%.1fs)" % (
        len(results), sum(r.events for r in results), exits["normal"], exits["error"],
        exits["never"], seconds)
