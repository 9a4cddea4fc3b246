// predictions import reads a large file on a second thread while it stores rows: the verdicts it stores, sample by
// sample, are the ones the import on one thread stores, over a mixed file (right, a local wrong, another event, cut
// short, not a state, a lone surrogate, ids, keys, a prompt, lists, an item named again further down); a problem on
// a late line still names the file and line and stores nothing.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { newPrediction } from '../../src/predictions/verdicts.js';
import type { Corpus, StoredItem } from '../../src/store/corpus.js';
import { ensureBuilt } from '../cli/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from './helpers.js';

let corpus: Corpus;
let dir: string;
let items: StoredItem[];

beforeAll(async () => {
  ensureBuilt(); // the reading thread is the compiled one
  ({ corpus, dir } = await corpusOf(vectorTraces().traces, 'stepscope-threads-'));
  createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 4, seed: 2 });
  items = [...corpus.iterateItems(corpus.getEvalSet('ns')!.id)];
}, 120_000);
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

const texts = (t: string) => [
  t,
  t.replace(/"([^"]*)"\}/, '"$1 "}'),
  t.replace(/^<\|[a-z_]+\|>/, '<|line_sep|>'),
  t.slice(0, t.length >> 1),
  'nope',
  `${t}\ud800`,
];

/** The file: every item once (by id or key, one text or a list), then again and again (more samples of each). */
function mixedFile(name: string, extra: string[] = []): string {
  const lines: string[] = [];
  items.forEach((it, i) => {
    const id = i % 4 === 1 ? it.key : it.id;
    const v = texts(it.target);
    lines.push(
      JSON.stringify(i % 3 === 0 ? { id, completions: [v[i % 6], v[0], v[i % 6]] } : { id, completion: v[i % 6] }),
    );
  });
  const unique = items.find((it) => items.filter((x) => x.prompt === it.prompt).length === 1)!;
  lines.push(JSON.stringify({ prompt: unique.prompt, completion: unique.target }));
  for (let pass = 0; lines.length < 1300; pass++)
    items.forEach((it, i) =>
      lines.push(JSON.stringify({ id: it.id, completions: [texts(it.target)[(i + pass) % 6]] })),
    );
  const file = join(dir, name);
  writeFileSync(file, [...lines, ...extra].join('\n') + '\n');
  return file;
}

const VERDICTS = `item_id, sample, completion, finish, format_error, parse_error, em_event, em_src, em_locals, em_arg, em_all,
  exec_status, alt_status`;
const stored = (runId: number) => [
  ...corpus.query(`SELECT ${VERDICTS} FROM predictions WHERE run_id = ${runId} ORDER BY item_id, sample`),
];
const count = () => [...corpus.query('SELECT count(*) AS n FROM predictions')][0].n;

describe('an import read on a second thread', () => {
  it('stores the verdicts the import on one thread stores, sample by sample', () => {
    const file = mixedFile('mixed.jsonl');
    const here = importPredictions(corpus, { file, set: 'ns', label: 'here' }, false).run;
    const there = importPredictions(corpus, { file, set: 'ns', label: 'there' }, true).run;
    expect(there.predictions).toBe(here.predictions);
    expect(here.predictions).toBeGreaterThan(1000); // more than two INSERT statements' worth, and a remainder
    const rows = stored(there.id);
    expect(rows).toEqual(stored(here.id));
    const kinds = new Set(rows.map((r) => `${r.format_error}/${r.em_all}`));
    expect(kinds).toEqual(new Set(['1/0', '0/0', '0/1'])); // format errors, wrong and right states
    expect(rows.some((r) => String(r.completion).endsWith('\\ud800'))).toBe(true); // spelled, as on one thread
    // And they are what each completion scores alone.
    const byId = new Map(items.map((it) => [it.id, it]));
    for (const r of rows.filter((_, i) => i % 7 === 0)) {
      const alone = newPrediction(byId.get(r.item_id as number)!, 'next-state', 'state', 0, r.completion as string);
      expect([r.format_error, r.em_all, r.alt_status]).toEqual([
        Number(alone.parseError !== null),
        Number(alone.em!.all),
        alone.alt,
      ]);
    }
    expect(importPredictions(corpus, { file, set: 'ns', label: 'there' }, true).outcome).toBe('unchanged');
  });

  it('names the file and line of a problem on a late line, and stores nothing', () => {
    const file = mixedFile('late.jsonl', [JSON.stringify({ id: items[0].id, completion: 7 })]);
    const last = readFileSync(file, 'utf8').trimEnd().split('\n').length;
    const setId = corpus.getEvalSet('ns')!.id;
    const n = count();
    const late = `${file}:${last}: expected "completion" to be a string, got 7`;
    expect(() => importPredictions(corpus, { file, set: 'ns', label: 'late' }, true)).toThrow(late);
    expect(corpus.getRun(setId, 'late')).toBeUndefined();
    // Replacing a run by it keeps the run; under a label taken, the file's problem is named first, as on one thread.
    const kept = stored(corpus.getRun(setId, 'here')!.id);
    expect(() => importPredictions(corpus, { file, set: 'ns', label: 'here', replace: true }, true)).toThrow(late);
    expect(() => importPredictions(corpus, { file, set: 'ns', label: 'here' }, true)).toThrow(late);
    expect(stored(corpus.getRun(setId, 'here')!.id)).toEqual(kept);
    expect(count()).toBe(n);
    const other = mixedFile('other.jsonl', ['']);
    expect(() => importPredictions(corpus, { file: other, set: 'ns', label: 'here' }, true)).toThrow(
      /already has a run labelled "here"/,
    );
  });
});
