// The published CodeLlama-7B (temperature 0.2) input figures through the command line, as a
// user reaches them: ingest the recorded CRUXEval traces, evalset create, predictions import
// of the released scored file, scores --json. The output file and the four leaderboard
// models go the same way in scripts/verify-cruxeval-cli.mjs (too slow for the suite); the
// engine reproduces every figure in test/scoring/cruxeval-published.test.ts.
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
