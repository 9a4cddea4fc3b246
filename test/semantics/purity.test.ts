/** src/semantics must stay importable from the renderer: no Node built-ins, no DOM, no app layers. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers.js';

describe('src/semantics is pure TypeScript', () => {
  it('imports only its own modules and the shared trace types', () => {
    const dir = join(repoRoot, 'src/semantics');
    const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      const src = readFileSync(join(dir, f), 'utf8');
      const specs = [...src.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]);
      for (const s of specs) expect(s.startsWith('./') || s === '../trace/types.js', `${f} imports ${s}`).toBe(true);
      expect(src, f).not.toMatch(/\b(document|window|process|Buffer|require)\s*[.(]/);
      expect(src, f).not.toMatch(/Math\.random\s*\(/);
    }
  });
});
