"""Shards: splitting the programs, and the work of one shard (standard library only).

A shard's folder, OUT/shards/NNNN/, holds its programs, traces, corpus.db and export/. The
shard is done when shard.json is there with the digest of its spec (programs and options):
shard.json is written last, through a temporary file renamed over it, so a shard killed at
any point before has no shard.json and is redone from an empty folder.
"""
import hashlib
import json
import os
import resource
import shlex
import shutil
import signal
import subprocess
import time

DONE = "shard.json"
# Test hook: "NNNN:kill" or "NNNN:raise" makes shard NNNN, once per output folder, kill its own
# worker process (a worker lost mid-shard) or raise, after its traces are ingested.
CRASH_ENV = "STEPSCOPE_PIPELINE_CRASH_ONCE"


class ProgramError(ValueError):
    """A programs file that cannot be read: names the file (and line) and what was expected."""


def _task_lines(path, start=0, end=None):
    """(line, start, end) per non-blank line of a .jsonl file from byte `start` to `end`: the text
    without its line ending (\\n or \\r\\n), and its bytes' span."""
    try:
        f = open(path, "rb")
    except OSError as e:
        raise ProgramError("%s: cannot open: %s" % (path, e.strerror)) from None
    with f:
        f.seek(start)
        at = start
        for number, raw in enumerate(f, 1):
            if end is not None and at >= end:
                return
            here, at = at, at + len(raw)
            try:
                line = raw.decode("utf-8").rstrip("\n").rstrip("\r")
            except UnicodeDecodeError:
                raise ProgramError("%s: line %d (byte %d) is not UTF-8" % (path, number, here)) from None
            if line.strip():
                # Kept as text: the recorder validates each line, in its shard.
                yield line, here, at


def _programs_with_places(paths):
    """(program, place) in order: (("task", JSON line), [path, start, end]) per line of a .jsonl
    file, (("file", path), None) per .py. One line at a time: nothing here holds a whole file."""
    for path in paths:
        if path.endswith(".py"):
            if not os.path.isfile(path):
                raise ProgramError("%s: no such file" % path)
            yield ("file", os.path.abspath(path)), None
            continue
        if not path.endswith(".jsonl"):
            raise ProgramError("%s: expected a .jsonl file of CRUXEval-style tasks or a .py file" % path)
        full = os.path.abspath(path)
        for line, start, end in _task_lines(full):
            yield ("task", line), [full, start, end]


def read_programs(paths):
    """The programs in order: ("task", JSON line) per line of a .jsonl file, ("file", path) per .py."""
    return [program for program, _ in _programs_with_places(paths)]


class _Digest:
    """A shard's digest, fed one program at a time: sha256 of the JSON text of {"options",
    "programs"} (keys sorted), written out piece by piece so that no shard's programs need be
    held. Shards done by an earlier run are known by it: its bytes must not change."""

    def __init__(self, options):
        self.h = hashlib.sha256()
        self.h.update(('{"options": %s, "programs": [' % json.dumps(options, sort_keys=True)).encode())
        self.first = True

    def add(self, program):
        self.h.update(((", " if not self.first else "") + json.dumps(list(program))).encode())
        self.first = False

    def hexdigest(self):
        h = self.h.copy()
        h.update(b"]}")
        return h.hexdigest()


def spec_digest(programs, options):
    """What a shard's result depends on: its programs and the options of each step."""
    d = _Digest(options)
    for program in programs:
        d.add(program)
    return d.hexdigest()


def plan_shards(paths, per_shard, options):
    """The shards of `per_shard` consecutive programs, read once and not held: per shard its
    digest (spec_digest of its programs and options), its number of programs, and `sources`,
    where its programs are ([path, start, end] byte spans of .jsonl files, ["file", path] per .py)
    for load_programs to read in the worker. Memory follows the number of shards, not of programs."""
    if per_shard < 1:
        raise ValueError("--shard-programs must be at least 1")
    part = None
    for program, place in _programs_with_places(paths):
        if part is None:
            part = {"digest": _Digest(options), "programs": 0, "sources": []}
        part["digest"].add(program)
        part["programs"] += 1
        last = part["sources"][-1] if part["sources"] else None
        if place is None:
            part["sources"].append(list(program))
        elif last is not None and last[0] == place[0] and last[2] <= place[1]:
            last[2] = place[2]  # the next line of the same file (blank lines between are skipped again)
        else:
            part["sources"].append(place)
        if part["programs"] == per_shard:
            yield dict(part, digest=part["digest"].hexdigest())
            part = None
    if part is not None:
        yield dict(part, digest=part["digest"].hexdigest())


def load_programs(sources):
    """A shard's programs from its sources (plan_shards), as [kind, value] pairs."""
    out = []
    for source in sources:
        if source[0] == "file":
            out.append(list(source))
            continue
        path, start, end = source
        out.extend(["task", line] for line, _, _ in _task_lines(path, start, end))
    return out


def shard_dir(out, index):
    return os.path.join(out, "shards", "%04d" % index)


def done_entry(out, index, digest):
    """The shard's entry when it is done with this digest, else None."""
    try:
        with open(os.path.join(shard_dir(out, index), DONE), encoding="utf-8") as f:
            entry = json.load(f)
    except (OSError, ValueError):
        return None
    return entry if entry.get("digest") == digest else None


def write_atomic(path, data):
    tmp = "%s.tmp-%d" % (path, os.getpid())
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, sort_keys=True)
        f.write("\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _die_with_parent():
    """In the step's child: be killed when the worker dies (Linux), so a lost worker leaves no step
    writing into the folder the shard's next attempt starts afresh."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _run(cmd, cwd, log, steps=None, step=None):
    """Runs one step; a failure raises with the step's command and the end of its output. With
    `steps`, adds the step's wall seconds to steps[step] (where a shard's time goes)."""
    started = time.time()
    with open(log, "ab") as f:
        f.write(("$ %s\n" % " ".join(shlex.quote(c) for c in cmd)).encode())
        f.flush()
        r = subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent)
    if r.returncode != 0:
        with open(log, "rb") as f:
            tail = f.read()[-2000:].decode("utf-8", "replace").strip().splitlines()[-6:]
        raise RuntimeError("%s exited with %d: %s" % (cmd[2] if len(cmd) > 2 else cmd[0], r.returncode,
                                                       " | ".join(tail)))
    if steps is not None:
        steps[step] = round(steps.get(step, 0) + time.time() - started, 3)


def _crash_hook(out, index):
    want = os.environ.get(CRASH_ENV, "")
    if ":" not in want:
        return
    which, how = want.split(":", 1)
    if which != "%04d" % index:
        return
    marker = os.path.join(out, ".crashed-%04d" % index)
    if os.path.exists(marker):
        return
    open(marker, "w").close()
    if how == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    raise RuntimeError("crashed on purpose (%s)" % CRASH_ENV)


def run_shard(spec):
    """Records, ingests, samples and exports one shard; returns its entry (what shard.json holds).

    spec: index, out, digest, programs ([kind, value] pairs) or sources (where to read them,
    plan_shards), node and cli (how to run stepscope), record, sample and export (argument lists
    of those steps). Programs read from sources must still have the digest the driver planned."""
    out, index, digest = spec["out"], spec["index"], spec["digest"]
    entry = done_entry(out, index, digest)
    if entry is not None:
        return entry
    programs = spec["programs"] if "programs" in spec else load_programs(spec["sources"])
    options = {k: spec[k] for k in ("record", "sample", "export")}
    if "programs" not in spec and spec_digest(programs, options) != digest:
        raise RuntimeError("shard %04d: its programs changed since the pipeline read them (%s)" % (
            index, ", ".join(str(s[0] if s[0] != "file" else s[1]) for s in spec["sources"])))
    started = time.time()
    d = shard_dir(out, index)
    shutil.rmtree(d, ignore_errors=True)  # a lost attempt's partial files, and only this shard's
    os.makedirs(d)
    log = os.path.join(d, "steps.log")
    cli = [spec["node"], spec["cli"]]
    traces = []
    steps = {}
    tasks = [v for k, v in programs if k == "task"]
    if tasks:
        with open(os.path.join(d, "tasks.jsonl"), "w", encoding="utf-8") as f:
            f.write("\n".join(tasks) + "\n")
        record = cli + ["record-cruxeval", "tasks.jsonl", "-o", "tasks.trace.jsonl"] + spec["record"]
        _run(record, d, log, steps, "record")
        traces.append("tasks.trace.jsonl")
    files = [v for k, v in programs if k == "file"]
    for n, path in enumerate(files):
        name = "file-%05d.trace.jsonl" % n
        _run(cli + ["record", path, "-o", name] + spec["record"], d, log, steps, "record")
        traces.append(name)
    _run(cli + ["ingest"] + traces + ["--db", "corpus.db"], d, log, steps, "ingest")
    _crash_hook(out, index)
    _run(cli + ["sample", "--db", "corpus.db"] + spec["sample"], d, log, steps, "sample")
    _run(cli + ["dataset", "export", "--db", "corpus.db", "-o", "export"] + spec["export"], d, log, steps, "export")
    for t in traces:  # the corpus holds them; the shard keeps its corpus and export only
        os.remove(os.path.join(d, t))
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    entry = {
        "shard": index,
        "digest": digest,
        "programs": len(programs),
        "corpus": "corpus.db",
        "export": "export",
        "seconds": round(time.time() - started, 3),
        "step_seconds": steps,
        "peak_child_rss_kb": children,
        "host": os.uname().nodename,
        "pid": os.getpid(),
    }
    write_atomic(os.path.join(d, DONE), entry)
    return entry


def worker_memory():
    """This worker's peak RSS and its children's largest, in kB (Linux reports kB). Here, not in
    the driver, as this module travels to workers that do not have the package."""
    return {"self_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
            "children_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}


def step_args(text, defaults):
    """The user's arguments of a step (shell words) after the defaults they do not override."""
    given = shlex.split(text or "")
    names = {a.split("=", 1)[0] for a in given if a.startswith("--")}
    out = []
    k = 0
    while k < len(defaults):
        name, value = defaults[k], defaults[k + 1]
        if name not in names:
            out += [name, value]
        k += 2
    return out + given
