/**
 * The breakpoints set in the code's gutter and the runs to a line: F5 runs to the first
 * breakpoint the trajectory reaches, "Run to line" to one line. Both are `breakpoint <src>`
 * actions of the trajectory, and say what happened when the run did not simply stop there.
 */
import { sameTextLines } from '../../lib/lines.js';
import type { DataSource } from '../../lib/source.js';
import type { TraceView } from './trace-view.svelte.js';
import type { Walker } from './walk.svelte.js';

export class Breakpoints {
  /** Lines with a breakpoint set (red dots in the gutter); F5 runs to the next one. */
  lines = $state.raw<Set<number>>(new Set());

  constructor(
    private readonly source: DataSource,
    private readonly view: TraceView,
    private readonly walker: Walker,
  ) {}

  /** A new trace is shown: its breakpoints start empty. */
  clear(): void {
    this.lines = new Set();
  }

  toggle(line: number): void {
    if (!this.view.hittable.has(line)) return;
    const next = new Set(this.lines);
    if (next.has(line)) next.delete(line);
    else next.add(line);
    this.lines = next;
  }

  /**
   * Runs to line n (a `breakpoint <its text>` action) and says what happened when that is not
   * simply "stopped on line n": stopped on another line with the same text, or never reached.
   */
  async runToLine(n: number): Promise<void> {
    if (!this.view.hittable.has(n)) return;
    await this.walker.act(`breakpoint ${this.view.lines[n - 1]}`);
    this.#stopNote([n]);
  }

  /**
   * F5: with breakpoints set, runs to the first of them the trajectory reaches (each is tried
   * through the walk API; the earliest state in pre-order wins); with none set, or none
   * reached, `continue` to the exit, saying so.
   */
  async continueToBreakpoint(): Promise<void> {
    const t = this.walker;
    const traceId = this.view.traceId;
    if (traceId === null || t.direction !== 'forward' || t.ended) return t.act('continue');
    const text = this.view.lines;
    const srcs = [...new Set([...this.lines].sort((a, b) => a - b).map((n) => text[n - 1]))];
    if (!srcs.length) return t.act('continue');
    const base = t.actions.slice(0, t.cursor);
    const probes = await Promise.all(
      srcs.map((src) =>
        this.source.call('walk', {
          traceId,
          direction: 'forward',
          entry: t.entry,
          actions: [...base, `breakpoint ${src}`],
        }),
      ),
    );
    let best = -1;
    probes.forEach((w, j) => {
      if (
        w.exit === null &&
        (best < 0 || w.states[w.states.length - 1].seq < probes[best].states[probes[best].states.length - 1].seq)
      )
        best = j;
    });
    if (best < 0) {
      await t.act('continue');
      t.message = `No breakpoint is reached from here (line ${[...this.lines].sort((a, b) => a - b).join(', ')}); continued to the exit.`;
      return;
    }
    await t.act(`breakpoint ${srcs[best]}`);
    this.#stopNote([...this.lines].filter((n) => this.view.lines[n - 1] === srcs[best]));
  }

  /** After a breakpoint action aimed at `lines` (same text): why it stopped elsewhere, if it did. */
  #stopNote(lines: number[]): void {
    const w = this.walker.walk;
    const text = this.view.lines;
    if (!w || !lines.length) return;
    const label = lines.length === 1 ? `Line ${lines[0]}` : `Lines ${lines.join(', ')}`;
    if (w.exit)
      return this.walker.say(
        `${label} (${text[lines[0] - 1].trim()}) is not reached from here: the trajectory exited (${w.exit}).`,
      );
    const at = this.view.skeleton!.line[w.states[w.states.length - 1].seq];
    if (lines.includes(at)) return;
    const all = [lines[0], ...sameTextLines(text, lines[0])].sort((a, b) => a - b);
    this.walker.say(
      `Stopped at line ${at}, not ${lines.join('/')}: breakpoints match a line by its text, and lines ${all.join(', ')} have the same text.`,
      all,
    );
  }
}
