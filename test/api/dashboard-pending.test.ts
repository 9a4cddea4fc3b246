// The dashboard's scores after a run's pending execution checks finish: the API keeps each
// run's verdicts between calls (one draw reads a run several times), and checks that ran since
// must be seen on the next call, not the numbers from before them (issue 31, "Tests that catch").
import { afterAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/api/handlers/index.js';
import { createEvalSet } from '../../src/predictions/create.js';
import { runPendingChecks } from '../../src/predictions/execute.js';
import { importPredictions } from '../../src/predictions/import.js';
import type { Corpus } from '../../src/store/corpus.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { corpusOf, cruxevalTasks, cruxevalTraces, fileWriter } from '../predictions/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';

const TASKS = ['sample_0', 'sample_1', 'sample_2', 'sample_3'];
let corpus: Corpus;
let file: (text: string) => string;

beforeAllOrFail(async () => {
  let dir: string;
  ({ corpus, dir } = await corpusOf(cruxevalTraces(TASKS), 'stepscope-dash-pending-'));
  file = fileWriter(dir, 'g', 'json');
  createEvalSet(corpus, { name: 'co', task: 'cruxeval-output' });
}, 900_000); // the first run of the day records all of CRUXEval (see cruxevalRecording)
afterAll(() => {
  corpus.close();
  cleanTempDirs();
});

describe('dashboard scores and pending execution checks', () => {
  it('the numbers change once the checks have run, on the same API that read them before', async () => {
    const outputs = new Map(cruxevalTasks().map((t) => [t.id, t.output]));
    // Each task: its right output, then a wrong one; executed, pass@1 is 50.
    const gens = Object.fromEntries(TASKS.map((id) => [id, [outputs.get(id)!, '"certainly not this"']]));
    const { run } = importPredictions(corpus, { file: file(JSON.stringify(gens)), set: 'co', label: 'half' });
    expect(run.pending).toBe(TASKS.length * 2);
    const api = createApi(corpus);
    const before = await api.getRunScores({ set: 'co', run: 'half' });
    await runPendingChecks(corpus, run.id, { pool: { workers: 1 } });
    expect(corpus.getRunById(run.id)!.pending).toBe(0);
    const after = await api.getRunScores({ set: 'co', run: 'half' });
    // What an API that never saw the run before gives: the verdicts as stored now.
    const fresh = await createApi(corpus).getRunScores({ set: 'co', run: 'half' });
    expect(after).toEqual(fresh);
    expect(after).not.toEqual(before);
    expect(after.by.action[0]).toMatchObject({ 'pass@1': 50, exec_pass: 50 });
  }, 300_000);
});
