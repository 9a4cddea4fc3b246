/**
 * Deep links applied and read back (lib/deeplink.ts has the format): `linkOf` says what is
 * open, `applyLink` opens it. A stale link (a trace, set, run or item that is gone; actions
 * that no longer walk) opens what it can and says what it could not, one sentence each.
 * `followLink` is the app's one way to open something elsewhere (an item clicked on the
 * dashboard), `followAddress` the page's address at start: each applies the link and shows what
 * it could not open.
 */
import type { AppState } from '../lib/context.js';
import { parseLink, type DeepLink } from '../lib/deeplink.js';

export function linkOf(app: AppState): DeepLink {
  if (app.nav.view === 'dashboard') return dashboardLink(app);
  if (app.nav.view === 'agreement') {
    const a = app.agreement;
    return { view: 'agreement', ...(a.set && { set: a.set }), ...(a.set && a.run && { run: a.run }) };
  }
  if (app.nav.view !== 'explorer') return { view: app.nav.view };
  const ex = app.explorer;
  const ov = app.overlay;
  const l: DeepLink = {};
  if (ex.traceId !== null) {
    l.trace = ex.traceId;
    if (ex.direction !== 'forward') l.dir = ex.direction;
    if (ex.entry !== 0) l.entry = ex.entry;
    if (ex.actions.length) l.actions = ex.actions;
    if (ex.cursor !== ex.actions.length) l.cursor = ex.cursor;
  }
  if (ov.set) {
    l.set = ov.set;
    if (ov.run) l.run = ov.run;
    if (ov.run2) l.run2 = ov.run2;
  }
  // An item being opened is named from the start, so its trace and trajectory arriving are part of opening it.
  const item = ov.opening ?? (ov.check?.item && ov.atPrompt ? ov.check.item.id : undefined);
  if (item !== undefined) {
    // The item carries its own trajectory: the link names it instead.
    l.item = item;
    delete l.dir;
    delete l.entry;
    delete l.actions;
    delete l.cursor;
  }
  // An open rollout the explorer stands on: its item and the step (opened alone, it goes to its divergence).
  const step = item === undefined ? ov.rollout.step : null;
  if (step !== null && ov.rollout.open) {
    l.item = ov.rollout.open.id;
    l.cursor = step;
    delete l.dir;
    delete l.entry;
    delete l.actions;
  }
  if (ov.failuresOnly) l.failures = true;
  return l;
}

export async function applyLink(app: AppState, l: DeepLink): Promise<string[]> {
  app.nav.applying++;
  try {
    return await applyAny(app, l);
  } finally {
    app.nav.applying--;
  }
}

/**
 * Back or Forward landed on a history entry (state/history.svelte.ts): what the link does not
 * name is closed (an item, the overlay, the trace), and on the trace already open only its
 * overlay and trajectory change (the trace is not read again); anything else opens as a link.
 */
export async function restoreLink(app: AppState, l: DeepLink): Promise<string[]> {
  const ex = app.explorer;
  const ov = app.overlay;
  app.nav.applying++;
  try {
    const explorer = (l.view ?? 'explorer') === 'explorer';
    if (!explorer || l.item === undefined) ov.closeCheck();
    if (!explorer) return await applyAny(app, l);
    if (l.set === undefined && ov.set) await ov.chooseSet('');
    if (l.trace === undefined && l.item === undefined) {
      app.nav.view = 'explorer';
      ex.close();
      return [];
    }
    if (l.item !== undefined || l.trace !== ex.traceId) return await applyAny(app, l);
    app.nav.view = 'explorer';
    if (l.set !== undefined && (l.set !== ov.set || (l.run ?? ov.run) !== ov.run || (l.run2 ?? '') !== ov.run2))
      await ov.chooseSet(l.set, l.run, l.run2);
    ov.failuresOnly = l.failures === true;
    const actions = l.actions ?? [];
    await ex.restart(l.dir ?? 'forward', l.entry ?? 0, actions);
    if (l.cursor !== undefined && l.cursor <= actions.length) await ex.goTo(l.cursor);
    return [];
  } finally {
    app.nav.applying--;
  }
}

async function applyAny(app: AppState, l: DeepLink): Promise<string[]> {
  const ex = app.explorer;
  const ov = app.overlay;
  const problems: string[] = [];
  app.nav.view = l.view ?? 'explorer';
  if (l.view === 'dashboard') {
    await applyDashboard(app, l, problems);
    return problems;
  }
  if (l.view === 'agreement') {
    await applyAgreement(app, l, problems);
    return problems;
  }
  if (l.view === 'label') {
    if (Object.keys(l).length > 1) problems.push('The labeling view takes no other parameters; they were ignored.');
    return problems;
  }
  // The trace opens while the overlay's set and runs load (an item's link opens its own trace).
  const opening = l.item === undefined && l.trace !== undefined ? ex.open(l.trace) : null;
  await ov.loadSets();
  // An item named without its set: its own set is overlaid (with the link's runs), so the
  // Predictions bar says what is shown and the item lists only that set's answers.
  const set = l.set ?? (l.item !== undefined ? await ov.setOfItem(l.item) : undefined);
  if (set !== undefined) {
    await ov.chooseSet(set, l.run, l.run2);
    if (ov.error) problems.push(`${ov.error} The link's overlay was left out.`);
    ov.error = null;
  } else if (l.run !== undefined || l.run2 !== undefined) {
    problems.push('The link names a run but no set ("set=…"); the run was ignored.');
  }
  ov.failuresOnly = l.failures === true;
  if (l.item !== undefined) {
    await ov.openItem(l.item);
    // A rollout's link names its step too (linkOf).
    if (ov.isRollout && ov.rollout.open && l.cursor !== undefined) await ov.rollout.goTo(l.cursor);
    if (ov.error) {
      problems.push(`The link's item ${l.item} could not be opened: ${ov.error.replace(/^Item \d+: /, '')}`);
      ov.error = null;
    } else if (l.trace !== undefined && l.trace !== ex.traceId) {
      problems.push(`Item ${l.item} is on trace ${ex.traceId}, not ${l.trace}: its trace was opened.`);
    }
    if (ex.traceId !== null) return problems;
  }
  if (l.trace === undefined) {
    if (l.actions || l.dir || l.entry !== undefined || l.cursor !== undefined)
      problems.push('The link has actions but no trace ("trace=…"); they were ignored.');
    return problems;
  }
  await (opening ?? ex.open(l.trace));
  if (ex.traceId !== l.trace) {
    problems.push(`The link's trace ${l.trace} could not be opened: ${ex.error ?? 'no such trace'}.`);
    return problems;
  }
  await ov.loadItems();
  if (l.dir || l.entry !== undefined || l.actions?.length) {
    const actions = l.actions ?? [];
    await ex.restart(l.dir ?? 'forward', l.entry ?? 0, actions);
    if (ex.error) {
      problems.push(
        `The link's trajectory does not walk on trace ${l.trace}: ${ex.error}. The trace is shown from its start.`,
      );
      await ex.restart('forward', 0, []);
      return problems;
    }
    if (l.cursor !== undefined) {
      if (l.cursor > actions.length)
        problems.push(`The link's cursor ${l.cursor} is past its ${actions.length} actions; all are applied.`);
      else await ex.goTo(l.cursor);
    }
  }
  return problems;
}

/** The dashboard's link: its set, and the two runs compared when they are not the set's first two. */
function dashboardLink(app: AppState): DeepLink {
  const d = app.dashboard;
  if (!d.set) return { view: 'dashboard' };
  const l: DeepLink = { view: 'dashboard', set: d.set.name };
  if (d.a !== (d.runs[0]?.run.label ?? '') || d.b !== (d.runs[1]?.run.label ?? '')) {
    if (d.a) l.run = d.a;
    if (d.b) l.run2 = d.b;
  }
  return l;
}

const DASHBOARD_KEYS: readonly string[] = ['view', 'set', 'run', 'run2'];

/** Opens the dashboard on the link's set, comparing its `run` and `run2`. */
async function applyDashboard(app: AppState, l: DeepLink, problems: string[]): Promise<void> {
  const d = app.dashboard;
  const other = Object.keys(l).filter((k) => !DASHBOARD_KEYS.includes(k));
  if (other.length)
    problems.push(
      `The dashboard takes only set, run and run2 (the runs compared); ${other.join(', ')} ${other.length > 1 ? 'were' : 'was'} ignored.`,
    );
  await d.load(l.set);
  if (d.error) {
    problems.push(d.error);
    return;
  }
  if (l.run === undefined && l.run2 === undefined) return;
  if (l.set === undefined) {
    problems.push('The link names runs to compare but no set ("set=…"); they were ignored.');
    return;
  }
  const labels = d.runs.map((r) => r.run.label);
  for (const [key, run] of [
    ['run', l.run],
    ['run2', l.run2],
  ] as const) {
    if (run === undefined) continue;
    if (!labels.includes(run))
      problems.push(
        `The set "${l.set}" has no run "${run}" (${key}; runs: ${labels.join(', ') || 'none'}); it was left out of the comparison.`,
      );
    else if (key === 'run') d.a = run;
    else d.b = run;
  }
  await d.compare();
}

/** Opens the agreement view on the link's set and run (else the run being labeled, else the first). */
async function applyAgreement(app: AppState, l: DeepLink, problems: string[]): Promise<void> {
  const other = Object.keys(l).filter((k) => !['view', 'set', 'run'].includes(k));
  if (other.length)
    problems.push(
      `The agreement view takes only set and run; ${other.join(', ')} ${other.length > 1 ? 'were' : 'was'} ignored.`,
    );
  if (l.run !== undefined && l.set === undefined)
    problems.push('The link names a run but no set ("set=…"); the run was ignored.');
  // Set before the view mounts and opens: its open joins this one.
  if (l.set !== undefined) app.agreement.follow(l.set, l.run ?? '');
  problems.push(...(await app.agreement.open()));
}

/** Opens a link from inside the app; what it could not open is shown above the view. */
export async function followLink(app: AppState, l: DeepLink): Promise<void> {
  app.nav.problems = await applyLink(app, l);
}

/**
 * The address the page was opened at (`location.search`), followed once: main.ts calls it
 * before App mounts, so the link's first calls (the trace, the sets) overlap the mount.
 */
export async function followAddress(app: AppState, search: string): Promise<void> {
  const { link, problems } = parseLink(search);
  const more = await applyLink(app, link);
  app.nav.problems = [...problems, ...more];
}
