// scripts/electron-native.mjs: the Electron-ABI build of better-sqlite3 that npm start makes
// before launching the desktop app. node-gyp is replaced by small scripts (a real build needs
// Electron's headers from the network); a failure must give one short line and leave nothing.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureElectronSqlite, failureReason, findNodeGyp } from '../../scripts/electron-native.mjs';

const root = resolve(import.meta.dirname, '../..');
const nodeBuild = join(root, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'stepscope-native-test-'));
  made.push(d);
  return d;
}

/** A stand-in for node-gyp: logs its cwd and argv to `log`, then runs `body`. */
function fakeNodeGyp(dir: string, body: string): { script: string; log: string } {
  const script = join(dir, 'node-gyp.mjs');
  const log = join(dir, 'calls.jsonl');
  writeFileSync(
    script,
    `import { appendFileSync, existsSync, mkdirSync, writeFileSync, copyFileSync } from 'node:fs';\n` +
      `appendFileSync(${JSON.stringify(log)}, JSON.stringify({ cwd: process.cwd(), argv: process.argv.slice(2), hadBuild: existsSync('build'), hasGyp: existsSync('binding.gyp') }) + '\\n');\n` +
      body,
  );
  return { script, log };
}
const calls = (log: string) =>
  existsSync(log)
    ? readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
    : [];

// What node-gyp printed here, where electronjs.org is unreachable (trimmed).
const NETWORK_FAILURE = [
  'gyp http GET https://electronjs.org/headers/v45.5.0/node-v45.5.0-headers.tar.gz',
  'gyp WARN install got an error, rolling back install',
  'gyp ERR! configure error ',
  'gyp ERR! stack Error: This is most likely not a problem with node-gyp or the package itself and',
  'gyp ERR! stack is related to network connectivity. In most cases you are behind a proxy or have bad',
  'gyp ERR! stack network settings.',
  'gyp ERR! stack at go (/usr/lib/node_modules/npm/node_modules/node-gyp/lib/install.js:244:21)',
  'gyp ERR! not ok ',
].join('\n');

describe('ensureElectronSqlite', () => {
  it('a failing build reports one short line and leaves no .node file, partial file or work folder', () => {
    const dir = temp();
    const cacheDir = join(dir, 'cache');
    const gyp = fakeNodeGyp(
      dir,
      `mkdirSync('build/Release', { recursive: true }); writeFileSync('build/Release/better_sqlite3.node', 'half');\n` +
        `process.stderr.write(${JSON.stringify(NETWORK_FAILURE)}); process.exit(1);\n`,
    );
    const notices: string[] = [];
    const r = ensureElectronSqlite({
      root,
      electronVersion: '99.0.0-test',
      nodeGyp: gyp.script,
      cacheDir,
      onBuild: (v: string) => notices.push(v),
    });
    expect(r).toEqual({
      error: "could not download Electron's headers from https://electronjs.org/headers (no network access?)",
      electronVersion: '99.0.0-test',
    });
    expect(notices).toEqual(['99.0.0-test']);
    const [call] = calls(gyp.log);
    expect(call.argv).toEqual([
      'rebuild',
      '--release',
      '--runtime=electron',
      '--target=99.0.0-test',
      '--dist-url=https://electronjs.org/headers',
    ]);
    expect(call).toMatchObject({ hadBuild: false, hasGyp: true }); // a clean copy, without the Node build
    expect(existsSync(call.cwd)).toBe(false);
    expect(
      existsSync(cacheDir) ? readdirSync(cacheDir, { recursive: true }).filter((f) => String(f).includes('.node')) : [],
    ).toEqual([]);
  });

  it('a successful build lands at <cache>/<version>/better_sqlite3.node, and is reused afterwards', () => {
    const dir = temp();
    const cacheDir = join(dir, 'cache');
    const gyp = fakeNodeGyp(
      dir,
      `mkdirSync('build/Release', { recursive: true }); copyFileSync(${JSON.stringify(nodeBuild)}, 'build/Release/better_sqlite3.node');\n`,
    );
    const opts = { root, electronVersion: '99.0.0-test', nodeGyp: gyp.script, cacheDir };
    const target = join(cacheDir, '99.0.0-test', 'better_sqlite3.node');
    expect(ensureElectronSqlite(opts)).toEqual({ path: target, electronVersion: '99.0.0-test' });
    expect(readFileSync(target).equals(readFileSync(nodeBuild))).toBe(true);
    expect(readdirSync(join(cacheDir, '99.0.0-test')).sort()).toEqual([
      'better-sqlite3.version',
      'better_sqlite3.node',
    ]);
    expect(ensureElectronSqlite(opts)).toEqual({ path: target, electronVersion: '99.0.0-test' });
    expect(calls(gyp.log)).toHaveLength(1);
    expect(existsSync(calls(gyp.log)[0].cwd)).toBe(false);
    // Made for another better-sqlite3 version: built again.
    writeFileSync(join(cacheDir, '99.0.0-test', 'better-sqlite3.version'), '0.0.1\n');
    expect(ensureElectronSqlite(opts).path).toBe(target);
    expect(calls(gyp.log)).toHaveLength(2);
  });

  it('without node-gyp it says so', () => {
    const dir = temp();
    const r = ensureElectronSqlite({
      root,
      electronVersion: '99.0.0-test',
      nodeGyp: join(dir, 'missing.js'),
      cacheDir: join(dir, 'cache'),
    });
    expect(r.error).toBe('node-gyp not found (it ships with npm; is npm installed?)');
  });

  it("finds npm's bundled node-gyp on this machine", () => {
    const found = findNodeGyp({ PATH: process.env.PATH });
    expect(found).toMatch(/node-gyp[\\/]bin[\\/]node-gyp\.js$/);
    expect(existsSync(found!)).toBe(true);
    expect(findNodeGyp({ STEPSCOPE_NODE_GYP: '/x/gyp.js' })).toBe('/x/gyp.js');
  });
});

describe('failureReason', () => {
  it('keeps the first line that says what went wrong', () => {
    expect(failureReason(NETWORK_FAILURE, 1)).toMatch(/^could not download Electron's headers/);
    expect(
      failureReason(
        'gyp info ok\ngyp ERR! stack Error: `make` failed with exit code: 2\ngyp ERR! stack at ChildProcess.<anonymous> (x.js:1:1)\n',
        1,
      ),
    ).toBe('`make` failed with exit code: 2');
    expect(
      failureReason(
        '../src/better_sqlite3.cpp:4:10: fatal error: node.h: No such file or directory\ngyp ERR! stack Error: `make` failed with exit code: 2\n',
        1,
      ),
    ).toBe('../src/better_sqlite3.cpp:4:10: fatal error: node.h: No such file or directory');
    expect(failureReason('', 'SIGKILL')).toBe('node-gyp exited with SIGKILL');
    expect(failureReason(`gyp ERR! stack Error: ${'x'.repeat(300)}`, 1)).toHaveLength(160);
  });
});
