/**
 * `stepscope sample`, `trajectories` and `replay` through bin/stepscope.js on a corpus of
 * recorded traces, and the trajectories migration on a corpus made before it.
 */
import Database from 'better-sqlite3';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatActionList, parseTrajectory, type Action } from '../../src/semantics/index.js';
import { connectionOf } from '../../src/store/connection.js';
import { openCorpus } from '../../src/store/corpus.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { openDatabase } from '../../src/store/open.js';
import { repoRoot, vectorsPath } from './helpers.js';
import { seedOldCorpusFrom } from '../store/fixtures.js';

const tmp = mkdtempSync(join(tmpdir(), 'stepscope-sem-cli-'));
const db = join(tmp, 'c.db');
const vectors: { name: string; source: string; call: string; actions: Action[]; text: string }[] = JSON.parse(
  readFileSync(vectorsPath, 'utf8'),
);

function cli(...args: string[]) {
  return spawnSync('node', [join(repoRoot, 'bin/stepscope.js'), ...args], { cwd: repoRoot, encoding: 'utf8' });
}

function recordTo(out: string, source: string, call: string, extra: string[] = []) {
  const prog = join(tmp, `p${Math.random().toString(36).slice(2)}.py`);
  writeFileSync(prog, source);
  execFileSync(
    'python3',
    ['-m', 'stepscope_recorder', 'record', prog, '-o', out, '--call', call, '--name', call, ...extra],
    {
      cwd: repoRoot,
      env: { ...process.env, PYTHONPATH: join(repoRoot, 'python') },
      stdio: 'ignore',
    },
  );
}

beforeAll(async () => {
  const mine = [
    'cli/main',
    'cli/commands/sample',
    'cli/commands/trajectories',
    'cli/commands/replay',
    'store/queries/trajectories',
    'trajectories/sample-corpus',
    'semantics/index',
    'semantics/scope',
    'semantics/sample',
    'store/migrations/index',
  ];
  const stale = mine.some((m) => {
    const out = join(repoRoot, 'dist', `${m}.js`);
    return !existsSync(out) || statSync(out).mtimeMs < statSync(join(repoRoot, 'src', `${m}.ts`)).mtimeMs;
  });
  if (stale) execFileSync('npm', ['run', '--silent', 'build:core'], { cwd: repoRoot, stdio: 'inherit' });
  const count = vectors[0];
  recordTo(join(tmp, 'a.jsonl'), count.source, count.call);
  recordTo(join(tmp, 'b.jsonl'), 'def spin(k):\n    n = 0\n    while True:\n        n += k\n', 'spin(1)', [
    '--max-events',
    '30',
  ]);
  const c = openCorpus(db, { create: true });
  await c.ingest(join(tmp, 'a.jsonl'));
  await c.ingest(join(tmp, 'b.jsonl'));
  c.close();
}, 120_000);

describe('stepscope replay', () => {
  it('prints a vector text byte for byte, breakpoint src with its leading spaces', () => {
    const v = vectors.find((x) => x.name === 'count-forward-breakpoint')!;
    const list = formatActionList(v.actions);
    expect(list).toBe('step_into,step_into,breakpoint=    return n,step_return,step_return');
    const r = cli('replay', '--db', db, '--trace', '1', '--direction', 'forward', '--actions', list);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toBe(v.text + '\n');
  });

  it('walks the inverse tree from a non-root entry', () => {
    const v = vectors.find((x) => x.name === 'count-inverse-step-into')!;
    const r = cli(
      'replay',
      '--db',
      db,
      '--trace',
      '1',
      '--direction',
      'inverse',
      '--entry',
      '2',
      '--actions',
      formatActionList(v.actions),
      '--json',
    );
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.text).toBe(v.text);
    expect(j.exit).toBe('inv_exit_entry');
    expect(j.states[0]).toEqual({ seq: 16, event: 'inv_return' });
  });

  it('reports bad input clearly with a non-zero exit', () => {
    const bad = [
      [
        ['--trace', '1', '--direction', 'sideways', '--actions', 'step_into'],
        /--direction expects forward or inverse/,
        2,
      ],
      [['--trace', '1', '--direction', 'forward', '--actions', 'step_into,hop'], /action 2: expected an action/, 2],
      [
        ['--trace', '1', '--direction', 'forward', '--actions', 'inv_step_into'],
        /action 1 \(inv_step_into\) is not a forward action/,
        1,
      ],
      [
        ['--trace', '1', '--direction', 'forward', '--actions', 'continue,step_into'],
        /after the trajectory exited with exit_normal/,
        1,
      ],
      [
        ['--trace', '1', '--direction', 'forward', '--entry', '1', '--actions', 'step_into'],
        /entry 1: expected the seq of a call event/,
        1,
      ],
      [['--trace', '77', '--direction', 'forward', '--actions', 'step_into'], /has no trace with id 77/, 1],
    ] as const;
    for (const [args, msg, code] of bad) {
      const r = cli('replay', '--db', db, ...args);
      expect(r.status, args.join(' ')).toBe(code);
      expect(r.stderr).toMatch(msg);
      expect(r.stdout).toBe('');
    }
  });
});

describe('stepscope sample and trajectories', () => {
  it('stores reproducible trajectories once; listing gives what replay reproduces', () => {
    const r = cli(
      'sample',
      '--db',
      db,
      '--per-trace',
      '3',
      '--seed',
      '11',
      '--direction',
      'both',
      '--entry',
      'calls',
      '--max-steps',
      '12',
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/stored 24, already stored 0/); // 4 call events x 2 directions x 3
    const again = cli(
      'sample',
      '--db',
      db,
      '--per-trace',
      '3',
      '--seed',
      '11',
      '--direction',
      'both',
      '--entry',
      'calls',
      '--max-steps',
      '12',
    );
    expect(again.stdout).toMatch(/stored 0, already stored 24/);

    const list = cli('trajectories', '--db', db, '--json');
    expect(list.status, list.stderr).toBe(0);
    const rows = list.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.length).toBe(24);
    for (const t of rows) {
      expect(Object.keys(t)).toEqual(
        expect.arrayContaining(['id', 'trace', 'name', 'direction', 'entry', 'actions', 'states', 'exit', 'text']),
      );
      expect(t.actions.length).toBeLessThanOrEqual(12);
      expect(t.actions.length).toBe(t.exit === null ? t.states.length - 1 : t.states.length);
      const p = parseTrajectory(t.text);
      expect(p.ok).toBe(true);
      const rep = cli(
        'replay',
        '--db',
        db,
        '--trace',
        String(t.trace),
        '--direction',
        t.direction,
        '--entry',
        String(t.entry),
        '--actions',
        formatActionList(t.actions),
        '--json',
      );
      expect(rep.status, rep.stderr).toBe(0);
      const j = JSON.parse(rep.stdout);
      expect(j.text).toBe(t.text);
      expect(j.states.map((s: { seq: number }) => s.seq)).toEqual(t.states);
      expect(j.states.flatMap((s: { event: string }, k: number) => (s.event === 'inv_line_call' ? [k] : []))).toEqual(
        t.line_calls,
      );
      expect(j.exit).toBe(t.exit);
    }
    // The cut trace: forward trajectories that leave the entry end with exit_never.
    const spin = rows.filter((t) => t.name === 'spin(1)' && t.direction === 'forward' && t.exit !== null);
    expect(spin.length).toBeGreaterThan(0);
    expect(spin.every((t) => t.exit === 'exit_never')).toBe(true);

    const one = cli('trajectories', '--db', db, '--trace', '2');
    expect(
      one.stdout
        .trimEnd()
        .split('\n')
        .every((l) => l.split('\t')[1] === '2'),
    ).toBe(true);
  }, 240_000); // five CLI runs, each a Node start: over 60 s on a loaded CI machine (74 s once)

  it('writes one step row per action with its target', () => {
    const conn = new Database(db, { readonly: true });
    const trajs = conn.prepare('SELECT id, actions, states, exit FROM trajectories').all() as {
      id: number;
      actions: string;
      states: string;
      exit: string | null;
    }[];
    expect(trajs.length).toBe(24);
    for (const t of trajs) {
      const steps = conn
        .prepare(
          'SELECT step, action, src, target_seq, target_kind FROM trajectory_steps WHERE trajectory_id = ? ORDER BY step',
        )
        .all(t.id) as {
        step: number;
        action: string;
        src: string | null;
        target_seq: number | null;
        target_kind: string;
      }[];
      const actions = JSON.parse(t.actions);
      const states = JSON.parse(t.states);
      expect(steps.map((s) => s.action)).toEqual(actions.map((a: { action: string }) => a.action));
      steps.forEach((s, k) => {
        if (k + 1 < states.length) expect(s.target_seq).toBe(states[k + 1]);
        else {
          expect(s.target_seq).toBeNull();
          expect(s.target_kind).toBe(t.exit);
        }
      });
    }
    conn.close();
  });

  it('rejects bad options and has --help', () => {
    expect(cli('sample', '--db', db, '--direction', 'up').stderr).toMatch(
      /--direction expects forward, inverse or both/,
    );
    expect(cli('sample', '--db', db, '--entry', 'middle').status).toBe(2);
    const pol = join(tmp, 'pol.json');
    writeFileSync(pol, '{"forward": {"mix": 2}}');
    expect(cli('sample', '--db', db, '--policy', pol).stderr).toMatch(/pol\.json: policy\.forward\.mix/);
    for (const c of ['sample', 'trajectories', 'replay']) {
      const h = cli(c, '--help');
      expect(h.status).toBe(0);
      expect(h.stdout).toMatch(new RegExp(`Usage: stepscope ${c}`));
    }
  });
});

describe('migration 002 (trajectories)', () => {
  it('upgrades a corpus made before it, keeping its traces', async () => {
    const path = join(tmp, 'old.db');
    const m1 = MIGRATIONS.filter((m) => m.version === 1);
    openDatabase(path, { create: true, migrations: m1 }).close();
    await seedOldCorpusFrom(path, 1, tmp, join(tmp, 'a.jsonl'));
    const c = openCorpus(path);
    expect(connectionOf(c).pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(2);
    expect(c.counts().traces).toBe(1);
    const cols = connectionOf(c).prepare("SELECT name FROM pragma_table_info('trajectories')").pluck().all();
    expect(cols).toEqual(
      expect.arrayContaining([
        'trace_id',
        'direction',
        'entry',
        'actions',
        'states',
        'line_calls',
        'exit',
        'text',
        'seed',
        'sampler',
        'created',
      ]),
    );
    c.close();
    const r = cli('sample', '--db', path, '--seed', '1');
    expect(r.stdout).toMatch(/stored 1,/);
  });
});

describe('stepscope sample --unique and --per-entry', () => {
  const texts = (path: string) =>
    cli('trajectories', '--db', path, '--json')
      .stdout.trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l).text as string);
  const fresh = async (name: string) => {
    const path = join(tmp, name);
    const c = openCorpus(path, { create: true });
    await c.ingest(join(tmp, 'a.jsonl'));
    c.close();
    return path;
  };
  const args = (path: string) => ['sample', '--db', path, '--per-entry', '12', '--seed', '5', '--trace', '1'];

  it('without it the same walk is stored again; with it each text once, now and on a later run', async () => {
    const plain = await fresh('plain.db');
    expect(cli(...args(plain)).stdout).toMatch(/sampled 12 trajectories over 1 traces: stored 12,/);
    const all = texts(plain);
    const distinct = new Set(all).size;
    expect(distinct).toBeLessThan(all.length); // a short program: draws repeat a walk

    const uniq = await fresh('unique.db');
    const r = cli(...args(uniq), '--unique');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      `stored ${distinct}, already stored 0, ${12 - distinct} dropped as the text of one stored`,
    );
    expect(texts(uniq).sort()).toEqual([...new Set(all)].sort());
    const again = cli('sample', '--db', uniq, '--per-entry', '12', '--seed', '6', '--trace', '1', '--unique');
    const stored = Number(/stored (\d+),/.exec(again.stdout)![1]);
    expect(new Set(texts(uniq)).size).toBe(texts(uniq).length); // still no text twice
    expect(texts(uniq).length).toBe(distinct + stored);
  });

  it('--per-trace is the same option under its old name; both at once is refused', () => {
    const r = cli('sample', '--db', db, '--per-entry', '1', '--per-trace', '1');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--per-entry and --per-trace are one option/);
  });
});
