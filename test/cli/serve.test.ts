// `stepscope serve`: the token from a file or the environment (never needed in argv, where
// `ps` shows it), and the refusals of a wrong token option.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCorpus } from '../../src/store/corpus.js';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';
import { cli, ensureBuilt, repoRoot } from './helpers.js';

let dir: string;
let db: string;

beforeAll(async () => {
  ensureBuilt();
  dir = tempDir('stepscope-serve-');
  db = join(dir, 'c.db');
  const c = openCorpus(db, { create: true });
  await c.ingest(writeTraces(dir, 't.jsonl', [{ name: 'sum_3' }]));
  c.close();
});
afterAll(cleanTempDirs);

/** Runs `stepscope serve ARGS` until it prints its URL; calls `f` with it; stops the server. */
async function serving(args: string[], env: NodeJS.ProcessEnv, f: (url: string) => Promise<void>): Promise<void> {
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'bin/stepscope.js'), 'serve', '--db', db, '--port', '0', '--ui', join(dir, 'no-ui'), ...args],
    { env },
  );
  let out = '';
  child.stdout.on('data', (b) => (out += b));
  child.stderr.on('data', (b) => (out += b));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.on('exit', (code) => reject(new Error(`serve exited (${code}):\n${out}`)));
      child.stdout.on('data', () => {
        const m = /(http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
    });
    await f(url);
  } finally {
    child.kill('SIGTERM');
  }
}

const call = (url: string, token?: string) =>
  fetch(new URL('api/listTraces', url), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: '{}',
  });

describe('serve: where the token comes from', () => {
  it('reads it from STEPSCOPE_TOKEN: calls need it, the printed URL carries it', async () => {
    await serving([], { ...process.env, STEPSCOPE_TOKEN: 'from-the-env-1' }, async (url) => {
      expect(url).toMatch(/#token=from-the-env-1$/);
      expect((await call(url)).status).toBe(401);
      expect((await call(url, 'from-the-env-1')).status).toBe(200);
    });
  });

  it('reads it from the first line of --token-file, ahead of the environment', async () => {
    const file = join(dir, 'token.txt');
    writeFileSync(file, 'from-a-file-22\n', { mode: 0o600 });
    await serving(['--token-file', file], { ...process.env, STEPSCOPE_TOKEN: 'from-the-env-1' }, async (url) => {
      expect((await call(url, 'from-the-env-1')).status).toBe(401);
      expect((await call(url, 'from-a-file-22')).status).toBe(200);
    });
  });

  it('refuses both options at once, a missing file and a short token, in one line each', () => {
    const file = join(dir, 'short.txt');
    writeFileSync(file, 'abc\n');
    const cases: [string[], string][] = [
      [['--token', 'long-enough-1', '--token-file', file], 'stepscope: serve: give --token or --token-file, not both'],
      [
        ['--token-file', join(dir, 'nope.txt')],
        `stepscope: serve: cannot read --token-file ${join(dir, 'nope.txt')}: ENOENT`,
      ],
      [['--token-file', file], `stepscope: serve: the token (the first line of ${file}) must be at least 8 characters`],
      [['--token', 'short'], 'stepscope: serve: the token (--token) must be at least 8 characters'],
    ];
    for (const [args, line] of cases) {
      const r = cli(['serve', '--db', db, '--port', '0', ...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim(), args.join(' ')).toBe(line);
    }
    const env = cli(['serve', '--db', db, '--port', '0'], { env: { ...process.env, STEPSCOPE_TOKEN: 'short' } });
    expect(env.stderr.trim()).toBe('stepscope: serve: the token (STEPSCOPE_TOKEN) must be at least 8 characters');
  });

  it('says so in --help', () => {
    const help = cli(['serve', '--help']).stdout;
    expect(help).toContain('--token-file FILE');
    expect(help).toContain('STEPSCOPE_TOKEN');
    expect(help).toMatch(/read-only connection/);
    expect(help).toContain('--cache-mb N');
  });
});
