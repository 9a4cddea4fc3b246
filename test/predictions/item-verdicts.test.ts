// The dashboard's per-item sums (one SQL pass, src/store/queries/verdicts.ts) against the
// verdict rows `stepscope scores` reads, summed in JS: on a seeded corpus of real traces with
// every kind of verdict (right, a field wrong, format errors, 1–4 samples per item, unanswered
// items, execution and valid-alternative checks passed, failed and still pending), the sums,
// every score line, every interval and the comparison of two runs are the same.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareItems } from '../../src/predictions/compare.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { itemVerdictsOf } from '../../src/predictions/item-verdicts.js';
import { pass1Interval, scoreGroups } from '../../src/predictions/scores.js';
import { mulberry32, SCORE_BY } from '../../src/semantics/index.js';
import type { Corpus, EvalSetRecord, RunRecord } from '../../src/store/corpus.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from './helpers.js';

let corpus: Corpus;
const sets: { set: EvalSetRecord; runs: RunRecord[] }[] = [];
const STATUSES = ['pass', 'fail', 'error', 'timeout', 'skipped'] as const;

beforeAll(async () => {
  let dir: string;
  ({ corpus, dir } = await corpusOf(vectorTraces().traces, 'stepscope-itemv-'));
  const rng = mulberry32(2026);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rng() * xs.length)];
  for (const [name, task] of [
    ['ns', 'next-state'],
    ['hz', 'horizon'],
  ] as const) {
    const { set } = createEvalSet(corpus, { name, task, perAction: 10, seed: 3 });
    for (const label of ['A', 'B']) {
      const lines: string[] = [];
      for (const it of corpus.iterateItems(set.id)) {
        if (rng() < 0.1) continue; // unanswered
        const t = it.target;
        const variants = [
          t,
          t,
          t.replace(/"([^"]*)"\}/, '"$1 "}'),
          t.replace(/^<\|[a-z_]+\|>/, '<|line_sep|>'),
          t.slice(0, t.length >> 1),
          'nope',
        ];
        lines.push(
          JSON.stringify({
            id: it.id,
            completions: Array.from({ length: 1 + Math.floor(rng() * 4) }, () => pick(variants)),
          }),
        );
      }
      const file = join(dir, `${name}-${label}.jsonl`);
      writeFileSync(file, lines.join('\n') + '\n');
      importPredictions(corpus, { file, set: name, label });
    }
    const runs = corpus.listRuns(set.id);
    // Settle most checks at random, leave some pending, and give some predictions an execution verdict.
    for (const run of runs) {
      const preds = [...corpus.iteratePredictions({ setId: set.id, runId: run.id })];
      corpus.setVerdicts(
        preds.flatMap((p) => {
          const alt =
            p.alt?.status === 'pending' && rng() < 0.8
              ? { status: pick(STATUSES), detail: null, got: null }
              : undefined;
          // An execution check left pending (as an interrupted import leaves it) makes `correct` null.
          const exec =
            rng() < 0.3 ? { status: pick([...STATUSES, 'pending' as 'pass']), detail: null, rule: false } : undefined;
          return alt || exec ? [{ id: p.id, alt, exec }] : [];
        }),
      );
    }
    sets.push({ set, runs: corpus.listRuns(set.id) });
  }
});
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

describe('per-item verdict sums in SQL', () => {
  it('covers every kind of verdict (else the comparisons below prove little)', () => {
    const all = sets.flatMap(({ runs }) => runs.flatMap((r) => corpus.itemVerdicts(r.id)));
    const some = (f: (it: (typeof all)[number]) => boolean) => expect(all.some(f), String(f)).toBe(true);
    some((it) => it.formatErrors > 0);
    some((it) => it.pending > 0);
    some((it) => it.exec.n > it.exec.ok && it.exec.ok > 0);
    some((it) => it.em.locals.n > it.em.locals.ok && it.em.locals.ok > 0);
    some((it) => it.em.arg.n > 0);
    some((it) => it.first === null);
    some((it) => it.samples > 1 && it.correct.ok > 0 && it.correct.ok < it.correct.n);
    some((it) => it.depth === null);
    some((it) => it.horizon !== null);
  });

  it('equal the verdict rows summed per item, and count every prediction of the run', () => {
    for (const { runs } of sets) {
      for (const run of runs) {
        const items = corpus.itemVerdicts(run.id);
        expect(items).toEqual(itemVerdictsOf(corpus.verdictRows(run.id)));
        expect(items.reduce((s, it) => s + it.samples, 0)).toBe(run.predictions);
        expect(items.length).toBe(run.items);
        expect(items.reduce((s, it) => s + it.pending, 0)).toBe(run.pending);
      }
    }
  });

  it('give the same score lines, intervals and comparison as the rows', () => {
    for (const { set, runs } of sets) {
      for (const run of runs) {
        const [sql, js] = [corpus.itemVerdicts(run.id), itemVerdictsOf(corpus.verdictRows(run.id))];
        for (const by of [undefined, ...SCORE_BY]) {
          const [a, b] = [scoreGroups(set, run, sql, by), scoreGroups(set, run, js, by)];
          expect(a.map((g) => g.line)).toEqual(b.map((g) => g.line));
          for (const [i, g] of a.entries()) expect(pass1Interval(g.items, [i])).toEqual(pass1Interval(b[i].items, [i]));
        }
      }
      const [a, b] = runs;
      expect(compareItems(corpus.itemVerdicts(a.id), corpus.itemVerdicts(b.id))).toEqual(
        compareItems(itemVerdictsOf(corpus.verdictRows(a.id)), itemVerdictsOf(corpus.verdictRows(b.id))),
      );
    }
  });
});
