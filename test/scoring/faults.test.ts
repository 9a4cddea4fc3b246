// The pool and its workers when things go wrong: stand-in workers (small Python scripts given
// as the pool's `python`) that print to stderr and exit, greet with the wrong hash seed, write
// a broken protocol line, die over and over, or ignore SIGTERM; and the user's side: an error
// thrown inside withExecPool, closing with jobs still queued, cancelled jobs, a malformed job
// in a stream, the progress clock, an inherited PYTHONPATH.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ExecPool, withExecPool } from '../../src/scoring/pool.js';
import type { Progress } from '../../src/scoring/progress.js';
import type { CruxevalJob, Job } from '../../src/scoring/types.js';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';
import { descendants, running } from '../helpers/procs.js';
import { alive } from './helpers.js';

afterAll(cleanTempDirs);

const dir = tempDir('stepscope-scoring-faults-');
const HELLO =
  'json.dumps({"worker": "stepscope-execute", "hashseed": os.environ.get("PYTHONHASHSEED"), "pid": os.getpid()})';
/** An executable stand-in for `python3 -m stepscope_recorder.execute` (it ignores its arguments). */
function fakeWorker(name: string, body: string): string {
  const p = join(dir, name);
  writeFileSync(p, `#!/usr/bin/env python3\nimport json, os, signal, sys, time\n${body}\n`);
  chmodSync(p, 0o755);
  return p;
}
const hello = `print(${HELLO}, flush=True)`;

const code = 'def f(x):\n    return x * 2';
const job = (i: number, extra = 'None'): CruxevalJob => ({
  id: `j${i}`,
  kind: 'cruxeval-input',
  code,
  output: String(2 * i),
  generation: `(${extra}, f(${i}))[1]`,
});

describe('a worker that fails', () => {
  it('before its hello: the error names the interpreter and ends with the last of its stderr', async () => {
    const quiet = fakeWorker('quiet', 'sys.exit(1)');
    const pool = new ExecPool({ workers: 1, python: quiet });
    await expect(pool.submit(job(1))).rejects.toThrow(
      new Error(
        `the execution worker (${quiet} -m stepscope_recorder.execute) stopped before it was ready: exit status 1`,
      ),
    );
    await pool.destroy();
    const loud = fakeWorker('loud', 'sys.stderr.write("fake: no module named stepscope_recorder\\n")\nsys.exit(1)');
    const pool2 = new ExecPool({ workers: 1, python: loud });
    await expect(pool2.submit(job(1))).rejects.toThrow(
      new Error(
        `the execution worker (${loud} -m stepscope_recorder.execute) stopped before it was ready: exit status 1\nfake: no module named stepscope_recorder`,
      ),
    );
    await pool2.destroy();
  });

  it('keeps only the tail of a long stderr', async () => {
    const long = fakeWorker('long', 'sys.stderr.write("A" * 5000 + "\\nthe last line\\n")\nsys.exit(2)');
    const pool = new ExecPool({ workers: 1, python: long });
    const e: Error = await pool.submit(job(1)).then(
      () => {
        throw new Error('resolved');
      },
      (x: Error) => x,
    );
    expect(e.message).toMatch(/exit status 2\nA+\nthe last line$/);
    expect(e.message).not.toContain('A'.repeat(4096));
    await pool.destroy();
  });

  it('greeting under another hash seed: refused, with both seeds named, and killed', async () => {
    const wrong = fakeWorker(
      'wrong-seed',
      'print(json.dumps({"worker": "stepscope-execute", "hashseed": "99"}), flush=True)\nsys.stdin.read()',
    );
    const pool = new ExecPool({ workers: 1, python: wrong });
    await expect(pool.submit(job(1))).rejects.toThrow(
      'the execution worker did not start as expected (hash seed 99, wanted 0): {"worker": "stepscope-execute", "hashseed": "99"}',
    );
    await vi.waitFor(() => expect(pool.workerPids()).toEqual([]), { timeout: 10_000 });
    await pool.destroy();
  });

  it('answering with verdicts of a status or a detail it may not give: error verdicts, never stored as given', async () => {
    // Issue 31, item 7: a forged `pending` stayed pending for ever, an unknown status or a
    // non-string detail broke the corpus's CHECK on every rerun.
    const forged = [
      { status: 'pending' },
      { status: 'bogus' },
      { status: 'pass', error: 5 },
      { status: 'fail', got: { x: 1 } },
      { status: 'pass', reason: 'fine' },
    ];
    const liar = fakeWorker(
      'liar',
      `${hello}
for line, v in zip(sys.stdin, ${JSON.stringify(JSON.stringify(forged))} and json.loads(${JSON.stringify(JSON.stringify(forged))})):
    print(json.dumps(v), flush=True)`,
    );
    const pool = new ExecPool({ workers: 1, python: liar });
    const got = await Promise.all(forged.map((_, i) => pool.submit(job(i))));
    expect(got.map((v) => v.status)).toEqual(['error', 'error', 'error', 'error', 'pass']);
    expect(got[0].error).toBe('the execution worker sent an unreadable verdict (status "pending")');
    expect(got[2].error).toBe('the execution worker sent an unreadable verdict (error is not text)');
    expect(got[4]).toEqual({ id: 'j4', status: 'pass', reason: 'fine', seconds: 0 });
    await pool.destroy();
  });

  it('answering with a line that is not JSON: the job is an error, the worker killed and replaced', async () => {
    const garbage = fakeWorker('garbage', `${hello}\nfor line in sys.stdin:\n    print("not json", flush=True)`);
    const pool = new ExecPool({ workers: 1, python: garbage });
    expect(await pool.submit(job(1))).toEqual({
      id: 'j1',
      status: 'error',
      error: 'the execution worker died while running this job (killed by SIGKILL)',
      seconds: 0,
    });
    expect(pool.restarts).toBe(1);
    await pool.destroy();
  });

  it('dying on a job: the job is an error that ends with the last line of its stderr', async () => {
    const dies = fakeWorker(
      'dies',
      `${hello}\nsys.stdin.readline()\nsys.stderr.write("Fatal: out of luck\\n")\nsys.exit(3)`,
    );
    const pool = new ExecPool({ workers: 1, python: dies });
    expect(await pool.submit(job(1))).toMatchObject({
      status: 'error',
      error: 'the execution worker died while running this job (exit status 3: Fatal: out of luck)',
    });
    await pool.destroy();
  });

  it('dying again and again before answering anything: after five restarts the pool gives up', async () => {
    const flaky = fakeWorker('flaky', hello);
    const pool = new ExecPool({ workers: 1, python: flaky });
    try {
      await pool.start();
      await vi.waitFor(() => expect(pool.restarts).toBe(5), { timeout: 40_000 });
      await expect(pool.submit(job(1))).rejects.toThrow('the execution worker died (exit status 0)');
      expect(pool.restarts).toBe(5);
    } finally {
      await pool.destroy();
    }
  });

  it('ignoring SIGTERM: destroy kills it anyway', async () => {
    const stubborn = fakeWorker(
      'stubborn',
      `signal.signal(signal.SIGTERM, signal.SIG_IGN)\n${hello}\nsys.stdin.read()\ntime.sleep(60)`,
    );
    const pool = new ExecPool({ workers: 1, python: stubborn });
    await pool.start();
    const pids = pool.workerPids();
    expect(pids).toHaveLength(1);
    await pool.destroy(); // SIGTERM, then SIGKILL after the 2 s grace
    expect(pids.filter(alive)).toEqual([]);
  });
  it.skipIf(process.platform !== 'linux')(
    'destroy ends the running job with every process it forked (the worker is asked first)',
    async () => {
      const pool = new ExecPool({ workers: 1 });
      await pool.start();
      const [worker] = pool.workerPids();
      // f forks a sleeper that outlives its parent's death (no parent-death signal past the first child).
      const forks: CruxevalJob = {
        id: 'forks',
        kind: 'cruxeval-input',
        code: 'import os, time\ndef f(x):\n    if os.fork() == 0:\n        time.sleep(60)\n        os._exit(0)\n    time.sleep(60)\n    return x',
        output: '1',
        generation: 'f(1)',
        timeout: 100,
      };
      const verdict = pool.submit(forks);
      verdict.catch(() => {});
      let tree: number[] = [];
      await vi.waitFor(() => expect((tree = descendants(worker))).toHaveLength(2), { timeout: 20_000 });
      try {
        await pool.destroy();
        await expect(verdict).rejects.toThrow(/destroyed/);
        await vi.waitFor(() => expect(tree.filter(running)).toEqual([]), { timeout: 5_000 });
      } finally {
        for (const p of tree.filter(running)) process.kill(p, 'SIGKILL');
      }
    },
  );
});

describe('the pool, from the caller', () => {
  it('withExecPool passes on an error thrown by its function and leaves no worker', async () => {
    let pids: number[] = [];
    await expect(
      withExecPool({ workers: 1 }, async (pool) => {
        await pool.start();
        pids = pool.workerPids();
        throw new Error('the caller failed');
      }),
    ).rejects.toThrow('the caller failed');
    expect(pids).toHaveLength(1);
    expect(pids.filter(alive)).toEqual([]);
  });

  it('close waits for jobs still queued behind busy workers', async () => {
    const pool = new ExecPool({ workers: 1, depth: 1 });
    const verdicts = [1, 2, 3, 4].map((i) => pool.submit(job(i)));
    await pool.close();
    expect((await Promise.all(verdicts)).map((v) => `${v.id}:${v.status}`)).toEqual([
      'j1:pass',
      'j2:pass',
      'j3:pass',
      'j4:pass',
    ]);
  });

  it('a cancelled job is not run: skipped, whether cancelled before submit or while queued', async () => {
    await withExecPool({ workers: 1, depth: 1 }, async (pool) => {
      expect(await pool.submit(job(1), { signal: AbortSignal.abort() })).toEqual({
        id: 'j1',
        status: 'skipped',
        reason: 'cancelled',
        seconds: 0,
      });
      const first = pool.submit(job(2, "__import__('time').sleep(0.3)"));
      const cancel = new AbortController();
      const queued = pool.submit(job(3), { signal: cancel.signal });
      cancel.abort();
      expect(await queued).toEqual({ id: 'j3', status: 'skipped', reason: 'cancelled', seconds: 0 });
      expect((await first).status).toBe('pass');
    });
  });

  it('a malformed job in a stream ends the stream with what is wrong', async () => {
    await withExecPool({ workers: 1 }, async (pool) => {
      const bad = { id: 'bad', kind: 'cruxeval-output', code, output: '2' } as unknown as Job;
      const seen: string[] = [];
      await expect(
        (async () => {
          for await (const v of pool.run([job(1), bad, job(3)])) seen.push(v.id);
        })(),
      ).rejects.toThrow(/bad execution job "bad": cruxeval-output job needs 'generation'/);
    });
  });

  it("progress's elapsed time is the run's own, not a clock reading", async () => {
    const seen: Progress[] = [];
    const before = performance.now();
    await withExecPool({ workers: 1 }, async (pool) => {
      for await (const _ of pool.run([job(1), job(2)], { onProgress: (p) => seen.push(p) })) void _;
    });
    const span = performance.now() - before;
    expect(seen).toHaveLength(2);
    for (const p of seen) {
      expect(p.elapsedMs).toBeGreaterThanOrEqual(0);
      expect(p.elapsedMs).toBeLessThanOrEqual(span);
    }
  });

  it("runs with the user's own PYTHONPATH set", async () => {
    const saved = process.env.PYTHONPATH;
    process.env.PYTHONPATH = join(dir, 'nothing-here');
    try {
      await withExecPool({ workers: 1 }, async (pool) => expect((await pool.submit(job(1))).status).toBe('pass'));
    } finally {
      if (saved === undefined) delete process.env.PYTHONPATH;
      else process.env.PYTHONPATH = saved;
    }
  });
});
