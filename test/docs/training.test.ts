// docs/training.md runs as written: every `sh` block, in order, in one fresh folder (stepscope on PATH, TINY the
// fixture folder), each command exiting 0; each `text` block marked <!-- output --> is exactly what the last
// command before it printed. Blocks marked <!-- not run: … --> (a model server, the reader's own path) and every
// stepscope command the page names get `--help` run instead: the command exists.
// One substitution: recording all 800 CRUXEval tasks takes minutes, so `record-cruxeval` runs on two tasks and
// crux.jsonl is the recording the other tests keep (the same command's output).
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBuilt, repoRoot } from '../cli/helpers.js';
import { cruxevalRecording } from '../semantics/helpers.js';
import { cleanTempDirs, tempDir } from '../store/fixtures.js';

interface Block {
  info: string;
  lines: string[];
  /** The HTML comment just before the block (`not run: …`, `output`), if any. */
  mark: string | null;
}

const doc = readFileSync(join(repoRoot, 'docs/training.md'), 'utf8');

function blocks(text: string): Block[] {
  const out: Block[] = [];
  let mark: string | null = null;
  let open: Block | null = null;
  for (const line of text.split('\n')) {
    if (open) {
      if (line.startsWith('```')) {
        out.push(open);
        open = null;
      } else open.lines.push(line);
      continue;
    }
    const fence = /^```(\S*)/.exec(line);
    const comment = /^<!-- (.*) -->$/.exec(line);
    if (fence) {
      open = { info: fence[1], lines: [], mark };
      mark = null;
    } else if (comment) mark = comment[1];
    else if (line.trim() !== '') mark = null;
  }
  return out;
}

/** A block's commands: continued lines joined, blank lines and comments left out. */
const commands = (b: Block) =>
  b.lines
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));

const dir = tempDir('stepscope-training-doc-');
const bin = join(dir, 'bin');
const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, TINY: resolve(repoRoot, 'test/data/tiny-nd') };

function sh(command: string) {
  const r = spawnSync('bash', ['-c', command], { cwd: dir, env, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

afterAll(() => cleanTempDirs());

describe('docs/training.md', () => {
  it('runs every shell block as written, and prints the outputs it shows', () => {
    ensureBuilt();
    spawnSync('mkdir', ['-p', bin]);
    writeFileSync(
      join(bin, 'stepscope'),
      `#!/bin/sh\nexec "${process.execPath}" "${join(repoRoot, 'bin/stepscope.js')}" "$@"\n`,
    );
    chmodSync(join(bin, 'stepscope'), 0o755);
    const all = blocks(doc);
    expect(all.filter((b) => b.info === 'sh' && b.mark === null).length).toBeGreaterThan(6);
    let last = '';
    let ran = 0;
    for (const b of all) {
      if (b.mark === 'output') {
        expect(b.info).toBe('text');
        expect(last.trimEnd()).toBe(b.lines.join('\n').trimEnd());
        continue;
      }
      if (b.info !== 'sh') continue;
      for (const cmd of commands(b)) {
        if (b.mark?.startsWith('not run')) {
          const name = /^stepscope (\S+)/.exec(cmd)?.[1];
          if (name) expect(sh(`stepscope ${name} --help`).status, cmd).toBe(0);
          continue;
        }
        if (cmd.startsWith('stepscope record-cruxeval ')) {
          const r = sh('stepscope record-cruxeval --limit 2 -o two.jsonl');
          expect(r.status, r.stderr).toBe(0);
          const two = readFileSync(join(dir, 'two.jsonl'), 'utf8');
          expect([two.includes('"sample_1"'), two.includes('"sample_2"')]).toEqual([true, false]);
          copyFileSync(cruxevalRecording(), join(dir, 'crux.jsonl'));
          continue;
        }
        const r = sh(cmd);
        expect(r.status, `${cmd}\n${r.stderr}`).toBe(0);
        last = r.stdout;
        ran++;
      }
    }
    expect(ran).toBeGreaterThan(15);
  }, 1_200_000);

  it('names only commands that exist', () => {
    const named = new Set([...doc.matchAll(/stepscope ([a-z-]+)/g)].map((m) => m[1]));
    expect(named.has('benchmark')).toBe(true);
    expect(named.size).toBeGreaterThan(8);
    for (const name of named) {
      const r = spawnSync(process.execPath, [join(repoRoot, 'bin/stepscope.js'), name, '--help'], { encoding: 'utf8' });
      expect(r.status, `stepscope ${name} --help: ${r.stderr}`).toBe(0);
    }
  });
});
