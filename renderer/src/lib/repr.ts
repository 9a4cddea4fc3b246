/**
 * Python reprs read back into a tree, so the inspector can expand a value into its fields:
 * lists, tuples, dicts, sets and calls such as `Point(x=1, y=2)` or `deque([1, 2])` (the repr
 * of dataclasses, namedtuples and most container types). Every node keeps its exact text; a
 * repr that does not read as one value (`<Foo object at 0x…>`, a cut repr) is not expandable.
 */
export interface ReprNode {
  kind: 'atom' | 'list' | 'tuple' | 'dict' | 'set' | 'call';
  text: string;
  /** For calls: the callee (`Point`, `deque`). */
  name?: string;
  /** Children: dict entries and keyword arguments have a key (its repr, or the keyword). */
  items?: { key?: string; value: ReprNode }[];
}

const CLOSE: Record<string, string> = { '[': ']', '(': ')', '{': '}' };

class Reader {
  i = 0;
  constructor(readonly s: string) {}
  ws() {
    while (this.s[this.i] === ' ' || this.s[this.i] === '\n') this.i++;
  }
  fail(): never {
    throw new Error('not a repr');
  }
  value(): ReprNode {
    this.ws();
    const start = this.i;
    const c = this.s[this.i];
    if (c === '[' || c === '(' || c === '{') return this.container(start, c);
    if (c === '<') return this.angle(start);
    if (c === '"' || c === "'") return this.string(start);
    const m = /^(?:-?[A-Za-z_][\w.]*|-?(?:\d[\d_]*\.?\d*(?:e[+-]?\d+)?|\.\d+)j?|\.\.\.)/.exec(this.s.slice(this.i));
    if (!m) this.fail();
    this.i += m[0].length;
    // A string with a prefix (b'…', rb'…') or a call (`Point(…)`).
    if (/^[rbuRBU]{1,2}$/.test(m[0]) && (this.s[this.i] === "'" || this.s[this.i] === '"')) return this.string(start);
    if (this.s[this.i] === '(' && /^[A-Za-z_]/.test(m[0])) {
      const inner = this.container(this.i, '(', true);
      return { kind: 'call', name: m[0], text: this.s.slice(start, this.i), items: inner.items };
    }
    return { kind: 'atom', text: m[0] };
  }
  string(start: number): ReprNode {
    const q = this.s[this.i++];
    while (this.i < this.s.length && this.s[this.i] !== q) this.i += this.s[this.i] === '\\' ? 2 : 1;
    if (this.s[this.i] !== q) this.fail();
    this.i++;
    return { kind: 'atom', text: this.s.slice(start, this.i) };
  }
  angle(start: number): ReprNode {
    let depth = 0;
    for (; this.i < this.s.length; this.i++) {
      if (this.s[this.i] === '<') depth++;
      else if (this.s[this.i] === '>' && --depth === 0) break;
    }
    if (depth !== 0) this.fail();
    this.i++;
    return { kind: 'atom', text: this.s.slice(start, this.i) };
  }
  container(start: number, open: string, call = false): ReprNode {
    const close = CLOSE[open];
    this.i++;
    const items: { key?: string; value: ReprNode }[] = [];
    let dict = false;
    let comma = false;
    for (;;) {
      this.ws();
      if (this.s[this.i] === close) break;
      // keyword argument of a call-like repr: name=value
      const kw = open === '(' ? /^([A-Za-z_]\w*)=/.exec(this.s.slice(this.i)) : null;
      if (kw) {
        this.i += kw[0].length;
        items.push({ key: kw[1], value: this.value() });
      } else {
        const v = this.value();
        this.ws();
        if (open === '{' && this.s[this.i] === ':') {
          this.i++;
          dict = true;
          items.push({ key: v.text, value: this.value() });
        } else items.push({ value: v });
      }
      this.ws();
      if (this.s[this.i] === ',') {
        this.i++;
        comma = true;
        continue;
      }
      if (this.s[this.i] !== close) this.fail();
    }
    this.i++;
    const text = this.s.slice(start, this.i);
    if (open === '[') return { kind: 'list', text, items };
    if (open === '{') return { kind: dict || items.length === 0 ? 'dict' : 'set', text, items };
    // (x) is x in parentheses, (x,) a tuple.
    if (!call && items.length === 1 && !comma && !items[0].key) return items[0].value;
    return { kind: 'tuple', text, items };
  }
}

/** The repr as a tree, or null when it does not read as one Python value. */
export function parseRepr(s: string): ReprNode | null {
  try {
    const r = new Reader(s);
    const v = r.value();
    r.ws();
    return r.i === s.length ? v : null;
  } catch {
    return null;
  }
}

/** Whether a value can be opened into fields. */
export const expandable = (n: ReprNode | null): n is ReprNode & { items: NonNullable<ReprNode['items']> } =>
  !!n && !!n.items && n.items.length > 0;
