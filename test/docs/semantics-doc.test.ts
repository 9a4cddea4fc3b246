/**
 * docs/semantics.md cannot drift: every block it marks `<!-- example {…} -->` is produced
 * again here from a trace of the doc's own program, recorded by the real recorder, and
 * compared byte for byte. The two trajectories the paper publishes for that program are
 * also compared with its test vectors, so the doc is held to the paper as well as the code.
 *
 * Marked blocks (the JSON in the marker says what to produce):
 * - `program` (one): the Python source; `call` is the call it is recorded with.
 * - `text`: the serialized text of `actions` (the CLI's list syntax) walked from `entry`, in
 *   display form: a line break before each `<|frame_sep|>` that does not already start a line.
 * - `prompt` / `target`: the prompt (display form) and target for the `after`-th action (1-based).
 * - `tree`: the outline of the forward or inverse tree of `entry`, two spaces per level.
 * - `moves`: lines `FROM KIND  ACTION -> TO` (TO: `ID KIND` or an exit), optional `# comment`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Scope,
  buildTraceIndex,
  contextFor,
  forwardChildren,
  forwardRoots,
  inverseChildren,
  inverseRoots,
  parseAction,
} from '../../src/semantics/index.js';
import {
  parseActionList,
  promptTarget,
  seqOf,
  stateKind,
  textParts,
  walk,
  walkView,
  type Direction,
  type TreeIndex,
} from '../../src/semantics/index.js';
import { record, repoRoot, vectorsPath, type Trace } from '../semantics/helpers.js';
import { beforeAllOrFail } from '../helpers/before-all-or-fail.js';

interface Marker {
  example: 'program' | 'text' | 'prompt' | 'target' | 'tree' | 'moves';
  call?: string;
  direction?: Direction;
  entry?: number;
  actions?: string;
  after?: number;
  vector?: string;
}

const docPath = join(repoRoot, 'docs/semantics.md');
const doc = readFileSync(docPath, 'utf8');
const blocks = [...doc.matchAll(/<!-- example (\{.*?\}) -->\n```[a-z]*\n([\s\S]*?)\n```/g)].map((m) => ({
  marker: JSON.parse(m[1]) as Marker,
  body: m[2],
  line: doc.slice(0, m.index).split('\n').length,
}));
const vectors: { name: string; text: string }[] = JSON.parse(readFileSync(vectorsPath, 'utf8'));

/** The display form the doc uses: each `<|frame_sep|>` starts a line; only the context's own final newline is real. */
const display = (text: string) => text.replace(/(?<!\n)<\|frame_sep\|>/g, '\n<|frame_sep|>');

let trace: Trace;
let index: TreeIndex;

beforeAllOrFail(() => {
  const programs = blocks.filter((b) => b.marker.example === 'program');
  expect(programs.length, 'docs/semantics.md has one program block').toBe(1);
  trace = record(programs[0].body + '\n', programs[0].marker.call as string);
  index = buildTraceIndex(trace.events);
});

function walked(m: Marker) {
  return walk(new Scope(index, m.entry as number), m.direction as Direction, parseActionList(m.actions as string));
}

function produce(m: Marker): string {
  const dir = m.direction as Direction;
  const scope = new Scope(index, m.entry as number);
  switch (m.example) {
    case 'text':
      return display(walkView(index, trace.header, dir, m.entry as number, parseActionList(m.actions as string)).text);
    case 'prompt':
    case 'target': {
      const t = walked(m);
      const { prompt, target } = promptTarget(
        textParts(index, t, contextFor(dir, trace.header)),
        (m.after as number) - 1,
      );
      return m.example === 'prompt' ? display(prompt) : target;
    }
    case 'tree': {
      const lines: string[] = [];
      const visit = (nodes: number[], depth: number) => {
        for (const n of nodes) {
          const seq = seqOf(dir, n);
          const id = dir === 'forward' ? `${n}` : `${n} [seq ${seq}]`;
          lines.push(`${'  '.repeat(depth)}${id} ${stateKind(index, dir, n)}  ${trace.events[seq].src.trim()}`);
          visit(dir === 'forward' ? forwardChildren(scope, n) : inverseChildren(scope, n), depth + 1);
        }
      };
      visit(dir === 'forward' ? forwardRoots(scope) : inverseRoots(scope), 0);
      return lines.join('\n');
    }
    default:
      throw new Error(`no producer for ${m.example}`);
  }
}

describe('docs/semantics.md examples are what the code produces', () => {
  it('has the examples the doc promises', () => {
    const kinds = blocks.map((b) => `${b.marker.example} ${b.marker.direction ?? ''}`.trim());
    for (const k of [
      'program',
      'text forward',
      'text inverse',
      'tree forward',
      'tree inverse',
      'moves forward',
      'moves inverse',
      'prompt forward',
      'target forward',
      'target inverse',
    ]) {
      expect(kinds, k).toContain(k);
    }
  });

  for (const b of blocks.filter((x) => x.marker.example !== 'program' && x.marker.example !== 'moves')) {
    it(`line ${b.line}: ${b.marker.example} ${b.marker.direction} byte for byte`, () => {
      expect(b.body).toBe(produce(b.marker));
    });
  }

  for (const b of blocks.filter((x) => x.marker.example === 'moves')) {
    it(`line ${b.line}: ${b.marker.direction} moves land where the doc says`, () => {
      const dir = b.marker.direction as Direction;
      const scope = new Scope(index, b.marker.entry as number);
      const rows = b.body.split('\n');
      expect(rows.length).toBeGreaterThan(2);
      for (const row of rows) {
        const m = /^(\d+) (\w+) +(.+?) +-> (\d+ \w+|\w+)(?: +#.*)?$/.exec(row);
        expect(m, `line ${JSON.stringify(row)} reads FROM KIND ACTION -> TO`).not.toBeNull();
        const [, from, kind, action, to] = m as RegExpExecArray;
        const node = Number(from);
        expect(stateKind(index, dir, node), row).toBe(kind);
        const r = scope.apply(dir, node, parseAction(action));
        expect('node' in r ? `${r.node} ${stateKind(index, dir, r.node)}` : r.exit, row).toBe(to);
      }
    });
  }

  for (const b of blocks.filter((x) => x.marker.vector)) {
    it(`line ${b.line}: the ${b.marker.vector} text is the paper's test vector`, () => {
      const v = vectors.find((x) => x.name === b.marker.vector);
      expect(v, b.marker.vector).toBeDefined();
      expect(b.body).toBe(display(v!.text));
    });
  }
});
