/**
 * The dashboard's plots, drawn with Observable Plot from the lines of `stepscope scores --json`
 * (getScores), never from numbers of our own: each drawn mark carries the exact number it
 * shows (`data-value`) and what it stands for (`data-run`, `data-by`, `data-group`,
 * `data-metric`), and a click on it calls `pick` with the group whose items it stands for.
 * The legend is drawn inside the SVG, in the top margin above the plot area (never over the
 * data), so an exported SVG or PNG is complete.
 */
import * as Plot from '@observablehq/plot';
import type { RolloutRun, ScoreBy, ScoreLine } from '@core/contract/index.js';

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
 * or not).
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

const ROW = 14; // px a line of 11px text takes
/** About how wide a legend entry is drawn (11px bold sans: ~6.8px a character, the dot and a gap). */
const entryWidth = (run: string) => 22 + 6.8 * run.length;

/**
 * Where each run's legend entry goes: left to right in rows no wider than `room`, each row
 * right-aligned (x: the entry's right end, from the right edge; row 0 is the top one).
 */
export function legendLayout(runs: readonly string[], room: number): { run: string; row: number; right: number }[] {
  const rows: string[][] = [[]];
  let used = 0;
  for (const run of runs) {
    const w = entryWidth(run);
    if (used > 0 && used + w > room) {
      rows.push([]);
      used = 0;
    }
    rows[rows.length - 1].push(run);
    used += w;
  }
  return rows.flatMap((row, i) => {
    let right = row.reduce((a, r) => a + entryWidth(r), 0);
    return row.map((run) => {
      const at = { run, row: i, right: right - entryWidth(run) };
      right -= entryWidth(run);
      return at;
    });
  });
}

/**
 * The legend, one entry per run, in the top margin: `above` px above the plot area (the
 * space the y axis's label or the counts take), so it never covers a mark. Returns its marks
 * and the top margin the plot needs.
 */
function legend(runs: readonly string[], width: number, above: number): { marks: Plot.Markish[]; marginTop: number } {
  const at = legendLayout(runs, width - 60);
  const rows = at.length ? Math.max(...at.map((a) => a.row)) + 1 : 0;
  const marks = at.map((a) =>
    Plot.text([a.run], {
      frameAnchor: 'top-right',
      text: (d: string) => `● ${d}`,
      fill: (d: string) => d,
      dy: -above - ROW * (rows - a.row), // text hangs from its anchor at the frame's top
      dx: -a.right,
      textAnchor: 'end',
      fontWeight: 600,
      facet: 'super',
      className: 'legend',
    }),
  );
  return { marks, marginTop: above + ROW * rows + 6 };
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

/**
 * A bin with fewer items than this is marked (a hollow point, its count in orange): one item
 * more or less moves its percentage by more than 10 points.
 */
export const FEW_ITEMS = 10;

/** A point of a line plot: its group's items in that run, and whether they are few. */
export interface BinDatum extends Datum {
  group: number;
  items: number;
  few: boolean;
}

/** The points of a line plot: one per run and numeric group with a value of `metric`. */
export function binPoints(runs: RunLines[], by: ScoreBy, metric: 'pass@1' | 'em_all'): BinDatum[] {
  const data: BinDatum[] = [];
  for (const { run, lines } of runs)
    for (const l of lines.slice(1)) {
      const v = l[metric];
      if (v === null || typeof l.group !== 'number') continue;
      const few = l.items < FEW_ITEMS;
      data.push({
        run,
        by,
        group: l.group,
        metric,
        value: v,
        items: l.items,
        few,
        label:
          `${run}: ${by} ${l.group}, ${metric} ${pct(v)} (${l.items} ${l.items === 1 ? 'item' : 'items'}` +
          `${few ? `: fewer than ${FEW_ITEMS}, read with care` : ''})`,
      });
    }
  return data;
}

/**
 * What the counts row shows above each group: its items (the runs' counts joined by "/" in
 * the runs' order where they differ, a run answering only some of the set's items), and
 * whether any run has few there.
 */
export function binCounts(points: readonly BinDatum[]): { group: number; text: string; few: boolean }[] {
  const by = new Map<number, BinDatum[]>();
  for (const p of points) by.set(p.group, [...(by.get(p.group) ?? []), p]);
  return [...by]
    .sort((a, b) => a[0] - b[0])
    .map(([group, ps]) => {
      const counts = ps.map((p) => p.items);
      const text = counts.every((c) => c === counts[0]) ? String(counts[0]) : counts.join('/');
      return { group, text, few: ps.some((p) => p.few) };
    });
}

/** The distinct numeric groups of a breakdown that have a value (fewer than two: no line to draw). */
export function numericGroups(runs: RunLines[], metric: 'pass@1' | 'em_all' = 'pass@1'): number[] {
  const gs = new Set<number>();
  for (const { lines } of runs)
    for (const l of lines.slice(1)) if (typeof l.group === 'number' && l[metric] !== null) gs.add(l.group);
  return [...gs].sort((a, b) => a - b);
}

const FEW_COLOR = '#c2410c';

/**
 * One metric against a numeric group, one line per run, each point clickable. Above the plot
 * area, a row with each group's item count; a group with fewer than FEW_ITEMS items is drawn
 * as a hollow point with its count in orange. Fewer than two groups: null (no line to read).
 */
function linePlot(
  runs: RunLines[],
  by: ScoreBy,
  metric: 'pass@1' | 'em_all',
  pick: Pick,
  width: number,
  x: Plot.ScaleOptions,
  colors: Plot.ScaleOptions,
): Element | null {
  const data = binPoints(runs, by, metric);
  if (new Set(data.map((d) => d.group)).size < 2) return null;
  const solid = data.filter((d) => !d.few);
  const hollow = data.filter((d) => d.few);
  const counts = binCounts(data);
  const leg = legend(
    runs.map((r) => r.run),
    width,
    2 * ROW + 4,
  );
  return Plot.plot({
    ...base(width),
    height: 260 + leg.marginTop,
    marginTop: leg.marginTop,
    marginLeft: 48,
    // Inset: the first group's count clear of the counts row's label.
    x: { inset: 16, ...x },
    y: { domain: [0, 100], grid: true, label: `${metric} (%)`, labelAnchor: 'center', labelArrow: 'none' },
    color: colors,
    marks: [
      Plot.line(data, { x: 'group', y: 'value', stroke: 'run', z: 'run' }),
      Plot.dot(solid, { x: 'group', y: 'value', fill: 'run', r: 4, title: 'label', render: clickable(solid, pick) }),
      Plot.dot(hollow, {
        x: 'group',
        y: 'value',
        fill: 'white',
        stroke: 'run',
        strokeWidth: 2,
        r: 4,
        title: 'label',
        render: clickable(hollow, pick),
      }),
      // The counts row, just above the plot area, and what it is.
      ...[false, true].map((few) =>
        Plot.text(
          counts.filter((c) => c.few === few),
          {
            x: 'group',
            frameAnchor: 'top',
            dy: -ROW - 4, // clear of a point at 100%
            text: 'text',
            fill: few ? FEW_COLOR : '#6b7280',
            fontWeight: few ? 700 : 400,
            className: few ? 'bin-items-few' : 'bin-items',
          },
        ),
      ),
      Plot.text(['items'], {
        frameAnchor: 'top-left',
        dx: -6,
        dy: -ROW - 4,
        textAnchor: 'end',
        fill: '#6b7280',
      }),
      ...leg.marks,
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
    // A tick per bin (the log scale's own ticks fell between the bins of a short range: 5, 10, 15).
    {
      type: 'log',
      base: 2,
      label: 'trace length (events, bin lower end)',
      tickFormat: ',',
      ticks: numericGroups(runs),
    },
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

/**
 * Whether a run's whole-set line has a pass@k beyond k = 1, i.e. at least 5 draws of every
 * item: with one draw per item pass@k is pass@1 alone, and a k axis would say nothing.
 */
export const hasPassAtK = (r: RunLines) => r.lines[0]?.['pass@5'] != null || r.lines[0]?.['pass@10'] != null;

/**
 * pass@k against k, from the whole-set line (k = 1, 5, 10 where every item has k draws), for
 * the runs with a pass@k beyond k = 1; null when no run has one.
 */
export function passAtKPlot(runs: RunLines[], pick: Pick, width: number, colors: Plot.ScaleOptions): Element | null {
  const data: Datum[] = [];
  const drawn = runs.filter(hasPassAtK);
  for (const { run, lines } of drawn)
    for (const k of [1, 5, 10] as const) {
      const v = lines[0]?.[`pass@${k}`];
      if (v !== null && v !== undefined)
        data.push({ run, group: k, metric: `pass@${k}`, value: v, label: `${run}: pass@${k} ${pct(v)}` });
    }
  if (!data.length) return null;
  // The point's group is k, but its items are the whole set's.
  const toWhole: Pick = (p) => pick({ run: p.run, label: p.label });
  const leg = legend(
    drawn.map((r) => r.run),
    width,
    ROW + 4,
  );
  return Plot.plot({
    ...base(width),
    height: 260 + leg.marginTop,
    marginTop: leg.marginTop,
    x: { domain: [1, 10], ticks: [1, 5, 10], label: 'k' },
    y: { domain: [0, 100], grid: true, label: 'pass@k (%)' },
    color: colors,
    marks: [
      Plot.line(data, { x: 'group', y: 'value', stroke: 'run', z: 'run' }),
      Plot.dot(data, { x: 'group', y: 'value', fill: 'run', r: 4, title: 'label', render: clickable(data, toWhole) }),
      ...leg.marks,
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

/** Completions that could not be read, per action kind and run (percent of draws; the count in the tooltip). */
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
        label: `${run}: ${action}, ${l.format_errors} of ${l.samples} draws (${pct(rate)}) unreadable`,
      });
    }
  if (!data.length) return null;
  const rate = (d: { value: number; run: string; action: string }) => {
    const l = runs
      .find((r) => r.run === d.run)!
      .lines.find((x) => (x.group === null ? '(all)' : String(x.group)) === d.action)!;
    return (d.value / l.samples) * 100;
  };
  const leg = legend([...new Set(data.map((d) => d.run))], width, ROW + 4);
  return Plot.plot({
    ...base(width),
    height: 260 + leg.marginTop,
    marginTop: leg.marginTop,
    marginRight: 10,
    marginBottom: 50,
    // The actions under the bars: above them, the legend's margin would hold them too.
    fx: { label: null, tickRotate: -20, axis: 'bottom' },
    x: { axis: null },
    y: { grid: true, label: 'format errors (% of draws)' },
    color: colors,
    marks: [
      Plot.barY(data, { fx: 'action', x: 'run', y: rate, fill: 'run', title: 'label', render: clickable(data, pick) }),
      Plot.ruleY([0]),
      ...leg.marks,
    ],
  });
}

/** A point of the rollout plot: one run's accuracy at one step, rolled out or teacher-forced. */
export interface RolloutDatum extends Datum {
  group: number;
  kind: 'rollout' | 'teacher-forced';
  items: number;
  few: boolean;
}

/**
 * The points of the rollout plot, straight from getRollouts' `by_step`: per run and step its rollout accuracy, and
 * the teacher-forced accuracy at the same positions where the run has it.
 */
export function rolloutPoints(runs: readonly RolloutRun[]): RolloutDatum[] {
  const data: RolloutDatum[] = [];
  for (const r of runs)
    for (const s of r.by_step) {
      const few = s.rollouts < FEW_ITEMS;
      if (s.accuracy !== null)
        data.push({
          run: r.model,
          group: s.step,
          kind: 'rollout',
          metric: 'rollout',
          value: s.accuracy,
          items: s.rollouts,
          few,
          label:
            `${r.model}: step ${s.step}, rolled out ${pct(s.accuracy)} (${s.right} of ${s.rollouts} rollouts` +
            `${few ? `: fewer than ${FEW_ITEMS}, read with care` : ''})`,
        });
      if (s.teacher_forced !== null)
        data.push({
          run: r.model,
          group: s.step,
          kind: 'teacher-forced',
          metric: 'teacher_forced',
          value: s.teacher_forced,
          items: s.teacher_forced_items,
          few: s.teacher_forced_items < FEW_ITEMS,
          label: `${r.model}: step ${s.step}, teacher-forced ${pct(s.teacher_forced)} (${s.teacher_forced_right} of ${s.teacher_forced_items})`,
        });
    }
  return data;
}

/**
 * Accuracy by rollout step, one solid line per run, with the same run's teacher-forced accuracy at the same positions
 * dashed beside it; above the plot area, the rollouts at each step (orange: fewer than FEW_ITEMS). A click on a point
 * calls `onStep` with its run and step. Fewer than two steps: null.
 */
export function rolloutPlot(
  runs: readonly RolloutRun[],
  onStep: (run: string, step: number) => void,
  width: number,
  colors: Plot.ScaleOptions,
): Element | null {
  const data = rolloutPoints(runs);
  const TF_DX = 7;
  if (new Set(data.map((d) => d.group)).size < 2) return null;
  const pick: Pick = (p) => onStep(p.run, Number(p.group));
  const rolled = data.filter((d) => d.kind === 'rollout');
  const forced = data.filter((d) => d.kind === 'teacher-forced');
  const counts = binCounts(rolled);
  const leg = legend(
    runs.map((r) => r.model),
    width,
    2 * ROW + 4,
  );
  // The teacher-forced marks a few pixels right of their step: where both accuracies are equal, both stay visible
  // and clickable.
  const dots = (ds: RolloutDatum[], hollow: boolean, dashed: boolean) =>
    Plot.dot(ds, {
      x: 'group',
      dx: dashed ? TF_DX : 0,
      y: 'value',
      fill: hollow ? 'white' : 'run',
      stroke: 'run',
      strokeWidth: hollow ? 2 : 1,
      symbol: dashed ? 'square' : 'circle',
      r: dashed ? 3.5 : 4,
      title: 'label',
      className: dashed ? 'teacher-forced' : 'rollout',
      render: clickable(ds, pick),
    });
  return Plot.plot({
    ...base(width),
    height: 260 + leg.marginTop,
    marginTop: leg.marginTop,
    marginLeft: 48,
    x: { inset: 16, label: 'rollout step', ticks: [...new Set(data.map((d) => d.group))], tickFormat: 'd' },
    y: { domain: [0, 100], grid: true, label: 'accuracy (%)', labelAnchor: 'center', labelArrow: 'none' },
    color: colors,
    marks: [
      Plot.line(rolled, { x: 'group', y: 'value', stroke: 'run', z: 'run' }),
      Plot.line(forced, {
        x: 'group',
        y: 'value',
        stroke: 'run',
        z: 'run',
        dx: TF_DX,
        strokeDasharray: '5 4',
        strokeOpacity: 0.8,
      }),
      dots(forced, true, true),
      dots(
        rolled.filter((d) => !d.few),
        false,
        false,
      ),
      dots(
        rolled.filter((d) => d.few),
        true,
        false,
      ),
      ...[false, true].map((few) =>
        Plot.text(
          counts.filter((c) => c.few === few),
          {
            x: 'group',
            frameAnchor: 'top',
            dy: -ROW - 4,
            text: 'text',
            fill: few ? FEW_COLOR : '#6b7280',
            fontWeight: few ? 700 : 400,
            className: few ? 'bin-items-few' : 'bin-items',
          },
        ),
      ),
      Plot.text(['rollouts'], { frameAnchor: 'top-left', dx: -6, dy: -ROW - 4, textAnchor: 'end', fill: '#6b7280' }),
      // What the two line styles are, in the margin's left end (the runs' legend is at its right).
      Plot.text(['— rolled out   - - teacher-forced'], {
        frameAnchor: 'top-left',
        dy: -leg.marginTop + 4,
        textAnchor: 'start',
        fill: '#374151',
        className: 'rollout-styles',
      }),
      ...leg.marks,
    ],
  });
}
