// The fake model server as a separate process (how Playwright and a developer start it):
// answers from a JSON file holding the ground truth plus injected wrong answers.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listModels, runCompletions, type Completion } from '../../src/model/index.js';
import { vectorPairs, vectorTexts } from './helpers.js';

const script = resolve(import.meta.dirname, '../../scripts/fake-model-server.mjs');
const pairs = vectorPairs().slice(0, 12);
// Injected errors: a wrong local, and text that is no state at all.
const wrongField = pairs[3].target.replace('"0"', '"9"');
const injected = { [pairs[3].prompt]: wrongField, [pairs[5].prompt]: 'I think the answer is 42' };

let dir: string;
let child: ChildProcess;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'stepscope-fake-'));
  const file = join(dir, 'answers.json');
  writeFileSync(file, JSON.stringify({ models: ['debugger-1.8b'], continuations: vectorTexts(), answers: injected }));
  child = spawn(process.execPath, [script, '--answers', file, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const first = await new Promise<string>((done) => createInterface({ input: child.stdout! }).once('line', done));
  url = /listening on (http:\/\/\S+)$/.exec(first)![1];
});
afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('fake model server, as a process', () => {
  it('lists its models', async () => {
    expect(await listModels({ endpoint: url })).toEqual(['debugger-1.8b']);
  });

  it('answers the ground truth, except where an error was injected', async () => {
    expect(wrongField).not.toBe(pairs[3].target);
    const got = new Map<string, Completion>();
    const summary = await runCompletions(
      pairs,
      { settings: { endpoint: `${url}/v1`, model: 'debugger-1.8b' }, concurrency: 3 },
      (item, c) => void got.set(item.id, c),
    );
    expect(summary).toMatchObject({ outcome: 'complete', answered: pairs.length });
    pairs.forEach((p, i) => {
      const expected = i === 3 ? wrongField : i === 5 ? 'I think the answer is 42' : p.target;
      expect(got.get(p.id)!.texts, p.id).toEqual([expected]);
    });
  });

  it('stops on SIGTERM', async () => {
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
