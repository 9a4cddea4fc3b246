"""What to record: a task is a trace header plus what the child needs to run it."""
import json
import os
import platform
import tokenize

from . import FORMAT, VERSION
from .values import well_formed

DEFAULT_LIMITS = {"events": 1_000_000, "seconds": 10.0, "memory_mb": 1024, "repr_chars": 10_000}
CALL_FILENAME = "<program>"


class TaskError(ValueError):
    """Bad input for a task (unreadable file, bad call text); message is user-facing."""


def normalise_source(text):
    """The program text ending with exactly one newline (trailing blank lines dropped)."""
    lines = text.replace("\r\n", "\n").split("\n")
    while lines and lines[-1].strip() == "":
        lines.pop()
    return "\n".join(lines) + "\n"


def _text(value):
    """A JSON value with every string (keys too) spelt as text (values.well_formed)."""
    if isinstance(value, str):
        return well_formed(value)
    if isinstance(value, dict):
        return {_text(k): _text(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_text(v) for v in value]
    return value


class Task:
    """`path`: the script file on disk (script mode); header["filename"] is the same name
    spelt as text, which differs for a file name that is not valid UTF-8."""

    def __init__(self, header, argv=(), path=None, edits=None):
        self.header = header
        self.argv = list(argv)
        self.path = path
        self.edits = edits  # counterfactual.py: [[seq, [[name, literal], ...]], ...] or None
        # How the child records: "settrace" or "monitoring" (cli.py resolves the default). Not
        # in the header: both give the same events (python/tests/test_backends.py).
        self.backend = "settrace"

    @property
    def name(self):
        return self.header["name"]

    def header_line(self):
        return json.dumps(self.header) + "\n"

    def child_spec(self):
        h = self.header
        spec = {"mode": h["mode"], "filename": h["filename"], "path": self.path,
                "context": h["context_forward"], "call": h["call"], "argv": self.argv,
                "limits": h["limits"], "backend": self.backend}
        if self.edits:
            spec["edits"] = self.edits
        return spec


def _header(name, mode, filename, source, call, forward, inverse, limits, hashseed, meta):
    return _text({
        "type": "trace", "format": FORMAT, "version": VERSION, "name": name, "mode": mode,
        "python": platform.python_version(), "hashseed": hashseed, "filename": filename,
        "source": source, "call": call, "context_forward": forward, "context_inverse": inverse,
        "limits": dict(limits), "meta": dict(meta or {}),
    })


def call_task(name, source, call, limits, hashseed, meta=None):
    """Call mode: `source` plus the wrapper `def main(): return <call>`; main is traced."""
    if not isinstance(call, str) or not call.strip():
        raise TaskError("the call text is empty")
    if "\n" in call or "\r" in call:
        raise TaskError("the call text must be one line, got %r" % call)
    source = normalise_source(source)
    forward = source + "\n" + "def main():\n    return %s\n" % call.strip()
    return Task(_header(name, "call", CALL_FILENAME, source, call.strip(), forward, source,
                        limits, hashseed, meta))


def script_task(path, argv, limits, hashseed, meta=None, name=None):
    """Script mode: the whole file, traced from its module body on."""
    try:
        with tokenize.open(path) as f:  # honours a PEP 263 coding line
            text = f.read()
    except (OSError, SyntaxError, UnicodeDecodeError) as e:
        raise TaskError("%s: cannot read the program: %s" % (path, e)) from None
    source = normalise_source(text)
    filename = os.path.abspath(path)
    return Task(_header(name or os.path.basename(path), "script", filename, source, None,
                        source, source, limits, hashseed, meta), argv, filename)


def source_file_task(path, call, limits, hashseed, meta=None, name=None):
    """A file recorded either as a script (call None) or as `call` on its functions."""
    if call is None:
        return script_task(path, [], limits, hashseed, meta, name)
    try:
        with tokenize.open(path) as f:
            text = f.read()
    except (OSError, SyntaxError, UnicodeDecodeError) as e:
        raise TaskError("%s: cannot read the program: %s" % (path, e)) from None
    return call_task(name or os.path.basename(path), text, call, limits, hashseed, meta)
