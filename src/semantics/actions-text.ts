/**
 * Actions written as text, outside the serialized trajectory:
 * - one action: `step_into`, …, or `breakpoint <src>` (one space, then src exactly, its
 *   indentation kept), the form the API uses;
 * - an action list for the CLI: actions separated by commas, a breakpoint written
 *   `breakpoint=<src>`. Inside the list a literal comma is written `\,` and a literal
 *   backslash `\\`; any other backslash is kept as is, so `print("a\n")` needs no escaping.
 */
import { UserError } from '../common/errors.js';
import { ACTION_NAMES, type Action, type ActionName } from './types.js';

const NAMES = new Set<string>(ACTION_NAMES);

export function formatAction(a: Action): string {
  return a.action === 'breakpoint' ? `breakpoint ${a.src}` : a.action;
}

/** Parses `step_into` or `breakpoint <src>`; a bad one is a bad-input UserError naming what was expected. */
export function parseAction(s: string): Action {
  if (s.startsWith('breakpoint ')) return { action: 'breakpoint', src: s.slice('breakpoint '.length) };
  if (s !== 'breakpoint' && NAMES.has(s)) return { action: s as Exclude<ActionName, 'breakpoint'> };
  throw new UserError(
    `expected an action (${[...NAMES].filter((n) => n !== 'breakpoint').join(', ')} or 'breakpoint <src>'), got ${JSON.stringify(s)}`,
    'bad-input',
  );
}

/** Splits a CLI action list on unescaped commas and parses each item. */
export function parseActionList(s: string): Action[] {
  const items: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\' && (s[i + 1] === ',' || s[i + 1] === '\\')) cur += s[++i];
    else if (c === ',') {
      items.push(cur);
      cur = '';
    } else cur += c;
  }
  items.push(cur);
  if (s.trim() === '') return [];
  return items.map((item, k) => {
    const bp = /^\s*breakpoint=/.exec(item);
    if (bp) return { action: 'breakpoint', src: item.slice(bp[0].length) };
    try {
      return parseAction(item.trim());
    } catch (e) {
      throw new UserError(
        `action ${k + 1}: ${(e as Error).message.replace("'breakpoint <src>'", "'breakpoint=<src>'")}`,
        'bad-input',
      );
    }
  });
}

/** The inverse of parseActionList. */
export function formatActionList(actions: readonly Action[]): string {
  const esc = (x: string) => x.replace(/\\(?=[\\,]|$)/g, '\\\\').replace(/,/g, '\\,');
  return actions.map((a) => (a.action === 'breakpoint' ? `breakpoint=${esc(a.src)}` : a.action)).join(',');
}
