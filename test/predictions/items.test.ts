// Evaluation items: prompt and target cut exactly as docs/semantics.md §6 says, checked
// against the reference vectors and the paper's CRUXEval prompts; sets are reproducible.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvalSet } from '../../src/predictions/create.js';
import { cutItem, Traces } from '../../src/predictions/items.js';
import { exportLine } from '../../src/predictions/views.js';
import { Scope, contextFor, serialize, walk, type Action, type EvalTask } from '../../src/semantics/index.js';
import type { Corpus } from '../../src/store/corpus.js';
import { cleanTempDirs } from '../store/fixtures.js';
import { corpusOf, cruxevalTraces, vectorTraces, vectors, type Vector } from './helpers.js';

const FRAME = '<|frame_sep|>';
const ACTION = '<|action_sep|>';

/** Prompt and target of action k, found in the full text by plain string search. */
function slice(text: string, k: number): { prompt: string; target: string } {
  let at = -1;
  for (let j = 0; j <= k; j++) at = text.indexOf(ACTION, at + 1);
  const prompt = text.slice(0, text.indexOf(FRAME, at) + FRAME.length);
  const rest = text.slice(prompt.length);
  const ends = [rest.indexOf(ACTION), rest.indexOf('<|trace_end|>')].filter((i) => i >= 0);
  return { prompt, target: rest.slice(0, Math.min(...ends)) };
}

let corpus: Corpus;
let traceOf: (v: Vector) => number;
let crux: Corpus;
let recorded: ReturnType<typeof vectorTraces>['traces'];

beforeAll(async () => {
  const vt = vectorTraces();
  traceOf = vt.traceOf;
  recorded = vt.traces;
  corpus = (await corpusOf(vt.traces)).corpus;
  crux = (await corpusOf(cruxevalTraces(['sample_0', 'sample_146']))).corpus;
}, 900_000); // the first run of the day records all of CRUXEval (see cruxevalRecording)
afterAll(() => {
  corpus.close();
  crux.close();
  cleanTempDirs();
});

const entryOf = (v: Vector) =>
  corpus.getEvents(traceOf(v)).find((e) => e.event === 'call' && e.func === v.entry_function)!.seq;

describe('an item is a prompt and a target cut from a trajectory', () => {
  it('equals the slice of the reference trajectory text at every action of every vector', () => {
    const traces = new Traces(corpus);
    let n = 0;
    for (const v of vectors()) {
      for (let k = 0; k < v.actions.length; k++) {
        const item = cutItem(traces, traceOf(v), v.direction, entryOf(v), v.actions.slice(0, k + 1), `k${k}`);
        expect({ prompt: item.prompt, target: item.target }, `${v.name} action ${k + 1}`).toEqual(slice(v.text, k));
        n++;
      }
    }
    expect(n).toBeGreaterThan(50);
  });

  it('next-state: N items per action kind, each cut right after an action of that kind, prompt + target a prefix of its trajectory', () => {
    const { set, short } = createEvalSet(corpus, { name: 'ns', task: 'next-state', perAction: 6, seed: 3 });
    expect(short).toEqual([]);
    const items = [...corpus.iterateItems(set.id)];
    expect(items).toHaveLength(48);
    const kinds = [
      'step_into',
      'step_over',
      'step_return',
      'breakpoint',
      'continue',
      'inv_step_into',
      'inv_step_over',
      'inv_step_call',
    ];
    for (const kind of kinds)
      expect(
        items.filter((i) => i.action === kind),
        kind,
      ).toHaveLength(6);
    const loaded = new Traces(corpus);
    for (const it of items) {
      expect(it.actions[it.actions.length - 1].action).toBe(it.action);
      expect(it.key.startsWith(`${it.action}/`)).toBe(true);
      const tr = loaded.get(it.traceId);
      const full = serialize(
        tr.index,
        walk(new Scope(tr.index, it.entry), it.direction, it.actions),
        contextFor(it.direction, tr.record),
      );
      expect({ prompt: it.prompt, target: it.target }).toEqual(slice(full, it.actions.length - 1));
      // `continue` always leaves the scope: its target is an exit token.
      if (it.action === 'continue') expect(it.target).toMatch(/^<\|exit_(normal|error|never)\|>$/);
    }
  });

  it('is reproducible: the same corpus and options give the same items, another seed others', async () => {
    const again = (await corpusOf(recorded)).corpus;
    try {
      const lines = (c: Corpus, name: string, seed: number) => {
        const { set } = createEvalSet(c, { name, task: 'next-state', perAction: 4, seed, direction: 'both' });
        return [...c.iterateItems(set.id)].map((it) => {
          const { id: _, set: __, ...rest } = exportLine(set, it);
          return JSON.stringify(rest);
        });
      };
      const a = lines(corpus, 'r1', 11);
      expect(lines(again, 'r1', 11)).toEqual(a);
      expect(lines(again, 'r2', 12)).not.toEqual(a);
    } finally {
      again.close();
    }
  });

  it('refuses a name already used, and nothing is stored', () => {
    createEvalSet(corpus, { name: 'dup', task: 'horizon' });
    const before = corpus.listEvalSets().length;
    expect(() => createEvalSet(corpus, { name: 'dup', task: 'horizon' })).toThrow(
      /already has an evaluation set named "dup"/,
    );
    expect(corpus.listEvalSets()).toHaveLength(before);
  });
});

describe("CRUXEval sets: the paper's prompts, one item per task keyed by its id", () => {
  // The prompts and targets of f(5) (sample_146) as the paper's protocol writes them.
  const tail = '<|call_sep|><|src_sep|>def f(single_digit):<|arg_sep|>{"single_digit": "5"}<|action_sep|>';
  const cases: [EvalTask, string, string][] = [
    [
      'cruxeval-output',
      `${tail}<|step_return|><|frame_sep|>`,
      '<|return_sep|><|src_sep|>    return result<|arg_sep|>"[1, 2, 3, 4, 6, 7, 8, 9, 10]"',
    ],
    [
      'cruxeval-output-breakpoint',
      `${tail}<|breakpoint|>    return result<|frame_sep|>`,
      '<|line_sep|><|arg_sep|>{"single_digit": "5", "result": "[1, 2, 3, 4, 6, 7, 8, 9, 10]", "c": "10"}<|src_sep|>    return result',
    ],
    [
      'cruxeval-input',
      '<|inv_return_sep|><|src_sep|>    return result<|arg_sep|>"[1, 2, 3, 4, 6, 7, 8, 9, 10]"<|action_sep|><|inv_step_call|><|frame_sep|>',
      '<|inv_call_sep|><|src_sep|>def f(single_digit):<|arg_sep|>{"single_digit": "5"}',
    ],
  ];
  for (const [task, promptEnd, target] of cases) {
    it(task, () => {
      const { set } = createEvalSet(crux, { name: task, task });
      const items = [...crux.iterateItems(set.id)];
      expect(items.map((i) => i.key).sort()).toEqual(['sample_0', 'sample_146']);
      const it146 = items.find((i) => i.key === 'sample_146')!;
      expect(it146.prompt.endsWith(promptEnd)).toBe(true);
      expect(it146.target).toBe(target);
      // The input task's context is the source alone: it must not give the arguments away.
      if (task === 'cruxeval-input') {
        expect(it146.prompt).not.toContain('f(5)');
        expect(it146.callReturn).toBe('[1, 2, 3, 4, 6, 7, 8, 9, 10]');
      } else expect(it146.prompt).toContain('    return f(5)\n');
    });
  }
});

describe('horizon sets', () => {
  it('counts the function\'s own states: count("berry", "r") has a call, 13 lines and a return', () => {
    const count = vectors().find((v) => v.name === 'count-forward-step-into')!;
    const { set } = createEvalSet(corpus, { name: 'hz', task: 'horizon', traceIds: [traceOf(count)] });
    const items = [...corpus.iterateItems(set.id)];
    // Five points from 1 to 0 over 13 lines: jumps from the call, then after 3, 7, 10, 13 steps.
    const fractions = [1, 10 / 13, 6 / 13, 3 / 13, 0];
    for (const dir of ['forward', 'inverse'] as const) {
      const mine = items.filter((i) => i.direction === dir);
      expect(mine.map((i) => i.horizon)).toEqual(fractions);
      const steps = mine.map(
        (i) => i.actions.filter((a: Action) => a.action === (dir === 'forward' ? 'step_over' : 'inv_step_over')).length,
      );
      expect(steps).toEqual([0, 3, 7, 10, 13]);
      for (const it of mine) {
        expect(it.target).toBe(
          dir === 'forward'
            ? '<|return_sep|><|src_sep|>    return n<|arg_sep|>"2"'
            : '<|inv_call_sep|><|src_sep|>def count(s, t):<|arg_sep|>{"s": "\'berry\'", "t": "\'r\'"}',
        );
      }
    }
    // From the last line (horizon 0) the jump is one step: the prompt ends at `return n`.
    const last = items.find((i) => i.direction === 'forward' && i.horizon === 0)!;
    expect(last.prompt.endsWith('<|src_sep|>    return n<|action_sep|><|step_return|><|frame_sep|>')).toBe(true);
  });
});
