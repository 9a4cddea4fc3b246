/**
 * Predictions as stored and read back (src/store/queries/predictions.ts): the verdicts that
 * are null (not applicable) stay null, a parse error comes back whole and its absence is SQL
 * NULL, the count of stored predictions, and which checks `pendingChecks` and
 * `checkedPredictions` report as due or made. Each test builds its own small corpus
 * (Stryker's per-test coverage does not see beforeAll fixtures).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEvalSet } from '../../src/predictions/create.js';
import type { ParseError } from '../../src/semantics/parse.js';
import { openCorpus, type Corpus, type NewPrediction } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from './fixtures.js';

afterAll(cleanTempDirs);

const parseError: ParseError = {
  offset: 3,
  line: 1,
  column: 4,
  tokenIndex: 0,
  expected: 'a state',
  got: 'x',
  message: 'expected a state, got x',
};

/** A corpus with one next-state set (at least 3 items) and an empty run; returns the run's and items' ids. */
async function withRun(): Promise<{ c: Corpus; setId: number; runId: number; items: number[] }> {
  const dir = tempDir();
  const c = openCorpus(join(dir, 'c.db'), { create: true });
  await c.ingest(
    writeTraces(dir, 't.jsonl', [
      { name: 'a', n: 3 },
      { name: 'b', n: 2, exit: 'error' },
    ]),
  );
  const { set } = createEvalSet(c, { name: 'ns', task: 'next-state', perAction: 2, seed: 1 });
  const items = [...c.iterateItems(set.id)].map((i) => i.id);
  expect(items.length).toBeGreaterThanOrEqual(3);
  const runId = c.saveRun(
    { setId: set.id, label: 'm', format: 'state', params: {}, source: 'test', sourceHash: null, hashseed: 0 },
    [],
  );
  return { c, setId: set.id, runId, items };
}

const pred = (itemId: number, p: Partial<NewPrediction>): NewPrediction => ({
  itemId,
  sample: 0,
  completion: 'c',
  finish: 'stop',
  em: null,
  parseError: null,
  exec: null,
  alt: null,
  ...p,
});

describe('storing predictions', () => {
  it('counts what it stored, keeps null verdicts null and a parse error whole', async () => {
    const { c, setId, runId, items } = await withRun();
    const n = c.addPredictions(runId, [
      pred(items[0], { em: { event: true, src: true, locals: false, arg: null, all: false } }),
      pred(items[1], { em: { event: false, src: null, locals: null, arg: null, all: false }, parseError }),
      pred(items[2], {}),
    ]);
    expect(n).toBe(3);
    const got = [...c.iteratePredictions({ setId, runId })].sort((a, b) => a.itemId - b.itemId);
    expect(got.map((p) => [p.itemId, p.formatError, p.parseError, p.em, p.exec, p.alt])).toEqual([
      [items[0], false, null, { event: true, src: true, locals: false, arg: null, all: false }, null, null],
      [items[1], true, parseError, { event: false, src: null, locals: null, arg: null, all: false }, null, null],
      [items[2], null, null, { event: null, src: null, locals: null, arg: null, all: null }, null, null],
    ]);
    // No parse error is SQL NULL, not the text "null" (people query the column with stepscope sql).
    expect([...c.query('SELECT count(*) AS n FROM predictions WHERE parse_error IS NULL')]).toEqual([{ n: 2 }]);
    c.close();
  });

  it('reads a check made back with its status, and one not due as null', async () => {
    const { c, setId, runId, items } = await withRun();
    c.addPredictions(runId, [pred(items[0], { exec: 'pending', alt: null })]);
    const id = [...c.iteratePredictions({ setId, runId })][0].id;
    c.setVerdicts([{ id, exec: { status: 'fail', detail: 'boom', rule: false } }]);
    const [p] = [...c.iteratePredictions({ setId, runId })];
    expect([p.exec, p.alt, p.correct]).toEqual([{ status: 'fail', detail: 'boom', rule: false }, null, false]);
    c.close();
  });
});

describe('checks due and made', () => {
  it('pendingChecks says which checks are due, and emLocals null when not scored by field', async () => {
    const { c, runId, items } = await withRun();
    c.addPredictions(runId, [
      pred(items[0], { em: { event: true, src: true, locals: true, arg: null, all: true }, exec: 'pending' }),
      pred(items[1], { em: { event: true, src: true, locals: false, arg: null, all: false }, alt: 'pending' }),
      pred(items[2], { exec: 'pending', alt: 'pending' }),
    ]);
    expect(c.pendingChecks(runId).map((p) => [p.itemId, p.exec, p.alt, p.emLocals])).toEqual([
      [items[0], true, false, true],
      [items[1], false, true, false],
      [items[2], true, true, null],
    ]);
    c.close();
  });

  it('checkedPredictions reports only the checks made, never a pending one as made', async () => {
    const { c, runId, items } = await withRun();
    c.addPredictions(runId, [
      pred(items[0], {
        em: { event: true, src: true, locals: true, arg: null, all: true },
        exec: 'pending',
        alt: 'pending',
      }),
      pred(items[1], {
        em: { event: true, src: true, locals: false, arg: null, all: false },
        exec: 'pending',
        alt: 'pending',
      }),
      pred(items[2], { exec: 'pending', alt: 'pending' }),
    ]);
    const [p0, p1, p2] = c.pendingChecks(runId);
    c.setVerdicts([
      { id: p0.id, alt: { status: 'pass', detail: null, got: '1' } }, // exec still pending
      { id: p1.id, exec: { status: 'fail', detail: null, rule: false } }, // alt still pending
      {
        id: p2.id,
        exec: { status: 'pass', detail: null, rule: true },
        alt: { status: 'error', detail: 'x', got: null },
      },
    ]);
    expect(
      c.checkedPredictions(runId).map((p) => [p.itemId, p.exec, p.execStatus, p.alt, p.altStatus, p.emLocals]),
    ).toEqual([
      [items[0], false, null, true, 'pass', true],
      [items[1], true, 'fail', false, null, false],
      [items[2], true, 'pass', true, 'error', null],
    ]);
    c.close();
  });
});
