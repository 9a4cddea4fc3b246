"""What sandboxed code may not do, enforced by an audit hook (PEP 578) in the forked child.

Installed once per run, right before the untrusted code starts; the hook is interpreter
state, so the run's own forks inherit it, and it cannot be removed. Refused operations
raise PermissionError inside the program (as an OS would), so a generation that tries one
fails or errors like any other wrong answer.

- Network: every `socket.*` event (creating a socket, connect, bind, name lookups).
- New programs: `os.exec*`, `os.posix_spawn`, `os.spawn*`, `os.system`, `subprocess.Popen`
  (an exec'd program would not carry this hook, so it could use the network). `os.fork`
  is allowed: the fork keeps the hook, and the sandbox kills the whole process tree.
- `ctypes` (dlopen, symbol lookup, foreign calls, raw memory), which would bypass all this.
- Files: opening for writing, creating, removing, renaming, linking or changing the mode of
  a path outside the run's temporary directory (the cwd, removed after the run).
- Signals to processes outside the run's process group; raising its resource limits.

Known limits: this is not a security boundary against code written to escape (e.g. code
that reaches already-loaded native helpers through `_posixsubprocess` or writes through a
file descriptor inherited before the hook). It keeps honest-but-wrong code (model
generations, user programs) from touching the network, other processes or the disk."""
import os
import sys

try:  # loaded once in the worker, so that each run only replaces its fork_exec (see _seal)
    import _posixsubprocess
except ImportError:
    _posixsubprocess = None

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_PROGRAMS = frozenset(("os.exec", "os.posix_spawn", "os.spawn", "os.system", "os.startfile",
                       "subprocess.Popen", "pty.spawn"))
# Events whose path arguments must stay inside the run's directory.
_PATH_EVENTS = frozenset(("os.remove", "os.rename", "os.rmdir", "os.mkdir", "os.chmod",
                          "os.chown", "os.link", "os.symlink", "os.truncate", "os.utime",
                          "os.chflags", "os.lchflags", "os.lchmod", "os.lchown", "os.mkfifo",
                          "os.mknod", "os.setxattr", "os.removexattr", "shutil.rmtree",
                          "shutil.copyfile", "shutil.copymode", "shutil.copystat",
                          "shutil.copytree", "shutil.move", "shutil.chown",
                          "shutil.make_archive", "shutil.unpack_archive", "sqlite3.connect"))
_ALLOWED_WRITE = frozenset((os.devnull,))
# Path events whose trailing int arguments are directory descriptors (-1: none).
_DIR_FD_EVENTS = {"os.mkdir": 1, "os.chmod": 1, "os.chown": 1, "os.rename": 2, "os.remove": 1,
                  "os.rmdir": 1, "os.link": 2, "os.symlink": 1, "os.utime": 1, "os.mknod": 1,
                  "os.mkfifo": 1}
# Events whose first argument may be an open descriptor instead of a path.
_FD_EVENTS = frozenset(("os.chmod", "os.chown", "os.utime", "os.truncate", "os.setxattr",
                        "os.removexattr", "os.chflags"))


_state = {"root": "/", "prefix": "/", "group": 0, "sealed": False}


def _refuse(what):
    raise PermissionError("not allowed in the sandbox: %s" % what)


def _fd_inside(fd):
    """Whether descriptor `fd` names something in the run's directory (or /dev/null)."""
    if fd < 0:
        return True  # AT_FDCWD and "none": the run's cwd is its directory
    try:
        target = os.readlink("/proc/self/fd/%d" % fd)
    except OSError:
        return False
    return target in _ALLOWED_WRITE or target == _state["root"] or target.startswith(_state["prefix"])


def _inside(path):
    if isinstance(path, int):  # a file descriptor already open
        return _fd_inside(path)
    try:
        path = os.fspath(path)
    except TypeError:
        return True  # not a path argument
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if path in _ALLOWED_WRITE or path == ":memory:":
        return True
    full = os.path.realpath(path)
    return full == _state["root"] or full.startswith(_state["prefix"])


def _in_group(pid):
    if pid == 0 or pid == os.getpid():
        return True
    try:
        return pid > 0 and os.getpgid(pid) == _state["group"]
    except OSError:
        return False


def _hook(event, args):
    if event[:7] == "socket.":
        _refuse("network use (%s)" % event)
    if event[:7] == "ctypes.":
        _refuse("ctypes")
    if event == "open":
        path, _mode, flags = args
        if isinstance(path, int) or path is None:
            pass  # a descriptor already open (builtin open on an fd)
        elif flags & _WRITE_FLAGS and not _inside(path):
            _refuse("writing %r outside the run's directory" % (path,))
        elif not _inside(path) and os.path.isdir(path):
            # A directory descriptor would reach outside through dir_fd=, which the
            # audit events of os.open do not show.
            _refuse("opening the directory %r outside the run's directory" % (path,))
    elif event in _PATH_EVENTS:
        if event in _FD_EVENTS and args and type(args[0]) is int and not _fd_inside(args[0]):
            _refuse("%s on a descriptor outside the run's directory" % event)
        for arg in args:
            if isinstance(arg, (str, bytes, os.PathLike)) and not _inside(arg):
                _refuse("%s on %r outside the run's directory" % (event, arg))
        for arg in args[len(args) - _DIR_FD_EVENTS.get(event, 0):]:
            if type(arg) is int and not _fd_inside(arg):
                _refuse("%s relative to a directory outside the run's directory" % event)
    elif event == "import" and args[0] == "_posixsubprocess" and _state["sealed"]:
        _refuse("loading _posixsubprocess again")
    elif event in _PROGRAMS:
        _refuse("starting a program (%s)" % event)
    elif event == "os.kill":
        if not _in_group(args[0]):
            _refuse("signalling process %r" % (args[0],))
    elif event == "os.killpg":
        if args[0] not in (0, _state["group"]):
            _refuse("signalling process group %r" % (args[0],))
    elif event == "resource.setrlimit" or event == "resource.prlimit":
        _refuse("changing resource limits")


def install(workdir):
    """Adds the audit hook for a run whose directory is `workdir` (an absolute real path)
    and whose process group is the caller's. Call in the child only: it is permanent."""
    _state["root"] = workdir
    _state["prefix"] = workdir + os.sep
    _state["group"] = os.getpgid(0)
    _seal()
    sys.addaudithook(_hook)
    _state["sealed"] = True


def _refused(what):
    def refuse(*args, **kwargs):
        _refuse(what)
    return refuse


def _seal():
    """Takes away what raises no audit event: pidfd signals (to any process the uid may
    signal), and the fork-and-exec helper behind subprocess, which the hook then refuses
    to load again (so a second copy cannot be had either)."""
    import _signal
    import posix
    import signal
    for module in (os, posix):
        if hasattr(module, "pidfd_open"):
            module.pidfd_open = _refused("os.pidfd_open")
    for module in (signal, _signal):
        if hasattr(module, "pidfd_send_signal"):
            module.pidfd_send_signal = _refused("signal.pidfd_send_signal")
    if _posixsubprocess is not None:
        _posixsubprocess.fork_exec = _refused("starting a program (_posixsubprocess.fork_exec)")
