"""Value snapshots: safe repr, per-trace address normalisation, and cutting long reprs.

Contract (docs/trace-format.md): a repr that raises becomes `<repr failed: TypeName>`;
` at 0x7f…` becomes ` at 0x1`, ` at 0x2` … in order of first appearance within one trace;
a repr longer than `limit` keeps its first `limit` characters plus `…<cut N chars>`."""
import re

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


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

    def repr(self, value):
        """Returns (text, was_cut)."""
        try:
            text = repr(value)
            if type(text) is not str:  # a __repr__ may return a str subclass
                text = str.__str__(text)
        except Exception:
            text = "<repr failed: %s>" % type(value).__name__
        text = self.normalise(text)
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
            out[name] = text
            if was_cut:
                if cut is None:
                    cut = []
                cut.append(name)
        return out, cut
