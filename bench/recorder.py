#!/usr/bin/env python3
"""Recorder benchmark: events/second and slowdown, as ratios against baselines measured in
this same run (the machines are shared and noisy; absolute numbers mean little).

    python3 bench/recorder.py [--n 2000] [--repeat 3] [--json] [--python EXE ...]

- untraced:  the workload without any tracer (same interpreter, child process)
- bare:      sys.settrace + repr of every local, writing nothing (the floor of any recorder)
- naive:     a minimal settrace recorder (json.dumps of seq/event/line/locals to /dev/null)
- recorder:  `python3 -m stepscope_recorder record` (full records, written to a file), with
             the settrace backend and, on Python 3.12+, the monitoring one (--backend)
Best of --repeat for each, the runs taking turns. Prints events/s and the ratios recorder/naive,
recorder/bare (as events/s: 1 would be a recorder costing nothing beyond bare) both whole
process (wall time of the command, start-up and the recorder's parent writing the file
included; and in CPU time) and traced part only, recorder/untraced (the slowdown) and
monitoring/settrace (events/s). --python runs it all under that interpreter (repeatable;
default: this one)."""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKLOAD = '''\
def collatz(n):
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def run(k):
    best = (0, 0)
    seen = []
    for i in range(1, k):
        s = collatz(i)
        seen.append(s)
        if s > best[1]:
            best = (i, s)
    return best, len(seen)
'''

UNTRACED = '''
import sys, time
src = open(sys.argv[1]).read()
ns = {}
exec(compile(src, "<program>", "exec"), ns)
t = time.perf_counter(); ns["run"](int(sys.argv[2])); print(time.perf_counter() - t)
'''

BARE = '''
import sys, time
src = open(sys.argv[1]).read()
ns = {}
exec(compile(src, "<program>", "exec"), ns)
def tr(frame, event, arg):
    if frame.f_code.co_filename != "<program>":
        return None
    {k: repr(v) for k, v in frame.f_locals.items()}
    return tr
t = time.perf_counter(); sys.settrace(tr); ns["run"](int(sys.argv[2])); sys.settrace(None)
print(time.perf_counter() - t)
'''

NAIVE = '''
import json, sys, time
src = open(sys.argv[1]).read()
ns = {}
exec(compile(src, "<program>", "exec"), ns)
out = open("/dev/null", "w", buffering=1 << 20)
n = 0
def tr(frame, event, arg):
    global n
    if frame.f_code.co_filename != "<program>":
        return None
    out.write(json.dumps({"seq": n, "event": event, "line": frame.f_lineno,
                          "locals": {k: repr(v) for k, v in frame.f_locals.items()}}) + "\\n")
    n += 1
    return tr
t = time.perf_counter(); sys.settrace(tr); ns["run"](int(sys.argv[2])); sys.settrace(None)
print(time.perf_counter() - t, n)
'''


def best(fn, repeat):
    return min((fn() for _ in range(repeat)), key=lambda r: r[0])


def timed(cmd, env):
    """(wall seconds of the whole command, its CompletedProcess, CPU seconds of all its
    processes: less affected by a shared machine's load than the wall time)."""
    def cpu():
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime
    t, c = time.perf_counter(), cpu()
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return time.perf_counter() - t, r, cpu() - c


def version(exe):
    r = subprocess.run([exe, "-c", "import sys; print(sys.version.split()[0])"], capture_output=True,
                       text=True, check=True)
    return r.stdout.strip()


def main():
    ap = argparse.ArgumentParser(description="recorder benchmark")
    ap.add_argument("--n", type=int, default=2000, help="workload size (run(N))")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true", help="also print one JSON line per Python")
    ap.add_argument("--python", action="append", metavar="EXE", help="interpreter to measure (repeatable)")
    args = ap.parse_args()
    for exe in args.python or [sys.executable]:
        measure(exe, args)


def measure(exe, args):
    full = version(exe)
    monitoring = tuple(int(p) for p in full.split(".")[:2]) >= (3, 12)
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=os.path.join(ROOT, "python"))
    with tempfile.TemporaryDirectory() as tmp:
        prog = os.path.join(tmp, "work.py")
        with open(prog, "w") as f:
            f.write(WORKLOAD)
        out = os.path.join(tmp, "trace.jsonl")

        def untraced():
            r = subprocess.run([exe, "-c", UNTRACED, prog, str(args.n)], env=env,
                               capture_output=True, text=True, check=True)
            return (float(r.stdout.split()[0]),)

        def naive():
            r = subprocess.run([exe, "-c", NAIVE, prog, str(args.n)], env=env,
                               capture_output=True, text=True, check=True)
            s, n = r.stdout.split()
            return float(s), int(n)

        def bare():
            wall, r, cpu = timed([exe, "-c", BARE, prog, str(args.n)], env)
            return wall, float(r.stdout.split()[0]), cpu

        def recorder(backend):
            wall, _, cpu = timed([exe, "-m", "stepscope_recorder", "record", prog, "-o", out,
                                  "--call", "run(%d)" % args.n, "--timeout", "120", "--backend", backend], env)
            with open(out, "rb") as f:
                f.seek(-400, os.SEEK_END)
                end = json.loads(f.read().splitlines()[-1])
            if end["exit"] != "normal":
                raise SystemExit("recording did not finish: %s" % end)
            return end["seconds"], end["events"], os.path.getsize(out), wall, cpu

        base = best(untraced, args.repeat)
        nv = best(naive, args.repeat)
        backends = ("settrace", "monitoring") if monitoring else ("settrace",)
        runs = {b: [] for b in backends}
        bares = []
        for _ in range(args.repeat):  # in turns, so a burst of load hits all alike
            bares.append(bare())
            for b in backends:
                runs[b].append(recorder(b))
        rec = min(runs["settrace"], key=lambda r: r[0])
        bare_whole = min(b[0] for b in bares)
        bare_traced = min(b[1] for b in bares)
        bare_cpu = min(b[2] for b in bares)
        rec_whole = min(r[3] for r in runs["settrace"])
        rec_cpu = min(r[4] for r in runs["settrace"])
        mon = min(runs["monitoring"], key=lambda r: r[0]) if monitoring else None
    result = {
        "python": full,
        "events": rec[1],
        "trace_bytes": rec[2],
        "untraced_s": round(base[0], 4),
        "naive_events_per_s": round(nv[1] / nv[0]),
        "recorder_events_per_s": round(rec[1] / rec[0]),
        "recorder_vs_naive": round((rec[1] / rec[0]) / (nv[1] / nv[0]), 3),
        "recorder_vs_bare_whole_process": round(bare_whole / rec_whole, 3),
        "recorder_vs_bare_traced_part": round(bare_traced / rec[0], 3),
        "recorder_vs_bare_whole_process_cpu": round(bare_cpu / rec_cpu, 3),
        "slowdown_vs_untraced": round(rec[0] / base[0], 1),
        "naive_slowdown_vs_untraced": round(nv[0] / base[0], 1),
    }
    if mon is not None:
        result["monitoring_events_per_s"] = round(mon[1] / mon[0])
        result["monitoring_vs_settrace"] = round((mon[1] / mon[0]) / (rec[1] / rec[0]), 3)
    print("== Python %s (%s)" % (full, exe))
    print("recorder (settrace): %d events in %.2fs = %d events/s (%.1f MB written)" % (
        rec[1], rec[0], result["recorder_events_per_s"], rec[2] / 1e6))
    print("naive settrace baseline: %d events/s; recorder/naive = %.2f" % (
        result["naive_events_per_s"], result["recorder_vs_naive"]))
    print("bare settrace + repr of all locals (writes nothing): recorder/bare = %.2f whole process "
          "(%.2fs vs %.2fs), %.2f traced part only" % (
              result["recorder_vs_bare_whole_process"], rec_whole, bare_whole,
              result["recorder_vs_bare_traced_part"]))
    print("  in CPU time of all processes: recorder/bare = %.2f whole process (%.2fs vs %.2fs)" % (
        result["recorder_vs_bare_whole_process_cpu"], rec_cpu, bare_cpu))
    print("slowdown vs untraced: recorder %.1fx, naive %.1fx (untraced run %.4fs)" % (
        result["slowdown_vs_untraced"], result["naive_slowdown_vs_untraced"], base[0]))
    if mon is not None:
        print("recorder (monitoring): %d events/s; monitoring/settrace = %.2f" % (
            result["monitoring_events_per_s"], result["monitoring_vs_settrace"]))
    else:
        print("recorder (monitoring): not on Python %s (sys.monitoring is 3.12+)" % full)
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
