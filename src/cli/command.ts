/**
 * The shape of one `stepscope` subcommand, and how it reads its options. Each subcommand
 * lives in its own file under src/cli/commands/ and is listed in src/cli/main.ts. Option
 * values go through the API contract's validators, so the CLI and the API accept the same
 * values and say the same thing about a wrong one.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { InvalidValue, int, oneOf, type Validator } from '../contract/validate.js';
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
      args: joinNegativeValues(cmd.options, argv),
      options: { ...cmd.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: cmd.positionals ?? false,
      strict: true,
    });
  } catch (e) {
    throw usage(`${cmd.name}: ${(e as Error).message}\nTry 'stepscope ${cmd.name} --help'.`);
  }
}

/**
 * `--seed -3` as `--seed=-3`: parseArgs takes a value starting with a dash for an option and
 * refuses it with three lines of advice; no option of ours is a dash and digits, so a
 * negative number after an option that takes a value is that option's value (and its
 * validator words what is wrong with it, e.g. `--limit expects an integer from 0 to …`).
 */
function joinNegativeValues(options: Options, argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const name = /^--([^=]+)$/.exec(argv[i])?.[1];
    if (name && options[name]?.type === 'string' && /^-\d/.test(argv[i + 1] ?? '')) out.push(`${argv[i]}=${argv[++i]}`);
    else out.push(argv[i]);
  }
  return out;
}

/**
 * The number an integer option's text stands for: decimal digits with an optional sign, and
 * nothing else (not `1e3`, `0x10`, `1.0`, ` 7` or the empty text, which Number() accepts);
 * NaN otherwise, which every integer validator refuses. Digits past 2^53 stay a number the
 * validator refuses as out of range, never a rounded value.
 */
export function integerText(text: string): number {
  return /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
}

/** Reads a required string option or fails with a usage error. */
export function requireString(values: Record<string, unknown>, key: string, cmd: string): string {
  const v = values[key];
  if (typeof v !== 'string' || v === '') throw usage(`${cmd}: --${key} is required`);
  return v;
}

/**
 * Checks one option's text with a contract validator (after `fromText`, e.g. integerText);
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

function checkText<T>(
  text: string,
  key: string,
  cmd: string,
  validator: Validator<T>,
  fromText: (text: string) => unknown,
): T {
  try {
    return validator(fromText(text), `--${key}`);
  } catch (e) {
    if (e instanceof InvalidValue) throw usage(`${cmd}: --${key} expects ${e.expected}, got '${text}'`);
    throw e;
  }
}

/**
 * An integer option (checked by `valid`, e.g. the contract's `int(0)` or `traceId`); `def` when absent, else required.
 */
export function intOption(
  values: Record<string, unknown>,
  key: string,
  cmd: string,
  def?: number,
  valid: Validator<number> = int(Number.MIN_SAFE_INTEGER),
): number {
  const n = checkedOption(values, key, cmd, valid, integerText);
  if (n !== undefined) return n;
  if (def === undefined) throw usage(`${cmd}: --${key} is required`);
  return def;
}

/** Every value of a repeated integer option. */
export function intOptions(
  values: Record<string, unknown>,
  key: string,
  cmd: string,
  validator: Validator<number>,
): number[] {
  return ((values[key] as string[] | undefined) ?? []).map((t) => checkText(t, key, cmd, validator, integerText));
}

/** An option with a fixed set of values (the contract's `oneOf`); `def` when absent. */
export function choiceOption<const T extends readonly string[]>(
  values: Record<string, unknown>,
  key: string,
  cmd: string,
  choices: T,
  def?: T[number],
): T[number] | undefined {
  return checkedOption(values, key, cmd, oneOf(choices)) ?? def;
}
