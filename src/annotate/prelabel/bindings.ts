/**
 * Which names a line of Python binds by name (assignment, augmented assignment, for target,
 * `as`, import, def, class, walrus, del), as opposed to changing an object in place
 * (`xs.append(1)`, `xs[0] = 1`, `o.attr = 1`). The mutation rule uses it: a local whose repr
 * changed on a line that does not bind it was changed in place or through another name.
 */
import { splitTop } from './repr.js';

const IDENT = /^[A-Za-z_]\w*$/;

/** Blanks out string literals so their contents cannot look like code. */
function codeOnly(line: string): string {
  return line
    .replace(/(?:[rbfuRBFU]{0,2})('''[\s\S]*?'''|"""[\s\S]*?"""|'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*")/g, '""')
    .replace(/#.*$/, '');
}

/** Plain names in an assignment target list (`a, (b, *c)` → a b c; `x[0]`, `o.f` → none). */
function targetNames(target: string): string[] {
  // An annotation (`x: int = 1`) is not part of the target.
  const t = splitTop(target, ':', true)![0].trim().replace(/^\*/, '');
  if (IDENT.test(t)) return [t];
  const inner = /^[([]([\s\S]*)[)\]]$/.exec(t);
  const parts = splitTop(inner ? inner[1] : t, ',');
  if (!parts || (parts.length < 2 && !inner)) return [];
  return parts.filter((p) => p !== '').flatMap(targetNames);
}

/** Offsets of `=` signs that assign (not `==`, `<=`, `>=`, `!=`, and outside brackets). */
function assignSigns(code: string): number[] {
  const out: number[] = [];
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i];
    if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) depth--;
    else if (c === '=' && depth === 0 && code[i + 1] !== '=' && !'=<>!:'.includes(code[i - 1] ?? '')) out.push(i);
  }
  return out;
}

export function boundNames(line: string): Set<string> {
  const code = codeOnly(line).trim();
  const out = new Set<string>();
  const add = (names: string[]) => names.forEach((n) => out.add(n));
  let m: RegExpExecArray | null;
  if ((m = /^(?:async\s+)?for\s+(.+?)\s+in\b/.exec(code))) add(targetNames(m[1]));
  if ((m = /^(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)/.exec(code))) out.add(m[1]);
  if ((m = /^del\s+(.+)$/.exec(code))) add(targetNames(m[1]));
  if (/^(?:import|from)\s/.test(code)) {
    for (const part of code
      .replace(/^from\s+\S+\s+/, '')
      .replace(/^import\s+/, '')
      .replace(/[()]/g, '')
      .split(',')) {
      const alias = /(?:\bas\s+)?([A-Za-z_]\w*)\s*$/.exec(part.trim());
      const first = /^([A-Za-z_]\w*)/.exec(part.trim());
      if (/\bas\b/.test(part) && alias) out.add(alias[1]);
      else if (first) out.add(first[1]);
    }
  }
  for (const a of code.matchAll(/\bas\s+([A-Za-z_]\w*)/g)) out.add(a[1]);
  for (const w of code.matchAll(/([A-Za-z_]\w*)\s*:=/g)) out.add(w[1]);
  const aug = /^([A-Za-z_]\w*)\s*(?:\+|-|\*\*?|\/\/?|%|@|&|\||\^|>>|<<)=/.exec(code);
  if (aug) out.add(aug[1]);
  const signs = assignSigns(code);
  if (!aug && signs.length && !/^(?:if|elif|while|for|with|return|def|class|lambda)\b/.test(code)) {
    let from = 0;
    for (const s of signs) {
      add(targetNames(code.slice(from, s)));
      from = s + 1;
    }
  }
  return out;
}
