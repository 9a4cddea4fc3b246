// Expandable values: Python reprs read back into their fields, checked against Python itself
// (its repr of each item, key and field).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { expandable, parseRepr } from '../../renderer/src/lib/repr.js';

const PY = String.raw`
import json, collections, dataclasses
@dataclasses.dataclass
class Point:
    x: int
    y: list
P = collections.namedtuple('P', 'a b')
cases = [[1, 'two', [3, (4, 5)], None], (1,), (), {'k': [1, 2], 2: 'v', (1, 2): {'in': "it's"}}, {3, 1, 2}, set(),
         Point(1, [2, 3]), P(a='x', b=(1, 2)), collections.deque([1, [2]]), [1.5, -2, 3e-08, float('inf'), b'\x00b', 'é\n'],
         frozenset({1})]
out = []
for c in cases:
    if dataclasses.is_dataclass(c): items = [[f.name, repr(getattr(c, f.name))] for f in dataclasses.fields(c)]
    elif hasattr(c, '_fields'): items = [[f, repr(getattr(c, f))] for f in c._fields]
    elif isinstance(c, dict): items = [[repr(k), repr(v)] for k, v in c.items()]
    else: items = [[None, repr(x)] for x in c]
    out.append({'repr': repr(c), 'items': items})
out.append({'repr': repr(object()), 'items': None})
print(json.dumps(out))
`;

describe('parseRepr', () => {
  const cases = JSON.parse(execFileSync('python3', ['-c', PY]).toString()) as {
    repr: string;
    items: [string | null, string][] | null;
  }[];

  it('opens containers, dataclasses and namedtuples into the items Python has', () => {
    for (const c of cases) {
      const n = parseRepr(c.repr);
      if (c.items === null || c.items.length === 0) {
        expect(expandable(n), c.repr).toBe(false);
        continue;
      }
      expect(expandable(n), c.repr).toBe(true);
      const got = n!.items!.map((i) => [i.key ?? null, i.value.text]);
      // deque([…]) and frozenset({…}) wrap one container: Python's items are that container's.
      const flat =
        got.length === 1 && !n!.items![0].key && expandable(n!.items![0].value) && /^(deque|frozenset)\(/.test(c.repr)
          ? n!.items![0].value.items!.map((i) => [i.key ?? null, i.value.text])
          : got;
      expect(flat, c.repr).toEqual(c.items);
    }
  });

  it('keeps every node as its exact text and refuses what is not one value', () => {
    const n = parseRepr("[1, {'a': (2, 3)}]")!;
    expect(n.text).toBe("[1, {'a': (2, 3)}]");
    expect(n.items![1].value.items![0]).toMatchObject({ key: "'a'", value: { kind: 'tuple', text: '(2, 3)' } });
    expect(parseRepr('[1, 2')).toBeNull();
    expect(parseRepr('[1, 2] trailing')).toBeNull();
  });
});
