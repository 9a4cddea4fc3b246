// The published GPT-4 (0613, temperature 0.2) output figures through the command line, as a
// user reaches them: ingest the recorded CRUXEval traces, evalset create, predictions import
// of the released scored file, scores --json. The same execution pass is then checked the
// engine's way: the verdicts the import stored, read back per generation, go through
// CRUXEval's rules and pass@k (src/scoring) and are compared with the released verdicts.
// So the file's 995 distinct generations run once in the suite; the engine runs GPT-4's input
// file itself (test/scoring/cruxeval-published.test.ts). Of the released files these two run
// the fewest distinct generations and none times out (CodeLlama-7B's input file: 2,548 and
// 12 three-second timeouts, a minute of two cores); all ten go the same way in
// scripts/verify-cruxeval-cli.mjs and scripts/verify-cruxeval.mjs (too slow here).
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareWithReleased } from '../../src/scoring/compare.js';
import { scoreTask, summarise, type GenerationVerdict } from '../../src/scoring/cruxeval.js';
import { readCruxevalTasks, readReleasedVerdicts } from '../../src/scoring/files.js';
import { STATUSES, type Status } from '../../src/scoring/types.js';
import { cli, ensureBuilt, lines } from '../cli/helpers.js';
import { cruxevalDir, cruxevalPath, cruxevalRecording } from '../semantics/helpers.js';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';

const released = resolve(cruxevalDir, 'leaderboard/gpt-4-0613_temp0.2_output.json');
let db: string;

beforeAll(() => {
  ensureBuilt();
  db = join(tempDir('stepscope-crux-cli-'), 'crux.db');
  expect(cli(['ingest', cruxevalRecording(), '--db', db]).status).toBe(0);
}, 900_000); // the first run of the day records all of CRUXEval (see cruxevalRecording)
afterAll(() => cleanTempDirs());

describe('CRUXEval-output, GPT-4 (0613) temperature 0.2, through the CLI', () => {
  it('evalset create, predictions import, scores --json: pass@1 68.7 and pass@5 70.5412, as published', () => {
    const made = cli(['evalset', 'create', '--db', db, '--name', 'crux-out', '--task', 'cruxeval-output']);
    expect(made.stdout).toMatch(/800 items/);
    const imp = cli(['predictions', 'import', released, '--db', db, '--set', 'crux-out', '--model', 'gpt-4-0613-t0.2']);
    expect(imp.status).toBe(0);
    expect(imp.stdout).toMatch(/8000 predictions for 800 items stored/);
    expect(imp.stderr).toMatch(/execution checks: 8000 stored \(995 runs, PYTHONHASHSEED=0\)/);
    const [line, ...more] = lines(cli(['scores', '--db', db, '--set', 'crux-out', '--json']).stdout);
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      set: 'crux-out',
      model: 'gpt-4-0613-t0.2',
      by: null,
      group: null,
      items: 800,
      samples: 8000,
      format_errors: 0,
      em_all: null,
    });
    // Published (test/data/cruxeval/PROVENANCE.md): 68.7 and 70.5412; 5,496 of 8,000 generations correct.
    expect(line['pass@1'] as number).toBeCloseTo(68.7, 9);
    expect(line['pass@5'] as number).toBeCloseTo(70.5412, 4);
    expect(line.exec_pass as number).toBeCloseTo((5496 / 8000) * 100, 9);
    // The same file again: nothing new stored, nothing left to run.
    const again = cli([
      'predictions',
      'import',
      released,
      '--db',
      db,
      '--set',
      'crux-out',
      '--model',
      'gpt-4-0613-t0.2',
    ]);
    expect(again.stdout).toMatch(/already imported: nothing new stored/);
    expect(again.stderr).not.toMatch(/execution checks/);
  }, 1_800_000);

  it('the verdicts the import above stored, scored by the engine, give the published figures and agree with the released ones one by one', () => {
    const rows = lines(
      cli([
        'sql',
        '--db',
        db,
        `SELECT i.key AS task, p.sample, p.completion AS generation, p.exec_status AS status, p.exec_rule AS rule
      FROM predictions p JOIN evalset_items i ON i.id = p.item_id JOIN runs r ON r.id = p.run_id
      WHERE r.label = 'gpt-4-0613-t0.2' ORDER BY i.ord, p.sample`,
      ]).stdout,
    );
    const byTask = new Map<string, GenerationVerdict[]>();
    for (const r of rows) {
      const v: GenerationVerdict = {
        id: `${r.task}#${r.sample}`,
        task: r.task as string,
        sample: r.sample as number,
        generation: r.generation as string,
        status: r.status as Status,
        seconds: 0,
        rule: r.rule === 1,
      };
      byTask.set(v.task, [...(byTask.get(v.task) ?? []), v]);
    }
    const tasks = readCruxevalTasks(cruxevalPath).filter((t) => byTask.has(t.id));
    const score = summarise(
      'output',
      0,
      'false',
      tasks.map((t) => scoreTask(t.id, byTask.get(t.id)!, 'false')),
    );
    expect(score.tasks).toHaveLength(800);
    expect(score.generations).toBe(8000);
    expect(STATUSES.reduce((n, s) => n + score.counts[s], 0)).toBe(8000); // none pending
    expect(score.counts.pass).toBe(5496);
    expect(score.pass1).toBeCloseTo(68.7, 9);
    expect(score.pass5).toBeCloseTo(70.5412, 4);
    expect(score.pass10).not.toBeNull();
    // Independent check: the released per-generation verdicts, joined by task id.
    expect(compareWithReleased(score, readReleasedVerdicts(released))).toEqual({
      compared: 8000,
      agree: 8000,
      differ: [],
      unmatched: [],
    });
  });
});
