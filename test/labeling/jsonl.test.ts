// Annotations as JSON Lines (src/labeling/jsonl.ts, docs/annotation.md "Several annotators"),
// in process: what a line holds, merging a copy's lines (added, already there, kept beside a
// different annotation as NAME@FILE), finding a prediction by set, run, item and sample in a
// corpus where its id differs, the defaults of a short line, and every refusal as FILE:LINE
// with nothing stored. The CLI's own test (test/cli/annotations-cli.test.ts) runs the same
// through the compiled command.
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportLines, importLines, type AnnotationLine } from '../../src/labeling/jsonl.js';
import { prelabelRun } from '../../src/labeling/prelabel-run.js';
import { setLabels, skipTarget, undoLast } from '../../src/labeling/write.js';
import { updateTaxonomy } from '../../src/labeling/taxonomy.js';
import { DEFAULT_TAXONOMY } from '../../src/annotate/index.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';

let dir: string;
/** The corpus the annotators' lines come from, and the predictions of its run `m`. */
let db: string;
let ids: number[];
/** A corpus with the same traces whose predictions were imported after another set's: other ids. */
let other: string;

/** Writes predictions of `set` for run `label`, one per item, all unparseable (so every one fails). */
function predict(corpus: Corpus, set: string, label: string) {
  const s = corpus.getEvalSet(set)!;
  const items = [...corpus.iterateItems(s.id)];
  const file = join(dir, `${set}-${label}.jsonl`);
  writeFileSync(file, items.map((it) => JSON.stringify({ id: it.id, completion: 'not a state' })).join('\n'));
  importPredictions(corpus, { file, set, label });
}

beforeAll(async () => {
  let corpus: Corpus;
  const { traces } = vectorTraces();
  ({ corpus, path: db, dir } = await corpusOf(traces, 'stepscope-jsonl-'));
  createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 1, seed: 3 });
  predict(corpus, 'ns', 'm');
  ids = [...corpus.iteratePredictions({ setId: corpus.getEvalSet('ns')!.id })].map((p) => p.id);
  corpus.close();
  // The other copy: a set "first" made and predicted before "ns", so ns's predictions get other ids.
  const o = await corpusOf(traces, 'stepscope-jsonl-other-');
  createEvalSet(o.corpus, { name: 'first', task: 'next-state', perAction: 1, seed: 5 });
  predict(o.corpus, 'first', 'x');
  createEvalSet(o.corpus, { name: 'ns', task: 'next-state', perAction: 1, seed: 3 });
  predict(o.corpus, 'ns', 'm');
  other = o.path;
  o.corpus.close();
}, 120_000);
afterAll(cleanTempDirs);

let copies = 0;
/** A fresh copy of the corpus file `path` to write to. */
function copyOf(path: string): Corpus {
  const to = join(dir, `copy${copies++}.db`);
  copyFileSync(path, to);
  return openCorpus(to);
}
/** Another annotator's copy of `c` as it is now (closed first, so its writes are in the file); both open. */
function fork(c: Corpus): [Corpus, Corpus] {
  c.close();
  return [openCorpus(c.path), copyOf(c.path)];
}
const text = (lines: object[]) => lines.map((l) => JSON.stringify(l) + '\n').join('');
const people = (c: Corpus) =>
  c.listAnnotations({ source: 'person', inactive: true }).map((a) => ({
    annotator: a.annotator,
    target: a.target,
    labels: a.labels,
    note: a.note,
    active: a.active,
    skipped: a.skipped,
  }));

describe('exportLines', () => {
  it("one line per annotation, undone ones too; a prediction's line says where it is, a state's does not", () => {
    const c = copyOf(db);
    setLabels(c, {
      target: { prediction: ids[0] },
      labels: ['format.unparseable'],
      note: 'no state at all',
      annotator: 'ada',
    });
    setLabels(c, {
      target: { trace: 1, seq: 0, action: 'step_into' },
      labels: ['control.branch'],
      annotator: 'bob',
      role: 'adjudicator',
    });
    skipTarget(c, { prediction: ids[1] }, 'ada');
    setLabels(c, { target: { prediction: ids[2] }, labels: ['format.truncated'], annotator: 'cy' });
    undoLast(c, 'cy');
    const lines = exportLines(c);
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatchObject({
      target: `prediction:${ids[2]}`,
      annotator: 'cy',
      labels: ['format.truncated'],
      active: false,
    });
    const item = c.listEvalSets()[0] && [...c.iteratePredictions({ setId: c.getEvalSet('ns')!.id })][0];
    expect(lines[0]).toEqual({
      uid: expect.any(String),
      target: `prediction:${ids[0]}`,
      set: 'ns',
      run: 'm',
      item: item.itemKey,
      sample: item.sample,
      annotator: 'ada',
      role: 'annotator',
      source: 'person',
      rule: null,
      labels: ['format.unparseable'],
      note: 'no state at all',
      status: null,
      skipped: false,
      active: true,
      taxonomy: 1,
      created: expect.any(String),
      updated: expect.any(String),
    });
    expect(lines[1]).toMatchObject({
      target: 'trace:1/seq:0/action:step_into',
      annotator: 'bob',
      role: 'adjudicator',
      labels: ['control.branch'],
    });
    expect(Object.keys(lines[1])).not.toContain('set');
    expect(lines[2]).toMatchObject({ target: `prediction:${ids[1]}`, annotator: 'ada', skipped: true, labels: [] });
    c.close();
  });
});

describe('importLines', () => {
  it('merges a copy: new lines added, identical ones skipped, a different one kept beside as NAME@FILE; a second import adds nothing', () => {
    const a0 = copyOf(db);
    setLabels(a0, { target: { prediction: ids[0] }, labels: ['format.unparseable'], annotator: 'ada' });
    const [a, b] = fork(a0);
    // ada changed her mind in the copy
    setLabels(b, { target: { prediction: ids[0] }, labels: ['other.other'], annotator: 'ada' });
    setLabels(b, { target: { prediction: ids[2] }, labels: ['format.repeated'], annotator: 'carol' });
    const lines = text(exportLines(b));
    expect(importLines(a, lines, join(dir, 'sub', 'carol.jsonl'), 'lead')).toEqual({ added: 1, same: 0, conflicts: 1 });
    expect(people(a)).toEqual([
      {
        annotator: 'ada',
        target: `prediction:${ids[0]}`,
        labels: ['format.unparseable'],
        note: null,
        active: true,
        skipped: false,
      },
      {
        annotator: 'ada@carol.jsonl',
        target: `prediction:${ids[0]}`,
        labels: ['other.other'],
        note: null,
        active: true,
        skipped: false,
      },
      {
        annotator: 'carol',
        target: `prediction:${ids[2]}`,
        labels: ['format.repeated'],
        note: null,
        active: true,
        skipped: false,
      },
    ]);
    expect(importLines(a, lines, join(dir, 'sub', 'carol.jsonl'), 'lead')).toEqual({ added: 0, same: 2, conflicts: 0 });
    // The same conflicting line twice in one file is kept once.
    const ada = exportLines(b).find((l) => l.annotator === 'ada')!;
    const c = copyOf(db);
    setLabels(c, { target: { prediction: ids[0] }, labels: ['format.truncated'], annotator: 'ada' });
    expect(importLines(c, text([ada, ada]), 'C:\\work\\b.jsonl', 'lead')).toEqual({ added: 0, same: 1, conflicts: 1 });
    expect(people(c).map((p) => p.annotator)).toEqual(['ada', 'ada@b.jsonl']);
    for (const x of [a, b, c]) x.close();
  });

  it("a rule's suggestion is the same whatever its status; a person's line with another note, skip, undo or labels is not", () => {
    const a0 = copyOf(db);
    prelabelRun(a0, 'ns', 'm');
    const [a, b] = fork(a0);
    // bob's labels in the copy reject or accept the rules' suggestions there.
    setLabels(b, { target: { prediction: ids[0] }, labels: ['other.other'], annotator: 'bob' });
    const lines = exportLines(b);
    const rules = lines.filter((l) => l.source === 'rule');
    expect(rules.length).toBeGreaterThan(0);
    expect(rules.some((l) => l.status !== 'suggested')).toBe(true);
    expect(importLines(a, text(lines), 'b.jsonl', 'lead')).toEqual({ added: 1, same: rules.length, conflicts: 0 });
    const mine = lines.find((l) => l.annotator === 'bob')!;
    for (const change of [
      { note: 'why' },
      { skipped: true },
      { active: false },
      { labels: ['format.truncated'] },
    ] as Partial<AnnotationLine>[]) {
      expect(
        importLines(a, text([{ ...mine, ...change }]), `${Object.keys(change)[0]}.jsonl`, 'lead'),
        JSON.stringify(change),
      ).toEqual({ added: 0, same: 0, conflicts: 1 });
    }
    a.close();
    b.close();
  });

  it('accepts a UTF-8 byte-order mark at the start of the file, as every JSON Lines reader does', () => {
    const a = copyOf(db);
    setLabels(a, { target: { prediction: ids[1] }, labels: ['format.truncated'], annotator: 'ada' });
    const o = copyOf(other);
    expect(importLines(o, '\uFEFF' + text(exportLines(a)), 'bom.jsonl', 'lead')).toEqual({
      added: 1,
      same: 0,
      conflicts: 0,
    });
    a.close();
    o.close();
  });

  it('finds a prediction by set, run, item and sample in a corpus where its id differs', () => {
    const a = copyOf(db);
    setLabels(a, { target: { prediction: ids[1] }, labels: ['format.truncated'], annotator: 'ada' });
    const line = exportLines(a)[0];
    const o = copyOf(other);
    const there = [...o.iteratePredictions({ setId: o.getEvalSet('ns')!.id })].find(
      (p) => p.itemKey === line.item && p.sample === line.sample,
    )!;
    expect(there.id).not.toBe(ids[1]);
    expect(importLines(o, text([line]), 'a.jsonl', 'lead')).toEqual({ added: 1, same: 0, conflicts: 0 });
    expect(people(o)).toEqual([
      {
        annotator: 'ada',
        target: `prediction:${there.id}`,
        labels: ['format.truncated'],
        note: null,
        active: true,
        skipped: false,
      },
    ]);
    // Without its set, run, item and sample a line keeps its prediction id.
    const bare = {
      ...line,
      set: undefined,
      run: undefined,
      item: undefined,
      sample: undefined,
      uid: 'bare',
      annotator: 'zed',
    };
    expect(importLines(o, text([bare]), 'a.jsonl', 'lead').added).toBe(1);
    expect(o.listAnnotations({ annotator: 'zed' })[0].target).toBe(`prediction:${ids[1]}`);
    // Any one of the four missing: the same.
    for (const k of ['set', 'run', 'item', 'sample'] as const) {
      const partial = { ...line, [k]: undefined, uid: `no-${k}`, annotator: `no-${k}` };
      expect(importLines(o, text([partial]), 'a.jsonl', 'lead').added, k).toBe(1);
      expect(o.listAnnotations({ annotator: `no-${k}` })[0].target, k).toBe(`prediction:${ids[1]}`);
    }
    // A state's line keeps its state, whatever else it carries.
    const state = { ...line, target: 'trace:1/seq:2', uid: 'state', annotator: 'sam' };
    expect(importLines(o, text([state]), 'a.jsonl', 'lead').added).toBe(1);
    expect(o.listAnnotations({ annotator: 'sam' })[0]).toMatchObject({
      target: 'trace:1/seq:2',
      prediction: null,
      trace: 1,
      seq: 2,
    });
    for (const [k, v] of [
      ['set', 'nope'],
      ['run', 'nope'],
      ['item', 'nope'],
      ['sample', 7],
    ] as const) {
      const moved = { ...line, [k]: v };
      expect(() => importLines(o, text([moved]), 'a.jsonl', 'lead'), k).toThrow(
        `a.jsonl:1: expected a prediction of set ${JSON.stringify(moved.set)}, run ${JSON.stringify(moved.run)}, item ${JSON.stringify(moved.item)}, sample ${moved.sample} in this corpus`,
      );
    }
    a.close();
    o.close();
  });

  it('a short line takes the defaults: annotator role, no status, not skipped, active, the current taxonomy; its dates are kept when given', () => {
    const c = copyOf(db);
    const line = { uid: 'u1', target: 'trace:1/seq:0', annotator: 'ada', source: 'person', labels: ['other.other'] };
    expect(
      importLines(
        c,
        text([
          line,
          {
            ...line,
            uid: 'u2',
            target: 'trace:1/seq:1',
            created: '2026-01-02T03:04:05Z',
            updated: '2026-01-03T00:00:00Z',
            taxonomy: 1,
          },
        ]),
        'short.jsonl',
        'lead',
      ).added,
    ).toBe(2);
    const [a, b] = c.listAnnotations();
    expect(a).toMatchObject({
      uid: 'u1',
      role: 'annotator',
      status: null,
      skipped: false,
      active: true,
      taxonomy: 1,
      note: null,
      rule: null,
    });
    expect(b).toMatchObject({ uid: 'u2', created: '2026-01-02T03:04:05Z', updated: '2026-01-03T00:00:00Z' });
    expect(c.latestTaxonomy()?.version).toBe(1);
    // Given values are kept: an adjudicator, a rule's accepted or rejected suggestion, an older taxonomy version; a
    // date that is not text is replaced.
    updateTaxonomy(c, { ...structuredClone(DEFAULT_TAXONOMY), version: 2, name: 'Renamed' }, 'lead');
    const more = [
      { ...line, uid: 'u3', target: 'trace:1/seq:2', role: 'adjudicator', taxonomy: 1 },
      {
        ...line,
        uid: 'u4',
        target: 'trace:1/seq:3',
        annotator: 'rule:x',
        source: 'rule',
        rule: 'x',
        status: 'accepted',
        created: null,
      },
      {
        ...line,
        uid: 'u5',
        target: 'trace:1/seq:4',
        annotator: 'rule:x',
        source: 'rule',
        rule: 'x',
        status: 'rejected',
        created: 5,
        updated: 6,
      },
      { ...line, uid: 'u6', target: 'trace:1/seq:5' },
    ];
    expect(importLines(c, text(more), 'more.jsonl', 'lead').added).toBe(4);
    const [, , u3, u4, u5, u6] = c.listAnnotations();
    expect(u3).toMatchObject({ uid: 'u3', role: 'adjudicator', taxonomy: 1 });
    expect(u4).toMatchObject({ uid: 'u4', status: 'accepted', created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(u5).toMatchObject({
      uid: 'u5',
      status: 'rejected',
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(u6).toMatchObject({ uid: 'u6', taxonomy: 2 });
    c.close();
  });

  it('a bad line stops the import as FILE:LINE with what was expected, and stores nothing', () => {
    const c = copyOf(db);
    const good = {
      uid: 'g',
      target: `prediction:${ids[0]}`,
      annotator: 'ada',
      source: 'person',
      labels: ['other.other'],
    };
    const cases: [string, string][] = [
      ['{"uid": ', 'expected a JSON object ('],
      ['[1, 2]', 'expected a JSON object'],
      ['"text"', 'expected a JSON object'],
      ['null', 'expected a JSON object'],
      [JSON.stringify({ ...good, uid: '' }), 'expected "uid" to be a non-empty string, got ""'],
      [JSON.stringify({ ...good, uid: undefined }), 'expected "uid" to be a non-empty string, got nothing'],
      [JSON.stringify({ ...good, annotator: 3 }), 'expected "annotator" to be a non-empty string, got 3'],
      [JSON.stringify({ ...good, role: 'boss' }), 'expected "role" to be annotator or adjudicator, got "boss"'],
      [JSON.stringify({ ...good, source: 'model' }), 'expected "source" to be person or rule, got "model"'],
      [JSON.stringify({ ...good, source: 'rule' }), 'expected "rule" to name the rule exactly when "source" is rule'],
      [
        JSON.stringify({ ...good, rule: 'parse-error' }),
        'expected "rule" to name the rule exactly when "source" is rule',
      ],
      [JSON.stringify({ ...good, rule: 5 }), 'expected "rule" to be a string or null, got 5'],
      [JSON.stringify({ ...good, labels: 'other.other' }), 'expected "labels" to be an array of label ids'],
      [JSON.stringify({ ...good, labels: [1] }), 'expected "labels" to be an array of label ids'],
      [JSON.stringify({ ...good, labels: ['other.other', 1] }), 'expected "labels" to be an array of label ids'],
      [
        JSON.stringify({ ...good, labels: ['data.nope'] }),
        "unknown label 'data.nope': expected a label of taxonomy 'Execution-prediction errors' version 1 (stepscope taxonomy lists them)",
      ],
      [
        JSON.stringify({ ...good, status: 'maybe' }),
        'expected "status" to be suggested, accepted, rejected or null, got "maybe"',
      ],
      [JSON.stringify({ ...good, note: '' }), 'expected "note" to be a string or null, got ""'],
      [
        JSON.stringify({ ...good, target: 'trace:1' }),
        'expected "target" to be prediction:ID, prediction:ID/step:N, trace:ID/seq:N or trace:ID/seq:N/action:A, got "trace:1"',
      ],
      [
        JSON.stringify({ ...good, target: 'prediction:99999' }),
        'no prediction with id 99999 (stepscope predictions lists them)',
      ],
      [
        JSON.stringify({ ...good, target: 'trace:1/seq:99999' }),
        'trace 1 has no state with seq 99999: expected a seq from 0 to ',
      ],
    ];
    for (const [bad, what] of cases) {
      const before = c.listAnnotations({ inactive: true }).length;
      // The good line first and a blank line: the bad one is line 3, and the good one is not stored either.
      let thrown: unknown;
      try {
        importLines(c, `${JSON.stringify(good)}\n\n${bad}\n`, 'in.jsonl', 'lead');
      } catch (e) {
        thrown = e;
      }
      expect(thrown, bad).toMatchObject({ code: 'bad-input', message: expect.stringContaining(`in.jsonl:3: ${what}`) });
      expect((thrown as Error).message.startsWith('in.jsonl:3: '), bad).toBe(true);
      expect(c.listAnnotations({ inactive: true }), bad).toHaveLength(before);
    }
    expect(c.latestTaxonomy()).toBeUndefined();
    // Nothing to add stores nothing, not even the taxonomy.
    expect(importLines(c, '\n  \n', 'in.jsonl', 'lead')).toEqual({ added: 0, same: 0, conflicts: 0 });
    expect(c.latestTaxonomy()).toBeUndefined();
    // The good line alone is stored, and stores the taxonomy it names.
    expect(importLines(c, JSON.stringify(good), 'in.jsonl', 'lead')).toEqual({ added: 1, same: 0, conflicts: 0 });
    expect(c.latestTaxonomy()?.version).toBe(1);
    c.close();
  });
});
