"""Keeping every process a traced program starts inside its task (Linux, no root needed;
elsewhere these calls do nothing and the recorder falls back to killing process groups).

- The child runs as a *subreaper* (PR_SET_CHILD_SUBREAPER, set between fork and exec by
  contain_child, so the child's interpreter never loads ctypes): a process the program starts
  and abandons (fork, setsid, the middle process exits: a daemon) is re-parented to the
  child instead of init. So "the child has no children" means "nothing of this task is
  left", and before the child exits it kills and reaps them all (kill_descendants).
- The child dies with the recorder (PR_SET_PDEATHSIG = SIGKILL), and so does every copy
  the program forks with os.fork (the child's fork hook sets it in the copy).
- The recorder is a subreaper too: the descendants of a child that died without cleaning
  up (a signal, a limit) are re-parented to it, and it kills them (sweep_orphans).
- The recorder is not dumpable (PR_SET_DUMPABLE 0): a traced program runs as the same
  user, and this keeps it out of /proc/RECORDER/fd, where the unnamed trace files are.

What no scheme without namespaces or root can prevent: a program that kills the recorder
(same user) and has also started a program through exec, which then outlives both."""
import os
import signal
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


def contain_child(parent_pid):
    """A Popen preexec_fn: the new process (before exec, so the interpreter starting there
    pays nothing for ctypes) dies with `parent_pid` and is a subreaper. Both settings
    survive exec. The call is a plain system call through an already-loaded function: safe
    in the forked copy of a process with threads."""
    f = _function()
    if not f:
        return None

    def preexec():
        f(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        f(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
        if os.getppid() != parent_pid:
            os._exit(1)
    return preexec


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
