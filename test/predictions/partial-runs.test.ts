// A run that answered only part of its set is never read as a whole one: `scores` (text and
// --json), `runs` (text and --json) say how many of the set's items it answered.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvalSet } from '../../src/predictions/create.js';
import type { Corpus, StoredItem } from '../../src/store/corpus.js';
import { cli, ensureBuilt, lines } from '../cli/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from './helpers.js';

let corpus: Corpus;
let path: string;
let dir: string;
let items: StoredItem[];

beforeAll(async () => {
  ensureBuilt();
  ({ corpus, path, dir } = await corpusOf(vectorTraces().traces));
  const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 3 });
  items = [...corpus.iterateItems(set.id)];
  corpus.close();
  const answer = (its: StoredItem[]) =>
    its.map((it) => JSON.stringify({ id: it.id, completion: it.target })).join('\n');
  writeFileSync(join(dir, 'half.jsonl'), answer(items.slice(0, 2)) + '\n');
  writeFileSync(join(dir, 'all.jsonl'), answer(items) + '\n');
  for (const [file, label] of [
    ['half.jsonl', 'half'],
    ['all.jsonl', 'whole'],
  ])
    expect(cli(['predictions', 'import', join(dir, file), '--db', path, '--set', 'ns', '--model', label]).status).toBe(
      0,
    );
}, 900_000);
afterAll(cleanTempDirs);

describe('a partial run', () => {
  it('scores says "2 of N items answered (partial)" and warns on stderr; a whole run is not marked', () => {
    expect(items.length).toBeGreaterThan(2);
    const half = cli(['scores', '--db', path, '--set', 'ns', '--model', 'half']);
    expect(half.status).toBe(0);
    expect(half.stdout).toContain(`model half: 2 of ${items.length} items answered (partial), 2 predictions`);
    expect(half.stderr).toContain(`half answered 2 of the ${items.length} items of ns`);
    const whole = cli(['scores', '--db', path, '--set', 'ns', '--model', 'whole']);
    expect(whole.stdout).toContain(`model whole: ${items.length} of ${items.length} items answered,`);
    expect(whole.stdout).not.toContain('partial');
    expect(whole.stderr).toBe('');
  });

  it('scores --json carries set_items and answered on every line', () => {
    const out = lines(
      cli(['scores', '--db', path, '--set', 'ns', '--model', 'half', '--by', 'action', '--json']).stdout,
    );
    expect(out.length).toBeGreaterThan(1);
    for (const l of out) expect(l).toMatchObject({ set_items: items.length, answered: 2 });
  });

  it('runs marks it, in text and in --json', () => {
    const json = lines(cli(['runs', '--db', path, '--json']).stdout);
    const by = Object.fromEntries(json.map((r) => [r.label, r]));
    expect(by.half).toMatchObject({ items: 2, set_items: items.length, partial: true });
    expect(by.whole).toMatchObject({ items: items.length, set_items: items.length, partial: false });
    const text = cli(['runs', '--db', path]).stdout;
    expect(text).toMatch(new RegExp(`half\\s+state\\s+2 of ${items.length} \\(partial\\)`));
    expect(text).toMatch(new RegExp(`whole\\s+state\\s+${items.length} of ${items.length}\\s`));
  });
});
