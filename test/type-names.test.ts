/**
 * One name per thing: an exported type, interface, class or enum name is declared in one file
 * of src/, main/ and renderer/src, so a name read anywhere means one shape. A second thing
 * under a taken name gets a name of its own; the same thing is imported, not declared again.
 * ALLOWED lists a duplicate kept on purpose, with the reason (none today).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

/** name → why its declarations in several files are one name on purpose. */
const ALLOWED: Record<string, string> = {};

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(rel);
    return /\.(ts|svelte)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** A Svelte file's scripts (instance and module), a TypeScript file as it is. */
const scriptOf = (file: string, text: string): string =>
  file.endsWith('.svelte')
    ? [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n')
    : text;

const isExported = (n: ts.Node): boolean =>
  ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/**
 * The type-like names a file declares and exports: `export interface|type|class|enum X`, and a
 * local declaration exported by `export { X }` or `export { X as Y }` (as Y). Re-exports
 * (`export … from`) and imports declare nothing.
 */
function exportedTypeNames(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file.replace(/\.svelte$/, '.ts'), scriptOf(file, text), ts.ScriptTarget.Latest);
  const local = new Set<string>();
  const out = new Set<string>();
  for (const s of sf.statements) {
    const typeLike =
      ts.isInterfaceDeclaration(s) ||
      ts.isTypeAliasDeclaration(s) ||
      ts.isClassDeclaration(s) ||
      ts.isEnumDeclaration(s);
    const declared = typeLike ? s.name?.text : undefined;
    if (!declared) continue;
    local.add(declared);
    if (isExported(s)) out.add(declared);
  }
  for (const s of sf.statements) {
    if (!ts.isExportDeclaration(s) || s.moduleSpecifier) continue;
    if (!s.exportClause || !ts.isNamedExports(s.exportClause)) continue;
    for (const e of s.exportClause.elements) if (local.has((e.propertyName ?? e.name).text)) out.add(e.name.text);
  }
  return [...out];
}

/** Names exported as a type from two or more files, with those files. */
function duplicates(files: string[], read = (f: string) => readFileSync(join(root, f), 'utf8')): Map<string, string[]> {
  const where = new Map<string, string[]>();
  for (const f of files) {
    for (const name of exportedTypeNames(f, read(f))) where.set(name, [...(where.get(name) ?? []), f]);
  }
  return new Map([...where].filter(([, fs]) => fs.length > 1));
}

const all = () => ['src', 'main', 'renderer/src'].flatMap(sources);

/** The tree's duplicates, parsed once for the tests that read the tree. */
let tree: Map<string, string[]> | undefined;
const treeDuplicates = () => (tree ??= duplicates(all()));

describe('one name per thing', () => {
  it('no exported type name is declared in two files of src/, main/ or renderer/src (but ALLOWED)', () => {
    const found = Object.fromEntries([...treeDuplicates()].filter(([name]) => !(name in ALLOWED)));
    expect(found, 'rename one of each pair, or import the one declaration').toEqual({});
  });

  it('every ALLOWED name is still declared twice (no stale entry)', () => {
    expect(Object.keys(ALLOWED).filter((name) => !treeDuplicates().has(name))).toEqual([]);
  });

  it('sees the declarations the rule is about and sees past what only names a type', () => {
    const fake: Record<string, string> = {
      'src/a.ts': `export interface Row { a: number }
        export type Tally = { n: number };
        export class Progress {}
        export enum Kind { A }`,
      'src/b.ts': `interface Row { b: string }
        export { Row };
        export type { Tally } from './a.js';
        import type { Kind } from './a.js';`,
      'renderer/src/C.svelte': `<script lang="ts" module>
        export type Progress = { done: number };
      </script>
      <p>{x}</p>`,
      'main/d.ts': 'const Kind = 1;\nexport { Kind };\nexport function Tally() {}\ntype Local = 1;',
    };
    const found = duplicates(Object.keys(fake), (f) => fake[f]);
    expect(Object.fromEntries(found)).toEqual({
      Row: ['src/a.ts', 'src/b.ts'],
      Progress: ['src/a.ts', 'renderer/src/C.svelte'],
    });
  });

  it("reads the real tree: the contract's wire row is the one ItemRow", () => {
    const read = (f: string) => readFileSync(join(root, f), 'utf8');
    const files = all().filter((f) => read(f).includes('ItemRow') && exportedTypeNames(f, read(f)).includes('ItemRow'));
    expect(files).toEqual(['src/contract/predictions.ts']);
  });
});
