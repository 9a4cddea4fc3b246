// evalset import: a set exported from one corpus made again on another holding the same programs recorded in
// another order (other trace ids): the same items; a file whose text differs by one byte, or that names a trace
// the corpus lacks, is refused naming the item, with nothing stored; a name the corpus has needs --name.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvalSet } from '../../src/predictions/create.js';
import { importEvalSet } from '../../src/predictions/import-set.js';
import { exportLine } from '../../src/predictions/views.js';
import type { Corpus, EvalSetRecord, StoredItem } from '../../src/store/corpus.js';
import { cli, ensureBuilt } from '../cli/helpers.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, cruxevalTraces, vectorTraces } from './helpers.js';

let a: Corpus;
let b: Corpus;
let bPath: string;
let dir: string;
const sets: EvalSetRecord[] = [];

const exported = (c: Corpus, set: EvalSetRecord) =>
  [...c.iterateItems(set.id)]
    .map((it) => JSON.stringify(exportLine(set, it, c.rolloutTargets([it.id]).get(it.id))))
    .join('\n') + '\n';
/** What an item is apart from where it is stored (its id, set and trace id). */
const portable = ({ id: _i, setId: _s, traceId: _t, ...rest }: StoredItem) => rest;
const stateOf = (c: Corpus) =>
  JSON.stringify(c.listEvalSets().map((s) => [s.name, s.items, [...c.iterateItems(s.id)].length]));

beforeAll(async () => {
  const traces = [...vectorTraces().traces, ...cruxevalTraces(['sample_0', 'sample_146', 'sample_12'])];
  ({ corpus: a, dir } = await corpusOf(traces, 'stepscope-importset-a-'));
  ({ corpus: b, path: bPath } = await corpusOf([...traces].reverse(), 'stepscope-importset-b-'));
  sets.push(createEvalSet(a, { name: 'ns', task: 'next-state', perAction: 3, seed: 4 }).set);
  sets.push(createEvalSet(a, { name: 'hz', task: 'horizon', perAction: 3 }).set);
  sets.push(createEvalSet(a, { name: 'co', task: 'cruxeval-output' }).set);
  sets.push(createEvalSet(a, { name: 'ci', task: 'cruxeval-input' }).set);
  sets.push(createEvalSet(a, { name: 'ro', task: 'rollout', perTrace: 2, maxSteps: 6, seed: 3 }).set);
}, 900_000);
afterAll(() => {
  a.close();
  b.close();
  cleanTempDirs();
});

describe('evalset import', () => {
  it('makes the same items on a corpus with other trace ids, for every task', () => {
    for (const set of sets) {
      const file = join(dir, `${set.name}.jsonl`);
      writeFileSync(file, exported(a, set));
      const r = importEvalSet(b, file);
      expect([r.set.name, r.set.task, r.set.items, r.from]).toEqual([set.name, set.task, set.items, set.name]);
      const [mine, theirs] = [[...a.iterateItems(set.id)], [...b.iterateItems(r.set.id)]];
      const sameKeys = set.task !== 'horizon' && set.task !== 'rollout'; // a horizon or rollout key holds the trace id
      expect(theirs.map((it) => ({ ...portable(it), key: sameKeys ? it.key : '' }))).toEqual(
        mine.map((it) => ({ ...portable(it), key: sameKeys ? it.key : '' })),
      );
      expect(theirs.map((it) => b.getTrace(it.traceId)!.name)).toEqual(mine.map((it) => a.getTrace(it.traceId)!.name));
      expect(theirs.some((it, i) => it.traceId !== mine[i].traceId)).toBe(true);
      if (set.task === 'rollout') {
        // Every step's truth, where it is in the tree, and keys as create makes them with this corpus's trace ids.
        const steps = (c: Corpus, items: StoredItem[]) => [...c.rolloutTargets(items.map((i) => i.id)).values()];
        expect(steps(b, theirs)).toEqual(steps(a, mine));
        expect(steps(b, theirs).flat().length).toBeGreaterThan(theirs.length);
        expect(theirs.map((it) => it.key)).toEqual(
          mine.map((it) => it.key.replace(/\/\d+\//, `/${theirs[mine.indexOf(it)].traceId}/`)),
        );
      }
      if (set.task === 'horizon') {
        expect(theirs.map((it) => it.key)).toEqual(
          mine.map((it) => it.key.replace(/\/\d+\//, `/${theirs[mine.indexOf(it)].traceId}/`)),
        );
        expect(b.getEvalSet('hz')!.options.per_action).toBe(3);
      }
      // Exported again, the set is the same file but for its items' ids and trace ids.
      const strip = (text: string) =>
        text
          .trim()
          .split('\n')
          .map((l) => ({ ...JSON.parse(l), id: 0, trace: 0 }));
      expect(strip(exported(b, b.getEvalSet(set.name)!))).toEqual(strip(exported(a, set)));
    }
  });

  it('refuses a target one byte off, naming the item, its line and where it differs; nothing is stored', () => {
    const lines = exported(a, sets[0]).trim().split('\n');
    const k = 4;
    const item = JSON.parse(lines[k]);
    const at = item.target.length >> 1;
    const other = item.target[at] === 'x' ? 'y' : 'x';
    lines[k] = JSON.stringify({ ...item, target: item.target.slice(0, at) + other + item.target.slice(at + 1) });
    const file = join(dir, 'tampered.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    const before = stateOf(b);
    const err = (() => {
      try {
        importEvalSet(b, file, 'tampered');
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    })();
    expect(err).toContain(`item ${item.id} (${file}:${k + 1})`);
    expect(err).toContain(`its target differs`);
    expect(err).toContain(`at byte ${Buffer.byteLength(item.target.slice(0, at))}`);
    expect(err).toContain('nothing was stored');
    expect(stateOf(b)).toBe(before);
    expect(b.getEvalSet('tampered')).toBeUndefined();
  });

  it('refuses a rollout item one of whose targets is off, naming the step; nothing is stored', () => {
    const ro = sets.find((s) => s.task === 'rollout')!;
    const lines = exported(a, ro).trim().split('\n');
    const k = lines.findIndex((l) => JSON.parse(l).targets.length >= 3);
    const item = JSON.parse(lines[k]);
    item.targets[2] = item.targets[2] + ' ';
    lines[k] = JSON.stringify(item);
    const file = join(dir, 'ro-tampered.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    const before = stateOf(b);
    expect(() => importEvalSet(b, file, 'ro-tampered')).toThrow(
      new RegExp(`item ${item.id} \\(.*:${k + 1}\\).*its target 3 \\(the state after action 3\\) differs`),
    );
    lines[k] = JSON.stringify({ ...item, targets: item.targets.slice(1) });
    writeFileSync(file, lines.join('\n') + '\n');
    expect(() => importEvalSet(b, file, 'ro-tampered')).toThrow(
      new RegExp(`ro-tampered\\.jsonl:${k + 1}: expected "targets" to be the true state after each of its`),
    );
    expect(stateOf(b)).toBe(before);
  });

  it('refuses an item whose trace this corpus lacks, naming the item and the trace', () => {
    const lines = exported(a, sets[2]).trim().split('\n');
    lines[1] = JSON.stringify({ ...JSON.parse(lines[1]), name: 'sample_999' });
    const file = join(dir, 'missing.jsonl');
    writeFileSync(file, lines.join('\n') + '\n');
    const before = stateOf(b);
    expect(() => importEvalSet(b, file, 'missing')).toThrow(
      new RegExp(
        `item ${JSON.parse(lines[1]).id} \\(.*missing\\.jsonl:2\\): this corpus has no trace named "sample_999"`,
      ),
    );
    expect(stateOf(b)).toBe(before);
  });

  it('from the command line: a name the corpus has is refused unless --name; the import is said', () => {
    ensureBuilt();
    const file = join(dir, 'co.jsonl');
    const clash = cli(['evalset', 'import', file, '--db', bPath]);
    expect(clash.status).toBe(1);
    expect(clash.stderr).toContain('already has an evaluation set named "co"; give --name NAME');
    const r = cli(['evalset', 'import', file, '--db', bPath, '--name', 'co-again']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /evaluation set "co-again" \("co" in the file\) \(cruxeval-output\): 3 items over 3 traces/,
    );
    const again = cli(['evalset', 'export', '--db', bPath, '--name', 'co-again']).stdout;
    expect(again.split('\n').map((l) => l && JSON.parse(l).prompt)).toEqual(
      readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l && JSON.parse(l).prompt),
    );
  });
});
