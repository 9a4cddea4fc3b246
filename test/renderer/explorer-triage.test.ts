// Issue 32's explorer fixes in their pure parts: F8 across a whole set (lib/overlay/failures.ts),
// what the Prediction panel says is missing (lib/overlay/intro.ts), which address changes are
// history entries (lib/history.ts), the key table the handlers and the `?` panel share
// (lib/keys.ts), the action chips of the rows shape (placeRowChips) and the graph's labels.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ItemRow, VerdictInfo } from '../../src/contract/index.js';
import { failingOrder, failureNote, nextFailure } from '../../renderer/src/lib/overlay/failures.js';
import { predictionIntro } from '../../renderer/src/lib/overlay/intro.js';
import { historyMove } from '../../renderer/src/lib/history.js';
import { KEYS, keyFor, keysOf, type KeyEventLike } from '../../renderer/src/lib/keys.js';
import { chipWidth, placeGraphChips, placeRowChips, shortLabel } from '../../renderer/src/views/tree/edge-geometry.js';
import { fitLabel, GRAPH_LABEL_CHARS } from '../../renderer/src/views/tree/graph-labels.js';

const verdict = (correct: boolean, formatError = false): VerdictInfo => ({
  prediction: 1,
  run: 'r',
  sample: 0,
  formatError,
  em: { event: correct, src: correct, locals: correct, arg: null, all: correct },
  exec: null,
  alt: null,
  correct,
});
const row = (id: number, traceId: number, o: Partial<ItemRow> & { ok?: boolean; format?: boolean } = {}): ItemRow => ({
  id,
  key: `k${id}`,
  traceId,
  name: `t${traceId}`,
  direction: 'forward',
  entry: 0,
  actions: ['step_into'],
  action: 'step_into',
  horizon: null,
  targetNode: 5,
  targetSeq: 5,
  targetKind: 'line',
  verdicts: [verdict(o.ok ?? false, o.format ?? false)],
  ...o,
});

describe('F8 across the set', () => {
  const rows = [
    row(1, 7, { targetNode: 9 }),
    row(2, 3, { ok: true }),
    row(3, 3, { targetNode: 4, direction: 'inverse' }),
    row(4, 3, { targetNode: 8, format: true }),
    row(5, 7, { targetNode: 2 }),
    row(6, 3, { targetNode: 1, verdicts: [] }),
  ];
  it('lists the failing items (fail and format) trace by trace in the set order, forward tree first, by node', () => {
    expect(failingOrder(rows, 'r').map((f) => f.id)).toEqual([5, 1, 4, 3]);
    expect(failingOrder(rows, 'other')).toEqual([]);
  });
  it('opens the next one, onto another trace, and wraps round at either end', () => {
    const list = failingOrder(rows, 'r');
    expect(nextFailure(list, 1, 1, 7)).toEqual({ index: 2, wrapped: false });
    expect(nextFailure(list, 3, 1, 3)).toEqual({ index: 0, wrapped: true });
    expect(nextFailure(list, 0, -1, 7)).toEqual({ index: 3, wrapped: true });
  });
  it('with no item open, starts on the open trace, else at the set’s first or last', () => {
    const list = failingOrder(rows, 'r');
    expect(nextFailure(list, -1, 1, 3).index).toBe(2);
    expect(nextFailure(list, -1, -1, 7).index).toBe(1);
    expect(nextFailure(list, -1, 1, 99).index).toBe(0);
    expect(nextFailure(list, -1, -1, 99).index).toBe(3);
  });
  it('says when the end is reached and when it wrapped', () => {
    expect(failureNote(3, 4, 1, false)).toMatch(/^last failing item; F8 again wraps to the first/);
    expect(failureNote(0, 4, -1, false)).toMatch(/^first failing item; Shift\+F8 again wraps/);
    expect(failureNote(0, 4, 1, true)).toMatch(/wrapped round to the first/);
    expect(failureNote(1, 4, 1, false)).toBeNull();
    expect(failureNote(0, 1, 1, true)).toBe('the only failing item');
  });
});

describe('the Prediction panel with no prediction open', () => {
  const s = { set: 'crux', run: 'gpt-4', runs: 2, items: 3, answered: 3 };
  it('asks for a set only when none is chosen', () => {
    expect(predictionIntro({ ...s, set: '' })).toMatch(/^Choose a set/);
    for (const o of [{}, { items: 0 }, { answered: 0 }, { runs: 0, run: '' }])
      expect(predictionIntro({ ...s, ...o })).not.toMatch(/Choose a set/);
  });
  it('says what is missing for this trace', () => {
    expect(predictionIntro({ ...s, answered: 0 })).toMatch(/^gpt-4 has no prediction for this trace's 3 items/);
    expect(predictionIntro({ ...s, items: 0 })).toMatch(/no item on this trace/);
    expect(predictionIntro({ ...s, runs: 0, run: '' })).toMatch(/has no run yet/);
    expect(predictionIntro(s)).toMatch(/^Click a marked node/);
  });
});

describe('history entries', () => {
  it('a navigation is a new entry', () => {
    expect(historyMove({ trace: 1 }, { trace: 2 })).toBe('push');
    expect(historyMove({ trace: 1 }, { trace: 1, view: 'dashboard' })).toBe('push');
    expect(historyMove({ trace: 1, set: 'a', run: 'x' }, { trace: 1, set: 'a', run: 'y' })).toBe('push');
    expect(historyMove({ trace: 1, set: 'a', run: 'x' }, { trace: 1, set: 'b', run: 'z' })).toBe('push');
    expect(historyMove({ trace: 1, set: 'a', run: 'x' }, { trace: 1, set: 'a', run: 'x', item: 4 })).toBe('push');
    expect(historyMove({ item: 4, trace: 1 }, { item: 5, trace: 1 })).toBe('push');
  });
  it('a step, failures only, leaving an item by stepping, and the parts of one navigation rewrite it', () => {
    expect(historyMove({ trace: 1 }, { trace: 1, actions: ['step_into'], cursor: 0 })).toBe('replace');
    expect(historyMove({ trace: 1, set: 'a', run: 'x' }, { trace: 1, set: 'a', run: 'x', failures: true })).toBe(
      'replace',
    );
    expect(historyMove({ trace: 1, item: 4 }, { trace: 1, actions: ['step_into'] })).toBe('replace');
    expect(historyMove({ trace: 1, set: 'a' }, { trace: 1, set: 'a', run: 'x' })).toBe('replace');
    expect(historyMove({ view: 'dashboard' }, { view: 'dashboard', set: 'a' })).toBe('replace');
    expect(historyMove({ trace: 1 }, { trace: 1, set: 'a' })).toBe('push');
    expect(historyMove({ trace: 1, item: 4 }, { trace: 2, item: 4 })).toBe('replace');
  });
});

const ev = (key: string, o: Partial<KeyEventLike> = {}): KeyEventLike => ({
  key,
  code: o.code ?? '',
  altKey: false,
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  ...o,
});

describe('the key table', () => {
  it('dispatches each key to one binding, modifiers exact', () => {
    expect(keyFor('explorer', ev('F11'))?.id).toBe('step_into');
    expect(keyFor('explorer', ev('F11', { shiftKey: true }))?.id).toBe('step_return');
    expect(keyFor('explorer', ev('F11', { altKey: true, shiftKey: true }))?.id).toBe('inv_step_call');
    expect(keyFor('explorer', ev('F10', { ctrlKey: true }))).toBeNull();
    expect(keyFor('app', ev('ArrowLeft', { altKey: true }))?.id).toBe('back');
    expect(keyFor('explorer', ev('[', { code: 'BracketLeft', altKey: true }))?.id).toBe('history_back');
    expect(keyFor('explorer', ev('“', { code: 'BracketLeft', altKey: true }))?.id).toBe('history_back');
    expect(keyFor('app', ev('?', { shiftKey: true }))?.id).toBe('help');
    expect(keyFor('explorer', ev('F8', { shiftKey: true }))?.id).toBe('prev_failure');
  });
  it('no key event matches two bindings of one scope', () => {
    for (const b of KEYS)
      for (const k of ['F5', 'F8', 'F10', 'F11', 'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Enter', '?'])
        for (const altKey of [false, true])
          for (const shiftKey of [false, true]) {
            const e = ev(k, { altKey, shiftKey });
            const hits = KEYS.filter((c) => c.scope === b.scope && c.match(e));
            expect(hits.length, `${b.scope} ${k} alt=${altKey} shift=${shiftKey}`).toBeLessThanOrEqual(1);
          }
  });
  it('the ? panel lists every binding of the view, and docs/explorer.md every key shown', () => {
    const shown = keysOf('explorer').flatMap((g) => g.rows);
    expect(shown.length).toBe(KEYS.length);
    expect(keysOf('dashboard').map((g) => g.scope)).toEqual(['app', 'corpus', 'splitter']);
    const doc = readFileSync(join(import.meta.dirname, '../../docs/explorer.md'), 'utf8');
    for (const r of shown) expect(doc, r.keys).toContain(`| ${r.keys} | ${r.does} |`);
  });
});

describe('action chips in the rows shape', () => {
  // Rows 20 px apart; dots at depth × 16; the view starts 56 px left of depth 0 (ROWS_LEFT).
  const depths = [0, 1, 2, 3, 3, 3, 2, 1];
  const o = {
    rowH: 20,
    size: 1,
    view: { x0: -56, x1: 300, y0: -12, y1: 300 },
    rowX: (r: number) => (r >= 0 && r < depths.length ? depths[r] * 16 : undefined),
  };
  const chip = (label: string, r: number) => ({
    labels: [label, shortLabel(label)] as [string, string],
    anchor: { x: depths[r] * 16, y: r * 20 },
    marker: 0,
  });
  it('sit left of the dot of every row they span, never over a row, and apart', () => {
    const placed = placeRowChips([chip('step_into', 5), chip('step_over', 5), chip('step_return', 7)], o);
    expect(placed.every((p) => p !== null)).toBe(true);
    const boxes = placed.map((p) => ({ ...p!, w: chipWidth(p!.label) + 1 }));
    for (const b of boxes) {
      expect(b.x - b.w / 2).toBeGreaterThanOrEqual(o.view.x0);
      for (let r = 0; r < depths.length; r++)
        if (Math.abs(r * 20 - b.y) < 8 + 8)
          expect(b.x + b.w / 2, `${b.label} by row ${r}`).toBeLessThanOrEqual(depths[r] * 16 - 15);
    }
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i], boxes[j]];
        expect(Math.abs(a.x - b.x) >= (a.w + b.w) / 2 || Math.abs(a.y - b.y) >= 16).toBe(true);
      }
    // Short labels where the full ones have no room (shallow rows).
    expect(boxes[2].label).toBe('out');
  });
  it('a chip whose target is off screen is left out, not pinned to the border', () => {
    const scrolled = { ...o, view: { ...o.view, y0: 200, y1: 400 } };
    expect(placeRowChips([chip('step_into', 5)], scrolled)).toEqual([null]);
  });
  it('a chip to an exit sits right of its marker', () => {
    const [p] = placeRowChips([{ labels: ['continue', 'cont'], anchor: { x: 0, y: 170 }, marker: 80 }], o);
    expect(p!.x - (chipWidth('continue') + 1) / 2).toBeGreaterThan(80);
    expect(p!.y).toBe(170);
  });
});

describe('action chips in the graph shape', () => {
  const view = { x0: -20, x1: 400, y0: -40, y1: 300 };
  const o = { levelH: 60, size: 1, view };
  it('sit in the band between two levels, clear of the dots and of the labels under them', () => {
    const from = { x: 120, y: 60 };
    const placed = placeGraphChips(
      [
        { from, to: { x: 80, y: 120 }, label: 'step_into', marker: 0 },
        { from, to: { x: 80, y: 120 }, label: 'step_over', marker: 0 },
        { from, to: { x: 200, y: 0 }, label: 'step_return', marker: 0 },
      ],
      o,
    );
    const [a, b, c] = placed.map((p) => p!);
    // Labels of a level reach 34 px under its dots; the next level's dots start 5 px above it.
    for (const p of [a, b, c]) {
      const band = ((p.y % 60) + 60) % 60;
      expect(band - 8).toBeGreaterThanOrEqual(34);
      expect(band + 8).toBeLessThanOrEqual(55);
    }
    expect(a.y).toBe(104);
    expect(c.y).toBe(44);
    expect(Math.abs(a.x - b.x)).toBeGreaterThanOrEqual((chipWidth('step_into') + chipWidth('step_over')) / 2 + 2);
  });
  it('a chip whose band is off screen is left out; one whose target is far to a side comes in to the border', () => {
    const chip = (from: { x: number; y: number }, to: { x: number; y: number }, label = 'step_into', marker = 0) => ({
      from,
      to,
      label,
      marker,
    });
    expect(placeGraphChips([chip({ x: 100, y: 300 }, { x: 60, y: 360 })], o)).toEqual([null]);
    const [side] = placeGraphChips([chip({ x: 300, y: 60 }, { x: 900, y: 120 })], o);
    expect(side!.x + (chipWidth('step_into') + 1) / 2).toBeLessThanOrEqual(view.x1);
    expect(side!.y).toBe(104);
    expect(placeGraphChips([chip({ x: 100, y: 60 }, { x: 900, y: 10 }, 'continue', 80)], o)).toEqual([null]);
    // Three edges far to the right: all come in, side by side, none over another.
    const labels = ['inv_step_into', 'inv_step_over', 'inv_step_call'];
    const three = placeGraphChips(
      labels.map((l) => chip({ x: 300, y: 60 }, { x: 900, y: 120 }, l)),
      o,
    ).map((p) => p!);
    const w = chipWidth('inv_step_into') + 1;
    for (const p of three) expect(p.x + w / 2).toBeLessThanOrEqual(view.x1);
    const xs = three.map((p) => p.x).sort((a, b) => a - b);
    expect(xs[1] - xs[0]).toBeGreaterThanOrEqual(w);
    expect(xs[2] - xs[1]).toBeGreaterThanOrEqual(w);
  });
});

describe('graph labels', () => {
  it('are cut with an ellipsis to two slots', () => {
    expect(GRAPH_LABEL_CHARS).toBeGreaterThanOrEqual(10);
    expect(fitLabel('return [(4, 1), (4, 1)]', 12)).toBe('return [(4,…');
    expect(fitLabel('x = 1', 12)).toBe('x = 1');
    expect(fitLabel('abc', 0)).toBe('');
  });
});
