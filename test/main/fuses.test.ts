// The packaging step that flips Electron's fuses (scripts/fuses.mjs): its configuration, its
// refusals, and a flip on a file holding a fuse wire as Electron's binary does (the real
// binary cannot be fetched here).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FuseV1Options } from '@electron/fuses';
import { FUSES } from '../../scripts/fuses.mjs';
import { repoRoot } from '../cli/helpers.js';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';

afterAll(cleanTempDirs);

const script = join(repoRoot, 'scripts/fuses.mjs');
const run = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });

/** What Electron's fuse sentinel is followed by: the wire's version (1), its length, one byte per fuse. */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

describe('fuses', () => {
  it('turn off running as Node, NODE_OPTIONS and --inspect; turn on cookie encryption and ASAR integrity and ASAR-only loading', () => {
    expect(FUSES).toMatchObject({
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableCookieEncryption]: true,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
    });
  });

  it('refuse to run without a packaged binary, in one line', () => {
    const cases: [string[], number, RegExp][] = [
      [[], 2, /^usage: node scripts\/fuses\.mjs PATH/],
      [['/nonexistent/Stepscope'], 2, /does not exist/],
      [[join(repoRoot, 'node_modules/electron/cli.js')], 2, /is the development Electron in node_modules/],
    ];
    const notElectron = join(tempDir('stepscope-fuses-'), 'not-electron');
    writeFileSync(notElectron, 'just text');
    cases.push([[notElectron], 1, /cannot flip the fuses of .*Could not find sentinel/]);
    for (const [args, status, line] of cases) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(status);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr, args.join(' ')).toMatch(line);
    }
  });

  it("flip each fuse on a binary's fuse wire and leave a newer fuse they do not know as it was", () => {
    const bin = join(tempDir('stepscope-fuses-'), 'Stepscope');
    // Electron's defaults for the 8 known fuses, then a 9th from a newer Electron.
    const defaults = '101100011';
    writeFileSync(
      bin,
      Buffer.concat([
        Buffer.from('\x7fELF…code…'),
        Buffer.from(SENTINEL),
        Buffer.from([1, 9]),
        Buffer.from(defaults),
        Buffer.from('…more code'),
      ]),
    );
    const r = run(bin);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const bytes = readFileSync(bin);
    const at = bytes.indexOf(SENTINEL) + SENTINEL.length + 2;
    // RunAsNode 0, cookies 1, NODE_OPTIONS 0, inspect 0, ASAR integrity 1, ASAR only 1, V8 snapshot as was, file://
    // privileges 0, the 9th as was.
    expect(bytes.subarray(at, at + 9).toString()).toBe('010011001');
    expect(r.stdout).toMatch(
      /RunAsNode off, EnableCookieEncryption on, .*OnlyLoadAppFromAsar on, GrantFileProtocolExtraPrivileges off/,
    );
  });
});
