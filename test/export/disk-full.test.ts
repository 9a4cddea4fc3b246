// A disk that fills up during an export, injected into node:fs's writeSync (the data files'
// only write) so it runs on any machine; test/export/faults.test.ts does it for real on a tmpfs.
import * as fs from 'node:fs';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { UserError } from '../../src/common/errors.js';
import { writeError } from '../../src/common/fs-errors.js';
import { exportDataset } from '../../src/export/run.js';
import { cleanTempDirs, corpusFileOf } from '../store/fixtures.js';

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return { ...real, writeSync: vi.fn(real.writeSync) };
});

let db: string;
let dir: string;
const write = vi.mocked(fs.writeSync);
let real: typeof fs.writeSync;

beforeAll(async () => {
  ({ dir, db } = await corpusFileOf('stepscope-export-disk-', [{ name: 'a', n: 40 }]));
  real = write.getMockImplementation()! as typeof fs.writeSync;
}, 300_000);
afterEach(() => write.mockImplementation(real));
afterAll(cleanTempDirs);

const enospc = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write', errno: -28 });

describe('a disk that fills up during dataset export', () => {
  it('fails with one sentence naming the output folder and leaves no folder, partial or whole', async () => {
    write.mockImplementation(() => {
      throw enospc();
    });
    const out = join(dir, 'full');
    const e = await exportDataset(db, out, { kind: 'traces', select: [] }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UserError);
    expect(e).toMatchObject({
      code: 'unavailable',
      message: `cannot write ${out}: the disk is full; free some space on it or choose a folder on another disk`,
    });
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('.full.'))).toEqual([]);
  });

  it('a write the disk cuts short is finished, not left truncated', async () => {
    await exportDataset(db, join(dir, 'whole'), { kind: 'traces', select: [] });
    // Each write stores at most 100 bytes, as a nearly full disk does; the rest must follow.
    write.mockImplementation(((fd: number, buf: NodeJS.ArrayBufferView | string, offset?: number) => {
      if (typeof buf === 'string') return real(fd, buf.slice(0, 100));
      const at = typeof offset === 'number' ? offset : 0;
      return real(fd, buf as Uint8Array, at, Math.min(100, buf.byteLength - at));
    }) as typeof fs.writeSync);
    await exportDataset(db, join(dir, 'short'), { kind: 'traces', select: [] });
    const data = (d: string) => readFileSync(join(dir, d, 'data', 'train-00000-of-00001.jsonl'), 'utf8');
    expect(data('short').length).toBeGreaterThan(1000);
    expect(data('short')).toBe(data('whole'));
  });
});

describe('a file-system error as a sentence', () => {
  const err = (code: string) => Object.assign(new Error(code), { code, syscall: 'open' });
  it('names the path and what to do for each error a write meets on a healthy machine', () => {
    const say = (code: string) => writeError(err(code), '/data/out/ds')?.message;
    expect(say('EDQUOT')).toBe(
      'cannot write /data/out/ds: your disk quota is used up; free some of your space or choose another disk',
    );
    expect(say('ENOENT')).toBe(
      'cannot write /data/out/ds: the folder /data/out does not exist; create it or choose another folder',
    );
    expect(say('ENOTDIR')).toBe(
      'cannot write /data/out/ds: a part of that path is a file, not a folder; choose another path',
    );
    expect(say('EEXIST')).toBe(
      'cannot write /data/out/ds: something else is already there; remove it or choose another path',
    );
    expect(writeError(err('EROFS'), 'x')?.code).toBe('read-only');
    expect(writeError(err('EACCES'), 'x')?.code).toBe('read-only');
  });

  it('leaves alone what is not a file-system error of a write (a bug, a broken disk)', () => {
    expect(writeError(err('EIO'), 'x')).toBeUndefined();
    expect(writeError(Object.assign(new Error('x'), { code: 'ENOSPC' }), 'x')).toBeUndefined(); // no syscall
    expect(writeError(new Error('ENOSPC'), 'x')).toBeUndefined();
  });
});
