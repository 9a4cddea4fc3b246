"""`stepscope pipeline`'s scheduler side: one Dask task per shard (docs/pipeline.md).

Run by the Node command (src/cli/commands/pipeline.ts) with an interpreter that has Dask's
`distributed`; it prints one line per shard and, last, a JSON line the Node side reads:
{"done": [...], "failed": [...], "workers": [...]}. Exit status 0 when every shard is done.
"""
import argparse
import json
import os
import sys
import time

from . import shards

RESULT_PREFIX = "STEPSCOPE-PIPELINE-RESULT "


def parse(argv):
    p = argparse.ArgumentParser(prog="stepscope pipeline")
    p.add_argument("--programs", nargs="+", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--shard-programs", type=int, default=1000)
    p.add_argument("--scheduler")
    p.add_argument("--local-workers", type=int)
    p.add_argument("--record", default="")
    p.add_argument("--sample", default="")
    p.add_argument("--export", default="")
    p.add_argument("--node", required=True)
    p.add_argument("--cli", required=True)
    return p.parse_args(argv)


def plan(args):
    """Every shard's spec, in order. The programs are read here, on the client, once and one at a
    time: a spec says where its shard's programs are (byte spans), and the worker reads them."""
    out = os.path.abspath(args.out)
    options = {
        "record": shards.step_args(args.record, []),
        "sample": shards.step_args(args.sample, []),
        "export": shards.step_args(args.export, ["--kind", "trajectories", "--format", "parquet"]),
    }
    specs = []
    for k, part in enumerate(shards.plan_shards(args.programs, args.shard_programs, options)):
        specs.append(dict(options, index=k, out=out, sources=part["sources"], node=args.node, cli=args.cli,
                          digest=part["digest"]))
    return specs


def client_for(args):
    from distributed import Client, LocalCluster
    if args.scheduler:
        return Client(args.scheduler, timeout=30), None
    import dask
    workers = args.local_workers or os.cpu_count() or 1
    # Dask's statistical profiler keeps one profile a second for an hour (profile_history, a
    # deque of 3,600) in every worker: about 1 MB a minute of RSS for the first hour of a run,
    # and of no use here (a shard's worker thread only waits for its step processes). The
    # workers get the config they are started under.
    with dask.config.set({"distributed.worker.profile.enabled": False}):
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None, silence_logs=40)
    return Client(cluster), cluster


def main(argv=None):
    args = parse(sys.argv[1:] if argv is None else argv)
    try:
        specs = plan(args)
    except (shards.ProgramError, ValueError) as e:
        print("pipeline: %s" % e, file=sys.stderr)
        return 2
    if not specs:
        print("pipeline: no programs in %s" % ", ".join(args.programs), file=sys.stderr)
        return 2
    os.makedirs(os.path.join(os.path.abspath(args.out), "shards"), exist_ok=True)
    done, todo = [], []
    for s in specs:
        entry = shards.done_entry(s["out"], s["index"], s["digest"])
        (done if entry else todo).append(entry or s)
    if done:
        print("pipeline: %d of %d shards already done, skipped" % (len(done), len(specs)), flush=True)
    failed = []
    workers = []
    started = time.time()
    if todo:
        import cloudpickle
        # The workers need not have this package on their path: the shard code travels with the task.
        if hasattr(cloudpickle, "register_pickle_by_value"):
            cloudpickle.register_pickle_by_value(shards)
        from distributed import as_completed
        try:
            client, cluster = client_for(args)
        except OSError as e:  # distributed's connection timeouts are OSErrors too
            print("pipeline: cannot reach the Dask scheduler at %s: %s" % (args.scheduler, e), file=sys.stderr)
            return 1
        try:
            names = list(client.scheduler_info().get("workers", {}))
            print("pipeline: %d shards to run on %d workers (%s)" % (
                len(todo), len(names), args.scheduler or "local cluster"), flush=True)
            futures = {client.submit(shards.run_shard, s, key="shard-%04d-%s" % (s["index"], s["digest"][:12]),
                                     retries=1, pure=False): s for s in todo}
            for fut in as_completed(futures):
                s = futures[fut]
                try:
                    entry = fut.result()
                except Exception as e:  # reported with its error; the other shards go on
                    failed.append({"shard": s["index"], "error": "%s: %s" % (type(e).__name__, e)})
                    print("pipeline: shard %04d failed (after one retry): %s: %s" % (s["index"], type(e).__name__, e),
                          file=sys.stderr, flush=True)
                    continue
                done.append(entry)
                steps = entry.get("step_seconds") or {}
                print("pipeline: shard %04d done: %d programs in %.1fs%s (%d/%d)" % (
                    entry["shard"], entry["programs"], entry["seconds"],
                    " (%s)" % ", ".join("%s %.1fs" % kv for kv in steps.items()) if steps else "",
                    len(done), len(specs)), flush=True)
            try:
                workers = [dict(worker=w, **m) for w, m in sorted(client.run(shards.worker_memory).items())]
            except Exception as e:  # a figure only: the shards are done
                print("pipeline: could not ask the workers for their memory: %s" % e, file=sys.stderr)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    result = {"shards": len(specs), "done": sorted(e["shard"] for e in done), "failed": failed,
              "seconds": round(time.time() - started, 3), "workers": workers}
    print(RESULT_PREFIX + json.dumps(result), flush=True)
    return 1 if failed else 0
