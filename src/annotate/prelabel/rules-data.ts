/**
 * Rules on values at the right place (the event right, the line right or a misread of it): the
 * returned or raised value, and each local, judged by RuleContext.locals (see the README's
 * "Data rules"). They fire beside a line rule that leaves these fields uncovered (no-such-line).
 * One suggestion per label, naming every local it covers.
 */
import type { LocalKind, LocalVerdict, RuleContext } from './context.js';
import { reprType } from './repr.js';
import { clip, parsedRule, type Rule } from './rule.js';

const VALUE_EVENTS = new Set(['return', 'inv_return', 'exception', 'inv_exception']);

/** The locals judged `kind` that no earlier rule explained (a rule placing the state elsewhere covers them all). */
function open(ctx: RuleContext, kind: LocalKind): LocalVerdict[] {
  return ctx.locals().filter((v) => v.kind === kind && !ctx.isCovered(`local:${v.name}`));
}

function localRule(id: string, label: string, kind: LocalKind, when: string, say: (v: LocalVerdict) => string): Rule {
  return parsedRule(id, label, when, (ctx) => {
    const hits = open(ctx, kind);
    return hits.length ? { reason: hits.map(say).join('; '), covers: hits.map((v) => `local:${v.name}`) } : undefined;
  });
}

const argText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

export const dataRules: Rule[] = [
  {
    id: 'invalid-input',
    label: 'inverse.invalid_input',
    when: 'an inverse prediction fails by execution',
    needsParse: true,
    apply: (ctx) =>
      ctx.input.direction === 'inverse' && ctx.input.execution === 'fail'
        ? { reason: 'running the program on the predicted input does not give the true result', covers: [] }
        : undefined,
  },
  {
    id: 'value-type',
    label: 'data.wrong_type',
    when: "a differing local's (or the returned value's) repr shows another type than the truth's",
    needsParse: true,
    apply(ctx) {
      const hits = open(ctx, 'type').map(
        (v) =>
          `${v.name} is ${reprType(v.predicted!)} ${clip(v.predicted, 20)}, true ${reprType(v.truth ?? v.full!)} ${clip(v.truth ?? v.full, 20)}`,
      );
      const [p, t] = [ctx.pred!.arg, ctx.truth.arg];
      // Like the locals, not when a line rule placed the state elsewhere (it covers `arg`): a return from another
      // line has another value by design.
      if (ctx.diff!.arg === false && typeof p === 'string' && typeof t === 'string' && !ctx.isCovered('arg')) {
        const [tp, tt] = [reprType(p), reprType(t)];
        if (tp && tt && tp !== tt) hits.push(`the value is ${tp} ${clip(p, 20)}, true ${tt} ${clip(t, 20)}`);
      }
      // Covers the locals only: a return of the wrong type is also a wrong return value.
      return hits.length
        ? { reason: hits.join('; '), covers: open(ctx, 'type').map((v) => `local:${v.name}`) }
        : undefined;
    },
  },
  {
    id: 'arg-value',
    label: 'return.wrong_value',
    when:
      'right event, at the true line or at no line of the program, ' +
      'but the returned value (or the exception raised) differs',
    needsParse: true,
    apply(ctx) {
      const d = ctx.diff!;
      if (d.arg !== false || ctx.isCovered('arg') || !VALUE_EVENTS.has(ctx.truth.event)) return undefined;
      const what = ctx.truth.event.endsWith('exception') ? 'raises' : 'returns';
      return {
        reason: `the prediction ${what} ${clip(argText(ctx.pred!.arg))}, the truth ${clip(argText(ctx.truth.arg))}`,
        covers: ['arg'],
      };
    },
  },
  localRule(
    'invented-local',
    'data.invented_local',
    'invented',
    'a predicted name is not a local of the true state',
    (v) => `${v.name} is not a local here`,
  ),
  localRule(
    'missing-local',
    'data.missing_local',
    'missing',
    'a name the truth shows as new (just bound, or a call argument) is absent from the prediction',
    (v) => `${v.name} = ${clip(v.truth, 30)} is missing`,
  ),
  localRule(
    'mutation-missed',
    'data.mutation_missed',
    'mutation',
    'a local changed on a line that does not assign it (in place, or through another name) and the prediction keeps its old value',
    (v) =>
      `${v.name} changed to ${clip(v.truth, 30)} without being assigned; the prediction ${v.predicted === undefined ? 'leaves it out' : `keeps ${clip(v.predicted, 30)}`}`,
  ),
  localRule(
    'wrong-value',
    'data.wrong_value',
    'value',
    'a local has a value of the right type but not the true one, or is left out although it changed',
    (v) =>
      v.predicted === undefined
        ? `${v.name} changed to ${clip(v.truth, 30)}; the prediction leaves it out`
        : `${v.name} is ${clip(v.predicted, 30)}, true ${clip(v.truth ?? v.full, 30)}${v.truth === undefined ? ' (unchanged)' : ''}`,
  ),
];
