"""Parent side: one child process per task, limits enforced from outside, and the trace
always left well-formed (header, complete event lines, one end record).

Trust: the child runs the traced program, so nothing it says is taken on faith.
- Its records arrive over the channel (channel.py) into an unnamed temporary file
  (O_TMPFILE: no path exists, and this process is not dumpable, so /proc/PID/fd is closed
  to the program too); what arrives without the task's token marks the trace `tampered`.
- How the trace ends is decided here (`decide_end`): from the process's wait status, the
  parent's own timer and rusage; the child's end record is taken only when the process then
  exits by itself with the status that record names. A killed child is never `normal`.
- The event count is counted here, from the lines received."""
import json
import marshal
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor

from . import procs
from .channel import Receiver, TOKEN_BYTES, socket_pair
from .output import Output

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The child checks its own clock; the parent kills it this long after the time limit
# (covers interpreter start-up and code stuck in C where no event or signal handler runs).
GRACE_SECONDS = 5.0
TERM_SECONDS = 1.0  # between the parent's SIGTERM and its SIGKILL
_CHUNK = 1 << 20
EXITS = ("normal", "error", "never")

# Live task children (pid -> Popen): a stray child of this process that is not one of them
# was left by a task that ended, and is killed. Spawning and sweeping hold the lock, so a
# child is never mistaken for a stray between its fork and its registration.
_live = {}
_lock = threading.Lock()
_stopping = threading.Event()


class Stopped(Exception):
    """The recorder was told to stop by signal `signum`; nothing is written."""

    def __init__(self, signum=signal.SIGTERM):
        super().__init__(signum)
        self.signum = int(signum)

    def __str__(self):
        return signal.Signals(self.signum).name


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
    # STEPSCOPE_FORK_SERVER is the recorder's, not the program's: the environment is part of
    # the heap a child starts from, so a trace must not depend on how this switch was spelt.
    for var in ("PYTHONSTARTUP", "PYTHONINSPECT", "PYTHONBREAKPOINT", "STEPSCOPE_FORK_SERVER"):
        env.pop(var, None)
    return env


def spec_bytes(spec):
    """A task's spec as the child reads it (child._read_spec): its length, then its marshal
    form (the child runs this interpreter; marshal.loads is one C call where json.loads runs
    the decoder's Python code, whose pages each task child copies on first touch)."""
    data = marshal.dumps(spec)
    return b"%016x" % len(data) + data


def record_task(task):
    """Records one task. Returns (Result, trace) where trace is an unnamed binary file,
    positioned at 0, holding the complete trace (header, events, end record)."""
    trace = tempfile.TemporaryFile()
    try:
        header = task.header_line().encode("utf-8")
        trace.write(header)
        token = os.urandom(TOKEN_BYTES)
        spec = dict(task.child_spec(), token=token.hex())
        limits = task.header["limits"]
        parent_sock, child_sock = socket_pair()
        receiver = Receiver(parent_sock, token, trace, len(header))
        started = time.monotonic()
        try:
            hashseed = task.header["hashseed"]
            status, rusage, timed_out, out_bytes = _run_child(
                spec, child_sock, receiver, child_env(hashseed), hashseed,
                float(limits["seconds"]) + GRACE_SECONDS)
        finally:
            parent_sock.close()
        end = decide_end(receiver, status, rusage, timed_out, limits, time.monotonic() - started)
        end["stdout_bytes"] = out_bytes
        if receiver.tampered is not None:
            end["tampered"] = receiver.tampered
        trace.truncate(receiver.last_newline + 1)  # a line cut off by the child's death
        trace.seek(0, os.SEEK_END)
        trace.write((json.dumps(end) + "\n").encode("utf-8"))
        trace.seek(0)
        return Result(task.name, end), trace
    except BaseException:
        trace.close()
        raise


class _Forked:
    """A task child the fork server made (what _run_child uses of a Popen)."""

    def __init__(self, pid, stdout):
        self.pid = pid
        self.stdout = stdout
        self.returncode = None


class ForkServer:
    """A warm interpreter (`child.py --serve`) that forks the task children of one hash
    seed: a child then costs a fork instead of an interpreter start-up and imports. The
    children are the same as Popen's (child.serve says how): this process's own children,
    in their own session, same environment, descriptors, stack depth and limits; and each
    starts from the same heap, so a trace does not depend on which server forked it, or
    how many tasks it forked before. A child forked as this process's child (clone
    CLONE_PARENT) has as its parent thread the one that started its server, and a child
    that set PR_SET_PDEATHSIG (procs.die_with_parent) dies with that thread: servers are
    started by threads that outlive the tasks (record_all's pool, serve's main thread).

    The default where the recorder is a subreaper (Linux): one server per hash seed for the
    whole run. With STEPSCOPE_FORK_SERVER=0, and for a seed whose server failed (it did not
    start, died, answered wrongly or not within SERVER_SECONDS; a traced program may kill or
    stop it), each task gets a server of its own, started for it and closed after one fork:
    an interpreter per task, recording the same bytes (`one_shot`)."""

    def __init__(self, env, one_shot=False):
        import socket
        self._socket = socket
        self.control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        go_r, self.go = os.pipe()
        try:  # stdin and stdout: no descriptor numbers in its argv (child.serve)
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "stepscope_recorder.child", "--serve"],
                stdin=go_r, stdout=theirs.fileno(), stderr=subprocess.DEVNULL,
                env=env, start_new_session=True)
        except BaseException:
            self.control.close()
            os.close(self.go)
            raise
        finally:
            theirs.close()
            os.close(go_r)
        self.control.settimeout(SERVER_SECONDS)
        if one_shot:
            os.write(self.go, b"t")

    def spawn(self, spec_r, channel_fd, go=True):
        """A _Forked task child, or None when the server failed (it is then unusable)."""
        out_r, out_w = os.pipe()
        try:
            self._socket.send_fds(self.control, [b"%d" % os.getpid()], [spec_r, channel_fd, out_w])
            if go:
                os.write(self.go, b"t")
            reply = self.control.recv(32)
        except OSError:
            reply = b""
        finally:
            os.close(out_w)
        pid = int(reply) if reply.isdigit() else 0
        if pid > 0 and self._adopted(pid):
            return _Forked(pid, open(out_r, "rb", buffering=0))
        os.close(out_r)
        if pid > 0:
            _kill_group(pid)
        return None

    @staticmethod
    def _adopted(pid):
        """True once `pid` is this process's child: at once when the server forked it as
        this process's child, once its middle process has exited otherwise (child.serve)."""
        deadline = time.monotonic() + SERVER_SECONDS
        while True:
            ppid = procs.parent_of(pid)
            if ppid == os.getpid():
                return True
            if ppid is None or time.monotonic() > deadline:
                return False
            time.sleep(0.0002)

    def close(self, kill=False):
        self.control.close()
        os.close(self.go)  # the server exits on its own when it sees this
        if kill:
            self.proc.kill()
        try:
            self.proc.wait(SERVER_SECONDS)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


SERVER_SECONDS = 10.0
_servers = {}  # hash seed -> ForkServer, or None once it failed; guarded by _lock
_use_servers = [False]  # one server per seed for the whole run
_forking = [False]      # task children forked by servers (one-shot ones without _use_servers)
# One-shot servers spawn outside _lock (each starts an interpreter); until their task child
# is registered it could be taken for a stray, so a sweep waits for them (_sweep).
_one_shots = set()      # their pids
_in_flight = [0]
_settled = threading.Condition(_lock)


def start_forking(warm):
    """Makes this process a subreaper, so that task children forked by fork servers are its
    own (Linux); then every task child is forked by one, and with `warm` (unless
    STEPSCOPE_FORK_SERVER=0) by one server per hash seed kept for the run. Returns whether
    children are forked (otherwise each is an interpreter started by Popen)."""
    _forking[0] = procs.prctl(procs.PR_SET_CHILD_SUBREAPER, 1)
    _use_servers[0] = warm and _forking[0] and os.environ.get("STEPSCOPE_FORK_SERVER") != "0"
    if not _prepared:  # once per process: a warm recorder calls this for every request
        _prepared.append(True)
        _compile_recorder()
        _fixed_layout()
    return _forking[0]


_prepared = []


ADDR_NO_RANDOMIZE = 0x0040000


def _fixed_layout():
    """Turns off address space layout randomisation for the processes this one starts from
    now on (Linux personality, inherited across fork and exec): the fork servers, and so the
    task children. pymalloc takes 1 MiB arenas from mmap and carves 16 KiB-aligned pools out
    of them, so where ASLR puts an arena decides how many pools it holds, when the next is
    needed, and so which freed addresses a program's objects take again: CRUXEval's
    sample_231 numbered a list_iterator 0x2 once in 800 tasks, 0x1 every other time. The
    program runs as this user anyway; ASLR guards against memory-corruption exploits, not
    against the Python code being traced."""
    try:
        import ctypes
        personality = ctypes.CDLL(None, use_errno=True).personality
        personality.argtypes = (ctypes.c_ulong,)
        personality.restype = ctypes.c_int
        current = personality(0xFFFFFFFF)  # reads it
        if current != -1:
            personality(current | ADDR_NO_RANDOMIZE)
    except (ImportError, OSError, AttributeError):
        pass


def _compile_recorder():
    """Writes the .pyc files of the recorder's modules that are missing or stale, before any
    server starts. A module loaded from a .pyc leaves other objects behind than one compiled
    from source (with setarch -R: other addresses), and children run with
    PYTHONDONTWRITEBYTECODE, so the child's modules got .pyc files only from other processes
    (a test run, an import without the variable): one written in the middle of a run changed
    the heap of every later server, and the numbers a trace gives addresses. Where the folder
    is not writable nobody else can write them either."""
    import compileall
    try:
        compileall.compile_dir(os.path.dirname(os.path.abspath(__file__)), maxlevels=0, quiet=2)
    except OSError:
        pass


def _server(env, hashseed):
    if not _use_servers[0]:
        return None
    if hashseed not in _servers:
        try:
            _servers[hashseed] = ForkServer(env)
        except (OSError, AttributeError, ValueError):  # AttributeError: no socket.send_fds
            _servers[hashseed] = None
    return _servers[hashseed]


def _keep():
    """Children of this process that are not strays: the live tasks and the fork servers."""
    return set(_live) | _one_shots | {s.proc.pid for s in _servers.values() if s is not None}


def _sweep():
    """procs.sweep_orphans once no one-shot spawn is in flight; the caller holds _lock."""
    while _in_flight[0]:
        _settled.wait()
    procs.sweep_orphans(_keep())


def _close_servers():
    with _lock:
        servers = [s for s in _servers.values() if s is not None]
        _servers.clear()
    for s in servers:
        s.close()


def use_fork_servers(on):
    """Whether record_task forks its children from fork servers kept between calls until
    close_fork_servers (with `on`), or from a server per task; a server that failed is replaced
    at the next task. For a recorder that stays up (counterfactual.serve). Returns whether
    kept servers are used (False where they cannot be, or with STEPSCOPE_FORK_SERVER=0)."""
    with _lock:
        for seed in [s for s, server in _servers.items() if server is None]:
            del _servers[seed]
    start_forking(bool(on))
    return _use_servers[0]


def start_fork_server(hashseed):
    """Starts the fork server of `hashseed` now rather than at its first task (it starts in
    the background: its first task waits for it)."""
    with _lock:
        _server(child_env(hashseed), hashseed)


close_fork_servers = _close_servers


def _popen(spec_r, child_sock, env):
    cmd = [sys.executable, "-m", "stepscope_recorder.child", str(spec_r),
           str(child_sock.fileno()), str(os.getpid())]
    return subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env=env, start_new_session=True,
                            pass_fds=(spec_r, child_sock.fileno()))


def _spawn(spec_r, child_sock, env, hashseed):
    with _lock:
        if _stopping.is_set():
            raise Stopped()
        server = _server(env, hashseed)
        if server is not None:
            proc = server.spawn(spec_r, child_sock.fileno())
            if proc is not None:
                _live[proc.pid] = proc
                return proc
            # What it may have forked for this request must not read the spec: it is
            # ours now (a subreaper's) and not live, so the sweep kills it.
            _servers[hashseed] = None
            server.close(kill=True)
            _sweep()
        one = None
        if _forking[0]:
            try:
                one = ForkServer(env, one_shot=True)
            except (OSError, AttributeError, ValueError):
                pass
        if one is None:  # no subreaper (not Linux), or no server can start
            proc = _popen(spec_r, child_sock, env)
            _live[proc.pid] = proc
            return proc
        _one_shots.add(one.proc.pid)
        _in_flight[0] += 1
    proc = None
    try:
        proc = one.spawn(spec_r, child_sock.fileno(), go=False)
    finally:
        with _lock:
            _in_flight[0] -= 1
            if proc is not None:
                _live[proc.pid] = proc
                if _stopping.is_set():  # stop_all ran meanwhile
                    _kill_group(proc.pid)
            _settled.notify_all()
        one.close(kill=proc is None)
        with _lock:
            _one_shots.discard(one.proc.pid)
            if proc is None:
                _sweep()
                if _stopping.is_set():
                    raise Stopped()
                proc = _popen(spec_r, child_sock, env)
                _live[proc.pid] = proc
    return proc


def _thread(target):
    t = threading.Thread(target=target, daemon=True)
    t.start()
    return t


def _run_child(spec, child_sock, receiver, env, hashseed, kill_after):
    spec_r, spec_w = os.pipe()
    try:
        proc = _spawn(spec_r, child_sock, env, hashseed)
    except BaseException:
        os.close(spec_w)
        raise
    finally:
        os.close(spec_r)
        child_sock.close()
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

    reader = _thread(drain)
    receiving = _thread(receiver.run)
    try:
        with os.fdopen(spec_w, "wb") as f:
            f.write(spec_bytes(spec))
    except OSError:
        pass  # the child died before reading it; its wait status says how
    timed_out, status, rusage = _wait_or_kill(proc.pid, kill_after)
    proc.returncode = os.waitstatus_to_exitcode(status)
    _kill_group(proc.pid)  # whatever the program left running in its process group
    if os.WIFEXITED(status):
        receiving.join(1.0)  # the end record, if sent, is in the socket already
    with _lock:
        del _live[proc.pid]
        # The child kills what the program started before it sends its end record and
        # exits; if it was killed instead, those processes are now this process's children.
        if receiving.is_alive() or receiver.end is None or not os.WIFEXITED(status):
            _sweep()
    receiving.join(10.0)
    if receiving.is_alive():  # a copy of the channel survived somewhere: stop listening
        receiver.stop()
        receiving.join()
        receiver.tampered = receiver.tampered or "the channel stayed open after the child ended"
    reader.join(2.0)
    proc.stdout.close()
    return status, rusage, timed_out, counted[0]


def _wait_or_kill(pid, kill_after):
    """Waits for child `pid`; `kill_after` seconds on, first asks it to end (the child's
    SIGTERM handler flushes its events and sends its end record), then, TERM_SECONDS later,
    forces it (code stuck in C never runs that handler). Returns (timed out, wait status,
    rusage). Waits on a pidfd where there is one, else with a timer thread."""
    try:
        pidfd = os.pidfd_open(pid)
    except (AttributeError, OSError):  # not Linux 5.3+
        pidfd = None
    if pidfd is None:
        return _wait_with_timer(pid, kill_after)
    try:
        poll = select.poll()
        poll.register(pidfd, select.POLLIN)
        timed_out = not poll.poll(kill_after * 1000)
        if timed_out:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            else:
                if not poll.poll(TERM_SECONDS * 1000):
                    _kill_group(pid)
    finally:
        os.close(pidfd)
    _, status, rusage = _wait(pid)
    return timed_out, status, rusage


def _wait_with_timer(pid, kill_after):
    timed_out = threading.Event()
    exited = threading.Event()

    def kill():
        timed_out.set()
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        if not exited.wait(TERM_SECONDS):
            _kill_group(pid)

    timer = threading.Timer(kill_after, kill)
    timer.daemon = True
    timer.start()
    _, status, rusage = _wait(pid)
    exited.set()
    timer.cancel()
    return timed_out.is_set(), status, rusage


def _wait(pid):
    while True:
        try:
            return os.wait4(pid, 0)
        except InterruptedError:
            continue


def _kill_group(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _claim(receiver):
    """The child's own end record as a dict, or None (marking the trace when malformed)."""
    if receiver.end is None or receiver.tampered is not None:
        return None
    try:
        claim = json.loads(receiver.end)
        if (claim["exit"] in EXITS and isinstance(claim["reason"], (str, type(None)))
                and isinstance(claim["code"], int) and isinstance(claim["seconds"], (int, float))):
            return claim
    except (ValueError, KeyError, TypeError):
        pass
    receiver.tampered = "a malformed end record, after %d events" % receiver.lines
    return None


def decide_end(receiver, status, rusage, timed_out, limits, wall):
    """The end record, from what this process observed (module docstring)."""
    end = {"type": "end", "exit": "never", "reason": None, "events": receiver.lines,
           "seconds": round(wall, 6)}
    claim = _claim(receiver)
    if receiver.tampered is not None:
        end["reason"] = "trace tampered with"
    elif timed_out:
        end["reason"] = "time limit %gs" % float(limits["seconds"])
    elif os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        # RLIMIT_AS makes allocations fail (MemoryError); a child killed while near the
        # limit is reported as the memory limit rather than a bare signal.
        if sig in (signal.SIGKILL, signal.SIGSEGV, signal.SIGABRT) and \
                rusage.ru_maxrss * 1024 >= 0.9 * limits["memory_mb"] * 1024 * 1024:
            end["reason"] = "memory limit %d MB" % limits["memory_mb"]
        else:
            end["reason"] = "killed by signal %d" % sig
    elif claim is not None and claim["code"] == os.WEXITSTATUS(status):
        end.update(exit=claim["exit"], reason=claim["reason"], seconds=claim["seconds"])
    else:
        end["reason"] = "recorder child exited with status %d before the end" % os.WEXITSTATUS(status)
    return end


def stop_all():
    """Kills every live child (and what they started); no new child starts afterwards."""
    _stopping.set()
    with _lock:
        for pid in list(_live):
            _kill_group(pid)
            procs._kill([pid] + procs.descendants(pid))


def record_all(tasks, out_path, jobs=1, on_result=None):
    """Records tasks (jobs at a time) into out_path in input order. The file appears only
    when complete: until then it is an unnamed file (output.py). Returns the Results."""
    start_forking(warm=True)
    procs.prctl(procs.PR_SET_DUMPABLE, 0)
    _stopping.clear()
    jobs = max(1, jobs)
    results = []
    out = Output(out_path)
    pool = ThreadPoolExecutor(max_workers=jobs)
    pending = deque()  # futures in input order; a bounded window keeps few files open
    try:
        it = iter(tasks)
        while True:
            while len(pending) < 4 * jobs:
                task = next(it, None)
                if task is None:
                    break
                pending.append(pool.submit(record_task, task))
            if not pending:
                break
            result, trace = pending.popleft().result()
            with trace:
                out.append(trace)
            results.append(result)
            if on_result:
                on_result(result)
        out.commit()
    except BaseException:
        stop_all()
        for fut in pending:
            fut.cancel()
        out.discard()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        _close_servers()
        for fut in pending:
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                fut.result()[1].close()
    return results


def summary(results, seconds):
    exits = {"normal": 0, "error": 0, "never": 0}
    for r in results:
        exits[r.exit] = exits.get(r.exit, 0) + 1
    tampered = sum(1 for r in results if "tampered" in r.end)
    return "recorded %d traces, %d events; exits: normal %d, error %d, never %d%s (%.1fs)" % (
        len(results), sum(r.events for r in results), exits["normal"], exits["error"],
        exits["never"], "; %d marked tampered" % tampered if tampered else "", seconds)
