// What a misbehaving generation or program can and cannot do inside the execution sandbox.
// Each run reports its verdict only after the worker has killed and reaped everything the
// run started and removed its directory, so the checks below need no waiting.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ExecPool, withExecPool } from '../../src/scoring/pool.js';
import type { CallArgsJob, CruxevalJob } from '../../src/scoring/types.js';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';
import { alive } from './helpers.js';

let pool: ExecPool;
beforeAll(() => {
  pool = new ExecPool({ workers: 2 });
});
afterAll(async () => {
  await pool.close();
  cleanTempDirs();
});

const code = 'def f(x):\n    return x + 1';
const output = (generation: string, extra: Partial<CruxevalJob> = {}): CruxevalJob => ({
  id: generation,
  kind: 'cruxeval-output',
  code,
  output: '2',
  generation,
  ...extra,
});
/** Runs `body` as the function `run()` of a program with `import os, time`; the verdict's `got` is its result. */
const call = (body: string, extra: Partial<CallArgsJob> = {}): CallArgsJob => ({
  id: body,
  kind: 'call-args',
  source: `import os, sys, time\ndef run():\n${body
    .split('\n')
    .map((l) => '    ' + l)
    .join('\n')}\n`,
  function: 'run',
  args: {},
  expected_repr: 'None',
  ...extra,
});

describe('the sandbox', () => {
  it('times out a generation that loops forever, at the limit', async () => {
    const v = await pool.submit(output('[x for x in iter(int, 1)]', { timeout: 1 }));
    expect(v).toMatchObject({ status: 'timeout', reason: 'time limit 1s' });
    expect(v.seconds).toBeGreaterThanOrEqual(1);
    // Blocked in C with signals masked: only the kill from outside ends it.
    const stuck = await pool.submit(
      call(
        'import signal\nsignal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM, signal.SIGTERM})\ntime.sleep(100)',
        { timeout: 1 },
      ),
    );
    expect(stuck.status).toBe('timeout');
  });

  it('leaves no process behind: a fork that sleeps, and one that left the process group', async () => {
    const forked = await pool.submit(
      call('pid = os.fork()\nif pid == 0:\n    time.sleep(60)\n    os._exit(0)\nreturn pid'),
    );
    expect(forked.status).toBe('fail');
    const pid = Number(forked.got);
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
    // A daemon: fork, setsid, fork again, the middle process exits; the grandchild is an orphan.
    const escaped = await pool.submit(
      call(
        'r, w = os.pipe()\npid = os.fork()\nif pid == 0:\n    os.setsid()\n    grandchild = os.fork()\n    if grandchild == 0:\n        time.sleep(60)\n        os._exit(0)\n' +
          '    os.write(w, str(grandchild).encode())\n    os._exit(0)\nos.waitpid(pid, 0)\nreturn int(os.read(r, 100))',
      ),
    );
    const orphan = Number(escaped.got);
    expect(orphan).toBeGreaterThan(0);
    expect(alive(orphan)).toBe(false);
  });

  it('refuses to start other programs', async () => {
    const v = await pool.submit(call("import subprocess\nsubprocess.run(['sleep', '60'])"));
    expect(v).toMatchObject({ status: 'error' });
    expect(v.error).toMatch(/PermissionError.*starting a program \(subprocess\.Popen\)/);
    expect((await pool.submit(call("os.system('sleep 60')"))).error).toMatch(/os\.system/);
  });

  it('stops a generation that allocates hugely (memory limit)', async () => {
    const v = await pool.submit(output('len(bytearray(64 * 1024 ** 3))'));
    expect(v).toMatchObject({ status: 'error', error: 'MemoryError()' });
    const slow = await pool.submit(output('len([0] * (100 * 1024 ** 2))', { memory_mb: 256 }));
    expect(slow).toMatchObject({ status: 'error', error: 'MemoryError()' });
    const raise = await pool.submit(call('import resource\nresource.setrlimit(resource.RLIMIT_AS, (-1, -1))'));
    expect(raise.error).toMatch(/changing resource limits/);
  });

  it('removes every file a run writes, and refuses writes elsewhere', async () => {
    const v = await pool.submit(
      call(
        "open('out.txt', 'w').write('x')\nos.mkdir('locked')\nopen('locked/in.txt', 'w').write('y')\nos.chmod('locked', 0o500)\nimport tempfile\ntempfile.mkstemp()\nreturn os.getcwd()",
      ),
    );
    expect(v.status).toBe('fail');
    const cwd = JSON.parse(v.got!.replace(/^'|'$/g, '"')) as string;
    expect(cwd).toMatch(/stepscope-exec-/);
    expect(existsSync(cwd)).toBe(false);
    const outside = join(tempDir('stepscope-sandbox-'), 'leak.txt');
    const leak = await pool.submit(call(`open(${JSON.stringify(outside)}, 'w').write('x')`));
    expect(leak.error).toMatch(/PermissionError.*writing .*leak\.txt.* outside the run's directory/);
    expect(existsSync(outside)).toBe(false);
  });

  it('refuses network use', async () => {
    for (const body of [
      'import socket\nsocket.socket()',
      "import socket\nsocket.getaddrinfo('localhost', 80)",
      "import urllib.request\nurllib.request.urlopen('http://127.0.0.1:9/')",
    ]) {
      const v = await pool.submit(call(body));
      expect(v.status, body).toBe('error');
      expect(v.error, body).toMatch(/not allowed in the sandbox: network use/);
    }
  });

  it('cannot signal the worker or other processes', async () => {
    const v = await pool.submit(call('os.kill(os.getppid(), 9)'));
    expect(v.error).toMatch(/signalling process/);
    expect(pool.restarts).toBe(0);
  });

  it('runs generations with no variable of the user but the path and locale: no API key reaches them', async () => {
    process.env.STEPSCOPE_API_KEY = 'sk-sandbox-test';
    process.env.SOME_CLOUD_SECRET = 'secret';
    try {
      await withExecPool({ workers: 1 }, async (own) => {
        const v = await own.submit(call('return sorted(os.environ)', { expected_repr: '[]' }));
        expect(v.got).not.toMatch(/STEPSCOPE_API_KEY|SOME_CLOUD_SECRET/);
        const key = await own.submit(call("return os.environ.get('STEPSCOPE_API_KEY')"));
        expect(key).toMatchObject({ status: 'pass', got: 'None' });
      });
    } finally {
      delete process.env.STEPSCOPE_API_KEY;
      delete process.env.SOME_CLOUD_SECRET;
    }
  });

  it('a worker killed during a run: the run is an error, not pending, and its folder is removed', async () => {
    const base = tempDir('stepscope-sandbox-tmp-');
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = base;
    try {
      await withExecPool({ workers: 1 }, async (own) => {
        await own.start();
        const [pid] = own.workerPids();
        const running = own.submit(call('time.sleep(30)', { timeout: 60 }));
        await vi.waitFor(() => expect(readdirSync(base).length).toBe(1), { timeout: 20_000 });
        process.kill(pid, 'SIGKILL');
        const v = await running;
        expect(v.status).toBe('error');
        expect(v.error).toMatch(/the execution worker died while running this job \(killed by SIGKILL\)/);
        expect(readdirSync(base)).toEqual([]);
        expect((await own.submit(call('return None'))).status).toBe('pass'); // a new worker took over
      });
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it('gives stdin at end of file and discards output', async () => {
    expect((await pool.submit(call('input()'))).error).toMatch(/EOFError/);
    const loud = await pool.submit(
      call("print('x' * 10 ** 7)\nsys.stderr.write('y' * 10 ** 6)\nreturn 1", { expected_repr: '1' }),
    );
    expect(loud.status).toBe('pass');
  });

  it('runs under the pool hash seed (0), as a fresh interpreter with that seed hashes', async () => {
    const py = spawnSync('python3', ['-c', "print(hash('stepscope'))"], {
      env: { ...process.env, PYTHONHASHSEED: '0' },
      encoding: 'utf8',
    });
    const v = await pool.submit(call("return hash('stepscope')"));
    expect(v.got).toBe(py.stdout.trim());
  });
});
