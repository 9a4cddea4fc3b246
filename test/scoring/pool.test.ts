// The worker pool: order, backpressure, crashes, shutdown, progress, bad input.
import { describe, expect, it } from 'vitest';
import { ExecPool, withExecPool } from '../../src/scoring/pool.js';
import type { Progress } from '../../src/scoring/progress.js';
import type { CruxevalJob, Job } from '../../src/scoring/types.js';
import { alive } from './helpers.js';

const code = 'def f(x):\n    return x * 2';
/** An input-prediction job that passes, or fails with `wrong`; `extra` is evaluated first. */
const job = (i: number, extra = 'None', wrong = false): CruxevalJob => ({
  id: `j${i}`,
  kind: 'cruxeval-input',
  code,
  output: String(2 * i),
  generation: `(${extra}, f(${wrong ? i + 1 : i}))[1]`,
});
const slow = "__import__('time').sleep(0.5)";
const forever = "__import__('time').sleep(30)";

describe('ExecPool', () => {
  it('streams verdicts in input order, or all of them as they finish', async () => {
    await withExecPool({ workers: 2 }, async (pool) => {
      // The first job is slow, so later ones finish before it.
      const jobs = [job(1, slow), ...Array.from({ length: 7 }, (_, i) => job(i + 2)), job(9, 'None', true)];
      const ordered: string[] = [];
      for await (const v of pool.run(jobs)) ordered.push(`${v.id}:${v.status}`);
      expect(ordered).toEqual([
        'j1:pass',
        'j2:pass',
        'j3:pass',
        'j4:pass',
        'j5:pass',
        'j6:pass',
        'j7:pass',
        'j8:pass',
        'j9:fail',
      ]);
      const unordered: string[] = [];
      for await (const v of pool.run(jobs, { ordered: false })) unordered.push(`${v.id}:${v.status}`);
      expect(unordered.sort()).toEqual([...ordered].sort());
    });
  });

  it('reads a lazy source only as fast as the consumer takes verdicts (backpressure)', async () => {
    await withExecPool({ workers: 2 }, async (pool) => {
      let pulled = 0;
      function* source(): Generator<Job> {
        for (let i = 0; i < 40; i++) {
          pulled++;
          yield job(i);
        }
      }
      let consumed = 0;
      let ahead = 0;
      for await (const v of pool.run(source(), { window: 4 })) {
        expect(v.status).toBe('pass');
        consumed++;
        ahead = Math.max(ahead, pulled - consumed);
      }
      expect(consumed).toBe(40);
      expect(ahead).toBeLessThanOrEqual(4);
    });
  });

  it('replaces a worker that dies: its job is an error, the others still run', async () => {
    const pool = new ExecPool({ workers: 1 });
    await pool.start();
    const [pid] = pool.workerPids();
    const running = pool.submit(job(1, forever));
    const queued = [pool.submit(job(2)), pool.submit(job(3))];
    process.kill(pid, 'SIGKILL');
    expect(await running).toMatchObject({
      id: 'j1',
      status: 'error',
      error: expect.stringMatching(/execution worker died while running this job \(killed by SIGKILL/),
    });
    expect((await Promise.all(queued)).map((v) => v.status)).toEqual(['pass', 'pass']);
    expect(pool.restarts).toBe(1);
    expect(pool.workerPids()).not.toContain(pid);
    await pool.close();
  });

  it('closes cleanly: waits for submitted jobs, then no worker is left', async () => {
    const pool = new ExecPool({ workers: 2 });
    const verdicts = [1, 2, 3].map((i) => pool.submit(job(i)));
    await pool.start();
    const pids = pool.workerPids();
    await pool.close();
    expect((await Promise.all(verdicts)).map((v) => v.status)).toEqual(['pass', 'pass', 'pass']);
    expect(pids.filter(alive)).toEqual([]);
    await expect(pool.submit(job(4))).rejects.toThrow(/closed/);
  });

  it('destroy stops at once: queued jobs are rejected, the running one killed', async () => {
    const pool = new ExecPool({ workers: 1 });
    const running = pool.submit(job(1, forever));
    const queued = pool.submit(job(2));
    queued.catch(() => {});
    running.catch(() => {});
    await pool.start();
    const pids = pool.workerPids();
    await pool.destroy();
    await expect(queued).rejects.toThrow(/destroyed/);
    await expect(running).rejects.toThrow(/destroyed/);
    expect(pids.filter(alive)).toEqual([]);
  });

  it('reports progress after every verdict', async () => {
    const seen: Progress[] = [];
    await withExecPool({ workers: 2 }, async (pool) => {
      const jobs = [job(1), job(2, 'None', true), job(3, '1 / 0')];
      for await (const _ of pool.run(jobs, { onProgress: (p) => seen.push(p) })) void _;
    });
    expect(seen.map((p) => p.done)).toEqual([1, 2, 3]);
    expect(seen.at(-1)).toMatchObject({ total: 3, counts: { pass: 1, fail: 1, error: 1, timeout: 0, skipped: 0 } });
  });

  it('rejects a malformed job with what is wrong, and keeps working', async () => {
    await withExecPool({ workers: 1 }, async (pool) => {
      await expect(
        pool.submit({ id: 'x', kind: 'cruxeval-output', code: 'def f(): pass', output: '1' } as unknown as Job),
      ).rejects.toThrow(/bad execution job "x": cruxeval-output job needs 'generation'/);
      await expect(pool.submit({ id: 'y', kind: 'nope' } as unknown as Job)).rejects.toThrow(/kind must be one of/);
      expect((await pool.submit(job(1))).status).toBe('pass');
    });
  });

  it('fails clearly when Python cannot start', async () => {
    const pool = new ExecPool({ workers: 1, python: '/nonexistent/python3' });
    await expect(pool.submit(job(1))).rejects.toThrow(/cannot start \/nonexistent\/python3/);
    await expect(pool.submit(job(2))).rejects.toThrow(/cannot start/);
    await pool.destroy();
  });
});
