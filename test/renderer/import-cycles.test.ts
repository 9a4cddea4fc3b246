/**
 * No import cycle among the renderer's modules (renderer/src/**.ts and .svelte), type imports
 * included: a cycle makes the load order decide what a module sees at its top level, and ties
 * the modules of a cycle into one that cannot be read or tested apart. Relative imports and
 * `@core/…` (the renderer's alias of src/, renderer/tsconfig.json) are followed, into src/ too.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return /\.(ts|svelte)$/.test(e.name) ? [rel] : [];
  });
}

/** Import and export-from specifiers: static (type-only too), side-effect and dynamic. */
function specifiers(text: string): string[] {
  const patterns = [
    /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((re) => [...text.matchAll(re)].map((m) => m[1]));
}

/** The repo-relative file a relative or `@core/` specifier names, or null (a package). */
function target(from: string, spec: string): string | null {
  if (!spec.startsWith('.') && !spec.startsWith('@core/')) return null;
  const path = spec.startsWith('@core/') ? join('src', spec.slice('@core/'.length)) : join(dirname(from), spec);
  return relative(root, resolve(root, path)).replace(/\.js$/, '.ts');
}

/** Every cycle reached from `starts`, each as the files around it (the first one repeated last). */
function cycles(starts: string[], read: (f: string) => string | null): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const out: string[][] = [];
  const visit = (f: string): void => {
    const text = read(f);
    if (text === null) return; // not a file of ours (e.g. a generated one): no edges
    state.set(f, 'open');
    stack.push(f);
    for (const spec of specifiers(text)) {
      const to = target(f, spec);
      if (!to || to === f) continue; // a component drawing itself (ReprTree's nested values) is no cycle
      if (state.get(to) === 'open') out.push([...stack.slice(stack.indexOf(to)), to]);
      else if (!state.has(to)) visit(to);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of starts) if (!state.has(f)) visit(f);
  return out;
}

const onDisk = (f: string): string | null => (existsSync(join(root, f)) ? readFileSync(join(root, f), 'utf8') : null);

describe('renderer imports', () => {
  it('form no cycle', () => {
    expect(cycles(sources('renderer/src'), onDisk)).toEqual([]);
  });

  it('a cycle is reported, through a type import and the @core alias too (the check itself works)', () => {
    const files: Record<string, string> = {
      'renderer/src/a.ts': "import type { B } from './lib/b.js';\nexport type A = B;",
      'renderer/src/lib/b.ts': "import { c } from '@core/c.js';\nexport type B = number;",
      'src/c.ts': "export { a } from '../renderer/src/a.js';",
      'renderer/src/d.svelte': '<script lang="ts">\n  import { a } from \'./a.js\';\n</script>',
    };
    const read = (f: string) => files[f] ?? null;
    const cycle = ['renderer/src/a.ts', 'renderer/src/lib/b.ts', 'src/c.ts', 'renderer/src/a.ts'];
    expect(cycles(['renderer/src/d.svelte'], read)).toEqual([cycle]);
    files['src/c.ts'] = 'export const c = 1;';
    expect(cycles(['renderer/src/d.svelte'], read)).toEqual([]);
  });
});
