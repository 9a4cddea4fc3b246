"""The job kinds of the execution worker; each runs inside a sandboxed child and returns a
verdict dict {"status": pass|fail|error|skipped, ...} (timeouts are the worker's).

cruxeval-output / cruxeval-input: the benchmark's own check, text for text: the program
`<code>\\nassert <output> == <generation>` runs in a fresh namespace `{}` (CRUXEval's
harness does exactly this; for input prediction the generation is the `f(...)` call). An
AssertionError from that final statement is `fail`; anything else raised (a syntax error
in the generation, an exception inside `f`) is `error`. Only `pass` counts as correct.

call-args: run a program's module body (as the recorder's call mode does: module
`__program__`), bind predicted argument reprs to a function's signature, call it, and
compare repr(result) (cut and address-normalised as in a trace) and/or `result == expected`."""
import builtins
import sys
import types

from .sandbox import cut, safe_repr
from .values import Values

CUT_MARK = "\u2026<cut "


def _error(e, prefix=""):
    return {"status": "error", "error": prefix + cut(safe_repr(e))}


def cruxeval(code, output, generation):
    program = "%s\nassert %s == %s" % (code, output, generation)
    assert_line = code.count("\n") + 2
    try:
        exec(compile(program, "<cruxeval>", "exec"), {})
    except AssertionError as e:
        tb = e.__traceback__
        while tb.tb_next is not None:
            tb = tb.tb_next
        frame = tb.tb_frame
        if frame.f_code.co_filename == "<cruxeval>" and frame.f_code.co_name == "<module>" \
                and tb.tb_lineno >= assert_line:
            return {"status": "fail"}
        return _error(e)
    except BaseException as e:  # SystemExit and KeyboardInterrupt are wrong answers too
        return _error(e)
    return {"status": "pass"}


def _resolve(module, name):
    obj = module
    for part in name.split("."):
        if part == "<locals>" or not hasattr(obj, part):
            return None
        obj = getattr(obj, part)
    return obj


def _bind(sig, values):
    """(positional, keywords) for the call, from {param: value} in any order; raises
    TypeError like a call would when the names do not fit the signature."""
    params = sig.parameters
    unknown = [n for n in values if n not in params]
    if unknown:
        raise TypeError("no parameter named %s (parameters: %s)" % (
            ", ".join(map(repr, unknown)), ", ".join(params) or "none"))
    positional, keywords, gap = [], {}, False
    for name, p in params.items():
        if p.kind is p.VAR_POSITIONAL:
            extra = values.get(name, ())
            if not isinstance(extra, (tuple, list)):
                raise TypeError("*%s must be a tuple, got %s" % (name, type(extra).__name__))
            if extra and gap:
                raise TypeError("*%s given but an earlier positional parameter is missing" % name)
            positional.extend(extra)
        elif p.kind is p.VAR_KEYWORD:
            extra = values.get(name, {})
            if not isinstance(extra, dict):
                raise TypeError("**%s must be a dict, got %s" % (name, type(extra).__name__))
            clash = [k for k in extra if k in keywords]
            if clash:
                raise TypeError("**%s repeats %s" % (name, ", ".join(map(repr, clash))))
            keywords.update(extra)
        elif name not in values:
            gap = gap or p.kind is not p.KEYWORD_ONLY  # its default applies (or binding fails)
        elif p.kind is p.KEYWORD_ONLY or (gap and p.kind is p.POSITIONAL_OR_KEYWORD):
            keywords[name] = values[name]
        elif gap:  # positional-only after a missing one cannot be passed
            raise TypeError("positional-only %r follows a missing argument" % name)
        else:
            positional.append(values[name])
    sig.bind(*positional, **keywords)  # the same TypeError a call would raise
    return positional, keywords


def call_args(source, function, args, expected_repr=None, expected=None, repr_chars=10000):
    if expected_repr is None and expected is None:
        return {"status": "skipped", "reason": "nothing to compare with (no expected value)"}
    module = types.ModuleType("__program__")
    module.__dict__["__builtins__"] = builtins
    sys.modules["__program__"] = module
    try:
        exec(compile(source, "<program>", "exec"), module.__dict__)
    except BaseException as e:
        return _error(e, "the program failed before the call: ")
    fn = _resolve(module, function)
    if fn is None:
        return {"status": "skipped", "reason": "no function %r at module level" % function}
    import inspect  # loaded by the worker before the fork (see execute.checker)
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError) as e:
        return {"status": "skipped", "reason": "no signature for %r: %s" % (function, e)}
    # Reprs such as inf/nan are not Python expressions; the program's globals come first.
    env = {"inf": float("inf"), "nan": float("nan")}
    env.update(module.__dict__)
    values = {}
    for name, text in args.items():
        if CUT_MARK in text:
            return {"status": "skipped", "reason": "argument %r was cut by the recorder" % name}
        try:
            values[name] = eval(text, env)
        except BaseException as e:
            return _error(e, "argument %r is not a value: " % name)
    try:
        positional, keywords = _bind(sig, values)
    except TypeError as e:
        return _error(e, "the arguments do not fit %s%s: " % (function, sig))
    try:
        result = fn(*positional, **keywords)
    except BaseException as e:
        return _error(e)
    got, _ = Values(repr_chars).repr(result)
    verdict = {"status": "pass", "got": cut(got)}
    if expected_repr is not None and got != expected_repr:
        verdict["status"] = "fail"
    if expected is not None:
        try:
            if not result == eval(expected, env):
                verdict["status"] = "fail"
        except BaseException as e:
            return _error(e, "comparing with the expected value: ")
    return verdict
