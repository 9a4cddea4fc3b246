/**
 * Control-flow rules for a prediction with the right event kind but the wrong place: another
 * iteration of a loop, the other side of a branch, a line of another function, or no line at
 * all. Structural rules need the program text (PrelabelInput.source) to find the lines.
 */
import { boundNames } from './bindings.js';
import type { RuleContext } from './context.js';
import type { Block, Outline } from './outline.js';
import { clip, parsedRule, type Finding, type Rule } from './rule.js';

const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

/** Applies `f` to a prediction at the wrong line, with both line numbers and the outline known. */
function lineRule(
  id: string,
  label: string,
  when: string,
  f: (ctx: RuleContext, o: Outline, t: number, p: number) => string | undefined,
): Rule {
  return parsedRule(id, label, when, (ctx) => {
    if (ctx.diff!.src !== false || ctx.isCovered('src')) return undefined;
    const o = ctx.outline();
    const t = ctx.trueLine();
    const p = ctx.predLine();
    if (!o || t === undefined || p === undefined) return undefined;
    const reason = f(ctx, o, t, p);
    return reason === undefined ? undefined : { reason, covers: PLACE };
  });
}

/**
 * What a rule placing the prediction on another line of the program explains: the line, and the
 * values shown there, which are another place's by design (a return in the other arm returns
 * another value). A src that is no line of the program is the true place misread: no-such-line
 * covers `src` only, and the value and locals are judged against the truth's by the data rules.
 */
const PLACE = ['src', 'locals', 'arg'];

const at = (o: Outline, n: number) => `\`${o.lineText(n).trim()}\` (line ${n})`;

/** The block whose header is `line`, of one of `kinds`. */
const headerAt = (o: Outline, line: number | undefined, kinds: string[]) =>
  o.blocks.find((b) => b.header === line && kinds.includes(b.kind) && b.end > b.header);

/** The arm of `chain` whose region holds `line` (an `if` line itself is in no arm: it is the test). */
function armOf(chain: Block[], line: number): number | undefined {
  const i = chain.findIndex((b) => (b.kind === 'if' ? b.header < line : b.header <= line) && line <= b.end);
  return i < 0 ? undefined : i;
}

/** A prediction matching another recorded visit of a line in the same frame: an iteration off. */
const otherVisit: Rule = {
  id: 'other-iteration',
  label: 'control.loop_iteration',
  when: 'the predicted line and shown locals are those of another visit of a line in the same frame (a loop), not of the true one',
  needsParse: true,
  apply(ctx): Finding | undefined {
    const events = ctx.input.frameEvents;
    const p = ctx.pred!;
    const d = ctx.diff!;
    const shown = Object.entries(p.locals ?? {}).filter(([k]) => k !== '..');
    if (
      !events ||
      !shown.length ||
      p.src === undefined ||
      (d.src !== false && d.locals !== false) ||
      ctx.isCovered('src')
    )
      return undefined;
    const te = ctx.input.trueEvent;
    const full = ctx.trueLocals() ?? {};
    const kind = p.event.replace(/^inv_/, '');
    const visits = events.filter(
      (e) =>
        e.src === p.src &&
        (e.event ?? kind) === kind &&
        (te?.frame === undefined || e.frame === undefined || e.frame === te.frame),
    );
    if (visits.length < 2) return undefined;
    const match = visits.find((e) => e.seq !== te?.seq && shown.every(([k, v]) => e.locals[k] === v));
    if (!match) return undefined;
    // A counter can equal another iteration's by chance: ask for two differing names, or a loop
    // variable (a `for` target, or a name a `while` header binds with `:=`). A name the
    // prediction leaves out counts when it claims to show every name (no ".." marker) and the
    // matched visit lacks it too (a loop variable before the first iteration).
    const differing = shown.filter(([k, v]) => full[k] !== v).map(([k]) => k);
    if (!Object.prototype.hasOwnProperty.call(p.locals ?? {}, '..')) {
      for (const k of Object.keys(full)) if (!(k in (p.locals ?? {})) && !(k in match.locals)) differing.push(k);
    }
    const o = ctx.outline();
    const line = ctx.predLine();
    const loopVars =
      o && line !== undefined
        ? o
            .enclosing(line)
            .filter((b) => b.kind === 'for' || b.kind === 'while')
            .flatMap((b) => [...boundNames(o.lineText(b.header))])
        : [];
    if (!differing.length || (differing.length < 2 && !differing.some((n) => loopVars.includes(n)))) return undefined;
    const k = visits.indexOf(match) + 1;
    let reason = `the prediction is the state of \`${p.src.trim()}\` at its ${ordinal(k)} visit${match.seq !== undefined ? ` (seq ${match.seq})` : ''}`;
    const tk = te && te.src === p.src ? visits.findIndex((e) => e.seq === te.seq) + 1 : 0;
    if (tk > 0)
      reason += `; the truth is its ${ordinal(tk)}: ${Math.abs(tk - k)} iteration${Math.abs(tk - k) === 1 ? '' : 's'} ${k < tk ? 'behind' : 'ahead'}`;
    // At another line the whole state is the other visit's; at the true line, the names it explains.
    const names = [...shown.map(([n]) => `local:${n}`), ...differing.map((n) => `local:${n}`)];
    return { reason, covers: d.src === false ? ['src', 'locals'] : ['src', ...names] };
  },
};

export const lineRules: Rule[] = [
  otherVisit,
  {
    id: 'no-such-line',
    label: 'control.wrong_line',
    when: 'the predicted src is no line of the program',
    needsParse: true,
    apply(ctx) {
      const o = ctx.outline();
      const src = ctx.pred!.src;
      if (ctx.diff!.src !== false || ctx.isCovered('src') || !o || src === undefined || o.linesOf(src).length)
        return undefined;
      const near = o.lines.findIndex((l) => l.trim() === src.trim() && src.trim() !== '');
      const reason =
        near >= 0
          ? `the predicted src differs from line ${near + 1} only in whitespace`
          : `no line of the program reads \`${clip(src.trim())}\``;
      return { reason, covers: ['src'] };
    },
  },
  lineRule(
    'other-function',
    'control.wrong_line',
    'the predicted line is in another function than the true one',
    (_ctx, o, t, p) => {
      const ft = o.functionOf(t);
      const fp = o.functionOf(p);
      if (ft === fp) return undefined;
      const name = (b: Block | undefined) => (b ? `\`${o.lineText(b.header).trim()}\`` : 'the module level');
      return `the predicted line ${at(o, p)} is in ${name(fp)}, the true line ${at(o, t)} in ${name(ft)}`;
    },
  ),
  lineRule(
    'branch-condition',
    'control.branch',
    'after one step from an if/elif line, one of the true and predicted lines is in its body and the other is not',
    (ctx, o, t, p) => {
      if (!ctx.singleStep || ctx.input.direction !== 'forward') return undefined;
      const h = headerAt(o, ctx.prevLine(), ['if', 'elif']);
      if (!h || o.inBody(h, t) === o.inBody(h, p)) return undefined;
      return `after ${at(o, h.header)} the truth ${o.inBody(h, t) ? 'enters' : 'skips'} its body, the prediction ${o.inBody(h, p) ? 'enters' : 'skips'} it`;
    },
  ),
  lineRule(
    'loop-condition',
    'control.loop_iteration',
    'after one step from a for/while line, one of the true and predicted lines is in its body and the other is not (one step back from it: in its body, or before the loop)',
    (ctx, o, t, p) => {
      if (!ctx.singleStep) return undefined;
      const h = headerAt(o, ctx.prevLine(), ['for', 'while']);
      const truthIn = h && o.inBody(h, t);
      if (!h || truthIn === o.inBody(h, p)) return undefined;
      const loop = at(o, h.header);
      if (ctx.input.direction === 'forward')
        return truthIn
          ? `the loop ${loop} runs once more; the prediction ends it`
          : `the loop ${loop} is over; the prediction runs it once more`;
      // Back from the header: the line before it ran is the body's (a round came before) or the
      // line before the loop (its first visit). A line after the loop is neither: another fault.
      if ((truthIn ? p : t) >= h.header) return undefined;
      return truthIn
        ? `the loop ${loop} had run before this visit; the prediction makes it the first`
        : `this is the first visit of the loop ${loop}; the prediction has it run once before`;
    },
  ),
  lineRule(
    'other-arm',
    'control.branch',
    'the true and predicted lines are in different arms of one if/elif/else',
    (_ctx, o, t, p) => {
      for (const b of o.enclosing(t)) {
        if (!b.chain) continue;
        const [at_, ap] = [armOf(b.chain, t), armOf(b.chain, p)];
        if (at_ !== undefined && ap !== undefined && at_ !== ap) {
          return `the truth is in the ${b.chain[at_].kind} arm ${at(o, b.chain[at_].header)}, the prediction in the ${b.chain[ap].kind} arm ${at(o, b.chain[ap].header)}`;
        }
      }
      return undefined;
    },
  ),
  lineRule(
    'loop-exit',
    'control.loop_iteration',
    'one of the true and predicted lines is in a loop and the other after it, in the same function',
    (_ctx, o, t, p) => {
      const loops = [o.loopOf(t), o.loopOf(p)].filter((b): b is Block => !!b);
      const inside = (b: Block, n: number) => b.header <= n && n <= b.end;
      const l = loops.find((b) => inside(b, t) !== inside(b, p) && (inside(b, t) ? p : t) > b.end);
      if (!l || o.functionOf(t) !== o.functionOf(p)) return undefined;
      return inside(l, t)
        ? `the truth is still in the loop ${at(o, l.header)}; the prediction has left it`
        : `the loop ${at(o, l.header)} is over; the prediction is still in it`;
    },
  ),
  lineRule(
    'loop-boundary',
    'control.loop_iteration',
    "one of the true and predicted lines is a loop's header and the other is in its body",
    (_ctx, o, t, p) => {
      const l = o.loopOf(t);
      if (!l || o.loopOf(p) !== l || (t === l.header) === (p === l.header)) return undefined;
      return t === l.header
        ? `the iteration is over (back at ${at(o, l.header)}); the prediction goes on in the body`
        : `the truth is in the loop's body; the prediction is back at ${at(o, l.header)}`;
    },
  ),
  {
    id: 'wrong-line',
    label: 'control.wrong_line',
    when: 'the predicted src differs from the truth and no rule above explains it',
    needsParse: true,
    apply(ctx) {
      if (ctx.diff!.src !== false || ctx.isCovered('src')) return undefined;
      const [t, p] = [ctx.trueLine(), ctx.predLine()];
      const where = (src: string | undefined, n: number | undefined) =>
        `\`${clip(src?.trim())}\`${n === undefined ? '' : ` (line ${n})`}`;
      return { reason: `predicted ${where(ctx.pred!.src, p)}, true ${where(ctx.truth.src, t)}`, covers: PLACE };
    },
  },
];
