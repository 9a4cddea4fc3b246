/**
 * The predictions overlay of the explorer (docs/explorer.md): the evaluation set and run(s)
 * chosen, the items of the open trace with their verdicts (marks on tree nodes), the failing
 * items of the whole set (F8 / Shift+F8, lib/overlay/failures.ts), and the check that is open: an item of the run, a
 * pasted completion or the model's answers at some state, each with the truth it is read
 * against. Opening a check replays its prompt trajectory in the explorer: the current node is
 * where the model was asked, and the next action (the check's last) leads to the target.
 * Views read it; only its methods change it.
 */
import type {
  CheckedAnswer,
  EvalSetInfo,
  ItemDetail,
  ItemRow,
  PredictionDetail,
  RunInfo,
  StateCheck,
} from '@core/contract/index.js';
import type { TargetFields } from '@core/semantics/eval.js';
import { Newest } from '../lib/newest.js';
import { loadModelSettings, saveModelSettings, type AppModelSettings } from '../lib/overlay/settings.js';
import { failingOrder, failureNote, nextFailure, type FailingRef } from '../lib/overlay/failures.js';
import { itemMark, sampleVerdict, worst, type ItemMark, type OverlayVerdict } from '../lib/overlay/verdict.js';
import type { DataSource } from '../lib/source.js';
import { nodeOf, type Tree } from '../lib/tree/build.js';
import type { Explorer } from './explorer.svelte.js';
import { Rollouts } from './rollout.svelte.js';

/** One answer shown against the truth: a run's prediction, a pasted text or a model's sample. */
export interface ShownAnswer extends CheckedAnswer {
  sample: number;
  verdict: OverlayVerdict | null;
  /** Execution check (CRUXEval), valid alternative: status and detail, for an item's predictions. */
  exec?: string | null;
  execDetail?: string | null;
  alt?: string | null;
  altGot?: string | null;
}

export interface OpenCheck {
  source: 'item' | 'paste' | 'ask';
  traceId: number;
  direction: 'forward' | 'inverse';
  entry: number;
  /** Every action, the last one being the one the model answered. */
  actions: string[];
  targetNode: number | null;
  targetSeq: number | null;
  truth: TargetFields;
  target: string;
  answers: ShownAnswer[];
  /** Set for an item of a run. */
  item: ItemDetail | null;
  /** The run whose answers these are (items), or the model asked. */
  by: string | null;
  /** An item opened with a second run chosen: that run's answers, shown beside the first's (run B). */
  second: { by: string; answers: ShownAnswer[] } | null;
}

/** A run's prediction as the panel shows it. */
const shown = (p: PredictionDetail): ShownAnswer => ({
  completion: p.completion,
  finish: p.finish,
  parsed: p.parsed,
  parseError: p.parseError,
  em: p.em,
  sample: p.sample,
  verdict: sampleVerdict(p),
  exec: p.exec,
  execDetail: p.execDetail,
  alt: p.alt,
  altGot: p.altGot,
});

export class Overlay {
  sets = $state.raw<EvalSetInfo[]>([]);
  runs = $state.raw<RunInfo[]>([]);
  set = $state('');
  run = $state('');
  run2 = $state('');
  failuresOnly = $state(false);
  /** Items of the chosen set on the open trace. */
  items = $state.raw<ItemRow[]>([]);
  itemsTrace = $state<number | null>(null);
  check = $state.raw<OpenCheck | null>(null);
  /** The sample shown of the check's answers, and of the second run's. */
  sample = $state(0);
  sample2 = $state(0);
  /** One line: a failed request, a stale link. */
  error = $state<string | null>(null);
  busy = $state<string | null>(null);
  /** The item being opened (openItem), until it is shown: the address names it from the start. */
  opening = $state<number | null>(null);
  /** The prediction panel is open without a set (to paste or ask at any state). */
  tools = $state(false);
  settings = $state<AppModelSettings>(loadModelSettings());

  #items = new Newest();
  #checks = new Newest();
  /** The newest load of the sets, a set's runs or its items: F8 waits for it (a link still loading). */
  #loading: Promise<void> = Promise.resolve();

  /** A rollout set's rollouts (its items open as rollouts, not as one prediction each). */
  readonly rollout: Rollouts;

  constructor(
    private readonly source: DataSource,
    private readonly explorer: Explorer,
  ) {
    this.rollout = new Rollouts(source, explorer);
  }

  /** The chosen set is a rollout set (task `rollout`). */
  get isRollout(): boolean {
    return !!this.set && this.sets.find((s) => s.name === this.set)?.task === 'rollout';
  }

  /** Marks per node of a tree, for a run (the worst verdict where several items target one node). */
  marksFor(tree: Tree | null, which: 'forward' | 'inverse', run: string): Map<number, ItemMark> {
    const out = new Map<number, ItemMark>();
    // A rollout's item row describes its first step only: the rollout's ghosts say more (RolloutLayer).
    if (!tree || !run || this.isRollout) return out;
    for (const it of this.items) {
      if (it.direction !== which || it.targetSeq === null) continue;
      const m = itemMark(it, run);
      if (!m) continue;
      const node = nodeOf(tree, it.targetSeq, it.targetKind);
      if (node < 0) continue;
      const had = out.get(node);
      out.set(node, had ? worst(had, m) : m);
    }
    return out;
  }

  counts = $derived.by(() => {
    const c: Record<OverlayVerdict | 'none', number> = { pass: 0, fail: 0, format: 0, alternative: 0, none: 0 };
    for (const it of this.items) c[itemMark(it, this.run)?.verdict ?? 'none']++;
    return c;
  });

  loadSets(): Promise<void> {
    return (this.#loading = this.#loadSets());
  }

  async #loadSets(): Promise<void> {
    try {
      this.sets = await this.source.call('listEvalSets', {});
    } catch (e) {
      this.error = (e as Error).message;
    }
  }

  /**
   * Chooses a set (its first run unless `run` is given); '' turns the overlay off. Stale names are said, not thrown.
   */
  chooseSet(name: string, run?: string, run2?: string): Promise<void> {
    return (this.#loading = this.#chooseSet(name, run, run2));
  }

  async #chooseSet(name: string, run?: string, run2?: string): Promise<void> {
    this.set = name;
    this.run = this.run2 = '';
    this.runs = [];
    this.items = [];
    this.error = null;
    this.rollout.close();
    if (!name) return;
    if (!this.sets.some((s) => s.name === name)) {
      this.error = `There is no evaluation set "${name}" in this corpus${this.sets.length ? ` (sets: ${this.sets.map((s) => s.name).join(', ')})` : ''}.`;
      this.set = '';
      return;
    }
    try {
      this.runs = await this.source.call('listRuns', { set: name });
    } catch (e) {
      this.error = (e as Error).message;
      return;
    }
    const pick = (label: string | undefined, which: string) => {
      if (label === undefined || this.runs.some((r) => r.label === label)) return label;
      this.error = `The set "${name}" has no run "${label}" (${which}; runs: ${this.runs.map((r) => r.label).join(', ') || 'none'}).`;
      return undefined;
    };
    this.run = pick(run, 'run') ?? this.runs[0]?.label ?? '';
    this.run2 = pick(run2, 'second run') ?? '';
    if (this.run2 === this.run) this.run2 = ''; // a run compared with itself: one run
    await this.loadItems();
  }

  /** The name of the set item `id` belongs to; undefined when the item cannot be read (openItem then says why). */
  async setOfItem(id: number): Promise<string | undefined> {
    try {
      return (await this.source.call('getItem', { id })).set;
    } catch {
      return undefined;
    }
  }

  /** Chooses the run (the second run); an open item shows the new run's answers, its trajectory kept. */
  chooseRun(label: string): void {
    this.run = label;
    if (this.run2 === label) this.run2 = '';
    if (this.isRollout) {
      const open = this.rollout.open;
      void this.rollout.load(this.set, label).then(() => {
        if (open) void this.rollout.openItem(this.set, label, open.id, this.rollout.step ?? undefined);
      });
      return;
    }
    void this.#reloadItem();
  }

  chooseRun2(label: string): void {
    this.run2 = label;
    void this.#reloadItem();
  }

  async #reloadItem(): Promise<void> {
    const item = this.check?.item;
    if (!item) return;
    const live = this.#checks.next();
    try {
      const [a, b] = await this.#itemAnswers(item.id);
      if (live() && this.check?.item?.id === item.id) this.#showItem(a, b);
    } catch (e) {
      if (live()) this.error = `Item ${item.id}: ${(e as Error).message}`;
    }
  }

  /** The item with the chosen run's predictions (every run's when none is chosen), and with the second run's. */
  #itemAnswers(id: number): Promise<[ItemDetail, ItemDetail | null]> {
    const run2 = this.run && this.run2 && this.run2 !== this.run ? this.run2 : '';
    return Promise.all([
      this.source.call('getItem', { id, run: this.run || undefined }),
      run2 ? this.source.call('getItem', { id, run: run2 }) : null,
    ]);
  }

  #showItem(item: ItemDetail, second: ItemDetail | null): void {
    this.sample = this.sample2 = 0;
    this.check = {
      source: 'item',
      traceId: item.traceId,
      direction: item.direction,
      entry: item.entry,
      actions: item.actions,
      targetNode: item.targetNode,
      targetSeq: item.targetSeq,
      truth: item.truth,
      target: item.target,
      item,
      by: this.run || null,
      answers: item.predictions.map(shown),
      second: second ? { by: this.run2, answers: second.predictions.map(shown) } : null,
    };
  }

  /** The chosen set's items on the open trace (every page); called when the trace changes. */
  loadItems(): Promise<void> {
    return (this.#loading = this.#loadItems());
  }

  async #loadItems(): Promise<void> {
    const live = this.#items.next();
    const traceId = this.explorer.traceId;
    if (!this.set || traceId === null) {
      this.items = [];
      this.itemsTrace = traceId;
      return;
    }
    try {
      const rows: ItemRow[] = [];
      for (let offset = 0; ; offset += 1000) {
        const page = await this.source.call('listItems', { set: this.set, traceId, offset, limit: 1000 });
        rows.push(...page.rows);
        if (rows.length >= page.total || !page.rows.length) break;
      }
      if (!live()) return;
      this.items = rows;
      this.itemsTrace = traceId;
      await this.rollout.load(this.isRollout ? this.set : '', this.run);
    } catch (e) {
      if (live()) this.error = (e as Error).message;
    }
  }

  /** Replays the prompt trajectory: every action but the last walked, the last one left to redo. */
  #replay(direction: 'forward' | 'inverse', entry: number, actions: string[]): Promise<void> {
    return this.explorer.replay(direction, entry, actions, actions.length - 1);
  }

  /**
   * Opens an item of the chosen run (or every run when none is chosen): replay, ghost, diff;
   * with a second run chosen, its answers too (a second ghost, a second column).
   */
  async openItem(id: number): Promise<void> {
    if (this.isRollout) {
      this.opening = id;
      await this.rollout.openItem(this.set, this.run, id);
      this.opening = null;
      return;
    }
    const live = this.#checks.next();
    this.error = null;
    this.failNote = null;
    this.opening = id;
    try {
      const [item, second] = await this.#itemAnswers(id);
      if (!live()) return;
      if (this.explorer.traceId !== item.traceId) await this.explorer.open(item.traceId);
      await this.#replay(item.direction, item.entry, item.actions);
      if (!live()) return;
      this.#showItem(item, second);
    } catch (e) {
      if (live()) this.error = `Item ${id}: ${(e as Error).message}`;
    } finally {
      if (live()) this.opening = null;
    }
  }

  /**
   * F8 / Shift+F8: the next (previous) failing item of the chosen run in the whole set
   * (failingOrder: trace by trace, each in tree order), opening its trace when it is another
   * one. From the last (first) item it wraps round, and `failAt.note` says so; reaching the end
   * says that the next press wraps.
   */
  async jumpFailure(step: 1 | -1): Promise<void> {
    // Pressed while a trace opens or a link loads its set: the failing items are known once the
    // trees are built and the items are in (each load may start the next: wait until none is new).
    if (this.explorer.loading) await this.explorer.opening;
    for (let p: Promise<void> | null = null; p !== this.#loading;) await (p = this.#loading);
    if (!this.set || !this.run) {
      this.error = this.set ? `The set "${this.set}" has no run to read failures from.` : 'Choose a set and run first.';
      return;
    }
    const list = await this.#failingOfSet();
    if (!list) return;
    if (!list.length) {
      this.error = `No failing item of ${this.run} in the set "${this.set}".`;
      this.failNote = null;
      return;
    }
    // From the item being opened, if a press came before it landed: two quick presses go two on.
    const open = this.opening ?? this.check?.item?.id ?? this.rollout.open?.id;
    const at = open === undefined ? -1 : list.findIndex((f) => f.id === open);
    const next = nextFailure(list, at, step, this.explorer.traceId);
    await this.openItem(list[next.index].id);
    if ((this.check?.item?.id ?? this.rollout.open?.id) === list[next.index].id)
      this.failNote = failureNote(next.index, list.length, step, next.wrapped);
  }

  /** Where the open item is among the run's failing items of the set (once F8 has listed them), and a note. */
  get failAt(): { at: number; of: number; note: string | null } | null {
    const list = this.#failing?.key === `${this.set}\n${this.run}` ? this.#failing.list : null;
    const id = this.check?.item?.id ?? this.rollout.open?.id;
    if (!list || id === undefined) return null;
    const at = list.findIndex((f) => f.id === id);
    return at < 0 ? null : { at: at + 1, of: list.length, note: this.failNote };
  }

  /** One line about the last F8 (the end of the list reached, or wrapped round). */
  failNote = $state<string | null>(null);
  #failing = $state.raw<{ key: string; list: FailingRef[] } | null>(null);

  /** The chosen run's failing items of the whole set, in F8's order (read once per set and run); null on an error. */
  async #failingOfSet(): Promise<FailingRef[] | null> {
    const key = `${this.set}\n${this.run}`;
    if (this.#failing?.key === key) return this.#failing.list;
    const [set, run] = [this.set, this.run];
    try {
      const rows: ItemRow[] = [];
      for (let offset = 0; ; offset += 1000) {
        const page = await this.source.call('listItems', { set, run, offset, limit: 1000 });
        rows.push(...page.rows);
        if (rows.length >= page.total || !page.rows.length) break;
      }
      const list = failingOrder(rows, run);
      if (this.set === set && this.run === run) this.#failing = { key, list };
      return list;
    } catch (e) {
      this.error = (e as Error).message;
      return null;
    }
  }

  /** The state at the explorer's cursor, plus `action`: where a paste or a question is asked. */
  #here(
    action: string,
  ): { traceId: number; direction: 'forward' | 'inverse'; entry: number; actions: string[] } | null {
    const ex = this.explorer;
    if (ex.traceId === null) return null;
    return {
      traceId: ex.traceId,
      direction: ex.direction,
      entry: ex.entry,
      actions: [...ex.actions.slice(0, ex.cursor), action],
    };
  }

  #show(kind: 'paste' | 'ask', r: StateCheck, by: string | null): void {
    this.sample = 0;
    this.check = {
      source: kind,
      traceId: r.traceId,
      direction: r.direction,
      entry: r.entry,
      actions: r.actions,
      targetNode: r.targetNode,
      targetSeq: r.targetSeq,
      truth: r.truth,
      target: r.target,
      item: null,
      by,
      second: null,
      answers: r.answers.map((a, i) => ({
        ...a,
        sample: i,
        verdict: a.parseError ? 'format' : a.em.all ? 'pass' : 'fail',
      })),
    };
  }

  /** Paste a completion: parsed and diffed against the truth at the current state + action; nothing stored. */
  async paste(text: string, action: string): Promise<void> {
    const at = this.#here(action);
    if (!at) return;
    const live = this.#checks.next();
    this.error = null;
    try {
      const r = await this.source.call('checkCompletions', { ...at, completions: [text] });
      if (live()) this.#show('paste', r, null);
    } catch (e) {
      if (live()) this.error = (e as Error).message;
    }
  }

  /** Ask the model (the settings' endpoint) at the current state + action, k samples. */
  async ask(action: string): Promise<void> {
    const at = this.#here(action);
    if (!at) return;
    const s = this.settings;
    if (!s.endpoint.trim() || !s.model.trim()) {
      this.error = 'Set the model server first (Model settings: endpoint and model name).';
      return;
    }
    const live = this.#checks.next();
    this.error = null;
    this.busy = `Asking ${s.model}…`;
    try {
      const r = await this.source.call('askModel', {
        ...at,
        endpoint: s.endpoint.trim(),
        model: s.model.trim(),
        apiKeyEnv: s.apiKeyEnv.trim() || undefined,
        samples: s.samples,
        temperature: s.temperature,
      });
      if (live()) this.#show('ask', r, r.model ?? s.model);
    } catch (e) {
      if (live()) this.error = `Ask the model: ${(e as Error).message}`;
    } finally {
      if (live()) this.busy = null;
    }
  }

  saveSettings(s: AppModelSettings): void {
    this.settings = s;
    saveModelSettings(s);
  }

  closeCheck(): void {
    this.#checks.next();
    this.check = null;
    this.opening = null;
  }

  /** The explorer is at the state the open check was asked at (its ghost and edge are drawn from there). */
  get atPrompt(): boolean {
    const c = this.check;
    const ex = this.explorer;
    if (
      !c ||
      ex.traceId !== c.traceId ||
      ex.direction !== c.direction ||
      ex.entry !== c.entry ||
      ex.cursor !== c.actions.length - 1
    )
      return false;
    for (let j = 0; j < ex.cursor; j++) if (ex.actions[j] !== c.actions[j]) return false;
    return true;
  }
}
