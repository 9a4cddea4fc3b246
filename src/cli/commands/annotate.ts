/** `stepscope annotate`: label one prediction, state or transition from the command line. */
import { annotationTarget } from '../../contract/annotations.js';
import { recordId } from '../../contract/traces.js';
import { int, str } from '../../contract/validate.js';
import { setLabels } from '../../labeling/write.js';
import { annotatorOption } from '../annotator.js';
import { checkedOption, intOption, requireString, usage, type Command } from '../command.js';
import { withCorpus } from '../open-corpus.js';

export const command: Command = {
  name: 'annotate',
  summary: 'Label a prediction, a state or a transition with failure labels',
  help: `Usage: stepscope annotate --db CORPUS (--prediction ID [--step N] | --trace ID --seq N [--action A])
                          --label L[,L...] [--note TEXT] [--annotator NAME]

Sets this annotator's labels on the target (replacing the labels they gave before), in one
transaction, recorded in the history. Labels are ids of the corpus's taxonomy
(stepscope taxonomy lists them): data.wrong_value, or the part after the dot when it is
unique (wrong_value). An unknown label or target is refused and nothing is written.

Options:
  --db CORPUS       the corpus file
  --prediction ID   a prediction (stepscope predictions lists them)
  --step N          with --prediction of a rollout: its step N, where the rollout went wrong (1 is the state after
                    the first action; stepscope rollouts shows each rollout's first divergence)
  --trace ID --seq N  a state of a trace; with --action A, the transition from it (step_over ...)
  --label L[,L...]  one or more labels, comma-separated
  --note TEXT       a free-text note (an empty TEXT removes the note)
  --annotator NAME  who labels (default: $STEPSCOPE_ANNOTATOR, else your login name)`,
  options: {
    db: { type: 'string' },
    prediction: { type: 'string' },
    trace: { type: 'string' },
    seq: { type: 'string' },
    step: { type: 'string' },
    action: { type: 'string' },
    label: { type: 'string' },
    note: { type: 'string' },
    annotator: { type: 'string' },
  },
  run(values) {
    const prediction =
      values.prediction === undefined ? undefined : intOption(values, 'prediction', 'annotate', undefined, recordId);
    const trace = values.trace === undefined ? undefined : intOption(values, 'trace', 'annotate', undefined, recordId);
    const seq = values.seq === undefined ? undefined : intOption(values, 'seq', 'annotate', undefined, int(0));
    const step = values.step === undefined ? undefined : intOption(values, 'step', 'annotate', undefined, int(1));
    if ((prediction === undefined) === (trace === undefined))
      throw usage('annotate: give either --prediction ID, or --trace ID --seq N');
    if (trace !== undefined && seq === undefined) throw usage('annotate: --trace needs --seq N');
    if (prediction !== undefined && (seq !== undefined || values.action !== undefined))
      throw usage('annotate: --seq and --action go with --trace, not --prediction');
    if (step !== undefined && prediction === undefined) throw usage('annotate: --step goes with --prediction');
    const target = annotationTarget({ prediction, step, trace, seq, action: values.action }, '--target');
    const labels = requireString(values, 'label', 'annotate')
      .split(',')
      .map((l) => l.trim())
      .filter(Boolean);
    const note = checkedOption(values, 'note', 'annotate', str(10_000));
    const annotator = annotatorOption(values, 'annotate');
    return withCorpus(values, 'annotate', {}, (corpus) => {
      const a = setLabels(corpus, { target, labels, note, annotator });
      console.log(
        `${a.target}: ${a.labels.join(', ') || '(no labels)'} (${a.annotator})${a.note ? ` note: ${a.note}` : ''}`,
      );
      return 0;
    });
  },
};
