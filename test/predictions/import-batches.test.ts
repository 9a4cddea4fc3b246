// predictions import stores predictions many rows per statement and scores a repeated completion of an item
// once: over more predictions than one statement holds (and a remainder), every prediction is stored in file
// order with the verdicts scoring it alone gives.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { newPrediction } from '../../src/predictions/verdicts.js';
import type { Corpus, StoredItem } from '../../src/store/corpus.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from './helpers.js';

let corpus: Corpus;
let dir: string;
let items: StoredItem[];

beforeAll(async () => {
  ({ corpus, dir } = await corpusOf(vectorTraces().traces, 'stepscope-batches-'));
  const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 4, seed: 2 });
  items = [...corpus.iterateItems(set.id)];
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

describe('a large import', () => {
  it('stores every sample in order with the verdicts it has alone, repeats included', () => {
    const texts = (t: string) => [t, t.replace(/"([^"]*)"\}/, '"$1 "}'), t.slice(0, t.length >> 1), 'nope', t];
    const K = Math.ceil(1234 / items.length); // more than two statements' worth of rows, and a remainder
    const lines = items.map((it, i) =>
      JSON.stringify({ id: it.id, completions: Array.from({ length: K }, (_, k) => texts(it.target)[(i + k) % 5]) }),
    );
    const file = join(dir, 'many.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    const { run } = importPredictions(corpus, { file, set: 'ns', label: 'many' });
    expect(run.predictions).toBe(items.length * K);
    expect(run.predictions % 500).not.toBe(0);
    const stored = [...corpus.iteratePredictions({ setId: items[0].setId, runId: run.id })];
    expect(stored.map((p) => [p.itemId, p.sample])).toEqual(
      items.flatMap((it) => Array.from({ length: K }, (_, k) => [it.id, k])),
    );
    expect([...stored].sort((a, b) => a.id - b.id)).toEqual(stored); // ids follow the file
    for (const p of stored) {
      const it = items.find((x) => x.id === p.itemId)!;
      const alone = newPrediction(it, 'next-state', 'state', p.sample, p.completion);
      expect([p.em, p.parseError, p.alt?.status ?? null, p.completion]).toEqual([
        alone.em,
        alone.parseError,
        alone.alt,
        texts(it.target)[(items.indexOf(it) + p.sample) % 5],
      ]);
      expect(p.formatError).toBe(alone.parseError !== null);
    }
    expect(stored.some((p) => p.formatError)).toBe(true);
    expect(stored.some((p) => p.em.all)).toBe(true);
  });
});
