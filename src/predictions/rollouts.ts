/**
 * What `stepscope rollouts` and the API's getRollouts show (shapes: src/contract/rollouts.ts): each rollout aligned
 * step by step with the truth, its first divergence and whether it healed, and per run the accuracy by step beside
 * the same model's teacher-forced accuracy at the same positions.
 *
 * Teacher-forced positions: a step k of a rollout item matches an item of another set of the corpus (any task but
 * rollout and counterfactual) with the same trace, direction, entry and exactly the item's first k actions; its
 * answer is the first sample of that set's run with the same label (a `state` run). `evalset create --task next-state
 * --prefixes-of SET` makes a set with every such position.
 */
import { UserError } from '../common/errors.js';
import type { RolloutItem, RolloutRun, RolloutStep, StepAccuracy } from '../semantics/rollouts.js';
import { formatAction, type Action } from '../semantics/index.js';
import type { EvalSetRecord, ReadCorpus, RunRecord, StoredItem } from '../store/corpus.js';
import { stopsAfter } from './rollout-score.js';
import { requireSet, runsOf } from './views.js';

export interface RolloutQuery {
  set: string;
  /** Only the run with this label (default: every run of the set). */
  run?: string;
  /** Only the items over this trace. */
  traceId?: number;
}

const positionKey = (traceId: number, direction: string, entry: number, actions: readonly Action[]) =>
  JSON.stringify([traceId, direction, entry, actions.map(formatAction)]);

export function rolloutRuns(corpus: ReadCorpus, q: RolloutQuery): RolloutRun[] {
  const set = requireSet(corpus, q.set);
  if (set.task !== 'rollout')
    throw new UserError(
      `${JSON.stringify(set.name)} is a ${set.task} set, not a rollout set (evalset create --task rollout)`,
      'bad-input',
    );
  const items = [...corpus.iterateItems(set.id, { traceId: q.traceId })];
  const targets = corpus.rolloutTargets(items.map((it) => it.id));
  return runsOf(corpus, set, q.run).map((run) => rolloutRun(corpus, set, run, items, targets, q.traceId));
}

function rolloutRun(
  corpus: ReadCorpus,
  set: EvalSetRecord,
  run: RunRecord,
  items: StoredItem[],
  targets: ReturnType<ReadCorpus['rolloutTargets']>,
  traceId: number | undefined,
): RolloutRun {
  const { answers: tf, sets: tfSets } = teacherForced(corpus, run.label);
  const steps = corpus.rolloutStepsOfRun(run.id);
  const byItem = new Map<number, { id: number; sample: number }[]>();
  for (const p of corpus.iteratePredictions({ setId: set.id, runId: run.id, traceId }))
    byItem.set(p.itemId, [...(byItem.get(p.itemId) ?? []), { id: p.id, sample: p.sample }]);
  const out: RolloutItem[] = [];
  for (const it of items) {
    const truth = targets.get(it.id) ?? [];
    for (const p of byItem.get(it.id) ?? []) {
      const got = steps.get(p.id) ?? [];
      const aligned: RolloutStep[] = truth.map((t, k) => {
        const s = got[k];
        const at = tf.get(positionKey(it.traceId, it.direction, it.entry, it.actions.slice(0, k + 1)));
        return {
          step: t.step,
          action: formatAction(it.actions[k]),
          target: t.target,
          target_node: t.targetNode,
          target_seq: t.targetSeq,
          target_kind: t.truth.event,
          predicted: s ? s.completion : null,
          format_error: s ? s.parseError !== null : null,
          parse_error: s ? s.parseError : null,
          em: s ? s.em : null,
          right: s?.em.all === true,
          teacher_forced: at ?? null,
        };
      });
      const first = aligned.findIndex((s) => !s.right);
      const last = got[got.length - 1];
      out.push({
        id: it.id,
        key: it.key,
        trace_id: it.traceId,
        name: it.name,
        direction: it.direction,
        entry: it.entry,
        actions: it.actions.map(formatAction),
        prediction: p.id,
        sample: p.sample,
        steps: aligned,
        steps_predicted: got.length,
        steps_right: aligned.filter((s) => s.right).length,
        first_divergence: first < 0 ? null : first + 1,
        healed: first >= 0 && aligned.slice(first + 1).some((s) => s.right),
        stopped:
          got.length >= truth.length
            ? 'end'
            : last && last.parseError !== null
              ? 'format-error'
              : last && stopsAfter(last.completion) === 'exit'
                ? 'exit'
                : 'short',
      });
    }
  }
  return {
    set: set.name,
    model: run.label,
    run: run.id,
    set_items: run.setItems,
    answered: run.items,
    rollouts: out.length,
    by_step: byStep(out),
    first_divergence: divergences(out),
    healed: out.filter((r) => r.healed).length,
    teacher_forced_sets: tfSets,
    items: out,
  };
}

const pct = (n: number, of: number) => (of === 0 ? null : (100 * n) / of);

function byStep(rollouts: RolloutItem[]): StepAccuracy[] {
  const out: StepAccuracy[] = [];
  const longest = Math.max(0, ...rollouts.map((r) => r.steps.length));
  for (let k = 0; k < longest; k++) {
    const at = rollouts.flatMap((r) => (k < r.steps.length ? [r.steps[k]] : []));
    const right = at.filter((s) => s.right).length;
    const tf = at.filter((s) => s.teacher_forced !== null);
    const tfRight = tf.filter((s) => s.teacher_forced === true).length;
    out.push({
      step: k + 1,
      rollouts: at.length,
      right,
      accuracy: pct(right, at.length),
      teacher_forced_items: tf.length,
      teacher_forced_right: tfRight,
      teacher_forced: pct(tfRight, tf.length),
    });
  }
  return out;
}

function divergences(rollouts: RolloutItem[]): RolloutRun['first_divergence'] {
  const counts = new Map<number | null, number>();
  for (const r of rollouts) counts.set(r.first_divergence, (counts.get(r.first_divergence) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a - b))
    .map(([step, n]) => ({ step, rollouts: n }));
}

/**
 * The teacher-forced answers of the runs labelled `label` on the corpus's other sets: position → em_all of the first
 * sample (see the file's comment); and the names of the sets that gave any.
 */
function teacherForced(corpus: ReadCorpus, label: string): { answers: Map<string, boolean>; sets: string[] } {
  const answers = new Map<string, boolean>();
  const sets: string[] = [];
  for (const s of corpus.listEvalSets()) {
    if (s.task === 'rollout' || (s.task as string) === 'counterfactual') continue;
    const run = corpus.getRun(s.id, label);
    if (!run || run.format !== 'state') continue;
    const first = new Map<number, boolean>();
    for (const p of corpus.iteratePredictions({ setId: s.id, runId: run.id }))
      if (p.sample === 0 && p.em.all !== null) first.set(p.itemId, p.em.all);
    if (first.size === 0) continue;
    sets.push(s.name);
    for (const it of corpus.iterateItems(s.id)) {
      const right = first.get(it.id);
      if (right !== undefined) answers.set(positionKey(it.traceId, it.direction, it.entry, it.actions), right);
    }
  }
  return { answers, sets };
}
