"""The fork server (runner.ForkServer): task children forked from a warm interpreter, and
what happens when it cannot be used. Byte-identical output on CRUXEval: test_cruxeval."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

from stepscope_recorder import runner
from stepscope_recorder.tasks import DEFAULT_LIMITS, call_task

from .helpers import PYTHON_DIR, read_traces, run_recorder

# Returns whether this task child was forked by a fork server (its interpreter was started
# with --serve), its pid, and how many other children of the recorder (this child's parent)
# have that command line: with one task at a time, the run's server, or none when the one
# started for this task alone has already exited.
FORKED = '''import os, sys
def f(x):
    recorder = os.getppid()
    servers = 0
    for tid in os.listdir("/proc/%d/task" % recorder):
        try:  # the recorder's threads come and go (each task has its own)
            with open("/proc/%d/task/%s/children" % (recorder, tid)) as fh:
                children = fh.read().split()
        except OSError:
            continue
        for pid in children:
            if int(pid) == os.getpid():
                continue
            try:
                with open("/proc/%s/cmdline" % pid, "rb") as cmd:
                    servers += b"--serve" in cmd.read().split(b"\\0")
            except OSError:
                pass
    return ("--serve" in sys.orig_argv, os.getpid(), servers)
'''
# The addresses of a few objects the program makes (pool-sized and malloc-sized): equal in
# two processes with address randomisation off only when both start from the same heap.
HEAP = '''def f(x):
    a = [object() for _ in range(40)]
    b = [zip() for _ in range(5)]
    c = bytearray(3000)
    return [hex(id(o)) for o in a[::8] + b] + [hex(id(c)), hex(id({}))]
'''
# Kills the fork server, a child of the recorder (this child's parent) started with --serve.
KILL_SERVER = '''import os, signal
def f(x):
    recorder = os.getppid()
    killed = 0
    for tid in os.listdir("/proc/%d/task" % recorder):
        with open("/proc/%d/task/%s/children" % (recorder, tid)) as fh:
            for pid in fh.read().split():
                if int(pid) == os.getpid():  # a forked task child has the server's cmdline too
                    continue
                with open("/proc/%s/cmdline" % pid, "rb") as cmd:
                    if b"--serve" in cmd.read().split(b"\\0"):
                        os.kill(int(pid), signal.SIGKILL)
                        killed += 1
    return killed
'''

# What a program sees of its own process that a fork server must set up as fork() would:
# the C library's idea of the thread id (a per-thread CPU clock is made from it), threads.
OWN_THREAD = '''import os, threading, time
def f(x):
    cpu = time.clock_gettime(time.pthread_getcpuclockid(threading.get_ident()))
    t = threading.Thread(target=lambda: None)
    t.start()
    t.join()
    return (cpu < 60, threading.get_native_id() == os.getpid(), threading.main_thread().ident == threading.get_ident())
'''


def record_tasks(codes, env=None, jobs=1, launcher=(), limits=()):
    """Records each code as a CRUXEval task f(0) (with the fork server unless `env` says
    otherwise); returns [(header, events, end)]."""
    env = dict({"STEPSCOPE_FORK_SERVER": "1"}, **(env or {}))
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "tasks.jsonl")
        with open(data, "w", encoding="utf-8") as f:
            for i, code in enumerate(codes):
                f.write(json.dumps({"id": "t%d" % i, "code": code, "input": "0", "output": "0"}) + "\n")
        out = os.path.join(tmp, "out.jsonl")
        r = run_recorder("record-cruxeval", data, "-o", out, "--jobs", str(jobs), *limits, env=env,
                         launcher=launcher)
        if r.returncode != 0:
            raise AssertionError(r.stderr)
        return read_traces(out)


def returned(trace):
    header, events, end = trace
    assert end["exit"] == "normal", end
    return [e["arg"] for e in events if e["event"] == "return" and e["func"] == "main"][0]


def addresses(testcase, switch, python_dir=PYTHON_DIR, launcher=()):
    """What HEAP returns in six tasks recorded two at a time under `setarch -R` (the test is
    skipped where that is refused)."""
    with tempfile.TemporaryDirectory() as tmp:
        data = os.path.join(tmp, "tasks.jsonl")
        with open(data, "w", encoding="utf-8") as f:
            for i in range(6):
                f.write(json.dumps({"id": "t%d" % i, "code": HEAP, "input": "0", "output": "0"}) + "\n")
        out = os.path.join(tmp, "out.jsonl")
        env = dict(os.environ, PYTHONPATH=python_dir, STEPSCOPE_FORK_SERVER=switch, PYTHONDONTWRITEBYTECODE="1")
        r = subprocess.run(["setarch", "-R", sys.executable, *launcher, "-m", "stepscope_recorder",
                            "record-cruxeval", data, "-o", out, "--jobs", "2"], env=env, cwd=python_dir,
                           capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            testcase.skipTest("setarch -R refused here: %s" % r.stderr.strip()[-200:])
        return [returned(t) for t in read_traces(out)]


@unittest.skipUnless(sys.platform.startswith("linux"), "the fork server needs a subreaper (Linux)")
class ForkServer(unittest.TestCase):
    def test_tasks_are_forked_children_each_its_own_process(self):
        values = [eval(returned(t)) for t in record_tasks([FORKED] * 4, jobs=2)]
        self.assertEqual([v[0] for v in values], [True] * 4)
        self.assertEqual(len({v[1] for v in values}), 4)

    def test_a_task_child_has_its_own_thread_id_as_after_fork(self):
        for switch in ("1", "0"):
            traces = record_tasks([OWN_THREAD] * 2, {"STEPSCOPE_FORK_SERVER": switch}, jobs=2)
            self.assertEqual([returned(t) for t in traces], ["(True, True, True)"] * 2)

    def test_turned_off_every_task_starts_an_interpreter(self):
        # One at a time: on, the run's server lives beside each task; off, each task's own
        # server, started for it, is gone by the time its program runs (one fork, then exit).
        on = [eval(returned(t)) for t in record_tasks([FORKED] * 2)]
        off = [eval(returned(t)) for t in record_tasks([FORKED] * 2, {"STEPSCOPE_FORK_SERVER": "0"})]
        self.assertEqual([(v[0], v[2]) for v in on], [(True, 1), (True, 1)])
        self.assertEqual([(v[0], v[2]) for v in off], [(True, 0), (True, 0)])

    def test_a_program_killing_the_server_leaves_later_tasks_recorded(self):
        traces = record_tasks([FORKED, KILL_SERVER, FORKED, FORKED])
        self.assertEqual(returned(traces[1]), "1")
        self.assertEqual([eval(returned(t))[2] for t in traces[2:]], [0, 0])  # each its own server
        self.assertEqual([t[2]["exit"] for t in traces], ["normal"] * 4)

    @unittest.skipUnless(shutil.which("setarch"), "needs setarch (util-linux) to turn off ASLR")
    def test_every_task_child_starts_from_the_same_heap_whichever_server_forks_it(self):
        # With address randomisation off the addresses themselves compare across processes:
        # the run's server (after tasks before it, two at a time) and a server per task.
        warm, own = addresses(self, "1"), addresses(self, "0")
        self.assertEqual(len(set(warm + own)), 1, "\n".join(warm + own))

    @unittest.skipUnless(shutil.which("setarch"), "needs setarch (util-linux) to turn off ASLR")
    def test_the_heap_does_not_depend_on_the_recorder_having_pyc_files(self):
        # A copy of the recorder without any .pyc of its own (the recorder writes them before
        # a server starts), then with all of them written beforehand.
        with tempfile.TemporaryDirectory() as tmp:
            shutil.copytree(os.path.join(PYTHON_DIR, "stepscope_recorder"), os.path.join(tmp, "stepscope_recorder"),
                            ignore=shutil.ignore_patterns("__pycache__"))
            without = addresses(self, "1", tmp)
            shutil.rmtree(os.path.join(tmp, "stepscope_recorder", "__pycache__"), ignore_errors=True)
            subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(tmp, "stepscope_recorder")],
                           check=True, env=dict(os.environ, PYTHONDONTWRITEBYTECODE=""))
            with_pyc = addresses(self, "1", tmp)
        self.assertEqual(len(set(without + with_pyc)), 1, "\n".join(without + with_pyc))

    def test_each_hash_seed_has_its_own_server(self):
        code = "def f(x):\n    return hash('stepscope')\n"
        tasks = [call_task("t%d" % i, code, "f(0)", DEFAULT_LIMITS, seed) for i, seed in enumerate((1, 2, 1))]
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out.jsonl")
            with mock.patch.dict(os.environ, {"STEPSCOPE_FORK_SERVER": "1"}):
                runner.record_all(tasks, out, jobs=1)
            got = [returned(t) for t in read_traces(out)]
        want = []
        for seed in (1, 2, 1):
            r = subprocess.run([sys.executable, "-c", "print(hash('stepscope'))"], capture_output=True,
                               text=True, env=dict(os.environ, PYTHONHASHSEED=str(seed)), check=True)
            want.append(r.stdout.strip())
        self.assertEqual(got, want)
        self.assertNotEqual(want[0], want[1])


# What the task child gets from clone3 and from clone with CLONE_PARENT (the flags of
# child._fork_to_parent's probe, which the kernel refuses with EINVAL where no filter does).
CLONE_ERRNOS = '''import ctypes, os
def f(x):
    libc = ctypes.CDLL(None, use_errno=True)
    nr = {"x86_64": 56, "aarch64": 220}[os.uname().machine]
    zero = ctypes.c_long(0)
    libc.syscall(ctypes.c_long(435), None, zero)
    clone3 = ctypes.get_errno()
    libc.syscall(ctypes.c_long(nr), ctypes.c_long(0x8000 | 0x800), zero, zero, zero, zero)
    return (clone3, ctypes.get_errno())
'''
SLEEPS = "import time\ndef f(x):\n    time.sleep(60)\n"
REFUSE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "refuse_clone.py")


def refusing(mode):
    """The launcher that runs Python with `mode`'s system calls refused (tests/refuse_clone.py),
    or None where a seccomp filter cannot be installed here."""
    ok = sys.platform.startswith("linux") and subprocess.run(
        [sys.executable, REFUSE, mode, "-c", "pass"]).returncode == 0
    return (REFUSE, mode) if ok else None


# Asked once, on import: each is a Python started under the filter.
NO_CLONE3 = refusing("clone3")
NO_CLONE_PARENT = refusing("clone-parent")


@unittest.skipUnless(NO_CLONE3, "needs Linux on x86_64 or aarch64 with seccomp filters")
class WithoutClone3(unittest.TestCase):
    """Where clone3 is refused (container runtimes refuse it: a filter cannot read its flags),
    the fork server still forks each task child as the recorder's own, with clone: the same
    children and the same heap as anywhere else."""

    def test_the_task_children_are_the_recorders_own_from_the_same_heap(self):
        launcher = NO_CLONE3
        traces = record_tasks([CLONE_ERRNOS, FORKED, FORKED, OWN_THREAD], jobs=2, launcher=launcher)
        self.assertEqual(returned(traces[0]), "(38, 22)")  # clone3 ENOSYS; clone EINVAL, not refused
        forked = [eval(returned(t)) for t in traces[1:3]]
        self.assertEqual([v[0] for v in forked], [True, True])
        self.assertEqual(returned(traces[3]), "(True, True, True)")
        if shutil.which("setarch"):
            without, anywhere = addresses(self, "1", launcher=launcher), addresses(self, "1")
            self.assertEqual(len(set(without + anywhere)), 1, "\n".join(without + anywhere))


@unittest.skipUnless(NO_CLONE_PARENT, "needs Linux on x86_64 or aarch64 with seccomp filters")
class WithoutCloneParent(unittest.TestCase):
    """Where clone with CLONE_PARENT is refused too, the fork server forks a middle process that
    forks the task child and exits, so that the recorder (a subreaper) adopts it: the same
    children and limits, every child from the same heap (not the heap of a direct fork: the
    task child has run Python's at-fork hooks twice)."""

    def test_the_task_children_are_forked_through_a_middle_process(self):
        traces = record_tasks([CLONE_ERRNOS, FORKED, FORKED, OWN_THREAD], jobs=2, launcher=NO_CLONE_PARENT)
        self.assertEqual(returned(traces[0]), "(38, 1)")  # clone with CLONE_PARENT: EPERM
        forked = [eval(returned(t)) for t in traces[1:3]]
        self.assertEqual([v[0] for v in forked], [True, True])
        self.assertNotEqual(forked[0][1], forked[1][1])
        self.assertEqual(returned(traces[3]), "(True, True, True)")

    def test_a_task_past_its_time_is_stopped_and_the_next_recorded(self):
        traces = record_tasks([SLEEPS, OWN_THREAD], launcher=NO_CLONE_PARENT, limits=("--timeout", "1"))
        self.assertEqual((traces[0][2]["exit"], traces[0][2]["reason"]), ("never", "time limit 1s"))
        self.assertEqual(returned(traces[1]), "(True, True, True)")

    @unittest.skipUnless(shutil.which("setarch"), "needs setarch (util-linux) to turn off ASLR")
    def test_every_task_child_starts_from_the_same_heap(self):
        through_middle = addresses(self, "1", launcher=NO_CLONE_PARENT)
        self.assertEqual(len(set(through_middle)), 1, "\n".join(through_middle))


if __name__ == "__main__":
    unittest.main()
