// `stepscope labels --reviews N` end to end on a corpus file: the run's reviews per item set,
// shown with the listing, enforced on `stepscope annotate` (one line naming the item, nothing
// written), removed with 0, and refused without --set and --model or out of 0-99.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';
import { cli, ensureBuilt } from './helpers.js';

let db: string;
let ids: number[];
let keys: string[];

beforeAll(async () => {
  ensureBuilt();
  let corpus, dir;
  ({ corpus, path: db, dir } = await corpusOf(vectorTraces().traces, 'stepscope-reviews-cli-'));
  const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 1, seed: 3 });
  const items = [...corpus.iterateItems(set.id)];
  const file = join(dir, 'p.jsonl');
  writeFileSync(file, items.map((it) => JSON.stringify({ id: it.id, completion: 'not a state' })).join('\n'));
  importPredictions(corpus, { file, set: 'ns', label: 'm' });
  const preds = [...corpus.iteratePredictions({ setId: set.id })];
  ids = preds.map((p) => p.id);
  keys = preds.map((p) => p.itemKey);
  corpus.close();
}, 120_000);
afterAll(cleanTempDirs);

const ok = (args: string[]) => {
  const r = cli(args);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
};
const annotate = (i: number, who: string) =>
  cli(['annotate', '--db', db, '--prediction', String(ids[i]), '--label', 'format.unparseable', '--annotator', who]);

describe('stepscope labels --reviews', () => {
  it('sets the reviews per item, which the listing then shows', () => {
    expect(ok(['labels', '--db', db, '--set', 'ns', '--model', 'm']).trim().split('\n').at(-1)).toBe(
      'ns/m: no limit of reviews per item',
    );
    expect(ok(['labels', '--db', db, '--set', 'ns', '--model', 'm', '--reviews', '2'])).toBe(
      'ns/m: 2 reviews per item\n',
    );
    expect(ok(['labels', '--db', db, '--set', 'ns', '--model', 'm']).trim().split('\n').at(-1)).toBe(
      'ns/m: 2 reviews per item',
    );
    const json = JSON.parse(ok(['labels', '--db', db, '--set', 'ns', '--model', 'm', '--json'])) as {
      reviews: unknown;
    };
    expect(json.reviews).toBe(2);
  });

  it('refuses a third annotator on an item in one line naming it, and writes nothing', () => {
    expect(annotate(0, 'ada').status).toBe(0);
    expect(annotate(0, 'bob').status).toBe(0);
    const r = annotate(0, 'cy');
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(
      `stepscope: item ${keys[0]} (prediction ${ids[0]}, draw 1) has its 2 reviews already (ada, bob): ` +
        "ns/m takes 2 per item, so cy's is refused",
    );
    const listed = JSON.parse(ok(['labels', '--db', db, '--annotator', 'cy', '--json'])) as { annotations: unknown[] };
    expect(listed.annotations).toEqual([]);
    expect(annotate(1, 'cy').status).toBe(0); // another item has room
  });

  it('0 removes the limit; a bad count or a missing --set/--model is a usage error', () => {
    expect(ok(['labels', '--db', db, '--set', 'ns', '--model', 'm', '--reviews', '0'])).toBe(
      'ns/m: no limit of reviews per item\n',
    );
    expect(annotate(0, 'cy').status).toBe(0);
    for (const args of [
      ['--set', 'ns', '--reviews', '2'],
      ['--set', 'ns', '--model', 'm', '--reviews', '100'],
      ['--set', 'ns', '--model', 'm', '--reviews', 'two'],
    ]) {
      const r = cli(['labels', '--db', db, ...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^stepscope: labels: /);
    }
  });
});
