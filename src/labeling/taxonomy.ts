/**
 * The corpus's taxonomy: the newest stored version, or the default one until somebody stores
 * a version (the first write stores the default, so every annotation names a stored version).
 * A new version must keep every label an annotation uses (src/annotate/README.md, no-orphan
 * rule); its version is raised past the current one.
 */
import {
  assertTaxonomyUpdate,
  DEFAULT_TAXONOMY,
  isEmptyDiff,
  validateTaxonomy,
  type Taxonomy,
  type TaxonomyDiff,
} from '../annotate/index.js';
import type { Corpus, ReadCorpus } from '../store/corpus.js';

export function currentTaxonomy(corpus: ReadCorpus): Taxonomy {
  const t = corpus.latestTaxonomy();
  return t ? (JSON.parse(t.body) as Taxonomy) : DEFAULT_TAXONOMY;
}

/** The current taxonomy, stored first if the corpus holds none yet. */
export function storedTaxonomy(corpus: Corpus, author: string | null): Taxonomy {
  if (!corpus.latestTaxonomy())
    corpus.saveTaxonomy(DEFAULT_TAXONOMY.version, DEFAULT_TAXONOMY.name, JSON.stringify(DEFAULT_TAXONOMY), author);
  return currentTaxonomy(corpus);
}

/**
 * Checks `raw` (a taxonomy as JSON) and stores it as the next version; `file` names it in
 * errors. Nothing is stored when it equals the current one or breaks the no-orphan rule.
 */
export function updateTaxonomy(
  corpus: Corpus,
  raw: unknown,
  author: string,
  file = 'taxonomy',
): { taxonomy: Taxonomy; diff: TaxonomyDiff; stored: boolean } {
  const from = currentTaxonomy(corpus);
  const next = validateTaxonomy(raw, file);
  const diff = assertTaxonomyUpdate(from, next, corpus.labelUsage(), file);
  const sameGroups = JSON.stringify(next.groups) === JSON.stringify(from.groups);
  if (isEmptyDiff(diff) && next.name === from.name && sameGroups) return { taxonomy: from, diff, stored: false };
  storedTaxonomy(corpus, author);
  const taxonomy = { ...next, version: Math.max(next.version, from.version + 1) };
  corpus.saveTaxonomy(taxonomy.version, taxonomy.name, JSON.stringify(taxonomy), author);
  return { taxonomy, diff, stored: true };
}
