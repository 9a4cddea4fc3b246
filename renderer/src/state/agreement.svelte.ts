/**
 * The agreement view's state (docs/annotation.md, "Several annotators"): the set and run shown,
 * their agreement report, and the adjudicator's settling of a disagreement. The set and run
 * follow the run being labeled (the labeling queue last opened, `followQueues`) and a link's
 * `set` and `run` (state/links.ts); they outlive the view, so coming back shows the same run.
 */
import type { AgreementInfo, EvalSetInfo, Params } from '@core/contract/index.js';
import { Newest } from '../lib/newest.js';
import type { DataSource } from '../lib/source.js';

export class Agreement {
  sets = $state.raw<EvalSetInfo[]>([]);
  set = $state('');
  run = $state('');
  info = $state.raw<AgreementInfo | null>(null);
  error = $state<string | null>(null);

  #loads = new Newest();
  #opening: Promise<string[]> | null = null;

  constructor(private readonly source: DataSource) {}

  get runs(): string[] {
    return this.sets.find((s) => s.name === this.set)?.runs ?? [];
  }

  /** The run being labeled: shown the next time the view opens. */
  follow(set: string, run: string): void {
    this.set = set;
    this.run = run;
  }

  /**
   * Lists the sets and loads the report of the set and run chosen (a link's, the queue's),
   * else of the first set with runs. Says, one sentence each, what of the choice does not
   * exist (then the first set, or the set's first run, is shown). An open under way is joined:
   * the view opens as it mounts and must not replace the run a link is opening.
   */
  open(): Promise<string[]> {
    if (this.#opening) return this.#opening;
    const p = this.#open().finally(() => {
      if (this.#opening === p) this.#opening = null;
    });
    this.#opening = p;
    return p;
  }

  async #open(): Promise<string[]> {
    const problems: string[] = [];
    try {
      this.sets = await this.source.call('listEvalSets', {});
    } catch (e) {
      this.error = (e as Error).message;
      return problems;
    }
    const names = this.sets.map((s) => s.name);
    if (this.set && !names.includes(this.set)) {
      problems.push(`There is no set "${this.set}" (sets: ${names.join(', ') || 'none'}); the first set is shown.`);
      this.set = '';
    }
    if (!this.set) {
      const first = this.sets.find((s) => s.runs.length) ?? this.sets[0];
      this.set = first?.name ?? '';
      this.run = '';
    }
    if (this.run && !this.runs.includes(this.run)) {
      problems.push(
        `The set "${this.set}" has no run "${this.run}" (runs: ${this.runs.join(', ') || 'none'}); its first run is shown.`,
      );
      this.run = '';
    }
    if (!this.run) this.run = this.runs[0] ?? '';
    await this.load();
    return problems;
  }

  /** Another set: its first run. */
  chooseSet(name: string): Promise<void> {
    this.set = name;
    this.run = this.runs[0] ?? '';
    return this.load();
  }

  chooseRun(run: string): Promise<void> {
    this.run = run;
    return this.load();
  }

  /** The report of the set and run chosen (the whole corpus while none is); only the newest answer lands. */
  async load(): Promise<void> {
    const live = this.#loads.next();
    this.error = null;
    const scope: Params<'getAgreement'> = this.set && this.run ? { set: this.set, run: this.run } : {};
    try {
      const info = await this.source.call('getAgreement', scope);
      if (live()) this.info = info;
    } catch (e) {
      if (live()) this.error = (e as Error).message;
    }
  }

  /** `labels` as the final labels of a prediction's disagreement, under the adjudicator's name; then reloads. */
  async settle(target: string, labels: readonly string[], adjudicator: string): Promise<void> {
    const prediction = Number(/^prediction:(\d+)$/.exec(target)?.[1]);
    if (!Number.isFinite(prediction)) return;
    if (!adjudicator.trim()) {
      this.error = 'Type your name as the adjudicator first: the final labels are stored under it.';
      return;
    }
    try {
      await this.source.call('adjudicate', {
        target: { prediction },
        labels: [...labels],
        annotator: adjudicator.trim(),
      });
      await this.load();
    } catch (e) {
      this.error = (e as Error).message;
    }
  }
}

/**
 * `source`, telling `agreement` of each labeling queue opened: the run being labeled is the
 * one whose queue was last opened (whichever view opened it), so Agreement follows it.
 */
export function followQueues(source: DataSource, agreement: Agreement): DataSource {
  return {
    call(method, params) {
      const answer = source.call(method, params);
      if (method !== 'annotationQueue') return answer;
      const q = params as Params<'annotationQueue'>;
      return answer.then((r) => {
        agreement.follow(q.set, q.run);
        return r;
      });
    },
    ...(source.skeletonFetch ? { skeletonFetch: (id: number) => source.skeletonFetch!(id) } : {}),
  };
}
