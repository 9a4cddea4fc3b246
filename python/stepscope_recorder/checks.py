"""The job kinds of the execution worker, each in two halves: the run's half executes in the
sandboxed child and *sends values*; the judge's half runs in the worker and *decides the
verdict* {"status": pass|fail|error|skipped, ...} (timeouts are the sandbox's).

Why two halves: the code under test runs in the child and can write anything the child
can, its result pipe included. So the child never sends a status the worker would take on
trust. It sends the value the code produced, as a tagged tree of builtin values (`carry`),
which the worker rebuilds (`uncarry`) and compares with the expected value it parsed from
the job itself: a pass is only ever the worker's own comparison. Everything else the child
may say (an exception, a later statement failing) can only make a verdict worse, which the
code could do anyway. A value that cannot be carried (an object with its own `==`) cannot
pass where the expected value is a literal; where the expected value is not a literal
either (call-args on objects), the run's own comparison is kept and marked `unverified`.

cruxeval-output / cruxeval-input: the benchmark's own check, text for text: the program
`<code>\\nassert <output> == <generation>` as CRUXEval's harness runs it (for input
prediction the generation is the `f(...)` call). Verdicts are the harness's: an
AssertionError from that final statement is `fail`; anything else raised is `error`; only
`pass` counts as correct. Stricter than the harness, which trusts the exit status: a run
that exits (`os._exit(0)`) or dies before its value reached the worker is `error`.
How: the child parses the program with a placeholder for the expected output (which it
never sees) and checks that the spliced text's final assert is `<output> == <expr>`
(optionally with a message, optionally followed by more statements: the generation's text
may add them). It runs the code and evaluates <expr>, and the worker compares. Any other
shape (e.g. a generation `0 or True`, which the harness passes without comparing) is run
as the harness runs it, but then the worker cannot see a comparison: such a pass is
`error` ("not judged").

call-args: run a program's module body (as the recorder's call mode does: module
`__program__`), bind predicted argument reprs to a function's signature, call it, and
compare repr(result) (cut and address-normalised as in a trace) and/or `result == expected`."""
import ast
import builtins
import sys
import types

from .sandbox import cut, safe_repr
from .values import Values

CUT_MARK = "\u2026<cut "
PLACEHOLDER = "_stepscope_expected_"
MAX_DEPTH = 100
MAX_CARRY = 32 << 20  # characters of text (str, bytes) in one carried value


class Uncarriable(Exception):
    pass


# -- values across the pipe --------------------------------------------------------------
def carry(value):
    """A JSON-able tree of `value` built from exact builtin types, or Uncarriable. Subclasses
    whose == is their base's travel as the base; an object whose type defines no == at all
    travels as `opaque` (equal to nothing the worker has)."""
    budget = [MAX_CARRY]
    return _carry(value, 0, budget)


_BASES = (bool, int, float, complex, str, bytes, bytearray, list, tuple, dict, set, frozenset, range)


def _carry(v, depth, budget):
    if depth > MAX_DEPTH:
        raise Uncarriable("nested deeper than %d" % MAX_DEPTH)
    t = type(v)
    if v is None:
        return ["n"]
    if t is bool:
        return ["b", v]
    if t is int:
        return ["i", hex(v)]
    if t is float:
        return ["f", v.hex()]
    if t is complex:
        return ["c", v.real.hex(), v.imag.hex()]
    if t is str or t is bytes or t is bytearray:
        budget[0] -= len(v)
        if budget[0] < 0:
            raise Uncarriable("longer than %d characters" % MAX_CARRY)
        return ["s", v] if t is str else ["y" if t is bytes else "Y", v.hex()]
    if t is list or t is tuple or t is set or t is frozenset:
        budget[0] -= len(v)
        if budget[0] < 0:
            raise Uncarriable("longer than %d items" % MAX_CARRY)
        tag = "l" if t is list else "t" if t is tuple else "S" if t is set else "F"
        return [tag, [_carry(x, depth + 1, budget) for x in v]]
    if t is dict:
        budget[0] -= len(v)
        if budget[0] < 0:
            raise Uncarriable("longer than %d items" % MAX_CARRY)
        return ["d", [[_carry(k, depth + 1, budget), _carry(x, depth + 1, budget)] for k, x in v.items()]]
    if t is range:
        return ["r", hex(v.start), hex(v.stop), hex(v.step)]
    if t is type({}.keys()):
        return ["K", [_carry(x, depth + 1, budget) for x in v]]
    if t is type({}.items()):
        return ["I", [[_carry(k, depth + 1, budget), _carry(x, depth + 1, budget)] for k, x in v]]
    name = _type_name(t)
    try:
        eq = t.__eq__
        for base in _BASES:
            if isinstance(v, base) and base is not bool:
                if eq is base.__eq__:
                    return _carry(_as_base(v, base), depth, budget)
                raise Uncarriable("a %s, with its own ==" % name)
        if eq is object.__eq__:
            return ["o", name]
    except Uncarriable:
        raise
    except BaseException:
        pass
    raise Uncarriable("a %s, with its own ==" % name)


def _as_base(v, base):
    """An exact `base` copy of a subclass instance, without calling its own methods."""
    if base is int:
        return int.__add__(v, 0)
    if base is float:
        return float.__float__(v)
    if base is complex:
        return complex.__add__(v, 0)
    if base is str:
        return str.__str__(v)
    if base is bytes or base is tuple:
        return base.__getitem__(v, slice(None))
    if base is range:
        return range(v.start, v.stop, v.step)
    return base.copy(v)  # bytearray, list, dict, set, frozenset


def _type_name(t):
    try:
        name = type.__dict__["__name__"].__get__(t)
        return name if type(name) is str else "?"
    except BaseException:
        return "?"


_SCALAR = {"n": 1, "b": 2, "i": 2, "f": 2, "c": 3, "s": 2, "y": 2, "Y": 2, "r": 4, "o": 2}


def uncarry(tree, depth=0):
    """The value of a carried tree (worker side); ValueError/TypeError when it is not one."""
    if depth > MAX_DEPTH + 1 or type(tree) is not list or not tree or type(tree[0]) is not str:
        raise ValueError("not a carried value")
    tag = tree[0]
    want = _SCALAR.get(tag, 2)
    if len(tree) != want:
        raise ValueError("a carried %r has %d fields" % (tag, len(tree)))
    if tag == "n":
        return None
    if tag == "b":
        if type(tree[1]) is not bool:
            raise ValueError("bad bool")
        return tree[1]
    if tag in "iyYrfc" and not all(type(x) is str and len(x) < (MAX_CARRY * 2 + 8) for x in tree[1:]):
        raise ValueError("bad number or bytes")
    if tag == "i":
        return int(tree[1], 16)
    if tag == "f":
        return float.fromhex(tree[1])
    if tag == "c":
        return complex(float.fromhex(tree[1]), float.fromhex(tree[2]))
    if tag == "s":
        if type(tree[1]) is not str:
            raise ValueError("bad str")
        return tree[1]
    if tag == "y":
        return bytes.fromhex(tree[1])
    if tag == "Y":
        return bytearray.fromhex(tree[1])
    if tag == "r":
        return range(int(tree[1], 16), int(tree[2], 16), int(tree[3], 16))
    if tag == "o":
        return Opaque(tree[1] if type(tree[1]) is str else "?")
    if type(tree[1]) is not list:
        raise ValueError("bad container")
    if tag in "ltSFK":
        items = [uncarry(x, depth + 1) for x in tree[1]]
        if tag == "l":
            return items
        if tag == "t":
            return tuple(items)
        if tag == "S":
            return set(items)
        if tag == "F":
            return frozenset(items)
        return dict.fromkeys(items).keys()
    if tag in "dI":
        pairs = []
        for pair in tree[1]:
            if type(pair) is not list or len(pair) != 2:
                raise ValueError("bad pair")
            pairs.append((uncarry(pair[0], depth + 1), uncarry(pair[1], depth + 1)))
        return dict(pairs) if tag == "d" else dict(pairs).items()
    raise ValueError("unknown tag %r" % tag)


class Opaque:
    """An object whose type has no == of its own: equal to nothing but itself."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "<%s object>" % self.name


def _has(v, kind, depth=0):
    """Whether a rebuilt value holds a set (kind=set) or an Opaque anywhere."""
    t = type(v)
    if kind is set and (t is set or t is frozenset or t is type({}.keys())):
        return True
    if t is Opaque:
        return kind is Opaque
    if depth > MAX_DEPTH:
        return False
    if t in (list, tuple, set, frozenset, type({}.keys())):
        return any(_has(x, kind, depth + 1) for x in v)
    if t is dict or t is type({}.items()):
        return any(_has(k, kind, depth + 1) or _has(x, kind, depth + 1) for k, x in dict(v).items())
    return False


def literal(text):
    """(True, value) when `text` is a Python literal the worker can evaluate itself."""
    if not isinstance(text, str) or len(text) > MAX_CARRY:
        return False, None
    try:
        return True, ast.literal_eval(text.strip())
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None


def literal_output(output):
    """True when `output`, spliced as `assert <output> == <x>`, is the whole left operand
    and a literal: then the worker can compare in its place."""
    ok, _ = literal(output)
    if not ok:
        return False
    try:
        node = ast.parse("assert %s == 0" % output).body
        alone = ast.parse(output.strip(), mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return False
    return (len(node) == 1 and isinstance(node[0], ast.Assert) and node[0].msg is None
            and isinstance(node[0].test, ast.Compare) and len(node[0].test.ops) == 1
            and isinstance(node[0].test.ops[0], ast.Eq)
            and ast.dump(node[0].test.left) == ast.dump(alone))


def equal(expected, got):
    """expected == got between rebuilt builtin values; None when that comparison fails."""
    try:
        return bool(expected == got)
    except (RecursionError, MemoryError, TypeError, ValueError):
        return None


def _error(e, prefix=""):
    return {"raised": prefix + cut(safe_repr(e))}


def _text(msg, key, default=""):
    value = msg.get(key, default)
    if type(value) is not str:
        raise ValueError("%r is not text" % key)
    return cut(value)


# -- cruxeval -----------------------------------------------------------------------------
def _split(code, generation):
    """(code statements, final assert, later statements), or None when the spliced text's
    final assert is not `<placeholder> == <expr>`; raises SyntaxError as compiling would."""
    text = "%s\nassert %s == %s" % (code, PLACEHOLDER, generation)
    tree = ast.parse(text, "<cruxeval>")
    line = code.count("\n") + 2
    for i, node in enumerate(tree.body):
        if node.lineno >= line:
            break
    else:
        return None
    test = getattr(node, "test", None)
    if (not isinstance(node, ast.Assert) or node.lineno != line or node.col_offset != 0
            or not isinstance(test, ast.Compare) or len(test.ops) != 1
            or not isinstance(test.ops[0], ast.Eq) or not isinstance(test.left, ast.Name)
            or test.left.id != PLACEHOLDER or test.left.col_offset != 7
            or any(n.end_lineno >= line for n in tree.body[:i])):
        return None
    return tree.body[:i], node, tree.body[i + 1:]


def _module(statements):
    return compile(ast.Module(body=statements, type_ignores=[]), "<cruxeval>", "exec")


def _is_final_assert(e, line):
    tb = e.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    frame = tb.tb_frame
    return (frame.f_code.co_filename == "<cruxeval>" and frame.f_code.co_name == "<module>"
            and tb.tb_lineno >= line)


def cruxeval_run(code, generation, comparable, output_of):
    """The child's half. `comparable`: the expected output is a literal the worker can
    compare with (literal_output). `output_of(True)` gives the expected output text, only
    where the worker cannot compare; `output_of(False)` just closes its source."""
    def child(send, wait):
        try:
            parts = _split(code, generation) if comparable else None
            if parts is not None:
                statements, final, rest = parts
                compiled = _module(statements)
                value_code = compile(ast.Expression(final.test.comparators[0]), "<cruxeval>", "eval")
                msg_code = compile(ast.Expression(final.msg), "<cruxeval>", "eval") if final.msg else None
                rest_code = _module(rest) if rest else None
        except BaseException as e:  # a syntax error: nothing of the run's ran
            output_of(False)
            send({"plan": "error", "raised": cut(safe_repr(e))})
            return
        if parts is None:
            output = output_of(True)
            send({"plan": "claim"})
            send(_benchmark(code, output, generation))
            return
        output_of(False)
        line = code.count("\n") + 2
        send({"plan": "value", "more": bool(msg_code or rest_code)})
        namespace = {}
        try:
            exec(compiled, namespace)
            value = eval(value_code, namespace)
        except BaseException as e:  # SystemExit and KeyboardInterrupt are wrong answers too
            send(_error(e))
            return
        try:
            send({"value": carry(value)})
        except Uncarriable as e:
            send({"uncarried": cut(str(e), 200)})
        if not (msg_code or rest_code):
            return
        equal_there = wait() == b"1"
        try:
            if not equal_there:
                if msg_code is not None:
                    eval(msg_code, namespace)
            elif rest_code is not None:
                exec(rest_code, namespace)
            send({"rest": "ok"})
        except AssertionError as e:
            send({"rest": "fail"} if _is_final_assert(e, line) else _error(e))
        except BaseException as e:
            send(_error(e))
    return child


def _benchmark(code, output, generation):
    """The harness's own check, in the child; its result is only a claim."""
    program = "%s\nassert %s == %s" % (code, output, generation)
    line = code.count("\n") + 2
    try:
        exec(compile(program, "<cruxeval>", "exec"), {})
    except AssertionError as e:
        return {"rest": "fail"} if _is_final_assert(e, line) else _error(e)
    except BaseException as e:
        return _error(e)
    return {"rest": "ok"}


def cruxeval_judge(output_text):
    """The worker's half: `output_text()` gives the expected output, read after the run."""
    def judge(conv):
        plan = conv.read()
        kind = plan.get("plan")
        if kind == "error":  # sent before anything of the run's ran: trusted
            return {"status": "error", "error": _text(plan, "raised")}
        if kind == "claim":
            claim = conv.read()
            if "raised" in claim:
                return {"status": "error", "error": _text(claim, "raised")}
            if claim.get("rest") == "fail":
                return {"status": "fail"}
            if claim.get("rest") == "ok":
                return {"status": "error", "error": "not judged: the generation, spliced into the benchmark's "
                        "assert, does not compare one value with the expected output"}
            raise ValueError("unknown claim")
        if kind != "value" or type(plan.get("more")) is not bool:
            raise ValueError("no plan")
        got = conv.read()
        if "raised" in got:
            return {"status": "error", "error": _text(got, "raised")}
        if "uncarried" in got:
            return {"status": "error", "error": "the value cannot be carried out of the run to be "
                    "compared (%s)" % _text(got, "uncarried")}
        if "value" not in got:
            raise ValueError("no value")
        value = uncarry(got["value"])
        ok, expected = literal(output_text())
        if not ok:
            raise ValueError("the expected output is not a literal")
        same = equal(expected, value)
        if same is None:
            return {"status": "error", "error": "comparing with the expected output failed"}
        if not plan["more"]:
            return {"status": "pass" if same else "fail"}
        conv.reply(b"1" if same else b"0")
        end = conv.read()
        if "raised" in end:
            return {"status": "error", "error": _text(end, "raised")}
        if end.get("rest") == "fail":
            return {"status": "fail"}
        if end.get("rest") != "ok":
            raise ValueError("no end")
        return {"status": "pass" if same else "fail"}
    return judge


# -- call-args ----------------------------------------------------------------------------
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


def call_args_run(source, function, args, repr_chars, expected_claim):
    """The child's half. `expected_claim`: the `expected` text only when the worker cannot
    evaluate it itself (not a literal); the child then says whether result == it."""
    def child(send, wait):
        send(_call(source, function, args, repr_chars, expected_claim))
    return child


def _call(source, function, args, repr_chars, expected_claim):
    module = types.ModuleType("__program__")
    module.__dict__["__builtins__"] = builtins
    sys.modules["__program__"] = module
    try:
        exec(compile(source, "<program>", "exec"), module.__dict__)
    except BaseException as e:
        return _error(e, "the program failed before the call: ")
    fn = _resolve(module, function)
    if fn is None:
        return {"skipped": "no function %r at module level" % function}
    import inspect  # loaded by the worker before the fork (see execute.checker)
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError) as e:
        return {"skipped": "no signature for %r: %s" % (function, e)}
    # Reprs such as inf/nan are not Python expressions; the program's globals come first.
    env = {"inf": float("inf"), "nan": float("nan")}
    env.update(module.__dict__)
    values = {}
    for name, text in args.items():
        if CUT_MARK in text:
            return {"skipped": "argument %r was cut by the recorder" % name}
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
    out = {"got": cut(got, 2000)}
    if expected_claim is not None:
        try:
            out["equal"] = bool(result == eval(expected_claim, env))
        except BaseException as e:
            return _error(e, "comparing with the expected value: ")
    try:
        out["value"] = carry(result)
    except Uncarriable as e:
        out["uncarried"] = cut(str(e), 200)
    return out


def call_args_judge(expected_repr, expected, repr_chars):
    """The worker's half; `expected_repr` and `expected` are the job's texts (or None)."""
    def judge(conv):
        msg = conv.read()
        if "skipped" in msg:
            return {"status": "skipped", "reason": _text(msg, "skipped")}
        if "raised" in msg:
            return {"status": "error", "error": _text(msg, "raised")}
        claimed_got = _text(msg, "got")
        repr_literal, repr_value = literal(expected_repr) if expected_repr is not None else (False, None)
        exp_literal, exp_value = literal(expected) if expected is not None else (False, None)
        carried = "value" in msg
        if not carried and "uncarried" not in msg:
            raise ValueError("no value")
        value = uncarry(msg["value"]) if carried else None
        # An object without == of its own travels as itself but not its repr: the run's.
        own_repr = carried and not _has(value, Opaque)
        cannot = {"status": "error", "got": claimed_got, "error": "the value cannot be carried out of the "
                  "run to be compared (%s)" % (_text(msg, "uncarried") if not carried else "an object's repr")}
        unverified = []
        verdict = {"status": "pass", "got": claimed_got}
        if expected_repr is not None:
            if own_repr:
                got, _ = Values(repr_chars).repr(value)
                verdict["got"] = got = cut(got, 2000)
                # A set's order may differ once rebuilt: then the run's own repr is taken
                # when the value it shows is the very value carried.
                if got != expected_repr and not (claimed_got == expected_repr and _has(value, set)
                                                 and repr_literal and equal(repr_value, value)):
                    verdict["status"] = "fail"
            elif repr_literal:
                return cannot
            else:
                unverified.append("repr")
                if claimed_got != expected_repr:
                    verdict["status"] = "fail"
        elif own_repr:
            verdict["got"] = cut(Values(repr_chars).repr(value)[0], 2000)
        if expected is not None:
            if exp_literal and carried:
                if not equal(exp_value, value):
                    verdict["status"] = "fail"
            elif exp_literal:
                return cannot
            else:
                claim = msg.get("equal")
                if type(claim) is not bool:
                    raise ValueError("no comparison")
                unverified.append("==")
                if not claim:
                    verdict["status"] = "fail"
        if verdict["status"] == "pass" and unverified:
            why = "the expected value is not a literal"
            if not own_repr:
                why += " and the result cannot be carried out of the run (%s)" % _text(
                    msg, "uncarried", "an object's repr")
            verdict["reason"] = "unverified: the run's own %s (%s)" % (" and ".join(unverified), why)
        return verdict
    return judge
