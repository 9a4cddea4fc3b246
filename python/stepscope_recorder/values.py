"""Value snapshots: safe repr, per-trace address normalisation, and cutting long reprs.

Contract (docs/trace-format.md): a repr that raises (anything, SystemExit included) becomes
`<repr failed: TypeName>` (never cut); ` at 0x7f…` becomes ` at 0x1`, ` at 0x2` … in order of first
appearance within one trace; a lone surrogate becomes the text `\\udxxx`; a repr longer
than `limit` keeps its first `limit` characters plus `…<cut N chars>`."""
import re

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def well_formed(text):
    """Text with each lone surrogate (not encodable as UTF-8) spelt as `\\udxxx`, the way
    Python's repr of a str shows it (docs/trace-format.md, "Text")."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")


def type_name(value):
    """The name of value's type, even when its metaclass makes `__name__` raise."""
    try:
        name = type.__dict__["__name__"].__get__(type(value))
        return well_formed(name) if type(name) is str else "?"
    except BaseException:
        return "?"


class Values:
    def __init__(self, limit):
        self.limit = limit
        self._addresses = {}

    def _address(self, match):
        text = match.group(0)
        n = self._addresses.get(text)
        if n is None:
            n = self._addresses[text] = " at 0x%x" % (len(self._addresses) + 1)
        return n

    def normalise(self, text):
        """Replaces memory addresses; cheap when there are none."""
        if " at 0x" in text:
            return _ADDRESS.sub(self._address, text)
        return text

    def text(self, text):
        """A string as the trace records it (an exception reason, a name): addresses
        normalised, lone surrogates spelt out; never cut."""
        return well_formed(self.normalise(text))

    def repr(self, value):
        """Returns (text, was_cut)."""
        try:
            text = repr(value)
            if type(text) is not str:  # a __repr__ may return a str subclass
                text = str.__str__(text)
        except BaseException:  # SystemExit, KeyboardInterrupt … from a __repr__ too
            return "<repr failed: %s>" % type_name(value), False  # a marker, never cut
        text = self.text(text)
        if len(text) > self.limit:
            return self.cut(text), True
        return text, False

    def cut(self, text):
        return "%s\u2026<cut %d chars>" % (text[: self.limit], len(text) - self.limit)

    def snapshot(self, mapping):
        """{name: repr} for a locals mapping, plus the list of names that were cut."""
        out = {}
        cut = None
        r = self.repr
        for name, value in mapping.items():
            text, was_cut = r(value)
            name = well_formed(name)
            out[name] = text
            if was_cut:
                if cut is None:
                    cut = []
                cut.append(name)
        return out, cut
