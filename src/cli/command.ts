/**
 * The shape of one `stepscope` subcommand, and how it reads its options. Each subcommand
 * lives in its own file under src/cli/commands/ and is listed in src/cli/main.ts. Option
 * values go through the API contract's validators, so the CLI and the API accept the same
 * values and say the same thing about a wrong one.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { InvalidValue, int, oneOf, type Validator } from '../api/contract/validate.js';
import { UserError, type ErrorCode } from '../common/errors.js';

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

/**
 * A user error of the command line, with the process exit status to end with: 2 for a wrong
 * command line (usage), 1 otherwise. main.ts prints any UserError as `stepscope: message`
 * with no stack; one that is not a CliError exits 1.
 */
export class CliError extends UserError {
  constructor(
    message: string,
    readonly exitCode = 1,
    code: ErrorCode = 'bad-input',
  ) {
    super(message, code);
  }
}

/** A wrong command line: exit status 2. */
export const usage = (message: string) => new CliError(message, 2);

export function parseCommandArgs(cmd: Command, argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: { ...cmd.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: cmd.positionals ?? false,
      strict: true,
    });
  } catch (e) {
    throw usage(`${cmd.name}: ${(e as Error).message}\nTry 'stepscope ${cmd.name} --help'.`);
  }
}

/** Reads a required string option or fails with a usage error. */
export function requireString(values: Record<string, unknown>, key: string, cmd: string): string {
  const v = values[key];
  if (typeof v !== 'string' || v === '') throw usage(`${cmd}: --${key} is required`);
  return v;
}

/**
 * Checks one option's text with a contract validator (after `fromText`, e.g. Number);
 * undefined when the option is absent. A wrong value: `CMD: --KEY expects …, got 'TEXT'`.
 */
export function checkedOption<T>(
  values: Record<string, unknown>,
  key: string,
  cmd: string,
  validator: Validator<T>,
  fromText: (text: string) => unknown = (t) => t,
): T | undefined {
  const raw = values[key];
  if (raw === undefined) return undefined;
  return checkText(String(raw), key, cmd, validator, fromText);
}

function checkText<T>(text: string, key: string, cmd: string, validator: Validator<T>, fromText: (text: string) => unknown): T {
  try {
    return validator(fromText(text), `--${key}`);
  } catch (e) {
    if (e instanceof InvalidValue) throw usage(`${cmd}: --${key} expects ${e.expected}, got '${text}'`);
    throw e;
  }
}

/** An integer option (checked by `valid`, e.g. the contract's `int(0)` or `traceId`); `def` when absent, else required. */
export function intOption(
  values: Record<string, unknown>,
  key: string,
  cmd: string,
  def?: number,
  valid: Validator<number> = int(Number.MIN_SAFE_INTEGER),
): number {
  const n = checkedOption(values, key, cmd, valid, Number);
  if (n !== undefined) return n;
  if (def === undefined) throw usage(`${cmd}: --${key} is required`);
  return def;
}

/** Every value of a repeated integer option. */
export function intOptions(values: Record<string, unknown>, key: string, cmd: string, validator: Validator<number>): number[] {
  return ((values[key] as string[] | undefined) ?? []).map((t) => checkText(t, key, cmd, validator, Number));
}

/** An option with a fixed set of values (the contract's `oneOf`); `def` when absent. */
export function choiceOption<const T extends readonly string[]>(values: Record<string, unknown>, key: string, cmd: string, choices: T, def?: T[number]): T[number] | undefined {
  return checkedOption(values, key, cmd, oneOf(choices)) ?? def;
}
