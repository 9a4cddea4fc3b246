/**
 * Comparing verdict lists: ours against a released file's (an independent check of the
 * scorer), and ours under two hash seeds (which passes are luck of the hash order). Pure.
 */
import type { CruxevalScore, GenerationVerdict } from './cruxeval.js';
import type { Status } from './types.js';

export interface ReleasedComparison {
  /** Booleans compared (tasks whose two lists have the same length). */
  compared: number;
  agree: number;
  /** Positions where the booleans differ. */
  differ: { task: string; index: number; ours: boolean; released: boolean }[];
  /** Tasks in only one of the two, or whose lists differ in length (not compared). */
  unmatched: string[];
}

/** Our per-task boolean lists against `raw_scored_generations`, joined by task id. */
export function compareWithReleased(
  score: CruxevalScore,
  released: Readonly<Record<string, readonly boolean[]>>,
): ReleasedComparison {
  const out: ReleasedComparison = { compared: 0, agree: 0, differ: [], unmatched: [] };
  const ours = new Set<string>();
  for (const t of score.tasks) {
    ours.add(t.id);
    const theirs = released[t.id];
    if (!theirs || theirs.length !== t.results.length) {
      out.unmatched.push(t.id);
      continue;
    }
    t.results.forEach((r, index) => {
      out.compared++;
      if (r === theirs[index]) out.agree++;
      else out.differ.push({ task: t.id, index, ours: r, released: theirs[index] });
    });
  }
  for (const id of Object.keys(released)) if (!ours.has(id)) out.unmatched.push(id);
  return out;
}

export interface SeedFlip {
  task: string;
  sample: number;
  generation: string;
  /** The verdict under each seed, keyed by the seed. */
  status: Record<number, Status>;
}

/**
 * Generations that pass under one seed and not under the other (same generations scored
 * by two pools with different hash seeds). Order: task order, then sample.
 */
export function seedFlips(a: CruxevalScore, b: CruxevalScore): SeedFlip[] {
  if (a.hashseed === b.hashseed) throw new Error(`both scores were computed under hash seed ${a.hashseed}`);
  const other = new Map<string, GenerationVerdict>();
  for (const t of b.tasks) for (const v of t.verdicts) other.set(v.id, v);
  const flips: SeedFlip[] = [];
  for (const t of a.tasks) {
    for (const v of t.verdicts) {
      const w = other.get(v.id);
      if (!w) throw new Error(`generation ${v.id} was scored under seed ${a.hashseed} only`);
      if ((v.status === 'pass') !== (w.status === 'pass')) {
        flips.push({
          task: v.task,
          sample: v.sample,
          generation: v.generation,
          status: { [a.hashseed]: v.status, [b.hashseed]: w.status },
        });
      }
    }
  }
  return flips;
}
