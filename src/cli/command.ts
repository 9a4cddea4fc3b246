/**
 * The shape of one `stepscope` subcommand. Each subcommand lives in its own file under
 * src/cli/commands/ and is listed in src/cli/main.ts.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface Command {
  name: string;
  /** One line for `stepscope --help`. */
  summary: string;
  /** Usage line(s) and option descriptions for `stepscope NAME --help`. */
  help: string;
  options: Options;
  /** Whether positional arguments are accepted. */
  positionals?: boolean;
  /** Returns the process exit code. */
  run(values: Record<string, unknown>, positionals: string[]): Promise<number> | number;
}

/** A user-facing error: printed as `stepscope: message` with no stack, exit code `code`. */
export class CliError extends Error {
  constructor(message: string, readonly code = 1) {
    super(message);
  }
}

export function parseCommandArgs(cmd: Command, argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: { ...cmd.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: cmd.positionals ?? false,
      strict: true,
    });
  } catch (e) {
    throw new CliError(`${cmd.name}: ${(e as Error).message}\nTry 'stepscope ${cmd.name} --help'.`, 2);
  }
}

/** Reads a required string option or fails with a usage error. */
export function requireString(values: Record<string, unknown>, key: string, cmd: string): string {
  const v = values[key];
  if (typeof v !== 'string' || v === '') throw new CliError(`${cmd}: --${key} is required`, 2);
  return v;
}

/** Parses an integer option, failing with a usage error that names the option. */
export function intOption(values: Record<string, unknown>, key: string, cmd: string, def?: number): number {
  const v = values[key];
  if (v === undefined) {
    if (def === undefined) throw new CliError(`${cmd}: --${key} is required`, 2);
    return def;
  }
  const n = Number(v);
  if (!Number.isInteger(n)) throw new CliError(`${cmd}: --${key} expects an integer, got '${String(v)}'`, 2);
  return n;
}
