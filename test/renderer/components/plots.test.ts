// The dashboard's plots (renderer/src/lib/plots.ts) drawn by Observable Plot in happy-dom:
// every mark carries exactly the number of the score line it stands for, and a click names
// the group whose items it lists.
import { describe, expect, it } from 'vitest';
import type { ScoreLine } from '../../../src/contract/index.js';
import {
  FEW_ITEMS,
  binCounts,
  binPoints,
  depthPlot,
  depthTicks,
  fieldHeatmap,
  formatErrorPlot,
  legendLayout,
  lengthPlot,
  numericGroups,
  passAtKPlot,
  runColors,
  type PickArgs,
} from '../../../renderer/src/lib/plots.js';

const line = (model: string, group: string | number | null, v: Partial<ScoreLine>): ScoreLine => ({
  set: 's',
  model,
  by: group === null ? null : 'action',
  group,
  items: 4,
  samples: 8,
  format_errors: 1,
  em_event: null,
  em_src: null,
  em_locals: null,
  em_arg: null,
  em_all: null,
  exec_pass: null,
  'pass@1': null,
  'pass@5': null,
  'pass@10': null,
  ...v,
});

const runs = [
  {
    run: 'a',
    lines: [
      line('a', null, { em_event: 90, em_all: 70, 'pass@1': 70 }),
      line('a', 'step_into', { em_event: 87.5, em_src: 100 / 3, em_all: 62.5 }),
      line('a', 'step_over', { em_event: 100, em_locals: 50, em_all: 50, format_errors: 2 }),
    ],
  },
  {
    run: 'b',
    lines: [
      line('b', null, { em_event: 80, em_all: 60, 'pass@1': 60, 'pass@5': 75 }),
      line('b', 'step_into', { em_event: 75, em_all: 75 }),
    ],
  },
];
const colors = runColors(['a', 'b']);

function marks(el: Element | null) {
  const a = (m: Element, k: string) => m.getAttribute(`data-${k}`) ?? '';
  return [...el!.querySelectorAll<SVGElement>('[data-testid="mark"]')].map((m) => ({
    el: m,
    run: a(m, 'run'),
    group: a(m, 'group'),
    metric: a(m, 'metric'),
    value: a(m, 'value'),
  }));
}

describe('dashboard plots', () => {
  it('draws one cell per applicable action × field, carrying the exact score', () => {
    const picks: PickArgs[] = [];
    const ms = marks(fieldHeatmap(runs, (p) => picks.push(p), 600));
    const want = runs.flatMap((r) =>
      r.lines
        .slice(1)
        .flatMap((l) =>
          (['em_event', 'em_src', 'em_locals', 'em_arg', 'em_all'] as const)
            .filter((m) => l[m] !== null)
            .map((m) => `${r.run}|${l.group}|${m}|${l[m]}`),
        ),
    );
    expect(ms.map((m) => `${m.run}|${m.group}|${m.metric}|${m.value}`).sort()).toEqual(want.sort());
    // 100/3 survives the trip through the attribute unrounded.
    expect(Number(ms.find((m) => m.metric === 'em_src')!.value)).toBe(100 / 3);
    ms.find((m) => m.run === 'a' && m.group === 'step_over' && m.metric === 'em_locals')!.el.dispatchEvent(
      new Event('click'),
    );
    expect(picks).toEqual([{ run: 'a', by: 'action', group: 'step_over', label: 'a: step_over, em_locals 50.0%' }]);
  });

  it('pass@k: a point per k every item has draws for, only for runs with more than pass@1; a click lists the whole set', () => {
    const picks: PickArgs[] = [];
    const ms = marks(passAtKPlot(runs, (p) => picks.push(p), 600, colors));
    // Run a has one draw per item (pass@1 only): no k axis for it.
    expect(ms.map((m) => `${m.run} ${m.metric} ${m.value}`)).toEqual(['b pass@1 60', 'b pass@5 75']);
    ms[1].el.dispatchEvent(new Event('click'));
    expect(picks).toEqual([{ run: 'b', label: 'b: pass@5 75.0%' }]);
    // No run with more than pass@1: nothing to draw.
    expect(passAtKPlot([runs[0]], () => undefined, 600, colors)).toBeNull();
  });

  it('format errors: the count of each line, for runs read as states; a run of benchmark texts draws nothing', () => {
    const ms = marks(formatErrorPlot(runs, () => undefined, 600, colors));
    expect(ms.map((m) => `${m.run} ${m.group} ${m.value}`).sort()).toEqual([
      'a  1',
      'a step_into 1',
      'a step_over 2',
      'b  1',
      'b step_into 1',
    ]);
    const texts = [{ run: 'c', lines: [line('c', null, { 'pass@1': 40 })] }];
    expect(formatErrorPlot(texts, () => undefined, 600, colors)).toBeNull();
  });

  it('depth: a point per numeric group, the legend inside the SVG above the plot area', () => {
    const byDepth = [
      {
        run: 'a',
        lines: [
          line('a', null, {}),
          { ...line('a', 1, { 'pass@1': 40 }), by: 'depth' as const },
          { ...line('a', 2, { 'pass@1': 60 }), by: 'depth' as const },
          { ...line('a', 'exit', { 'pass@1': 100 }), by: 'depth' as const },
        ],
      },
    ];
    const el = depthPlot(byDepth, () => undefined, 600, colors);
    expect(marks(el).map((m) => `${m.group} ${m.value}`)).toEqual(['1 40', '2 60']);
    const entry = [...el!.querySelectorAll('.legend text')];
    expect(entry.map((t) => t.textContent)).toEqual(['● a']);
    // Drawn from its top down, wholly above the plot area's top (the 100% tick), where no point can be.
    const y = (t: Element) => Number(/translate\([-\d.]+,([-\d.]+)\)/.exec(t.getAttribute('transform') ?? '')?.[1]);
    const top = y(
      [...el!.querySelectorAll('[aria-label="y-axis tick label"] text')].find((t) => t.textContent === '100')!,
    );
    const legendTop = y(el!.querySelector('.legend')!) + y(el!.querySelector('.legend text')!);
    expect(legendTop + 12, `legend at ${legendTop}, plot area from ${top}`).toBeLessThan(top);
  });

  it('depth: whole-number ticks only, each once (depths 0 to 3 were labelled 0 1 1 2 2 3 3)', () => {
    const at = (depths: number[]) => [
      {
        run: 'a',
        lines: [
          line('a', null, {}),
          ...depths.map((d) => ({ ...line('a', d, { 'pass@1': 50 }), by: 'depth' as const })),
        ],
      },
    ];
    expect(depthTicks(at([0, 1, 2, 3]))).toEqual([0, 1, 2, 3]);
    expect(depthTicks(at([1, 20]))).toEqual([0, 3, 6, 9, 12, 15, 18]);
    const ticks = [
      ...depthPlot(at([0, 1, 2, 3]), () => undefined, 600, colors)!.querySelectorAll(
        '[aria-label="x-axis tick label"] text',
      ),
    ].map((t) => t.textContent);
    expect(ticks).toEqual(['0', '1', '2', '3']);
  });

  it('depth: every target at one depth (CRUXEval, depth 1): nothing drawn, one point per run says nothing', () => {
    const at1 = (run: string) => ({
      run,
      lines: [line(run, null, {}), { ...line(run, 1, { 'pass@1': run === 'a' ? 37 : 80 }), by: 'depth' as const }],
    });
    expect(numericGroups([at1('a'), at1('b')])).toEqual([1]);
    expect(depthPlot([at1('a'), at1('b')], () => undefined, 600, colors)).toBeNull();
  });

  describe('bins of length and depth: their item counts, and the bins with few items', () => {
    const byLength = [
      {
        run: 'a',
        lines: [
          line('a', null, {}),
          { ...line('a', 8, { items: 40, 'pass@1': 50 }), by: 'length' as const },
          { ...line('a', 64, { items: FEW_ITEMS, 'pass@1': 30 }), by: 'length' as const },
          { ...line('a', 512, { items: 1, 'pass@1': 0 }), by: 'length' as const },
        ],
      },
      {
        run: 'b',
        lines: [
          line('b', null, {}),
          { ...line('b', 8, { items: 38, 'pass@1': 60 }), by: 'length' as const },
          { ...line('b', 64, { items: FEW_ITEMS, 'pass@1': 40 }), by: 'length' as const },
          // gpt-4 at 512 events: 100% from one item.
          { ...line('b', 512, { items: 1, 'pass@1': 100 }), by: 'length' as const },
        ],
      },
    ];

    it('each point knows its items; fewer than FEW_ITEMS is few, FEW_ITEMS is not', () => {
      expect(FEW_ITEMS).toBe(10);
      const ps = binPoints(byLength, 'length', 'pass@1');
      expect(ps.map((p) => `${p.run} ${p.group} ${p.items} ${p.few}`)).toEqual([
        'a 8 40 false',
        'a 64 10 false',
        'a 512 1 true',
        'b 8 38 false',
        'b 64 10 false',
        'b 512 1 true',
      ]);
      expect(ps.find((p) => p.run === 'b' && p.group === 512)!.label).toBe(
        'b: length 512, pass@1 100.0% (1 item: fewer than 10, read with care)',
      );
    });

    it("the counts row: one count per group, the runs' counts where they differ", () => {
      expect(binCounts(binPoints(byLength, 'length', 'pass@1'))).toEqual([
        { group: 8, text: '40/38', few: false },
        { group: 64, text: '10', few: false },
        { group: 512, text: '1', few: true },
      ]);
    });

    it("drawn: few bins as hollow points, every group's count above the plot area", () => {
      const el = lengthPlot(byLength, () => undefined, 600, colors)!;
      const ms = marks(el);
      expect(ms).toHaveLength(6);
      const hollow = ms.filter((m) => m.el.closest('g')!.getAttribute('fill') === 'white');
      expect(hollow.map((m) => `${m.run} ${m.group}`)).toEqual(['a 512', 'b 512']);
      // Still clickable and carrying their value.
      expect(hollow.map((m) => m.value)).toEqual(['0', '100']);
      const counts = (cls: string) => [...el.querySelectorAll(`.${cls} text`)].map((t) => t.textContent);
      expect(counts('bin-items')).toEqual(['40/38', '10']);
      expect(counts('bin-items-few')).toEqual(['1']);
    });
  });

  it('the legend: entries in rows that fit the width, each row ending at the right edge', () => {
    expect(legendLayout(['a', 'b'], 600)).toEqual([
      { run: 'a', row: 0, right: 28.8 },
      { run: 'b', row: 0, right: 0 },
    ]);
    const long = ['model-number-one', 'model-number-two', 'model-number-three'];
    const at = legendLayout(long, 300);
    expect(at.map((a) => a.row)).toEqual([0, 0, 1]);
    expect(at[2].right).toBe(0);
  });
});
