// The predicted-vs-true view: field by field (event, source line, each local missing /
// invented / changed with a character diff, the value), the raw completion with its special
// tokens highlighted, and where a format error stopped reading. The completions are
// serialized text written by hand (docs/semantics.md §6), read by the real parser; what the
// view must show is worked out by hand from them.
import { render, screen, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import FieldDiff from '../../../renderer/src/views/overlay/FieldDiff.svelte';
import RawCompletion from '../../../renderer/src/views/overlay/RawCompletion.svelte';
import PairDiff from '../../../renderer/src/views/overlay/PairDiff.svelte';
import { agreement } from '../../../renderer/src/lib/overlay/field-diff.js';
import { ghostsOf } from '../../../renderer/src/lib/overlay/ghosts.js';
import { parsePrediction, type Prediction } from '../../../src/semantics/parse.js';
import type { TargetFields } from '../../../src/semantics/eval.js';

const truth: TargetFields = { event: 'line', src: '    n = n + 1', locals: { s: "'berry'", n: '1', c: "'r'" } };
const parsed = (text: string): Prediction => {
  const p = parsePrediction(text);
  if (!p.ok) throw new Error(p.error.message);
  return p.value;
};

function rows() {
  return screen.getAllByTestId('diff-row').map((r) => ({
    field: r.dataset.field,
    name: r.dataset.name,
    status: r.dataset.status,
    truth: r.children[1].textContent,
    predicted: r.children[2].textContent,
  }));
}

describe('field diff', () => {
  it('a wrong local, a missing one and an invented one; the changed repr diffed by character', () => {
    // s changed ('berry' -> 'bery'), n right, c missing, z invented; src indented differently.
    const p = parsed(`<|line_sep|><|arg_sep|>{"s": "'bery'", "n": "1", "z": "0"}<|src_sep|>  n = n + 1`);
    render(FieldDiff, { truth, parsed: p });
    expect(rows()).toEqual([
      { field: 'event', name: undefined, status: 'same', truth: 'line', predicted: 'line' },
      { field: 'src', name: undefined, status: 'changed', truth: '    n = n + 1', predicted: '  n = n + 1' },
      { field: 'local', name: 's', status: 'changed', truth: "'berry'", predicted: "'bery'" },
      { field: 'local', name: 'n', status: 'same', truth: '1', predicted: '1' },
      { field: 'local', name: 'c', status: 'missing', truth: "'r'", predicted: '—' },
      { field: 'local', name: 'z', status: 'invented', truth: '—', predicted: '0' },
    ]);
    // Inside the changed repr: one 'r' of the truth is struck out, nothing is inserted.
    const s = screen.getAllByTestId('diff-row')[2];
    expect([...s.querySelectorAll('.del')].map((e) => e.textContent)).toEqual(['r']);
    expect(s.querySelectorAll('.ins')).toHaveLength(0);
    // The src: two spaces of indentation missing.
    const src = screen.getAllByTestId('diff-row')[1];
    expect([...src.querySelectorAll('.del')].map((e) => e.textContent).join('')).toBe('  ');
  });

  it('keys in another order are the same locals; a return compares its value', () => {
    render(FieldDiff, {
      truth,
      parsed: parsed(`<|line_sep|><|arg_sep|>{"c": "'r'", "n": "1", "s": "'berry'"}<|src_sep|>    n = n + 1`),
    });
    expect(rows().map((r) => r.status)).toEqual(['same', 'same', 'same', 'same', 'same']);
  });

  it('a return value, changed inside', () => {
    const ret: TargetFields = { event: 'return', src: '    return n', arg: '[1, 2, 3]' };
    render(FieldDiff, { truth: ret, parsed: parsed('<|return_sep|><|src_sep|>    return n<|arg_sep|>"[1, 2, 4]"') });
    const r = rows();
    expect(r.map((x) => [x.field, x.status])).toEqual([
      ['event', 'same'],
      ['src', 'same'],
      ['arg', 'changed'],
    ]);
    const arg = screen.getAllByTestId('diff-row')[2];
    expect([...arg.querySelectorAll('.del')].map((e) => e.textContent)).toEqual(['3']);
    expect([...arg.querySelectorAll('.ins')].map((e) => e.textContent)).toEqual(['4']);
  });

  it('a format error: every true field missing', () => {
    render(FieldDiff, { truth, parsed: null });
    expect(rows().map((r) => [r.name ?? r.field, r.status])).toEqual([
      ['event', 'missing'],
      ['src', 'missing'],
      ['s', 'missing'],
      ['n', 'missing'],
      ['c', 'missing'],
    ]);
  });
});

describe('raw completion', () => {
  it('highlights each special token, and puts the caret where reading stopped', () => {
    const text = '<|line_sep|><|arg_sep|>{"n": 1<|src_sep|>    n = 1';
    const p = parsePrediction(text);
    expect(p.ok).toBe(false);
    if (p.ok) return;
    render(RawCompletion, { text, error: p.error });
    const raw = screen.getByTestId('raw-completion');
    expect([...raw.querySelectorAll('.tok')].map((e) => e.textContent)).toEqual([
      '<|line_sep|>',
      '<|arg_sep|>',
      '<|src_sep|>',
    ]);
    expect(raw.textContent!.replace('▲', '')).toBe(text);
    // The caret stands at the parser's offset: the text before it is exactly that long.
    const before = raw.textContent!.slice(0, raw.textContent!.indexOf('▲'));
    expect(before.length).toBe(p.error.offset);
    expect(within(document.body).getByTestId('format-error').textContent).toContain(
      `line ${p.error.line}, column ${p.error.column}`,
    );
  });
});

describe('k samples', () => {
  it('groups samples predicting the same state (locals in any order), unreadable ones by text', () => {
    const a = parsed('<|line_sep|><|arg_sep|>{"a": "1", "b": "2"}<|src_sep|>x');
    const b = parsed('<|line_sep|><|arg_sep|>{"b": "2", "a": "1"}<|src_sep|>x');
    const c = parsed('<|line_sep|><|arg_sep|>{"a": "1"}<|src_sep|>x');
    expect(
      agreement([
        { parsed: c, completion: '' },
        { parsed: a, completion: '' },
        { parsed: null, completion: 'junk ' },
        { parsed: b, completion: '' },
        { parsed: null, completion: 'junk' },
      ]),
    ).toEqual([[1, 3], [2, 4], [0]]);
  });
});

describe('two runs side by side', () => {
  // Run A: n right, s changed, c missing, z invented. Run B: every local right, y invented, another line.
  const a = parsed(`<|line_sep|><|arg_sep|>{"s": "'bery'", "n": "1", "z": "0"}<|src_sep|>    n = n + 1`);
  const b = parsed(`<|line_sep|><|arg_sep|>{"y": "2", "c": "'r'", "n": "1", "s": "'berry'"}<|src_sep|>    return n`);

  it('one row per field of either run, each run with its own status against the truth', () => {
    render(PairDiff, {
      truth,
      runs: [
        { label: 'run-a', parsed: a },
        { label: 'run-b', parsed: b },
      ],
    });
    const got = screen
      .getAllByTestId('pair-row')
      .map((r) => [
        r.dataset.name ?? r.dataset.field,
        r.children[1].textContent,
        ...[...r.querySelectorAll<HTMLElement>('[data-testid="pair-cell"]')].map(
          (c) => `${c.dataset.run}:${c.dataset.status}`,
        ),
      ]);
    expect(got).toEqual([
      ['event', 'line', 'run-a:same', 'run-b:same'],
      ['src', '    n = n + 1', 'run-a:same', 'run-b:changed'],
      ['s', "'berry'", 'run-a:changed', 'run-b:same'],
      ['n', '1', 'run-a:same', 'run-b:same'],
      ['c', "'r'", 'run-a:missing', 'run-b:same'],
      // Invented locals after the truth's, A's first: each absent from the other run.
      ['z', '—', 'run-a:invented', 'run-b:same'],
      ['y', '—', 'run-a:same', 'run-b:invented'],
    ]);
    // A's changed repr: the truth's second 'r' struck out inside A's cell.
    const s = screen.getAllByTestId('pair-row')[2].querySelector('[data-run="run-a"]')!;
    expect([...s.querySelectorAll('.del')].map((e) => e.textContent)).toEqual(['r']);
  });

  it('a ghost per run, named, its verdict in a symbol; one run alone is not named', () => {
    const ans = (p: Prediction | null, verdict: 'pass' | 'fail' | 'format') => ({
      parsed: p,
      parseError: p ? null : { message: 'x' },
      completion: 'x',
      verdict,
    });
    const two = ghostsOf(
      {
        by: 'run-a',
        answers: [ans(a, 'fail')],
        second: { by: 'run-b', answers: [ans(null, 'format'), ans(b, 'pass')] },
      },
      0,
      1,
    );
    expect(two.map((g) => [g.slot, g.run, g.verdict, g.text])).toEqual([
      [0, 'run-a', 'fail', 'run-a: line n = n + 1 ✗'],
      [1, 'run-b', 'pass', 'run-b: line return n ✓'],
    ]);
    expect(ghostsOf({ by: 'run-a', answers: [ans(null, 'format')], second: null }, 0, 0).map((g) => g.text)).toEqual([
      'format error ?',
    ]);
    // A run with no answer for the item: a ghost saying so.
    expect(
      ghostsOf({ by: 'run-a', answers: [ans(a, 'fail')], second: { by: 'run-b', answers: [] } }, 0, 0)[1],
    ).toMatchObject({ verdict: 'none', text: 'run-b: no prediction –' });
  });
});
