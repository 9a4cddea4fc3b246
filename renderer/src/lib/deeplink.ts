/**
 * Deep links: what is open, as the query of the root address, so a view can be shared,
 * bookmarked and reopened (web mode's address bar; the desktop app copies the same text).
 * Pure: parse and format only; the app applies a link (App.svelte, state/links.svelte.ts).
 *
 * The format (every parameter optional, in this order when formatted):
 *
 *   /?view=dashboard&set=S&run=R&run2=R2
 *   /?view=label   /?view=agreement&set=S&run=R
 *   /?trace=12&set=S&run=R&run2=R2&dir=forward&entry=0&actions=step_into,step_into&cursor=2&item=345&failures=1
 *
 * | key | value |
 * | --- | --- |
 * | `view` | the view open: `explorer` (the default), `dashboard`, `label` (labeling failures) or `agreement` (the
 * annotators' agreement) |
 * | `trace` | a trace id: the explorer opens it |
 * | `set`, `run`, `run2` | an evaluation set and the run (and a second run to compare) overlaid on the trees; on the
 * dashboard, the set and the runs compared (A, B); on the agreement view, the set and run whose labels are compared |
 * | `dir`, `entry` | the trajectory's direction (`forward`, `inverse`) and entry (seq of a call) |
 * | `actions` | the actions walked, comma-separated, each one percent-encoded (`breakpoint%20%20%20%20return%20n`): a
 * `,` inside an action is `%2C` |
 * | `cursor` | how many of them are applied (default all) |
 * | `item` | an evaluation item opened in the inspector (its predictions against the truth) |
 * | `failures` | `1`: the trees show only failing items' marks |
 *
 * Every way into an item goes through a link: the dashboard opens one with `followLink(app,
 * {set, run, item})` (state/links.ts), as the address does.
 * A parameter that is not one of these, or a value that is not what the table says, is
 * reported in `problems` (one sentence each) and left out of the link; the app shows them,
 * never a blank page.
 */

/** The app's views, in the order of its view bar. */
export const VIEWS = ['explorer', 'dashboard', 'label', 'agreement'] as const;
export type View = (typeof VIEWS)[number];

export interface DeepLink {
  view?: View;
  trace?: number;
  set?: string;
  run?: string;
  run2?: string;
  dir?: 'forward' | 'inverse';
  entry?: number;
  actions?: string[];
  cursor?: number;
  item?: number;
  failures?: boolean;
}

export const LINK_KEYS = [
  'view',
  'trace',
  'set',
  'run',
  'run2',
  'dir',
  'entry',
  'actions',
  'cursor',
  'item',
  'failures',
] as const;

const enc = encodeURIComponent;

function dec(s: string): string | null {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

const isCount = (s: string) => /^(0|[1-9]\d{0,15})$/.test(s);

/** Reads a query (`?a=b&…`, with or without the `?`). */
export function parseLink(search: string): { link: DeepLink; problems: string[] } {
  const link: DeepLink = {};
  const problems: string[] = [];
  const q = search.startsWith('?') ? search.slice(1) : search;
  for (const part of q.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rawKey = eq < 0 ? part : part.slice(0, eq);
    const raw = eq < 0 ? '' : part.slice(eq + 1);
    const key = dec(rawKey) ?? rawKey;
    const bad = (expected: string, got: string | null = dec(raw)) =>
      problems.push(`The link's "${key}" should be ${expected}, not "${got ?? raw}"; it was left out.`);
    if (key === 'actions') {
      // Split before decoding: a comma inside an action is %2C.
      const list = raw === '' ? [] : raw.split(',').map(dec);
      if (list.some((a) => a === null || a === '')) bad('a comma-separated list of percent-encoded actions');
      else link.actions = list as string[];
      continue;
    }
    const v = dec(raw);
    if (v === null) {
      bad('percent-encoded text');
      continue;
    }
    switch (key) {
      case 'view':
        if ((VIEWS as readonly string[]).includes(v)) link.view = v as View;
        else bad(`one of the views ${VIEWS.map((x) => `"${x}"`).join(', ')}`);
        break;
      case 'dir':
        if (v === 'forward' || v === 'inverse') link.dir = v;
        else bad('"forward" or "inverse"');
        break;
      case 'trace':
      case 'item':
        if (isCount(v) && Number(v) > 0) link[key] = Number(v);
        else bad('a positive whole number (an id)');
        break;
      case 'entry':
      case 'cursor':
        if (isCount(v)) link[key] = Number(v);
        else bad('a whole number');
        break;
      case 'set':
      case 'run':
      case 'run2':
        if (v.trim() !== '') link[key] = v;
        else bad('a name');
        break;
      case 'failures':
        if (v === '1' || v === '0') link.failures = v === '1';
        else bad('1 or 0');
        break;
      default:
        problems.push(`The link has an unknown parameter "${key}" (known: ${LINK_KEYS.join(', ')}); it was ignored.`);
    }
  }
  return { link, problems };
}

/** The query for a link (`?…`, or '' for an empty link), keys in LINK_KEYS order; defaults left out. */
export function formatLink(l: DeepLink): string {
  const parts: string[] = [];
  if (l.view && l.view !== 'explorer') parts.push(`view=${l.view}`);
  if (l.trace !== undefined) parts.push(`trace=${l.trace}`);
  for (const k of ['set', 'run', 'run2'] as const) if (l[k] !== undefined) parts.push(`${k}=${enc(l[k]!)}`);
  if (l.dir !== undefined) parts.push(`dir=${l.dir}`);
  if (l.entry !== undefined) parts.push(`entry=${l.entry}`);
  if (l.actions?.length) parts.push(`actions=${l.actions.map(enc).join(',')}`);
  if (l.cursor !== undefined) parts.push(`cursor=${l.cursor}`);
  if (l.item !== undefined) parts.push(`item=${l.item}`);
  if (l.failures) parts.push('failures=1');
  return parts.length ? `?${parts.join('&')}` : '';
}
