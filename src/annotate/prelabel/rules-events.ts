/**
 * Rules on the event: an exception missed or invented (including a return left by an
 * exception, whose value is null, and exit_error), then any other wrong kind. A wrong event
 * explains everything else: the other fields are not comparable across kinds.
 */
import type { Prediction } from '../../semantics/parse.js';
import type { Rule } from './rule.js';

const RETURNS = new Set(['return', 'inv_return']);

/** The state says the frame or program is left by an exception (docs/semantics.md §2, §10). */
function raises(s: Prediction): boolean {
  return (
    s.event === 'exception' ||
    s.event === 'inv_exception' ||
    s.event === 'exit_error' ||
    (RETURNS.has(s.event) && s.arg === null)
  );
}

function describe(s: Prediction): string {
  if (s.event === 'exception' || s.event === 'inv_exception')
    return `raises ${typeof s.arg === 'string' ? s.arg : 'an exception'}`;
  if (s.event === 'exit_error') return 'exits with an error';
  if (RETURNS.has(s.event))
    return s.arg === null
      ? 'returns by an exception'
      : `returns ${typeof s.arg === 'string' ? s.arg : JSON.stringify(s.arg)}`;
  return `is a ${s.event}`;
}

export const eventRules: Rule[] = [
  {
    id: 'missed-exception',
    label: 'return.missed_exception',
    when: 'the truth raises (exception event, return with null value, exit_error) and the prediction does not',
    needsParse: true,
    apply(ctx) {
      if (!raises(ctx.truth) || raises(ctx.pred!)) return undefined;
      return {
        reason: `the truth ${describe(ctx.truth)}; the prediction ${describe(ctx.pred!)}`,
        covers: ['all'],
        stop: true,
      };
    },
  },
  {
    id: 'invented-exception',
    label: 'return.invented_exception',
    when: 'the prediction raises (exception event, return with null value, exit_error) and the truth does not',
    needsParse: true,
    apply(ctx) {
      if (raises(ctx.truth) || !raises(ctx.pred!)) return undefined;
      return {
        reason: `the prediction ${describe(ctx.pred!)}; the truth ${describe(ctx.truth)}`,
        covers: ['all'],
        stop: true,
      };
    },
  },
  {
    id: 'wrong-event',
    label: 'control.wrong_event',
    when: 'the event (state kind or exit) differs, exceptions aside',
    needsParse: true,
    apply(ctx) {
      if (ctx.diff!.event) return undefined;
      return { reason: `predicted ${ctx.pred!.event}, true ${ctx.truth.event}`, covers: ['all'], stop: true };
    },
  },
];
