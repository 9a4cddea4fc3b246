#!/usr/bin/env node
// Plants the bugs of issue 14 one at a time in a scratch copy of the repository and runs the
// tests that must catch each one (the table in docs/dev/mutation.md, "Planted bugs"):
//   npm run plant-bugs [-- 3 8b …]      (no ids: all of them)
// Prints, for each bug, `bug N (what): caught by <failing tests>` or `NOT CAUGHT`, then
// `N caught, N not caught`. Exits 1 if a bug is not caught or cannot be planted (its text
// is gone from the file), or if its tests fail on the unmodified copy (then a failure would
// not be the bug's). Not part of npm test: it re-runs suites, minutes on two cores.
//
// How: the files `git ls-files` lists (working-tree contents) are copied to a temp dir, with
// node_modules linked in (the data the tests read is in the repository). Every bug's tests run
// once on the unmodified copy; then each bug is one exact text replacement, its tests run,
// and the file is put back. dist/ is built in the copy only when a test file needs it (it
// calls ensureBuilt() or names dist/); it stays the unmodified build: the planted file keeps
// its old mtime so ensureBuilt() does not rebuild with each bug. A test that sees the code
// only through dist/ (the compiled CLI, the worker pool's handlers) therefore never sees a
// bug: only tests that import src/ (or run python/) count, as in that table.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/**
 * One bug: `find` must occur exactly once in `file`; it is replaced by `replace` (the smallest
 * edit that is the bug). `tests`: vitest files, or python unittest modules (`tests.test_x`,
 * run through python/run_tests.py -k).
 */
const BUGS = [
  {
    id: '1',
    what: 'DEL (0x7f) not escaped in strings of 16+ characters',
    file: 'src/semantics/json.ts',
    find: String.raw`const NEEDS_ESCAPE = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;`,
    replace: String.raw`const NEEDS_ESCAPE = /[^\x20\x21\x23-\x5b\x5d-\x7f]/;`,
    tests: ['test/semantics/json.test.ts'],
  },
  {
    id: '2',
    what: 'an exit token accepted before any state',
    file: 'src/semantics/parse.ts',
    find: ' && out.states.length > 0)',
    replace: ')',
    tests: ['test/semantics/parse.test.ts'],
  },
  {
    id: '3',
    what: 'the trace header left out of the ingest content hash',
    file: 'src/store/ingest.ts',
    find: "pending: headerLine(h) + '\\n'",
    replace: "pending: ''",
    tests: ['test/store/canonical.test.ts'],
  },
  {
    id: '4',
    what: 'a slow-path event whose parent is its own seq accepted',
    file: 'src/store/validate.ts',
    find: '(parent as number) < seq)',
    replace: '(parent as number) <= seq)',
    tests: ['test/store/ingest.test.ts'],
  },
  {
    id: '5',
    what: 'the migration guard not noticing a protected table dropped outright',
    file: 'src/store/migrate.ts',
    find: 'if (now === undefined || now < n)',
    replace: 'if (now !== undefined && now < n)',
    tests: ['test/store/migration-guard.test.ts'],
  },
  {
    id: '6',
    what: 'the integer validator not checking the minimum',
    file: 'src/contract/validate.ts',
    find: 'if (v < min || v > max)',
    replace: 'if (v > max)',
    tests: ['test/api/limits.test.ts'],
  },
  {
    id: '7',
    what: 'the loopback Host check losing its end anchor',
    file: 'src/server/server.ts',
    find: String.raw`(:\d+)?$/i;`,
    replace: String.raw`(:\d+)?/i;`,
    tests: ['test/server/browser-guards.test.ts'],
  },
  {
    id: '8',
    what: 'X-Frame-Options removed',
    file: 'src/server/headers.ts',
    find: "  res.setHeader('X-Frame-Options', 'DENY');\n",
    replace: '',
    tests: ['test/server/browser-guards.test.ts'],
  },
  {
    id: '8b',
    what: "frame-ancestors 'none' removed from the CSP",
    file: 'src/contract/transport.ts',
    find: `  "frame-ancestors 'none'",\n`,
    replace: '',
    tests: ['test/server/browser-guards.test.ts', 'test/api/contract.test.ts'],
  },
  {
    id: '9',
    what: 'the JSON Content-Type check losing its start anchor',
    file: 'src/server/server.ts',
    find: String.raw`/^application\/json\b/i`,
    replace: String.raw`/application\/json\b/i`,
    tests: ['test/server/browser-guards.test.ts'],
  },
  {
    id: '10',
    what: 'the recorder cutting a repr of exactly limit characters',
    file: 'python/stepscope_recorder/values.py',
    find: 'if len(text) > self.limit:',
    replace: 'if len(text) >= self.limit:',
    tests: ['tests.test_golden', 'tests.test_values'],
  },
  // Issue 31: three bugs an audit planted that the suite missed.
  {
    id: '11',
    what: "the import's idempotency hash taken over the file's path instead of its bytes",
    file: 'src/predictions/read-file.ts',
    find: "createHash('sha256').update(bytes)",
    replace: "createHash('sha256').update(path)",
    tests: ['test/predictions/import.test.ts'],
  },
  {
    id: '12',
    what: "the dashboard's cache key ignoring pending execution checks",
    file: 'src/api/handlers/dashboard.ts',
    find: '`${run.created}/${run.predictions}/${run.pending}`',
    replace: '`${run.created}/${run.predictions}`',
    tests: ['test/api/dashboard-pending.test.ts'],
  },
  {
    id: '13',
    what: "inv_step_call climbing to the parent's plain copy instead of its inverse copy",
    file: 'src/semantics/scope.ts',
    find: '      cur = 2 * p + 1;',
    replace: '      cur = 2 * p;',
    tests: ['test/semantics/send-resume.test.ts'],
  },
];

const isPython = (t) => !t.includes('/');

function main() {
  const ids = process.argv.slice(2);
  if (ids.includes('--help') || ids.includes('-h')) {
    console.log(`usage: npm run plant-bugs [-- ID …]   (IDs: ${BUGS.map((b) => b.id).join(' ')})`);
    return 0;
  }
  const unknown = ids.filter((id) => !BUGS.some((b) => b.id === id));
  if (unknown.length) {
    console.error(`unknown bug ${unknown.join(', ')}; the bugs are ${BUGS.map((b) => b.id).join(' ')}`);
    return 2;
  }
  const bugs = ids.length ? BUGS.filter((b) => ids.includes(b.id)) : BUGS;

  const tmp = mkdtempSync(join(tmpdir(), 'stepscope-plant-'));
  try {
    return run(bugs, copyRepo(tmp));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function copyRepo(tmp) {
  const copy = join(tmp, 'repo');
  const files = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .stdout.split('\0')
    .filter(Boolean);
  for (const f of files) {
    const from = join(root, f);
    if (!existsSync(from) || !statSync(from).isFile()) continue; // deleted, or a submodule
    mkdirSync(dirname(join(copy, f)), { recursive: true });
    copyFileSync(from, join(copy, f));
  }
  // node_modules: each entry symlinked, but not .vite (vitest's cache and optimized deps),
  // so that runs in the copy do not rewrite the cache of vitest runs in the repository.
  mkdirSync(join(copy, 'node_modules'));
  for (const e of readdirSync(join(root, 'node_modules'))) {
    if (e !== '.vite') symlinkSync(join(root, 'node_modules', e), join(copy, 'node_modules', e));
  }
  console.log(`copied ${files.length} files to ${copy}`);
  return copy;
}

function run(bugs, copy) {
  const results = []; // { bug, outcome: 'caught' | 'not caught' | 'not planted' | 'broken', failed }

  // Refuse a bug whose text is gone before spending any time on tests.
  const plantable = [];
  for (const bug of bugs) {
    const path = join(copy, bug.file);
    const n = existsSync(path) ? readFileSync(path, 'utf8').split(bug.find).length - 1 : 0;
    if (n === 1) plantable.push(bug);
    else {
      const why =
        n === 0
          ? `the text to replace is not in ${bug.file} any more`
          : `the text to replace is in ${bug.file} ${n} times, not once`;
      console.log(`bug ${bug.id}: ${why}`);
      results.push({ bug, outcome: 'not planted' });
    }
  }

  const allTests = [...new Set(plantable.flatMap((b) => b.tests))];
  if (allTests.some((t) => !isPython(t) && /ensureBuilt\(|\bdist\//.test(readFileSync(join(copy, t), 'utf8')))) {
    console.log('building dist/ in the copy (a test file needs it)');
    const r = spawnSync('nice', ['-n', '5', 'npm', 'run', '--silent', 'build:core'], { cwd: copy, encoding: 'utf8' });
    if (r.status !== 0) {
      console.error(`npm run build:core failed in the copy:\n${r.stdout}${r.stderr}`);
      return 1;
    }
  }

  if (allTests.length) console.log(`unmodified copy: ${allTests.join(' ')}`);
  const base = runTests(copy, allTests);
  for (const bug of plantable.slice()) {
    const broken = base.filter((f) => bug.tests.includes(f.spec));
    if (broken.length) {
      console.log(
        `bug ${bug.id}: its tests fail without it, so a failure would not be the bug's: ${broken.map(show).join('; ')}`,
      );
      results.push({ bug, outcome: 'broken' });
      plantable.splice(plantable.indexOf(bug), 1);
    }
  }

  for (const bug of plantable) {
    const path = join(copy, bug.file);
    const original = readFileSync(path, 'utf8');
    const { atime, mtime } = statSync(path);
    writeFileSync(
      path,
      original.replace(bug.find, () => bug.replace),
    );
    utimesSync(path, atime, mtime); // see the header: ensureBuilt() must not rebuild dist/
    let failed;
    try {
      failed = runTests(copy, bug.tests);
    } finally {
      writeFileSync(path, original);
      utimesSync(path, atime, mtime);
    }
    const outcome = failed.length ? 'caught' : 'not caught';
    console.log(
      `bug ${bug.id} (${bug.what}): ${failed.length ? `caught by ${failed.map(show).join('; ')}` : 'NOT CAUGHT'}`,
    );
    results.push({ bug, outcome, failed });
  }

  const count = (o) => results.filter((r) => r.outcome === o).length;
  const extra = [
    count('not planted') && `${count('not planted')} could not be planted`,
    count('broken') && `${count('broken')} not tried (their tests fail on the unmodified copy)`,
  ].filter(Boolean);
  console.log(
    `${count('caught')} caught, ${count('not caught')} not caught${extra.length ? ', ' + extra.join(', ') : ''}`,
  );
  return count('caught') === bugs.length ? 0 : 1;
}

/** `file › test` for a failed test; a file that failed as a whole (a hook, an import) says so. */
const show = (f) => (f.test ? `${f.file} › ${f.test}` : `${f.file} (the file failed: ${f.message})`);

/** Runs vitest files and python modules in the copy; returns what failed (`spec`: which of `tests`). */
function runTests(copy, tests) {
  const failed = [];
  const vitest = tests.filter((t) => !isPython(t));
  const python = tests.filter(isPython);
  const env = {
    ...process.env,
    PYTHONDONTWRITEBYTECODE: '1', // a planted .py file keeps its mtime: no stale .pyc
  };
  if (vitest.length) {
    const out = join(copy, '..', 'vitest.json');
    rmSync(out, { force: true });
    const r = spawnSync(
      'nice',
      ['-n', '5', join(copy, 'node_modules/.bin/vitest'), 'run', '--reporter=json', `--outputFile=${out}`, ...vitest],
      {
        cwd: copy,
        env,
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      },
    );
    if (!existsSync(out)) {
      for (const file of vitest)
        failed.push({
          spec: file,
          file,
          message: `vitest wrote no report (exit ${r.status}): ${lastLine(r.stderr || r.stdout)}`,
        });
    } else {
      const report = JSON.parse(readFileSync(out, 'utf8'));
      const seen = new Set();
      for (const tr of report.testResults) {
        const file = relative(copy, tr.name);
        seen.add(file);
        const bad = tr.assertionResults.filter((a) => a.status === 'failed');
        for (const a of bad) failed.push({ spec: file, file, test: [...a.ancestorTitles, a.title].join(' › ') });
        if (!bad.length && tr.status === 'failed') failed.push({ spec: file, file, message: lastLine(tr.message) });
      }
      for (const file of vitest)
        if (!seen.has(file)) failed.push({ spec: file, file, message: 'vitest did not run it' });
    }
  }
  if (python.length) {
    const args = ['-n', '5', 'python3', 'python/run_tests.py', ...python.flatMap((m) => ['-k', m + '.'])];
    const r = spawnSync('nice', args, { cwd: copy, env, encoding: 'utf8', maxBuffer: 64 << 20 });
    // unittest heads each failure `FAIL: test_x (tests.test_values.Cutting.test_x)`.
    const heads = [...r.stderr.matchAll(/^(FAIL|ERROR): (\S+) \((\S+)\)/gm)];
    for (const [, , , id] of heads) {
      const mod = python.find((m) => id.startsWith(m + '.')) ?? id;
      failed.push({ spec: mod, file: `python/${mod.replace(/\./g, '/')}.py`, test: id.slice(mod.length + 1) });
    }
    // run_tests.py exits 1 also when nothing ran (a module renamed away).
    if (r.status !== 0 && !heads.length)
      for (const m of python) failed.push({ spec: m, file: m, message: lastLine(r.stderr || r.stdout) });
  }
  return failed;
}

const lastLine = (s) =>
  String(s ?? '')
    .trim()
    .split('\n')
    .filter(Boolean)
    .slice(-1)[0] ?? '';

process.exitCode = main();
