#!/usr/bin/env node
// Scans the Electron shell with Electronegativity (Doyensec's checks of the Electron security
// checklist), as `npm test` does, and fails on any finding above LOW, or a LOW one without a
// comment next to the code it points at that explains it (naming Electronegativity). A
// finding reviewed and accepted is marked where it is with the tool's own `eng-disable`
// comment, which says why.
//
// Two scans:
// - main/, the shell's sources. Without CSP_GLOBAL_CHECK: main/ sets the page's policy through
//   the app:// protocol from the CSP constant (main/app-protocol.ts), which the tool cannot
//   read; the built page carries the same policy and is checked by the second scan.
// - out/, the built app (npm run build): main, the API process, preload, the renderer page and
//   bundle. The tool's parser stops at private class fields (`#x`, which Svelte 5 compiles
//   state to, and which the core's classes bundled into main use), so every script of the
//   build is scanned with them lowered to WeakMaps (vite's oxc transform, es2021); the code is
//   otherwise the shipped bundle.
//
// Prints each finding, then `electronegativity: N passed, N failed` (one pass per check and
// scan, one failure per finding that fails or file the tool could not parse).
// Usage: node scripts/electronegativity.mjs [--no-build] [--json FILE]
//        node scripts/electronegativity.mjs --only DIR   (one scan of DIR, all checks, no build: the tests')
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : null);
const jsonOut = option('--json');
const only = option('--only');
const ELECTRON = JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')).version;
const SEVERITY = { INFORMATIONAL: 0, LOW: 1, MEDIUM: 2, HIGH: 3 };

if (!only && !args.includes('--no-build')) {
  const r = spawnSync(join(root, 'node_modules/.bin/electron-vite'), ['build'], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`electronegativity: npm run build failed:\n${r.stdout}${r.stderr}`);
    process.exit(1);
  }
}

// The tool logs warnings and progress of its own (locale, version lookups needing network): keep them quiet.
const { default: run } = await import('@doyensec/electronegativity');
const { transformWithOxc } = await import('vite');

/** Runs the tool on `input`; its issues and parse errors, with paths relative to `input`. */
async function scan(input, exclude = []) {
  const quiet = ['log', 'warn', 'info'].map((k) => [k, console[k]]);
  for (const [k] of quiet) console[k] = () => {};
  try {
    return await run({ input, isRelative: true, electronVersionOverride: ELECTRON, excludeFromScan: exclude });
  } finally {
    for (const [k, f] of quiet) console[k] = f;
  }
}

/** A LOW finding is explained when a comment naming Electronegativity is on its line or the four above. */
function explained(file, line) {
  let lines;
  try {
    lines = readFileSync(file, 'utf8').split('\n');
  } catch {
    return false;
  }
  return lines.slice(Math.max(0, line - 5), line).some((l) => /(\/\/|\/\*|<!--|\*).*electronegativity/i.test(l));
}

/** Every script of the built app lowered to es2021 (see the header: the tool cannot parse `#x`). */
function lowerBundle(dir) {
  const scripts = readdirSync(dir, { recursive: true }).filter(
    (f) => String(f).endsWith('.js') || String(f).endsWith('.mjs'),
  );
  return Promise.all(
    scripts.map(async (f) => {
      const path = join(dir, String(f));
      const { code } = await transformWithOxc(readFileSync(path, 'utf8'), path, { target: 'es2021' });
      writeFileSync(path, code);
    }),
  );
}

const temp = mkdtempSync(join(tmpdir(), 'stepscope-eng-'));
const built = join(temp, 'out');
if (!only) {
  cpSync(join(root, 'out'), built, { recursive: true });
  await lowerBundle(built);
}

const scans = only
  ? [{ name: only, input: only, shown: relative(root, only), exclude: [] }]
  : [
      { name: 'main/ (sources)', input: join(root, 'main'), shown: 'main', exclude: ['CSPGlobalCheck'] },
      { name: 'out/ (built app)', input: built, shown: 'out', exclude: [] },
    ];
let passed = 0;
let failed = 0;
const report = [];
for (const s of scans) {
  const r = await scan(s.input, s.exclude);
  const checks = r.globalChecks + r.atomicChecks;
  const failing = new Set();
  console.log(`\n${s.name}: ${checks} checks, Electron ${ELECTRON}`);
  for (const i of r.issues) {
    const sev = i.severity.name;
    const where = i.file === 'N/A' ? '(whole app)' : `${s.shown}/${i.file}:${i.location.line}`;
    const ok =
      SEVERITY[sev] < SEVERITY.LOW ||
      (SEVERITY[sev] === SEVERITY.LOW && i.file !== 'N/A' && explained(join(s.input, i.file), i.location.line));
    const verdict = ok
      ? SEVERITY[sev] === SEVERITY.LOW
        ? 'LOW, explained beside it'
        : sev
      : SEVERITY[sev] === SEVERITY.LOW
        ? 'LOW, no comment explains it'
        : `${sev}: above LOW`;
    console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${i.id} ${where} (${verdict}): ${i.description}`);
    if (!ok) failing.add(i.id);
    report.push({ scan: s.name, id: i.id, file: where, severity: sev, ok });
  }
  for (const e of r.errors.filter((e) => !e.tolerable)) {
    console.log(`  FAIL cannot parse ${relative(s.input, e.file) || e.file}: ${e.message}`);
    failed++;
  }
  failed += failing.size;
  passed += checks - failing.size;
}
rmSync(temp, { recursive: true, force: true });
console.log(`\nelectronegativity: ${passed} passed, ${failed} failed`);
if (jsonOut) writeFileSync(jsonOut, JSON.stringify({ passed, failed, findings: report }, null, 2));
process.exit(failed ? 1 : 0);
