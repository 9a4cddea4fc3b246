/**
 * `stepscope … | head`: when the reader closes the pipe before the output ends, the command stops
 * quietly (exit 0, nothing on stderr), whichever command it is, instead of dying on EPIPE with a
 * stack trace.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanTempDirs, tempDir, writeTraces } from '../store/fixtures.js';
import { cli, ensureBuilt, repoRoot } from './helpers.js';

/** Runs the CLI with its stdout read until the first chunk, then closed; resolves to the exit and stderr. */
function readFirstChunkOnly(args: string[]): Promise<{ code: number | null; stderr: string; got: number }> {
  const child = spawn(process.execPath, [join(repoRoot, 'bin/stepscope.js'), ...args], { cwd: repoRoot });
  let stderr = '';
  let got = 0;
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.once('data', (d: Buffer) => {
    got = d.length;
    child.stdout.destroy(); // as `head -c` does: the read end is closed, later writes fail with EPIPE
  });
  return new Promise((done) => child.on('close', (code) => done({ code, stderr, got })));
}

describe('a closed pipe', () => {
  let db: string;
  beforeAll(() => {
    ensureBuilt();
    const dir = tempDir('stepscope-pipe-');
    db = join(dir, 'corpus.db');
    const traces = writeTraces(dir, 't.jsonl', [{ name: 'long', n: 3000 }]);
    expect(cli(['ingest', traces, '--db', db]).status).toBe(0);
  });
  afterAll(cleanTempDirs);

  // 200,000 rows of about 60 bytes: far more than a pipe holds, so the writer meets the closed end.
  const many =
    'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000) SELECT i, ' +
    "'a row long enough to fill the pipe quickly' AS pad FROM n";

  it.each([
    ['sql', () => ['sql', '--db', db, many]],
    ['events', () => ['events', '--db', db, '--trace', '1', '--json']],
    ['export', () => ['export', '--db', db]],
  ])('%s stops quietly when the reader goes away', async (_, args) => {
    const r = await readFirstChunkOnly(args());
    expect(r.got).toBeGreaterThan(0);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
