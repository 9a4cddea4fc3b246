// The Electronegativity scan that `npm test` runs on the shell (scripts/electronegativity.mjs)
// fails a shell with the classic mistakes and passes one whose only finding is a LOW one
// explained beside the code it points at. (The shell's own scan is its own suite in npm test.)
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../cli/helpers.js';

const scan = (fixture: string) =>
  spawnSync(
    process.execPath,
    [join(repoRoot, 'scripts/electronegativity.mjs'), '--only', join(repoRoot, 'test/main/fixtures', fixture)],
    { encoding: 'utf8', cwd: repoRoot },
  );

describe('the Electronegativity scan', () => {
  it('fails findings above LOW and a LOW one that nothing explains', () => {
    const r = scan('unsafe-shell');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/FAIL CONTEXT_ISOLATION_JS_CHECK .*main\.js:5 \(HIGH: above LOW\)/);
    expect(r.stdout).toMatch(/FAIL LIMIT_NAVIGATION_GLOBAL_CHECK \(whole app\) \(HIGH: above LOW\)/);
    expect(r.stdout).toMatch(/FAIL CSP_GLOBAL_CHECK .*index\.html:4 \(LOW, no comment explains it\)/);
    expect(r.stdout).toMatch(/electronegativity: \d+ passed, [1-9]\d* failed/);
  });

  it('passes a locked-down shell whose LOW finding is explained where it points', () => {
    const r = scan('explained-shell');
    expect(r.stdout).toMatch(/ok {3}CSP_GLOBAL_CHECK .*index\.html:5 \(LOW, explained beside it\)/);
    expect(r.stdout).toMatch(/electronegativity: 42 passed, 0 failed/);
    expect(r.status).toBe(0);
  });
});
