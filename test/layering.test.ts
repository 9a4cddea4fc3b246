/**
 * The layers of the code base and which may import which (docs/architecture.md), checked on
 * every import of src/, main/ and renderer/src, as Perfetto checks its layers. A new folder
 * must be given a layer here; a new edge must be added to MAY_IMPORT on purpose.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');

/** Folder (or file) prefixes, most specific first, and their layer. */
const LAYERS: [string, string][] = [
  ['src/common/', 'common'],
  ['src/trace/', 'trace'],
  ['src/semantics/', 'semantics'],
  ['src/annotate/', 'annotate'],
  ['src/contract/', 'contract'],
  ['src/api/handlers/', 'handlers'],
  ['src/api/host/', 'host'],
  ['src/store/connection.ts', 'store-connection'],
  ['src/store/', 'store'],
  ['src/trajectories/', 'trajectories'],
  ['src/recorder/', 'recorder'],
  ['src/model/', 'model'],
  ['src/scoring/', 'scoring'],
  ['src/predictions/', 'predictions'],
  ['src/export/', 'export'],
  ['src/labeling/', 'labeling'],
  ['src/server/', 'server'],
  ['src/cli/', 'cli'],
  ['main/', 'main'],
  ['renderer/', 'renderer'],
];

/** Which other layers a layer may import (its own files always). */
const MAY_IMPORT: Record<string, string[]> = {
  common: [],
  trace: ['common'],
  semantics: ['trace', 'common'],
  annotate: ['semantics', 'trace', 'common'],
  contract: ['annotate', 'semantics', 'trace', 'common'],
  store: ['store-connection', 'annotate', 'semantics', 'trace', 'common'],
  'store-connection': [],
  trajectories: ['store', 'semantics', 'trace', 'common'],
  handlers: [
    'contract',
    'store',
    'trajectories',
    'predictions',
    'export',
    'labeling',
    'model',
    'recorder', // recordCounterfactual runs the recorder
    'annotate',
    'semantics',
    'trace',
    'common',
  ],
  host: ['handlers', 'contract', 'common'],
  recorder: [],
  model: ['semantics', 'common'],
  scoring: ['recorder'], // the execution worker is the recorder package's Python, found the same way
  // recorder: `evalset create --task counterfactual` records the counterfactuals it makes items of
  predictions: ['store', 'trajectories', 'scoring', 'model', 'recorder', 'semantics', 'trace', 'common'],
  export: ['store', 'annotate', 'semantics', 'trace', 'common'],
  labeling: ['store', 'trajectories', 'predictions', 'contract', 'annotate', 'semantics', 'trace', 'common'],
  server: ['host', 'contract', 'common'],
  cli: [
    'server',
    'recorder',
    'model',
    'predictions',
    'export',
    'labeling',
    'scoring',
    'trajectories',
    'store',
    'contract',
    'annotate',
    'semantics',
    'trace',
    'common',
  ],
  main: ['host', 'contract', 'server', 'common'],
  renderer: ['contract', 'annotate', 'semantics', 'trace', 'common'],
};

/** Pure layers: no packages, no Node built-ins, no Node or DOM globals; importable everywhere. */
const PURE = new Set(['common', 'trace', 'semantics', 'annotate', 'contract']);

/** Packages (and node: built-ins) a layer may import; pure layers none. */
const PACKAGES: Record<string, RegExp> = {
  store: /^(node:|better-sqlite3$)/,
  'store-connection': /^better-sqlite3$/,
  trajectories: /^node:/,
  handlers: /^node:/,
  host: /^node:/,
  recorder: /^node:/,
  model: /^node:/,
  scoring: /^node:/,
  predictions: /^node:/,
  export: /^(node:|hyparquet-writer($|\/))/,
  server: /^node:/,
  cli: /^node:/,
  main: /^(node:|electron$)/,
  // Plot: the dashboard's charts; diff: the overlay's repr diffs
  renderer: /^(svelte(\/|$)|d3$|codemirror$|@codemirror\/|@observablehq\/plot$|diff$)/,
};

function layerOf(path: string): string | undefined {
  return LAYERS.find(([prefix]) => path === prefix || path.startsWith(prefix))?.[1];
}

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(rel);
    return /\.(ts|svelte)$/.test(e.name) ? [rel] : [];
  });
}

/** Import and export-from specifiers (static, side-effect and dynamic imports). */
function specifiers(text: string): string[] {
  const patterns = [
    /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return patterns.flatMap((re) => [...text.matchAll(re)].map((m) => m[1]));
}

interface Violation {
  file: string;
  imports: string;
  why: string;
}

/** Every import that breaks the rules, for the files given (repo-relative paths). */
function violations(files: string[], read = (f: string) => readFileSync(join(root, f), 'utf8')): Violation[] {
  const out: Violation[] = [];
  for (const file of files) {
    const from = layerOf(file);
    if (!from) {
      out.push({ file, imports: '', why: 'the file is in no layer (add its folder to LAYERS)' });
      continue;
    }
    const text = read(file);
    for (const spec of specifiers(text)) {
      if (spec.startsWith('.') || spec.startsWith('@core/')) {
        // `@core/…` is the renderer's alias of src/ (renderer/tsconfig.json).
        const path = spec.startsWith('@core/') ? join('src', spec.slice('@core/'.length)) : join(dirname(file), spec);
        const target = relative(root, resolve(root, path)).replace(/\.js$/, '.ts');
        const to = layerOf(target);
        if (to === from) continue;
        if (!to) out.push({ file, imports: spec, why: `${target} is in no layer` });
        else if (!MAY_IMPORT[from].includes(to)) out.push({ file, imports: spec, why: `${from} may not import ${to}` });
      } else {
        const bare =
          spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0])
            ? `node:${spec.replace(/^node:/, '')}`
            : spec;
        if (PURE.has(from) || !PACKAGES[from]?.test(bare))
          out.push({ file, imports: spec, why: `${from} may not import the package ${spec}` });
      }
    }
    if (PURE.has(from) && /\b(document|window|process|Buffer|require)\s*[.(]/.test(text)) {
      out.push({ file, imports: '', why: `${from} is pure: no Node or DOM globals` });
    }
    if (from === 'semantics' && /Math\.random\s*\(/.test(text))
      out.push({ file, imports: '', why: 'semantics draw from the seeded PRNG, never Math.random' });
  }
  return out;
}

const all = [...sources('src'), ...sources('main'), ...sources('renderer/src')];

describe('layering', () => {
  it('every file of src/, main/ and renderer/src is in a layer, and every layer has files', () => {
    const layers = new Set(all.map(layerOf));
    for (const [, name] of LAYERS) expect(layers.has(name), name).toBe(true);
  });

  it('imports only what its layer may import', () => {
    expect(violations(all)).toEqual([]);
  });

  it('refuses a forbidden import (the check itself works)', () => {
    const fake = (extra: string) => () => `${extra}\nexport const x = 1;\n`;
    expect(violations(['src/semantics/tree.ts'], fake("import { openCorpus } from '../store/corpus.js';"))).toEqual([
      { file: 'src/semantics/tree.ts', imports: '../store/corpus.js', why: 'semantics may not import store' },
    ]);
    expect(violations(['renderer/src/lib/api.ts'], fake("import { readFileSync } from 'node:fs';"))[0].why).toBe(
      'renderer may not import the package node:fs',
    );
    expect(violations(['main/index.ts'], fake("import { openCorpus } from '../src/store/corpus.js';"))[0].why).toBe(
      'main may not import store',
    );
    expect(violations(['src/cli/main.ts'], fake("import { connectionOf } from '../store/connection.js';"))[0].why).toBe(
      'cli may not import store-connection',
    );
    expect(violations(['src/annotate/index.ts'], fake("import { openCorpus } from '../store/corpus.js';"))[0].why).toBe(
      'annotate may not import store',
    );
    expect(violations(['src/annotate/index.ts'], fake("import { readFileSync } from 'node:fs';"))[0].why).toBe(
      'annotate may not import the package node:fs',
    );
    expect(violations(['src/annotate/index.ts'], fake('const t = process.env.X;'))[0].why).toBe(
      'annotate is pure: no Node or DOM globals',
    );
  });
});
