"""The distributed pipeline of `stepscope pipeline` (docs/pipeline.md).

`shards` (standard library only) splits the programs into shards and runs one shard: it drives
the `stepscope` CLI as subprocesses, so the Node code stays the one implementation of recording,
ingest, sampling and export. `driver` (the only module that imports Dask) schedules the shards.
"""
