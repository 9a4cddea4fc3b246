// The `stepscope record` / `record-cruxeval` wrappers run the Python recorder as a user
// would reach it: through bin/stepscope.js.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const tmp = mkdtempSync(join(tmpdir(), 'stepscope-rec-cli-'));

function cli(...args: string[]) {
  return spawnSync('node', [join(root, 'bin/stepscope.js'), ...args], { cwd: root, encoding: 'utf8' });
}

function lines(path: string) {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l));
}

beforeAll(() => {
  // Build only when the compiled wrappers are missing or older than their sources.
  const stale = ['cli/commands/record', 'cli/commands/record-cruxeval', 'recorder/python', 'cli/main'].some((m) => {
    const out = join(root, 'dist', `${m}.js`);
    return !existsSync(out) || statSync(out).mtimeMs < statSync(join(root, 'src', `${m}.ts`)).mtimeMs;
  });
  if (stale) execFileSync('npm', ['run', '--silent', 'build:core'], { cwd: root, stdio: 'inherit' });
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('stepscope record', () => {
  it('records a call into a trace file and passes limits through', () => {
    const prog = join(tmp, 'fact.py');
    writeFileSync(prog, 'def fact(n):\n    return 1 if n <= 1 else n * fact(n - 1)\n');
    const out = join(tmp, 'fact.jsonl');
    const r = cli('record', prog, '-o', out, '--call', 'fact(4)', '--max-events', '9');
    expect(r.status, r.stderr).toBe(0);
    const recs = lines(out);
    expect(recs[0]).toMatchObject({ type: 'trace', mode: 'call', call: 'fact(4)', limits: { events: 9 } });
    expect(recs.filter((x) => x.type === 'event').length).toBe(9);
    expect(recs.at(-1)).toMatchObject({ type: 'end', exit: 'never', reason: 'event limit 9', events: 9 });
  });

  it('passes script arguments after --', () => {
    const prog = join(tmp, 'args.py');
    writeFileSync(prog, 'import sys\nargs = sys.argv[1:]\n');
    const out = join(tmp, 'args.jsonl');
    const r = cli('record', prog, '-o', out, '--', 'x', '--flag');
    expect(r.status, r.stderr).toBe(0);
    const events = lines(out).filter((x) => x.type === 'event');
    expect(events.at(-1).locals.args).toBe("['x', '--flag']");
  });

  it('shows the recorder options in --help', () => {
    const r = cli('record', '--help');
    expect(r.status).toBe(0);
    for (const opt of ['--call', '--max-events', '--timeout', '--max-memory', '--max-repr', '--hashseed']) {
      expect(r.stdout).toContain(opt);
    }
  });

  it('reports a missing program as a usage error', () => {
    const r = cli('record', join(tmp, 'nope.py'), '-o', join(tmp, 'x.jsonl'));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('nope.py: no such file');
  });
});

describe('stepscope record-cruxeval', () => {
  it('records tasks in input order with --jobs', () => {
    const data = join(tmp, 'crux.jsonl');
    const recs = [0, 1, 2].map((i) => ({
      id: `s${i}`,
      code: `def f(x):\n    return x + ${i}`,
      input: '10',
      output: String(10 + i),
    }));
    writeFileSync(data, recs.map((x) => JSON.stringify(x)).join('\n'));
    const out = join(tmp, 'crux-out.jsonl');
    const r = cli('record-cruxeval', data, '-o', out, '--jobs', '2');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('recorded 3 traces');
    const all = lines(out);
    expect(all.filter((x) => x.type === 'trace').map((x) => x.name)).toEqual(['s0', 's1', 's2']);
    const returns = all.filter((x) => x.type === 'event' && x.event === 'return' && x.func === 'f').map((x) => x.arg);
    expect(returns).toEqual(['10', '11', '12']);
  });

  it('records the bundled benchmark when given no file, and says so in --help', () => {
    const out = join(tmp, 'bundled.jsonl');
    const r = cli('record-cruxeval', '-o', out, '--limit', '2');
    expect(r.status, r.stderr).toBe(0);
    const traces = lines(out).filter((x) => x.type === 'trace');
    expect(traces.map((x) => [x.name, x.call])).toEqual([
      ['sample_0', 'f([1, 1, 3, 1, 3, 1])'],
      ['sample_1', 'f((1, ), (1, ), (1, 2))'],
    ]);
    // stderr is a pipe, not a terminal: one summary line, no progress line.
    expect(r.stderr).toMatch(/^recorded 2 traces, \d+ events; exits: normal 2, error 0, never 0 \([\d.]+s\)\n$/);
    const help = cli('record-cruxeval', '--help');
    expect(help.stdout).toContain('usage: stepscope record-cruxeval [cruxeval.jsonl] -o OUT.jsonl');
    expect(help.stdout).toContain('resources/cruxeval/cruxeval.jsonl');
  });

  it('refuses two dataset files', () => {
    const r = cli('record-cruxeval', 'a.jsonl', 'b.jsonl', '-o', join(tmp, 'two.jsonl'));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('expected at most one dataset file');
  });

  it('names the bad line of a broken dataset', () => {
    const data = join(tmp, 'bad.jsonl');
    writeFileSync(data, '{"id": "a"}\n');
    const r = cli('record-cruxeval', data, '-o', join(tmp, 'bad-out.jsonl'));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('bad.jsonl:1:');
    expect(existsSync(join(tmp, 'bad-out.jsonl'))).toBe(false);
  });
});

describe('what a traced program cannot break', () => {
  const record = (name: string, source: string, call: string) => {
    const prog = join(tmp, `${name}.py`);
    writeFileSync(prog, source);
    const out = join(tmp, `${name}.jsonl`);
    const r = cli('record', prog, '-o', out, '--call', call);
    expect(r.status, r.stderr).toBe(0);
    return out;
  };

  it('a lone surrogate round-trips record, ingest, export and ingest byte for byte, as valid UTF-8', () => {
    const out = record(
      'lone',
      'class L:\n    def __repr__(self):\n        return "a\\ud800b"\n\ndef f():\n    x = L()\n    return x\n',
      'f()',
    );
    const recorded = readFileSync(out);
    expect(recorded.toString()).toContain('"arg": "a\\\\ud800b"');
    const db = join(tmp, 'lone.db');
    expect(cli('ingest', out, '--db', db).status).toBe(0);
    const arg = cli('sql', '--db', db, 'SELECT hex(arg) AS h FROM events WHERE arg IS NOT NULL LIMIT 1');
    expect(JSON.parse(arg.stdout).h).toBe(Buffer.from('a\\ud800b').toString('hex').toUpperCase());
    const exported = join(tmp, 'lone-export.jsonl');
    expect(cli('export', '--db', db, '-o', exported).status).toBe(0);
    const events = (b: Buffer) =>
      b
        .toString()
        .split('\n')
        .filter((l) => l.startsWith('{"type": "event"'));
    expect(events(readFileSync(exported))).toEqual(events(recorded));
    const again = cli('ingest', exported, '--db', db);
    expect(again.stderr + again.stdout).toContain('0 new, 1 already stored');
  });

  it("a program writing into the recorder's channel gets its trace marked, and the mark reaches the corpus", () => {
    const out = record(
      'forger',
      'import os\n\ndef f():\n    for fd in os.listdir("/proc/self/fd"):\n        try:\n            os.write(int(fd), b\'{"type": "end"}\\n\')\n        except OSError:\n            pass\n    return 1\n',
      'f()',
    );
    const end = lines(out).at(-1);
    expect(end).toMatchObject({ exit: 'never', reason: 'trace tampered with' });
    expect(end.tampered).toMatch(/^a message the recorder did not send/);
    const db = join(tmp, 'forger.db');
    expect(cli('ingest', out, '--db', db).status).toBe(0);
    expect(JSON.parse(cli('sql', '--db', db, 'SELECT tampered FROM traces').stdout).tampered).toBe(end.tampered);
  });

  it('a program that kills the recorder: the command says so in one line and leaves no file', () => {
    const prog = join(tmp, 'killer.py');
    writeFileSync(prog, 'import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n');
    const out = join(tmp, 'killer.jsonl');
    const r = cli('record', prog, '-o', out);
    expect(r.status).toBe(128 + 9);
    expect(r.stderr).toBe('stepscope: the recorder was killed by SIGKILL before it finished; nothing was written\n');
    expect(readdirSync(tmp).filter((n) => n.startsWith('killer'))).toEqual(['killer.py']);
  });
});
