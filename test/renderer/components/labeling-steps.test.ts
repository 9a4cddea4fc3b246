// The labeling queue's state on a rollout set (renderer/src/state/labeling.svelte.ts): an entry with a step (the
// rollout's first divergence) is labeled on that step. Every write names `{prediction, step}`, the labels shown as
// given are the step's, and the whole rollout's annotation is neither shown nor changed; an entry without a step is
// labeled as a whole prediction.
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_TAXONOMY, groupLabels } from '../../../src/annotate/index.js';
import type { AnnotationInfo, Method, Params, Queue } from '../../../src/contract/index.js';
import { Labeling } from '../../../renderer/src/state/labeling.svelte.js';
import { HeldSource } from './held-source.js';

const [first, second] = groupLabels(DEFAULT_TAXONOMY, DEFAULT_TAXONOMY.groups[0].id);

const key = (t: { prediction?: number; step?: number }) =>
  t.step === undefined ? `prediction:${t.prediction}` : `prediction:${t.prediction}/step:${t.step}`;

/** Annotations by target (one annotator's and another's), with annotate, skip and undo as the store does them. */
class StepSource extends HeldSource {
  readonly rows = new Map<string, AnnotationInfo>();
  readonly changes: { target: string; before: AnnotationInfo | undefined }[] = [];
  readonly targets: string[] = [];

  put(target: string, labels: string[], annotator = 'flo', skipped = false): AnnotationInfo {
    const prediction = Number(/^prediction:(\d+)/.exec(target)![1]);
    const a = { id: this.rows.size + 1, target, prediction, labels, note: null, annotator, skipped };
    const info = { ...a, source: 'person', role: 'annotator' } as unknown as AnnotationInfo;
    this.rows.set(`${annotator} ${target}`, info);
    return info;
  }

  #write(target: string, labels: string[], skipped = false): AnnotationInfo {
    this.targets.push(target);
    this.changes.push({ target, before: this.rows.get(`flo ${target}`) });
    return this.put(target, labels, 'flo', skipped);
  }

  protected answer(method: Method, p: unknown): unknown {
    switch (method) {
      case 'getTaxonomy':
        return DEFAULT_TAXONOMY;
      case 'annotationQueue': {
        const entries = [
          { prediction: 1, step: 3, target: 'prediction:1/step:3', key: 'ro/1' },
          { prediction: 2, step: null, target: 'prediction:2', key: 'ro/2' },
        ].map((e, i) => {
          const mine = this.rows.get(`flo ${e.target}`);
          const state = mine ? (mine.skipped ? ('skipped' as const) : ('labeled' as const)) : null;
          return { ...e, item: i + 1, action: 'step_over', sample: 0, annotators: [], mine: state, prelabels: [] };
        });
        const queue: Queue = {
          entries,
          done: entries.filter((e) => e.mine).length,
          position: 0,
          counts: {},
          reviews: null,
          progress: [],
          facets: { actions: [], annotators: [], prelabels: [] },
        };
        return queue;
      }
      case 'getAnnotationItem': {
        const { prediction, annotator } = p as Params<'getAnnotationItem'>;
        const actions = ['step_over', 'step_over', 'step_into', 'step_over', 'step_out', 'step_over'];
        return {
          item: { key: `ro/${prediction}`, actions },
          prediction: { prediction, sample: 0 },
          prelabels: [],
          mine: this.rows.get(`${annotator} prediction:${prediction}`) ?? null,
          annotators: [],
        };
      }
      case 'listAnnotations':
        return { counts: {}, rows: [...this.rows.values()] };
      case 'annotate': {
        const q = p as Params<'annotate'>;
        // As the store: a note alone keeps the labels.
        return this.#write(key(q.target), q.labels ?? this.rows.get(`flo ${key(q.target)}`)?.labels ?? []);
      }
      case 'skipAnnotation':
        return this.#write(key((p as Params<'skipAnnotation'>).target), [], true);
      case 'undoAnnotation': {
        const last = this.changes.pop();
        if (!last) return { undone: null };
        if (last.before) this.rows.set(`flo ${last.target}`, last.before);
        else this.rows.delete(`flo ${last.target}`);
        return { undone: last.before ?? { ...this.put(last.target, []), labels: [] } };
      }
    }
    throw new Error(`the fake source does not answer ${method}`);
  }
}

async function opened(source: StepSource): Promise<Labeling> {
  const lab = new Labeling(source);
  lab.set = 'ro';
  lab.run = 'fake';
  lab.setAnnotator('flo');
  await lab.start();
  return lab;
}

describe("labeling a rollout's step", () => {
  beforeEach(() => localStorage.clear());

  it("shows the step's labels, not the whole rollout's, and writes labels and the note on the step", async () => {
    const source = new StepSource();
    source.put('prediction:1', [second.id]); // the whole rollout, labeled elsewhere
    source.put('prediction:1/step:3', [first.id], 'ana'); // someone else's label on the step
    const lab = await opened(source);
    expect(lab.step).toBe(3);
    expect(lab.labels).toEqual([]);
    expect(lab.item?.annotators).toEqual(['ana']);

    await lab.toggleKey(first.key);
    await lab.setNote('diverges here');
    expect(lab.labels).toEqual([first.id]);
    expect(source.targets).toEqual(['prediction:1/step:3', 'prediction:1/step:3']);
    expect(source.rows.get('flo prediction:1')?.labels).toEqual([second.id]);
    expect(lab.queue?.done).toBe(1);

    // Moving on and back reads the step's annotation again.
    await lab.next();
    expect(lab.step).toBeNull();
    await lab.prev();
    expect(lab.step).toBe(3);
    expect(lab.labels).toEqual([first.id]);
  });

  it('skip and undo act on the step; an entry without a step is labeled whole', async () => {
    const source = new StepSource();
    const lab = await opened(source);
    await lab.toggleKey(first.key);
    await lab.skip();
    expect(source.targets).toEqual(['prediction:1/step:3', 'prediction:1/step:3']);
    expect(lab.index).toBe(1);
    expect(lab.step).toBeNull();
    await lab.toggleKey(second.key);
    expect(source.targets.at(-1)).toBe('prediction:2');

    await lab.undo(); // the label on prediction 2
    await lab.undo(); // the skip: back on the step, its label shown again
    expect(lab.index).toBe(0);
    expect(lab.step).toBe(3);
    expect(lab.labels).toEqual([first.id]);
    expect(source.rows.get('flo prediction:1')).toBeUndefined();
  });
});
