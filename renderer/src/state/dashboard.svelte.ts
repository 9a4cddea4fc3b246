/**
 * The dashboard's state: the chosen evaluation set, the runs shown, their scores (the lines
 * of `stepscope scores --json`, fetched per breakdown), pass@1 intervals, the items behind a
 * clicked mark, and the comparison of two runs. Stale answers are dropped (Newest).
 */
import type {
  DashboardBreakdown,
  EvalSetInfo,
  ItemRow,
  RunComparison,
  RunInfo,
  RolloutRun,
  RunScores,
} from '@core/contract/index.js';
import type { PickArgs } from '../lib/plots.js';
import { Newest } from '../lib/newest.js';
import type { DataSource } from '../lib/source.js';

/** The breakdowns the plots draw; `action` also gives the whole set (its first line). */
export type Breakdown = DashboardBreakdown;

/** A run shown, with its scores as getRunScores gives them (the interval: pass@1's on the whole set). */
export interface ScoredRun extends RunScores {
  run: RunInfo;
}

export class Dashboard {
  sets = $state.raw<EvalSetInfo[]>([]);
  set = $state<EvalSetInfo | null>(null);
  runs = $state.raw<ScoredRun[]>([]);
  /** Labels of the runs drawn (all of the set's by default). */
  shown = $state.raw<string[]>([]);
  error = $state<string | null>(null);
  loading = $state(false);

  /** A rollout set's runs as getRollouts gives them (accuracy by step, every rollout); null for other sets. */
  rollouts = $state.raw<RolloutRun[] | null>(null);

  picked = $state.raw<PickArgs | null>(null);
  groupItems = $state.raw<{ total: number; rows: ItemRow[] } | null>(null);

  a = $state('');
  b = $state('');
  comparison = $state.raw<RunComparison | null>(null);

  #sets = new Newest();
  #picks = new Newest();
  #compares = new Newest();

  constructor(private readonly source: DataSource) {}

  #loading: Promise<void> | null = null;

  /**
   * Lists the sets and opens `want` (default: the one open, else the first). A load without
   * `want` while one is under way waits for it: the view asks for one as it mounts, and must
   * not replace the set a link is opening.
   */
  load(want?: string): Promise<void> {
    if (want === undefined && this.#loading) return this.#loading;
    const p = this.#load(want).finally(() => {
      if (this.#loading === p) this.#loading = null;
    });
    this.#loading = p;
    return p;
  }

  async #load(want?: string): Promise<void> {
    const live = this.#sets.next();
    try {
      const sets = await this.source.call('listEvalSets', {});
      if (!live()) return;
      this.sets = sets;
      const name = want ?? this.set?.name ?? sets[0]?.name;
      if (name !== undefined) await this.choose(name);
    } catch (e) {
      if (live()) this.error = (e as Error).message;
    }
  }

  async choose(name: string): Promise<void> {
    const live = this.#sets.next();
    const set = this.sets.find((s) => s.name === name);
    if (!set) {
      this.error = `There is no evaluation set named "${name}" in this corpus.`;
      return;
    }
    this.loading = true;
    this.error = null;
    try {
      const runs = await this.source.call('listRuns', { set: name });
      // The interval is drawn for CRUXEval sets only (the plot beside the published figures).
      const interval = set.task.startsWith('cruxeval');
      const scored = await Promise.all(
        runs.map(async (run) => ({
          run,
          ...(await this.source.call('getRunScores', { set: name, run: run.label, interval })),
        })),
      );
      const rollouts = set.task === 'rollout' ? await this.source.call('getRollouts', { set: name }) : null;
      if (!live()) return;
      this.set = set;
      this.runs = scored;
      this.rollouts = rollouts;
      this.shown = runs.map((r) => r.label);
      this.picked = this.groupItems = this.comparison = null;
      this.a = runs[0]?.label ?? '';
      this.b = runs[1]?.label ?? '';
      if (this.a && this.b) await this.compare();
    } catch (e) {
      if (live()) this.error = (e as Error).message;
    } finally {
      if (live()) this.loading = false;
    }
  }

  toggle(label: string): void {
    this.shown = this.shown.includes(label)
      ? this.shown.filter((l) => l !== label)
      : this.runs.map((r) => r.run.label).filter((l) => l === label || this.shown.includes(l));
  }

  /** The items behind a clicked mark (the first 200; the total is shown). */
  async pick(p: PickArgs): Promise<void> {
    const live = this.#picks.next();
    this.picked = p;
    this.groupItems = null;
    try {
      const r = await this.source.call('listGroupItems', {
        set: this.set!.name,
        run: p.run,
        limit: 200,
        ...(p.by !== undefined && p.group !== undefined ? { by: p.by, group: String(p.group) } : {}),
      });
      if (live()) this.groupItems = r;
    } catch (e) {
      if (live()) this.error = (e as Error).message;
    }
  }

  async compare(): Promise<void> {
    const live = this.#compares.next();
    this.comparison = null;
    if (!this.set || !this.a || !this.b || this.a === this.b) return;
    try {
      const r = await this.source.call('compareRuns', { set: this.set.name, a: this.a, b: this.b });
      if (live()) this.comparison = r;
    } catch (e) {
      if (live()) this.error = (e as Error).message;
    }
  }
}
