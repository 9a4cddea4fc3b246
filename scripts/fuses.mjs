#!/usr/bin/env node
// Flips Electron's fuses on a PACKAGED app's Electron binary: run at packaging time, after the
// app has been packed into resources/app.asar and before signing (an afterPack step of the
// packager, or by hand):
//
//   node scripts/fuses.mjs PATH   (the app's executable, or its .app bundle on macOS)
//
// Fuses are bits in the binary itself that no flag, environment variable or script can turn
// back at run time. The ones set (FUSES below):
//   RunAsNode off                              ELECTRON_RUN_AS_NODE cannot turn the app into a plain Node
//   EnableNodeOptionsEnvironmentVariable off   NODE_OPTIONS cannot inject code or flags
//   EnableNodeCliInspectArguments off          --inspect / --inspect-brk cannot attach a debugger
//   EnableCookieEncryption on                  cookies on disk are encrypted with the OS keychain
//   EnableEmbeddedAsarIntegrityValidation on   app.asar is checked against the hash in the binary
//   OnlyLoadAppFromAsar on                     the app loads from app.asar only, never a loose folder
//   GrantFileProtocolExtraPrivileges off       file:// pages get no extra powers (the renderer is app://)
// The utility process the app forks for its API is not affected: it is not RunAsNode.
//
// It never touches the development binary in node_modules/electron (`npm start` runs the app
// from its folder, which OnlyLoadAppFromAsar forbids), and refuses a path that is not an
// Electron binary. After flipping, it reads the fuses back and checks each one.
import { flipFuses, FuseV1Options, FuseVersion, getCurrentFuseWire } from '@electron/fuses';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The fuse configuration (exported for the tests). Fuses newer than @electron/fuses knows keep their defaults. */
export const FUSES = {
  version: FuseVersion.V1,
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
};

const USAGE =
  'usage: node scripts/fuses.mjs PATH-TO-PACKAGED-APP-EXECUTABLE (run at packaging time, on the packaged app)';

class FuseError extends Error {
  constructor(message, exitCode) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** Checks the path, flips the fuses, reads them back; throws a FuseError with one line. */
export async function applyFuses(path) {
  if (!path) throw new FuseError(USAGE, 2);
  const target = resolve(path);
  if (!existsSync(target)) throw new FuseError(`fuses: ${target} does not exist; ${USAGE}`, 2);
  const isBundle = target.endsWith('.app') && statSync(target).isDirectory();
  if (!isBundle && !statSync(target).isFile()) throw new FuseError(`fuses: ${target} is not a file; ${USAGE}`, 2);
  if (realpathSync(target).split(sep).join('/').includes('/node_modules/electron/')) {
    throw new FuseError(
      `fuses: ${target} is the development Electron in node_modules; flip the fuses of the packaged app's binary instead`,
      2,
    );
  }
  const darwin = isBundle || target.includes('.app/Contents/MacOS/');
  try {
    await flipFuses(target, { ...FUSES, resetAdHocDarwinSignature: darwin && process.arch === 'arm64' });
  } catch (e) {
    throw new FuseError(`fuses: cannot flip the fuses of ${target}: ${e.message}`, 1);
  }
  // The wire holds each fuse as the byte '0' or '1' (also 'r', removed).
  const wire = await getCurrentFuseWire(target);
  const byte = (on) => (on ? '1' : '0').charCodeAt(0);
  const wrong = Object.entries(FUSES)
    .filter(([k]) => k !== 'version')
    .filter(([k, on]) => wire[k] !== byte(on))
    .map(([k]) => FuseV1Options[k]);
  if (wrong.length) throw new FuseError(`fuses: ${target}: read back wrong after flipping: ${wrong.join(', ')}`, 1);
  return Object.entries(FUSES)
    .filter(([k]) => k !== 'version')
    .map(([k, on]) => `${FuseV1Options[k]} ${on ? 'on' : 'off'}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const set = await applyFuses(process.argv[2]);
    console.log(`fuses: ${process.argv[2]}: ${set.join(', ')}`);
  } catch (e) {
    if (!(e instanceof FuseError)) throw e;
    console.error(e.message);
    process.exit(e.exitCode);
  }
}
