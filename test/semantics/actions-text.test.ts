/**
 * Actions written as text (the API's one action, the CLI's action list): names and
 * breakpoints read and written back, commas escaped in a list, the exact words of the
 * refusals, blank lists, and where `breakpoint=` may stand in a list item.
 */
import { describe, expect, it } from 'vitest';
import {
  formatAction,
  formatActionList,
  parseAction,
  parseActionList,
  type Action,
} from '../../src/semantics/index.js';
import { refusal } from './helpers.js';

const NAMES = 'step_into, step_over, step_return, continue, inv_step_into, inv_step_over, inv_step_call';

describe('one action', () => {
  it('one action: name or `breakpoint <src>`', () => {
    expect(parseAction('breakpoint     return n')).toEqual({ action: 'breakpoint', src: '    return n' });
    expect(parseAction('inv_step_call')).toEqual({ action: 'inv_step_call' });
    expect(() => parseAction('jump')).toThrow(/expected an action/);
    expect(() => parseAction('breakpoint')).toThrow();
  });

  it('is written back as its name, or `breakpoint <src>` with the src exactly', () => {
    expect(formatAction({ action: 'breakpoint', src: '    return n' })).toBe('breakpoint     return n');
    expect(formatAction({ action: 'breakpoint', src: '' })).toBe('breakpoint ');
    expect(formatAction({ action: 'inv_step_call' })).toBe('inv_step_call');
    expect(parseAction(formatAction({ action: 'breakpoint', src: '  x = 1' }))).toEqual({
      action: 'breakpoint',
      src: '  x = 1',
    });
  });

  it('an unknown one is refused as bad input naming every action but the bare breakpoint', () => {
    const e = refusal(() => parseAction('jump'));
    expect(e.message).toBe(`expected an action (${NAMES} or 'breakpoint <src>'), got "jump"`);
    expect(e.code).toBe('bad-input');
  });
});

describe('an action list', () => {
  it('CLI lists split on unescaped commas; \\, and \\\\ are literal', () => {
    expect(parseActionList('step_into, step_over,breakpoint=    return n')).toEqual([
      { action: 'step_into' },
      { action: 'step_over' },
      { action: 'breakpoint', src: '    return n' },
    ]);
    expect(parseActionList('breakpoint=    print(a\\, b),continue')).toEqual([
      { action: 'breakpoint', src: '    print(a, b)' },
      { action: 'continue' },
    ]);
    const tricky: Action[] = [
      { action: 'breakpoint', src: '    s = "a,b\\\\,c\\n" + x\\' },
      { action: 'breakpoint', src: '' },
      { action: 'step_return' },
    ];
    expect(parseActionList(formatActionList(tricky))).toEqual(tricky);
    expect(() => parseActionList('step_into,hop')).toThrow(/action 2/);
  });

  it('blank is no action at all', () => {
    expect(parseActionList('')).toEqual([]);
    expect(parseActionList('  \t')).toEqual([]);
  });

  it('`breakpoint=` may follow spaces after a comma, but only at the start of an item', () => {
    expect(parseActionList('step_into, breakpoint=    return n')).toEqual([
      { action: 'step_into' },
      { action: 'breakpoint', src: '    return n' },
    ]);
    const e = refusal(() => parseActionList('step_into,stepbreakpoint=x'));
    expect(e.message).toBe(`action 2: expected an action (${NAMES} or 'breakpoint=<src>'), got "stepbreakpoint=x"`);
    expect(e.code).toBe('bad-input');
  });

  it('a bad item is refused with its position and the list form of a breakpoint', () => {
    const e = refusal(() => parseActionList('step_into, hop'));
    expect(e.message).toBe(`action 2: expected an action (${NAMES} or 'breakpoint=<src>'), got "hop"`);
    expect(e.code).toBe('bad-input');
  });
});
