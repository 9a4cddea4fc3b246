#!/usr/bin/env python3
"""CRUXEval end to end on one machine: `stepscope record-cruxeval --jobs 2` (800 tasks) +
`ingest` + `sample`, with the recorder's default path (one fork server per hash seed forks every
task child) and with STEPSCOPE_FORK_SERVER=0 (a server started per task: an interpreter per
task, the same traces), interleaved in this same run.

    python3 bench/cruxeval-record.py [--repeat 1] [--limit K] [--json]

Prints each step's wall time, the totals, the CPU time of all processes (less affected by
a shared machine's load; each is waited for by its parent, so its rusage counts), the
ratios old/new (how many times faster), whether the default path's total is under the
10 s goal, the CPU per task, and the load average before and after; then the floor under
any recorder that forks a child per task (bench/_fork-floor.py: the children only compile the
task and call f, 2 and 1 at once) with this run's ingest and sample added to it;
needs dist/ (npm run build:core)."""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, "bin", "stepscope.js")


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def step(args, env, cpus):
    """Wall seconds of one CLI command; its CPU seconds (every process it waited for, the
    traced programs included) are added to cpus[0]."""
    t, c = time.perf_counter(), cpu()
    subprocess.run(["node", CLI] + args, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    cpus[0] += cpu() - c
    return time.perf_counter() - t


def pipeline(tmp, fork_server, limit):
    env = dict(os.environ, STEPSCOPE_FORK_SERVER="1" if fork_server else "0")
    traces = os.path.join(tmp, "crux-%s.jsonl" % fork_server)
    db = os.path.join(tmp, "crux-%s.db" % fork_server)
    for path in (traces, db):
        if os.path.exists(path):
            os.remove(path)
    extra = ["--limit", str(limit)] if limit else []
    cpus = [0.0]
    times = {"record": step(["record-cruxeval", "-o", traces, "--jobs", "2"] + extra, env, cpus)}
    times["record_cpu"] = cpus[0]
    times["ingest"] = step(["ingest", traces, "--db", db], env, cpus)
    times["sample"] = step(["sample", "--db", db, "--per-entry", "2", "--unique", "--seed", "1",
                            "--direction", "both", "--entry", "calls"], env, cpus)
    times["total"] = times["record"] + times["ingest"] + times["sample"]
    times["total_cpu"] = cpus[0]
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--limit", type=int, help="only the first K tasks")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    load = [os.getloadavg()[0]]
    runs = {True: [], False: []}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.repeat):
            for fork_server in (True, False):  # interleaved: both see the same load
                runs[fork_server].append(pipeline(tmp, fork_server, args.limit))
    load.append(os.getloadavg()[0])
    new = min(runs[True], key=lambda t: t["total"])
    old = min(runs[False], key=lambda t: t["total"])
    for name, t in (("fork server (default)", new), ("an interpreter per task", old)):
        print("%-24s record %.1fs + ingest %.1fs + sample %.1fs = %.1fs wall; CPU %.1fs, record %.1fs" % (
            name, t["record"], t["ingest"], t["sample"], t["total"], t["total_cpu"], t["record_cpu"]))
    print("fork server: record %.2fx, record + ingest + sample %.2fx as fast (old/new wall); "
          "CPU: record %.2fx, all %.2fx less" % (
              old["record"] / new["record"], old["total"] / new["total"],
              old["record_cpu"] / new["record_cpu"], old["total_cpu"] / new["total_cpu"]))
    tasks = args.limit or 800
    print("default path %.1fs: %s 10 s (%s tasks); CPU per task %.1f ms, recording %.1f ms; "
          "load average %.1f before, %.1f after, on %d cores" % (
              new["total"], "under" if new["total"] < 10 else "not under", tasks, new["total_cpu"] / tasks * 1e3,
              new["record_cpu"] / tasks * 1e3, load[0], load[1], os.cpu_count()))
    floor = {}
    for procs in (2, 1):
        out = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "_fork-floor.py"), "--procs", str(procs)]
                             + (["--limit", str(args.limit)] if args.limit else []),
                             check=True, capture_output=True, text=True).stdout
        floor[procs] = json.loads(out)
    rest = new["ingest"] + new["sample"]
    print("floor: children that only compile the task and call f, forked from a warm interpreter: "
          "%.1fs wall 2 at once (CPU %.1fs), %.1fs 1 at once (CPU %.1fs), %.0f page faults a child; "
          "plus this run's ingest + sample: %.1fs, %s 10 s" % (
              floor[2]["wall"], floor[2]["cpu"], floor[1]["wall"], floor[1]["cpu"], floor[2]["faults_per_child"],
              floor[2]["wall"] + rest, "under" if floor[2]["wall"] + rest < 10 else "not under"))
    if args.json:
        print(json.dumps({"fork_server": new, "interpreter_per_task": old, "load_average": load,
                          "record_speedup": round(old["record"] / new["record"], 2),
                          "total_speedup": round(old["total"] / new["total"], 2), "floor": floor}))


if __name__ == "__main__":
    sys.exit(main())
