/**
 * `stepscope evalset create --task counterfactual` against the real recorder: items cut from the
 * counterfactual runs (prompt up to the edited state, target the new run's next state), the same
 * set again from the same options, the skip counts (types not edited, a program that does not run
 * the same way twice), the export's origin per item, a run imported and scored as on next-state,
 * and the dataset export's card and manifest naming the counterfactual traces.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutItem, Traces } from '../../src/predictions/items.js';
import type { Action } from '../../src/semantics/index.js';
import { openCorpus } from '../../src/store/corpus.js';
import type { TraceEvent } from '../../src/trace/types.js';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';
import { cli, ensureBuilt, lines, repoRoot } from './helpers.js';

afterAll(cleanTempDirs);

let dir: string;
let db: string;

const PROGRAM = `def f(xs, k, flag, s):
    total = 0
    for x in xs:
        if flag and x > k:
            total += x
        else:
            total -= 1
    return total, s[:k]
`;

/** Records `code` with `call` and ingests it; returns the new trace's id. */
function recordAndIngest(code: string, call: string, name: string): number {
  const prog = join(dir, `${name}.py`);
  writeFileSync(prog, code);
  const out = join(dir, `${name}.jsonl`);
  const r = cli(['record', prog, '-o', out, '--call', call, '--name', name]);
  expect(r.status, r.stderr).toBe(0);
  expect(cli(['ingest', out, '--db', db]).status).toBe(0);
  return Math.max(...lines(cli(['traces', '--db', db, '--json']).stdout).map((t) => t.id as number));
}

const events = (id: number) =>
  lines(cli(['events', '--db', db, '--trace', String(id), '--json']).stdout) as unknown as TraceEvent[];
const exported = (set: string) => lines(cli(['evalset', 'export', '--db', db, '--name', set]).stdout);

let origin: number;

beforeAll(() => {
  ensureBuilt();
  dir = tempDir('stepscope-cfset-');
  db = join(dir, 'c.db');
  origin = recordAndIngest(PROGRAM, "f([1, 3, 5], 2, True, 'abc')", 'prog');
});

describe('evalset create --task counterfactual', () => {
  let items: Record<string, unknown>[];
  let differing: number;

  it('makes items from counterfactual runs, each exported with its origin trace and edit', () => {
    const r = cli(['evalset', 'create', '--db', db, '--name', 'cf', '--task', 'counterfactual', '--per-trace', '3']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/"cf" \(counterfactual\): 3 items in [\d.]+s; \d+ counterfactual runs recorded/);
    differing = Number(/(\d+) targets differ from the origin's/.exec(r.stdout)![1]);
    items = exported('cf');
    expect(items).toHaveLength(3);
    const traces = lines(cli(['traces', '--db', db, '--json']).stdout);
    for (const it of items) {
      const o = it.origin as { trace: number; seq: number; set: Record<string, string> };
      expect(o.trace).toBe(origin);
      expect(it.task).toBe('counterfactual');
      // The item's trace is the counterfactual run, linked to the origin with this very edit.
      expect(it.trace).not.toBe(origin);
      expect(traces.find((t) => t.id === it.trace)?.counterfactual_of).toBe(origin);
      const [name, literal] = Object.entries(o.set)[0];
      const before = events(origin)[o.seq].locals[name];
      const after = events(it.trace as number)[o.seq].locals[name];
      expect(after).toBe(literal);
      expect(after).not.toBe(before);
      // A small change of the same type: an int by one, a bool flipped, a str or list by one character.
      if (/^-?\d+$/.test(before)) expect(Math.abs(Number(after) - Number(before))).toBe(1);
      else if (before === 'True' || before === 'False') expect(after).not.toBe(before);
      else {
        expect(after).toHaveLength(before.length);
        expect([...after].filter((c, i) => c !== before[i]).length).toBeGreaterThanOrEqual(1);
      }
      // The prompt shows the edited value at its last state before the action.
      expect(it.prompt as string).toContain(`"${name}": ${JSON.stringify(literal)}`);
    }
  });

  it('gives the same items again from the same options', () => {
    const r = cli(['evalset', 'create', '--db', db, '--name', 'cf2', '--task', 'counterfactual', '--per-trace', '3']);
    expect(r.status, r.stderr).toBe(0);
    const again = exported('cf2');
    expect(again.map((i) => [i.trace, i.prompt, i.target, i.origin])).toEqual(
      items.map((i) => [i.trace, i.prompt, i.target, i.origin]),
    );
  });

  it('scores an imported run as on next-state', () => {
    // The truth for every item but the first: 2 of 3 right.
    const answers = items.map((it, k) => ({ id: it.id, completion: k === 0 ? '<|exit_error|>' : it.target }));
    const file = join(dir, 'answers.jsonl');
    writeFileSync(file, answers.map((a) => JSON.stringify(a)).join('\n') + '\n');
    const imp = cli(['predictions', 'import', file, '--db', db, '--set', 'cf', '--model', 'm']);
    expect(imp.status, imp.stderr).toBe(0);
    const s = lines(cli(['scores', '--db', db, '--set', 'cf', '--json']).stdout);
    expect(s[0]).toMatchObject({ set: 'cf', model: 'm', items: 3, answered: 3 });
    expect(s[0]['pass@1']).toBeCloseTo(200 / 3, 5);
  });

  it("a model that remembers the origin (the fake server answering the origin's next state) loses what changed", async () => {
    // What the same actions reach in the origin trace: the answer of a model that memorised the program.
    const corpus = openCorpus(db, { readonly: true });
    const traces = new Traces(corpus);
    const answers = Object.fromEntries(
      items.map((it) => [it.prompt, cutItem(traces, origin, 'forward', 0, it.actions as Action[], '').target]),
    );
    corpus.close();
    const file = join(dir, 'memory.json');
    writeFileSync(file, JSON.stringify({ answers }));
    let child: ChildProcess | undefined;
    try {
      child = spawn(process.execPath, [join(repoRoot, 'scripts/fake-model-server.mjs'), '--answers', file], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const first = await new Promise<string>((done) => createInterface({ input: child!.stdout! }).once('line', done));
      const url = /listening on (http:\/\/\S+)$/.exec(first)![1];
      const p = cli(['predict', '--db', db, '--set', 'cf', '--endpoint', url, '--model', 'x', '--label', 'memory']);
      expect(p.status, p.stderr).toBe(0);
    } finally {
      child?.kill();
    }
    const s = lines(cli(['scores', '--db', db, '--set', 'cf', '--model', 'memory', '--json']).stdout);
    expect(s[0]).toMatchObject({ model: 'memory', items: 3, answered: 3 });
    // Some targets changed with the edit (else this would not tell memory from execution), not all.
    expect(differing).toBeGreaterThan(0);
    expect(s[0]['pass@1']).toBeCloseTo((100 * (3 - differing)) / 3, 5);
  });

  it('counts the skipped edits, and refuses a set with no item', () => {
    const floats = recordAndIngest('def g(a, b):\n    c = a * b\n    return c\n', 'g(1.5, 2.5)', 'floats');
    const r = cli([
      'evalset',
      'create',
      '--db',
      db,
      '--name',
      'fl',
      '--task',
      'counterfactual',
      '--trace',
      `${floats}`,
    ]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/skipped \d+: the drawn local is of a type that is not edited .*\(float \d+\)/);
    expect(r.stderr).toContain('no items to make');
    expect(cli(['evalset', 'list', '--db', db]).stdout).not.toContain('fl');
  });

  it('skips a program that does not run the same way twice', () => {
    const rnd = recordAndIngest(
      'def h(n, r):\n    m = n + 1\n    return m\n',
      "h(1, int.from_bytes(__import__('os').urandom(8), 'big'))",
      'random',
    );
    const r = cli(['evalset', 'create', '--db', db, '--name', 'rnd', '--task', 'counterfactual', '--trace', `${rnd}`]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('skipped 1: the program did not run the same way again');
  });

  it('marks the counterfactual traces in a dataset export', () => {
    const out = join(dir, 'ds');
    const r = cli(['dataset', 'export', '--db', db, '--kind', 'traces', '-o', out, '--allow-overlap']);
    expect(r.status, r.stderr).toBe(0);
    const m = JSON.parse(readFileSync(join(out, 'stepscope-export.json'), 'utf8')) as {
      counterfactuals: { trace: number; origin: number; seq: number; set: Record<string, string> }[];
    };
    const cfs = [...new Set(items.map((i) => i.trace as number))].sort((a, b) => a - b);
    for (const t of cfs) expect(m.counterfactuals.find((c) => c.trace === t)?.origin).toBe(origin);
    const card = readFileSync(join(out, 'README.md'), 'utf8');
    expect(card).toContain('## Counterfactual traces');
    expect(card).toContain(`Their rows have \`trace\` in: ${m.counterfactuals.map((c) => c.trace).join(', ')}.`);
  });
});
