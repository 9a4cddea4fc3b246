// A `stepscope record` killed outright (a pipeline worker lost mid-shard, `kill -9`) takes its
// recording with it: the recorder and the traced program stop, instead of running on to their
// time limit and writing where a retry now works (docs/pipeline.md, lost workers).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descendants, running } from '../helpers/procs.js';
import { ensureBuilt, repoRoot } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'stepscope-orphans-'));
beforeAll(() => ensureBuilt());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf(process.platform === 'linux')('a killed record command', () => {
  it('stops its recorder and the traced program with it', async () => {
    const started = join(dir, 'started');
    const prog = join(dir, 'forever.py');
    writeFileSync(
      prog,
      `import time\nopen(${JSON.stringify(started)}, "w").close()\nwhile True:\n    time.sleep(0.01)\n`,
    );
    const node = spawn(
      process.execPath,
      [join(repoRoot, 'bin/stepscope.js'), 'record', prog, '-o', join(dir, 'out.jsonl'), '--timeout', '120'],
      { cwd: repoRoot, stdio: 'ignore' },
    );
    let below: number[] = [];
    try {
      for (let t = 0; !existsSync(started); t++) {
        if (t > 600) throw new Error('the traced program never started');
        await new Promise((r) => setTimeout(r, 100));
      }
      below = descendants(node.pid!);
      expect(below.length, 'a recorder and its child under the command').toBeGreaterThanOrEqual(2);
      node.kill('SIGKILL');
      for (let t = 0; below.some(running) && t < 300; t++) await new Promise((r) => setTimeout(r, 100));
      expect(below.filter(running), 'processes of the recording still running 30 s after the kill').toEqual([]);
      expect(existsSync(join(dir, 'out.jsonl')), 'no trace file written by a stopped recording').toBe(false);
    } finally {
      node.kill('SIGKILL');
      for (const pid of below.filter(running)) process.kill(pid, 'SIGKILL');
    }
  }, 90_000);
});
