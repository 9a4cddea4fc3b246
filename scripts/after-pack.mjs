// electron-builder's afterPack step (electron-builder.yml): runs on each packed app folder,
// before it becomes an AppImage, deb, dmg or installer and before signing.
//
// 1. better-sqlite3 for Electron. The packed copy of node_modules/better-sqlite3 (beside the
//    asar, in app.asar.unpacked) still holds the build for plain Node's ABI that the CLI and
//    the tests use. Its .node file is replaced by better-sqlite3's published prebuilt binary
//    for Electron's ABI and the target's platform and arch, fetched by prebuild-install (what
//    better-sqlite3's own install runs; cached in ~/.npm/_prebuilds). Nothing is compiled, and
//    the project's node_modules is not touched. No prebuilt binary (no network, or none
//    published for this Electron): packaging fails, naming the file it looked for.
// 2. Electron's fuses, flipped on the packaged binary (scripts/fuses.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { applyFuses } from './fuses.mjs';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
/** electron-builder's Arch enum, by number (builder-util). */
const ARCHES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

/** The packed app's resources folder and the path fuses.mjs takes (its executable, or the .app bundle). */
export function packedPaths({ appOutDir, electronPlatformName, packager }) {
  const name = packager.appInfo.productFilename;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas') {
    const bundle = join(appOutDir, `${name}.app`);
    return { resources: join(bundle, 'Contents', 'Resources'), executable: bundle };
  }
  const exe = electronPlatformName === 'win32' ? `${name}.exe` : packager.executableName;
  return { resources: join(appOutDir, 'resources'), executable: join(appOutDir, exe) };
}

/** prebuild-install's arguments for Electron `version` on `platform`/`arch`. */
export function prebuildArgs(version, platform, arch) {
  return ['--runtime', 'electron', '--target', version, '--platform', platform, '--arch', arch, '--verbose'];
}

function electronVersion(packager) {
  const installed = join(root, 'node_modules/electron/package.json');
  return packager.config.electronVersion ?? JSON.parse(readFileSync(installed, 'utf8')).version;
}

function installPrebuiltSqlite(resources, version, platform, arch) {
  const module = join(resources, 'app.asar.unpacked', 'node_modules', 'better-sqlite3');
  const node = join(module, 'build', 'Release', 'better_sqlite3.node');
  if (!existsSync(join(module, 'package.json'))) {
    throw new Error(`after-pack: ${module} is missing (asarUnpack in electron-builder.yml)`);
  }
  const before = existsSync(node) ? readFileSync(node) : null;
  // npm run passes the user's npm config as npm_config_*; prebuild-install would take a runtime,
  // target or build-from-source from there over its defaults: only the arguments given here count.
  const chosen = /^npm_config_(runtime|target|arch|platform|libc|build_from_source|download|local_prebuilds)$/i;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !chosen.test(k)));
  const bin = require.resolve('prebuild-install/bin.js', { paths: [join(root, 'node_modules/better-sqlite3')] });
  const args = [bin, ...prebuildArgs(version, platform, arch)];
  const r = spawnSync(process.execPath, args, { cwd: module, env, encoding: 'utf8' });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  // prebuild-install may exit 0 having installed nothing: the file must have changed.
  if (r.status !== 0 || !existsSync(node) || (before && readFileSync(node).equals(before))) {
    const url = /https:\/\/\S+\.tar\.gz/.exec(out)?.[0] ?? 'better-sqlite3 release assets';
    const warnings = out.split('\n').filter((l) => / (warn|ERR!) /.test(l));
    const exit =
      r.status === 0
        ? 'prebuild-install left the build for plain Node in place'
        : `prebuild-install exited with ${r.status ?? r.error?.message}`;
    const why = warnings.join('; ') || exit;
    const what = `better-sqlite3 for Electron ${version} ${platform}-${arch}`;
    throw new Error(`after-pack: no prebuilt ${what} (${url}): ${why}`);
  }
  console.log(`after-pack: better-sqlite3 for Electron ${version} ${platform}-${arch} installed (prebuilt)`);
}

export default async function afterPack(context) {
  const { resources, executable } = packedPaths(context);
  const platform = context.electronPlatformName === 'mas' ? 'darwin' : context.electronPlatformName;
  const arch = ARCHES[context.arch] ?? String(context.arch);
  installPrebuiltSqlite(resources, electronVersion(context.packager), platform, arch);
  const set = await applyFuses(executable);
  console.log(`after-pack: fuses of ${executable}: ${set.join(', ')}`);
}
