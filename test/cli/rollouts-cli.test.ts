// Rollouts from the command line (docs/predictions.md, "Rollouts"; docs/model-servers.md, "Rollouts without a
// model"): a rollout set made and exported, rolled out by `predict` against the fake server started from a shell
// with errors at a chosen step, compared with the teacher-forced run of the same label, shown by `rollouts`; and an
// imported file that is wrong refused by line with nothing stored.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';
import { traceFile, vectorTraces } from '../predictions/helpers.js';
import { cli, ensureBuilt, lines, repoRoot } from './helpers.js';

let dir: string;
let db: string;
let exported: { id: number; actions: unknown[]; prompt: string; targets: string[] }[];
let child: ChildProcess | undefined;

beforeAll(() => {
  ensureBuilt();
  dir = tempDir('stepscope-rollouts-cli-');
  db = join(dir, 'c.db');
  expect(cli(['ingest', traceFile(dir, vectorTraces().traces), '--db', db]).status).toBe(0);
}, 300_000);
afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  cleanTempDirs();
});

const isExit = (t: string) => /^<\|(inv_)?exit/.test(t);

describe('stepscope rollouts', () => {
  it('evalset create --task rollout makes whole trajectories; export writes their prompt and every target', () => {
    const made = cli(
      ['evalset', 'create', '--db', db, '--name', 'ro', '--task', 'rollout', '--per-trace', '2'].concat([
        '--max-steps',
        '5',
        '--seed',
        '1',
      ]),
    );
    expect(made.stderr).toBe('');
    expect(made.stdout).toMatch(/evaluation set "ro" \(rollout\): \d+ items/);
    const refused = cli(['evalset', 'create', '--db', db, '--name', 'x', '--task', 'rollout', '--per-action', '2']);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/--per-action does not apply to --task rollout/);
    const out = join(dir, 'ro.jsonl');
    expect(cli(['evalset', 'export', '--db', db, '--name', 'ro', '-o', out]).status).toBe(0);
    exported = lines(readFileSync(out, 'utf8')) as typeof exported;
    expect(exported.length).toBeGreaterThan(4);
    for (const l of exported) {
      expect(Object.keys(l)).toEqual(
        ['id', 'set', 'task', 'name', 'trace', 'direction', 'entry', 'actions'].concat(['prompt', 'targets']),
      );
      expect(l.targets).toHaveLength(l.actions.length);
      expect(l.actions.length).toBeLessThanOrEqual(5);
      expect(l.prompt.endsWith('<|frame_sep|>')).toBe(true);
    }
  });

  it('predict rolls out against the fake server from a shell; rollouts shows divergence, healing, teacher-forced', async () => {
    const script = join(repoRoot, 'scripts/fake-model-server.mjs');
    child = spawn(process.execPath, [script, '--rollouts', join(dir, 'ro.jsonl'), '--rollout-errors', '2:right'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const first = await new Promise<string>((done) => createInterface({ input: child!.stdout! }).once('line', done));
    const url = /listening on (http:\/\/\S+)$/.exec(first)![1];
    const ask = (set: string) =>
      cli(['predict', '--db', db, '--set', set, '--endpoint', url, '--model', 'fake-model', '--label', 'fake']);
    const rolled = ask('ro');
    expect(rolled.status, rolled.stderr).toBe(0);
    const tf = cli(['evalset', 'create', '--db', db, '--name', 'ro-tf', '--task', 'next-state', '--prefixes-of', 'ro']);
    expect(tf.status, tf.stderr).toBe(0);
    expect(ask('ro-tf').status).toBe(0);

    const [run] = lines(cli(['rollouts', '--db', db, '--set', 'ro', '--json']).stdout) as {
      by_step: { step: number; accuracy: number; teacher_forced: number }[];
      first_divergence: unknown[];
      healed: number;
      teacher_forced_sets: string[];
      items: { id: number; first_divergence: number | null; healed: boolean }[];
    }[];
    // The same text can precede different states (a recursive function's frames): the fake server answers such a
    // prompt with the first item's truth, so the other items are wrong at step 1 whatever the model.
    const step1 = (l: (typeof exported)[number]) => exported.find((o) => o.prompt === l.prompt)!.targets[0];
    const clear = exported.filter((l) => step1(l) === l.targets[0]);
    const pct = (100 * clear.length) / exported.length;
    expect(clear.length).toBeGreaterThan(exported.length / 2);
    expect(run.by_step[0]).toMatchObject({ step: 1, accuracy: pct, teacher_forced: pct });
    expect(run.by_step[1]).toMatchObject({ step: 2, accuracy: 0, teacher_forced: 0 });
    const twoSteps = clear.filter((l) => l.targets.length >= 2);
    const heals = clear.filter((l) => l.targets.length >= 3 && !isExit(l.targets[1]));
    expect(heals.length).toBeGreaterThan(0);
    expect(run.first_divergence).toContainEqual({ step: 2, rollouts: twoSteps.length });
    expect(run.healed).toBe(heals.length);
    expect(run.teacher_forced_sets).toEqual(['ro-tf']);
    for (const l of twoSteps) {
      const healed = heals.includes(l);
      expect(run.items.find((i) => i.id === l.id)).toMatchObject({ first_divergence: 2, healed });
    }

    const text = cli(['rollouts', '--db', db, '--set', 'ro']);
    expect(text.stdout).toContain(`2: ${twoSteps.length}`);
    expect(text.stdout).toContain('teacher-forced from ro-tf');
    // The summary row: em_all only for the rollouts right at every step (one step, answered right).
    const [score] = lines(cli(['scores', '--db', db, '--set', 'ro', '--json']).stdout);
    const whole = clear.filter((l) => l.targets.length === 1).length;
    expect(score.em_all).toBe((100 * whole) / exported.length);
  }, 120_000);

  it('predictions import refuses a wrong rollouts file by line and stores nothing', () => {
    const bad = join(dir, 'bad.jsonl');
    const l = exported[0];
    writeFileSync(
      bad,
      [JSON.stringify({ id: l.id, states: l.targets }), JSON.stringify({ id: l.id, states: 'x' })].join('\n'),
    );
    const r = cli(['predictions', 'import', bad, '--db', db, '--set', 'ro', '--model', 'bad']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`${bad}:2: expected "states" to be a non-empty list of strings`);
    expect(cli(['runs', '--db', db, '--json']).stdout).not.toContain('"bad"');
    writeFileSync(bad, exported.map((x) => JSON.stringify({ id: x.id, states: x.targets })).join('\n'));
    const ok = cli(['predictions', 'import', bad, '--db', db, '--set', 'ro', '--model', 'truth']);
    expect(ok.status, ok.stderr).toBe(0);
    const [run] = lines(cli(['rollouts', '--db', db, '--set', 'ro', '--model', 'truth', '--json']).stdout);
    expect(run).toMatchObject({ healed: 0, first_divergence: [{ step: null, rollouts: exported.length }] });
  });
});
