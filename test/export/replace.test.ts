// `--force` over an earlier export: the earlier one is moved aside, the new one renamed into
// place, and only then the earlier one removed. When that second rename fails (a disk
// error, a folder locked by another program on Windows), the earlier export is put back.
// The failure is injected into node:fs's renameSync, the only way to make it happen here.
import * as fs from 'node:fs';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { exportDataset } from '../../src/export/run.js';
import { cleanTempDirs, corpusFileOf } from '../store/fixtures.js';

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return { ...real, renameSync: vi.fn(real.renameSync) };
});

let db: string;
let dir: string;

beforeAll(async () => {
  ({ dir, db } = await corpusFileOf('stepscope-export-replace-', [
    { name: 'a', n: 3 },
    { name: 'b', n: 4, exit: 'error' },
  ]));
}, 300_000);
afterAll(cleanTempDirs);

describe('replacing an earlier export', () => {
  it('puts the earlier export back when the new one cannot be renamed into place, and leaves no temporary folder', async () => {
    const out = join(dir, 'ds');
    await exportDataset(db, out, { kind: 'traces', select: ['exit=error'] });
    const earlier = readFileSync(join(out, 'stepscope-export.json'), 'utf8');
    const rename = vi.mocked(fs.renameSync);
    const real = rename.getMockImplementation()!;
    let calls = 0;
    rename.mockImplementation((from, to) => {
      // The first rename moves the earlier export aside; the second would put the new one in place.
      if (++calls === 2) throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
      return real(from, to);
    });
    try {
      await expect(exportDataset(db, out, { kind: 'traces', select: [], force: true })).rejects.toThrow('EIO');
    } finally {
      rename.mockImplementation(real);
    }
    expect(calls).toBe(3);
    expect(readFileSync(join(out, 'stepscope-export.json'), 'utf8')).toBe(earlier);
    expect(readdirSync(dir).filter((f) => f.startsWith('.ds.'))).toEqual([]);
    // And with renames working, --force replaces it.
    const m = await exportDataset(db, out, { kind: 'traces', select: [], force: true });
    expect(JSON.parse(readFileSync(join(out, 'stepscope-export.json'), 'utf8')).rows).toBe(m.rows);
    expect(readdirSync(dir).filter((f) => f.startsWith('.ds.'))).toEqual([]);
  });
});
