/**
 * Curated export's queries (src/store/queries/export.ts): where the rows come from, the keys
 * refused for a kind, the rows each key selects, the `sql=` condition and the read snapshot.
 * Each test builds its own small corpus inside the test (a fixture built in a beforeAll is not
 * seen by Stryker's per-test coverage); the rows a filter selects are checked against plain
 * SQL written here.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { parseSelect, type ExportFilter } from '../../src/semantics/export-select.js';
import { openCorpus, type Corpus, type RowSource } from '../../src/store/corpus.js';
import { checkCondition, rowSources } from '../../src/store/queries/export.js';
import { sampleCorpus } from '../../src/trajectories/sample-corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from './fixtures.js';

afterAll(cleanTempDirs);

/**
 * Two traces (sum_3: exit normal, sum_6), 12 sampled trajectories (both directions, 2 to 6
 * steps), a next-state set `ns` of 16 items and a run `half` answering every other item wrongly.
 */
async function small(): Promise<{ corpus: Corpus; dir: string; path: string }> {
  const dir = tempDir('stepscope-qexport-');
  const path = join(dir, 'c.db');
  const corpus = openCorpus(path, { create: true });
  await corpus.ingest(
    writeTraces(dir, 't.jsonl', [
      { name: 'sum_3', n: 3 },
      { name: 'sum_6', n: 6 },
    ]),
  );
  sampleCorpus(corpus, { seed: 1, perTrace: 3, direction: 'both', entry: 'random', maxSteps: 6 });
  createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 2, seed: 2 });
  const set = corpus.getEvalSet('ns')!;
  const answers = [...corpus.iterateItems(set.id)].map((it, k) =>
    JSON.stringify({ id: it.id, completion: k % 2 ? 'junk' : it.target }),
  );
  const file = join(dir, 'answers.jsonl');
  writeFileSync(file, answers.join('\n') + '\n');
  importPredictions(corpus, { file, set: 'ns', label: 'half' });
  return { corpus, dir, path };
}

const ID: Record<RowSource, string> = {
  trajectories: 'id',
  steps: 'id',
  items: 'id',
  corrections: 'prediction',
  traces: 'trace',
};

/** The ids of the rows a source gives under some --select clauses, and the plan's row count. */
function selected(c: Corpus, src: RowSource, clauses: string[]): { ids: number[]; weight: number } {
  const f = parseSelect(clauses);
  const ids = [...c.iterateExportRows(src, f)].map((r) => r[ID[src]] as number);
  const weight = [...c.exportWeights(src, f).values()].reduce((a, b) => a + b, 0);
  return { ids, weight };
}

const plain = (c: Corpus, q: string) => [...c.query(q)].map((r) => Object.values(r)[0] as number);

/** Each case's clauses select exactly the rows its SQL lists (fewer than all `all`), one weight per row. */
function expectSelects(c: Corpus, src: RowSource, cases: [string[], string][], all: number): void {
  for (const [clauses, q] of cases) {
    const want = plain(c, q);
    expect(want.length, q).toBeLessThan(all);
    const got = selected(c, src, clauses);
    expect(got.ids, clauses.join(' ')).toEqual(want);
    expect(got.weight).toBe(want.length);
  }
}

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return { message: (e as Error).message, code: (e as { code?: string }).code };
  }
  return undefined;
};

describe('where prompt-target rows come from', () => {
  it('items only when a set, a run or a verdict is named; both sources otherwise; one when source= says so', () => {
    expect(rowSources('prompt-target', {})).toEqual(['items', 'steps']);
    expect(rowSources('prompt-target', { set: ['ns'] })).toEqual(['items']);
    expect(rowSources('prompt-target', { run: ['half'] })).toEqual(['items']);
    expect(rowSources('prompt-target', { verdicts: { correct: 0 } })).toEqual(['items']);
    expect(rowSources('prompt-target', { source: 'items' })).toEqual(['items']);
    expect(rowSources('prompt-target', { source: 'trajectories' })).toEqual(['steps']);
    expect(rowSources('corrections', { set: ['ns'] })).toEqual(['corrections']);
  });

  it('source=trajectories with a set, a run or a verdict is refused, in these words', () => {
    for (const f of [{ set: ['ns'] }, { run: ['half'] }, { verdicts: { correct: 0 as const } }]) {
      expect(refusal(() => rowSources('prompt-target', { ...f, source: 'trajectories' }))).toEqual({
        message: '--select set, run and verdict do not apply to prompt-target from trajectories (source=trajectories)',
        code: 'bad-input',
      });
    }
  });
});

describe('keys that do not apply to a kind are refused, never ignored', () => {
  it('trajectories: set, run and verdict.*, named together; one key alone says "does"', async () => {
    const { corpus } = await small();
    expect(refusal(() => corpus.exportWeights('trajectories', parseSelect(['set=ns'])))?.message).toBe(
      '--select set does not apply to --kind trajectories',
    );
    expect(refusal(() => corpus.exportWeights('trajectories', parseSelect(['verdict.correct=wrong'])))?.message).toBe(
      '--select verdict.* does not apply to --kind trajectories',
    );
    expect(
      refusal(() => corpus.iterateExportRows('trajectories', parseSelect(['set=ns', 'run=half', 'verdict.exec=pass']))),
    ).toEqual({
      message: '--select set, run, verdict.* do not apply to --kind trajectories',
      code: 'bad-input',
    });
    // Steps of trajectories (prompt-target) are worded as such.
    expect(refusal(() => corpus.exportWeights('steps', parseSelect(['run=half'])))?.message).toBe(
      '--select run does not apply to prompt-target from trajectories',
    );
    corpus.close();
  });

  it('traces: set, run, verdict.*, action and direction', async () => {
    const { corpus } = await small();
    for (const [clause, key] of [
      ['set=ns', 'set'],
      ['run=half', 'run'],
      ['verdict.all=right', 'verdict.*'],
      ['action=step_over', 'action'],
      ['direction=forward', 'direction'],
    ]) {
      expect(refusal(() => corpus.exportWeights('traces', parseSelect([clause])))?.message).toBe(
        `--select ${key} does not apply to --kind traces`,
      );
    }
    corpus.close();
  });
});

describe("each key selects the rows plain SQL selects (rows and the plan's count agree)", () => {
  it('trajectories and their steps: direction, length bounds and actions', async () => {
    const { corpus: c } = await small();
    const cases: [string[], string, string][] = [
      [['direction=inverse'], "SELECT id FROM trajectories WHERE direction = 'inverse' ORDER BY id", 'direction'],
      [['length=3..4'], 'SELECT id FROM trajectories WHERE steps BETWEEN 3 AND 4 ORDER BY id', 'length'],
      [['length=..4'], 'SELECT id FROM trajectories WHERE steps <= 4 ORDER BY id', 'length'],
      [
        ['action=step_return,continue'],
        "SELECT id FROM trajectories j WHERE EXISTS (SELECT 1 FROM trajectory_steps s WHERE s.trajectory_id = j.id AND s.action IN ('step_return', 'continue')) ORDER BY id",
        'action',
      ],
    ];
    for (const [clauses, q] of cases) {
      const want = plain(c, q);
      expect(want.length, q).toBeGreaterThan(0);
      expect(want.length, q).toBeLessThan(12);
      const got = selected(c, 'trajectories', clauses);
      expect(got.ids, clauses.join(' ')).toEqual(want);
      expect(got.weight).toBe(want.length);
    }
    // Steps: one row per trajectory with a step that passes; the count is the steps'.
    const inv = selected(c, 'steps', ['direction=inverse']);
    expect(inv.ids).toEqual(plain(c, "SELECT id FROM trajectories WHERE direction = 'inverse' ORDER BY id"));
    expect(inv.weight).toBe(
      plain(
        c,
        "SELECT count(*) FROM trajectory_steps s JOIN trajectories j ON j.id = s.trajectory_id WHERE j.direction = 'inverse'",
      )[0],
    );
    const acts = selected(c, 'steps', ['action=step_return,continue']);
    expect(acts.weight).toBe(
      plain(c, "SELECT count(*) FROM trajectory_steps WHERE action IN ('step_return', 'continue')")[0],
    );
    expect(selected(c, 'steps', ['length=..4']).ids).toEqual(
      plain(c, 'SELECT id FROM trajectories WHERE steps <= 4 ORDER BY id'),
    );
    c.close();
  });

  it('steps under two label keys: the conditions are joined with AND (no annotations: no rows)', async () => {
    const { corpus: c } = await small();
    const f: ExportFilter = { labelsAny: ['off-by-one'], labelsNone: ['wrong-branch'] };
    expect([...c.iterateExportRows('steps', f)]).toEqual([]);
    expect(c.exportWeights('steps', f).size).toBe(0);
    c.close();
  });

  it('items: set, direction, actions, length, run and verdicts', async () => {
    const { corpus: c } = await small();
    const cases: [string[], string][] = [
      [['set=nope'], 'SELECT id FROM evalset_items WHERE 0'],
      [['direction=inverse'], "SELECT id FROM evalset_items WHERE direction = 'inverse' ORDER BY id"],
      [
        ['action=step_over,inv_step_over'],
        "SELECT id FROM evalset_items WHERE action IN ('step_over', 'inv_step_over') ORDER BY id",
      ],
      [['length=2..3'], 'SELECT id FROM evalset_items WHERE json_array_length(actions) BETWEEN 2 AND 3 ORDER BY id'],
      [['run=nope'], 'SELECT id FROM evalset_items WHERE 0'],
      [['run=nope', 'verdict.correct=wrong'], 'SELECT id FROM evalset_items WHERE 0'],
      [['run=half', 'verdict.correct=wrong'], 'SELECT item_id FROM predictions WHERE correct = 0 ORDER BY item_id'],
      [['verdict.correct=right'], 'SELECT item_id FROM predictions WHERE correct = 1 ORDER BY item_id'],
    ];
    const all = plain(c, 'SELECT count(*) FROM evalset_items')[0];
    expectSelects(c, 'items', cases, all);
    c.close();
  });

  it('corrections: set, direction, actions and length', async () => {
    const { corpus: c } = await small();
    const wrong = 'SELECT p.id FROM predictions p JOIN evalset_items i ON i.id = p.item_id WHERE p.correct = 0';
    const cases: [string[], string][] = [
      [['set=nope'], 'SELECT id FROM predictions WHERE 0'],
      [['direction=inverse'], `${wrong} AND i.direction = 'inverse' ORDER BY p.id`],
      [
        ['action=step_over,inv_step_over,continue'],
        `${wrong} AND i.action IN ('step_over', 'inv_step_over', 'continue') ORDER BY p.id`,
      ],
      [['length=2..3'], `${wrong} AND json_array_length(i.actions) BETWEEN 2 AND 3 ORDER BY p.id`],
    ];
    const all = plain(c, 'SELECT count(*) FROM predictions WHERE correct = 0')[0];
    expectSelects(c, 'corrections', cases, all);
    c.close();
  });

  it('traces: length counts events; exit takes several values', async () => {
    const { corpus: c } = await small();
    const short = plain(c, 'SELECT min(events) FROM traces')[0];
    const got = selected(c, 'traces', [`length=..${short}`]);
    expect([...new Set(got.ids)]).toEqual(plain(c, `SELECT id FROM traces WHERE events <= ${short}`));
    expect(got.weight).toBe(short);
    expect(selected(c, 'traces', ['exit=error,normal']).weight).toBe(plain(c, 'SELECT sum(events) FROM traces')[0]);
    c.close();
  });
});

describe('a SQL condition', () => {
  const ok = (sql: string) =>
    expect(
      refusal(() => checkCondition(sql)),
      sql,
    ).toBeUndefined();
  const refused = (sql: string, what: string) =>
    expect(
      refusal(() => checkCondition(sql)),
      sql,
    ).toEqual({
      message: `--select sql: ${what}; expected one condition, e.g. sql=t.events > 100 (docs/export.md)`,
      code: 'bad-input',
    });

  it('accepts quotes holding ; -- ( and doubled quotes, parentheses, minus and division', () => {
    ok("t.name = 'a;b'");
    ok('"t"."name" = \'(--)\'');
    ok("t.name = 'it''s'");
    ok("t.name <> ''");
    ok('(t.events > 1) AND (t.events < 9)');
    ok('t.events - 1 > 2');
    ok('t.events / 2 > 3');
    ok("[t].[name] GLOB '*'");
  });

  it('refuses, in these words, what could end the condition or the statement', () => {
    refused('"t.name = 1', 'an unclosed "');
    refused('t.events > 1 /* x', 'a comment');
    refused('t.events > 1 -- x', 'a comment');
    refused('1) OR (1', 'a ) that closes nothing');
    refused('(1', 'an unclosed (');
    // A ] inside brackets cannot be doubled: the bracket ends at the first one.
    refused('[x]] ; 1', 'a ; (one condition only)');
    refused('', 'nothing');
    refused('  ', 'nothing');
  });

  it("SQLite's own refusal is a bad-input error that names the docs", async () => {
    const { corpus: c } = await small();
    expect(refusal(() => c.exportWeights('trajectories', parseSelect(['sql=no_such_column > 1'])))).toEqual({
      message: '--select sql: no such column: no_such_column (docs/export.md lists the tables and aliases)',
      code: 'bad-input',
    });
    c.close();
  });

  it('a locked or damaged corpus is reported as such, naming the file, not as a bad condition', async () => {
    const { corpus: c, path } = await small();
    // SQLite fails the export's prepare (it reads the schema) as a locked or damaged file would.
    const conn = (c as unknown as { conn: { prepare(s: string): unknown } }).conn;
    for (const [code, words, kind] of [
      ['SQLITE_BUSY', 'is locked: another program is writing to it', 'corpus-locked'],
      ['SQLITE_CORRUPT', 'is damaged (SQLite reports corruption)', 'corrupt'],
    ]) {
      const failing = new Proxy(conn, {
        get: (t, k) =>
          k === 'prepare'
            ? (s: string) =>
                s.includes('sqlite_master') || s.includes('annotations')
                  ? t.prepare(s)
                  : (() => {
                      throw Object.assign(new Error('x'), { code });
                    })()
            : Reflect.get(t, k),
      });
      Object.defineProperty(c, 'conn', { value: failing, configurable: true });
      const e = refusal(() => c.exportWeights('trajectories', parseSelect(['sql=t.events > 1'])));
      expect(e?.message.startsWith(`${path} ${words}`), e?.message).toBe(true);
      expect(e?.code).toBe(kind);
    }
    Object.defineProperty(c, 'conn', { value: conn, configurable: true });
    c.close();
  });
});

describe('one read snapshot', () => {
  it('holds across the reads while another connection writes, and ends when asked', async () => {
    const { corpus: w, dir, path } = await small();
    const r = openCorpus(path, { readonly: true });
    const end = r.beginRead();
    const before = r.exportWeights('traces', {});
    await w.ingest(writeTraces(dir, 'more.jsonl', [{ name: 'sum_9', n: 9 }]));
    expect(r.exportWeights('traces', {})).toEqual(before);
    end();
    expect([...r.exportWeights('traces', {}).values()].reduce((a, b) => a + b, 0)).toBe(
      plain(w, 'SELECT sum(events) FROM traces')[0],
    );
    end(); // a second call is harmless
    r.close();
    w.close();
  });
});
