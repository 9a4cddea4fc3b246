// The predictions API over a real corpus: sets, runs, items with their verdicts (what the
// overlay needs to find each item's node), one item with parsed predictions, and scores equal
// to what `stepscope scores --json` prints.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/api/handlers/index.js';
import { callApi } from './call.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { Scope, walk, parseAction, stateKind } from '../../src/semantics/index.js';
import { loadTrace } from '../../src/trajectories/load.js';
import type { Corpus, StoredItem } from '../../src/store/corpus.js';
import { cli, ensureBuilt, lines } from '../cli/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

let corpus: Corpus;
let path: string;
let api: ReturnType<typeof createApi>;
let items: StoredItem[];

beforeAllOrFail(async () => {
  let dir: string;
  ({ corpus, path, dir } = await corpusOf(vectorTraces().traces));
  const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 2, seed: 5 });
  items = [...corpus.iterateItems(set.id)];
  // A model right on even items, a format error on the rest.
  const file = join(dir, 'p.jsonl');
  writeFileSync(
    file,
    items
      .map((it, i) => JSON.stringify({ id: it.id, completions: [i % 2 ? 'oops' : it.target, it.target] }))
      .join('\n'),
  );
  importPredictions(corpus, { file, set: 'ns', label: 'half' });
  api = createApi(corpus);
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

const call = <M extends string>(m: M, p: unknown) => callApi(api, m, p);

describe('predictions API', () => {
  it("lists sets with their runs, and a set's runs", async () => {
    const sets = await api.listEvalSets({});
    expect(sets).toEqual([
      expect.objectContaining({
        name: 'ns',
        task: 'next-state',
        items: items.length,
        runs: ['half'],
        options: expect.objectContaining({ seed: 5, per_action: 2 }),
      }),
    ]);
    const runs = await api.listRuns({ set: 'ns' });
    expect(runs).toEqual([
      expect.objectContaining({
        label: 'half',
        set: 'ns',
        format: 'state',
        predictions: 2 * items.length,
        items: items.length,
        pending: expect.any(Number),
      }),
    ]);
  });

  it("lists items with the node each one targets and the run's verdicts, by trace and by page", async () => {
    const all = await api.listItems({ set: 'ns', run: 'half' });
    expect(all.total).toBe(items.length);
    for (const [i, row] of all.rows.entries()) {
      expect(row.verdicts.map((v) => [v.sample, v.formatError, v.em.all])).toEqual([
        [0, i % 2 === 1, i % 2 === 0],
        [1, false, true],
      ]);
      // The node: walking the item's actions from its entry lands on it.
      const tr = loadTrace(corpus, row.traceId);
      const t = walk(new Scope(tr.index, row.entry), row.direction, row.actions.map(parseAction));
      const node = t.states[row.actions.length];
      expect(node ?? null).toBe(row.targetNode);
      expect(row.targetKind).toBe(node === undefined ? t.exit : stateKind(tr.index, row.direction, node));
    }
    const trace = all.rows[0].traceId;
    const one = await api.listItems({ set: 'ns', traceId: trace, limit: 2, offset: 1 });
    expect(one.total).toBe(all.rows.filter((r) => r.traceId === trace).length);
    expect(one.rows).toEqual(all.rows.filter((r) => r.traceId === trace).slice(1, 3));
  });

  it('gives one item with its prompt, truth and predictions read into fields', async () => {
    const odd = items[1];
    const d = await api.getItem({ id: odd.id });
    expect(d).toMatchObject({ id: odd.id, set: 'ns', prompt: odd.prompt, target: odd.target, truth: odd.truth });
    expect(d.predictions).toHaveLength(2);
    expect(d.predictions[0]).toMatchObject({
      completion: 'oops',
      formatError: true,
      parsed: null,
      parseError: { offset: 0 },
    });
    expect(d.predictions[1].parsed).toMatchObject({ event: odd.truth.event });
    await expect(call('getItem', { id: 999999 })).rejects.toThrow('not-found: no evaluation item with id 999999');
  });

  it('scores: the same lines as stepscope scores --json', async () => {
    ensureBuilt();
    for (const by of [undefined, 'action', 'field'] as const) {
      const fromApi = await api.getScores({ set: 'ns', run: 'half', ...(by ? { by } : {}) });
      const r = cli(['scores', '--db', path, '--set', 'ns', '--model', 'half', '--json', ...(by ? ['--by', by] : [])]);
      expect(r.status, r.stderr).toBe(0);
      // The CLI's lines add how much of the set the run answered (the API has it in listRuns).
      const cliLines = lines(r.stdout).map(({ set_items, answered, ...line }) => {
        expect([set_items, answered]).toEqual([items.length, items.length]);
        return line;
      });
      expect(cliLines).toEqual(JSON.parse(JSON.stringify(fromApi)));
    }
    const [whole] = await api.getScores({ set: 'ns', run: 'half' });
    expect(whole).toMatchObject({
      items: items.length,
      samples: 2 * items.length,
      format_errors: Math.floor(items.length / 2),
    });
  });

  it('names what is missing', async () => {
    await expect(call('listRuns', { set: 'nope' })).rejects.toThrow(
      /not-found: .* has no evaluation set named "nope"; its sets: ns/,
    );
    await expect(call('getScores', { set: 'ns', run: 'nope' })).rejects.toThrow(
      /not-found: the set "ns" has no run labelled "nope"; its runs: half/,
    );
    await expect(call('getScores', { set: 'ns', run: 'half', by: 'model' })).rejects.toThrow(
      /bad-input: getScores\.by: expected action, direction, horizon, field, length or depth/,
    );
  });
});

describe('a run stored by an older version', () => {
  it('shows its endpoint with the key masked, as `stepscope runs` does', async () => {
    const set = corpus.listEvalSets().find((s) => s.name === 'ns')!;
    corpus.saveRun(
      {
        setId: set.id,
        label: 'old-predict',
        format: 'state',
        params: {},
        source: 'https://user:pw@models.example/v1?api_key=sk-0123456789&x=1',
        sourceHash: null,
        hashseed: 0,
      },
      [],
    );
    const run = (await api.listRuns({ set: 'ns' })).find((r) => r.label === 'old-predict')!;
    expect(run.source).toBe('https://***@models.example/v1?api_key=***&x=1');
  });
});
