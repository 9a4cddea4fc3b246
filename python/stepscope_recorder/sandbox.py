"""One sandboxed run, forked from the warm execution worker (execute.py).

Two layers. What the kernel enforces, where this machine has it (`Kernel`, probed once in
the worker; python/README.md says what holds where):
- as root: the run drops to an unprivileged uid/gid of its own (one per worker, in no
  group), so files, processes and signals outside are the kernel's to refuse; its folder
  is chowned to that uid; RLIMIT_NPROC caps its processes and threads;
- Landlock (ABI >= 1): reads only under the interpreter's own folders, writes only in the
  run's folder, no exec; ABI >= 4 no TCP; ABI >= 6 no signal outside the run;
- a network namespace of the worker's own (root: unshare; elsewhere a user namespace
  first, where allowed): no interface but a loopback that is down;
- always: its own process group, SIGKILL when the worker dies, RLIMIT_AS/DATA/FSIZE/CORE,
  stdin/stdout/stderr on /dev/null, cwd and TMPDIR a fresh folder, a minimal environment.
And the audit-hook policy (policy.py) as the second layer, then the check.

The verdict is the worker's, never the run's: the run sends messages (JSON lines) over a
private pipe and the worker's judge (checks.py) decides from what it can check itself. The
code under test can write anything to that pipe, so every message is only a claim, read
with a strict schema; a malformed one is an error verdict with a reason.

The worker: reads messages until the deadline, meanwhile watches the memory of the run's
processes taken together, then SIGKILLs the run's process group whatever happened, reaps
the child, kills and reaps any descendant that left the group (the worker is a child
subreaper on Linux, so such orphans become its children), and removes the folder."""
import json
import os
import resource
import select
import signal
import stat
import struct
import sys
import time

from . import policy

PR_SET_PDEATHSIG = 1
PR_SET_KEEPCAPS = 8
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
MAX_MESSAGE = 256 << 20  # a longer message is refused (a carried value is 32 M characters at most)
ERROR_CHARS = 500  # an error text kept in a verdict: enough to say what, too short to carry a file
POLL = 0.02  # seconds between looks at the memory of a run that has started processes
# The run's uid when the worker is root: this plus the worker's pid (below 2**22), far
# above the ids a system hands out, so no file or process outside belongs to it.
RUN_UID_BASE = 1_900_000_000
RUN_NPROC = 16  # processes and threads of one run (RLIMIT_NPROC counts both, per uid)
RUN_FSIZE = 256 << 20  # the largest file a run may write in its folder
KEEP_ENV = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "PYTHONHASHSEED")

# Landlock (linux/landlock.h); the syscall numbers are the same on every architecture.
_LL_CREATE, _LL_ADD_RULE, _LL_RESTRICT = 444, 445, 446
_LL_VERSION = 1
_FS_EXECUTE, _FS_WRITE, _FS_READ, _FS_READ_DIR = 1, 2, 4, 8
_FS_FILE_ONLY = {1: 0b111, 3: 0b111 | 1 << 14, 5: 0b111 | 1 << 14 | 1 << 15}
_NET_ALL = 0b11  # BIND_TCP | CONNECT_TCP
_SCOPE_ALL = 0b11  # ABSTRACT_UNIX_SOCKET | SIGNAL


def _fs_rights(abi):
    rights = (1 << 13) - 1  # EXECUTE .. MAKE_SYM
    if abi >= 2:
        rights |= 1 << 13  # REFER
    if abi >= 3:
        rights |= 1 << 14  # TRUNCATE
    if abi >= 5:
        rights |= 1 << 15  # IOCTL_DEV
    return rights


def _file_rights(abi):
    return _FS_FILE_ONLY[5 if abi >= 5 else 3 if abi >= 3 else 1]


class Kernel:
    """What the kernel enforces for a run here, probed once in the worker (not in a child:
    each probe costs more than a short run). `notes` says what is missing and why.
    `enabled=False` (tests of the other layer alone) probes nothing and confines nothing."""

    def __init__(self, enabled=True):
        self.notes = []
        self.enabled = enabled
        if not enabled:
            self.libc, self.uid, self.netns, self.landlock, self.read_cap = None, None, False, 0, False
            self.notes.append("kernel layer off (--only hooks)")
            try:
                import ctypes
                self.libc = ctypes.CDLL(None, use_errno=True)
            except (ImportError, OSError):
                pass
            return
        self.libc = self.syscall = None
        try:
            import ctypes
            self.libc = ctypes.CDLL(None, use_errno=True)
            self.syscall = self.libc.syscall
            self.syscall.restype = ctypes.c_long
            self._ctypes = ctypes
        except (ImportError, OSError, AttributeError):
            self.notes.append("no ctypes: no Landlock, no namespaces")
        self.uid = None
        if os.geteuid() == 0:
            self.uid = RUN_UID_BASE + os.getpid()
            self._kill_uid()  # a worker that had this pid may have left processes
        else:
            self.notes.append("not root: runs keep the worker's uid")
        self.netns = self._unshare_net()
        self.landlock = self._landlock_abi()
        self._rules = self._landlock_rules() if self.landlock else None
        self.read_cap = False  # CAP_DAC_READ_SEARCH kept by the run (see _reachable)
        if self.uid is not None and not self._reachable():
            if self.landlock and self.libc is not None:
                self.read_cap = True
                self.notes.append("the interpreter's files are not readable by an unprivileged uid: runs keep "
                                  "CAP_DAC_READ_SEARCH, Landlock bounds their reads to the interpreter's folders")
            else:
                self.uid = None
                self.notes.append("the interpreter's files are not readable by an unprivileged uid and there "
                                  "is no Landlock: runs keep root")

    # -- worker side ----------------------------------------------------------------------
    def _unshare_net(self):
        if self.libc is None or not sys.platform.startswith("linux"):
            return False
        newuser, newnet, newipc = 0x10000000, 0x40000000, 0x08000000
        if os.geteuid() == 0:
            if self.libc.unshare(newnet | newipc) == 0:
                return True
        else:  # a user namespace first, mapping our own ids to themselves
            uid, gid = os.geteuid(), os.getegid()
            if self.libc.unshare(newuser) == 0:
                try:
                    for name, text in (("setgroups", "deny"), ("uid_map", "%d %d 1" % (uid, uid)),
                                       ("gid_map", "%d %d 1" % (gid, gid))):
                        with open("/proc/self/" + name, "w") as f:
                            f.write(text)
                except OSError:
                    pass
                if self.libc.unshare(newnet | newipc) == 0:
                    return True
        self.notes.append("no network namespace: %s" % os.strerror(self._ctypes.get_errno()))
        return False

    def _landlock_abi(self):
        if self.syscall is None:
            return 0
        abi = self.syscall(_LL_CREATE, None, 0, _LL_VERSION)
        if abi < 1:
            self.notes.append("no Landlock: %s" % os.strerror(self._ctypes.get_errno()))
            return 0
        return int(abi)

    def _landlock_rules(self):
        """The packed read-only rules, each with an O_PATH descriptor the child inherits."""
        import site
        import sysconfig
        paths = {os.path.dirname(os.__file__), os.path.dirname(os.path.dirname(__file__))}
        for key in ("stdlib", "platstdlib", "purelib", "platlib"):
            try:
                paths.add(sysconfig.get_path(key))
            except KeyError:
                pass
        try:
            paths.update(site.getsitepackages())
        except AttributeError:
            pass
        dynload = getattr(sys.modules.get("_json"), "__file__", None)
        if dynload:
            paths.add(os.path.dirname(dynload))
        paths.update(p for p in sys.path if p and os.path.isdir(p) and p != os.getcwd())
        paths.update(("/usr/share/zoneinfo", "/etc/localtime", "/usr/lib/locale"))
        rules = []
        for path in sorted({os.path.realpath(p) for p in paths if p}):
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue
            is_dir = stat.S_ISDIR(os.fstat(fd).st_mode)
            rights = _FS_READ | (_FS_READ_DIR if is_dir else 0)
            rules.append((fd, rights))
        for dev in ("/dev/null", "/dev/zero", "/dev/urandom"):
            try:
                rules.append((os.open(dev, os.O_PATH | os.O_CLOEXEC), _FS_READ | _FS_WRITE))
            except OSError:
                pass
        return rules

    def _reachable(self):
        """Whether the run uid can read the interpreter's folders by itself (a Python under
        /root, as pyenv installs it, is not)."""
        paths = [os.path.dirname(os.__file__), os.path.dirname(os.path.dirname(__file__))]
        pid = os.fork()
        if pid == 0:
            try:
                os.setgroups([])
                os.setresgid(self.uid, self.uid, self.uid)
                os.setresuid(self.uid, self.uid, self.uid)
                os._exit(0 if all(os.access(p, os.R_OK | os.X_OK) for p in paths) else 1)
            finally:
                os._exit(2)
        _, status = os.waitpid(pid, 0)
        return status == 0

    def _keep_read_cap(self):
        """After setresuid with PR_SET_KEEPCAPS: CAP_DAC_READ_SEARCH alone, effective."""
        self._set_caps(1 << 2)

    def _set_caps(self, bits):
        ctypes = self._ctypes
        header = (ctypes.c_uint32 * 2)(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3, this process
        data = (ctypes.c_uint32 * 6)(bits, bits, 0, 0, 0, 0)  # effective, permitted, inheritable x 2
        if self.libc.capset(header, data) != 0:
            raise OSError(ctypes.get_errno(), "capset")

    def _kill_uid(self):
        """SIGKILLs every process of the run uid (a process may signal its own uid)."""
        pid = os.fork()
        if pid == 0:
            try:
                os.setresgid(self.uid, self.uid, self.uid)
                os.setresuid(self.uid, self.uid, self.uid)
                os.kill(-1, signal.SIGKILL)
            finally:
                os._exit(0)
        os.waitpid(pid, 0)

    def prepare(self, workdir):
        if self.uid is not None:
            os.chown(workdir, self.uid, self.uid)

    # -- child side: trusted code, before anything of the run's ---------------------------
    def confine(self, workdir):
        """Raises OSError when a mechanism that was there in the worker fails here."""
        if not self.enabled:
            return
        if self.uid is not None:
            os.setgroups([])
            os.setresgid(self.uid, self.uid, self.uid)
            if self.read_cap:
                self.libc.prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0)
            os.setresuid(self.uid, self.uid, self.uid)
            if self.read_cap:
                self._keep_read_cap()
        elif self.libc is not None:
            # Root kept (no Landlock to bound a uid's reads) or a user namespace of our own
            # (whose capabilities a fork inherits): a run holds no capability either way.
            self._set_caps(0)
        if self.landlock:
            self._restrict(workdir)

    def _restrict(self, workdir):
        ctypes = self._ctypes
        abi = self.landlock
        fs = _fs_rights(abi)
        attr = struct.pack("=QQQ", fs, _NET_ALL if abi >= 4 else 0, _SCOPE_ALL if abi >= 6 else 0)
        size = 24 if abi >= 6 else 16 if abi >= 4 else 8
        ruleset = self.syscall(_LL_CREATE, ctypes.c_char_p(attr[:size]), size, 0)
        if ruleset < 0:
            raise OSError(ctypes.get_errno(), "landlock_create_ruleset")
        try:
            work = os.open(workdir, os.O_PATH | os.O_CLOEXEC)
            for fd, rights in self._rules + [(work, fs & ~_FS_EXECUTE)]:
                if fd != work and not (rights & _FS_READ_DIR):
                    rights &= _file_rights(abi)
                rule = struct.pack("=Qi", rights, fd)
                if self.syscall(_LL_ADD_RULE, ruleset, 1, ctypes.c_char_p(rule), 0) != 0:
                    raise OSError(ctypes.get_errno(), "landlock_add_rule")
            os.close(work)
            if self.libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
                raise OSError(ctypes.get_errno(), "PR_SET_NO_NEW_PRIVS")
            if self.syscall(_LL_RESTRICT, ruleset, 0) != 0:
                raise OSError(ctypes.get_errno(), "landlock_restrict_self")
        finally:
            os.close(ruleset)
            for fd, _ in self._rules:
                os.close(fd)

    def describe(self):
        return {"uid": self.uid, "landlock": self.landlock, "netns": self.netns,
                "read_cap": self.read_cap, "notes": self.notes}


class Ended(Exception):
    """The run sent nothing more (it exited, closed the pipe, or the deadline passed)."""


class Malformed(Exception):
    """A message the judge cannot take: the run wrote into the pipe itself."""


class Unconfined(Exception):
    """The run could not set up a confinement the worker had found available."""


class Conversation:
    """The worker's end of one run's pipes, handed to the judge."""

    def __init__(self, sandbox, pid, r, w, deadline, memory_bytes):
        self._sandbox = sandbox
        self._pid = pid
        self._r = r
        self._w = w
        self._deadline = deadline
        self._memory = memory_bytes
        self._chunks = []
        self._size = 0
        self.timed_out = False
        self.memory_out = None
        self._messages = 0

    def read(self):
        """The next message (a dict); raises Ended or Malformed."""
        while True:
            if self._chunks:
                last = self._chunks[-1]
                nl = last.find(b"\n")
                if nl >= 0:
                    line = b"".join(self._chunks[:-1]) + last[:nl]
                    rest = last[nl + 1:]
                    self._chunks = [rest] if rest else []
                    self._size = len(rest)
                    msg = _parse_message(line)
                    if "confine" in msg and len(msg) == 1 and not self._messages:
                        raise Unconfined(cut(str(msg["confine"]), 200))
                    self._messages += 1
                    return msg
            left = self._deadline - time.monotonic()
            if left <= 0:
                self.timed_out = True
                raise Ended()
            ready, _, _ = select.select([self._r], [], [], min(left, POLL))
            if not ready:
                self._watch_memory()
                continue
            chunk = os.read(self._r, 65536)
            if not chunk:
                raise Ended()
            self._size += len(chunk)
            if self._size > MAX_MESSAGE:
                raise Malformed("a message longer than %d bytes" % MAX_MESSAGE)
            self._chunks.append(chunk)  # joined once, when a line ends: linear overall

    def reply(self, data):
        try:
            os.write(self._w, data)
        except OSError:
            pass  # the run is gone: its next read says so

    def _watch_memory(self):
        used, pids = _tree_memory(self._pid)
        if len(pids) > 1 and used > self._memory:
            # Resident sizes count the pages forks still share with their parent once per
            # process: past the limit, the proportional sizes (slower to read) decide.
            used = sum(_proportional(pid) for pid in pids)
        if len(pids) > 1 and used > self._memory:
            self.memory_out = "memory limit %d MiB (%d MiB across %d processes)" % (
                self._memory >> 20, used >> 20, len(pids))
            _kill_group(self._pid)
            for pid in pids:  # those that left the group too; the worker reaps them after
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            raise Ended()


def _parse_message(line):
    try:
        msg = json.loads(line)
    except (ValueError, RecursionError) as e:
        raise Malformed("not JSON: %s" % cut(str(e), 100))
    if type(msg) is not dict:
        raise Malformed("not an object")
    return msg


class Sandbox:
    def __init__(self, memory_mb, kernel=True, hooks=True):
        self.memory_mb = memory_mb
        self.kernel = Kernel(kernel)
        self.hooks = hooks
        self.prctl = self.kernel.libc.prctl if self.kernel.libc is not None else None
        self.subreaper = bool(self.prctl) and self.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
        self.pid = os.getpid()
        self.children_file = "/proc/self/task/%d/children" % self.pid
        self.current = None  # pid of the running child, for the worker's SIGTERM handler
        self.devnull = os.open(os.devnull, os.O_RDWR)
        self.base = os.path.realpath(os.environ.get("TMPDIR") or "/tmp")
        sweep_stale(self.base)
        self.tag = "stepscope-exec-%d-%s-" % (os.getpid(), os.urandom(4).hex())
        self.runs = 0
        self.private_fds = []  # the worker's own, closed in each child first thing
        self._limits = {}  # memory_mb -> the RLIMIT_AS pair, worked out here, not in each child

    # -- worker side ----------------------------------------------------------------------
    def run(self, child, judge, seconds, memory_mb=None):
        """Runs child(send, wait) in a forked child and judge(conversation) here; returns
        the judge's verdict, `timeout` past `seconds`, or `error` when the run died,
        broke the protocol or sent nothing."""
        self.runs += 1
        workdir = os.path.join(self.base, self.tag + str(self.runs))
        os.mkdir(workdir, 0o700)
        mb = memory_mb or self.memory_mb
        limit = self._limit(mb)
        r, w = os.pipe()  # run -> worker
        r2, w2 = os.pipe()  # worker -> run (the judge's replies)
        started = time.monotonic()
        try:
            self.kernel.prepare(workdir)
            pid = os.fork()
        except OSError as e:  # e.g. no more processes: this run cannot be judged
            for fd in (r, w, r2, w2):
                os.close(fd)
            _remove_tree(workdir)
            return {"status": "error", "error": "cannot start the run: %s" % e, "seconds": 0.0}
        if pid == 0:  # the child never returns from here
            try:
                os.close(r)
                os.close(w2)
                self._child(child, w, r2, workdir, limit)
            finally:
                os._exit(0)
        self.current = pid
        conv = Conversation(self, pid, r, w2, started + seconds, mb << 20)
        verdict = problem = None
        try:
            os.close(w)
            os.close(r2)
            try:
                os.setpgid(pid, pid)  # also done by the child: whichever runs first
            except OSError:
                pass
            try:
                verdict = judge(conv)
            except Ended:
                pass
            except Unconfined as e:
                problem = "the run could not be confined (%s)" % e
            except Malformed as e:
                problem = "the run wrote into its result pipe (%s)" % e
            except (ValueError, TypeError, KeyError, RecursionError, MemoryError) as e:
                problem = "the run sent an unreadable result (%s)" % cut(type(e).__name__ + ": " + str(e), 200)
        finally:
            os.close(r)
            os.close(w2)
            _kill_group(pid)
            try:
                _, status = os.waitpid(pid, 0)
            except ChildProcessError:  # reaped already (never by design: a safety net)
                status = 0
            self.current = None
            self._kill_orphans()
            _remove_tree(workdir)
        elapsed = time.monotonic() - started
        if conv.memory_out:
            return {"status": "error", "error": conv.memory_out, "seconds": elapsed}
        if conv.timed_out:
            return {"status": "timeout", "reason": "time limit %gs" % seconds, "seconds": elapsed}
        if problem:
            return {"status": "error", "error": problem, "seconds": elapsed}
        if verdict is None:
            return {"status": "error", "error": "the run ended without a result (%s)"
                    % _describe(status), "seconds": elapsed}
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
    def _child(self, child, w, r2, workdir, limit):
        # Kept short: on some virtual machines every page a fork writes costs a trap.
        os.setpgid(0, 0)
        for fd in self.private_fds:
            os.close(fd)
        if self.prctl is not None:
            self.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            if os.getppid() != self.pid:  # the worker died before that took effect
                os._exit(1)
        for fd in (0, 1, 2):  # the worker talks through raw fds: no buffered data to leak
            os.dup2(self.devnull, fd)
        os.chdir(workdir)
        env = {k: v for k, v in os.environ.items() if k in KEEP_ENV}
        os.environ.clear()
        os.environ.update(env)
        os.environ["TMPDIR"] = workdir
        os.environ["HOME"] = workdir
        resource.setrlimit(resource.RLIMIT_AS, limit)
        _lower(resource.RLIMIT_DATA, limit[0])
        _lower(resource.RLIMIT_FSIZE, RUN_FSIZE)
        _lower(resource.RLIMIT_CORE, 0)
        if self.kernel.uid is not None:
            _lower(resource.RLIMIT_NPROC, RUN_NPROC)
        try:
            self.kernel.confine(workdir)
        except OSError as e:  # never run unconfined where confinement was promised
            _write_all(w, (json.dumps({"confine": "%s" % e}) + "\n").encode())
            os._exit(1)
        if self.hooks:
            policy.install(workdir)

        def send(obj):
            _write_all(w, json.dumps(obj).encode("utf-8") + b"\n")

        def wait():
            try:
                return os.read(r2, 1)
            except OSError:
                return b""
        try:
            child(send, wait)
        except BaseException as e:  # a bug in the check itself, reported not hidden
            try:
                send({"raised": "checker failed: %s" % cut(safe_repr(e))})
            except BaseException:
                pass


def _lower(which, want):
    try:
        soft, hard = resource.getrlimit(which)
        if hard != resource.RLIM_INFINITY:
            want = min(want, hard)
        resource.setrlimit(which, (want, want))
    except (ValueError, OSError):
        pass


def _memory_limit(mb):
    """The (soft, hard) RLIMIT_AS pair of a run: `mb` MiB, within the worker's own hard limit."""
    want = int(mb) * 1024 * 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    return (want, want)


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _read(path):
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return b""
    try:
        return os.read(fd, 65536)
    except OSError:
        return b""
    finally:
        os.close(fd)


def _tree_memory(root):
    """(resident bytes, [pids]) of `root` and all its descendants; cheap (one read) while
    `root` has no children."""
    first = _read("/proc/%d/task/%d/children" % (root, root))
    if not first.strip():
        return 0, [root]
    total = 0
    todo = [root]
    seen = set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        fields = _read("/proc/%d/statm" % pid).split()
        if len(fields) > 1:
            total += int(fields[1]) * _PAGE
        try:
            tasks = os.listdir("/proc/%d/task" % pid)
        except OSError:
            continue
        for tid in tasks:
            todo.extend(int(p) for p in _read("/proc/%d/task/%s/children" % (pid, tid)).split())
    return total, sorted(seen)


def _proportional(pid):
    """Proportional set size of a process in bytes (its resident pages, shared ones split)."""
    text = _read("/proc/%d/smaps_rollup" % pid)
    at = text.find(b"\nPss:")
    if at < 0:
        fields = _read("/proc/%d/statm" % pid).split()
        return int(fields[1]) * _PAGE if len(fields) > 1 else 0
    return int(text[at + 5:].split(None, 1)[0]) * 1024


def sweep_stale(base):
    """Removes the run folders of workers that are gone (killed before they could)."""
    try:
        names = os.listdir(base)
    except OSError:
        return
    for name in names:
        if not name.startswith("stepscope-exec-"):
            continue
        try:
            pid = int(name.split("-")[2])
        except (IndexError, ValueError):
            continue
        if pid != os.getpid() and not os.path.exists("/proc/%d" % pid):
            _remove_tree(os.path.join(base, name))


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


def cut(text, limit=ERROR_CHARS):
    return text if len(text) <= limit else text[:limit] + "\u2026<cut %d chars>" % (len(text) - limit)
