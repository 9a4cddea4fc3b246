/**
 * How views reach the data source and the shared state: Svelte context, set once by App (or by
 * a component test, with a fake source) and read by each view at creation. No module
 * singletons, so two mounted apps (or two tests) never share state.
 *
 * In a component test: render(View, { context: contextFor(source) }) (test/renderer/components/).
 */
import { getContext, setContext } from 'svelte';
import { Agreement, followQueues } from '../state/agreement.svelte.js';
import { CorpusQuery } from '../state/corpus.svelte.js';
import { Counterfactuals } from '../state/counterfactual.svelte.js';
import { Dashboard } from '../state/dashboard.svelte.js';
import { Explorer } from '../state/explorer.svelte.js';
import { Nav } from '../state/nav.svelte.js';
import { Overlay } from '../state/overlay.svelte.js';
import type { DataSource } from './source.js';

const SOURCE = Symbol('data source');
const EXPLORER = Symbol('explorer');
const CORPUS = Symbol('corpus');
const NAV = Symbol('nav');
const DASHBOARD = Symbol('dashboard');
const OVERLAY = Symbol('overlay');
const AGREEMENT = Symbol('agreement');
const COUNTERFACTUALS = Symbol('counterfactuals');

export interface AppState {
  source: DataSource;
  explorer: Explorer;
  corpus: CorpusQuery;
  nav: Nav;
  dashboard: Dashboard;
  overlay: Overlay;
  agreement: Agreement;
  counterfactuals: Counterfactuals;
}

export function createAppState(data: DataSource): AppState {
  const agreement = new Agreement(data);
  // Every view's calls go through it: a labeling queue opened tells the agreement view its run.
  const source = followQueues(data, agreement);
  const explorer = new Explorer(source);
  const corpus = new CorpusQuery(source);
  return {
    source,
    explorer,
    corpus,
    nav: new Nav(),
    dashboard: new Dashboard(source),
    overlay: new Overlay(source, explorer),
    agreement,
    counterfactuals: new Counterfactuals(source, explorer, () => void corpus.reload()),
  };
}

/** The context entries of an app state, e.g. for testing-library's `context` option. */
export function contextMap(s: AppState): Map<symbol, unknown> {
  return new Map<symbol, unknown>([
    [SOURCE, s.source],
    [EXPLORER, s.explorer],
    [CORPUS, s.corpus],
    [NAV, s.nav],
    [DASHBOARD, s.dashboard],
    [OVERLAY, s.overlay],
    [AGREEMENT, s.agreement],
    [COUNTERFACTUALS, s.counterfactuals],
  ]);
}

/** Called by App during its creation. */
export function provideAppState(s: AppState): void {
  for (const [k, v] of contextMap(s)) setContext(k, v);
}

function need<T>(key: symbol, what: string): T {
  const v = getContext<T | undefined>(key);
  if (!v) throw new Error(`${what} is missing from the Svelte context (App provides it; tests pass contextMap(...))`);
  return v;
}

export const useSource = () => need<DataSource>(SOURCE, 'the data source');
export const useExplorer = () => need<Explorer>(EXPLORER, 'the explorer');
export const useCorpus = () => need<CorpusQuery>(CORPUS, 'the corpus query');
export const useNav = () => need<Nav>(NAV, 'the navigation');
export const useDashboard = () => need<Dashboard>(DASHBOARD, 'the dashboard');
/** The whole app state (views that hand it on, e.g. to open an item in the explorer). */
export const useApp = (): AppState => ({
  source: useSource(),
  explorer: useExplorer(),
  corpus: useCorpus(),
  nav: useNav(),
  dashboard: useDashboard(),
  overlay: useOverlay(),
  agreement: useAgreement(),
  counterfactuals: useCounterfactuals(),
});
export const useOverlay = () => need<Overlay>(OVERLAY, 'the predictions overlay');
export const useAgreement = () => need<Agreement>(AGREEMENT, 'the agreement view state');
export const useCounterfactuals = () => need<Counterfactuals>(COUNTERFACTUALS, 'the counterfactuals');

/**
 * Makes `explorer` the one the views below read (a component calls it at its creation): the
 * counterfactual's origin pane draws a TreePane of the origin's Explorer this way.
 */
export function provideExplorer(explorer: Explorer): void {
  setContext(EXPLORER, explorer);
}
