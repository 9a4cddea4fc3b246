/** docs/architecture.md is what later work follows: its error-code table must be the closed set. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/common/errors.js';

const doc = readFileSync(join(import.meta.dirname, '../docs/architecture.md'), 'utf8');

describe('docs/architecture.md', () => {
  it('documents exactly the error codes of src/common/errors.ts', () => {
    const section = doc.slice(doc.indexOf('## Errors'), doc.indexOf('\n## ', doc.indexOf('## Errors') + 1));
    const documented = [...section.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    expect(documented).toEqual([...ERROR_CODES]);
  });
});
