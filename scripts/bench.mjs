#!/usr/bin/env node
// `npm run bench`: runs every benchmark under bench/ in turn. Each prints its figures as
// ratios against a baseline measured in the same run, so numbers are comparable across
// machines. Usage: node scripts/bench.mjs [name-substring…]
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2);
spawnSync('npm', ['run', '--silent', 'build:core'], { cwd: root, stdio: 'inherit' });
const files = readdirSync(join(root, 'bench'))
  .filter((f) => /\.(mjs|py)$/.test(f) && !f.startsWith('_'))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
let failed = 0;
for (const f of files) {
  console.log(`\n=== bench/${f}`);
  const [cmd, args] = f.endsWith('.py')
    ? ['python3', [join('bench', f)]]
    : [process.execPath, ['--expose-gc', join('bench', f)]];
  const r = spawnSync(cmd, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PYTHONPATH: join(root, 'python') },
  });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
