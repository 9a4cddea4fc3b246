/** The special tokens of the serialized text (docs/semantics.md §6). */
import type { Action, ExitKind, StateKind } from './types.js';

export const BEGIN = '<|begin_of_text|>';
export const CONTEXT = '<|trace_context_start|>';
export const FRAME = '<|frame_sep|>';
export const ACTION = '<|action_sep|>';
export const TRACE_END = '<|trace_end|>';
export const END = '<|end_of_text|>';
export const SRC = '<|src_sep|>';
export const ARG = '<|arg_sep|>';

const STATE_TOKENS = new Map<string, string>();
export const stateToken = (k: StateKind) => {
  let t = STATE_TOKENS.get(k);
  if (t === undefined) STATE_TOKENS.set(k, (t = `<|${k}_sep|>`));
  return t;
};
export const exitToken = (e: ExitKind) => `<|${e}|>`;
export const actionText = (a: Action) => (a.action === 'breakpoint' ? `<|breakpoint|>${a.src}` : `<|${a.action}|>`);
