// A test file that mocks a module must run isolated (test/helpers/mocking.ts): in the shared
// 'node' project its vi.mock would not replace a module another file loaded first.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot } from '../cli/helpers.js';
import { MOCKING } from './mocking.js';

it('every test file that calls vi.mock or vi.doMock is listed to run isolated, and only those', () => {
  const files = readdirSync(join(repoRoot, 'test'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts') && !f.startsWith('ui/components/'))
    .map((f) => relative(repoRoot, join(repoRoot, 'test', f)));
  const mocking = files.filter((f) =>
    /\bvi\.(do)?[mM]ock\(/.test(readFileSync(join(repoRoot, f), 'utf8').replace(/\/\/.*$/gm, '')),
  );
  expect(mocking.sort()).toEqual([...MOCKING].sort());
});
