/**
 * The annotation domain's handlers (contract: ../contract/annotations.ts). Reads take a
 * ReadCorpus; writes a Corpus, and each is one transaction (src/labeling/write.ts).
 */
import { wellFormedValue } from '../../common/well-formed.js';
import { annotationInfo } from '../../labeling/info.js';
import { labelListing } from '../../labeling/scope.js';
import { agreementInfo } from '../../labeling/agreement.js';
import { annotationItem } from '../../labeling/item.js';
import { buildQueue } from '../../labeling/queue.js';
import { reviewQuotaOf, setReviewQuota } from '../../labeling/quota.js';
import { resolveTarget } from '../../labeling/target.js';
import { currentTaxonomy, updateTaxonomy } from '../../labeling/taxonomy.js';
import { setLabels, skipTarget, undoLast } from '../../labeling/write.js';
import type { Corpus, ReadCorpus } from '../../store/corpus.js';
import type { Api, ReadMethod, WriteMethod } from '../../contract/index.js';

type Reads = Extract<
  ReadMethod,
  | 'getTaxonomy'
  | 'annotationQueue'
  | 'getAnnotationItem'
  | 'listAnnotations'
  | 'annotationHistory'
  | 'getAgreement'
  | 'getReviewQuota'
>;

export function annotationReadHandlers(corpus: ReadCorpus): Pick<Api, Reads> {
  return {
    getTaxonomy: () => currentTaxonomy(corpus),
    annotationQueue: (p) => buildQueue(corpus, p),
    getAnnotationItem: (p) => annotationItem(corpus, p.prediction, p.annotator),
    listAnnotations: (p) => labelListing(corpus, p),
    annotationHistory(p) {
      const targets = new Map(corpus.listAnnotations({ inactive: true }).map((a) => [a.id, a.target]));
      const only = p.target === undefined ? undefined : resolveTarget(corpus, p.target).target;
      return corpus
        .annotationHistory({ who: p.annotator })
        .map((h) => ({ ...h, target: targets.get(h.annotation)! }))
        .filter((h) => only === undefined || h.target === only);
    },
    getAgreement: (p) => agreementInfo(corpus, p),
    getReviewQuota: (p) => reviewQuotaOf(corpus, p.set, p.run),
  };
}

type Writes = Exclude<WriteMethod, 'recordCounterfactual' | 'prepareCounterfactual'>;

export function annotationWriteHandlers(corpus: Corpus): Pick<Api, Writes> {
  const handlers: Pick<Api, Writes> = {
    setTaxonomy: (p) => updateTaxonomy(corpus, p.taxonomy, p.author).taxonomy,
    annotate: (p) => annotationInfo(setLabels(corpus, p)),
    skipAnnotation: (p) => annotationInfo(skipTarget(corpus, p.target, p.annotator)),
    undoAnnotation(p) {
      const a = undoLast(corpus, p.annotator);
      return { undone: a && annotationInfo(a) };
    },
    adjudicate: (p) => annotationInfo(setLabels(corpus, { ...p, role: 'adjudicator' })),
    setReviewQuota: (p) => setReviewQuota(corpus, p.set, p.run, p.reviews, p.author),
  };
  // What is written is Unicode text: a lone surrogate in a note or a name (which IPC carries as
  // is; the HTTP server has spelled them already) is stored as the six characters `\ud800`.
  return Object.fromEntries(
    Object.entries(handlers).map(([m, f]) => [m, (p: never) => (f as (q: never) => unknown)(wellFormedValue(p))]),
  ) as unknown as Pick<Api, Writes>;
}
