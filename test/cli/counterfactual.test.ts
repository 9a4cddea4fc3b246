/**
 * `stepscope counterfactual` end to end on a CRUXEval task: the --json answer, the stored trace
 * checked event by event against an independent recording of the same edit (the assignment
 * written into the task's source on the line that runs just before the edited state), the link
 * in listings, the refusals (nothing stored), and the API's recordCounterfactual over the same
 * corpus. The recorder's own suite (python/tests/test_counterfactual.py) covers more programs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, createWriteApi } from '../../src/api/handlers/index.js';
import { closeWarmRecorders } from '../../src/recorder/warm.js';
import { openCorpus } from '../../src/store/corpus.js';
import type { TraceEvent } from '../../src/trace/types.js';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';
import { cli, ensureBuilt, lines, repoRoot } from './helpers.js';

afterAll(cleanTempDirs);
afterAll(closeWarmRecorders); // the API's recorder (recordCounterfactual below)

let dir: string;
let db: string;
const task = JSON.parse(readFileSync(join(repoRoot, 'resources/cruxeval/cruxeval.jsonl'), 'utf8').split('\n')[0]) as {
  id: string;
  code: string;
  input: string;
};
const LINE = '        output.append((nums.count(n), n))';

/** Records `code` as the task's call and ingests it; returns its trace id. */
function recordAndIngest(code: string, name: string): number {
  const prog = join(dir, `${name}.py`);
  writeFileSync(prog, code);
  const out = join(dir, `${name}.jsonl`);
  const r = cli(['record', prog, '-o', out, '--call', `f(${task.input})`, '--name', task.id]);
  expect(r.status, r.stderr).toBe(0);
  expect(cli(['ingest', out, '--db', db]).status).toBe(0);
  return Math.max(...lines(cli(['traces', '--db', db, '--json']).stdout).map((t) => t.id as number));
}

const events = (id: number) =>
  lines(cli(['events', '--db', db, '--trace', String(id), '--json']).stdout) as unknown as TraceEvent[];
const traceCount = () => lines(cli(['traces', '--db', db, '--json']).stdout).length;

let origin: number;
let seq: number;

beforeAll(() => {
  ensureBuilt();
  dir = tempDir('stepscope-cf-');
  db = join(dir, 'c.db');
  expect(task.id).toBe('sample_0');
  expect(task.code).toContain(LINE);
  origin = recordAndIngest(task.code, 'origin');
  // The state before the loop's second turn: output holds the first pair.
  seq = events(origin).find((e) => e.line === 3 && e.locals.output === '[(4, 1)]')!.seq;
});

describe('stepscope counterfactual', () => {
  it('records the edit, answers in JSON, and agrees with the edit written into the program', () => {
    const r = cli([
      'counterfactual',
      '--db',
      db,
      '--trace',
      String(origin),
      '--seq',
      String(seq),
      '--set',
      'output=[(9, 9)]',
      '--json',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer).toEqual({
      trace: answer.trace,
      origin,
      seq,
      set: { output: '[(9, 9)]' },
      first_difference: seq,
      exit: 'normal',
      reason: null,
      events: answer.events,
      inserted: true,
    });
    const written = recordAndIngest(
      task.code.replace(LINE, `${LINE}; output = ([(9, 9)] if len(output) == 1 else output)`),
      'written',
    );
    const cf = events(answer.trace);
    const want = events(written);
    expect(cf.slice(0, seq)).toEqual(events(origin).slice(0, seq));
    expect(cf[seq].locals.output).toBe('[(9, 9)]');
    const noSrc = (es: TraceEvent[]) => es.map((e) => ({ ...e, src: '' }));
    expect(noSrc(cf.slice(seq))).toEqual(noSrc(want.slice(seq)));
    expect(cf.length).toBe(answer.events);
    expect(cf.at(-1)!.arg).toContain('(9, 9)');

    // Listed with its origin; the same counterfactual again is the same trace.
    const listed = lines(cli(['traces', '--db', db, '--json']).stdout);
    expect(listed.find((t) => t.id === answer.trace)!.counterfactual_of).toBe(origin);
    expect(listed.find((t) => t.id === origin)!.counterfactual_of).toBeNull();
    expect(cli(['traces', '--db', db]).stdout).toContain(`cf of ${origin}`);
    const again = cli([
      'counterfactual',
      '--db',
      db,
      '--trace',
      String(origin),
      '--seq',
      String(seq),
      '--set',
      'output=[(9, 9)]',
      '--json',
    ]);
    expect(JSON.parse(again.stdout)).toMatchObject({ trace: answer.trace, inserted: false });
  });

  it('refuses with one line, and stores nothing', () => {
    const before = traceCount();
    const refused = (args: string[], status: number, text: string) => {
      const r = cli(['counterfactual', '--db', db, '--trace', String(origin), ...args]);
      expect(r.status, r.stderr).toBe(status);
      expect(r.stderr).toContain(text);
      expect(r.stderr).toContain('nothing was stored');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stdout).toBe('');
    };
    refused(['--seq', String(seq), '--set', 'nope=1'], 2, 'the frame has no local named nope');
    refused(['--seq', String(seq), '--set', 'output=list()'], 2, 'not a Python literal');
    refused(['--seq', '100000', '--set', 'output=1'], 2, 'event 100000 is past the end');
    const ret = events(origin).find((e) => e.event === 'return')!.seq;
    refused(['--seq', String(ret), '--set', 'output=1'], 2, 'is a return');
    expect(traceCount()).toBe(before);
    const r = cli(['counterfactual', '--db', db, '--trace', String(origin), '--seq', '1']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('at least one --set');
  });

  it('refuses a program that runs differently each time (exit 1), naming the first event that differs', () => {
    const prog = join(dir, 'random.py');
    writeFileSync(prog, 'import os\n\ndef f():\n    r = os.urandom(8)\n    s = 1\n    return s\n');
    const out = join(dir, 'random.jsonl');
    expect(cli(['record', prog, '-o', out, '--call', 'f()']).status).toBe(0);
    expect(cli(['ingest', out, '--db', db]).status).toBe(0);
    const id = Math.max(...lines(cli(['traces', '--db', db, '--json']).stdout).map((t) => t.id as number));
    const at = events(id).find((e) => e.line === 6)!.seq;
    const before = traceCount();
    const r = cli(['counterfactual', '--db', db, '--trace', String(id), '--seq', String(at), '--set', 's=2']);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain(`before the edit (event ${at - 1} differs in locals)`);
    expect(r.stderr).toContain('does not run the same way twice');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(traceCount()).toBe(before);
  });
});

describe('the API', () => {
  it('recordCounterfactual answers as the CLI does; getCounterfactual links it; its trace is served', async () => {
    const corpus = openCorpus(db);
    try {
      const write = createWriteApi(corpus);
      const read = createApi(corpus);
      const r = await write.recordCounterfactual({ traceId: origin, seq, set: { nums: '[2, 2]' } });
      expect(r).toMatchObject({ origin, seq, set: { nums: '[2, 2]' }, first_difference: seq, exit: 'normal' });
      expect(read.getCounterfactual({ traceId: r.trace })).toEqual({
        trace: r.trace,
        origin,
        seq,
        set: { nums: '[2, 2]' },
        first_difference: seq,
      });
      expect(read.getCounterfactual({ traceId: origin })).toBeNull();
      const served = await read.getEvents({ traceId: r.trace, from: 0, to: r.events });
      expect(served[seq].locals.nums).toBe('[2, 2]');
      // The loop goes on over the list it started with; only nums.count sees the new one.
      expect(served.at(-1)!.arg).toBe('[(4, 1), (0, 3), (0, 3), (0, 1), (0, 1), (0, 1)]');
      await expect(write.recordCounterfactual({ traceId: origin, seq, set: { zz: '1' } })).rejects.toMatchObject({
        code: 'bad-input',
        message: expect.stringContaining('no local named zz'),
      });
    } finally {
      corpus.close();
    }
  });
});
