/**
 * `stepscope annotations export|import|prelabel`: move annotations between copies of a corpus; store the rules'
 * pre-labels.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { recordName } from '../../contract/predictions.js';
import { UserError } from '../../common/errors.js';
import { exportLines, importLines } from '../../labeling/jsonl.js';
import { prelabelRun } from '../../labeling/prelabel-run.js';
import { annotatorOption } from '../annotator.js';
import { checkedOption, requireString, usage, type Command } from '../command.js';
import { withCorpus } from '../open-corpus.js';

export const command: Command = {
  name: 'annotations',
  summary: 'Export or import annotations (JSONL, merging annotators), or store pre-labels for a run',
  help: `Usage: stepscope annotations export --db CORPUS [-o FILE]
       stepscope annotations import FILE --db CORPUS [--annotator NAME]
       stepscope annotations prelabel --db CORPUS --set S --model M

export   writes every annotation as one JSON object per line (to stdout without -o):
         uid, target, set/run/item/sample for a prediction, annotator, role, source, rule,
         labels, note, status, skipped, active, taxonomy, created, updated.
import   adds a file written by export, e.g. an annotator who labeled a copy of the corpus.
         Every line is checked first (FILE:LINE: what was expected); nothing is stored on
         error. Importing the same file again adds nothing. A line that differs from what
         the corpus holds for the same annotator and target is never written over it: it
         is kept beside it as annotator NAME@FILE, a disagreement to settle.
prelabel runs the pre-label rules over the run's failing predictions and stores their
         suggestions (annotator rule:NAME, status suggested). Running it again adds only
         what is missing.`,
  options: {
    db: { type: 'string' },
    out: { type: 'string', short: 'o' },
    set: { type: 'string' },
    model: { type: 'string' },
    annotator: { type: 'string' },
  },
  positionals: true,
  run(values, positionals) {
    const [sub, ...rest] = positionals;
    if (sub === 'export') {
      if (rest.length) throw usage('annotations export: takes no file argument; use -o FILE');
      return withCorpus(values, 'annotations export', { readonly: true }, (corpus) => {
        const text = exportLines(corpus)
          .map((l) => JSON.stringify(l) + '\n')
          .join('');
        if (values.out === undefined) process.stdout.write(text);
        else {
          writeFileSync(values.out as string, text);
          console.log(`wrote ${text.split('\n').length - 1} annotations to ${values.out}`);
        }
        return 0;
      });
    }
    if (sub === 'import') {
      if (rest.length !== 1) throw usage('annotations import: expected one FILE');
      let text: string;
      try {
        text = readFileSync(rest[0], 'utf8');
      } catch (e) {
        throw new UserError(`annotations import: cannot read ${rest[0]}: ${(e as Error).message}`, 'not-found');
      }
      const who = annotatorOption(values, 'annotations import');
      return withCorpus(values, 'annotations import', {}, (corpus) => {
        const r = importLines(corpus, text, rest[0], who);
        console.log(
          `${r.added} added, ${r.same} already there, ${r.conflicts} kept beside a different annotation as a disagreement`,
        );
        return 0;
      });
    }
    if (sub === 'prelabel') {
      const set = requireString(values, 'set', 'annotations prelabel');
      const model = requireString(values, 'model', 'annotations prelabel');
      checkedOption(values, 'set', 'annotations prelabel', recordName);
      checkedOption(values, 'model', 'annotations prelabel', recordName);
      return withCorpus(values, 'annotations prelabel', {}, (corpus) => {
        const r = prelabelRun(corpus, set, model);
        console.log(
          `${r.predictions} failing predictions: ${r.labeled} with suggestions, ${r.stored} suggestions stored${r.skipped ? `, ${r.skipped} skipped (execution pending, or an item its trace cannot give)` : ''}`,
        );
        for (const [label, n] of Object.entries(r.counts).sort(([, x], [, y]) => y - x))
          console.log(`  ${label}  ${n}`);
        return 0;
      });
    }
    throw usage(
      `annotations: expected export, import or prelabel, got ${sub === undefined ? 'nothing' : `'${sub}'`}\nTry 'stepscope annotations --help'.`,
    );
  },
};
