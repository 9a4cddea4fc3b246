/** An annotation as the API and the CLI show it (contract: src/contract/annotations.ts). */
import type { AnnotationInfo } from '../contract/annotations.js';
import type { AnnotationRecord } from '../store/corpus.js';

export function annotationInfo(a: AnnotationRecord): AnnotationInfo {
  const { active: _, ...rest } = a;
  return rest;
}

/** Per label id, how many of these annotations give it. */
export function labelCounts(list: readonly { labels: readonly string[] }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of list) for (const l of a.labels) counts[l] = (counts[l] ?? 0) + 1;
  return counts;
}
