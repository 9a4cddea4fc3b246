// npm test's e2e shards (scripts/e2e-shards.mjs): every spec file runs in exactly one shard,
// whatever its name, and the shards' times are close.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SECONDS, SECONDS, fileFilters, shardFiles, specFiles } from '../../scripts/e2e-shards.mjs';
import { repoRoot } from '../cli/helpers.js';

const files = specFiles(join(repoRoot, 'e2e'));
const cost = (f: string) => SECONDS[f] ?? DEFAULT_SECONDS;

describe('the e2e shards of npm test', () => {
  it('run every spec file of e2e/ once, a new one too', () => {
    for (const list of [files, [...files, 'zz-new.spec.ts']]) {
      const shards = shardFiles(list, 2);
      expect(shards).toHaveLength(2);
      expect(shards.flat().sort()).toEqual([...list].sort());
    }
    expect(shardFiles(files, 1)).toEqual([[...files].sort((a, b) => cost(b) - cost(a) || a.localeCompare(b))]);
    expect(shardFiles(['a.spec.ts'], 3)).toEqual([['a.spec.ts']]);
  });

  it('give the two shards times within a tenth of the whole of each other', () => {
    const [a, b] = shardFiles(files, 2).map((s) => s.reduce((n, f) => n + cost(f), 0));
    expect(Math.abs(a - b)).toBeLessThanOrEqual((a + b) / 10);
  });

  it('select a file by its own name only: export.spec.ts is not labels-export.spec.ts', () => {
    const [filter] = fileFilters(['export.spec.ts']).map((f) => new RegExp(f));
    expect(filter.test('/w/stepscope/e2e/export.spec.ts')).toBe(true);
    expect(filter.test('/w/stepscope/e2e/labels-export.spec.ts')).toBe(false);
    expect(filter.test('/w/stepscope/e2e/export.spec.ts.bak')).toBe(false);
  });
});
