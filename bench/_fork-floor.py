#!/usr/bin/env python3
"""The floor under recording CRUXEval with forked children, for bench/cruxeval-record.py: the
same tasks, each run by a child forked from a warm interpreter that has the recorder's package
loaded (as its fork server has), where the child only compiles the task's code, calls
f(<input>) and exits: no tracing, no trace, no limits, no channel, no recorder reading it.
Whatever the recorder does costs more than this.

    python3 bench/_fork-floor.py --procs P [--limit K] [--python-dir python]

P forking processes at once share the tasks (as `--jobs P` shares them). Prints one JSON line:
wall seconds, CPU seconds of all the processes (the children included), and minor page faults
per child."""
import argparse
import json
import os
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TASKS = os.path.join(ROOT, "resources", "cruxeval", "cruxeval.jsonl")


def tasks(limit):
    with open(TASKS, encoding="utf-8") as f:
        out = [json.loads(line) for line in f if line.strip()]
    return out[:limit] if limit else out


def part(index, procs, limit, python_dir):
    sys.path.insert(0, python_dir)
    from stepscope_recorder import child, runner, tracer  # noqa: F401  the server's heap
    mine = [t for i, t in enumerate(tasks(limit)) if i % procs == index]
    for t in mine:
        pid = os.fork()
        if pid == 0:
            try:
                scope = {}
                exec(compile(t["code"], "<program>", "exec"), scope)
                eval("f(%s)" % t["input"], scope)
            finally:
                os._exit(0)
        os.waitpid(pid, 0)
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({"children": len(mine), "faults": r.ru_minflt}))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--procs", type=int, default=1)
    ap.add_argument("--limit", type=int)
    ap.add_argument("--python-dir", default=os.path.join(ROOT, "python"))
    ap.add_argument("--part", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.part is not None:
        return part(args.part, args.procs, args.limit, args.python_dir)
    argv = [sys.executable, os.path.abspath(__file__), "--procs", str(args.procs),
            "--python-dir", args.python_dir] + (["--limit", str(args.limit)] if args.limit else [])
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    ps = [subprocess.Popen(argv + ["--part", str(i)], stdout=subprocess.PIPE) for i in range(args.procs)]
    parts = [json.loads(p.communicate()[0]) for p in ps]
    wall = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    n = sum(p["children"] for p in parts)
    print(json.dumps({"wall": wall, "cpu": r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime,
                      "tasks": n, "faults_per_child": sum(p["faults"] for p in parts) / max(1, n)}))


if __name__ == "__main__":
    sys.exit(main())
