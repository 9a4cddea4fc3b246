/** Running the built `stepscope` binary from tests. */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Builds dist/ when any source is newer than its output: the CLI tests run the compiled
 * command, and the API's worker threads run the compiled worker (src/api/host/pool.ts).
 */
export function ensureBuilt(): void {
  const sources = walk(join(repoRoot, 'src'));
  const stale = sources.some((src) => {
    const out = join(repoRoot, 'dist', relative(join(repoRoot, 'src'), src)).replace(/\.ts$/, '.js');
    return !existsSync(out) || statSync(out).mtimeMs < statSync(src).mtimeMs;
  });
  // tsc still writes every file when some other module has a type error; check the outputs.
  if (stale) spawnSync('npm', ['run', '--silent', 'build:core'], { cwd: repoRoot, stdio: 'ignore' });
  if (!existsSync(join(repoRoot, 'dist/cli/commands/ingest.js')))
    throw new Error('npm run build:core did not produce dist/');
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], opts: SpawnSyncOptions = {}): CliResult {
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin/stepscope.js'), ...args], {
    encoding: 'utf8',
    cwd: repoRoot,
    ...opts,
  });
  return { status: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** JSON lines of stdout. */
export function lines(out: string): Record<string, unknown>[] {
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}
