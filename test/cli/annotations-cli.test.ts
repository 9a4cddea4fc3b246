// The annotation commands end to end on a corpus file: annotate (one-line errors, nothing
// written), labels, agreement's JSON, taxonomy (show, export, import with the no-orphan rule),
// pre-labels, and export/import merging two annotators' copies of a corpus.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvalSet } from '../../src/predictions/create.js';
import { importPredictions } from '../../src/predictions/import.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, vectorTraces } from '../predictions/helpers.js';
import { cli, ensureBuilt, lines } from './helpers.js';

let db: string;
let dir: string;
let ids: number[];

beforeAll(async () => {
  ensureBuilt();
  let corpus;
  ({ corpus, path: db, dir } = await corpusOf(vectorTraces().traces, 'stepscope-annot-cli-'));
  const { set } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 1, seed: 3 });
  const items = [...corpus.iterateItems(set.id)];
  const file = join(dir, 'p.jsonl');
  writeFileSync(file, items.map((it) => JSON.stringify({ id: it.id, completion: 'not a state' })).join('\n'));
  importPredictions(corpus, { file, set: 'ns', label: 'm' });
  ids = [...corpus.iteratePredictions({ setId: set.id })].map((p) => p.id);
  corpus.close();
}, 120_000);
afterAll(cleanTempDirs);

const ok = (args: string[]) => {
  const r = cli(args);
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
};
const labelsJson = (d = db) =>
  JSON.parse(ok(['labels', '--db', d, '--json'])) as {
    counts: Record<string, number>;
    annotations: { annotator: string; labels: string[]; target: string }[];
  };

describe('stepscope annotate, labels, agreement', () => {
  it('refuses an unknown label or target in one line and writes nothing', () => {
    for (const [args, msg] of [
      [
        ['--prediction', String(ids[0]), '--label', 'data.nope'],
        "stepscope: unknown label 'data.nope' (taxonomy 'Execution-prediction errors' version 1; `stepscope taxonomy` lists the labels)",
      ],
      [
        ['--prediction', '99999', '--label', 'other.other'],
        'stepscope: no prediction with id 99999 (stepscope predictions lists them)',
      ],
      [
        ['--prediction', String(ids[0]), '--label', 'wrong_value'],
        "stepscope: label 'wrong_value' is ambiguous: data.wrong_value or return.wrong_value",
      ],
    ] as const) {
      const r = cli(['annotate', '--db', db, ...args, '--annotator', 'ada']);
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe(msg);
    }
    expect(cli(['annotate', '--db', db, '--label', 'other.other']).stderr.trim()).toBe(
      'stepscope: annotate: give either --prediction ID, or --trace ID --seq N',
    );
    expect(labelsJson().annotations).toEqual([]);
  });

  it('two annotators: labels counts them, agreement gives kappa per pair, alpha, annotators and items', () => {
    // ada and bob agree on two items and not on the third.
    const ada = ['format.unparseable', 'format.unparseable', 'format.truncated'];
    const bob = ['format.unparseable', 'format.unparseable', 'format.unparseable'];
    ada.forEach((l, i) =>
      ok(['annotate', '--db', db, '--prediction', String(ids[i]), '--label', l, '--annotator', 'ada']),
    );
    bob.forEach((l, i) =>
      ok(['annotate', '--db', db, '--prediction', String(ids[i]), '--label', l, '--annotator', 'bob']),
    );
    ok([
      'annotate',
      '--db',
      db,
      '--trace',
      '1',
      '--seq',
      '0',
      '--action',
      'step_into',
      '--label',
      'control.branch',
      '--note',
      'went the other way',
      '--annotator',
      'ada',
    ]);
    expect(labelsJson().counts).toEqual({ 'format.unparseable': 5, 'format.truncated': 1, 'control.branch': 1 });
    const g = JSON.parse(ok(['agreement', '--db', db, '--set', 'ns', '--model', 'm', '--json']));
    expect(g.annotators).toEqual(['ada', 'bob']);
    expect(g.items).toBe(3);
    // bob used one category only: pe = po's chance part = (2/3)(1) + (1/3)(0) = 2/3 = po, so kappa = 0.
    expect(g.pairs).toEqual([{ a: 'ada', b: 'bob', items: 3, kappa: 0, observed: 2 / 3 }]);
    // Krippendorff's alpha, 3 units × 2 coders, values (U,U), (U,U), (T,U): n = 6, D_o = 2/6 ... computed by
    // the coincidence matrix: o_UT = o_TU = 1, n_U = 5, n_T = 1; alpha = 1 - (n-1) o_UT / (n_U n_T) = 1 - 5·1/5 = 0.
    expect(g.alpha).toBeCloseTo(0, 10);
    expect(g.disagreements.map((d: { target: string }) => d.target)).toEqual([`prediction:${ids[2]}`]);
  });
});

describe('stepscope taxonomy', () => {
  it('--json lists labels with id, group, key and description; an import that drops a used label is refused and stores nothing', () => {
    const labels = lines(ok(['taxonomy', '--db', db, '--json']));
    expect(labels.find((l) => l.id === 'data.missing_local')).toMatchObject({
      group: 'data',
      key: expect.any(Number),
      description: expect.any(String),
    });
    const file = join(dir, 'tax.json');
    ok(['taxonomy', '--db', db, '--export', file]);
    const t = JSON.parse(readFileSync(file, 'utf8'));
    const dropped = { ...t, labels: t.labels.filter((l: { id: string }) => l.id !== 'format.truncated') };
    writeFileSync(file, JSON.stringify(dropped));
    const r = cli(['taxonomy', '--db', db, '--import', file]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('format.truncated');
    expect(lines(ok(['taxonomy', '--db', db, '--json']))).toHaveLength(labels.length);
    // Deprecating it instead is allowed, and makes a new version.
    const deprecated = {
      ...t,
      version: t.version + 1,
      labels: t.labels.map((l: { id: string }) => (l.id === 'format.truncated' ? { ...l, deprecated: true } : l)),
    };
    writeFileSync(file, JSON.stringify(deprecated));
    expect(ok(['taxonomy', '--db', db, '--import', file, '--annotator', 'ada'])).toBe(
      'stored taxonomy version 2: 1 deprecated\n',
    );
    expect(lines(ok(['taxonomy', '--db', db, '--json'])).find((l) => l.id === 'format.truncated')!.deprecated).toBe(
      true,
    );
  });
});

describe('stepscope annotations', () => {
  it("prelabel stores each rule's suggestion once", () => {
    expect(ok(['annotations', 'prelabel', '--db', db, '--set', 'ns', '--model', 'm'])).toMatch(
      new RegExp(
        `^${ids.length} failing predictions: ${ids.length} with suggestions, ${ids.length} suggestions stored\n`,
      ),
    );
    expect(ok(['annotations', 'prelabel', '--db', db, '--set', 'ns', '--model', 'm'])).toMatch(
      /, 0 suggestions stored\n/,
    );
    expect(labelsJson().annotations.filter((a) => a.annotator === 'rule:parse-error')).toHaveLength(ids.length);
  });

  it('export and import merge two copies; importing again adds nothing; a conflict is kept beside, never over', () => {
    const copy = join(dir, 'copy.db');
    copyFileSync(db, copy);
    ok([
      'annotate',
      '--db',
      copy,
      '--prediction',
      String(ids[3]),
      '--label',
      'format.repeated',
      '--annotator',
      'carol',
    ]);
    // ada changed her mind in the copy
    ok(['annotate', '--db', copy, '--prediction', String(ids[0]), '--label', 'other.other', '--annotator', 'ada']);
    const file = join(dir, 'carol.jsonl');
    ok(['annotations', 'export', '--db', copy, '-o', file]);
    const n = readFileSync(file, 'utf8').split('\n').filter(Boolean).length;
    // The rules' suggestions whose status the copy's labels changed are the same suggestions: not conflicts.
    expect(ok(['annotations', 'import', file, '--db', db])).toBe(
      `1 added, ${n - 2} already there, 1 kept beside a different annotation as a disagreement\n`,
    );
    expect(ok(['annotations', 'import', file, '--db', db])).toBe(
      `0 added, ${n} already there, 0 kept beside a different annotation as a disagreement\n`,
    );
    const after = labelsJson().annotations;
    expect(after.find((a) => a.annotator === 'carol')!.labels).toEqual(['format.repeated']);
    expect(after.find((a) => a.annotator === 'ada' && a.target === `prediction:${ids[0]}`)!.labels).toEqual([
      'format.unparseable',
    ]);
    expect(after.find((a) => a.annotator === 'ada@carol.jsonl')!.labels).toEqual(['other.other']);
  });

  it('a bad line stops the import with FILE:LINE and stores nothing', () => {
    const file = join(dir, 'bad.jsonl');
    const good = ok(['annotations', 'export', '--db', db]).split('\n')[0];
    writeFileSync(
      file,
      `${good.replace(/"uid":"[^"]+"/, '"uid":"fresh"').replace(/"annotator":"[^"]+"/, '"annotator":"zed"')}\n{"uid": "x", "target": "prediction:1", "annotator": "zed", "source": "person", "labels": ["data.nope"]}\n`,
    );
    const n = labelsJson().annotations.length;
    const r = cli(['annotations', 'import', file, '--db', db]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe(
      `stepscope: ${file}:2: unknown label 'data.nope': expected a label of taxonomy 'Execution-prediction errors' version 2 (stepscope taxonomy lists them)`,
    );
    expect(labelsJson().annotations).toHaveLength(n);
  });
});
