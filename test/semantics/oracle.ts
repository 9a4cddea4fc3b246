/**
 * An independent, deliberately naive restatement of neural-debugger.md §3–§5, computed
 * directly from the flat event list with explicit child lists and recursion (fine for test
 * traces). It shares no code with src/semantics; the tests compare the two on every node.
 * Inverse nodes are written as ids 2*seq (plain) / 2*seq+1 (inv_line_call), like the API.
 */
import type { TraceEvent } from '../../src/trace/types.js';

export type Out = { node: number } | { exit: string };

export class Oracle {
  readonly scope = new Set<number>();
  readonly top: number[] = [];
  readonly kids = new Map<number, number[]>();
  readonly pre: number[] = [];
  readonly inv: number[] = [];
  private readonly level = new Map<number, [number[], number]>(); // node -> [its level, its index]
  private readonly invLevel = new Map<number, [number[], number]>();
  readonly exitKind: string;

  constructor(
    readonly events: TraceEvent[],
    readonly entry: number,
    traceExit?: string,
  ) {
    const ev = events;
    if (entry === 0) {
      for (const e of ev) {
        this.scope.add(e.seq);
        if (e.parent === null) this.top.push(e.seq);
      }
    } else {
      const frame = ev[entry].frame;
      let segEnd = -1;
      for (let i = entry; i < ev.length; i++) {
        const e = ev[i];
        if (e.frame === frame && segEnd === -1) {
          this.scope.add(i);
          this.top.push(i);
          if (e.event === 'return') segEnd = i;
        } else if (e.parent !== null && this.scope.has(e.parent)) this.scope.add(i);
      }
    }
    for (const s of this.scope) {
      const p = ev[s].parent;
      if (p !== null && this.scope.has(p) && !this.top.includes(s)) {
        if (!this.kids.has(p)) this.kids.set(p, []);
        this.kids.get(p)!.push(s);
      }
    }
    const walkF = (list: number[]) => {
      list.forEach((n, i) => {
        this.level.set(n, [list, i]);
        this.pre.push(n);
        walkF(this.kids.get(n) ?? []);
      });
    };
    walkF(this.top);
    const walkI = (list: number[]) => {
      const lvl: number[] = [];
      for (const n of [...list].reverse()) {
        if (this.kids.has(n)) lvl.push(2 * n + 1);
        lvl.push(2 * n);
      }
      lvl.forEach((id, i) => {
        this.invLevel.set(id, [lvl, i]);
        this.inv.push(id);
        if (id & 1) walkI(this.kids.get(id >> 1)!);
      });
    };
    walkI(this.top);

    if (entry === 0 && traceExit) this.exitKind = `exit_${traceExit}`;
    else {
      const last = this.top[this.top.length - 1];
      const e = ev[last];
      this.exitKind = e.event !== 'return' ? 'exit_never' : e.arg === null ? 'exit_error' : 'exit_normal';
    }
  }

  private parent(n: number): number | null {
    const p = this.events[n].parent;
    return p !== null && this.scope.has(p) && !this.top.includes(n) ? p : null;
  }

  private exit(): Out {
    return { exit: this.exitKind };
  }

  stepInto(n: number): Out {
    const i = this.pre.indexOf(n);
    return i + 1 < this.pre.length ? { node: this.pre[i + 1] } : this.exit();
  }

  stepOver(n: number): Out {
    for (let y: number | null = n; y !== null; y = this.parent(y)) {
      const [lvl, i] = this.level.get(y)!;
      if (i + 1 < lvl.length) return { node: lvl[i + 1] };
    }
    return this.exit();
  }

  stepReturn(n: number): Out {
    for (let y: number | null = n; y !== null; y = this.parent(y)) {
      const f = this.events[y].frame;
      const ret = this.events.find((e) => e.seq >= y! && e.frame === f && e.event === 'return');
      if (!ret) return { exit: 'exit_never' };
      if (ret.seq !== y) return { node: ret.seq };
    }
    return this.exit();
  }

  breakpoint(n: number, src: string): Out {
    const i = this.pre.indexOf(n);
    const hit = this.pre.slice(i + 1).find((s) => this.events[s].event === 'line' && this.events[s].src === src);
    return hit === undefined ? this.exit() : { node: hit };
  }

  invStepInto(id: number): Out {
    const i = this.inv.indexOf(id);
    return i + 1 < this.inv.length ? { node: this.inv[i + 1] } : { exit: 'inv_exit_entry' };
  }

  private invParent(id: number): number | null {
    const p = this.parent(id >> 1);
    return p === null ? null : 2 * p + 1;
  }

  invStepOver(id: number): Out {
    for (let y: number | null = id; y !== null; y = this.invParent(y)) {
      const [lvl, i] = this.invLevel.get(y)!;
      if (i + 1 < lvl.length) return { node: lvl[i + 1] };
    }
    return { exit: 'inv_exit_entry' };
  }

  invStepCall(id: number): Out {
    for (let y: number | null = id; y !== null; y = this.invParent(y)) {
      const s = y >> 1;
      const f = this.events[s].frame;
      let call = s;
      while (!(this.events[call].frame === f && this.events[call].event === 'call')) call--;
      if (2 * call !== y) return { node: 2 * call };
    }
    return { exit: 'inv_exit_entry' };
  }

  /** An inverse level: the forward level reversed, each node with children doubled. */
  invLevelOf(list: number[]): number[] {
    return [...list].reverse().flatMap((n) => (this.kids.has(n) ? [2 * n + 1, 2 * n] : [2 * n]));
  }

  /** Distinct src of line events in the scope. */
  lineSrcs(): string[] {
    return [...new Set(this.pre.filter((s) => this.events[s].event === 'line').map((s) => this.events[s].src))];
  }
}
