#!/usr/bin/env python3
"""CPU per sandboxed execution: what one CRUXEval generation costs the execution worker
(python/stepscope_recorder/execute.py: a fork per generation, limits, audit hook, clean-up),
as a ratio against the floor measured in this same run: a bare fork of an interpreter with
the same modules loaded, the same check, exit (no sandbox). CPU seconds, not wall: on a
shared machine the wall time says more about the neighbours than about us.

    python3 bench/exec-fork.py [--n 400] [--python-dir python]

--n: the first N distinct CodeLlama-7B input generations (temperature 0.2) of CRUXEval.
--python-dir: the recorder package to measure (another checkout's, for a before/after).
Most of the cost on a virtual machine is page faults: after a fork every page the child or
the worker writes is copied, and each copy traps (fewer pages written = cheaper)."""
import argparse
import gc
import json
import os
import resource
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TASKS = os.path.join(ROOT, "resources", "cruxeval", "cruxeval.jsonl")
DATA = os.path.join(ROOT, "test", "data", "cruxeval")


def jobs(n):
    tasks = {}
    with open(TASKS) as f:
        for line in f:
            t = json.loads(line)
            tasks[t["id"]] = t
    with open(os.path.join(DATA, "generations", "sample_scored_codellama-7b_temp0.2_input.json")) as f:
        gens = json.load(f)["raw_generations"]
    out = []
    for tid in sorted(gens, key=lambda k: int(k.split("_")[1])):
        for g in dict.fromkeys(gens[tid]):
            if "f(" in g:  # the benchmark's skip rule: an input prediction calls f
                t = tasks[tid]
                out.append({"id": len(out), "kind": "cruxeval-input", "code": t["code"],
                            "output": t["output"], "generation": g})
    return out[:n]


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime, r.ru_minflt


def self_cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime, r.ru_minflt


def worker(batch, pydir):
    """CPU of the worker and its children for the batch (start-up excluded: a hello first)."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=pydir)
    p = subprocess.Popen([sys.executable, "-S", "-m", "stepscope_recorder.execute"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    p.stdout.readline()
    with open("/proc/%d/stat" % p.pid) as f:  # the worker's own start-up, to subtract
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    startup = (int(fields[11]) + int(fields[12])) / tick
    c0 = children_cpu()
    data = b"".join((json.dumps(j) + "\n").encode() for j in batch)
    out, _ = p.communicate(data)
    c1 = children_cpu()
    statuses = [json.loads(line)["status"] for line in out.splitlines()]
    return c1[0] - c0[0] - startup, c1[1] - c0[1], statuses


def floor(batch, pydir):
    """A bare fork per job from this interpreter (same modules, frozen heap): check, exit."""
    sys.path.insert(0, pydir)
    from stepscope_recorder import checks, execute  # noqa: F401  the worker's modules
    # The harness's check as run in a child (older checkouts: checks.cruxeval).
    check = getattr(checks, "cruxeval", None) or checks._benchmark
    gc.freeze()
    s0, c0 = self_cpu(), children_cpu()
    for j in batch:
        pid = os.fork()
        if pid == 0:
            check(j["code"], j["output"], j["generation"])
            os._exit(0)
        os.waitpid(pid, 0)
    s1, c1 = self_cpu(), children_cpu()
    return s1[0] - s0[0] + c1[0] - c0[0], s1[1] - s0[1] + c1[1] - c0[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--python-dir", default=os.path.join(ROOT, "python"))
    args = ap.parse_args()
    batch = jobs(args.n)
    pydir = os.path.abspath(args.python_dir)
    w_cpu, w_faults, statuses = worker(batch, pydir)
    f_cpu, f_faults = floor(batch, pydir)
    n = len(batch)
    print("load: %s" % " ".join("%.1f" % x for x in os.getloadavg()))
    print("%d generations (%s)" % (n, ", ".join("%s %d" % (s, statuses.count(s)) for s in sorted(set(statuses)))))
    print("execution worker: %.1f ms CPU, %d page faults per generation" % (1000 * w_cpu / n, w_faults / n))
    print("bare fork floor:  %.1f ms CPU, %d page faults per generation" % (1000 * f_cpu / n, f_faults / n))
    print("ratio worker / bare fork (CPU): %.2f" % (w_cpu / f_cpu))


if __name__ == "__main__":
    main()
