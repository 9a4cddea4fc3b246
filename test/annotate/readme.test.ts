/** The developer doc's rule table is the rules as they run: same ids, labels, order and wording. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { RULES } from '../../src/annotate/index.js';

it('src/annotate/README.md lists every rule, in order, with its label and condition', () => {
  const text = readFileSync(resolve(import.meta.dirname, '../../src/annotate/README.md'), 'utf8');
  const rows = [...text.matchAll(/^\| (\d+) \| `([^`]+)` \| `([^`]+)` \| (.+) \|$/gm)].map((m) => [
    Number(m[1]),
    m[2],
    m[3],
    m[4],
  ]);
  expect(rows).toEqual(RULES.map((r, i) => [i + 1, r.id, r.label, r.when]));
});
