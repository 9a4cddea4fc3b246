// The dashboard's API over a real corpus: pass@1 intervals equal to the table of `stepscope
// scores`, the items behind one group of a breakdown, the new breakdowns (trace length, call
// depth) equal to `scores --json`, and the comparison of two runs whose answers we chose.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/api/handlers/index.js';
import { callApi } from './call.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { SCORE_BY } from '../../src/semantics/index.js';
import type { Corpus, StoredItem } from '../../src/store/corpus.js';
import { cli, ensureBuilt, lines } from '../cli/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

let corpus: Corpus;
let path: string;
let api: ReturnType<typeof createApi>;
let items: StoredItem[];
// Which items each run answers right (first sample), by position in the set.
const rightA = (i: number) => i % 2 === 0;
const rightB = (i: number) => i % 3 === 0;

beforeAllOrFail(async () => {
  let dir: string;
  ({ corpus, path, dir } = await corpusOf(vectorTraces().traces, 'stepscope-dash-'));
  const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 3, seed: 11 });
  items = [...corpus.iterateItems(set.id)];
  const run = (label: string, right: (i: number) => boolean) => {
    const file = join(dir, `${label}.jsonl`);
    // A wrong answer is a format error; the second sample is always right (first sample decides the comparison).
    writeFileSync(
      file,
      items
        .map((it, i) => JSON.stringify({ id: it.id, completions: [right(i) ? it.target : 'nope', it.target] }))
        .join('\n'),
    );
    importPredictions(corpus, { file, set: 'ns', label });
  };
  run('A', rightA);
  run('B', rightB);
  api = createApi(corpus);
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

const call = <M extends string>(m: M, p: unknown) => callApi(api, m, p);

describe('dashboard API', () => {
  it('breaks scores down by trace length and call depth exactly as scores --json does', async () => {
    ensureBuilt();
    for (const by of ['length', 'depth'] as const) {
      const fromApi = await api.getScores({ set: 'ns', run: 'A', by });
      const r = cli(['scores', '--db', path, '--set', 'ns', '--model', 'A', '--json', '--by', by]);
      expect(r.status, r.stderr).toBe(0);
      // The CLI's lines add how much of the set the run answered (the API has it in listRuns).
      const cliLines = lines(r.stdout).map(({ set_items: _, answered: __, ...line }) => line);
      expect(cliLines).toEqual(JSON.parse(JSON.stringify(fromApi)));
      // Every item falls in exactly one group.
      expect(fromApi.slice(1).reduce((s, l) => s + l.items, 0)).toBe(items.length);
    }
  });

  it('gives every breakdown the dashboard draws in one call, equal to getScores and the intervals', async () => {
    const r = await api.getRunScores({ set: 'ns', run: 'B' });
    for (const by of ['action', 'length', 'depth'] as const)
      expect(r.by[by]).toEqual(await api.getScores({ set: 'ns', run: 'B', by }));
    expect(r.by.horizon).toEqual([]); // not a horizon set
    expect(r.interval).toEqual((await api.getScoreIntervals({ set: 'ns', run: 'B' }))[0]);
    // Without the interval (what the dashboard asks on sets other than CRUXEval's): the same lines.
    const bare = await api.getRunScores({ set: 'ns', run: 'B', interval: false });
    expect(bare).toEqual({ by: r.by, interval: null });
  });

  it('puts each item in the length bin of its trace and the depth of its target', async () => {
    for (const line of (await api.getScores({ set: 'ns', run: 'A', by: 'length' })).slice(1)) {
      const { rows, total } = await api.listGroupItems({
        set: 'ns',
        run: 'A',
        by: 'length',
        group: String(line.group),
        limit: 1000,
      });
      expect(total).toBe(line.items);
      for (const row of rows) {
        const events = (await api.getTrace({ id: row.traceId })).end.events;
        expect(events).toBeGreaterThanOrEqual(Number(line.group));
        expect(events).toBeLessThan(2 * Number(line.group));
      }
    }
    // Depth: the frames between the trace's first and the target's, counted on the walk's call stack.
    for (const line of (await api.getScores({ set: 'ns', run: 'A', by: 'depth' })).slice(1)) {
      const { rows } = await api.listGroupItems({
        set: 'ns',
        run: 'A',
        by: 'depth',
        group: String(line.group),
        limit: 1000,
      });
      for (const row of rows) {
        if (line.group === 'exit') {
          expect(row.targetSeq).toBeNull();
          continue;
        }
        const [ev] = await api.getEvents({ traceId: row.traceId, from: row.targetSeq!, to: row.targetSeq! + 1 });
        let d = 0;
        for (let p = ev.parent; p !== null; d++)
          [{ parent: p }] = await api.getEvents({ traceId: row.traceId, from: p, to: p + 1 });
        expect(d, `${row.key}`).toBe(line.group);
      }
    }
  });

  it("lists the items of a clicked group, with the run's verdicts, by page", async () => {
    const byAction = await api.getScores({ set: 'ns', run: 'A', by: 'action' });
    for (const line of byAction.slice(1)) {
      const { total, rows } = await api.listGroupItems({
        set: 'ns',
        run: 'A',
        by: 'action',
        group: String(line.group),
      });
      expect(total).toBe(line.items);
      expect(rows.every((r) => r.action === line.group)).toBe(true);
      expect(rows.every((r) => r.verdicts.length === 2 && r.verdicts.every((v) => v.run === 'A'))).toBe(true);
    }
    const whole = await api.listGroupItems({ set: 'ns', run: 'A', offset: 2, limit: 3 });
    expect(whole.total).toBe(items.length);
    expect(whole.rows.map((r) => r.id)).toEqual(items.slice(2, 5).map((it) => it.id));
    const locals = await api.listGroupItems({ set: 'ns', run: 'A', by: 'field', group: 'locals', limit: 1000 });
    const field = (await api.getScores({ set: 'ns', run: 'A', by: 'field' })).find((l) => l.group === 'locals')!;
    expect(locals.total).toBe(field.items);
    await expect(call('listGroupItems', { set: 'ns', run: 'A', group: 'step_into' })).rejects.toThrow(
      /bad-input: listGroupItems: a group needs "by"/,
    );
    await expect(call('listGroupItems', { set: 'ns', run: 'A', by: 'field', group: 'value' })).rejects.toThrow(
      /bad-input: listGroupItems: no field "value"/,
    );
  });

  it('gives the pass@1 interval the scores table prints', async () => {
    ensureBuilt();
    const ivs = await api.getScoreIntervals({ set: 'ns', run: 'A', by: 'action' });
    const scores = await api.getScores({ set: 'ns', run: 'A', by: 'action' });
    expect(ivs.map((i) => i.group)).toEqual(scores.map((l) => l.group));
    const table = cli(['scores', '--db', path, '--set', 'ns', '--model', 'A', '--by', 'action']).stdout;
    for (const [i, iv] of ivs.entries()) {
      const label = i === 0 ? '(all)' : String(iv.group);
      const row = table.split('\n').find((l) => l.startsWith(label + ' '))!;
      expect(row, label).toContain(`[${iv.lo!.toFixed(2)}, ${iv.hi!.toFixed(2)}]`);
      expect(iv.lo!).toBeLessThanOrEqual(scores[i]['pass@1']!);
      expect(iv.hi!).toBeGreaterThanOrEqual(scores[i]['pass@1']!);
    }
  });

  it('compares two runs item by item: the 2×2 counts per action add up, and the differing items are the ones we made differ', async () => {
    const c = await api.compareRuns({ set: 'ns', a: 'A', b: 'B' });
    const expected = (pick: (i: number) => boolean) => items.filter((_, i) => pick(i)).length;
    expect(c.groups[0]).toMatchObject({
      action: null,
      items: items.length,
      both: expected((i) => rightA(i) && rightB(i)),
      onlyA: expected((i) => rightA(i) && !rightB(i)),
      onlyB: expected((i) => !rightA(i) && rightB(i)),
      neither: expected((i) => !rightA(i) && !rightB(i)),
    });
    expect(c.unpaired).toBe(0);
    for (const g of c.groups.slice(1)) {
      const mine = items.map((it, i) => ({ it, i })).filter(({ it }) => it.action === g.action);
      expect(g.items).toBe(mine.length);
      expect(g.both + g.onlyA + g.onlyB + g.neither).toBe(g.items);
      expect(g.onlyA).toBe(mine.filter(({ i }) => rightA(i) && !rightB(i)).length);
      expect(g.mcnemar).toMatchObject({ b: g.onlyA, c: g.onlyB });
    }
    expect(c.groups.slice(1).reduce((s, g) => s + g.items, 0)).toBe(items.length);
    expect(c.differing.map((d) => d.id)).toEqual(items.filter((_, i) => rightA(i) !== rightB(i)).map((it) => it.id));
    expect(c.differing.every((d) => d.a !== d.b && d.key === items.find((it) => it.id === d.id)!.key)).toBe(true);
    // Swapping the runs swaps only-A and only-B, and keeps the p-value.
    const s = await api.compareRuns({ set: 'ns', a: 'B', b: 'A' });
    expect(s.groups[0]).toMatchObject({ onlyA: c.groups[0].onlyB, onlyB: c.groups[0].onlyA });
    expect(s.groups[0].mcnemar.exactP).toBe(c.groups[0].mcnemar.exactP);
    await expect(call('compareRuns', { set: 'ns', a: 'A', b: 'C' })).rejects.toThrow(
      /not-found: the set "ns" has no run labelled "C"/,
    );
  });

  it('accepts every breakdown of scores', () => {
    expect(SCORE_BY).toEqual(['action', 'direction', 'horizon', 'field', 'length', 'depth']);
  });
});
