/**
 * The dashboard's plots, drawn with Observable Plot from the lines of `stepscope scores --json`
 * (getScores), never from numbers of our own: each drawn mark carries the exact number it
 * shows (`data-value`) and what it stands for (`data-run`, `data-by`, `data-group`,
 * `data-metric`), and a click on it calls `pick` with the group whose items it stands for.
 * Lines are labelled at their end inside the SVG (no HTML legend), so an exported SVG or PNG
 * is complete.
 */
import * as Plot from '@observablehq/plot';
import type { ScoreBy, ScoreLine } from '@core/contract/index.js';

export interface PickArgs {
  run: string;
  by?: ScoreBy;
  /** The group as getScores names it (absent: the whole set). */
  group?: string | number | null;
  /** What the mark shows, for the item list's title. */
  label: string;
}
export type Pick = (p: PickArgs) => void;

/** A datum of a clickable mark: where it points and the number it shows. */
interface Datum extends PickArgs {
  metric: string;
  value: number;
}

export const FIELD_METRICS = ['em_event', 'em_src', 'em_locals', 'em_arg', 'em_all'] as const;
const pct = (v: number) => `${v.toFixed(1)}%`;

/**
 * A render transform making each element of a mark clickable and self-describing. Plot binds
 * each drawn element to its index in the mark's data (`__data__`).
 */
function clickable(data: Datum[], pick: Pick): Plot.RenderFunction {
  return (index, scales, values, dims, ctx, next) => {
    const g = next!(index, scales, values, dims, ctx) as SVGGElement;
    for (const el of g.querySelectorAll<SVGElement>('*')) {
      const i = (el as unknown as { __data__?: unknown }).__data__;
      if (typeof i !== 'number' || el.tagName === 'title') continue;
      const d = data[i];
      el.dataset.testid = 'mark';
      el.dataset.run = d.run;
      el.dataset.by = d.by ?? '';
      el.dataset.group = d.group === undefined ? '' : String(d.group);
      el.dataset.metric = d.metric;
      el.dataset.value = String(d.value);
      el.style.cursor = 'pointer';
      el.addEventListener('click', () => pick({ run: d.run, by: d.by, group: d.group, label: d.label }));
    }
    return g;
  };
}

const base = (width: number): Plot.PlotOptions => ({
  width,
  style: { fontSize: '11px', background: 'white' },
  marginRight: 20,
});

/**
 * The runs' colours, the same in every plot (the dashboard passes every run of the set, drawn
 * or not), and a legend drawn inside the SVG (top right, one line per run drawn), so a saved
 * plot needs no separate legend.
 */
export const runColors = (all: readonly string[]): Plot.ScaleOptions => ({
  type: 'categorical',
  domain: [...all],
  scheme: 'observable10',
});
/** A run's colour outside the plots (the run pickers' swatches). */
export const colorOf = (colors: Plot.ScaleOptions) => {
  const scale = Plot.scale({ color: colors });
  return (run: string) => String(scale.apply(run));
};
function legend(runs: readonly string[]): Plot.Markish[] {
  return runs.map((run, i) =>
    Plot.text([run], {
      frameAnchor: 'top-right',
      text: (d: string) => `● ${d}`,
      fill: (d: string) => d,
      dy: 4 + 14 * i,
      dx: -4,
      textAnchor: 'end',
      fontWeight: 600,
      facet: 'super',
    }),
  );
}

export interface RunLines {
  run: string;
  lines: ScoreLine[];
}

/** Exact match by action × field, one panel per model (the paper's Figs. 6–7). */
export function fieldHeatmap(runs: RunLines[], pick: Pick, width: number): Element | null {
  const data: Datum[] = [];
  for (const { run, lines } of runs)
    for (const l of lines.slice(1))
      for (const m of FIELD_METRICS) {
        const v = l[m];
        if (v !== null)
          data.push({
            run,
            by: 'action',
            group: l.group,
            metric: m,
            value: v,
            label: `${run}: ${l.group}, ${m} ${pct(v)}`,
          });
      }
  if (!data.length) return null;
  const actions = [...new Set(data.map((d) => String(d.group)))];
  return Plot.plot({
    ...base(width),
    marginLeft: 110,
    marginRight: 10,
    height: 40 + 24 * actions.length,
    x: { domain: [...FIELD_METRICS], tickFormat: (m: string) => m.slice(3), label: null },
    y: { domain: actions, label: null },
    fx: { label: null },
    color: { type: 'linear', domain: [0, 100], scheme: 'blues' },
    marks: [
      Plot.cell(data, {
        fx: 'run',
        x: 'metric',
        y: (d: Datum) => String(d.group),
        fill: 'value',
        inset: 0.5,
        title: 'label',
        render: clickable(data, pick),
      }),
      Plot.text(data, {
        fx: 'run',
        x: 'metric',
        y: (d: Datum) => String(d.group),
        text: (d: Datum) => d.value.toFixed(0),
        fill: (d: Datum) => (d.value > 60 ? 'white' : 'black'),
        pointerEvents: 'none',
      }),
    ],
  });
}

/** One metric against a numeric group, one line per run, each point clickable. */
function linePlot(
  runs: RunLines[],
  by: ScoreBy,
  metric: 'pass@1' | 'em_all',
  pick: Pick,
  width: number,
  x: Plot.ScaleOptions,
  colors: Plot.ScaleOptions,
): Element | null {
  const data: Datum[] = [];
  for (const { run, lines } of runs)
    for (const l of lines.slice(1)) {
      const v = l[metric];
      if (v !== null && typeof l.group === 'number')
        data.push({
          run,
          by,
          group: l.group,
          metric,
          value: v,
          label: `${run}: ${by} ${l.group}, ${metric} ${pct(v)} (${l.items} items)`,
        });
    }
  if (!data.length) return null;
  return Plot.plot({
    ...base(width),
    height: 260,
    x,
    y: { domain: [0, 100], grid: true, label: `${metric} (%)` },
    color: colors,
    marks: [
      Plot.line(data, { x: 'group', y: 'value', stroke: 'run', z: 'run' }),
      Plot.dot(data, { x: 'group', y: 'value', fill: 'run', r: 4, title: 'label', render: clickable(data, pick) }),
      ...legend(runs.map((r) => r.run)),
    ],
  });
}

/** Accuracy against the fraction of the function the final jump skips (the paper's Fig. 8). */
export const horizonPlot = (runs: RunLines[], pick: Pick, width: number, colors: Plot.ScaleOptions) =>
  linePlot(
    runs,
    'horizon',
    'pass@1',
    pick,
    width,
    { label: 'horizon: fraction of the function skipped', domain: [0, 1] },
    colors,
  );

/** Accuracy by the trace's length (power-of-two bins). */
export const lengthPlot = (runs: RunLines[], pick: Pick, width: number, colors: Plot.ScaleOptions) =>
  linePlot(
    runs,
    'length',
    'pass@1',
    pick,
    width,
    { type: 'log', base: 2, label: 'trace length (events, bin lower end)', tickFormat: ',' },
    colors,
  );

/** Whole numbers from 0 to the deepest group, at most about 8 of them (depths have no halves to label). */
export function depthTicks(runs: RunLines[]): number[] {
  const max = Math.max(0, ...runs.flatMap((r) => r.lines.map((l) => (typeof l.group === 'number' ? l.group : 0))));
  const step = Math.max(1, Math.ceil(max / 8));
  return Array.from({ length: Math.floor(max / step) + 1 }, (_, j) => j * step);
}

/** Accuracy by how many calls deep the target is. */
export function depthPlot(runs: RunLines[], pick: Pick, width: number, colors: Plot.ScaleOptions): Element | null {
  const ticks = depthTicks(runs);
  // The domain is the ticks' (from 0): from the data alone, a set whose targets are all at one
  // depth (CRUXEval: depth 1) got a zero-width domain that drew every tick on the same spot.
  return linePlot(
    runs,
    'depth',
    'pass@1',
    pick,
    width,
    { label: 'call depth of the target', tickFormat: 'd', ticks, domain: [0, ticks[ticks.length - 1]], inset: 24 },
    colors,
  );
}

/** pass@k against k, from the whole-set line (k = 1, 5, 10 where every item has k samples). */
export function passAtKPlot(runs: RunLines[], pick: Pick, width: number, colors: Plot.ScaleOptions): Element | null {
  const data: Datum[] = [];
  for (const { run, lines } of runs)
    for (const k of [1, 5, 10] as const) {
      const v = lines[0]?.[`pass@${k}`];
      if (v !== null && v !== undefined)
        data.push({ run, group: k, metric: `pass@${k}`, value: v, label: `${run}: pass@${k} ${pct(v)}` });
    }
  if (!data.length) return null;
  // The point's group is k, but its items are the whole set's.
  const toWhole: Pick = (p) => pick({ run: p.run, label: p.label });
  return Plot.plot({
    ...base(width),
    height: 260,
    x: { domain: [1, 10], ticks: [1, 5, 10], label: 'k' },
    y: { domain: [0, 100], grid: true, label: 'pass@k (%)' },
    color: colors,
    marks: [
      Plot.line(data, { x: 'group', y: 'value', stroke: 'run', z: 'run' }),
      Plot.dot(data, { x: 'group', y: 'value', fill: 'run', r: 4, title: 'label', render: clickable(data, toWhole) }),
      ...legend(runs.map((r) => r.run)),
    ],
  });
}

export interface Published {
  model: string;
  value: number;
}

/** CRUXEval pass@1 per run with its 95% bootstrap interval, beside the published figures. */
export function cruxevalPlot(
  runs: (RunLines & { lo: number | null; hi: number | null })[],
  published: Published[],
  pick: Pick,
  width: number,
): Element | null {
  const data: (Datum & { lo: number | null; hi: number | null })[] = [];
  for (const r of runs) {
    const v = r.lines[0]?.['pass@1'];
    if (v !== null && v !== undefined)
      data.push({
        run: r.run,
        metric: 'pass@1',
        value: v,
        lo: r.lo,
        hi: r.hi,
        label: `${r.run}: pass@1 ${pct(v)} [${r.lo?.toFixed(1)}, ${r.hi?.toFixed(1)}] (${r.lines[0].items} items)`,
      });
  }
  if (!data.length && !published.length) return null;
  const pub = published.map((p) => ({ name: `${p.model} (published)`, value: p.value }));
  const names = [...data.map((d) => d.run), ...pub.map((p) => p.name)];
  return Plot.plot({
    ...base(width),
    height: 60 + 26 * names.length,
    marginLeft: Math.max(...names.map((n) => 14 + 6.4 * n.length)),
    marginRight: 40, // the longest name whole (11px sans: ~6.4px a character)
    x: { domain: [0, 100], grid: true, label: 'pass@1 (%)' },
    y: { domain: names, label: null },
    marks: [
      Plot.barX(pub, {
        y: 'name',
        x: 'value',
        fill: '#d1d5db',
        title: (p: { name: string; value: number }) => `${p.name}: ${p.value}`,
      }),
      Plot.text(pub, {
        y: 'name',
        x: 'value',
        text: (p: { value: number }) => p.value.toFixed(2),
        dx: 4,
        textAnchor: 'start',
      }),
      Plot.barX(data, { y: 'run', x: 'value', fill: '#2563eb', title: 'label', render: clickable(data, pick) }),
      Plot.ruleY(
        data.filter((d) => d.lo !== null),
        { y: 'run', x1: 'lo', x2: 'hi', stroke: 'black', strokeWidth: 2 },
      ),
      Plot.tickX(
        data
          .filter((d) => d.lo !== null)
          .flatMap((d) => [
            { run: d.run, x: d.lo! },
            { run: d.run, x: d.hi! },
          ]),
        { y: 'run', x: 'x', stroke: 'black', insetTop: 6, insetBottom: 6 },
      ),
      Plot.text(data, {
        y: 'run',
        x: (d: Datum & { hi: number | null }) => d.hi ?? d.value,
        text: (d: Datum) => d.value.toFixed(2),
        dx: 6,
        textAnchor: 'start',
      }),
    ],
  });
}

/** Completions that could not be read, per action kind and run (percent of samples; the count in the tooltip). */
export function formatErrorPlot(
  runs: RunLines[],
  pick: Pick,
  width: number,
  colors: Plot.ScaleOptions,
): Element | null {
  const data: (Datum & { action: string; count: number })[] = [];
  for (const { run, lines } of runs)
    for (const l of lines) {
      if (l.samples === 0 || l.em_event === null) continue; // the benchmark's texts are not read as states
      const action = l.group === null ? '(all)' : String(l.group);
      const rate = (l.format_errors / l.samples) * 100;
      data.push({
        run,
        by: l.group === null ? undefined : 'action',
        group: l.group === null ? undefined : l.group,
        action,
        count: l.format_errors,
        metric: 'format_errors',
        value: l.format_errors,
        label: `${run}: ${action}, ${l.format_errors} of ${l.samples} samples (${pct(rate)}) unreadable`,
      });
    }
  if (!data.length) return null;
  const rate = (d: { value: number; run: string; action: string }) => {
    const l = runs
      .find((r) => r.run === d.run)!
      .lines.find((x) => (x.group === null ? '(all)' : String(x.group)) === d.action)!;
    return (d.value / l.samples) * 100;
  };
  return Plot.plot({
    ...base(width),
    height: 260,
    marginRight: 10,
    marginBottom: 50,
    fx: { label: null, tickRotate: -20 },
    x: { axis: null },
    y: { grid: true, label: 'format errors (% of samples)' },
    color: colors,
    marks: [
      Plot.barY(data, { fx: 'action', x: 'run', y: rate, fill: 'run', title: 'label', render: clickable(data, pick) }),
      Plot.ruleY([0]),
      ...legend([...new Set(data.map((d) => d.run))]),
    ],
  });
}
