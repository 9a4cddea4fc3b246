// The packaging step of electron-builder.yml (scripts/after-pack.mjs): where it finds a packed
// app's resources (the unpacked better-sqlite3, the recorder) and the binary whose fuses it
// flips, on each platform; and the whole step on a packed app folder, with better-sqlite3's
// prebuilt binary for Electron taken from prebuild-install's cache (no network here).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import afterPack, { packedPaths, prebuildArgs } from '../../scripts/after-pack.mjs';
import { repoRoot } from '../cli/helpers.js';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';

afterAll(cleanTempDirs);

const packager = { appInfo: { productFilename: 'Stepscope' }, executableName: 'stepscope' };

describe('packedPaths', () => {
  it('Linux: resources/ beside the executable, named after linux.executableName', () => {
    expect(packedPaths({ appOutDir: '/r/linux-unpacked', electronPlatformName: 'linux', packager })).toEqual({
      resources: join('/r/linux-unpacked', 'resources'),
      executable: join('/r/linux-unpacked', 'stepscope'),
    });
  });

  it('Windows: resources/ beside the product-named .exe', () => {
    expect(packedPaths({ appOutDir: '/r/win-unpacked', electronPlatformName: 'win32', packager })).toEqual({
      resources: join('/r/win-unpacked', 'resources'),
      executable: join('/r/win-unpacked', 'Stepscope.exe'),
    });
  });

  it('macOS: Contents/Resources inside the .app bundle, and the bundle for the fuses', () => {
    expect(packedPaths({ appOutDir: '/r/mac-arm64', electronPlatformName: 'darwin', packager })).toEqual({
      resources: join('/r/mac-arm64', 'Stepscope.app', 'Contents', 'Resources'),
      executable: join('/r/mac-arm64', 'Stepscope.app'),
    });
  });
});

describe('prebuildArgs', () => {
  it("asks for Electron's runtime at the given version, platform and arch", () => {
    const args = prebuildArgs('45.5.0', 'darwin', 'arm64');
    const value = (flag: string) => args[args.indexOf(flag) + 1];
    const asked = [value('--runtime'), value('--target'), value('--platform'), value('--arch')];
    expect(asked).toEqual(['electron', '45.5.0', 'darwin', 'arm64']);
  });
});

describe('afterPack', () => {
  it("puts the prebuilt Electron binary into the packed better-sqlite3 only, then flips the app's fuses", async () => {
    const tmp = tempDir('stepscope-after-pack-');
    const appOutDir = join(tmp, 'linux-unpacked');
    const module = join(appOutDir, 'resources/app.asar.unpacked/node_modules/better-sqlite3');
    const node = join(module, 'build/Release/better_sqlite3.node');
    mkdirSync(join(module, 'build/Release'), { recursive: true });
    copyFileSync(join(repoRoot, 'node_modules/better-sqlite3/package.json'), join(module, 'package.json'));
    writeFileSync(node, 'the build for plain Node');
    // A binary with Electron's fuse wire (as in fuses.test.ts): version 1, 8 fuses, all off.
    const sentinel = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
    const exe = join(appOutDir, 'stepscope');
    const wire0 = [Buffer.from(sentinel), Buffer.from([1, 8]), Buffer.from('00000000')];
    writeFileSync(exe, Buffer.concat([Buffer.from('\x7fELF'), ...wire0]));

    // prebuild-install's cache entry for the asset it will ask for (util.js, cachedPrebuild).
    const version = '45.5.0';
    const nodeAbi = createRequire(import.meta.url)('node-abi') as { getAbi(target: string, runtime: string): string };
    const abi = nodeAbi.getAbi(version, 'electron');
    const sqlite = JSON.parse(readFileSync(join(module, 'package.json'), 'utf8')).version as string;
    const asset = `better-sqlite3-v${sqlite}-electron-v${abi}-linux-x64.tar.gz`;
    const url = `https://github.com/WiseLibs/better-sqlite3/releases/download/v${sqlite}/${asset}`;
    const cache = join(tmp, 'npm-cache');
    const digest = createHash('sha512').update(url).digest('hex').slice(0, 6);
    mkdirSync(join(cache, '_prebuilds'), { recursive: true });
    const staged = join(tmp, 'asset');
    mkdirSync(join(staged, 'build/Release'), { recursive: true });
    writeFileSync(join(staged, 'build/Release/better_sqlite3.node'), 'the prebuilt binary for Electron');
    const tar = spawnSync('tar', ['-czf', join(cache, '_prebuilds', `${digest}-${asset}`), '-C', staged, 'build']);
    expect(tar.status).toBe(0);

    const projectNode = join(repoRoot, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    const before = readFileSync(projectNode);
    const old = process.env.npm_config_cache;
    process.env.npm_config_cache = cache;
    try {
      const config = { electronVersion: version };
      await afterPack({ appOutDir, electronPlatformName: 'linux', arch: 1, packager: { ...packager, config } });
    } finally {
      if (old === undefined) delete process.env.npm_config_cache;
      else process.env.npm_config_cache = old;
    }
    expect(readFileSync(node, 'utf8')).toBe('the prebuilt binary for Electron');
    expect(readFileSync(projectNode).equals(before)).toBe(true);
    const bytes = readFileSync(exe);
    const wire = bytes.subarray(bytes.indexOf(sentinel) + sentinel.length + 2).toString();
    // RunAsNode off, cookie encryption on, NODE_OPTIONS off, --inspect off, ASAR integrity on,
    // ASAR only on, the V8 snapshot fuse untouched, file:// privileges off (scripts/fuses.mjs).
    expect(wire.slice(0, 8)).toBe('01001100');
  });
});
