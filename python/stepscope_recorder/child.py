"""The child process: runs ONE task under the tracer and sends its events (and its own end
record) to the parent over the trace channel (channel.py).

    python3 -m stepscope_recorder.child SPEC_FD CHANNEL_FD PARENT_PID
    python3 -m stepscope_recorder.child --serve       (the fork server, see serve; Linux)

SPEC_FD: a pipe holding the task in marshal form ({"mode", "filename", "path", "context", "call",
"argv", "limits", "token"}, see runner.py) after its length, read and closed before the
program runs. No file path of the recorder's appears in this process's arguments or environment.
The parent decides how the trace ends (runner.py): this end record is only a claim, taken
when the process then exits by itself with the status the record names."""
import _signal
import _thread
import builtins
import io
import json
import marshal
import os
import signal
import sys
import time
import types

from . import procs
from .channel import Sender
from .monitor import MonitoringTracer
from .tracer import Tracer
from .values import Values, type_name

# The real interpreter limit is this much above the program's, so that the tracer (which
# runs on top of the program's stack) always has room; see Tracer._recursion_error.
RECURSION_HEADROOM = 200

# The signals the child handles itself (its time limit); a forked copy gets their default
# action back (Child.after_fork).
OWN_SIGNALS = (signal.SIGALRM, signal.SIGTERM)


def _set_limit(name, want, soft_too=True):
    """Lowers resource limit `name` to `want` (never raises it past the hard limit)."""
    try:
        import resource
        which = getattr(resource, name)
        soft, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            want = min(want, hard)
        resource.setrlimit(which, (want, want if soft_too else hard))
    except (ImportError, AttributeError, ValueError, OSError):
        pass


def _set_limits(limits):
    # Allocations beyond the memory limit raise MemoryError in the program.
    _set_limit("RLIMIT_AS", int(limits["memory_mb"]) * 1024 * 1024, soft_too=False)
    # A backstop the kernel enforces on this process and everything it starts (inherited
    # across fork and exec): SIGKILL after this much CPU time. The time limit itself is
    # wall time and ends the task far earlier; this only stops a process that somehow
    # outlived its task (see procs.py) from spinning on without a limit.
    _set_limit("RLIMIT_CPU", int(2 * float(limits["seconds"])) + 30)


class Child:
    """`out`: a text stream for event lines; `sender`: the channel it writes to, which
    also takes the end record (None in tests: no end record)."""

    def __init__(self, task, out, sender=None):
        self.task = task
        limits = task["limits"]
        self.limits = limits
        self.out = out
        self.sender = sender
        self.values = Values(limits["repr_chars"])
        self.started = time.monotonic()
        self.ended = False
        self.pid = os.getpid()
        self.time_reason = "time limit %gs" % limits["seconds"]
        self.tracer = None
        self._real_exit = os._exit
        self._on_signal = None  # the handler of OWN_SIGNALS, once installed
        self._fork_masks = {}   # thread id -> signal mask before its fork (before_fork)
        self._forker = None     # pid of the process that forked last (before_fork)

    # -- ending ---------------------------------------------------------------------------
    def forked_copy(self):
        """True in a process forked from the child: it runs on untraced and never writes."""
        return os.getpid() != self.pid

    def end(self, exit, reason, code):
        """Sends the end record once (flushing events first); safe from a signal handler."""
        if self.ended or self.forked_copy():
            return
        self.ended = True
        self.untrace()
        seconds = round(time.monotonic() - self.started, 6)
        if exit != "never" and self.tracer is not None and self.tracer.failed:
            exit, reason = "never", self.tracer.failed
        try:
            self.out.flush()
        except BaseException:
            # E.g. a signal handler interrupting a write of the buffer (re-entry): the
            # events still buffered are lost; the parent counts what arrived.
            pass
        if self.sender is not None:
            try:
                self.sender.send_end(json.dumps({"exit": exit, "reason": reason, "seconds": seconds,
                                                 "code": code & 0xFF}).encode("ascii"))
            except OSError:
                pass  # the channel is gone (the program closed it, the parent died)

    def untrace(self):
        """Stops recording (whichever backend records)."""
        if self.tracer is not None:
            self.tracer.halt()
        else:
            sys.settrace(None)

    def hard_exit(self, exit, reason, code=0):
        code = code if isinstance(code, int) else 1
        if self.forked_copy():
            self._real_exit(code)
        try:
            signal.setitimer(signal.ITIMER_REAL, 0)
        except BaseException:
            pass
        try:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except BaseException:
                    pass
            procs.kill_descendants()  # nothing the program started outlives its task
            self.end(exit, reason, code)
        finally:
            self._real_exit(code)

    def on_limit(self, reason):
        self.hard_exit("never", reason, 0)

    # -- isolation hooks --------------------------------------------------------------------
    # Signals across a fork. The child's SIGTERM/SIGALRM handler is Python code: a copy
    # that inherited it would not die of SIGTERM as it does untraced, and a SIGTERM arriving
    # before the interpreter finishes its after-fork set-up can go unhandled (that set-up
    # resets the pending-signal state): the copy runs on. multiprocessing.Pool.terminate()
    # SIGTERMs its workers and then waits for them: a worker starved of CPU until then (a
    # loaded machine) blocked forever on the queue lock the pool holds, and the task ended
    # at its time limit. So OWN_SIGNALS are blocked from just before the fork until the copy
    # has their default action back; one sent meanwhile stays pending, then acts as untraced.
    def before_fork(self):
        self._forker = os.getpid()  # the copy reads it: who forked it
        if hasattr(signal, "pthread_sigmask"):
            mask = signal.pthread_sigmask(signal.SIG_BLOCK, OWN_SIGNALS)
            self._fork_masks[_thread.get_ident()] = mask

    def _restore_mask(self):
        mask = self._fork_masks.pop(_thread.get_ident(), None)
        if mask is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)

    def after_fork_in_parent(self):
        self._restore_mask()

    def after_fork(self):
        """Runs in every copy the program forks with os.fork (not in exec'd programs)."""
        self.untrace()
        if self.sender is not None:
            self.sender.disable()
        # Only a copy whose parent is the child dies with it: a copy of a copy tied to its own
        # parent would die as that parent exits (a double-fork daemon), which untraced it does
        # not; it stays below the child (a subreaper) and is killed with the task.
        if self._forker == self.pid or os.getppid() == self.pid:
            procs.die_with_parent(self.pid)
        for sig in OWN_SIGNALS:
            # A handler the program set itself is the copy's to inherit, as untraced.
            if self._on_signal is not None and signal.getsignal(sig) is self._on_signal:
                try:
                    signal.signal(sig, signal.SIG_DFL)
                except ValueError:  # not the main thread: cannot happen in a fresh copy
                    pass
        self._restore_mask()  # a SIGTERM sent since the fork now ends the copy

    def install_hooks(self):
        real_exit = self._real_exit
        child = self
        os.register_at_fork(before=self.before_fork, after_in_parent=self.after_fork_in_parent,
                            after_in_child=self.after_fork)

        def _exit(n):
            if child.forked_copy():
                real_exit(n)
            child.hard_exit("never", "os._exit(%r)" % (n,), n if isinstance(n, int) else 1)
        os._exit = _exit

        # Anything that may kill this process on purpose first flushes the events written
        # so far (the trace ends where the program died instead of at the last 1 MB buffer).
        def flushing(fn):
            def wrapper(*args, **kwargs):
                try:
                    if not child.forked_copy():
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
        self._on_signal = on_alarm
        # _signal.signal: signal.signal's call without its enum conversions, Python code whose
        # pages a task child would copy on first touch (as it does every page it writes to)
        _signal.signal(signal.SIGALRM, on_alarm)
        _signal.signal(signal.SIGTERM, on_alarm)  # the parent's timeout, before its SIGKILL
        signal.setitimer(signal.ITIMER_REAL, float(self.limits["seconds"]))
        _set_limits(self.limits)

    # -- running --------------------------------------------------------------------------
    def run(self):
        task = self.task
        program_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(program_limit + RECURSION_HEADROOM)
        self.install_hooks()
        filename = task["filename"]
        context = task["context"]
        backend = MonitoringTracer if task.get("backend") == "monitoring" else Tracer
        self.tracer = backend(
            filename, context, self.out.write, self.values, int(self.limits["events"]),
            self.started + float(self.limits["seconds"]), self.time_reason, self.on_limit,
            program_limit, self.out.flush, edits=frame_edits(task.get("edits")))
        if task["mode"] == "call":
            self.run_call(filename, context)
        else:
            self.run_script(filename, task.get("path") or filename, context, task.get("argv") or [])
        self.hard_exit(*self.status)

    def _outcome(self, run):
        """Runs `run` under the tracer; sets self.status to (exit, reason)."""
        self.tracer.start()
        try:
            run()
            self.status = ("normal", None)
        except BaseException as e:  # SystemExit and KeyboardInterrupt leave the program too
            self.status = ("error", self.values.text(_safe_repr(e)))
        finally:
            lost = self.tracer.finish()
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
            self.status = ("error", self.values.text(_safe_repr(e)))
            return
        self._outcome(entry)

    def run_script(self, filename, path, context, argv):
        """`filename`: what the code is compiled as (the header's, spelt as text); `path`:
        the file on disk, for __file__, sys.argv[0] and sys.path[0]."""
        module = types.ModuleType("__main__")
        module.__dict__.update({"__builtins__": builtins, "__file__": path})
        sys.modules["__main__"] = module
        sys.argv = [path] + list(argv)
        sys.path[0] = os.path.dirname(os.path.abspath(path))
        try:
            code = compile(context, filename, "exec")
        except BaseException as e:
            self.status = ("error", self.values.text(_safe_repr(e)))
            return
        self._outcome(lambda: exec(code, module.__dict__))


def frame_edits(spec):
    """{seq: edit(frame)} from a task's "edits", [[seq, [[name, literal text], ...]], ...]
    (counterfactual.py). The literals are parsed here, so each value is a fresh object of this
    process. An edit that cannot be made is left out silently: the parent compares the edited
    state with what it asked for and refuses the recording when they differ."""
    if not spec:
        return None
    import ast
    write_back = None
    if sys.version_info < (3, 13):
        # 3.11/3.12: f_locals is a snapshot dict; PyFrame_LocalsToFast copies it back into the
        # frame's fast locals and cells now, before the tracer reads f_locals again (which
        # would refresh the dict from the unchanged fast locals). 3.13 (PEP 667): f_locals is
        # a write-through proxy. Imported before the program runs, not during its trace.
        import ctypes
        to_fast = ctypes.pythonapi.PyFrame_LocalsToFast
        to_fast.argtypes = (ctypes.py_object, ctypes.c_int)
        to_fast.restype = None

        def write_back(frame):
            to_fast(frame, 0)

    def make(pairs):
        values = [(name, ast.literal_eval(text)) for name, text in pairs]

        def edit(frame):
            try:
                loc = frame.f_locals
                for name, value in values:
                    if name in loc:
                        loc[name] = value
                if write_back is not None:
                    write_back(frame)
            except BaseException:
                pass
        return edit
    return {int(seq): make(pairs) for seq, pairs in spec}


def _safe_repr(value):
    try:
        return repr(value)
    except BaseException:
        return "<repr failed: %s>" % type_name(value)


def _read_exactly(fd, n):
    """n bytes from fd (fewer at end of file) in one buffer made up front: however the
    bytes arrive (a large spec comes in pieces, as the recorder's write and this read
    interleave), the objects left behind are the same, so the program's heap is too."""
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        k = os.readv(fd, [view[got:]])
        if not k:
            break
        got += k
    view.release()
    del buf[got:]
    return buf


def _read_spec(fd):
    """The task: its length as 16 hex digits, then its marshal form (runner.spec_bytes)."""
    size = _read_exactly(fd, 16)
    spec = marshal.loads(_read_exactly(fd, int(size, 16)))
    os.close(fd)
    return spec


# clone (not clone3: container runtimes' seccomp filters refuse clone3, whose flags they cannot
# read, and let clone through when its flags ask for no new namespace), and its flags.
_SYS_CLONE = {"x86_64": 56, "aarch64": 220}
_SYS_GET_ROBUST_LIST = {"x86_64": 274, "aarch64": 100}
_SYS_SET_ROBUST_LIST = {"x86_64": 273, "aarch64": 99}
_CLONE_SIGHAND = 0x00000800
_CLONE_PARENT = 0x00008000
_CLONE_CHILD_SETTID = 0x01000000


def _fork_to_parent():
    """A function that forks this process as os.fork does (glibc's thread id and robust list
    set in the copy, Python's at-fork hooks run on both sides), except that the copy is the
    child of this process's parent (clone with CLONE_PARENT), and returns its pid (0 in the
    copy). None where that cannot be had: then the server forks a middle process, which forks
    the task child and exits, so that the recorder (a subreaper) adopts it.

    Why: forking here costs page faults (copy-on-write of every page the copy writes to), and
    a middle process took as many as the task child's whole start-up, a third of a task's CPU.

    glibc keeps the thread id in its thread descriptor and does not learn it from a raw clone;
    it is found as the one word of the descriptor's first 2 KiB that holds this (main)
    thread's id, and the kernel writes the copy's id there (CLONE_CHILD_SETTID). Anything
    else (not glibc on x86_64/aarch64, clone with CLONE_PARENT refused, no word or two of
    them) gives None."""
    machine = os.uname().machine
    if machine not in _SYS_CLONE:
        return None
    try:
        import ctypes
        import errno
        api = ctypes.PyDLL(None)  # the GIL stays held across the clone, as os.fork holds it
        libc = ctypes.CDLL(None, use_errno=True)
        # Whether a filter refuses clone with CLONE_PARENT (EPERM, ENOSYS): asked with flags the
        # kernel itself refuses (CLONE_SIGHAND without CLONE_VM is EINVAL), so nothing is made.
        zero = ctypes.c_long(0)
        probe = ctypes.c_long(_CLONE_PARENT | _CLONE_SIGHAND)
        if libc.syscall(ctypes.c_long(_SYS_CLONE[machine]), probe, zero, zero, zero, zero) != -1 \
                or ctypes.get_errno() != errno.EINVAL:
            return None
        pthread_self = libc.pthread_self
        pthread_self.restype = ctypes.c_void_p
        base = pthread_self()
        pid = os.getpid()
        if not base or _thread.get_native_id() != pid:  # the main thread's id is the pid
            return None
        words = (ctypes.c_int * 512).from_address(base)
        found = [i for i, v in enumerate(words) if v == pid]
        if len(found) != 1:
            return None
        syscall = api.syscall
        syscall.restype = ctypes.c_long
        head, size = ctypes.c_void_p(), ctypes.c_size_t()
        if libc.syscall(_SYS_GET_ROBUST_LIST[machine], 0, ctypes.byref(head), ctypes.byref(size)) != 0:
            return None
        # clone(flags, stack, parent_tid, child_tid, tls) on x86_64, (flags, stack, parent_tid,
        # tls, child_tid) on aarch64; stack 0: the copy goes on on this stack, as after fork.
        # The exit signal (flags' low byte) is left 0: with CLONE_PARENT the kernel gives the
        # copy this process's own (SIGCHLD), as a child of the recorder.
        tid = ctypes.c_void_p(base + 4 * found[0])
        tail = (zero, tid, zero) if machine == "x86_64" else (zero, zero, tid)
        # syscall is variadic: every argument a long or a pointer, made once (nothing per fork)
        clone = (ctypes.c_long(_SYS_CLONE[machine]), ctypes.c_long(_CLONE_PARENT | _CLONE_CHILD_SETTID), zero) + tail
        set_robust = (ctypes.c_long(_SYS_SET_ROBUST_LIST[machine]), head, ctypes.c_long(size.value))
        before, after_parent, after_child = (
            getattr(api, name) for name in ("PyOS_BeforeFork", "PyOS_AfterFork_Parent", "PyOS_AfterFork_Child"))
        for f in (before, after_parent, after_child):
            f.restype = None
    except (ImportError, OSError, AttributeError, ValueError):
        return None

    def fork():
        before()
        pid = syscall(*clone)
        if pid == 0:
            syscall(*set_robust)
            after_child()
        else:
            after_parent()
            if pid < 0:
                raise OSError("clone failed")
        return pid
    return fork


def serve(go_fd=0, control_fd=1):
    """The fork server (runner.ForkServer): a warm interpreter with this module loaded that
    forks one task child per request and returns only in that child, with the argv a child
    started as `python3 -m stepscope_recorder.child SPEC_FD CHANNEL_FD PARENT_PID` gets.

    Every task child starts from the same heap, whichever request it serves and whether the
    server is long-lived or started for one task (runner: the path without a warm server):
    the trace numbers object addresses in order of first appearance, so which freed
    address a program's object takes again shows in its bytes. So this loop, which runs
    between requests, allocates nothing that outlives a round (a byte read into a buffer
    made once, a fork; forks are reaped by the kernel, SIGCHLD ignored), and everything
    that differs from request to request (the descriptors, the recorder's pid) is received
    after the fork, by the task child itself (or by the middle process that forks it, where
    the server cannot fork it as the recorder's child: _fork_to_parent).
    Nor does the server's own start differ: its descriptors come as stdin and stdout, so
    its argv holds no descriptor numbers (which would be whatever the recorder had free).

    `go_fd` (stdin): a pipe from the recorder, one byte per task; at its end the server
    exits. `control_fd` (stdout): a socket to the recorder. A task's request is one message
    on the control socket, read by the process the server forked: the recorder's pid as
    text, carrying three descriptors (the spec pipe, the channel, the output pipe). That
    process is the task child, a child of the recorder from the start, which sends its own
    pid as text ("0" on failure); or, without _fork_to_parent, a middle process, which forks
    the task child, sends its pid and exits, so that the task child is re-parented to the
    recorder (a subreaper). The recorder waits for that before it writes the task's spec,
    and then waits for the child and reads its rusage as it would a child of its own."""
    import socket  # here, not in each task child: importing it costs milliseconds
    # What a task child imports before its program (frame_edits, _set_limits): once here, not per task.
    import ast, resource  # noqa: F401
    procs.prctl(procs.PR_SET_DUMPABLE, 0)  # a traced program cannot write into its memory
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # middle processes are reaped by the kernel
    control = socket.socket(fileno=control_fd)
    buffers = [bytearray(1)]
    direct = _fork_to_parent()
    readv, fork = os.readv, direct or os.fork
    try:
        while True:
            if readv(go_fd, buffers) != 1:
                os._exit(0)
            if fork() == 0:
                break
    except OSError:  # e.g. out of processes: the recorder sees the server gone
        os._exit(1)
    try:
        msg, fds, _, _ = socket.recv_fds(control, 64, 3)
        parent = int(msg)
        spec_fd, channel_fd, out_fd = fds
        pid = 0 if direct else os.fork()
    except BaseException:
        try:
            control.send(b"0")
        finally:
            os._exit(1)
    if direct:
        control.send(b"%d" % os.getpid())
    elif pid:
        control.send(b"%d" % pid)
        os._exit(0)
    return _task_child(control, parent, spec_fd, channel_fd, out_fd)


def _task_child(control, parent, spec_fd, channel_fd, out_fd):
    """In the task child: the process state subprocess.Popen gave a child (runner._spawn:
    its own session, stdin /dev/null, stdout and stderr the output pipe, no other
    descriptor, SIGCHLD not ignored), then the argv of one. Where a middle process forked
    it, it is the recorder's child only once that process has exited: main reads the spec
    first, which the recorder writes only then."""
    try:
        os.setsid()
        _signal.signal(signal.SIGCHLD, _signal.SIG_DFL)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)  # was the go pipe
        os.dup2(out_fd, 1)  # was the control socket: the socket object must not close it now
        control.detach()
        os.dup2(out_fd, 2)
        keep = sorted((spec_fd, channel_fd))
        low = 3
        for fd in keep:
            os.closerange(low, fd)
            low = fd + 1
        os.closerange(low, 1 << 20)
        procs.prctl(procs.PR_SET_DUMPABLE, 1)
        os.set_inheritable(spec_fd, True)
        os.set_inheritable(channel_fd, True)
    except BaseException:
        os._exit(1)
    return [sys.argv[0], str(spec_fd), str(channel_fd), str(parent)]


def main(argv):
    if argv[1] == "--serve":
        # Returns in each task child only. main keeps its place on the stack, so a program
        # runs at the same depth as in a child of its own (the recursion limit counts it).
        argv = sys.argv[:] = serve()
    spec_fd, channel_fd, parent = int(argv[1]), int(argv[2]), int(argv[3])
    # The spec first: a forked child is the recorder's own only once the recorder writes it.
    task = _read_spec(spec_fd)
    if os.getppid() != parent:
        os._exit(1)
    procs.contain_on_demand(parent)
    sender = Sender(channel_fd, bytes.fromhex(task.pop("token")))
    out = io.TextIOWrapper(io.BufferedWriter(sender, 1 << 20), encoding="utf-8", newline="\n")
    Child(task, out, sender).run()


if __name__ == "__main__":
    main(sys.argv)
