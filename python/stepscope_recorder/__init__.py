"""Stepscope trace recorder: records Python programs with sys.settrace (or sys.monitoring) into
`stepscope-trace` JSON Lines (docs/trace-format.md). Standard library only.

The traced program never runs in the recorder's own process: `runner` spawns one child
(`child`) per task, and the child installs the `tracer` (or `monitor`'s)."""

FORMAT = "stepscope-trace"
VERSION = 1
