"""Shared test helpers: run the recorder CLI as a user would and read its output."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

TESTS = os.path.dirname(os.path.abspath(__file__))
PYTHON_DIR = os.path.dirname(TESTS)
REPO = os.path.dirname(PYTHON_DIR)
PROGRAMS = os.path.join(TESTS, "programs")
# Data the tests read, all inside the repository: the CRUXEval benchmark (a product resource)
# and the semantics' byte-exact trajectory vectors (test data; provenance beside each).
CRUXEVAL = os.path.join(REPO, "resources", "cruxeval", "cruxeval.jsonl")
VECTORS = os.path.join(REPO, "test", "data", "semantics", "trajectories.json")
# All 800 CRUXEval traces when npm test recorded them for this suite (scripts/test-all.mjs;
# its stderr beside, FILE.stderr). Taken out of the environment here, before any recording:
# the recorder hands its environment to the programs it runs, and a path to a trace file
# there is what test_hostile checks a program cannot see.
GIVEN_CRUXEVAL = os.environ.pop("STEPSCOPE_TEST_CRUXEVAL", None)


def run_recorder(*args, timeout=600, env=None, launcher=()):
    """Runs `python3 [LAUNCHER] -m stepscope_recorder ARGS` (with `env` added to the
    environment; a launcher is a script that starts Python, e.g. refuse_clone.py); returns the
    CompletedProcess."""
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR, **(env or {}))
    return subprocess.run([sys.executable, *launcher, "-m", "stepscope_recorder", *args], env=env,
                          capture_output=True, text=True, timeout=timeout)


def read_traces(path):
    """Parses a trace file into [(header, [events], end)], checking the record order."""
    traces = []
    with open(path, encoding="utf-8") as f:
        current = None
        for n, line in enumerate(f, 1):
            rec = json.loads(line)
            if rec["type"] == "trace":
                assert current is None, "line %d: header inside a trace" % n
                current = (rec, [])
            elif rec["type"] == "event":
                assert current is not None, "line %d: event outside a trace" % n
                current[1].append(rec)
            elif rec["type"] == "end":
                assert current is not None, "line %d: end outside a trace" % n
                traces.append((current[0], current[1], rec))
                current = None
            else:
                raise AssertionError("line %d: unknown record type %r" % (n, rec["type"]))
        assert current is None, "file ends inside a trace"
    return traces


# Where programs are recorded from. A trace numbers object addresses in order of first
# appearance, so whether an object takes a freed address again shows in it; and the length of
# the program's path (in sys.argv, sys.path and __file__) decides which freed addresses its
# objects take. A copy in a new folder of /tmp has a path of the same length wherever the
# checkout is (tempfile's names are of one length), so goldens hold in any clone.
TMP_ROOT = "/tmp" if os.path.isdir("/tmp") else None


def record_one(program, *extra):
    """Records tests/programs/PROGRAM (a name or a path), from a copy in a new folder of /tmp
    (TMP_ROOT), and returns (header, events, end)."""
    path = program if os.path.isabs(program) else os.path.join(PROGRAMS, program)
    with tempfile.TemporaryDirectory(dir=TMP_ROOT) as tmp:
        copy = os.path.join(tmp, os.path.basename(path))
        shutil.copyfile(path, copy)
        path = copy
        out = os.path.join(tmp, "t.jsonl")
        r = run_recorder("record", path, "-o", out, *extra)
        if r.returncode != 0:
            raise AssertionError("recorder failed (%d): %s" % (r.returncode, r.stderr))
        traces = read_traces(out)
    assert len(traces) == 1
    return traces[0]


def record_source(source, call, *extra):
    with tempfile.TemporaryDirectory(dir=TMP_ROOT) as tmp:
        path = os.path.join(tmp, "prog.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
        return record_one(path, "--call", call, *extra)
