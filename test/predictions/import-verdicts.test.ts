// The verdict columns predictions import stores over a mixed file (right, a local wrong, another event, cut short, not
// a state, a lone surrogate; ids, keys, a prompt, lists, an item named again further down), sample by sample, are
// what scoring each completion alone gives; a problem on a late line names the file and line and stores nothing.
import { readFileSync, writeFileSync } from 'node:fs';
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

describe('the verdicts predictions import stores', () => {
  it('are, column by column, what each completion scores alone', () => {
    const file = mixedFile('mixed.jsonl');
    const { run } = importPredictions(corpus, { file, set: 'ns', label: 'here' });
    expect(run.predictions).toBeGreaterThan(1000); // more than two INSERT statements' worth, and a remainder
    const rows = stored(run.id);
    expect(rows.length).toBe(run.predictions);
    const byId = new Map(items.map((it) => [it.id, it]));
    const bit = (x: boolean | null | undefined) => (x === undefined || x === null ? null : Number(x));
    for (const r of rows) {
      const it = byId.get(r.item_id as number)!;
      const a = newPrediction(it, 'next-state', 'state', r.sample as number, r.completion as string);
      expect(r).toEqual({
        item_id: it.id,
        sample: r.sample,
        completion: r.completion,
        finish: null,
        format_error: Number(a.parseError !== null),
        parse_error: a.parseError === null ? null : JSON.stringify(a.parseError),
        em_event: bit(a.em!.event),
        em_src: bit(a.em!.src),
        em_locals: bit(a.em!.locals),
        em_arg: bit(a.em!.arg),
        em_all: bit(a.em!.all),
        exec_status: null,
        alt_status: a.alt,
      });
    }
    // Samples are numbered per item in file order; every kind of verdict is there.
    const first = items.map((it, i) => [it.id, i % 3 === 0 ? 3 : 1]);
    for (const [id, n] of first) expect(rows.filter((r) => r.item_id === id).length).toBeGreaterThan(n);
    expect(new Set(rows.map((r) => `${r.format_error}/${r.em_all}`))).toEqual(new Set(['1/0', '0/0', '0/1']));
    expect(rows.some((r) => String(r.completion).endsWith('\\ud800'))).toBe(true); // a lone surrogate, spelled
    expect(importPredictions(corpus, { file, set: 'ns', label: 'here' }).outcome).toBe('unchanged');
  });

  it('names the file and line of a problem on a late line, and stores nothing', () => {
    const file = mixedFile('late.jsonl', [JSON.stringify({ id: items[0].id, completion: 7 })]);
    const last = readFileSync(file, 'utf8').trimEnd().split('\n').length;
    const setId = corpus.getEvalSet('ns')!.id;
    const n = count();
    const late = `${file}:${last}: expected "completion" to be a string, got 7`;
    expect(() => importPredictions(corpus, { file, set: 'ns', label: 'late' })).toThrow(late);
    expect(corpus.getRun(setId, 'late')).toBeUndefined();
    // Replacing a run by it keeps the run; under a label taken, the file's problem is named first, before the label.
    const kept = stored(corpus.getRun(setId, 'here')!.id);
    expect(() => importPredictions(corpus, { file, set: 'ns', label: 'here', replace: true })).toThrow(late);
    expect(() => importPredictions(corpus, { file, set: 'ns', label: 'here' })).toThrow(late);
    expect(stored(corpus.getRun(setId, 'here')!.id)).toEqual(kept);
    expect(count()).toBe(n);
    const other = mixedFile('other.jsonl', ['']);
    expect(() => importPredictions(corpus, { file: other, set: 'ns', label: 'here' })).toThrow(
      /already has a run labelled "here"/,
    );
  });
});
