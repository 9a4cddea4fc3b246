/**
 * Annotations as JSON Lines, to merge the work of annotators who each labeled a copy of a
 * corpus (docs/annotation.md, "Several annotators"). One object per annotation; a
 * prediction's target also carries its set, run, item key and sample, so the line finds its
 * prediction in any copy.
 *
 * Import is all or nothing (every line is checked first; the first problem is
 * `FILE:LINE: what was expected`) and idempotent: an annotation already there (same uid, same
 * labels, note and state; a rule's suggestion whatever its status) is skipped. A line that contradicts what the corpus
 * holds for the same annotation or the same annotator and target is never written over it: it is stored
 * beside it under the annotator `NAME@FILE`, so it shows up as a disagreement to settle.
 */
import { findLabel, parseTargetKey, type Annotation } from '../annotate/index.js';
import { UserError } from '../common/errors.js';
import type { AnnotationRecord, Corpus, NewAnnotation, ReadCorpus } from '../store/corpus.js';
import { resolveTarget } from './target.js';
import { currentTaxonomy, storedTaxonomy } from './taxonomy.js';

/** One line: the annotation (src/annotate/record.ts) without its target's row ids, plus where a prediction is. */
export type AnnotationLine = Omit<Annotation, 'prediction' | 'trace' | 'seq' | 'action'> & {
  set?: string;
  run?: string;
  item?: string;
  sample?: number;
};

/** Every annotation (undone ones too, so a merge keeps them undone), in id order. */
export function exportLines(corpus: ReadCorpus): AnnotationLine[] {
  const where = new Map<number, { set: string; run: string; item: string; sample: number }>();
  for (const set of corpus.listEvalSets()) {
    for (const p of corpus.iteratePredictions({ setId: set.id }))
      where.set(p.id, { set: set.name, run: p.model, item: p.itemKey, sample: p.sample });
  }
  return corpus.listAnnotations({ inactive: true }).map((a) => ({
    uid: a.uid,
    target: a.target,
    ...(a.prediction === null ? {} : where.get(a.prediction)),
    annotator: a.annotator,
    role: a.role,
    source: a.source,
    rule: a.rule,
    labels: a.labels,
    note: a.note,
    status: a.status,
    skipped: a.skipped,
    active: a.active,
    taxonomy: a.taxonomy,
    created: a.created,
    updated: a.updated,
  }));
}

export interface AnnotationImportCounts {
  added: number;
  /** Already there, identical. */
  same: number;
  /** Stored beside a different annotation as `NAME@FILE`. */
  conflicts: number;
}

const bad = (where: string, what: string) => new UserError(`${where}: ${what}`, 'bad-input');

function str(o: Record<string, unknown>, k: string, where: string, nullable = false): string | null {
  const v = o[k];
  if (typeof v === 'string' && v !== '') return v;
  if (nullable && (v === null || v === undefined)) return null;
  throw bad(
    where,
    `expected "${k}" to be a ${nullable ? 'string or null' : 'non-empty string'}, got ${JSON.stringify(v) ?? 'nothing'}`,
  );
}

function checkLine(corpus: ReadCorpus, o: Record<string, unknown>, where: string): NewAnnotation {
  const uid = str(o, 'uid', where)!;
  const annotator = str(o, 'annotator', where)!;
  const role = o.role ?? 'annotator';
  if (role !== 'annotator' && role !== 'adjudicator')
    throw bad(where, `expected "role" to be annotator or adjudicator, got ${JSON.stringify(role)}`);
  const source = o.source;
  if (source !== 'person' && source !== 'rule')
    throw bad(where, `expected "source" to be person or rule, got ${JSON.stringify(source)}`);
  const rule = str(o, 'rule', where, true);
  if ((source === 'rule') !== (rule !== null))
    throw bad(where, 'expected "rule" to name the rule exactly when "source" is rule');
  const labels = o.labels;
  if (!Array.isArray(labels) || !labels.every((l) => typeof l === 'string'))
    throw bad(where, 'expected "labels" to be an array of label ids');
  const taxonomy = currentTaxonomy(corpus);
  for (const l of labels as string[]) {
    if (!findLabel(taxonomy, l))
      throw bad(
        where,
        `unknown label '${l}': expected a label of taxonomy '${taxonomy.name}' version ${taxonomy.version} (stepscope taxonomy lists them)`,
      );
  }
  const status = o.status ?? null;
  if (status !== null && status !== 'suggested' && status !== 'accepted' && status !== 'rejected')
    throw bad(where, `expected "status" to be suggested, accepted, rejected or null, got ${JSON.stringify(status)}`);
  const target = str(o, 'target', where)!;
  let t = parseTargetKey(target);
  if (!t)
    throw bad(
      where,
      `expected "target" to be prediction:ID, prediction:ID/step:N, trace:ID/seq:N or trace:ID/seq:N/action:A, got ${JSON.stringify(target)}`,
    );
  if (
    t.prediction !== undefined &&
    typeof o.set === 'string' &&
    typeof o.run === 'string' &&
    typeof o.item === 'string' &&
    typeof o.sample === 'number'
  ) {
    const set = corpus.getEvalSet(o.set);
    const run = set && corpus.getRun(set.id, o.run);
    const p =
      run &&
      [...corpus.iteratePredictions({ setId: set.id, runId: run.id })].find(
        (x) => x.itemKey === o.item && x.sample === o.sample,
      );
    if (!p)
      throw bad(
        where,
        `expected a prediction of set ${JSON.stringify(o.set)}, run ${JSON.stringify(o.run)}, item ${JSON.stringify(o.item)}, sample ${o.sample} in this corpus`,
      );
    t = t.step === undefined ? { prediction: p.id } : { prediction: p.id, step: t.step };
  }
  let columns;
  try {
    columns = resolveTarget(corpus, t);
  } catch (e) {
    throw e instanceof UserError ? bad(where, e.message) : e;
  }
  const flag = (k: string, def: boolean) => (o[k] === undefined ? def : o[k] === true);
  return {
    ...columns,
    uid,
    annotator,
    role,
    source,
    rule,
    labels: labels as string[],
    note: str(o, 'note', where, true),
    status,
    skipped: flag('skipped', false),
    active: flag('active', true),
    taxonomy: typeof o.taxonomy === 'number' ? o.taxonomy : taxonomy.version,
    created: typeof o.created === 'string' ? o.created : undefined,
    updated: typeof o.updated === 'string' ? o.updated : undefined,
  };
}

/**
 * The same annotation: same labels, note, skip and undo. The status is not compared: a rule's
 * suggestion is the same whatever its status (which follows people's labels), and a person's
 * annotation has none.
 */
const sameFields = (a: AnnotationRecord, b: NewAnnotation) =>
  JSON.stringify([a.labels, a.note, a.skipped, a.active]) === JSON.stringify([b.labels, b.note, b.skipped, b.active]);

export function importLines(corpus: Corpus, text: string, file: string, who: string): AnnotationImportCounts {
  const name = file.split(/[\\/]/).pop() || file;
  const checked: NewAnnotation[] = [];
  // A byte-order mark some editors add is dropped, as every JSON Lines reader does.
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch (e) {
      throw bad(`${file}:${i + 1}`, `expected a JSON object (${(e as Error).message})`);
    }
    if (typeof o !== 'object' || o === null || Array.isArray(o))
      throw bad(`${file}:${i + 1}`, 'expected a JSON object');
    checked.push(checkLine(corpus, o as Record<string, unknown>, `${file}:${i + 1}`));
  });
  const r: AnnotationImportCounts = { added: 0, same: 0, conflicts: 0 };
  const out: NewAnnotation[] = [];
  const seen = new Set<string>();
  for (const a of checked) {
    const there = corpus.getAnnotationByUid(a.uid!) ?? corpus.getAnnotation(a.target, a.annotator, a.role);
    if (there && sameFields(there, a)) {
      r.same++;
      continue;
    }
    if (!there) {
      r.added++;
      out.push(a);
      continue;
    }
    // A different annotation where this one would go: kept beside it, never over it.
    const aside = { ...a, uid: `${a.uid}@${name}`, annotator: `${a.annotator}@${name}` };
    const before = corpus.getAnnotationByUid(aside.uid!);
    if ((before && sameFields(before, aside)) || seen.has(aside.uid!)) {
      r.same++;
      continue;
    }
    seen.add(aside.uid!);
    r.conflicts++;
    out.push(aside);
  }
  if (out.length) {
    storedTaxonomy(corpus, who);
    corpus.saveAnnotations(out, who, 'import');
  }
  return r;
}
