/**
 * The repository stands on its own: a clone with nothing beside it runs every test, bench and
 * script. So no file of those folders may reach for a data folder beside the checkout (the
 * relative path or the environment variable that once named it); the data they read is in
 * resources/ and test/data/, each folder with its licence and where it came from.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const FOLDERS = ['test', 'e2e', 'bench', 'scripts', 'python/tests', '.ci'];
const SKIP = new Set(['node_modules', '__pycache__', '.stryker']);

// Spelled in pieces so that this file does not name them itself.
const folder = ['sh', 'ared'].join('');
const NAMES = [
  new RegExp(`\\.\\.[\\\\/]${folder}\\b`), // the relative path, either slash
  new RegExp(`['"]\\.\\.['"]\\s*,\\s*['"]${folder}['"]`), // the path joined from its parts
  new RegExp(['STEPSCOPE', folder.toUpperCase()].join('_')),
];

/** `LINE: text` of each line of `text` that names the data folder beside the repository. */
function offenders(text: string): string[] {
  return text.split('\n').flatMap((line, i) => (NAMES.some((re) => re.test(line)) ? [`${i + 1}: ${line.trim()}`] : []));
}

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP.has(e.name)) return [];
    const path = join(dir, e.name);
    return e.isDirectory() ? files(path) : e.isFile() ? [path] : [];
  });
}

describe('the repository stands on its own', () => {
  it('finds every way a file could name the folder beside the checkout', () => {
    const beside = `../${folder}`;
    const env = `STEPSCOPE_${folder.toUpperCase()}`;
    expect(offenders(`const data = resolve(root, '${beside}/data/cruxeval');`)).toHaveLength(1);
    expect(offenders(`x = r'..\\${folder}\\data'`)).toHaveLength(1);
    expect(offenders(`DATA = os.path.join(ROOT, "..", "${folder}", "data")`)).toHaveLength(1);
    expect(offenders(`ok\nconst s = process.env.${env} ?? x;`)).toEqual([`2: const s = process.env.${env} ?? x;`]);
    // A shared set-up, shared memory, a "shared" object: not the folder.
    expect(offenders("// the shared set-up\nconst shared = new Uint8Array(3);\nopen('./shared/lib')")).toEqual([]);
  });

  it('no test, e2e, bench, script or CI file names it', () => {
    const all = FOLDERS.flatMap((f) => files(join(root, f)));
    expect(all.length).toBeGreaterThan(100);
    const found = all.flatMap((f) => offenders(readFileSync(f, 'utf8')).map((o) => `${relative(root, f)}:${o}`));
    expect(found).toEqual([]);
  });

  it('ships the data the tests read, each folder with its licence and provenance', () => {
    for (const dir of ['resources/cruxeval', 'test/data/cruxeval', 'test/data/cruxeval/leaderboard']) {
      expect(readFileSync(join(root, dir, 'LICENSE'), 'utf8'), dir).toMatch(/^MIT License/);
    }
    for (const dir of ['resources/cruxeval', 'test/data/cruxeval', 'test/data/semantics', 'test/data/tiny-nd']) {
      expect(existsSync(join(root, dir, 'PROVENANCE.md')), dir).toBe(true);
    }
    const tasks = readFileSync(join(root, 'resources/cruxeval/cruxeval.jsonl'), 'utf8').split('\n').filter(Boolean);
    expect(tasks.map((l) => JSON.parse(l).id)).toEqual(Array.from({ length: 800 }, (_, i) => `sample_${i}`));
  });
});
