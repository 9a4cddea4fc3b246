// Labels in exported rows (docs/export.md, "Labels"): two annotators, an adjudicator, a
// skipped item and rejected pre-labels on a corpus's failures, states and transitions. The
// expected labels of each row are worked out here from the annotations this test made, by
// the documented rule; the files are read back by DuckDB, hyparquet and JSON.parse; the
// label filters select the rows the rule says; the card's per-label counts match the files.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { Manifest } from '../../src/export/manifest.js';
import { exportDataset, type WriteOptions } from '../../src/export/run.js';
import { importPredictions } from '../../src/predictions/import.js';
import { prelabelRun } from '../../src/labeling/prelabel-run.js';
import { setLabels, skipTarget } from '../../src/labeling/write.js';
import type { Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { dataFiles, duckRead, exportCorpus, hyparquetRead, jsonlRead, type ReadRow } from './helpers.js';

let corpus: Corpus;
let db: string;
let dir: string;
let n = 0;
const sql = <T>(q: string) => [...corpus.query(q)] as unknown as T[];

/** Wrong predictions of run `half`, in id order. */
let wrong: number[];
/** prediction id -> the labels its corrections row must carry. */
const predictionLabels = new Map<number, string[]>();
/** The trajectory labeled on its states and transitions, and what each of its rows must carry. */
let traj: { id: number; trace: number; states: number[]; actions: string[] };
/** The second run's labelled prediction and its item (p1's). */
let otherRun: { prediction: number; item: number };
const rulePredictions: { id: number; label: string }[] = [];

beforeAll(async () => {
  ({ corpus, path: db, dir } = await exportCorpus());
  wrong = sql<{ id: number }>(
    "SELECT p.id FROM predictions p JOIN runs r ON r.id = p.run_id WHERE r.label = 'half' AND p.correct = 0 ORDER BY p.id",
  ).map((r) => r.id);
  const [p1, p2, p3, p4, p5] = wrong;
  const label = (prediction: number, annotator: string, labels: string[], role?: 'adjudicator') =>
    setLabels(corpus, { target: { prediction }, labels, annotator, role });
  // p1: two annotators, no adjudicator: the union.
  label(p1, 'ada', ['data.wrong_value']);
  label(p1, 'bo', ['data.wrong_type', 'data.wrong_value']);
  predictionLabels.set(p1, ['data.wrong_type', 'data.wrong_value']);
  // p2: they disagree; the adjudicator's final labels are the row's.
  label(p2, 'ada', ['control.wrong_line']);
  label(p2, 'bo', ['data.missing_local']);
  label(p2, 'cy', ['control.wrong_line'], 'adjudicator');
  predictionLabels.set(p2, ['control.wrong_line']);
  // p3: one annotator.
  label(p3, 'ada', ['format.unparseable']);
  predictionLabels.set(p3, ['format.unparseable']);
  // p4: labeled, then skipped by its only annotator: nothing counts.
  label(p4, 'bo', ['other.other']);
  skipTarget(corpus, { prediction: p4 }, 'bo');
  predictionLabels.set(p4, []);
  // p5: ada's labels; p5's rule suggestions (if any) are rejected by them.
  label(p5, 'ada', ['truth.value_cut']);
  predictionLabels.set(p5, ['truth.value_cut']);

  // A second run, every answer wrong; its prediction on p1's item labelled too.
  const set = corpus.getEvalSet('ns')!;
  const file = join(dir, 'bad.jsonl');
  writeFileSync(
    file,
    [...corpus.iterateItems(set.id)].map((it) => JSON.stringify({ id: it.id, completion: 'junk' })).join('\n') + '\n',
  );
  importPredictions(corpus, { file, set: 'ns', label: 'bad' });
  const [other] = sql<{ id: number }>(
    `SELECT p.id FROM predictions p JOIN runs r ON r.id = p.run_id WHERE r.label = 'bad' AND p.item_id = (SELECT item_id FROM predictions WHERE id = ${p1})`,
  );
  label(other.id, 'ada', ['format.truncated']);
  otherRun = {
    prediction: other.id,
    item: sql<{ item_id: number }>(`SELECT item_id FROM predictions WHERE id = ${p1}`)[0].item_id,
  };

  // Rules' suggestions: only those a person gave count; rejected and unreviewed ones never.
  prelabelRun(corpus, 'ns', 'half');
  for (const r of sql<{ id: number; label: string }>(
    "SELECT prediction_id AS id, json_extract(labels, '$[0]') AS label FROM annotations WHERE source = 'rule' ORDER BY id",
  )) {
    rulePredictions.push(r);
  }

  // A trajectory: a label on the state its first step leads to, one on its first transition.
  const j = sql<{ id: number; trace_id: number; states: string; actions: string }>(
    'SELECT id, trace_id, states, actions FROM trajectories WHERE steps >= 3 AND exit IS NULL ORDER BY id LIMIT 1',
  )[0];
  traj = {
    id: j.id,
    trace: j.trace_id,
    states: JSON.parse(j.states),
    actions: (JSON.parse(j.actions) as { action: string }[]).map((a) => a.action),
  };
  setLabels(corpus, {
    target: { trace: traj.trace, seq: traj.states[1] },
    labels: ['truth.nondeterminism'],
    annotator: 'ada',
  });
  setLabels(corpus, {
    target: { trace: traj.trace, seq: traj.states[0], action: traj.actions[0] },
    labels: ['control.wrong_event'],
    annotator: 'bo',
  });
}, 900_000);
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

async function run(
  opts: Partial<WriteOptions> & Pick<WriteOptions, 'kind'>,
): Promise<{ out: string; m: Manifest; rows: ReadRow[] }> {
  const out = join(dir, `labels${n++}`);
  const m = await exportDataset(db, out, { select: [], allowOverlap: true, ...opts });
  return { out, m, rows: opts.format === 'parquet' ? [] : jsonlRead(dataFiles(out).train ?? []) };
}

const sorted = (xs: string[]) => [...new Set(xs)].sort();

describe('every row carries its labels', () => {
  it('the layout this test relies on: a trajectory shows its entry state, then the state each step leads to', () => {
    const targets = sql<{ target_seq: number }>(
      `SELECT target_seq FROM trajectory_steps WHERE trajectory_id = ${traj.id} ORDER BY step`,
    );
    expect(traj.states.slice(1)).toEqual(targets.map((t) => t.target_seq));
  });

  it("corrections: a prediction's labels (union of people, else the adjudicator's; skipped and rules' suggestions never), read back by DuckDB and hyparquet as lists", async () => {
    const pq = await run({ kind: 'corrections', format: 'parquet', select: ['run=half'] });
    const js = await run({ kind: 'corrections', select: ['run=half'] });
    const duck = await duckRead(dataFiles(pq.out).train, 'parquet');
    const hyp = (await Promise.all(dataFiles(pq.out).train.map(hyparquetRead))).flat();
    expect(duck.types.labels).toBe('VARCHAR[]');
    expect(duck.rows).toEqual(js.rows);
    expect(hyp).toEqual(js.rows);
    expect(js.rows.map((r) => r.prediction)).toEqual(wrong);
    const byId = new Map(js.rows.map((r) => [r.prediction as number, r.labels]));
    for (const id of wrong) expect(byId.get(id)).toEqual(predictionLabels.get(id) ?? []);
    // Some rule fired and was rejected or left unreviewed, so the test can fail.
    expect(rulePredictions.some((r) => !(predictionLabels.get(r.id) ?? []).includes(r.label))).toBe(true);
  });

  it('trajectories: the labels on the states it shows and the transitions it takes; trajectory steps: the transition asked for and the state it leads to', async () => {
    const tj = await run({ kind: 'trajectories', format: 'parquet' });
    const rows = (await duckRead(dataFiles(tj.out).train, 'parquet')).rows;
    const mine = rows.find((r) => r.id === traj.id)!;
    expect(mine.labels).toEqual(['control.wrong_event', 'truth.nondeterminism']);
    // Another trajectory of the trace carries a label only where it shows that state or takes that transition.
    for (const r of rows.filter((x) => x.trace === traj.trace && x.id !== traj.id)) {
      const t = corpus.getTrajectory(r.id as number)!;
      const want: string[] = [];
      if (t.states.includes(traj.states[1])) want.push('truth.nondeterminism');
      if (t.actions.some((a, k) => t.states[k] === traj.states[0] && a.action === traj.actions[0]))
        want.push('control.wrong_event');
      expect(r.labels).toEqual(sorted(want));
    }
    const pt = await run({ kind: 'prompt-target', select: ['source=trajectories'] });
    const steps = pt.rows.filter((r) => r.id === traj.id);
    expect(steps.map((r) => r.labels)).toEqual(
      traj.actions.map((_, k) => (k === 0 ? ['control.wrong_event', 'truth.nondeterminism'] : [])),
    );
  });

  it("prompt-target items: the labels of their predictions (of the runs run= names); traces: each event its state's and its transitions' labels", async () => {
    const itemOf = new Map(
      sql<{ id: number; item_id: number }>('SELECT id, item_id FROM predictions').map((p) => [p.id, p.item_id]),
    );
    const half = await run({ kind: 'prompt-target', select: ['source=items', 'set=ns', 'run=half'] });
    for (const r of half.rows) {
      const want = wrong.filter((p) => itemOf.get(p) === r.id).flatMap((p) => predictionLabels.get(p) ?? []);
      expect(r.labels).toEqual(sorted(want));
    }
    const any = await run({ kind: 'prompt-target', select: ['source=items', 'set=ns'] });
    expect(any.rows.find((r) => r.id === otherRun.item)!.labels).toEqual(
      sorted([...predictionLabels.get(wrong[0])!, 'format.truncated']),
    );
    expect(half.rows.find((r) => r.id === otherRun.item)!.labels).toEqual(predictionLabels.get(wrong[0]));
    const tr = await run({ kind: 'traces', format: 'parquet', select: [`sql=t.id = ${traj.trace}`] });
    const events = (await duckRead(dataFiles(tr.out).train, 'parquet')).rows;
    for (const e of events) {
      expect(e.labels).toEqual(
        e.seq === traj.states[1] ? ['truth.nondeterminism'] : e.seq === traj.states[0] ? ['control.wrong_event'] : [],
      );
    }
  });
});

describe('the label filters', () => {
  const ids = async (select: string[]) =>
    (await run({ kind: 'corrections', select: ['run=half', ...select] })).rows.map((r) => r.prediction as number);
  const withLabels = (pred: (labels: string[]) => boolean) =>
    wrong.filter((id) => pred(predictionLabels.get(id) ?? []));

  it('labels-any, labels-all and labels-none select by the merged labels', async () => {
    expect(await ids(['labels-any=data.wrong_type,format.unparseable'])).toEqual([wrong[0], wrong[2]]);
    expect(await ids(['labels-all=data.wrong_type,data.wrong_value'])).toEqual([wrong[0]]);
    expect(await ids(['labels-all=data.wrong_value,control.wrong_line'])).toEqual([]);
    // bo's data.missing_local on p2 was overruled by the adjudicator.
    expect(await ids(['labels-any=data.missing_local'])).toEqual([]);
    expect(await ids(['labels-none=data.wrong_value,control.wrong_line'])).toEqual(
      withLabels((l) => !l.includes('data.wrong_value') && !l.includes('control.wrong_line')),
    );
  });

  it("annotator= selects the rows that annotator labeled, and the label keys then read that annotator's labels", async () => {
    expect(await ids(['annotator=ada'])).toEqual([wrong[0], wrong[1], wrong[2], wrong[4]]);
    expect(await ids(['annotator=bo'])).toEqual([wrong[0], wrong[1]]);
    expect(await ids(['annotator=bo', 'labels-any=data.missing_local'])).toEqual([wrong[1]]);
    expect(await ids(['annotator=ada', 'labels-none=control.wrong_line'])).toEqual([wrong[0], wrong[2], wrong[4]]);
    const rows = (await run({ kind: 'corrections', select: ['run=half', 'annotator=bo'] })).rows;
    expect(rows.map((r) => r.labels)).toEqual([['data.wrong_type', 'data.wrong_value'], ['data.missing_local']]);
  });

  it('filters per step for prompt-target, and per whole trace for traces', async () => {
    const pt = await run({ kind: 'prompt-target', select: ['source=trajectories', 'labels-any=control.wrong_event'] });
    expect(pt.rows.some((r) => r.id === traj.id && r.step === 0)).toBe(true);
    expect(pt.rows.every((r) => (r.labels as string[]).includes('control.wrong_event'))).toBe(true);
    const tr = await run({ kind: 'traces', select: ['labels-any=truth.nondeterminism'] });
    expect(new Set(tr.rows.map((r) => r.trace))).toEqual(new Set([traj.trace]));
    expect(tr.rows.length).toBe(corpus.getTrace(traj.trace)!.events);
  });

  it('values are bound, and an unknown label is refused by name', async () => {
    await expect(run({ kind: 'corrections', select: ["labels-any=x') OR 1=1 OR ('"] })).rejects.toThrow(
      /unknown label/,
    );
    expect(await ids(["annotator=ada' OR '1'='1"])).toEqual([]);
    await expect(run({ kind: 'corrections', select: ['labels-all=data.nope'] })).rejects.toThrow(
      "--select labels-all: unknown label 'data.nope'",
    );
    await expect(run({ kind: 'corrections', select: ['labels-none=data.nope'] })).rejects.toMatchObject({
      code: 'bad-input',
    });
  });
});

describe('the dataset card counts labels as the files hold them', () => {
  it("per split and label, in the manifest and the card's table, equal to DuckDB's count over the Parquet files", async () => {
    const { out, m } = await run({
      kind: 'corrections',
      format: 'parquet',
      split: 'train=0.5,test=0.5',
      seed: 3,
      select: ['run=half'],
    });
    const files = dataFiles(out);
    for (const split of Object.keys(m.splits)) {
      const rows = files[split] ? (await duckRead(files[split], 'parquet')).rows : [];
      const counts: Record<string, number> = {};
      for (const r of rows) for (const l of r.labels as string[]) counts[l] = (counts[l] ?? 0) + 1;
      expect(m.splits[split].labels).toEqual(counts);
      // Listed in name order, whatever order the rows gave them in.
      expect(Object.keys(m.splits[split].labels)).toEqual(Object.keys(counts).sort());
    }
    expect(JSON.parse(readFileSync(join(out, 'stepscope-export.json'), 'utf8'))).toEqual(m);
    const total = Object.values(m.splits).reduce((a, s) => a + Object.values(s.labels).reduce((x, y) => x + y, 0), 0);
    expect(total).toBe(wrong.reduce((a, id) => a + (predictionLabels.get(id) ?? []).length, 0));
    const card = readFileSync(join(out, 'README.md'), 'utf8');
    const [, header, body] = card.split(/^---$/m);
    expect(parseYaml(header).dataset_info.features).toContainEqual({ name: 'labels', sequence: 'string' });
    // The card's table: one column per label, one line per split, read back from the Markdown.
    const lines = body.split('\n').filter((l) => l.startsWith('| '));
    const head = lines[0]
      .split('|')
      .map((c) => c.trim())
      .filter(Boolean);
    expect(head.slice(4).length).toBeGreaterThan(2);
    for (const line of lines.slice(2)) {
      const cells = line
        .split('|')
        .map((c) => c.trim())
        .filter(Boolean);
      const split = m.splits[cells[0]];
      head.slice(4).forEach((label, k) => expect(Number(cells[4 + k])).toBe(split.labels[label] ?? 0));
    }
  });
});
