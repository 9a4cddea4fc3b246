/**
 * Node side of the recorder: the recorder itself is the Python package in <repo>/python
 * (`python3 -m stepscope_recorder`), which runs every traced program in its own child
 * process. These helpers spawn it with PYTHONPATH set and pass arguments through.
 */
import { spawn, spawnSync } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A folder the repository ships beside the code, `relative` to the module at `moduleUrl`. In a
 * packaged desktop app the code runs from inside resources/app.asar, which python3 cannot read:
 * there the folder is `<resourcesPath>/<its base name>` (electron-builder.yml, extraResources).
 */
export function shippedDir(relative: string, moduleUrl: string, resourcesPath: string | undefined): string {
  const here = fileURLToPath(new URL(relative, moduleUrl));
  const packed = /[\\/][^\\/]+\.asar([\\/]|$)/.test(fileURLToPath(moduleUrl));
  return packed && resourcesPath ? join(resourcesPath, basename(here)) : here;
}

const resourcesPath = (process as { resourcesPath?: string }).resourcesPath; // set by Electron only
/** <repo>/python, from src/recorder or dist/recorder alike; <resources>/python in a packaged app. */
export const pythonDir = shippedDir('../../python', import.meta.url, resourcesPath);

/** The interpreter to run: $STEPSCOPE_PYTHON, else `python3` from PATH. */
export function pythonExecutable(): string {
  return process.env.STEPSCOPE_PYTHON || 'python3';
}

/** This process's environment with the recorder's package first on PYTHONPATH (and `extra` over it). */
export function recorderEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const old = process.env.PYTHONPATH;
  return { ...process.env, PYTHONPATH: old ? `${pythonDir}:${old}` : pythonDir, ...extra };
}

/**
 * Runs `python3 -m stepscope_recorder ARGS` with inherited stdio; resolves to its exit code.
 * The recorder says in one line how it ended, except when a signal it cannot catch (a
 * traced program may SIGKILL it) ends it: then this says it, as 128 + the signal number.
 */
export function runRecorder(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    // STEPSCOPE_PARENT_PID: the recording stops when this process dies, even by SIGKILL (cli.py).
    const child = spawn(pythonExecutable(), ['-m', 'stepscope_recorder', ...args], {
      stdio: 'inherit',
      env: recorderEnv({ STEPSCOPE_PARENT_PID: String(process.pid) }),
    });
    child.on('error', (e) => reject(new Error(`cannot start ${pythonExecutable()}: ${e.message}`)));
    child.on('exit', (code, signal) => {
      if (code !== null) return resolve(code);
      process.stderr.write(`stepscope: the recorder was killed by ${signal} before it finished; nothing was written\n`);
      resolve(128 + (signal ? (osConstants.signals[signal] ?? 0) : 0));
    });
  });
}

/** The argparse help of one recorder subcommand, so the two CLIs never disagree. */
export function recorderHelp(sub: string, fallback: string): string {
  const r = spawnSync(pythonExecutable(), ['-m', 'stepscope_recorder', sub, '--help'], {
    env: recorderEnv(),
    encoding: 'utf8',
  });
  if (r.status !== 0 || !r.stdout) return fallback;
  return r.stdout.replace(/^usage: stepscope_recorder /, 'usage: stepscope ').trimEnd();
}

/** Rebuilds `--name value` arguments from parsed option values (undefined ones skipped). */
export function optionArgs(values: Record<string, unknown>, names: string[]): string[] {
  const out: string[] = [];
  for (const name of names) {
    const v = values[name];
    if (v === undefined) continue;
    out.push(`--${name}`, String(v));
  }
  return out;
}

/** The limit options every recording command accepts, and --backend (see the Python --help). */
export const limitOptions = ['max-events', 'timeout', 'max-memory', 'max-repr', 'hashseed', 'backend'] as const;
