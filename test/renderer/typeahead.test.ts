// The labeling queue's keys typed ahead (renderer/src/lib/typeahead.ts): every key kept and run
// in order once the ones before it took effect, and read in the mode those left (issue 29: at
// 0 ms between keys, `1 N note 2 Enter Esc →` lost the first characters of the note, and keys
// typed while the next item loaded acted on the item before).
import { describe, expect, it } from 'vitest';
import { commandOf, KeyQueue, type KeyCommand, type Mode, type TypedKey } from '../../renderer/src/lib/typeahead.js';

/** A labeling page reduced to what the keys change: items, their labels and notes, the open group. */
class Page {
  mode: Mode = 'keys';
  item = 0;
  group = 0;
  draft = '';
  labels = new Map<number, number[]>();
  notes = new Map<number, string>();
  cheats = false;
  /** Commands run, as `item:kind`. */
  log: string[] = [];
  idles = 0;
  /** Pending moves and saves: the test settles them. */
  readonly waits: (() => void)[] = [];
  readonly keys = new KeyQueue(
    () => this.mode,
    (c) => this.run(c),
    () => this.idles++,
  );

  #later(then: () => void): Promise<void> {
    return new Promise((done) => this.waits.push(() => (then(), done())));
  }

  run(c: KeyCommand): unknown {
    this.log.push(`${this.item}:${c.kind}`);
    switch (c.kind) {
      case 'label': {
        const at = this.item;
        const key = this.group * 10 + c.key;
        return this.#later(() => this.labels.set(at, [...(this.labels.get(at) ?? []), key]));
      }
      case 'group':
        this.group += c.step;
        return;
      case 'jump':
        this.group = c.group;
        return;
      case 'next':
      case 'accept':
        return this.#later(() => ((this.item += 1), (this.group = 0)));
      case 'note':
        this.mode = 'note';
        this.draft = this.notes.get(this.item) ?? '';
        return;
      case 'type':
        this.draft += c.text;
        return;
      case 'erase':
        this.draft = this.draft.slice(0, -1);
        return;
      case 'save-note':
        this.notes.set(this.item, this.draft);
        this.mode = 'keys';
        return;
      case 'leave-note':
        this.mode = 'keys';
        return;
      case 'cheats':
        this.cheats = !this.cheats;
        return;
      case 'close':
        this.cheats = false;
        return;
      case 'undo':
        return Promise.reject(new Error('nothing to undo'));
    }
  }

  /** Types keys as fast as they come (`Enter`, `Escape`… as names, other text character by character). */
  type(...keys: (string | TypedKey)[]): boolean[] {
    const taken: boolean[] = [];
    for (const k of keys) {
      if (typeof k !== 'string') taken.push(this.keys.press(k));
      else if (/^[A-Z][a-z]+/.test(k)) taken.push(this.keys.press({ key: k }));
      else for (const ch of k) taken.push(this.keys.press({ key: ch }));
    }
    return taken;
  }

  /** Settles the pending moves and saves, one at a time, until the keys have all run. */
  async settle(): Promise<void> {
    for (let n = 0; n < 1000 && (this.keys.busy || this.waits.length); n++) {
      this.waits.shift()?.();
      await new Promise((r) => setTimeout(r, 0));
    }
  }
}

describe('keys typed ahead', () => {
  it('`1 N note 2 Enter Esc →` at 0 ms, a label being saved: the label, then the whole note, on one item', async () => {
    const page = new Page();
    page.type('1', 'N', 'note 2', 'Enter', 'Escape', 'ArrowRight');
    expect(page.keys.waiting).toBeGreaterThan(0);
    expect(page.notes.size).toBe(0); // nothing ran past the label being saved
    await page.settle();
    expect(page.labels.get(0)).toEqual([1]);
    expect(page.notes.get(0)).toBe('note 2');
    expect(page.item).toBe(1);
    expect(page.mode).toBe('keys');
    expect(page.idles).toBe(1);
  });

  it('five rounds on five items with no pause: every label and note on its own item, nothing on the next', async () => {
    const page = new Page();
    for (let r = 0; r < 5; r++) page.type(String(r + 1), 'N', `note ${r}`, 'Enter', 'Escape', 'ArrowRight');
    await page.settle();
    expect(page.item).toBe(5);
    for (let r = 0; r < 5; r++) {
      expect(page.labels.get(r), `item ${r}`).toEqual([r + 1]);
      expect(page.notes.get(r), `item ${r}`).toBe(`note ${r}`);
    }
  });

  it("a key typed while the next item loads waits for it, read in that item's state (group 1 again)", async () => {
    const page = new Page();
    page.type('Tab', 'Tab', '1');
    await page.settle();
    expect(page.labels.get(0)).toEqual([21]);
    page.type('ArrowRight', 'Tab', '1', 'ArrowRight', '1');
    await page.settle();
    // Each item's `1` is read in the group its own Tabs opened, not in the one left open before.
    expect(page.labels.get(1)).toEqual([11]);
    expect(page.labels.get(2)).toEqual([1]);
    expect(page.log).toEqual(['0:group', '0:group', '0:label', '0:next', '1:group', '1:label', '1:next', '2:label']);
  });

  it('in the note, label keys and N are text; Backspace erases; Shift+Enter: a new line; Esc: unsaved', async () => {
    const page = new Page();
    page.type('N', 'n1 Nx', 'Backspace', { key: 'Enter', shift: true }, 'ok', 'Enter');
    expect(page.notes.get(0)).toBe('n1 N\nok');
    page.type('N', ' more', 'Escape', '2');
    await page.settle();
    expect(page.notes.get(0)).toBe('n1 N\nok');
    expect(page.labels.get(0)).toEqual([2]);
  });

  it('in the focused note field with nothing waiting, the browser types the text; Enter and Esc are taken', () => {
    const page = new Page();
    page.mode = 'note';
    expect(page.keys.press({ key: 'a' }, true)).toBe(false);
    expect(page.keys.press({ key: 'Backspace' }, true)).toBe(false);
    expect(page.draft).toBe('');
    // Not focused yet (the field is on its way): the queue types it.
    expect(page.keys.press({ key: 'a' }, false)).toBe(true);
    expect(page.draft).toBe('a');
    expect(page.keys.press({ key: 'Enter' }, true)).toBe(true);
    expect(page.notes.get(0)).toBe('a');
  });

  it('while the queue is busy, text typed into the focused note is held too, behind the keys before it', async () => {
    const page = new Page();
    page.type('1', 'N');
    expect(page.keys.press({ key: 'x' }, true)).toBe(true);
    expect(page.keys.press({ key: 'y' }, true)).toBe(true);
    await page.settle();
    expect(page.draft).toBe('xy');
    expect(page.mode).toBe('note');
  });

  it('keys meaning nothing are left to the browser, busy or not; a failed command stops no key after it', async () => {
    const page = new Page();
    expect(page.keys.press({ key: 'F5' })).toBe(false);
    expect(page.keys.press({ key: 'x' })).toBe(false);
    page.type('1');
    expect(page.keys.press({ key: 'Shift' })).toBe(false);
    expect(page.keys.press({ key: 'r', ctrl: true })).toBe(false);
    expect(page.keys.press({ key: 'z', ctrl: true })).toBe(true);
    page.type('?');
    await page.settle();
    expect(page.log).toEqual(['0:label', '0:undo', '0:cheats']);
    expect(page.cheats).toBe(true);
  });
});

describe('what a key means', () => {
  it('outside the note the cheatsheet keys; in it, text', () => {
    expect(commandOf('keys', { key: '3' })).toEqual({ kind: 'label', key: 3 });
    expect(commandOf('keys', { key: '0' })).toBeNull();
    expect(commandOf('keys', { key: 'Tab', shift: true })).toEqual({ kind: 'group', step: -1 });
    expect(commandOf('keys', { key: 'Enter' })).toEqual({ kind: 'accept' });
    expect(commandOf('keys', { key: 's' })).toEqual({ kind: 'skip' });
    expect(commandOf('keys', { key: 'ArrowLeft' })).toEqual({ kind: 'prev' });
    expect(commandOf('keys', { key: 'Z', ctrl: true })).toEqual({ kind: 'undo' });
    expect(commandOf('keys', { key: 'n', alt: true })).toBeNull();
    expect(commandOf('note', { key: '3' })).toEqual({ kind: 'type', text: '3' });
    expect(commandOf('note', { key: 'é' })).toEqual({ kind: 'type', text: 'é' });
    expect(commandOf('note', { key: 'Tab' })).toBeNull();
    expect(commandOf('note', { key: 'z', ctrl: true })).toBeNull();
  });

  it("a group's letter opens it and A gives the suggestions, in either case; in the note both are text", () => {
    expect(commandOf('keys', { key: 'q' })).toEqual({ kind: 'jump', group: 0 });
    expect(commandOf('keys', { key: 'W' })).toEqual({ kind: 'jump', group: 1 });
    expect(commandOf('keys', { key: 'a' })).toEqual({ kind: 'suggested' });
    expect(commandOf('keys', { key: 'A', shift: true })).toEqual({ kind: 'suggested' });
    expect(commandOf('keys', { key: 'w', ctrl: true })).toBeNull();
    expect(commandOf('note', { key: 'w' })).toEqual({ kind: 'type', text: 'w' });
    expect(commandOf('note', { key: 'a' })).toEqual({ kind: 'type', text: 'a' });
  });
});

describe('a group letter typed ahead', () => {
  it('opens its group on the item it was typed on: `e 2 Enter 1`: group 3, then group 1 on the next item', async () => {
    const page = new Page();
    page.type('e2', 'Enter', '1');
    await page.settle();
    expect(page.labels.get(0)).toEqual([22]);
    expect(page.labels.get(1)).toEqual([1]);
  });
});
