/**
 * The labeling queue's keys typed ahead (docs/annotation.md, "Typing ahead"). A fast annotator
 * types the next keys while an item is still on its way, a label is being saved or the note
 * field is not focused yet. Every key is kept, in order, and read when the keys before it have
 * taken effect: what a key means depends on where those left the queue (in the note, a `1` is
 * text; outside it, a label), never on what the screen showed when it was pressed.
 *
 * Pure (no DOM, no Svelte): the view hands each keydown to `press` and runs the commands.
 * The labels' keys (digits, the groups' letters, A) are lib/label-keys.ts's.
 */
import { groupOfKey, SUGGESTED_KEY } from './label-keys.js';

/** A key as pressed (the fields of a KeyboardEvent the queue reads). */
export interface TypedKey {
  key: string;
  shift?: boolean;
  ctrl?: boolean;
  alt?: boolean;
  meta?: boolean;
}

/** Where the keys go: the item's keys, or the open note's text. */
export type Mode = 'keys' | 'note';

export type KeyCommand =
  | { kind: 'label'; key: number }
  | { kind: 'group'; step: 1 | -1 }
  /** Open the group-th group (its letter). */
  | { kind: 'jump'; group: number }
  /** Give every label the rules suggest (A). */
  | { kind: 'suggested' }
  | { kind: 'accept' }
  | { kind: 'next' }
  | { kind: 'prev' }
  | { kind: 'skip' }
  | { kind: 'undo' }
  | { kind: 'cheats' }
  | { kind: 'close' }
  | { kind: 'note' }
  | { kind: 'type'; text: string }
  | { kind: 'erase' }
  | { kind: 'save-note' }
  | { kind: 'leave-note' };

/** What a key does in a mode; null: nothing (the key is dropped, or left to the browser when it is not held). */
export function commandOf(mode: Mode, k: TypedKey): KeyCommand | null {
  const { key } = k;
  if (mode === 'note') {
    if (k.ctrl || k.meta || k.alt) return null;
    if (key === 'Enter') return k.shift ? { kind: 'type', text: '\n' } : { kind: 'save-note' };
    if (key === 'Escape') return { kind: 'leave-note' };
    if (key === 'Backspace') return { kind: 'erase' };
    return [...key].length === 1 ? { kind: 'type', text: key } : null;
  }
  if (k.ctrl && (key === 'z' || key === 'Z')) return { kind: 'undo' };
  if (k.ctrl || k.meta || k.alt) return null;
  if (/^[1-9]$/.test(key)) return { kind: 'label', key: Number(key) };
  switch (key) {
    case 'Tab':
      return { kind: 'group', step: k.shift ? -1 : 1 };
    case 'Enter':
      return { kind: 'accept' };
    case 'ArrowRight':
      return { kind: 'next' };
    case 'ArrowLeft':
      return { kind: 'prev' };
    case 'n':
    case 'N':
      return { kind: 'note' };
    case 's':
    case 'S':
      return { kind: 'skip' };
    case '?':
      return { kind: 'cheats' };
    case 'Escape':
      return { kind: 'close' };
  }
  if (key.toLowerCase() === SUGGESTED_KEY) return { kind: 'suggested' };
  const group = groupOfKey(key);
  return group === null ? null : { kind: 'jump', group };
}

/** A key that means something in either mode: held while the queue is busy (its meaning is not known yet). */
export const meansSomething = (k: TypedKey) => commandOf('keys', k) !== null || commandOf('note', k) !== null;

/**
 * The keys pressed, run one after another. `run` carries out a command; when it returns a
 * promise (an item to wait for, a label being saved), the keys after it wait until it settles
 * (rejected or not: the action shows its own error). `mode` is read when a key's turn comes.
 * `idle` is told when the last key held has run (the view then focuses the note field if the
 * keys left it open).
 */
export class KeyQueue {
  #held: TypedKey[] = [];
  #running = false;

  constructor(
    private readonly mode: () => Mode,
    private readonly run: (c: KeyCommand) => unknown,
    private readonly idle: () => void = () => undefined,
  ) {}

  /** Keys wait their turn: a command is running or keys are held. */
  get busy(): boolean {
    return this.#running;
  }

  /** How many keys are held, not yet run. */
  get waiting(): number {
    return this.#held.length;
  }

  /**
   * A keydown. `inNote`: it was typed into the focused note field, where the browser types text
   * itself when nothing is waiting. Returns true when the queue took the key (the caller
   * prevents the browser's default), false when the key is left to the browser.
   */
  press(k: TypedKey, inNote = false): boolean {
    if (this.#running) {
      if (!meansSomething(k)) return false;
      this.#held.push(k);
      return true;
    }
    const mode = this.mode();
    const c = commandOf(mode, k);
    if (!c) return false;
    // The note field types its text itself (caret, selection, input methods) when it has the focus.
    if (mode === 'note' && inNote && (c.kind === 'type' || c.kind === 'erase')) return false;
    this.#held.push(k);
    void this.#drain();
    return true;
  }

  async #drain(): Promise<void> {
    this.#running = true;
    try {
      for (let k = this.#held.shift(); k; k = this.#held.shift()) {
        const c = commandOf(this.mode(), k);
        if (!c) continue;
        try {
          const r = this.run(c);
          if (r instanceof Promise) await r;
        } catch {
          // The action shows its own error; the keys after it still run.
        }
      }
    } finally {
      this.#running = false;
    }
    this.idle();
  }
}
