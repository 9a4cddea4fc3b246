// Exports meeting a faulty disk (issue 31, items 13 and 18): a full disk, a read-only mount and
// a folder without write permission each give one sentence naming the output and what to do,
// exit 1 and leave nothing; a killed export's leftovers are removed by the next export to the
// same place; `-o` naming a symbolic link writes through it.
//
// The full disk is a 64 KB tmpfs, read-only is that tmpfs remounted: both need root (`mount`).
// Elsewhere those tests are skipped and say why; test/export/disk-full.test.ts injects the same
// errors into node:fs and runs everywhere.
import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createApi } from '../../src/api/handlers/index.js';
import { UserError } from '../../src/common/errors.js';
import { exportDataset } from '../../src/export/run.js';
import { openCorpus, type ReadCorpus } from '../../src/store/corpus.js';
import { cli, ensureBuilt } from '../cli/helpers.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';

let dir: string;
let db: string;
let corpus: ReadCorpus;
let api: ReturnType<typeof createApi>;
/** The tmpfs mount point (stepscope-exports/ beside the corpus, where the app exports), if any. */
let tiny: string | undefined;
let noMount = 'not tried';
const mounted: string[] = [];

const FULL = /the disk is full; free some space on it or choose a folder on another disk$/;
const READ_ONLY = /that disk is mounted read-only; choose a folder on a disk you can write to$/;

beforeAllOrFail(async () => {
  ensureBuilt();
  dir = tempDir('stepscope-export-faults-');
  chmodSync(dir, 0o755); // readable by the unprivileged user of the permission test
  db = join(dir, 'c.db');
  const c = openCorpus(db, { create: true });
  // About 6,000 events: each export below is several hundred KB, far more than the tmpfs holds.
  await c.ingest(writeTraces(dir, 't.jsonl', [{ name: 'long', n: 3000 }]));
  c.close();
  corpus = openCorpus(db, { readonly: true });
  api = createApi(corpus);
  const point = join(dir, 'stepscope-exports');
  mkdirSync(point);
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', point], { encoding: 'utf8' });
  if (r.status === 0) {
    tiny = point;
    mounted.push(point);
  } else noMount = `cannot mount a tmpfs here (${(r.stderr || String(r.error)).trim()}): needs root`;
}, 300_000);

afterAll(() => {
  corpus?.close();
  for (const m of mounted) spawnSync('umount', ['-l', m]);
  cleanTempDirs();
});

const remount = (mode: 'ro' | 'rw') => {
  const r = spawnSync('mount', ['-o', `remount,${mode}`, tiny!], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mount -o remount,${mode}: ${r.stderr}`);
};

/** Runs an export job of the app to its end. */
async function appExport(folder: string) {
  const { job, path } = await api.startExport({ kind: 'traces', select: [], folder });
  let s = await api.exportProgress({ job });
  while (s.state === 'running') {
    await new Promise((r) => setTimeout(r, 20));
    s = await api.exportProgress({ job });
  }
  return { s, path };
}

/** A failed command: exit status 1, one line on stderr (no stack trace), nothing on stdout. */
function oneLine(r: { status: number | null; stdout: string; stderr: string }, pattern: RegExp) {
  expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
  expect(r.stderr.trim()).toMatch(pattern);
  expect(r.status).toBe(1);
  expect(r.stdout).toBe('');
}

describe('a full disk', () => {
  it('dataset export: one sentence naming the folder, exit 1, nothing left on the disk', (ctx) => {
    if (!tiny) return ctx.skip(noMount);
    const out = join(tiny, 'ds');
    oneLine(
      cli(['dataset', 'export', '--db', db, '-o', out, '--kind', 'traces']),
      new RegExp(`^stepscope: dataset export: cannot write ${out}: ${FULL.source}`),
    );
    expect(readdirSync(tiny)).toEqual([]);
  });

  it('export -o FILE: the same, and no half-written file', (ctx) => {
    if (!tiny) return ctx.skip(noMount);
    const out = join(tiny, 't.jsonl');
    oneLine(
      cli(['export', '--db', db, '-o', out]),
      new RegExp(`^stepscope: export: cannot write ${out}: ${FULL.source}`),
    );
    expect(readdirSync(tiny)).toEqual([]);
  });

  it('the app: the export job fails with that sentence, not "internal error: ENOSPC"', async (ctx) => {
    if (!tiny) return ctx.skip(noMount);
    const { s, path } = await appExport('full');
    expect(s.state).toBe('failed');
    expect(s.error).toMatch(new RegExp(`^cannot write ${path}: ${FULL.source}`));
    expect(readdirSync(tiny)).toEqual([]);
  });
});

describe('a read-only mount', () => {
  it('dataset export, export and the app say the disk is read-only (not ENOENT mkdir), exit 1', async (ctx) => {
    if (!tiny) return ctx.skip(noMount);
    remount('ro');
    try {
      const ds = join(tiny, 'ds');
      oneLine(
        cli(['dataset', 'export', '--db', db, '-o', ds, '--kind', 'traces']),
        new RegExp(`^stepscope: dataset export: cannot write ${ds}: ${READ_ONLY.source}`),
      );
      const file = join(tiny, 't.jsonl');
      oneLine(
        cli(['export', '--db', db, '-o', file]),
        new RegExp(`^stepscope: export: cannot write ${file}: ${READ_ONLY.source}`),
      );
      await expect(exportDataset(db, ds, { kind: 'traces', select: [] })).rejects.toMatchObject({
        constructor: UserError,
        code: 'read-only',
        message: expect.stringMatching(READ_ONLY),
      });
      const { s } = await appExport('ro');
      expect(s).toMatchObject({ state: 'failed', error: expect.stringMatching(READ_ONLY) });
    } finally {
      remount('rw');
    }
    expect(readdirSync(tiny)).toEqual([]);
  });
});

describe('a folder without write permission', () => {
  it('dataset export says permission denied, naming the folder, exit 1', (ctx) => {
    const locked = join(dir, 'locked');
    mkdirSync(locked, { mode: 0o555 });
    const out = join(locked, 'ds');
    // Root writes anywhere: run the command as an unprivileged user then, if it can read the program.
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const bin = join(import.meta.dirname, '../../dist/cli/main.js');
    const probe = spawnSync(process.execPath, ['-e', `require('fs').accessSync(${JSON.stringify(bin)})`], asUser);
    if (probe.status !== 0) return ctx.skip('the unprivileged user (uid 65534) cannot read the repository here');
    oneLine(
      cli(['dataset', 'export', '--db', db, '-o', out, '--kind', 'traces'], asUser),
      new RegExp(
        `^stepscope: dataset export: cannot write ${out}: permission denied; ` +
          'choose a folder you may write to, or change its permissions$',
      ),
    );
    expect(readdirSync(locked)).toEqual([]);
  });
});

describe('a path through a file, or a folder where a file goes', () => {
  it('says which, naming the path, exit 1, and leaves nothing', () => {
    const home = tempDir('stepscope-export-notdir-');
    writeFileSync(join(home, 'afile'), 'x');
    const ds = join(home, 'afile', 'ds');
    const notDir = 'a part of that path is a file, not a folder; choose another path$';
    oneLine(
      cli(['dataset', 'export', '--db', db, '-o', ds, '--kind', 'traces']),
      new RegExp(`^stepscope: dataset export: cannot write ${ds}: ${notDir}`),
    );
    const file = join(home, 'afile', 't.jsonl');
    oneLine(cli(['export', '--db', db, '-o', file]), new RegExp(`^stepscope: export: cannot write ${file}: ${notDir}`));
    mkdirSync(join(home, 'adir'));
    oneLine(
      cli(['export', '--db', db, '-o', join(home, 'adir')]),
      new RegExp(`^stepscope: export: cannot write ${join(home, 'adir')}: it is a folder; give the path of a file$`),
    );
    expect(readdirSync(home).sort()).toEqual(['adir', 'afile']);
    expect(readdirSync(join(home, 'adir'))).toEqual([]);
  });
});

/** The id of a process that has ended. */
const deadPid = () => spawnSync('true').pid!;

describe('leftovers of an export that was killed', () => {
  it('kill -9 during dataset export leaves a .ds.partial-* folder; the next export removes it and says so', async () => {
    const home = tempDir('stepscope-export-killed-');
    const out = join(home, 'ds');
    // One file per row: some 6,000 files, seconds of writing to catch it in.
    const child = spawn(process.execPath, [
      join(import.meta.dirname, '../../bin/stepscope.js'),
      ...['dataset', 'export', '--db', db, '-o', out, '--kind', 'traces', '--shard-rows', '1'],
    ]);
    let exited = false;
    const gone = new Promise((r) => child.on('exit', r)).then(() => (exited = true));
    // Kill it as soon as its temporary folder is there.
    const until = Date.now() + 120_000;
    while (!exited && Date.now() < until && !readdirSync(home).some((f) => f.startsWith('.ds.partial-')))
      await new Promise((r) => setTimeout(r, 2));
    child.kill('SIGKILL');
    await gone;
    expect(existsSync(out), 'the export finished before it could be killed').toBe(false);
    const left = readdirSync(home);
    expect(left).toEqual([expect.stringMatching(new RegExp(`^\\.ds\\.partial-${child.pid}-\\d+$`))]);
    const again = cli(['dataset', 'export', '--db', db, '-o', out, '--kind', 'traces']);
    expect(again.status).toBe(0);
    expect(again.stderr).toMatch(
      new RegExp(
        `^dataset export: removed ${left[0].replace(/\./g, '\\.')} \\(\\d+ (bytes?|KB|MB)\\), left by an export that was ` +
          `stopped \\(process ${child.pid} has ended\\)\n`,
      ),
    );
    expect(readdirSync(home)).toEqual(['ds']);
  });

  it("removes only the leftovers of processes that have ended, not a running export's", async () => {
    const home = tempDir('stepscope-export-stale-');
    const out = join(home, 'ds');
    const dead = `.ds.partial-${deadPid()}-1700000000000`;
    mkdirSync(join(home, dead, 'data'), { recursive: true });
    writeFileSync(join(home, dead, 'data', 'train-00000-of-00001.jsonl'), 'x'.repeat(3 << 20));
    const sleeper = spawn('sleep', ['30']);
    try {
      const running = `.ds.partial-${sleeper.pid}-1700000000000`;
      mkdirSync(join(home, running));
      const notes: string[] = [];
      await exportDataset(db, out, { kind: 'traces', select: [], onNote: (n) => notes.push(n) });
      expect(notes).toEqual([expect.stringMatching(new RegExp(`^removed ${dead.replace(/\./g, '\\.')} \\(3 MB\\)`))]);
      expect(readdirSync(home).sort()).toEqual([running, 'ds']);
    } finally {
      sleeper.kill();
    }
  });

  it('puts back an earlier export that a killed --force had moved aside', async () => {
    const home = tempDir('stepscope-export-aside-');
    const out = join(home, 'ds');
    await exportDataset(db, out, { kind: 'traces', select: [] });
    const manifest = readFileSync(join(out, 'stepscope-export.json'), 'utf8');
    // Killed between moving ds aside and renaming the new export into place.
    const pid = deadPid();
    spawnSync('mv', [out, join(home, `.ds.partial-${pid}-1.old`)]);
    mkdirSync(join(home, `.ds.partial-${pid}-1`));
    const notes: string[] = [];
    await expect(exportDataset(db, out, { kind: 'traces', select: [], onNote: (n) => notes.push(n) })).rejects.toThrow(
      /is not empty: give --force/,
    );
    expect(notes[0]).toMatch(/^put back the earlier export ds/);
    expect(readFileSync(join(out, 'stepscope-export.json'), 'utf8')).toBe(manifest);
    expect(readdirSync(home)).toEqual(['ds']);
  });

  it("export -o FILE removes a killed export's FILE.partial-PID and says so", () => {
    const home = tempDir('stepscope-export-file-');
    const pid = deadPid();
    writeFileSync(join(home, `t.jsonl.partial-${pid}`), 'half a trace');
    const r = cli(['export', '--db', db, '-o', join(home, 't.jsonl')]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(
      new RegExp(`^export: removed t\\.jsonl\\.partial-${pid} \\(12 bytes\\), left by an export`),
    );
    expect(readdirSync(home)).toEqual(['t.jsonl']);
  });
});

describe('-o naming a symbolic link', () => {
  it('dataset export writes into the folder the link names and keeps the link, with --force too', () => {
    const home = tempDir('stepscope-export-link-');
    mkdirSync(join(home, 'real'));
    symlinkSync('real', join(home, 'ds'));
    for (const force of [[], ['--force']]) {
      const r = cli(['dataset', 'export', '--db', db, '-o', join(home, 'ds'), '--kind', 'traces', ...force]);
      expect(r.status, r.stderr).toBe(0);
      expect(lstatSync(join(home, 'ds')).isSymbolicLink()).toBe(true);
      expect(readlinkSync(join(home, 'ds'))).toBe('real');
      expect(existsSync(join(home, 'real', 'stepscope-export.json'))).toBe(true);
      expect(readdirSync(home).sort()).toEqual(['ds', 'real']);
    }
  });

  it('export -o LINK replaces the file the link names and keeps the link', () => {
    const home = tempDir('stepscope-export-filelink-');
    writeFileSync(join(home, 'traces.jsonl'), 'old\n');
    symlinkSync('traces.jsonl', join(home, 'latest.jsonl'));
    const r = cli(['export', '--db', db, '-o', join(home, 'latest.jsonl')]);
    expect(r.status, r.stderr).toBe(0);
    expect(lstatSync(join(home, 'latest.jsonl')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(home, 'traces.jsonl'), 'utf8')).toMatch(/^\{"type": ?"trace"/);
    expect(readdirSync(home).sort()).toEqual(['latest.jsonl', 'traces.jsonl']);
  });
});
