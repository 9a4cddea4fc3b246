// predictions import: the formats, FILE:LINE errors with nothing stored, idempotency,
// --replace, deleting a run, and a label a predict run holds.
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import type { Corpus, EvalSetRecord, StoredItem } from '../../src/store/corpus.js';
import { cli, ensureBuilt } from '../cli/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, cruxevalTraces, fileWriter, vectorTraces } from './helpers.js';

let corpus: Corpus;
let path: string;
let dir: string;
let file: (text: string) => string; // a new file in dir with the text given
let ns: EvalSetRecord;
let co: EvalSetRecord;
let items: StoredItem[];

beforeAll(async () => {
  ({ corpus, path, dir } = await corpusOf([...vectorTraces().traces, ...cruxevalTraces(['sample_0', 'sample_146'])]));
  file = fileWriter(dir, 'p', 'jsonl');
  ns = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 3 }).set;
  co = createEvalSet(corpus, { name: 'co', task: 'cruxeval-output' }).set;
  items = [...corpus.iterateItems(ns.id)];
}, 900_000); // the first run of the day records all of CRUXEval (see cruxevalRecording)
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

const lines = (objs: unknown[]) => objs.map((o) => JSON.stringify(o)).join('\n') + '\n';
/** The error (a UserError, or another) `f` throws, as [message, code]. */
function refusal(f: () => unknown): [string, string | undefined] {
  try {
    f();
  } catch (e) {
    return [(e as Error).message, (e as { code?: string }).code];
  }
  throw new Error('no error');
}
/** Everything a failed import must leave as it was. */
const state = () =>
  JSON.stringify([
    corpus.listRuns(),
    corpus.countPredictions({ setId: ns.id }),
    corpus.countPredictions({ setId: co.id }),
  ]);

describe('formats', () => {
  it('a line may name its item by its exact prompt instead of its id: stored as by id', () => {
    const [a, b] = items;
    const byPrompt = importPredictions(corpus, {
      file: file(
        lines([
          { prompt: a.prompt, completion: a.target },
          { prompt: b.prompt, completions: ['x', b.target] },
        ]),
      ),
      set: 'ns',
      label: 'by-prompt',
    });
    const byId = importPredictions(corpus, {
      file: file(
        lines([
          { id: a.id, completion: a.target },
          { id: b.id, completions: ['x', b.target] },
        ]),
      ),
      set: 'ns',
      label: 'by-id',
    });
    const rows = (runId: number) =>
      [...corpus.iteratePredictions({ setId: ns.id, runId })].map((p) => [p.itemId, p.sample, p.em.all, p.formatError]);
    expect(rows(byPrompt.run.id)).toEqual(rows(byId.run.id));
    expect(rows(byPrompt.run.id).map((r) => r[0])).toEqual([a.id, b.id, b.id]);
    for (const label of ['by-prompt', 'by-id']) corpus.deleteRun(corpus.getRun(ns.id, label)!.id);
  });

  it('JSON Lines with completion or completions, by item id or key; lines for the same item add samples', () => {
    const [a, b, c] = items;
    const f = file(
      lines([
        { id: a.id, completion: a.target },
        { id: b.key, completions: [b.target, 'junk'] },
        { id: c.id, completion: 'x', prompt: 'ignored' },
        { id: c.id, completion: c.target },
      ]),
    );
    const r = importPredictions(corpus, { file: f, set: 'ns', label: 'mix' });
    expect(r.outcome).toBe('stored');
    expect(r.run).toMatchObject({
      format: 'state',
      predictions: 5,
      items: 3,
      sourceHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const got = [...corpus.iteratePredictions({ setId: ns.id, runId: r.run.id })].map((p) => [
      p.itemId,
      p.sample,
      p.em.all,
      p.formatError,
    ]);
    expect(got).toEqual([
      [a.id, 0, true, false],
      [b.id, 0, true, false],
      [b.id, 1, false, true],
      [c.id, 0, false, true],
      [c.id, 1, true, false],
    ]);
  });

  it("CRUXEval generations.json and scored files: the benchmark's texts, no field verdicts, execution due", () => {
    const gens = file(
      JSON.stringify(
        { sample_0: ['[(4, 1), (4, 1), (4, 1), (4, 1), (2, 3), (2, 3)]', '[]'], sample_146: ['[1, 2]'] },
        null,
        2,
      ),
    );
    const r = importPredictions(corpus, { file: gens, set: 'co', label: 'g' });
    expect(r.run).toMatchObject({ format: 'cruxeval', predictions: 3, items: 2, pending: 3 });
    const p = [...corpus.iteratePredictions({ setId: co.id, runId: r.run.id })][0];
    expect(p).toMatchObject({
      formatError: null,
      parseError: null,
      em: { event: null, src: null, locals: null, arg: null, all: null },
      exec: { status: 'pending' },
    });
    const scored = file(
      JSON.stringify({
        raw_generations: { sample_146: ['[1, 2, 3, 4, 6, 7, 8, 9, 10]'] },
        raw_scored_generations: { sample_146: [false] },
        pass_at_1: 0,
      }),
    );
    const s = importPredictions(corpus, { file: scored, set: 'co', label: 's' });
    expect(s.run).toMatchObject({ format: 'cruxeval', predictions: 1 });
  });
});

describe('errors: FILE:LINE and what was expected; nothing stored', () => {
  const cases: [string, () => string, RegExp][] = [
    [
      'bad JSON',
      () =>
        lines([
          { id: 1, completion: 'a' },
          { id: 1, completion: 'b' },
        ]) + '{"id": 1, "completion": \n',
      /:3: expected a JSON object like \{"id": 17, "completion": "…"\}/,
    ],
    [
      'an unknown item',
      () =>
        lines([
          { id: items[0].id, completion: 'a' },
          { id: 99999, completion: 'b' },
        ]),
      /:2: unknown item 99999: expected an item id of this set/,
    ],
    ['an unknown key', () => lines([{ id: 'sample_999', completion: 'b' }]), /:1: unknown item "sample_999"/],
    [
      'no completion',
      () => lines([{ id: items[0].id, text: 'a' }]),
      /:1: expected exactly one of "completion" \(a string\) or "completions"/,
    ],
    ['both', () => lines([{ id: items[0].id, completion: 'a', completions: ['a'] }]), /:1: expected exactly one of/],
    ['a number', () => lines([{ id: items[0].id, completion: 5 }]), /:1: expected "completion" to be a string, got 5/],
    [
      'an empty list',
      () => lines([{ id: items[0].id, completions: [] }]),
      /:1: expected "completions" to be a non-empty list of strings/,
    ],
    [
      'a list with a number',
      () => lines([{ id: items[0].id, completions: ['a', 3] }]),
      /:1: expected "completions"\[1\] to be a string, got 3/,
    ],
    ['no id', () => lines([{ completion: 'a' }]), /:1: expected an "id" key .* or a "prompt" key/],
    [
      'a prompt no item has',
      () =>
        lines([
          { prompt: items[0].prompt, completion: 'a' },
          { prompt: items[0].prompt + ' ', completion: 'b' },
        ]),
      /:2: expected "prompt" to be the exact prompt of an item of this set; no item's prompt is it/,
    ],
    [
      'a prompt that is not a string',
      () => lines([{ prompt: 7, completion: 'a' }]),
      /:1: expected "prompt" to be a string, got 7/,
    ],
    ['an array', () => '[1, 2]\n', /:1: expected a JSON object like/],
    ['an empty file', () => '\n', /: expected predictions: JSON Lines/],
  ];
  for (const [what, text, message] of cases) {
    it(what, () => {
      const before = state();
      const f = file(text());
      expect(() => importPredictions(corpus, { file: f, set: 'ns', label: `bad-${what}` })).toThrow(message);
      try {
        importPredictions(corpus, { file: f, set: 'ns', label: `bad-${what}` });
      } catch (e) {
        expect((e as Error).message.startsWith(f)).toBe(true);
      }
      expect(state()).toBe(before);
    });
  }

  it('generations files: unknown task and wrong shapes at their line; a CRUXEval file on another set', () => {
    const before = state();
    const unknown = file('{\n  "sample_0": ["1"],\n  "sample_9999": ["2"]\n}\n');
    expect(() => importPredictions(corpus, { file: unknown, set: 'co', label: 'x' })).toThrow(
      `${unknown}:3: unknown task "sample_9999"`,
    );
    const shape = file('{\n  "sample_0": "1"\n}\n');
    expect(() => importPredictions(corpus, { file: shape, set: 'co', label: 'x' })).toThrow(
      `${shape}:2: expected "sample_0" to be a list of generations`,
    );
    const broken = file('{\n  "sample_0": ["1"],\n  "sample_146": ["2"\n}\n');
    expect(() => importPredictions(corpus, { file: broken, set: 'co', label: 'x' })).toThrow(
      new RegExp(`^${broken}:4: expected one JSON object`),
    );
    const good = file(JSON.stringify({ sample_0: ['1'] }));
    expect(() => importPredictions(corpus, { file: good, set: 'ns', label: 'x' })).toThrow(
      /a CRUXEval generations file fits a CRUXEval set .*"ns" is a next-state set/,
    );
    expect(() => importPredictions(corpus, { file: good, set: 'nope', label: 'x' })).toThrow(
      /has no evaluation set named "nope"; its sets: ns, co/,
    );
    expect(state()).toBe(before);
  });

  it('the command line says the same, and exits 1', () => {
    ensureBuilt();
    const f = file(lines([{ id: items[0].id, completion: 'a' }]) + 'oops\n');
    const r = cli(['predictions', 'import', f, '--db', path, '--set', 'ns', '--model', 'cli']);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(new RegExp(`^stepscope: predictions import: ${f}:2: expected a JSON object`));
  });
});

describe('idempotency, --replace, deleting a run', () => {
  it('the same file twice stores nothing new; another file under the label is refused unless --replace', () => {
    const f = file(lines(items.map((it) => ({ id: it.id, completion: it.target }))));
    const first = importPredictions(corpus, { file: f, set: 'ns', label: 'oracle', params: { temperature: 0 } });
    const again = importPredictions(corpus, { file: f, set: 'ns', label: 'oracle' });
    expect(again.outcome).toBe('unchanged');
    expect(again.run).toEqual(first.run);

    const other = file(lines(items.map((it) => ({ id: it.id, completion: 'nope' }))));
    const before = state();
    expect(() => importPredictions(corpus, { file: other, set: 'ns', label: 'oracle' })).toThrow(
      /already has a run labelled "oracle", imported from another file .*--replace/,
    );
    expect(state()).toBe(before);

    const replaced = importPredictions(corpus, { file: other, set: 'ns', label: 'oracle', replace: true });
    expect(replaced.outcome).toBe('replaced');
    expect(replaced.run.predictions).toBe(items.length);
    const preds = [...corpus.iteratePredictions({ setId: ns.id, runId: replaced.run.id })];
    expect(preds.every((p) => p.em.all === false)).toBe(true);
    expect(corpus.getRunById(first.run.id)).toBeUndefined();
  });

  it('a file is known by its bytes, not its path: edited in place it is another file; copied, the same', () => {
    const f = join(dir, 'edited.jsonl');
    writeFileSync(f, lines(items.map((it) => ({ id: it.id, completion: it.target }))));
    const first = importPredictions(corpus, { file: f, set: 'ns', label: 'edited' });
    // The same bytes under another name: nothing new.
    const copy = join(dir, 'copy.jsonl');
    copyFileSync(f, copy);
    expect(importPredictions(corpus, { file: copy, set: 'ns', label: 'edited' }).outcome).toBe('unchanged');
    // The file at the same path, its answers changed: not taken for the one imported before.
    writeFileSync(f, lines(items.map((it) => ({ id: it.id, completion: 'changed' }))));
    const before = state();
    expect(() => importPredictions(corpus, { file: f, set: 'ns', label: 'edited' })).toThrow(
      /already has a run labelled "edited", imported from another file .*--replace/,
    );
    expect(state()).toBe(before);
    const replaced = importPredictions(corpus, { file: f, set: 'ns', label: 'edited', replace: true });
    expect(replaced.outcome).toBe('replaced');
    expect(replaced.run.sourceHash).not.toBe(first.run.sourceHash);
    const texts = [...corpus.iteratePredictions({ setId: ns.id, runId: replaced.run.id })].map((p) => p.completion);
    expect(new Set(texts)).toEqual(new Set(['changed']));
  });

  it('deleting a run deletes its predictions and nothing else', () => {
    const f = file(lines(items.map((it) => ({ id: it.id, completion: it.target }))));
    const keep = importPredictions(corpus, { file: f, set: 'ns', label: 'keep' }).run;
    const gone = importPredictions(corpus, { file: f, set: 'ns', label: 'gone' }).run;
    const others = corpus.listRuns().filter((r) => r.id !== gone.id);
    const total = corpus.countPredictions({ setId: ns.id });
    corpus.deleteRun(gone.id);
    expect(corpus.countPredictions({ setId: ns.id, runId: gone.id })).toBe(0);
    expect(corpus.countPredictions({ setId: ns.id })).toBe(total - gone.predictions);
    expect(corpus.listRuns()).toEqual(others);
    expect(corpus.getRunById(keep.id)!.predictions).toBe(items.length);
    expect([...corpus.iterateItems(ns.id)]).toEqual(items);
    expect(corpus.listEvalSets().map((s) => s.name)).toEqual(['ns', 'co']);
  });

  it('deleting a set deletes its items, runs and predictions; the traces stay', () => {
    const tmp = createEvalSet(corpus, { name: 'tmp', task: 'cruxeval-input' }).set;
    const key = [...corpus.iterateItems(tmp.id)][0].key;
    const f = file(JSON.stringify({ [key]: ['f(1)'] }));
    importPredictions(corpus, { file: f, set: 'tmp', label: 'x' });
    const traces = corpus.traceIds();
    const others = JSON.stringify([
      corpus.listRuns().filter((r) => r.setId !== tmp.id),
      corpus.countPredictions({ setId: ns.id }),
    ]);
    corpus.deleteEvalSet(tmp.id);
    expect(corpus.getEvalSet('tmp')).toBeUndefined();
    expect(corpus.countItems(tmp.id)).toBe(0);
    expect(corpus.countPredictions({ setId: tmp.id })).toBe(0);
    expect(corpus.listRuns(tmp.id)).toEqual([]);
    expect(corpus.traceIds()).toEqual(traces);
    expect(JSON.stringify([corpus.listRuns(), corpus.countPredictions({ setId: ns.id })])).toBe(others);
  });

  it('a label a predict run holds is refused, naming where that run came from', () => {
    corpus.saveRun(
      {
        setId: co.id,
        label: 'm',
        format: 'cruxeval',
        params: {},
        source: 'http://localhost:8000/v1',
        sourceHash: null,
        hashseed: 0,
      },
      [],
    );
    const f = file(JSON.stringify({ sample_0: ['1'] }));
    expect(refusal(() => importPredictions(corpus, { file: f, set: 'co', label: 'm' }))).toEqual([
      'co already has a run labelled "m", made by stepscope predict (http://localhost:8000/v1); give another --model label, or --replace to replace it',
      'bad-input',
    ]);
  });
});
