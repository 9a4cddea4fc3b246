/**
 * What the Prediction panel says while no prediction is open: the next thing to do, or what is
 * missing for this trace (no set, a set without runs, no item on this trace, no prediction of
 * the run for its items). Pure: PredictionView shows it.
 */
export interface IntroState {
  set: string;
  run: string;
  /** Runs of the set (loaded). */
  runs: number;
  /** Items of the set on the open trace, and how many of them the run answered. */
  items: number;
  answered: number;
}

export function predictionIntro(s: IntroState): string {
  if (!s.set) return 'Choose a set and a run above to mark the trees with their verdicts.';
  if (!s.runs || !s.run) return `The set "${s.set}" has no run yet: import one (stepscope predictions import).`;
  if (!s.items)
    return `The set "${s.set}" has no item on this trace. F8 opens the next failing item of ${s.run} in the set.`;
  if (!s.answered)
    return `${s.run} has no prediction for this trace's ${s.items === 1 ? 'item' : `${s.items} items`} (set "${s.set}"). F8 opens the next failing item of ${s.run} in the set.`;
  return `Click a marked node to see ${s.run}'s prediction against the truth; F8 opens the next failing item.`;
}
