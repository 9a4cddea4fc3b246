/** Rules on the completion's text: it does not parse, stops early, loops, or is not a delta. */
import { ELIDED_KEY } from '../../semantics/delta.js';
import type { JsonValue } from '../../semantics/json-parse.js';
import type { Prediction } from '../../semantics/parse.js';
import { STATE_KINDS } from '../../semantics/types.js';
import { sameJson } from './diff.js';
import { clip, type Rule } from './rule.js';

const STATE_START = new RegExp(`<\\|(?:${STATE_KINDS.join('|')})_sep\\|>`, 'g');

/** The completion cut at each state token, separators and whitespace around trimmed. */
function stateTexts(text: string): string[] {
  const starts = [...text.matchAll(STATE_START)].map((m) => m.index!);
  return starts.map((s, i) => text.slice(s, starts[i + 1] ?? text.length).replace(/(?:\s|<\|frame_sep\|>)+$/, ''));
}

export const formatRules: Rule[] = [
  {
    id: 'repeated-text',
    label: 'format.repeated',
    when: 'the completion does not parse because the state is written again right after itself',
    needsParse: false,
    apply(ctx) {
      if (ctx.parsed.ok) return undefined;
      const states = stateTexts(ctx.input.completion);
      let n = 1;
      while (n < states.length && states[n] === states[0]) n++;
      if (n < 2) return undefined;
      return { reason: `the state ${clip(states[0])} is written ${n} times in a row`, covers: ['text'] };
    },
  },
  {
    id: 'cut-at-max-tokens',
    label: 'format.truncated',
    when: 'the completion does not parse and generation stopped at the token limit (finish reason "length")',
    needsParse: false,
    apply(ctx) {
      if (ctx.parsed.ok || ctx.input.finishReason !== 'length' || ctx.isCovered('text')) return undefined;
      return { reason: `generation hit the token limit; ${ctx.parsed.error.message}`, covers: ['text'] };
    },
  },
  {
    id: 'ends-mid-state',
    label: 'format.truncated',
    when: 'the completion does not parse because the text ends inside the state (an unclosed string or object, a missing field)',
    needsParse: false,
    apply(ctx) {
      if (ctx.parsed.ok || ctx.isCovered('text')) return undefined;
      const e = ctx.parsed.error;
      if (e.offset < ctx.input.completion.trimEnd().length) return undefined;
      return { reason: `the text ends where ${e.expected} was expected`, covers: ['text'] };
    },
  },
  {
    id: 'parse-error',
    label: 'format.unparseable',
    when: 'the completion does not parse for any other reason (the parser says where)',
    needsParse: false,
    apply(ctx) {
      if (ctx.parsed.ok || ctx.isCovered('text')) return undefined;
      return { reason: ctx.parsed.error.message, covers: ['text'] };
    },
  },
  {
    id: 'non-string-value',
    label: 'format.unparseable',
    when: 'a predicted local or returned value is JSON but not a string (a repr is always a string: "1", not 1)',
    needsParse: true,
    apply(ctx) {
      const bad = ctx.diff!.localDiffs.filter((d) => d.notString);
      const reasons = bad.map((d) => `${d.name} is ${d.predicted}, not a repr string`);
      const covers = bad.map((d) => `local:${d.name}`);
      // A value of a return or exception state: a string, or null where the state has none.
      // Covered, so the value rules do not also call 1 for "1" a wrong value.
      const arg = ctx.pred!.arg;
      if (arg !== undefined && arg !== null && typeof arg !== 'string') {
        reasons.push(`the value is ${JSON.stringify(arg)}, not a repr string`);
        covers.push('arg');
      }
      return reasons.length ? { reason: reasons.join('; '), covers } : undefined;
    },
  },
  {
    id: 'copies-previous',
    label: 'format.repeated',
    when: 'the prediction is the state the action was taken from, unchanged',
    needsParse: true,
    apply(ctx) {
      const prev = ctx.input.previous?.state;
      const p = ctx.pred!;
      if (
        !prev ||
        p.event !== prev.event ||
        p.src !== prev.src ||
        !sameJson(p.locals, prev.locals) ||
        !sameJson(p.arg, prev.arg)
      )
        return undefined;
      return {
        reason: 'the model copied the previous state instead of taking the action',
        covers: ['all'],
        stop: true,
      };
    },
  },
];

/** The value a state shows under the ".." marker; undefined when it shows no marker. */
function markerOf(s: Prediction): JsonValue | undefined {
  return s.locals && Object.hasOwn(s.locals, ELIDED_KEY) ? s.locals[ELIDED_KEY] : undefined;
}

/** Last data rules: values right, delta form wrong. */
export const deltaRules: Rule[] = [
  {
    id: 'unchanged-written',
    label: 'format.delta',
    when: 'a predicted local has its true value but the truth leaves it out, because it did not change',
    needsParse: true,
    apply(ctx) {
      const names = ctx.locals().filter((v) => v.kind === 'unchanged' && !ctx.isCovered(`local:${v.name}`));
      if (!names.length) return undefined;
      return {
        reason: `${names.map((v) => v.name).join(', ')} did not change and belong${names.length === 1 ? 's' : ''} out of the delta`,
        covers: names.map((v) => `local:${v.name}`),
      };
    },
  },
  {
    id: 'marker-only',
    label: 'format.delta',
    when: `the locals differ only in the "${ELIDED_KEY}" marker, or names are left out under it where the truth shows every local`,
    needsParse: true,
    apply(ctx) {
      const d = ctx.diff!;
      // Names left out where none may be: said beside any other fault of the locals.
      const left = ctx.isCovered('locals-marker') ? [] : ctx.locals().filter((v) => v.kind === 'elided');
      if (left.length) {
        const names = left.map((v) => v.name).join(', ');
        return {
          reason: `the "${ELIDED_KEY}" marker leaves out ${names}, but this state shows every local (a breakpoint's target, or the first state in another frame)`,
          covers: ['locals-marker', ...left.map((v) => `local:${v.name}`)],
        };
      }
      if (d.locals !== false || ctx.isCovered('locals-marker') || d.localDiffs.length) return undefined;
      // Every name agrees, so the marker differs: shown on one side only, or with another value ("...").
      const [p, t] = [markerOf(ctx.pred!), markerOf(ctx.truth)];
      if (p !== undefined && t !== undefined)
        return {
          reason: `the "${ELIDED_KEY}" marker is written ${JSON.stringify(p)}, not ${JSON.stringify(t)}`,
          covers: ['locals-marker'],
        };
      return {
        reason:
          p !== undefined
            ? `the "${ELIDED_KEY}" marker is shown but no name was left out`
            : `the "${ELIDED_KEY}" marker is missing although names were left out`,
        covers: ['locals-marker'],
      };
    },
  },
];
