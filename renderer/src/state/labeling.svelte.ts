/**
 * The labeling queue's state (docs/annotation.md): which run, who labels, the queue and the
 * open item, its labels as the corpus holds them, and every change sent at once. A label
 * shows as saved only when the API has answered with it: what the view shows as saved is in
 * SQLite. The next item is asked for while this one is shown (preload), so moving on reads a
 * promise already settled. Keys typed ahead (lib/typeahead.ts) run these actions one after
 * another; a write carries only what it changes (labels or the note), so a label answered late
 * never takes back a note typed meanwhile, nor a note the labels.
 */
import { groupLabels, type Taxonomy, type TaxonomyLabel } from '@core/annotate/index.js';
import type { AnnotationInfo, AnnotationItem, Params, Queue, QueueEntry } from '@core/contract/index.js';
import type { Field } from '@core/semantics/index.js';
import { Newest } from '../lib/newest.js';
import { sessionQueue, type Mine, type Touched } from '../lib/queue-merge.js';
import type { DataSource } from '../lib/source.js';

const NAME_KEY = 'stepscope.annotator';
const FILTER_KEY = 'stepscope.labelFilter';

/** The queue's filter as the view edits it ('' = any); remembered, so the app reopens the same queue. */
export interface QueueChoice {
  action: string;
  wrong: Field[];
  formatError: 'any' | 'only' | 'none';
  labeled: 'any' | 'yes' | 'no';
  by: string;
  prelabel: string;
}

export const ANY_CHOICE: QueueChoice = {
  action: '',
  wrong: [],
  formatError: 'any',
  labeled: 'any',
  by: '',
  prelabel: '',
};

/** The choice as annotationQueue's filter: only what narrows the queue. */
export function choiceParams(c: QueueChoice): Partial<Params<'annotationQueue'>> {
  return {
    ...(c.action && { action: c.action }),
    ...(c.wrong.length && { wrong: c.wrong }),
    ...(c.formatError !== 'any' && { formatError: c.formatError === 'only' }),
    ...(c.labeled !== 'any' && { labeled: c.labeled }),
    ...(c.by && { by: c.by }),
    ...(c.prelabel && { prelabel: c.prelabel }),
  };
}

/** The target an entry labels: its rollout step (`prediction:ID/step:N`) when it has one, else its prediction. */
function targetOf(prediction: number, step: number | null | undefined): string {
  return step ? `prediction:${prediction}/step:${step}` : `prediction:${prediction}`;
}

function storedChoice(): QueueChoice {
  try {
    return { ...ANY_CHOICE, ...JSON.parse(localStorage.getItem(FILTER_KEY) ?? '{}') };
  } catch {
    return ANY_CHOICE;
  }
}

export class Labeling {
  annotator = $state(localStorage.getItem(NAME_KEY) ?? '');
  set = $state('');
  run = $state('');
  failedOnly = $state(true);
  choice = $state.raw<QueueChoice>(storedChoice());
  taxonomy = $state.raw<Taxonomy | null>(null);
  queue = $state.raw<Queue | null>(null);
  index = $state(0);
  item = $state.raw<AnnotationItem | null>(null);
  /**
   * The open item's rollout step (its entry's first divergence), or null for the whole prediction. Set with `item`:
   * every write on the item labels this step, and `item.mine`, `labels` and `note` are this step's.
   */
  step = $state<number | null>(null);
  /** This annotator's labels on the open item, as last saved. */
  labels = $state.raw<string[]>([]);
  /** This annotator's note on the open item, as last saved. */
  note = $state('');
  /** The note field's text: the saved note, or what is being typed while `noteOpen`. */
  draft = $state('');
  /** The note is being written (N): keys type text. No answer overwrites the draft meanwhile. */
  noteOpen = $state(false);
  /** The open group of labels: the first one on every item shown (a key never means what the item before left open). */
  group = $state(0);
  /** Starts (the queue opening) on their way: keys typed meanwhile wait for its first item. */
  opening = $state(0);
  /** Changes sent and not yet answered. */
  pending = $state(0);
  error = $state<string | null>(null);
  /** Milliseconds the last move to another item took (to the item shown). */
  lastMove = $state<number | null>(null);

  #cache = new Map<number, Promise<AnnotationItem>>();
  #writes: Promise<unknown> = Promise.resolve();
  /** The queue as opened, and the items this session changed (sessionQueue applies them). */
  #open: Queue | null = null;
  /** The set and run the open queue was opened on. */
  #scope = { set: '', run: '' };
  #touched = new Map<number, Touched>();
  /**
   * Answers can land in any order (a slow server; each filter change reopens the queue while
   * the last opening may still be on its way). `#opens`: the opens (start); only the newest
   * lands its taxonomy, queue and item. `#moves`: the moves to an entry (goTo) and the queues
   * landed; only the newest move shows its item, and an open that lands after the user moved on
   * keeps them where they are. `#reloads`: the reloads of #saved.
   */
  #opens = new Newest();
  #moves = new Newest();
  #reloads = new Newest();

  /** The newest start on its way (settled when there is none): keys typed meanwhile wait for it. */
  #starting: Promise<unknown> = Promise.resolve();

  constructor(private readonly source: DataSource) {}

  /** Settles when the newest start has landed (or failed) and the item at the position is shown. */
  async ready(): Promise<void> {
    for (let s = this.#starting; ; s = this.#starting) {
      await s;
      if (s === this.#starting) break;
    }
    await this.#arrived();
  }

  get groups() {
    return this.taxonomy?.groups.filter((g) => groupLabels(this.taxonomy!, g.id).length > 0) ?? [];
  }

  get openGroupLabels(): TaxonomyLabel[] {
    const g = this.groups[this.group];
    return g && this.taxonomy ? groupLabels(this.taxonomy, g.id) : [];
  }

  get entry() {
    return this.queue?.entries[this.index] ?? null;
  }

  setAnnotator(name: string): void {
    this.annotator = name.trim();
    localStorage.setItem(NAME_KEY, this.annotator);
  }

  /**
   * Loads the taxonomy and the queue, and opens the entry where this annotator stopped (the queue
   * lands with that item); or, when the user moved to another entry while this was on its way,
   * stays on that entry if the queue lists it. A newer start (or filter) overrides this one: then
   * it lands nothing.
   */
  start(): Promise<void> {
    this.opening++;
    const p = this.#start().finally(() => this.opening--);
    this.#starting = p.catch(() => undefined);
    return p;
  }

  async #start(): Promise<void> {
    this.error = null;
    if (!this.annotator || !this.set || !this.run) return;
    const live = this.#opens.next();
    const stayed = this.#moves.ticket();
    const scope = { set: this.set, run: this.run };
    try {
      const taxonomy = await this.source.call('getTaxonomy', {});
      if (!live()) return;
      this.taxonomy = taxonomy;
      const queue = await this.#loadQueue(scope);
      if (!live()) return;
      // The items are read again with the queue; the one to open first is asked for before the
      // queue lands, so the position and the item shown change together (not the new queue's
      // position over the old queue's item while it comes). A failure shows when goTo asks again.
      this.#cache.clear();
      const first = Math.min(queue.position, Math.max(0, queue.entries.length - 1));
      if (queue.entries.length) {
        await this.#fetch(queue.entries[first], scope).catch(() => undefined);
        if (!live()) return;
      }
      const on = stayed() ? undefined : this.entry?.prediction;
      this.#moves.drop(); // an item still on its way for the queue replaced is not shown
      this.#touched.clear();
      this.queue = this.#open = queue;
      this.#scope = scope;
      if (queue.entries.length === 0) [this.item, this.step] = [null, null];
      const stay = queue.entries.findIndex((e) => e.prediction === on);
      await this.goTo(stay >= 0 ? stay : first);
    } catch (e) {
      if (live()) this.error = (e as Error).message;
    }
  }

  #loadQueue(scope = { set: this.set, run: this.run }): Promise<Queue> {
    return this.source.call('annotationQueue', {
      ...scope,
      annotator: this.annotator,
      failed: this.failedOnly,
      ...choiceParams(this.choice),
    });
  }

  /** A new filter: remembered, and the queue reopened at its first item not done. */
  async filter(c: QueueChoice): Promise<void> {
    this.choice = c;
    localStorage.setItem(FILTER_KEY, JSON.stringify(c));
    if (this.queue) await this.start();
  }

  /**
   * An entry's item; on a rollout's step, with that step's annotations as `mine` and `annotators`, read in `scope`: the
   * set and run its queue was opened on (not the pickers', which may have changed since).
   */
  #fetch(e: QueueEntry, scope = this.#scope, fresh = false): Promise<AnnotationItem> {
    const prediction = e.prediction;
    let p = fresh ? undefined : this.#cache.get(prediction);
    if (!p) {
      p = e.step
        ? this.#stepItem(prediction, e.step, scope)
        : this.source.call('getAnnotationItem', { prediction, annotator: this.annotator });
      p.catch(() => this.#cache.delete(prediction));
      this.#cache.set(prediction, p);
    }
    return p;
  }

  /** getAnnotationItem answers the whole prediction's annotations; a step's are read from the run's annotations. */
  async #stepItem(prediction: number, step: number, scope: { set: string; run: string }): Promise<AnnotationItem> {
    const target = targetOf(prediction, step);
    const [it, listed] = await Promise.all([
      this.source.call('getAnnotationItem', { prediction, annotator: this.annotator }),
      this.source.call('listAnnotations', scope),
    ]);
    const people = listed.rows.filter((a) => a.target === target && a.source === 'person' && a.role === 'annotator');
    return {
      ...it,
      mine: people.find((a) => a.annotator === this.annotator) ?? null,
      annotators: people
        .filter((a) => !a.skipped)
        .map((a) => a.annotator)
        .sort(),
    };
  }

  /** The newest move to an entry (goTo) on its way; settled when there is none. */
  #moving: Promise<unknown> = Promise.resolve();

  /**
   * Waits until the item shown is the one at the position shown. The position changes at once
   * on Enter or →, the item when it is answered: a key pressed meanwhile (a fast annotator's
   * Enter, 1) is for the item the position names, and would otherwise act on the one still on
   * screen, the item before (e2e/labeling.spec.ts caught it once in CI, where consecutive
   * entries of one task share their key).
   */
  async #arrived(): Promise<void> {
    for (let m = this.#moving; ; m = this.#moving) {
      await m;
      if (m === this.#moving) return;
    }
  }

  /** The keys' actions (label keys, Enter, S, Ctrl+Z) on their way, one after another. */
  #acting: Promise<unknown> = Promise.resolve();

  /**
   * Runs a key's action when the ones pressed before it have taken effect (their labels saved,
   * their next item shown) and the item the position names is shown. Each action reads the
   * item and its labels as they are then: a second Enter accepts the next item, not the one
   * Enter just left; a label key then Enter keeps that label rather than writing the
   * pre-labels over it; a key pressed twice turns its label on and off again.
   */
  #act<T>(f: () => Promise<T>): Promise<T> {
    const p = this.#acting.then(() => this.#arrived()).then(f);
    this.#acting = p.catch(() => undefined);
    return p;
  }

  goTo(i: number, fresh = false): Promise<void> {
    const move = this.#goTo(i, fresh);
    this.#moving = move.catch(() => undefined);
    return move;
  }

  async #goTo(i: number, fresh: boolean): Promise<void> {
    const q = this.queue;
    if (!q || i < 0 || i >= q.entries.length) return;
    const t0 = performance.now();
    const live = this.#moves.next();
    this.index = i;
    const e = q.entries[i];
    const it = await this.#fetch(e, this.#scope, fresh);
    if (!live()) return; // the user moved again, or another queue landed
    const other = this.item?.prediction.prediction !== it.prediction.prediction || this.step !== (e.step ?? null);
    this.item = it;
    this.step = e.step ?? null;
    this.labels = it.mine?.labels ?? [];
    this.note = it.mine?.note ?? '';
    // Another item starts with its first group and its saved note; the same one read again (an
    // undo) keeps the group, and a note being typed.
    if (other) [this.group, this.noteOpen] = [0, false];
    if (!this.noteOpen) this.draft = this.note;
    this.lastMove = performance.now() - t0;
    // Preload the next entry (and drop what is far behind).
    if (i + 1 < q.entries.length) this.#fetch(q.entries[i + 1]);
  }

  next = () => this.goTo(this.index + 1);
  prev = () => this.goTo(this.index - 1);

  /** Runs writes one after another, in the order they were asked for. */
  #write<T>(f: () => Promise<T>): Promise<T> {
    this.pending++;
    const p = this.#writes.then(f);
    this.#writes = p.catch(() => undefined);
    return p
      .catch((e) => {
        this.error = (e as Error).message;
        throw e;
      })
      .finally(() => this.pending--);
  }

  /**
   * An answer to a change: shown if its item is open, and counted in the progress. `before`: the item's annotation when
   * it was shown.
   */
  #saved(a: AnnotationInfo, before: Mine | undefined, now: Mine = a): void {
    const at = this.item && a.target === targetOf(this.item.prediction.prediction, this.step);
    if (at) {
      this.labels = now ? [...now.labels] : [];
      this.note = now ? (a.note ?? '') : '';
      if (!this.noteOpen) this.draft = this.note;
    }
    this.#cache.delete(a.prediction ?? -1);
    const p = a.prediction;
    if (p === null || !this.#open) return;
    // The queue's entry for this prediction is about another target (a rollout's step, or the whole rollout).
    const e = this.#open.entries.find((x) => x.prediction === p);
    if (e && targetOf(p, e.step) !== a.target) return;
    const t = this.#touched.get(p);
    if (!t && before === undefined) {
      // A change to an item this session has not shown (an undo reaching back): ask the corpus.
      this.#reload();
      return;
    }
    this.#touched.set(p, { before: t ? t.before : before!, now });
    this.queue = sessionQueue(this.#open, this.#touched);
  }

  /**
   * The queue asked for again, in place: it lands unless a start or a later reload began
   * meanwhile, and the position follows the entry open (the reloaded queue may list more or
   * fewer entries before it).
   */
  #reload(): void {
    const open = this.#opens.ticket();
    const reload = this.#reloads.next();
    this.#touched.clear();
    this.#loadQueue().then(
      (q) => {
        if (!open() || !reload()) return;
        const on = this.entry?.prediction;
        this.queue = this.#open = q;
        const i = q.entries.findIndex((e) => e.prediction === on);
        if (i >= 0) this.index = i;
      },
      () => undefined,
    );
  }

  /** Sets the open item's labels; its note stays as stored. */
  setLabels(labels: string[]): Promise<void> {
    return this.#change({ labels });
  }

  /** Sets the open item's note ('' removes it); its labels stay as stored. */
  setNote(note: string): Promise<void> {
    return this.#change({ note });
  }

  async #change(fields: { labels: string[] } | { note: string }): Promise<void> {
    const [item, step] = [this.item, this.step];
    if (!item) return;
    const target = { prediction: item.prediction.prediction, ...(step !== null && { step }) };
    const a = await this.#write(() => this.source.call('annotate', { target, ...fields, annotator: this.annotator }));
    this.#saved(a, item.mine);
  }

  /** Tab / Shift+Tab: the next or previous group of labels. */
  cycleGroup(step: 1 | -1): void {
    const n = this.groups.length;
    if (n) this.group = (this.group + step + n) % n;
  }

  /** A group's letter: that group opens (nothing happens for a letter past the groups). */
  jumpGroup(i: number): void {
    if (i >= 0 && i < this.groups.length) this.group = i;
  }

  /** The labels the rules suggest on the item shown (each once, in the rules' order). */
  get suggested(): string[] {
    return [...new Set(this.item?.prelabels.map((p) => p.label) ?? [])];
  }

  /**
   * A: every suggested label given, beside the labels given already, in one write; the item
   * stays open (Enter moves on). Nothing is written when they are all given.
   */
  acceptSuggested(): Promise<void> {
    return this.#act(() => {
      const add = this.suggested.filter((l) => !this.labels.includes(l));
      return add.length ? this.setLabels([...this.labels, ...add]) : Promise.resolve();
    });
  }

  /**
   * A label key: the label of the group open when the key's turn comes (after the Tabs typed
   * before it, on the item it was typed on), turned on or off; settled when saved.
   */
  toggleKey(key: number): Promise<void> {
    return this.#act(() => {
      const label = this.openGroupLabels.find((l) => l.key === key);
      if (!label) return Promise.resolve();
      const has = this.labels.includes(label.id);
      return this.setLabels(has ? this.labels.filter((l) => l !== label.id) : [...this.labels, label.id]);
    });
  }

  /** N: the note opens on the item shown, with its saved note. */
  openNote(): Promise<void> {
    return this.#act(async () => this.focusNote());
  }

  /** The note field took the focus (N, or a click): keys type text until Enter, Esc or a blur. */
  focusNote(): void {
    if (this.item) this.noteOpen = true;
  }

  /** Text typed ahead into the open note (the field types it itself when it has the focus). */
  typeNote(text: string): void {
    if (this.noteOpen) this.draft += text;
  }

  eraseNote(): void {
    if (this.noteOpen) this.draft = [...this.draft].slice(0, -1).join('');
  }

  /**
   * Enter in the note: it closes and its text is saved, alone (the labels stay as stored).
   * Settles once the write is on its way, in order with the others; it does not wait for it.
   */
  saveNote(): Promise<void> {
    return this.#act(async () => {
      if (!this.noteOpen) return;
      this.noteOpen = false;
      // Sent even when it reads as the saved note: a note sent before may still be on its way
      // (the store writes nothing for a note that is already there).
      this.setNote(this.draft).catch(() => undefined); // the error is shown by #write
    });
  }

  /** Esc in the note: it closes unsaved, showing the saved note. */
  leaveNote(): void {
    this.noteOpen = false;
    this.draft = this.note;
  }

  /**
   * Enter: keeps the labels given (stored already: this.labels only ever holds saved labels),
   * or accepts the pre-labels when none were given, and opens the next entry at once. The
   * write goes on meanwhile, in order with the others; "saving…" shows until it is answered.
   */
  accept(): Promise<void> {
    return this.#act(async () => {
      if (!this.item) return;
      if (!this.labels.length) {
        const labels = [...new Set(this.item.prelabels.map((p) => p.label))];
        if (labels.length) this.setLabels(labels).catch(() => undefined); // the error is shown by #write
      }
      await this.next();
    });
  }

  skip(): Promise<void> {
    return this.#act(async () => {
      const [item, step] = [this.item, this.step];
      if (!item) return;
      const a = await this.#write(() =>
        this.source.call('skipAnnotation', {
          target: { prediction: item.prediction.prediction, ...(step !== null && { step }) },
          annotator: this.annotator,
        }),
      );
      this.#saved(a, item.mine);
      await this.next();
    });
  }

  /** Ctrl+Z: reverts this annotator's last change and shows the item it was on. */
  undo(): Promise<void> {
    return this.#act(async () => {
      const r = await this.#write(() => this.source.call('undoAnnotation', { annotator: this.annotator }));
      if (!r.undone) return;
      const undone = r.undone;
      const i = this.queue?.entries.findIndex((e) => targetOf(e.prediction, e.step) === undone.target) ?? -1;
      if (i >= 0) await this.goTo(i, true);
      // What the item holds now (an undone creation leaves no annotation of this annotator).
      const shown = this.item && targetOf(this.item.prediction.prediction, this.step) === undone.target;
      const now = shown ? this.item!.mine : undone;
      this.#saved(r.undone, undefined, now);
    });
  }
}
