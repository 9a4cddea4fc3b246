"""Keeping every process a traced program starts inside its task (Linux, no root needed;
elsewhere these calls do nothing and the recorder falls back to killing process groups).

- The child runs as a *subreaper* (PR_SET_CHILD_SUBREAPER, set when the program first could
  start a process, see contain_on_demand): a process the program starts
  and abandons (fork, setsid, the middle process exits: a daemon) is re-parented to the
  child instead of init. So "the child has no children" means "nothing of this task is
  left", and before the child exits it kills and reaps them all (kill_descendants).
- The child dies with the recorder (PR_SET_PDEATHSIG = SIGKILL, set at the same moment, and
  before any os.kill: a program that kills the recorder goes with it), and so does every
  copy the program forks with os.fork (the child's fork hook sets it in the copy). A
  program that does none of this stops at its own time limit if the recorder dies.
- The recorder is a subreaper too: the descendants of a child that died without cleaning
  up (a signal, a limit) are re-parented to it, and it kills them (sweep_orphans).
- The recorder is not dumpable (PR_SET_DUMPABLE 0): a traced program runs as the same
  user, and this keeps it out of /proc/RECORDER/fd, where the unnamed trace files are.

What no scheme without namespaces or root can prevent: a program that kills the recorder
(same user) and has also started a program through exec, which then outlives both."""
import os
import signal
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36

_prctl = None


def _function():
    global _prctl
    if _prctl is None:
        try:
            import ctypes
            _prctl = ctypes.CDLL(None, use_errno=True).prctl
        except (ImportError, OSError, AttributeError):
            _prctl = False
    return _prctl


def prctl(option, value):
    """Linux prctl(option, value); False where it is missing or fails."""
    f = _function()
    return bool(f) and f(option, value, 0, 0, 0) == 0


# What a program does before it can start or signal another process: these audit events,
# or importing the modules that fork without one (_posixsubprocess) or call C (_ctypes).
SPAWN_EVENTS = frozenset((
    "os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "os.system", "os.exec",
    "subprocess.Popen", "ctypes.dlopen", "os.kill", "os.killpg", "signal.pthread_kill"))
SPAWN_MODULES = frozenset(("_posixsubprocess", "_ctypes"))


def contain_on_demand(parent_pid):
    """Makes this process a subreaper that dies with `parent_pid`, the first time the
    program could start or signal a process (an audit hook; Python cannot remove one).
    Lazily, because loading ctypes costs more than the start-up of a small task, and a
    program that starts nothing needs neither setting: its own limits end it. Forked
    copies get their setting from the child's fork hook instead."""
    owner = os.getpid()
    done = []

    def contain():
        done.append(True)  # first: loading ctypes raises audit events of its own
        die_with_parent(parent_pid)
        prctl(PR_SET_CHILD_SUBREAPER, 1)

    def hook(event, args):
        if done or os.getpid() != owner:
            return
        if event in SPAWN_EVENTS or (event == "import" and args[0] in SPAWN_MODULES):
            contain()

    if any(m in sys.modules for m in SPAWN_MODULES):
        contain()
    sys.addaudithook(hook)


def die_with_parent(parent_pid):
    """SIGKILL this process when its parent dies; exits at once if it already has."""
    if prctl(PR_SET_PDEATHSIG, signal.SIGKILL) and os.getppid() != parent_pid:
        os._exit(1)


def parents():
    """{pid: parent pid} of every process visible in /proc."""
    out = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name, "rb") as f:
                stat = f.read()
            out[int(name)] = int(stat[stat.rindex(b")") + 2:].split(None, 2)[1])
        except (OSError, ValueError, IndexError):
            continue  # gone meanwhile
    return out


def parent_of(pid):
    """The parent pid of `pid`, or None when it is gone."""
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            stat = f.read()
        return int(stat[stat.rindex(b")") + 2:].split(None, 2)[1])
    except (OSError, ValueError, IndexError):
        return None


def descendants(root, table=None):
    """Pids below `root`, parents before children."""
    children = {}
    for pid, ppid in (parents() if table is None else table).items():
        children.setdefault(ppid, []).append(pid)
    out = []
    todo = [root]
    while todo:
        for pid in children.get(todo.pop(), ()):
            out.append(pid)
            todo.append(pid)
    return out


def _kill(pids):
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def kill_descendants(seconds=2.0):
    """In a subreaper: kills and reaps every descendant. Costs one waitpid when there are
    none. Returns False if some were still there after `seconds` (a fork bomb)."""
    me = os.getpid()
    deadline = time.monotonic() + seconds
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return True  # no children, so no descendants: orphans come back to us
        if pid:
            continue
        if time.monotonic() > deadline:
            return False
        _kill(descendants(me))
        time.sleep(0.002)


def sweep_orphans(keep, seconds=2.0):
    """In the recorder: kills and reaps every child of this process not in `keep` (the
    live task children) and everything below them. Returns the number of such children."""
    me = os.getpid()
    deadline = time.monotonic() + seconds
    swept = set()
    while time.monotonic() < deadline:
        table = parents()
        strays = [pid for pid, ppid in table.items() if ppid == me and pid not in keep]
        if not strays:
            break
        for pid in strays:
            _kill([pid] + descendants(pid, table))
            swept.add(pid)
        for pid in strays:
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass
    return len(swept)
