#!/usr/bin/env node
// Thin launcher: the CLI is compiled from src/ to dist/ by `npm run build:core`
// (run automatically by `npm install` through the `prepare` script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  console.error('stepscope: not built yet. Run `npm run build:core` in the Stepscope folder.');
  process.exit(1);
}
// A closed pipe (`stepscope annotations export | head`) ends any command quietly, with no stack
// trace: the reader has what it wanted.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
