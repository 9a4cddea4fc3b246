// better-sqlite3 for Electron. node_modules holds a build for plain Node's ABI (the tests and
// the CLI need it); Electron's main process cannot load that one. ensureElectronSqlite()
// builds a copy for Electron's ABI once, into .stepscope/electron-native/<electron version>/,
// and returns its path for the app's `nativeBinding` (main/index.ts, --sqlite-binding).
//
// The build runs npm's bundled node-gyp on a temporary copy of node_modules/better-sqlite3,
// so the Node build stays as it is. It needs a C++ toolchain, Python and network access to
// Electron's headers (https://electronjs.org/headers). The .node file is moved into place
// only when complete: a failed build leaves nothing behind.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';

const readVersion = (pkgJson) => JSON.parse(readFileSync(pkgJson, 'utf8')).version;

/** npm's bundled node-gyp (bin/node-gyp.js), or null. STEPSCOPE_NODE_GYP overrides (tests). */
export function findNodeGyp(env = process.env) {
  if (env.STEPSCOPE_NODE_GYP) return env.STEPSCOPE_NODE_GYP;
  const tail = join('node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  // Under `npm start`, npm_execpath is npm's own bin/npm-cli.js.
  if (env.npm_execpath) {
    const viaNpm = join(dirname(dirname(env.npm_execpath)), tail);
    if (existsSync(viaNpm)) return viaNpm;
  }
  const r = spawnSync('npm', ['prefix', '-g'], { encoding: 'utf8', shell: process.platform === 'win32' });
  const prefix = r.status === 0 ? r.stdout.trim() : '';
  if (prefix) {
    for (const npmDir of [join(prefix, 'lib', 'node_modules', 'npm'), join(prefix, 'node_modules', 'npm')]) {
      if (existsSync(join(npmDir, tail))) return join(npmDir, tail);
    }
  }
  return null;
}

/** One short line out of node-gyp's output saying why it failed. */
export function failureReason(output, status) {
  if (/network connectivity|ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN/.test(output)) {
    return "could not download Electron's headers from https://electronjs.org/headers (no network access?)";
  }
  const lines = output.split(/\r?\n/);
  const stack = [];
  for (const l of lines) {
    const m = /ERR! stack (.*)/.exec(l);
    if (!m) continue;
    if (/^\s*at /.test(m[1])) break;
    stack.push(m[1].trim());
  }
  const compiler = lines.find((l) => /\berror:/.test(l) && !l.includes('ERR!'));
  const why = (compiler ?? stack.join(' ')).replace(/^Error:\s*/, '').trim() || `node-gyp exited with ${status}`;
  return why.length > 160 ? `${why.slice(0, 159)}…` : why;
}

/**
 * Returns { path, electronVersion } of an Electron-ABI better_sqlite3.node (building it when
 * missing or made for another better-sqlite3 version), or { error, electronVersion } with a
 * one-line reason.
 *
 * Options: root (the repo), electronVersion (default: node_modules/electron's), nodeGyp
 * (script path; default findNodeGyp(), or STEPSCOPE_NODE_GYP), cacheDir (default
 * ROOT/.stepscope/electron-native, or STEPSCOPE_ELECTRON_NATIVE_DIR), onBuild (called before
 * a build starts, for a notice), env.
 */
export function ensureElectronSqlite(opts) {
  const env = opts.env ?? process.env;
  const source = join(opts.root, 'node_modules', 'better-sqlite3');
  let electronVersion, sqliteVersion;
  try {
    electronVersion = opts.electronVersion ?? readVersion(join(opts.root, 'node_modules', 'electron', 'package.json'));
    sqliteVersion = readVersion(join(source, 'package.json'));
  } catch (e) {
    return { error: `cannot read the installed versions (${e.message.split('\n')[0]})`, electronVersion };
  }
  const dir = join(
    opts.cacheDir ?? env.STEPSCOPE_ELECTRON_NATIVE_DIR ?? join(opts.root, '.stepscope', 'electron-native'),
    electronVersion,
  );
  const target = join(dir, 'better_sqlite3.node');
  const stamp = join(dir, 'better-sqlite3.version');
  if (existsSync(target) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === sqliteVersion)
    return { path: target, electronVersion };

  const nodeGyp = opts.nodeGyp ?? findNodeGyp(env);
  if (!nodeGyp || !existsSync(nodeGyp))
    return { error: 'node-gyp not found (it ships with npm; is npm installed?)', electronVersion };
  opts.onBuild?.(electronVersion);
  const error = build(source, electronVersion, nodeGyp, env, target);
  if (error) return { error, electronVersion };
  writeFileSync(stamp, `${sqliteVersion}\n`);
  return { path: target, electronVersion };
}

/** Builds into a temporary copy and moves the result to `target`; returns an error line or null. */
function build(source, electronVersion, nodeGyp, env, target) {
  const work = mkdtempSync(join(tmpdir(), 'stepscope-sqlite-electron-'));
  const partial = `${target}.partial-${process.pid}`;
  try {
    const oldBuild = join(source, 'build');
    cpSync(source, work, { recursive: true, filter: (p) => p !== oldBuild && !p.startsWith(oldBuild + sep) });
    const r = spawnSync(
      process.execPath,
      [
        nodeGyp,
        'rebuild',
        '--release',
        '--runtime=electron',
        `--target=${electronVersion}`,
        '--dist-url=https://electronjs.org/headers',
      ],
      { cwd: work, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 20 * 60 * 1000, env },
    );
    if (r.error) return `node-gyp did not run (${r.error.message})`;
    if (r.status !== 0) return failureReason(`${r.stdout}\n${r.stderr}`, r.status ?? r.signal);
    const built = join(work, 'build', 'Release', 'better_sqlite3.node');
    if (!existsSync(built)) return 'node-gyp succeeded but build/Release/better_sqlite3.node is missing';
    mkdirSync(dirname(target), { recursive: true });
    cpSync(built, partial);
    renameSync(partial, target);
    return null;
  } catch (e) {
    return e.message.split('\n')[0];
  } finally {
    rmSync(partial, { force: true });
    rmSync(work, { recursive: true, force: true });
  }
}
