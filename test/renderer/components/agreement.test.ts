// The agreement view's disagreements with their context (docs/annotation.md, "Several
// annotators"): the program with the predicted and the true line marked, the prediction
// against the truth, each annotator's labels and note, a link that opens the item in the
// explorer; the set and run follow the labeling queue last opened; an adjudicator's click
// stores the final labels. The report is written by hand (the API's side is test/api).
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AgreementInfo, EvalSetInfo, Method, Params } from '../../../src/contract/index.js';
import { contextMap, createAppState, type AppState } from '../../../renderer/src/lib/context.js';
import { ApiCallError } from '../../../renderer/src/lib/source.js';
import { applyLink, linkOf } from '../../../renderer/src/state/links.js';
import AgreementView from '../../../renderer/src/views/label/AgreementView.svelte';
import { HeldSource } from './held-source.js';

const CODE = `def f(n):
    s = 0
    for i in range(n):
        s += i
    return s
`;

const set = (id: number, name: string, runs: string[]): EvalSetInfo => ({
  id,
  name,
  task: 'next-state',
  items: 3,
  options: {},
  runs,
  created: '2026-01-01',
});

function report(run: string): AgreementInfo {
  return {
    view: 'set',
    annotators: ['ada', 'bob'],
    items: 1,
    alpha: 0,
    pairs: [{ a: 'ada', b: 'bob', items: 1, kappa: null, observed: 0 }],
    labels: [],
    confusion: [],
    rules: { rules: [], judged: 0, accepted: 0, precision: null },
    disagreements: [
      {
        target: 'prediction:7',
        labels: { ada: ['data.wrong_value'], bob: ['control.loop_iteration', 'data.wrong_value'] },
        notes: { bob: 'one iteration short' },
        final: null,
        context: {
          prediction: 7,
          set: 'ns',
          run,
          item: 12,
          key: 'task/12',
          sample: 0,
          traceId: 1,
          code: CODE,
          predicted: { event: 'line', src: '    return s', locals: { n: '3', s: '1' } },
          truth: { event: 'line', src: '        s += i', locals: { n: '3', s: '3', i: '2' } },
          wrong: ['src', 'locals'],
          completion: '<|line_sep|>…',
        },
      },
    ],
  };
}

class AgreementSource extends HeldSource {
  protected answer(method: Method, p: unknown): unknown {
    switch (method) {
      case 'listEvalSets':
        return [set(1, 'empty', []), set(2, 'ns', ['A', 'B'])];
      case 'getAgreement':
        return report((p as Params<'getAgreement'>).run ?? '');
      case 'annotationQueue':
        return {
          entries: [],
          done: 0,
          position: 0,
          counts: {},
          facets: { actions: [], annotators: [], prelabels: [] },
        };
      case 'adjudicate':
        return {};
      case 'listRuns':
        return ['A', 'B'].map((label, id) => ({ id, set: 'ns', label, format: 'state' }));
      default:
        throw new ApiCallError(`${method} is not served here`, 'not-found');
    }
  }
}

let source: AgreementSource;
let app: AppState;
beforeEach(() => {
  localStorage.clear();
  source = new AgreementSource();
  app = createAppState(source);
  app.nav.view = 'agreement';
});

const agreementCalls = () => source.log.filter((c) => c.method === 'getAgreement').map((c) => c.params);

describe('agreement view', () => {
  it('a disagreement shows the program with both lines marked, the diff, and each annotator with labels and note', async () => {
    render(AgreementView, { context: contextMap(app) });
    const d = await screen.findByTestId('disagreement');
    expect(d.dataset.target).toBe('prediction:7');
    // The first set with runs, its first run.
    expect(agreementCalls()).toEqual([{ set: 'ns', run: 'A' }]);
    expect(within(d).getByTestId('disagreement-key').textContent).toBe('task/12');

    const code = within(d).getByTestId('label-code');
    const marked = [...code.querySelectorAll('[data-mark]')].map((l) => [
      (l as HTMLElement).dataset.mark,
      l.querySelector('.n')!.textContent,
    ]);
    expect(marked).toEqual([
      ['true', '4'],
      ['predicted', '5'],
    ]);

    const rows = within(d)
      .getAllByTestId('diff-row')
      .map((r) => [r.dataset.field, r.dataset.name ?? '', r.dataset.status]);
    expect(rows).toEqual([
      ['event', '', 'same'],
      ['src', '', 'changed'],
      ['local', 'n', 'same'],
      ['local', 's', 'changed'],
      ['local', 'i', 'missing'],
    ]);

    const people = within(d).getAllByTestId('annotator');
    expect(people.map((p) => p.dataset.annotator)).toEqual(['ada', 'bob']);
    expect(within(people[0]).getByTestId('take').textContent).toBe('ada: data.wrong_value');
    expect(within(people[0]).queryByTestId('annotator-note')).toBeNull();
    expect(within(people[1]).getByTestId('take').textContent).toBe('bob: control.loop_iteration + data.wrong_value');
    expect(within(people[1]).getByTestId('annotator-note').textContent).toBe('one iteration short');
  });

  it('the link opens the item in the explorer, in its set and run', async () => {
    render(AgreementView, { context: contextMap(app) });
    const link = await screen.findByTestId('disagreement-open');
    expect(link.getAttribute('href')).toBe('?set=ns&run=A&item=12');
    await fireEvent.click(link);
    expect(app.nav.view).toBe('explorer');
    await waitFor(() => expect(source.log.some((c) => c.method === 'getItem')).toBe(true));
    expect(source.log.find((c) => c.method === 'getItem')!.params).toEqual({ id: 12, run: 'A' });
  });

  it('shows the set and run of the labeling queue last opened, and a set chosen here with its first run', async () => {
    await app.source.call('annotationQueue', { set: 'ns', run: 'B', annotator: 'ada' });
    render(AgreementView, { context: contextMap(app) });
    await screen.findByTestId('disagreement');
    expect(agreementCalls()).toEqual([{ set: 'ns', run: 'B' }]);
    expect((screen.getByTestId('agreement-run') as HTMLSelectElement).value).toBe('B');
    expect(screen.getByTestId('disagreement-open').getAttribute('href')).toBe('?set=ns&run=B&item=12');

    await fireEvent.change(screen.getByTestId('agreement-run'), { target: { value: 'A' } });
    await waitFor(() => expect(agreementCalls().at(-1)).toEqual({ set: 'ns', run: 'A' }));
    expect([app.agreement.set, app.agreement.run]).toEqual(['ns', 'A']);
  });

  it("an adjudicator's click stores that annotator's labels as final; without a name it says so and stores nothing", async () => {
    render(AgreementView, { context: contextMap(app) });
    const d = await screen.findByTestId('disagreement');
    const bob = within(d).getAllByTestId('take')[1];
    await fireEvent.click(bob);
    expect((await screen.findByRole('alert')).textContent).toContain('Type your name as the adjudicator first');
    expect(source.log.some((c) => c.method === 'adjudicate')).toBe(false);

    await fireEvent.input(screen.getByTestId('adjudicator'), { target: { value: 'dora' } });
    await fireEvent.click(bob);
    await waitFor(() => expect(source.log.some((c) => c.method === 'adjudicate')).toBe(true));
    expect(source.log.find((c) => c.method === 'adjudicate')!.params).toEqual({
      target: { prediction: 7 },
      labels: ['control.loop_iteration', 'data.wrong_value'],
      annotator: 'dora',
    });
  });

  it("a link's set and run are shown and written back; a set or run that is gone is said, and the first shown", async () => {
    expect(await applyLink(app, { view: 'agreement', set: 'ns', run: 'B' })).toEqual([]);
    expect(agreementCalls()).toEqual([{ set: 'ns', run: 'B' }]);
    expect(linkOf(app)).toEqual({ view: 'agreement', set: 'ns', run: 'B' });

    expect(await applyLink(app, { view: 'agreement', set: 'ns', run: 'C', trace: 3 })).toEqual([
      'The agreement view takes only set and run; trace was ignored.',
      'The set "ns" has no run "C" (runs: A, B); its first run is shown.',
    ]);
    expect(linkOf(app)).toEqual({ view: 'agreement', set: 'ns', run: 'A' });
    expect(await applyLink(app, { view: 'agreement', set: 'gone' })).toEqual([
      'There is no set "gone" (sets: empty, ns); the first set is shown.',
    ]);
    expect(linkOf(app)).toEqual({ view: 'agreement', set: 'ns', run: 'A' });
  });
});
