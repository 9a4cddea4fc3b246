/**
 * Errors a person can act on, with a code from a closed set, so that every front end (CLI,
 * API, renderer) can react to the kind of a problem without parsing its message. The message
 * names what was wrong and what was expected and is shown as is; the code travels with it
 * (over the API as `{ok: false, error: {code, message}}`).
 *
 * Pure: no Node, no DOM. Importable from every layer, the renderer included.
 */

/**
 * The closed set of codes. Add one only when a front end must react to it differently
 * from every existing code (docs/architecture.md, "Errors").
 */
export const ERROR_CODES = [
  /** The request, option, input file or action list is wrong; the message says what was expected. */
  'bad-input',
  /** No such trace, trajectory or file. */
  'not-found',
  /** The file is not a Stepscope corpus (it was left untouched). */
  'not-corpus',
  /** The corpus was made by a newer Stepscope (left untouched). */
  'newer-schema',
  /** The corpus has an older schema and was opened read-only, so it cannot be upgraded. */
  'needs-upgrade',
  /** A write was attempted on a read-only corpus, file or connection. */
  'read-only',
  /** Another program holds the corpus's write lock past the busy timeout. */
  'corpus-locked',
  /** SQLite reports the file as damaged. */
  'corrupt',
  /** Access refused: a missing or wrong token, a foreign host, an IPC call from another page. */
  'forbidden',
  /** Nothing can serve the request now: no corpus open, a port in use, a program that cannot start. */
  'unavailable',
  /** Anything else: a bug. Never thrown on purpose; the API gives it to every non-UserError. */
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class UserError extends Error {
  constructor(
    message: string,
    readonly code: ErrorCode,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
