// Deep links (renderer/src/lib/deeplink.ts): the address says what is open. The expected
// queries are written out by hand from the format in the module comment (and the issue's
// examples), not produced by formatLink.
import { describe, expect, it } from 'vitest';
import { formatLink, parseLink } from '../../renderer/src/lib/deeplink.js';

describe('deep links', () => {
  it("reads the issue's examples", () => {
    expect(parseLink('?trace=12&set=crux-out&run=codellama-7b&actions=step_into,step_into')).toEqual({
      link: { trace: 12, set: 'crux-out', run: 'codellama-7b', actions: ['step_into', 'step_into'] },
      problems: [],
    });
    expect(parseLink('/?view=dashboard&set=crux-out'.slice(1))).toEqual({
      link: { view: 'dashboard', set: 'crux-out' },
      problems: [],
    });
  });

  it('writes an explorer view with every key, a breakpoint action with commas and spaces kept', () => {
    const link = {
      trace: 3,
      set: 'ns 1',
      run: 'a/b',
      run2: 'c&d',
      dir: 'forward' as const,
      entry: 7,
      actions: ['step_into', 'breakpoint     x, y = 1, 2'],
      cursor: 1,
      item: 99,
      failures: true,
    };
    const q = formatLink(link);
    expect(q).toBe(
      '?trace=3&set=ns%201&run=a%2Fb&run2=c%26d&dir=forward&entry=7&actions=step_into,breakpoint%20%20%20%20%20x%2C%20y%20%3D%201%2C%202&cursor=1&item=99&failures=1',
    );
    expect(parseLink(q)).toEqual({ link, problems: [] });
  });

  it('writes the dashboard link the dashboard view opens, and nothing for an empty link', () => {
    expect(formatLink({ view: 'dashboard', set: 'crux-out', run: 'm1', run2: 'm2' })).toBe(
      '?view=dashboard&set=crux-out&run=m1&run2=m2',
    );
    expect(formatLink({ view: 'explorer' })).toBe('');
    // The labeling views round-trip too (one view bar, one \`view=\`).
    for (const view of ['label', 'agreement'] as const)
      expect(parseLink(formatLink({ view }))).toEqual({ link: { view }, problems: [] });
    // Agreement names the set and run compared.
    expect(formatLink({ view: 'agreement', set: 'crux-out', run: 'm1' })).toBe('?view=agreement&set=crux-out&run=m1');
    expect(formatLink({})).toBe('');
    expect(parseLink('')).toEqual({ link: {}, problems: [] });
    expect(parseLink('?')).toEqual({ link: {}, problems: [] });
  });

  it('reports unknown keys and bad values one sentence each, keeping the rest', () => {
    const { link, problems } = parseLink(
      '?trace=abc&set=s&colour=red&dir=up&item=0&view=plots&cursor=-1&failures=yes&run=%E0%A4%A',
    );
    expect(link).toEqual({ set: 's' });
    expect(problems).toHaveLength(8);
    expect(problems[0]).toBe(
      'The link\'s "trace" should be a positive whole number (an id), not "abc"; it was left out.',
    );
    expect(problems[1]).toMatch(/unknown parameter "colour"/);
    expect(problems.join('\n')).toMatch(/"dir" should be "forward" or "inverse", not "up"/);
    expect(problems.join('\n')).toContain(
      '"view" should be one of the views "explorer", "dashboard", "label", "agreement", not "plots"',
    );
    expect(problems.join('\n')).toMatch(/"run" should be percent-encoded text/);
  });

  it('takes + as a space (as forms write it) and an empty action list as none', () => {
    expect(parseLink('set=my+set&actions=').link).toEqual({ set: 'my set', actions: [] });
    expect(parseLink('actions=step_into,,step_over').problems[0]).toMatch(/"actions" should be a comma-separated list/);
  });
});
