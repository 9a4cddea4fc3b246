import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonl, tempDir, traceRecords, writeTraces, cleanTempDirs } from '../store/fixtures.js';
import { cli, ensureBuilt, lines, repoRoot } from './helpers.js';

afterAll(cleanTempDirs);

let dir: string;
let db: string;
let good: string;

beforeAll(() => {
  ensureBuilt();
  dir = tempDir('stepscope-cli-');
  db = join(dir, 'corpus.db');
  good = writeTraces(dir, 'good.jsonl', [
    { name: 'sum_a', n: 2 },
    { name: 'sum_b', n: 5, exit: 'error' },
    { name: 'sum_c', n: 3 },
  ]);
});

const count = (path = db) => lines(cli(['traces', '--db', path, '--json']).stdout).length;

/** One clear line on stderr, no stack trace, the given exit code. */
function expectCleanError(r: ReturnType<typeof cli>, code: number, start: string) {
  expect(r.status, r.stderr).toBe(code);
  expect(r.stderr.startsWith(`stepscope: ${start}`), r.stderr).toBe(true);
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

// Permissions mean nothing to root, so as root the commands that test them run as "nobody".
const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};

describe('stepscope ingest', () => {
  it('creates the corpus, prints the --json summary, and is idempotent', () => {
    const r = cli(['ingest', good, '--db', db, '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe(''); // no progress bar when stderr is not a terminal
    expect(JSON.parse(r.stdout)).toEqual({ files: 1, traces: 3, inserted: 3, skipped: 0, events: 10 + 16 + 12 });
    const again = cli(['ingest', good, '--db', db]);
    expect(again.status).toBe(0);
    expect(again.stdout.trim()).toBe(`${db}: 1 file, 3 traces (0 new, 3 already stored), 38 events read`);
    expect(count()).toBe(3);
  });

  it('reports a bad record as FILE:LINE, exits 1 and stores nothing from that file', () => {
    const bad = join(dir, 'gap.jsonl');
    writeFileSync(
      bad,
      jsonl([
        ...traceRecords({ name: 'fine', n: 1 }),
        ...traceRecords({ name: 'gap', n: 3 }).filter((r) => r.seq !== 5),
      ]),
    );
    const before = cli(['sql', '--db', db, 'SELECT count(*) AS n FROM events']).stdout;
    const r = cli(['ingest', bad, '--db', db]);
    expectCleanError(r, 1, `${bad}:17: expected "seq": 5, got 6 (nothing from ${bad} was stored in ${db})`);
    expect(r.stdout).toBe('');
    expect(cli(['sql', '--db', db, 'SELECT count(*) AS n FROM events']).stdout).toBe(before);
    expect(count()).toBe(3);
  });

  it('keeps earlier files when a later one fails, and says so', () => {
    const path = join(dir, 'two.db');
    const second = join(dir, 'trunc.jsonl');
    writeFileSync(second, jsonl(traceRecords({ name: 't', n: 1 })).slice(0, -10));
    const r = cli(['ingest', good, second, '--db', path]);
    expectCleanError(r, 1, `${second}:10: the last line is cut off`);
    expect(r.stderr).toContain('the 1 file before it was)');
    expect(count(path)).toBe(3);
  });

  it('checks the inputs exist before creating a corpus, and needs at least one', () => {
    const path = join(dir, 'never.db');
    expectCleanError(
      cli(['ingest', join(dir, 'missing.jsonl'), '--db', path]),
      1,
      `${join(dir, 'missing.jsonl')}: no such file`,
    );
    expect(existsSync(path)).toBe(false);
    expectCleanError(cli(['ingest', dir, '--db', path]), 1, `${dir}: is a folder, expected a trace file (.jsonl)`);
    expect(existsSync(path)).toBe(false);
    expectCleanError(cli(['ingest', '--db', path]), 2, 'ingest: at least one trace file is required');
    expectCleanError(cli(['ingest', good]), 2, 'ingest: --db is required');
  });

  it('refuses a line longer than --max-line-mb', () => {
    const path = join(dir, 'long.db');
    const long = join(dir, 'long.jsonl');
    const recs = traceRecords({ name: 'long', n: 2 });
    recs[3] = { ...recs[3], locals: { big: 'x'.repeat(3 * 1024 * 1024) } };
    writeFileSync(long, jsonl(recs));
    expectCleanError(
      cli(['ingest', long, '--db', path, '--max-line-mb', '2']),
      1,
      `${long}:4: line is longer than 2 MiB`,
    );
    expect(count(path)).toBe(0);
    const r = cli(['ingest', long, '--db', path, '--max-line-mb', '4', '--json']);
    expect(JSON.parse(r.stdout)).toMatchObject({ inserted: 1 });
  });

  it.skipIf(!existsSync('/usr/bin/script'))('shows a progress bar on stderr only when it is a terminal', () => {
    const path = join(dir, 'tty.db');
    // script(1) gives the command a pseudo-terminal; its output is what the terminal showed.
    const shell = `node ${join(repoRoot, 'bin/stepscope.js')} ingest ${good} --db ${path}`;
    const r = spawnSync('/usr/bin/script', ['-qec', shell, '/dev/null'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`\r\x1b[K${good} [${'#'.repeat(30)}] 100%`);
    expect(r.stdout).toContain(`\r\x1b[K${path}: 1 file, 3 traces (3 new`);
  });

  it('reads standard input with -', () => {
    const path = join(dir, 'stdin.db');
    const r = cli(['ingest', '-', '--db', path, '--json'], { input: readFileSync(good) });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ traces: 3, inserted: 3 });
  });
});

describe('stepscope traces', () => {
  it('prints one JSON object per trace with --json', () => {
    const rows = lines(cli(['traces', '--db', db, '--json']).stdout);
    expect(rows.map((r) => r.name)).toEqual(['sum_a', 'sum_b', 'sum_c']);
    for (const r of rows)
      expect(Object.keys(r)).toEqual([
        'id',
        'name',
        'mode',
        'exit',
        'reason',
        'events',
        'python',
        'seconds',
        'counterfactual_of',
      ]);
    expect(rows[1]).toMatchObject({
      exit: 'error',
      reason: "ValueError('boom')",
      events: 16,
      python: '3.11.7',
      mode: 'call',
    });
  });

  it('filters, sorts and limits; prints a table for people', () => {
    expect(lines(cli(['traces', '--db', db, '--json', '--exit', 'error']).stdout).map((r) => r.name)).toEqual([
      'sum_b',
    ]);
    expect(lines(cli(['traces', '--db', db, '--json', '--search', 'SUM_C']).stdout).map((r) => r.name)).toEqual([
      'sum_c',
    ]);
    expect(
      lines(cli(['traces', '--db', db, '--json', '--sort', 'events', '--desc', '--limit', '2']).stdout).map(
        (r) => r.events,
      ),
    ).toEqual([16, 12]);
    const human = cli(['traces', '--db', db, '--limit', '1']).stdout.split('\n');
    expect(human[0]).toMatch(/^id\s+name\s+mode\s+exit\s+events\s+seconds\s+python\s+reason$/);
    expect(human[1]).toMatch(/^ ?1\s+sum_a\s+call\s+normal\s+10\s/);
    expect(human[2]).toBe('1 of 3 traces (use --limit/--offset)');
  });

  it('rejects bad option values with exit code 2', () => {
    expectCleanError(
      cli(['traces', '--db', db, '--exit', 'crashed']),
      2,
      "traces: --exit expects normal, error or never, got 'crashed'",
    );
    expectCleanError(cli(['traces', '--db', db, '--limit', 'ten']), 2, "traces: --limit expects an integer, got 'ten'");
    const unknown = cli(['traces', '--db', db, '--colour']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^stepscope: traces: Unknown option '--colour'/);
  });
});

describe('stepscope events', () => {
  it('prints each event as JSON with seq, event, frame, func, line, src, locals, arg, parent', () => {
    const id = lines(cli(['traces', '--db', db, '--json', '--search', 'sum_b']).stdout)[0].id as number;
    const r = cli(['events', '--db', db, '--trace', String(id), '--json']);
    expect(r.status, r.stderr).toBe(0);
    const events = lines(r.stdout);
    const expected = traceRecords({ name: 'sum_b', n: 5, exit: 'error' })
      .filter((x) => x.type === 'event')
      .map(({ type: _t, ...e }) => e);
    expect(events).toEqual(expected);
    expect(events.at(-2)).toMatchObject({
      event: 'exception',
      arg: "ValueError('boom')",
      parent: 1,
      locals: { n: '5', acc: '10' },
    });
  });

  it('prints a window [--from, --to) and a readable listing without --json', () => {
    const window = lines(cli(['events', '--db', db, '--trace', '1', '--from', '2', '--to', '5', '--json']).stdout);
    expect(window.map((e) => e.seq)).toEqual([2, 3, 4]);
    const human = cli(['events', '--db', db, '--trace', '1', '--from', '4', '--to', '6']).stdout.trimEnd().split('\n');
    expect(human).toHaveLength(2);
    expect(human[0]).toMatch(/^\s+4 line\s+f#1\s+3 \| for i in range\(n\):\s+n=2 acc=0$/);
    expect(human[1]).toMatch(/^\s+5 line\s+f#1\s+4 \| acc \+= i\s+n=2 acc=0 i=0$/);
  });

  it('names a missing trace and a missing corpus', () => {
    expectCleanError(cli(['events', '--db', db, '--trace', '99']), 1, `events: no trace with id 99 in ${db}`);
    const nowhere = join(dir, 'nowhere.db');
    expectCleanError(cli(['events', '--db', nowhere, '--trace', '1']), 1, `${nowhere} does not exist`);
    expect(existsSync(nowhere)).toBe(false);
  });
});

describe('stepscope export', () => {
  it('writes traces that ingest back as the same rows, and as nothing new into the same corpus', () => {
    const out = join(dir, 'export.jsonl');
    const r = cli(['export', '--db', db, '-o', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr.trim()).toBe(`${out}: 3 traces, 38 events`);
    // The event lines come out exactly as the recorder layout wrote them.
    const events = (f: string) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('{"type": "event"'));
    expect(events(out)).toEqual(events(good));
    expect(JSON.parse(cli(['ingest', out, '--db', db, '--json']).stdout)).toMatchObject({ inserted: 0, skipped: 3 });
    const copy = join(dir, 'copy.db');
    expect(JSON.parse(cli(['ingest', out, '--db', copy, '--json']).stdout)).toMatchObject({ inserted: 3 });
    const dump = (path: string) =>
      cli([
        'sql',
        '--db',
        path,
        'SELECT t.name, e.* FROM events e JOIN traces t ON t.id = e.trace_id ORDER BY t.name, e.seq',
      ]).stdout;
    expect(dump(copy)).toBe(dump(db));
  });

  it('selects traces by id or filter, and writes to stdout without -o', () => {
    const one = lines(cli(['export', '--db', db, '--trace', '2']).stdout);
    expect(one[0]).toMatchObject({ type: 'trace', name: 'sum_b' });
    expect(one.at(-1)).toMatchObject({ type: 'end', exit: 'error', events: 16 });
    expect(
      lines(cli(['export', '--db', db, '--exit', 'normal']).stdout)
        .filter((r) => r.type === 'trace')
        .map((r) => r.name),
    ).toEqual(['sum_a', 'sum_c']);
    expectCleanError(cli(['export', '--db', db, '--trace', '42']), 1, `export: no trace with id 42 in ${db}`);
    expectCleanError(cli(['export', '--db', db, '-o', join(dir, 'no/such/dir/x.jsonl')]), 1, 'export: cannot write');
  });
});

describe('stepscope sql', () => {
  it('prints rows as JSON lines, read-only', () => {
    const r = cli([
      'sql',
      '--db',
      db,
      "SELECT name, json_extract(meta, '$.task') AS task FROM traces WHERE exit = 'error'",
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(lines(r.stdout)).toEqual([{ name: 'sum_b', task: 'test' }]);
    const locals = lines(
      cli([
        'sql',
        '--db',
        db,
        "SELECT seq, json_extract(locals, '$.acc') AS acc FROM events WHERE trace_id = 1 AND seq BETWEEN 4 AND 7 ORDER BY seq",
      ]).stdout,
    );
    expect(locals).toEqual([
      { seq: 4, acc: '0' },
      { seq: 5, acc: '0' },
      { seq: 6, acc: '0' },
      { seq: 7, acc: '0' },
    ]);
  });

  it('refuses statements that write, and reports SQL errors in one line', () => {
    expectCleanError(
      cli(['sql', '--db', db, 'DELETE FROM traces']),
      1,
      'sql: only queries that return rows can run here',
    );
    expectCleanError(
      cli(['sql', '--db', db, 'DELETE FROM traces RETURNING id']),
      1,
      'attempt to write a readonly database',
    );
    expect(count()).toBe(3);
    expectCleanError(cli(['sql', '--db', db, 'SELEC 1']), 1, 'sql: near "SELEC": syntax error');
    expectCleanError(cli(['sql', '--db', db]), 2, 'sql: expected one query');
  });
});

describe('files that are not corpora, newer corpora, locks and permissions', () => {
  it('refuses a foreign SQLite file and leaves it as it was', () => {
    const other = join(dir, 'other.sqlite');
    const raw = new Database(other);
    raw.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
    raw.close();
    const before = readFileSync(other);
    expectCleanError(cli(['ingest', good, '--db', other]), 1, `${other} is not a Stepscope corpus`);
    expectCleanError(cli(['traces', '--db', other]), 1, `${other} is not a Stepscope corpus`);
    expect(readFileSync(other).equals(before)).toBe(true);
  });

  it('refuses a corpus from a newer Stepscope, untouched', () => {
    const newer = join(dir, 'newer.db');
    cli(['ingest', good, '--db', newer]);
    const raw = new Database(newer);
    raw.pragma('user_version = 999');
    raw.pragma('journal_mode = DELETE');
    raw.close();
    const before = readFileSync(newer);
    expectCleanError(
      cli(['ingest', good, '--db', newer]),
      1,
      `${newer} was made by a newer Stepscope (schema 999, this version knows up to `,
    );
    expect(readFileSync(newer).equals(before)).toBe(true);
  });

  it('waits for a write lock, then gives up with a clear message and stores nothing', () => {
    const locked = join(dir, 'locked.db');
    cli(['ingest', good, '--db', locked]);
    const other = new Database(locked);
    other.exec("BEGIN IMMEDIATE; UPDATE traces SET name = 'x'");
    const file = writeTraces(dir, 'more.jsonl', [{ name: 'more', n: 1 }]);
    try {
      const r = cli(['ingest', file, '--db', locked]);
      expectCleanError(r, 1, `${locked} is locked: another program is writing to it.`);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(count(locked)).toBe(3);
  });

  it('a read-only corpus file: reads work, writes fail with a clear message', () => {
    const roDir = tempDir('stepscope-ro-');
    const path = join(roDir, 'ro.db');
    expect(cli(['ingest', good, '--db', path]).status).toBe(0);
    chmodSync(path, 0o444);
    chmodSync(roDir, 0o777); // the folder stays writable: SQLite may add its -shm file
    try {
      const before = readFileSync(path);
      const list = cli(['traces', '--db', path, '--json'], asUser);
      expect(list.status, list.stderr).toBe(0);
      expect(lines(list.stdout)).toHaveLength(3);
      const more = writeTraces(roDir, 'more.jsonl', [{ name: 'more', n: 1 }]);
      chmodSync(more, 0o644);
      expectCleanError(cli(['ingest', more, '--db', path], asUser), 1, `${path} is read-only: cannot write to it`);
      expect(readFileSync(path).equals(before)).toBe(true);
      // A read-only folder too: SQLite cannot read a WAL corpus there; say so.
      rmSync(path + '-shm', { force: true });
      rmSync(path + '-wal', { force: true });
      chmodSync(roDir, 0o555);
      expectCleanError(cli(['traces', '--db', path], asUser), 1, `cannot read ${path}: its folder is not writable`);
    } finally {
      chmodSync(roDir, 0o755);
    }
  });
});

describe('an input the user may not read', () => {
  it('is refused naming the file, and the corpus is left as it was', () => {
    const roDir = tempDir('stepscope-unreadable-');
    const path = join(roDir, 'c.db');
    expect(cli(['ingest', good, '--db', path]).status).toBe(0);
    chmodSync(roDir, 0o777); // the user ("nobody" when the tests run as root) may write the corpus
    chmodSync(path, 0o666);
    const secret = writeTraces(roDir, 'secret.jsonl', [{ name: 'secret', n: 1 }]);
    chmodSync(secret, 0o000);
    const before = readFileSync(path);
    try {
      expectCleanError(cli(['ingest', secret, '--db', path], asUser), 1, `${secret}: permission denied`);
    } finally {
      chmodSync(roDir, 0o755);
    }
    expect(readFileSync(path).equals(before)).toBe(true);
  });
});

describe('help', () => {
  it('every corpus command has --help', () => {
    for (const c of ['ingest', 'traces', 'events', 'demo', 'sql', 'export']) {
      const r = cli([c, '--help']);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^Usage: stepscope ${c} `));
    }
    expect(cli(['--help']).stdout).toMatch(/\n {2}ingest +Load trace files/);
  });
});

describe('stepscope demo', () => {
  it('records resources/demo, stores it once, and lists it', () => {
    const items = JSON.parse(readFileSync(join(repoRoot, 'resources/demo/demo.json'), 'utf8')) as { file: string }[];
    const path = join(dir, 'demo.db');
    const first = cli(['demo', '--db', path]);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout.trimEnd().split('\n').at(-1)).toBe(
      `${path}: ${items.length} traces (${items.length} new, 0 already stored)`,
    );
    expect(first.stdout).toMatch(/\n\s*1\s+\S+\s+(normal|error|never)\s+\d+\n/);
    const second = cli(['demo', '--db', path]);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout.trimEnd().split('\n').at(-1)).toBe(
      `${path}: ${items.length} traces (0 new, ${items.length} already stored)`,
    );
    const names = lines(cli(['traces', '--db', path, '--json']).stdout).map((r) => r.name);
    expect(names.sort()).toEqual(items.map((i) => i.file.replace(/\.py$/, '')).sort());
  });
});

describe('stepscope traces --sort name', () => {
  it('sorts names naturally (sample_2 before sample_10), in SQLite, both ways', () => {
    const path = join(dir, 'natural.db');
    const names = ['sample_10', 'sample_2', 'sample_1', 'sample_100', 'run9_b', 'run10_a'];
    expect(
      cli([
        'ingest',
        writeTraces(
          dir,
          'natural.jsonl',
          names.map((name, n) => ({ name, n: n + 1 })),
        ),
        '--db',
        path,
      ]).status,
    ).toBe(0);
    // Truth from the names: their words, then the value of their first number.
    const parts = (s: string) => /^([a-z_]*)(\d+)(.*)$/.exec(s)!;
    const expected = [...names].sort(
      (a, b) => parts(a)[1].localeCompare(parts(b)[1]) || Number(parts(a)[2]) - Number(parts(b)[2]),
    );
    expect(expected).toEqual(['run9_b', 'run10_a', 'sample_1', 'sample_2', 'sample_10', 'sample_100']);
    expect(lines(cli(['traces', '--db', path, '--json', '--sort', 'name']).stdout).map((r) => r.name)).toEqual(
      expected,
    );
    expect(
      lines(cli(['traces', '--db', path, '--json', '--sort', 'name', '--desc', '--limit', '2']).stdout).map(
        (r) => r.name,
      ),
    ).toEqual(['sample_100', 'sample_10']);
  });
});
