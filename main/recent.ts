/** Recently opened corpora: a small JSON list in the app's userData folder (newest first). */
import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';

const MAX = 10;

export class RecentCorpora {
  private readonly file: string;

  constructor(userData: string) {
    this.file = join(userData, 'recent-corpora.json');
  }

  list(): string[] {
    try {
      const v = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
      return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, MAX) : [];
    } catch {
      return []; // missing or damaged: start afresh rather than refuse to open
    }
  }

  add(path: string): string[] {
    const next = [path, ...this.list().filter((p) => p !== path)].slice(0, MAX);
    // Write-then-rename so a crash never leaves half a file.
    writeFileSync(`${this.file}.tmp`, JSON.stringify(next, null, 2));
    renameSync(`${this.file}.tmp`, this.file);
    return next;
  }
}
