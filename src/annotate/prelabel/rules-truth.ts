/**
 * Rules that blame the truth, or that clear the model: the recorded value cannot be matched
 * (cut, order or address not fixed by the program), or an inverse prediction passes by
 * execution. They run before the model-error rules and cover what they explain.
 */
import type { RuleContext } from './context.js';
import { differsOnlyInAddresses, isCut, sameSetOtherOrder } from './repr.js';
import { clip, parsedRule, type Rule } from './rule.js';

interface Pair {
  field: string;
  name: string;
  predicted: string;
  truth: string;
}

/** Values shown on both sides that differ, not yet explained: the arg and each local. */
function differingValues(ctx: RuleContext): Pair[] {
  const d = ctx.diff!;
  const out: Pair[] = [];
  const p = ctx.pred!;
  if (d.arg === false && typeof p.arg === 'string' && typeof ctx.truth.arg === 'string' && !ctx.isCovered('arg')) {
    out.push({ field: 'arg', name: 'the value', predicted: p.arg, truth: ctx.truth.arg });
  }
  for (const l of d.localDiffs) {
    if (l.predicted !== undefined && l.truth !== undefined && !l.notString && !ctx.isCovered(`local:${l.name}`)) {
      out.push({ field: `local:${l.name}`, name: l.name, predicted: l.predicted, truth: l.truth });
    }
  }
  return out;
}

function pairsRule(
  id: string,
  label: string,
  when: string,
  test: (p: Pair, ctx: RuleContext) => boolean,
  why: (ps: Pair[]) => string,
): Rule {
  return parsedRule(id, label, when, (ctx) => {
    if (!ctx.diff!.event) return undefined;
    const hits = differingValues(ctx).filter((p) => test(p, ctx));
    return hits.length ? { reason: why(hits), covers: hits.map((h) => h.field) } : undefined;
  });
}

const names = (ps: Pair[]) => ps.map((p) => p.name).join(', ');

export const truthRules: Rule[] = [
  {
    id: 'known-nondeterministic',
    label: 'truth.nondeterminism',
    when: 'the caller says the truth changes between recordings',
    needsParse: true,
    apply: (ctx) =>
      ctx.input.nondeterministic
        ? { reason: 'the recorded state differs between two recordings of the program', covers: ['all'], stop: true }
        : undefined,
  },
  {
    id: 'passes-by-execution',
    label: 'inverse.valid_alternative',
    when: 'an inverse prediction that is wrong by exact match passes by execution',
    needsParse: true,
    apply(ctx) {
      if (ctx.input.direction !== 'inverse' || ctx.input.execution !== 'pass') return undefined;
      return {
        reason: 'running the program on the predicted input gives the true result',
        covers: ['all'],
        stop: true,
      };
    },
  },
  pairsRule(
    'cut-by-recorder',
    'truth.value_cut',
    'a differing true value was cut by the recorder (it ends with …<cut N chars>, or the event lists it in `cut`)',
    (p, ctx) => isCut(p.truth) || (ctx.input.trueEvent?.cut ?? []).includes(p.field === 'arg' ? '<arg>' : p.name),
    (ps) => `the true repr of ${names(ps)} was cut by the recorder`,
  ),
  pairsRule(
    'set-order',
    'truth.nondeterminism',
    'a differing value is a set with the same elements in another order (set order depends on the hash seed)',
    (p) => sameSetOtherOrder(p.predicted, p.truth),
    (ps) =>
      `${names(ps)}: the same set in another order (${clip(ps[0].predicted, 30)} vs ${clip(ps[0].truth, 30)}); the order depends on the hash seed`,
  ),
  pairsRule(
    'address-only',
    'truth.nondeterminism',
    'a differing value differs only in an object address (` at 0x…`)',
    (p) => differsOnlyInAddresses(p.predicted, p.truth),
    (ps) => `${names(ps)} differ${ps.length === 1 ? 's' : ''} only in an object address`,
  ),
];
