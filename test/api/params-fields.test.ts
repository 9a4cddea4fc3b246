/**
 * The fields each API method takes, as its clients (the app, the CLI, scripts) send them. A
 * method's params are checked strictly (an unknown field is refused), so a field dropped from
 * its spec would refuse every call that sends it: each field here must reach its own check,
 * and anything else must be refused as unknown, naming the field. A new method or field is
 * added here on purpose (and documented in docs/).
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { METHODS } from '../../src/contract/index.js';
import { createApi, dispatch } from '../../src/api/handlers/index.js';
import { openCorpus, type Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

const FIELDS: Record<string, string[]> = {
  listTraces: ['code', 'offset', 'limit', 'name', 'value', 'exit', 'sort', 'desc'],
  getTrace: ['id'],
  getEvents: ['from', 'traceId', 'to'],
  getSkeleton: ['traceId'],
  findInTrace: ['traceId', 'limit', 'text'],
  walk: ['actions', 'traceId', 'direction', 'entry'],
  listTrajectories: ['traceId', 'offset', 'limit'],
  getTrajectory: ['id'],
  listEvalSets: [],
  listRuns: ['set'],
  listItems: ['set', 'run', 'traceId', 'offset', 'limit'],
  getItem: ['run', 'id'],
  getScores: ['set', 'run', 'by'],
  getRollouts: ['set', 'run', 'traceId'],
  getRunScores: ['set', 'run', 'interval'],
  getScoreIntervals: ['set', 'run', 'by'],
  listGroupItems: ['set', 'run', 'by', 'group', 'offset', 'limit'],
  compareRuns: ['set', 'a', 'b'],
  previewExport: ['kind', 'select', 'split', 'seed', 'allowOverlap'],
  startExport: ['folder', 'kind', 'select', 'split', 'seed', 'allowOverlap', 'format', 'shardRows', 'force'],
  exportProgress: ['job'],
  checkCompletions: ['actions', 'traceId', 'direction', 'entry', 'completions'],
  askModel: [
    'actions',
    'traceId',
    'direction',
    'entry',
    'endpoint',
    'model',
    'apiKeyEnv',
    'samples',
    'temperature',
    'maxTokens',
    'timeoutSeconds',
  ],
  getTaxonomy: [],
  setTaxonomy: ['taxonomy', 'author'],
  annotationQueue: [
    'action',
    'set',
    'run',
    'annotator',
    'wrong',
    'formatError',
    'failed',
    'labeled',
    'by',
    'prelabel',
    'need',
  ],
  getAnnotationItem: ['prediction', 'annotator'],
  annotate: ['annotator', 'target', 'labels', 'note'],
  skipAnnotation: ['annotator', 'target'],
  undoAnnotation: ['annotator'],
  adjudicate: ['annotator', 'target', 'labels'],
  listAnnotations: ['set', 'run', 'annotator'],
  annotationHistory: ['annotator', 'target'],
  getAgreement: ['set', 'run', 'view'],
  getReviewQuota: ['set', 'run'],
  setReviewQuota: ['set', 'run', 'reviews', 'author'],
  recordCounterfactual: ['traceId', 'seq', 'set'],
  prepareCounterfactual: ['traceId'],
  getCounterfactual: ['traceId'],
};

let corpus: Corpus;
let api: ReturnType<typeof createApi>;
beforeAllOrFail(() => {
  corpus = openCorpus(join(tempDir('stepscope-api-fields-'), 'c.db'), { create: true });
  api = createApi(corpus);
});
afterAll(() => {
  corpus?.close();
  cleanTempDirs();
});

/** The message of the call's refusal, or '' when it was answered. */
async function refusal(method: string, params: unknown): Promise<string> {
  const r = await dispatch(api, method, params);
  return r.ok ? '' : r.error.message;
}

describe('the fields each method takes', () => {
  it('lists every method of the API', () => {
    expect(Object.keys(FIELDS).sort()).toEqual([...METHODS].sort());
  });

  for (const [method, fields] of Object.entries(FIELDS)) {
    it(`${method}: takes ${fields.length ? fields.join(', ') : 'no field'}, and refuses any other naming it`, async () => {
      // A value no field accepts: the refusal, when there is one, is that field's own check
      // (or another field's, e.g. a required one missing), never the field being unknown.
      for (const f of fields)
        expect(await refusal(method, { [f]: { not: ['a value'] } })).not.toBe(`${method}: unknown field '${f}'`);
      expect(await refusal(method, { zzz: 1 })).toBe(`${method}: unknown field 'zzz'`);
    });
  }
});

describe("an annotator's name", () => {
  it('is 1–80 characters without outer spaces and not a rule name; otherwise refused naming the field', async () => {
    for (const bad of ['', ' ', '  ada', 'ada ', 'x'.repeat(81), 'rule:ada']) {
      expect(await refusal('undoAnnotation', { annotator: bad }), JSON.stringify(bad)).toMatch(
        /^undoAnnotation\.annotator: /,
      );
    }
    expect(await refusal('undoAnnotation', { annotator: 'rule:ada' })).toContain('names starting with "rule:"');
    expect(await refusal('undoAnnotation', { annotator: '  ada' })).toContain('no leading or trailing spaces');
    // (This corpus's API has no annotation handlers: a name that passes gets as far as that.)
    for (const good of ['ada', 'a', 'x'.repeat(80), 'Ada Lovelace', 'rules:ada'])
      expect(await refusal('undoAnnotation', { annotator: good }), good).not.toMatch(/^undoAnnotation\.annotator/);
  });
});

describe("a set's or a run's name", () => {
  it('is 1–200 characters, not only spaces; otherwise refused naming the field', async () => {
    // Only spaces would reach the corpus as a name no set has (or, for a new set, be stored).
    for (const bad of ['', ' ', '   ', '\t']) {
      expect(await refusal('listRuns', { set: bad }), JSON.stringify(bad)).toBe(
        `listRuns.set: expected a non-empty name of at most 200 characters, got the string ${JSON.stringify(bad)}`,
      );
    }
    expect(await refusal('getScores', { set: 'ns', run: ' ' })).toBe(
      'getScores.run: expected a non-empty name of at most 200 characters, got the string " "',
    );
    expect(await refusal('listRuns', { set: 'x'.repeat(201) })).toMatch(
      /^listRuns\.set: expected a string of at most 200 characters, /,
    );
    // (This corpus has no sets: a name that passes gets as far as the lookup.)
    for (const good of ['ns', 'a', ' ns ', 'x'.repeat(200)])
      expect(await refusal('listRuns', { set: good }), good).not.toMatch(/^listRuns\.set/);
  });
});

describe("askModel's sampling settings", () => {
  // (NaN cannot come over HTTP's JSON, but can over the desktop app's IPC.)
  // Valid up to the settings (checked in the spec's order); the trace does not exist, so a
  // call that passes the checks ends there, before any request to a model.
  const base = {
    traceId: 999,
    direction: 'forward',
    actions: ['step_into'],
    endpoint: 'http://127.0.0.1:9/v1',
    model: 'm',
  };
  const cases: [string, unknown[], unknown[], string][] = [
    ['temperature', [-0.001, 5.001, Infinity, NaN, '1'], [0, 0.7, 5], 'a number from 0 to 5'],
    ['timeoutSeconds', [0.999, 600.5, -Infinity, true], [1, 30.5, 600], 'a number from 1 to 600'],
    ['samples', [0, 21, 1.5], [1, 20], ''],
    ['maxTokens', [0, 32_769], [1, 32_768], ''],
  ];
  for (const [field, bad, good, expected] of cases) {
    it(`${field}: ${bad.map(String).join(', ')} refused naming it; ${good.join(', ')} pass`, async () => {
      for (const v of bad) {
        const m = await refusal('askModel', { ...base, [field]: v });
        expect(m, String(v)).toMatch(new RegExp(`^askModel\\.${field}: `));
        if (expected) expect(m).toContain(expected);
      }
      for (const v of good)
        expect(await refusal('askModel', { ...base, [field]: v }), String(v)).not.toMatch(
          new RegExp(`^askModel\\.${field}`),
        );
    });
  }
});
