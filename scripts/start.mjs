#!/usr/bin/env node
// `npm start`: build what is stale, make sure the workspace corpus exists (seeded from the
// demo programs on first run), then open the desktop app on it. Where Electron cannot start
// (its binary is not installed, there is no display, or better-sqlite3 cannot be built for
// Electron's ABI: see electron-native.mjs) say why in ONE line and serve the web UI on the
// same corpus instead, printing its URL.
//
// Options: --db PATH (another corpus), --web (skip Electron), --port P (web mode, default 7420;
// 0 = any), --no-build (use what is built as is).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureElectronSqlite } from './electron-native.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const db = resolve(opt('--db') ?? join(root, '.stepscope', 'workspace.db'));
const port = opt('--port') ?? '7420';

function newest(path) {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = 0;
  for (const e of readdirSync(path)) if (e !== 'node_modules') m = Math.max(m, newest(join(path, e)));
  return m;
}

function run(cmd, argv, what) {
  const r = spawnSync(cmd, argv, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    console.error(`start: ${what} failed (exit ${r.status ?? r.signal}).`);
    process.exit(1);
  }
}

// 1. Builds, only when the sources are newer than the output.
const build = !args.includes('--no-build');
if (build && newest(join(root, 'src')) > newest(join(root, 'dist')))
  run('npm', ['run', '--silent', 'build:core'], 'building the core (npm run build:core)');
const uiSources = Math.max(
  ...[
    'renderer',
    'main',
    'src/api',
    'src/semantics',
    'src/trace',
    'src/common',
    'src/store',
    'src/trajectories',
    'electron.vite.config.ts',
  ].map((p) => newest(join(root, p))),
);
if (build && uiSources > newest(join(root, 'out')))
  run(join(root, 'node_modules/.bin/electron-vite'), ['build'], 'building the app (npm run build)');

// 2. The workspace corpus, seeded from the demo programs on first run.
if (!existsSync(db)) {
  mkdirSync(dirname(db), { recursive: true });
  console.log(`start: creating the workspace corpus ${db} from the demo programs…`);
  run(
    process.execPath,
    [join(root, 'bin/stepscope.js'), 'demo', '--db', db],
    'seeding the workspace corpus (stepscope demo)',
  );
}

// 3. Electron, when it can run here.
function electronBlocker() {
  if (args.includes('--web')) return 'web mode asked for (--web)';
  const pkg = join(root, 'node_modules/electron');
  if (!existsSync(pkg)) return 'Electron is not installed (node_modules/electron is missing)';
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const pathTxt = join(pkg, 'path.txt');
  const bin = override
    ? join(override, 'electron')
    : existsSync(pathTxt)
      ? join(pkg, 'dist', readFileSync(pathTxt, 'utf8').trim())
      : null;
  if (!bin || !existsSync(bin))
    return "Electron's binary is not installed (it is downloaded on first launch, and this machine cannot fetch it)";
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)';
  // Last, as it may be slow: a build of better-sqlite3 for Electron's ABI (once per version).
  const sqlite = ensureElectronSqlite({
    root,
    onBuild: (v) =>
      console.log(`start: building better-sqlite3 for Electron ${v} (first launch only; a minute or two)…`),
  });
  if (sqlite.error)
    return `cannot build better-sqlite3 for Electron ${sqlite.electronVersion ?? '(unknown version)'}: ${sqlite.error}`;
  return { bin, sqliteBinding: sqlite.path };
}

const blocker = electronBlocker();
if (typeof blocker === 'object') {
  const child = spawn(blocker.bin, [root, '--db', db, '--sqlite-binding', blocker.sqliteBinding], {
    cwd: root,
    stdio: 'inherit',
  });
  child.on('exit', (code) => process.exit(code ?? 0));
} else {
  console.log(`start: cannot open the desktop app: ${blocker}; serving the web UI instead.`);
  const child = spawn(process.execPath, [join(root, 'bin/stepscope.js'), 'serve', '--db', db, '--port', port], {
    cwd: root,
    stdio: 'inherit',
  });
  const stop = () => child.kill('SIGTERM');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  child.on('exit', (code) => process.exit(code ?? 0));
}
