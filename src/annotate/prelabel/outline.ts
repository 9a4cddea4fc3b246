/**
 * The block structure of a Python program, read from indentation, for the control-flow
 * pre-label rules: which loops and which if/elif/else arms a line lies in, and which function.
 * Not a parser: it knows strings (also triple-quoted), comments, brackets and backslash
 * continuations well enough to find logical lines and compound-statement headers, which is
 * all the rules ask. Lines are numbered from 1, as in the trace (docs/semantics.md §2).
 */

export type BlockKind =
  'if' | 'elif' | 'else' | 'for' | 'while' | 'def' | 'class' | 'try' | 'except' | 'finally' | 'with' | 'match' | 'case';

export interface Block {
  kind: BlockKind;
  /** The header line (its first physical line). */
  header: number;
  indent: number;
  /** Last line of the body (the header itself for a one-line `if x: y`). */
  end: number;
  /** For if/elif/else arms: the chain they belong to and their place in it. */
  chain?: Block[];
  arm?: number;
  /** An `else` that belongs to a for/while loop (runs when the loop ends without break). */
  loopElse?: boolean;
}

const HEADER = /^(async\s+)?(if|elif|else|for|while|def|class|try|except|finally|with|match|case)\b/;

interface Logical {
  first: number;
  last: number;
  indent: number;
  text: string;
}

/** Splits the source into logical lines (bracket and backslash continuations joined). */
function logicalLines(lines: string[]): Logical[] {
  const out: Logical[] = [];
  let depth = 0;
  let quote = ''; // ', ", ''' or """ while inside a string that spans lines
  let cur: Logical | null = null;
  lines.forEach((line, i) => {
    const n = i + 1;
    if (!cur) {
      const code = line.trim();
      if (code === '' || code.startsWith('#')) return;
      cur = { first: n, last: n, indent: line.length - line.trimStart().length, text: '' };
    }
    let text = '';
    let continued = false;
    let escapedEnd = false; // the line ends in a string's backslash: Python goes on with the string
    for (let j = 0; j < line.length; j++) {
      const c = line[j];
      if (quote) {
        if (c === '\\') escapedEnd = ++j === line.length;
        else if (line.startsWith(quote, j)) {
          j += quote.length - 1;
          quote = '';
        }
        continue;
      }
      if (c === '#') break;
      if (c === "'" || c === '"') {
        quote = line.startsWith(c.repeat(3), j) ? c.repeat(3) : c;
        j += quote.length - 1;
        text += c;
        continue;
      }
      if (c === '(' || c === '[' || c === '{') depth++;
      else if (c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
      if (c === '\\' && j === line.length - 1) continued = true;
      else text += c;
    }
    // An unclosed one-quote string is a syntax error, not ours, unless a backslash continues it.
    if (quote.length === 1 && !escapedEnd) quote = '';
    cur.text += text;
    cur.last = n;
    if (depth === 0 && !quote && !continued) {
      out.push(cur);
      cur = null;
    }
  });
  if (cur) out.push(cur);
  return out;
}

export class Outline {
  readonly lines: string[];
  readonly blocks: Block[] = [];

  constructor(source: string) {
    this.lines = source.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
    const open: Block[] = [];
    for (const l of logicalLines(this.lines)) {
      while (open.length && open[open.length - 1].indent >= l.indent) open.pop();
      const text = l.text.trim();
      const m = HEADER.exec(text);
      if (m && text.includes(':')) {
        const b: Block = { kind: m[2] as BlockKind, header: l.first, indent: l.indent, end: l.last };
        this.blocks.push(b);
        // A one-line `if x: y` has its body on the header line: nothing more can enter it.
        if (text.endsWith(':')) open.push(b);
      }
      for (const b of open) b.end = l.last;
    }
    this.linkChains();
  }

  /** Links if/elif/else arms into chains (blocks are in header order) and marks loop `else`s. */
  private linkChains(): void {
    this.blocks.forEach((b, i) => {
      if (b.kind === 'if') [b.chain, b.arm] = [[b], 0];
      if (b.kind !== 'elif' && b.kind !== 'else') return;
      const prev = this.blocks
        .slice(0, i)
        .filter((p) => p.indent === b.indent)
        .pop();
      if (b.kind === 'else' && (prev?.kind === 'for' || prev?.kind === 'while')) b.loopElse = true;
      else if (prev?.chain) [b.chain, b.arm] = [prev.chain, prev.chain.push(b) - 1];
    });
  }

  /** The numbers of the lines whose text is exactly `src`. */
  linesOf(src: string): number[] {
    const out: number[] = [];
    this.lines.forEach((l, i) => l === src && out.push(i + 1));
    return out;
  }

  /** Blocks whose header or body holds `line`, outermost first. */
  enclosing(line: number): Block[] {
    return this.blocks.filter((b) => b.header <= line && line <= b.end).sort((a, b) => a.header - b.header);
  }

  /** The innermost function (`def`) holding `line`; undefined at module level. */
  functionOf(line: number): Block | undefined {
    return this.enclosing(line)
      .filter((b) => b.kind === 'def')
      .pop();
  }

  /** The innermost for/while loop holding `line` (header or body) inside its function. */
  loopOf(line: number): Block | undefined {
    const fn = this.functionOf(line);
    return this.enclosing(line)
      .filter((b) => (b.kind === 'for' || b.kind === 'while') && (!fn || b.header > fn.header))
      .pop();
  }

  /** `line` is in the body of `b` (not its header). */
  inBody(b: Block, line: number): boolean {
    return b.header < line && line <= b.end;
  }

  lineText(line: number): string {
    return this.lines[line - 1] ?? '';
  }
}
