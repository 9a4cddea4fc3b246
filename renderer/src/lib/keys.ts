/**
 * The app's key table (docs/explorer.md, "Keys"): every key of the explorer, the dashboard and
 * the agreement view, with what it does, where it works and how a key event matches it. The
 * handlers dispatch through `keyFor` and the `?` panel (views/KeysPanel.svelte) lists
 * `keysOf(view)`, so what the panel says is what the handlers do. The labeling queue has its
 * own keys (label-keys.ts, its own `?` cheatsheet).
 *
 * Debugger keys follow common IDEs: F11 step into, F10 step over, Shift+F11 step out
 * (step_return), F5 continue (to the next breakpoint set, else to the exit); the inverse
 * actions add Alt. Alt+← / Alt+→ are the app's Back and Forward (what the browser's buttons
 * do, in the desktop app too); Alt+[ / Alt+] move back and forward in the trajectory's history
 * (Visual Studio's step backward / forward).
 */
import { VIEWS, type View } from './deeplink.js';

/** Where a key works: anywhere in the view (but a text field), or only with the focus in one place. */
export type KeyScope = 'app' | 'explorer' | 'tree' | 'search' | 'corpus' | 'splitter';

export type KeyEventLike = Pick<KeyboardEvent, 'key' | 'code' | 'altKey' | 'shiftKey' | 'ctrlKey' | 'metaKey'>;

export interface KeyBinding {
  /** What the handler does (an action of the walk, or a command of the scope). */
  id: string;
  /** As shown to the user. */
  keys: string;
  does: string;
  scope: KeyScope;
  match: (e: KeyEventLike) => boolean;
}

/** The modifiers held, exactly: `mods(e, 'alt+shift')`. */
function mods(e: KeyEventLike, want = ''): boolean {
  const w = want.split('+');
  return (
    e.altKey === w.includes('alt') &&
    e.shiftKey === w.includes('shift') &&
    e.ctrlKey === w.includes('ctrl') &&
    e.metaKey === false
  );
}
const key =
  (k: string, want = '') =>
  (e: KeyEventLike) =>
    e.key === k && mods(e, want);
/** By the key's place on the keyboard (Alt changes the character on some layouts). */
const code =
  (c: string, want = '') =>
  (e: KeyEventLike) =>
    e.code === c && mods(e, want);

export const KEYS: readonly KeyBinding[] = [
  // Anywhere in the app but a text field.
  ...VIEWS.map((v, i) => ({
    id: `view:${v}`,
    keys: `Alt+${i + 1}`,
    does: `Open the ${['Explorer', 'Dashboard', 'Label failures', 'Agreement'][i]} view`,
    scope: 'app' as const,
    match: (e: KeyEventLike) => (e.key === String(i + 1) || e.code === `Digit${i + 1}`) && mods(e, 'alt'),
  })),
  {
    id: 'back',
    keys: 'Alt+←',
    does: 'Back: what was open before (trace, item, view, set and run)',
    scope: 'app',
    match: key('ArrowLeft', 'alt'),
  },
  { id: 'forward', keys: 'Alt+→', does: 'Forward again after Back', scope: 'app', match: key('ArrowRight', 'alt') },
  {
    id: 'help',
    keys: '?',
    does: 'Show or hide this list of keys (Esc closes it)',
    scope: 'app',
    match: (e) => e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey,
  },
  // The explorer, wherever the focus is but a text field.
  { id: 'step_into', keys: 'F11', does: 'Step into (forward trajectory)', scope: 'explorer', match: key('F11') },
  { id: 'step_over', keys: 'F10', does: 'Step over', scope: 'explorer', match: key('F10') },
  {
    id: 'step_return',
    keys: 'Shift+F11',
    does: 'Step out (step_return)',
    scope: 'explorer',
    match: key('F11', 'shift'),
  },
  {
    id: 'continue',
    keys: 'F5',
    does: 'Continue: to the next breakpoint set in the gutter, else to the exit',
    scope: 'explorer',
    match: key('F5'),
  },
  {
    id: 'inv_step_into',
    keys: 'Alt+F11',
    does: 'Inverse step into (inverse trajectory)',
    scope: 'explorer',
    match: key('F11', 'alt'),
  },
  { id: 'inv_step_over', keys: 'Alt+F10', does: 'Inverse step over', scope: 'explorer', match: key('F10', 'alt') },
  {
    id: 'inv_step_call',
    keys: 'Alt+Shift+F11',
    does: 'Inverse step to the call (inv_step_call)',
    scope: 'explorer',
    match: key('F11', 'alt+shift'),
  },
  {
    id: 'history_back',
    keys: 'Alt+[',
    does: "Back one action in the trajectory's history",
    scope: 'explorer',
    match: code('BracketLeft', 'alt'),
  },
  {
    id: 'history_forward',
    keys: 'Alt+]',
    does: "Forward one action in the trajectory's history",
    scope: 'explorer',
    match: code('BracketRight', 'alt'),
  },
  {
    id: 'edit_value',
    keys: 'F2',
    does: 'Edit value…: set a local of the selected state and record the counterfactual',
    scope: 'explorer',
    match: key('F2'),
  },
  {
    id: 'next_failure',
    keys: 'F8',
    does: 'Next failing item of the chosen run in the whole set (opens its trace)',
    scope: 'explorer',
    match: key('F8'),
  },
  {
    id: 'prev_failure',
    keys: 'Shift+F8',
    does: 'Previous failing item of the chosen run in the set',
    scope: 'explorer',
    match: key('F8', 'shift'),
  },
  // A state tree, once clicked or tabbed to.
  { id: 'down', keys: '↓', does: 'Select the next row', scope: 'tree', match: key('ArrowDown') },
  { id: 'up', keys: '↑', does: 'Select the previous row', scope: 'tree', match: key('ArrowUp') },
  {
    id: 'collapse',
    keys: '←',
    does: 'Collapse the selected node, or select its parent',
    scope: 'tree',
    match: key('ArrowLeft'),
  },
  {
    id: 'expand',
    keys: '→',
    does: 'Expand the selected node, or select its first child',
    scope: 'tree',
    match: key('ArrowRight'),
  },
  {
    id: 'run_to',
    keys: 'Enter',
    does: 'Run the trajectory to the selected node (Run to here)',
    scope: 'tree',
    match: key('Enter'),
  },
  // The trace search box.
  { id: 'next_match', keys: 'Enter', does: 'Jump to the next match', scope: 'search', match: key('Enter') },
  {
    id: 'prev_match',
    keys: 'Shift+Enter',
    does: 'Jump to the previous match',
    scope: 'search',
    match: key('Enter', 'shift'),
  },
  // The corpus list.
  { id: 'down', keys: '↓', does: 'Open the next trace', scope: 'corpus', match: key('ArrowDown') },
  { id: 'up', keys: '↑', does: 'Open the previous trace', scope: 'corpus', match: key('ArrowUp') },
  { id: 'page_down', keys: 'Page Down', does: 'Open the trace a page down', scope: 'corpus', match: key('PageDown') },
  { id: 'page_up', keys: 'Page Up', does: 'Open the trace a page up', scope: 'corpus', match: key('PageUp') },
  { id: 'home', keys: 'Home', does: 'Open the first trace', scope: 'corpus', match: key('Home') },
  { id: 'end', keys: 'End', does: 'Open the last trace', scope: 'corpus', match: key('End') },
  { id: 'open', keys: 'Enter', does: 'Open the trace of the focused row', scope: 'corpus', match: key('Enter') },
  // A splitter between panes.
  {
    id: 'less',
    keys: '← / ↑',
    does: 'Move it 20 px left / up',
    scope: 'splitter',
    match: (e) => key('ArrowLeft')(e) || key('ArrowUp')(e),
  },
  {
    id: 'more',
    keys: '→ / ↓',
    does: 'Move it 20 px right / down',
    scope: 'splitter',
    match: (e) => key('ArrowRight')(e) || key('ArrowDown')(e),
  },
];

/** The binding of a scope that a key event matches, or null. */
export function keyFor(scope: KeyScope, e: KeyEventLike): KeyBinding | null {
  return KEYS.find((b) => b.scope === scope && b.match(e)) ?? null;
}

export const SCOPE_TITLES: Record<KeyScope, string> = {
  app: 'Anywhere (but a text field)',
  explorer: 'Explorer: debugger keys, wherever the focus is (but a text field)',
  tree: 'In a state tree (click it or tab to it first)',
  search: 'In the trace search box',
  corpus: 'In the corpus list',
  splitter: 'On a splitter between panes',
};

/** The scopes whose keys work in each view (the corpus list is beside the explorer and the dashboard). */
const SCOPES_OF: Record<View, KeyScope[]> = {
  explorer: ['app', 'explorer', 'tree', 'search', 'corpus', 'splitter'],
  dashboard: ['app', 'corpus', 'splitter'],
  label: ['app'],
  agreement: ['app'],
};

/** The keys of a view, by scope, as the `?` panel and docs/explorer.md list them (one line per shown row). */
export function keysOf(view: View): { scope: KeyScope; title: string; rows: { keys: string; does: string }[] }[] {
  return SCOPES_OF[view].map((scope) => ({
    scope,
    title: SCOPE_TITLES[scope],
    rows: KEYS.filter((b) => b.scope === scope).map((b) => ({ keys: b.keys, does: b.does })),
  }));
}

/** The keys shown for an action (the buttons' tooltips): `KEY_HELP.step_into` is 'F11'. */
export const KEY_HELP: Record<string, string> = Object.fromEntries(
  KEYS.filter((b) => b.scope === 'explorer' || b.scope === 'app').map((b) => [b.id, b.keys]),
);

const TEXT_INPUTS = new Set(['text', 'search', 'number', 'email', 'url', 'password', 'tel']);

/** True where keys type text (a text input, a textarea, an editable element): debugger keys stay out. */
export function typesText(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  if (t.isContentEditable || t.tagName === 'TEXTAREA') return true;
  return t.tagName === 'INPUT' && TEXT_INPUTS.has((t as HTMLInputElement).type);
}
