// The published CodeLlama-7B (temperature 0.2) input figures through the command line, as a
// user reaches them: ingest the recorded CRUXEval traces, evalset create, predictions import
// of the released scored file, scores --json. The same execution pass is then checked the
// engine's way: the verdicts the import stored, read back per generation, go through
// CRUXEval's rules and pass@k (src/scoring) and are compared with the released verdicts.
// So the 2,548 distinct input generations run once in the suite; the engine runs the output
// file itself (test/scoring/cruxeval-published.test.ts). The output file and the four
// leaderboard models go the same way in scripts/verify-cruxeval-cli.mjs (too slow here).
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareWithReleased } from '../../src/scoring/compare.js';
import { scoreTask, summarise, type GenerationVerdict } from '../../src/scoring/cruxeval.js';
import { readCruxevalTasks, readReleasedVerdicts } from '../../src/scoring/files.js';
import { STATUSES, type Status } from '../../src/scoring/types.js';
import { cli, ensureBuilt, lines } from '../cli/helpers.js';
import { cruxevalDir, cruxevalRecording } from '../semantics/helpers.js';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';

const released = resolve(cruxevalDir, 'generations/sample_scored_codellama-7b_temp0.2_input.json');
let db: string;

beforeAll(() => {
  ensureBuilt();
  db = join(tempDir('stepscope-crux-cli-'), 'crux.db');
  expect(cli(['ingest', cruxevalRecording(), '--db', db]).status).toBe(0);
}, 900_000); // the first run of the day records all of CRUXEval (see cruxevalRecording)
afterAll(() => cleanTempDirs());

describe('CRUXEval-input, CodeLlama-7B temperature 0.2, through the CLI', () => {
  it('evalset create, predictions import, scores --json: pass@1 35.95 and pass@5 44.9911, as published', () => {
    const made = cli(['evalset', 'create', '--db', db, '--name', 'crux-in', '--task', 'cruxeval-input']);
    expect(made.stdout).toMatch(/800 items/);
    const imp = cli(['predictions', 'import', released, '--db', db, '--set', 'crux-in', '--model', 'codellama-7b-t0.2']);
    expect(imp.status).toBe(0);
    expect(imp.stdout).toMatch(/8000 predictions for 800 items stored/);
    expect(imp.stderr).toMatch(/execution checks: 8000 stored .*PYTHONHASHSEED=0/);
    const [line, ...more] = lines(cli(['scores', '--db', db, '--set', 'crux-in', '--json']).stdout);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ set: 'crux-in', model: 'codellama-7b-t0.2', by: null, group: null, items: 800, samples: 8000, format_errors: 0, em_all: null });
    // Published (data README, CRUXEval leaderboard): 35.95 and 44.9911; 2,876 of 8,000 generations correct.
    expect(line['pass@1'] as number).toBeCloseTo(35.95, 9);
    expect(line['pass@5'] as number).toBeCloseTo(44.9911, 4);
    expect(line.exec_pass as number).toBeCloseTo((2876 / 8000) * 100, 9);
    // The same file again: nothing new stored, nothing left to run.
    const again = cli(['predictions', 'import', released, '--db', db, '--set', 'crux-in', '--model', 'codellama-7b-t0.2']);
    expect(again.stdout).toMatch(/already imported: nothing new stored/);
    expect(again.stderr).not.toMatch(/execution checks/);
  }, 1_800_000);

  it('the verdicts the import above stored, scored by the engine, give the published figures and agree with the released ones one by one', () => {
    const rows = lines(cli(['sql', '--db', db, `SELECT i.key AS task, p.sample, p.completion AS generation, p.exec_status AS status, p.exec_rule AS rule
      FROM predictions p JOIN evalset_items i ON i.id = p.item_id JOIN runs r ON r.id = p.run_id
      WHERE r.label = 'codellama-7b-t0.2' ORDER BY i.ord, p.sample`]).stdout);
    const byTask = new Map<string, GenerationVerdict[]>();
    for (const r of rows) {
      const v: GenerationVerdict = { id: `${r.task}#${r.sample}`, task: r.task as string, sample: r.sample as number, generation: r.generation as string, status: r.status as Status, seconds: 0, rule: r.rule === 1 };
      byTask.set(v.task, [...(byTask.get(v.task) ?? []), v]);
    }
    const tasks = readCruxevalTasks(`${cruxevalDir}/cruxeval.jsonl`).filter((t) => byTask.has(t.id));
    const score = summarise('input', 0, 'false', tasks.map((t) => scoreTask(t.id, byTask.get(t.id)!, 'false')));
    expect(score.tasks).toHaveLength(800);
    expect(score.generations).toBe(8000);
    expect(STATUSES.reduce((n, s) => n + score.counts[s], 0)).toBe(8000); // none pending
    expect(score.counts.pass).toBe(2876);
    expect(score.pass1).toBeCloseTo(35.95, 9);
    expect(score.pass5).toBeCloseTo(44.9911, 4);
    expect(score.pass10).not.toBeNull();
    // Independent check: the released per-generation verdicts, joined by task id.
    expect(compareWithReleased(score, readReleasedVerdicts(released))).toEqual({ compared: 8000, agree: 8000, differ: [], unmatched: [] });
  });
});
