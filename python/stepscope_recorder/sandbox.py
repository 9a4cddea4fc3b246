"""One sandboxed run, forked from the warm execution worker (execute.py).

The child: its own process group (and SIGKILL if the worker dies), stdin/stdout/stderr on
/dev/null, cwd and TMPDIR a fresh temporary directory, RLIMIT_AS, the audit-hook policy
(policy.py), then the check. It sends one JSON line back over a private pipe and leaves.

The worker: waits for that line until the wall-clock deadline, then SIGKILLs the child's
process group whatever happened, reaps the child, kills and reaps any descendant that left
the group (the worker is a child subreaper on Linux, so such orphans become its children),
and removes the temporary directory. Nothing the run started outlives it."""
import json
import os
import resource
import select
import signal
import stat
import time

from . import policy

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
MAX_MESSAGE = 1 << 20  # a verdict line longer than this is cut (the child cuts its texts)
# The commonest verdicts as ready bytes: json.dumps in a child writes to dozens of pages of
# the json module it shares with the worker, and each such page costs a copy after fork.
_READY = {"pass": b'{"status": "pass"}\n', "fail": b'{"status": "fail"}\n'}


def _prctl():
    """libc's prctl, or None off Linux. Loaded once in the worker, before any run."""
    try:
        import ctypes
        prctl = ctypes.CDLL(None, use_errno=True).prctl
        prctl.restype = ctypes.c_int
        return prctl
    except (ImportError, OSError, AttributeError):
        return None


class Sandbox:
    def __init__(self, memory_mb):
        self.memory_mb = memory_mb
        self.prctl = _prctl()
        self.subreaper = bool(self.prctl) and self.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
        self.pid = os.getpid()
        self.children_file = "/proc/self/task/%d/children" % self.pid
        self.current = None  # pid of the running child, for the worker's SIGTERM handler
        self.devnull = os.open(os.devnull, os.O_RDWR)
        self.base = os.path.realpath(os.environ.get("TMPDIR") or "/tmp")
        self.tag = "stepscope-exec-%d-%s-" % (os.getpid(), os.urandom(4).hex())
        self.runs = 0
        self._limits = {}  # memory_mb -> the RLIMIT_AS pair, worked out here, not in each child

    # -- worker side ----------------------------------------------------------------------
    def run(self, check, seconds, memory_mb=None):
        """Runs check() (returning a verdict dict) in a forked child. Returns the verdict,
        with status `timeout` past `seconds`, or `error` when the child died silently."""
        self.runs += 1
        workdir = os.path.join(self.base, self.tag + str(self.runs))
        os.mkdir(workdir, 0o700)
        limit = self._limit(memory_mb or self.memory_mb)
        r, w = os.pipe()
        started = time.monotonic()
        try:
            pid = os.fork()
        except OSError as e:  # e.g. no more processes: this run cannot be judged
            for fd in (r, w):
                os.close(fd)
            _remove_tree(workdir)
            return {"status": "error", "error": "cannot fork: %s" % e, "seconds": 0.0}
        if pid == 0:  # the child never returns from here
            os.close(r)
            try:
                self._child(check, w, workdir, limit)
            finally:
                os._exit(0)
        self.current = pid
        try:
            os.close(w)
            try:
                os.setpgid(pid, pid)  # also done by the child: whichever runs first
            except OSError:
                pass
            line, timed_out = _read_line(r, started + seconds)
            os.close(r)
        finally:
            _kill_group(pid)
            _, status = os.waitpid(pid, 0)
            self.current = None
            self._kill_orphans()
            _remove_tree(workdir)
        elapsed = time.monotonic() - started
        if timed_out:
            return {"status": "timeout", "reason": "time limit %gs" % seconds, "seconds": elapsed}
        if line is None:
            return {"status": "error", "error": "the run ended without a verdict (%s)"
                    % _describe(status), "seconds": elapsed}
        try:
            verdict = json.loads(line)
            if not isinstance(verdict, dict) or "status" not in verdict:
                raise ValueError(line[:200])
        except ValueError as e:  # the run wrote into its verdict pipe itself
            verdict = {"status": "error", "error": "unreadable verdict: %s" % cut(str(e), 200)}
        verdict["seconds"] = elapsed
        return verdict

    def _limit(self, mb):
        pair = self._limits.get(mb)
        if pair is None:
            pair = self._limits[mb] = _memory_limit(mb)
        return pair

    def kill_current(self):
        if self.current is not None:
            _kill_group(self.current)

    def _kill_orphans(self):
        """Kills what escaped the process group (setsid) and was re-parented to us."""
        if not self.subreaper:
            return
        for _ in range(10000):
            try:  # raw reads: no file object (its buffers) made in the worker on every run
                fd = os.open(self.children_file, os.O_RDONLY)
                try:
                    text = os.read(fd, 65536)
                finally:
                    os.close(fd)
                pids = [int(p) for p in text.split()]
            except (OSError, ValueError):
                pids = []
            if not pids:
                break
            for pid in pids:
                _kill_group(pid)
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            for pid in pids:
                try:
                    os.waitpid(pid, 0)
                except ChildProcessError:
                    pass

    # -- child side -----------------------------------------------------------------------
    def _child(self, check, w, workdir, limit):
        # Kept short: on some virtual machines every page a fork writes costs a trap.
        os.setpgid(0, 0)
        if self.prctl is not None:
            self.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != self.pid:  # the worker died before that took effect
                os._exit(1)
        for fd in (0, 1, 2):  # the worker talks through raw fds: no buffered data to leak
            os.dup2(self.devnull, fd)
        os.chdir(workdir)
        os.environ["TMPDIR"] = workdir
        resource.setrlimit(resource.RLIMIT_AS, limit)
        policy.install(workdir)
        try:
            verdict = check()
        except BaseException as e:  # a bug in the check itself, reported not hidden
            verdict = {"status": "error", "error": "checker failed: %s" % cut(safe_repr(e))}
        try:
            only = verdict.get("status") if type(verdict) is dict and len(verdict) == 1 else None
            data = _READY.get(only) if type(only) is str else None
            if data is None:
                data = json.dumps(verdict).encode("utf-8")[:MAX_MESSAGE] + b"\n"
        except BaseException as e:
            data = json.dumps({"status": "error", "error": "unreportable verdict: %s"
                               % type(e).__name__}).encode("utf-8") + b"\n"
        _write_all(w, data)


def _memory_limit(mb):
    """The (soft, hard) RLIMIT_AS pair of a run: `mb` MiB, within the worker's own hard limit."""
    want = int(mb) * 1024 * 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    return (want, want)


def _read_line(fd, deadline):
    """The first line on fd, or None at EOF; (line, timed_out)."""
    chunks = []
    size = 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None, True
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            return None, True
        chunk = os.read(fd, 65536)
        if not chunk:
            return None, False
        nl = chunk.find(b"\n")
        if nl >= 0:
            chunks.append(chunk[:nl])
            return b"".join(chunks).decode("utf-8", "replace"), False
        size += len(chunk)
        if size <= MAX_MESSAGE:
            chunks.append(chunk)


def _write_all(fd, data):
    while data:
        data = data[os.write(fd, data):]


def _kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass


def _remove_tree(path):
    """Removes what a run left in its directory, even read-only folders."""
    try:
        os.rmdir(path)  # most runs leave nothing: no walk
        return
    except OSError:
        pass
    for _ in range(3):
        for root, dirs, files in os.walk(path, topdown=False):
            for name in files:
                _unlink(os.path.join(root, name))
            for name in dirs:
                full = os.path.join(root, name)
                if os.path.islink(full):
                    _unlink(full)
                else:
                    _rmdir(full)
        if _rmdir(path):
            return


def _unlink(path):
    try:
        os.unlink(path)
    except OSError:
        try:
            os.chmod(os.path.dirname(path), stat.S_IRWXU)
            os.unlink(path)
        except OSError:
            pass


def _rmdir(path):
    try:
        os.rmdir(path)
        return True
    except FileNotFoundError:
        return True
    except OSError:
        try:
            os.chmod(path, stat.S_IRWXU)
            os.chmod(os.path.dirname(path), stat.S_IRWXU)
        except OSError:
            pass
        return False


def _describe(status):
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            return "killed by %s" % signal.Signals(sig).name
        except ValueError:
            return "killed by signal %d" % sig
    return "exit status %d" % os.waitstatus_to_exitcode(status)


def safe_repr(value):
    try:
        return repr(value)
    except BaseException:
        return "<repr failed: %s>" % type(value).__name__


def cut(text, limit=2000):
    return text if len(text) <= limit else text[:limit] + "\u2026<cut %d chars>" % (len(text) - limit)
