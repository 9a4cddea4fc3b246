/** The debugger's vocabulary (docs/semantics.md §5, §6), shared by every layer that names it. */

export const DIRECTIONS = ['forward', 'inverse'] as const;
export type Direction = (typeof DIRECTIONS)[number];

export const FORWARD_ACTIONS = ['step_into', 'step_over', 'step_return', 'breakpoint', 'continue'] as const;
export const INVERSE_ACTIONS = ['inv_step_into', 'inv_step_over', 'inv_step_call'] as const;
export type ForwardActionName = (typeof FORWARD_ACTIONS)[number];
export type InverseActionName = (typeof INVERSE_ACTIONS)[number];
export type ActionName = ForwardActionName | InverseActionName;
export const ACTION_NAMES: readonly ActionName[] = [...FORWARD_ACTIONS, ...INVERSE_ACTIONS];

/** One debugger action; a breakpoint carries the exact src of the line to stop at. */
export type Action = { action: Exclude<ActionName, 'breakpoint'> } | { action: 'breakpoint'; src: string };

/** How a trajectory leaves its entry's scope: the exit tokens' names. */
export const EXIT_KINDS = ['exit_normal', 'exit_error', 'exit_never', 'inv_exit_entry'] as const;
export type ExitKind = (typeof EXIT_KINDS)[number];

/** How a state is shown: the forward event names, their inv_ forms, and inv_line_call. */
export const STATE_KINDS = [
  'call',
  'line',
  'return',
  'exception',
  'inv_call',
  'inv_line',
  'inv_return',
  'inv_exception',
  'inv_line_call',
] as const;
export type StateKind = (typeof STATE_KINDS)[number];

/** Where an action leads: a node of the tree being walked, or out of the entry's scope. */
export type Target = { node: number } | { exit: ExitKind };

export function isForwardAction(a: ActionName): a is ForwardActionName {
  return (FORWARD_ACTIONS as readonly string[]).includes(a);
}

export function actionDirection(a: ActionName): Direction {
  return isForwardAction(a) ? 'forward' : 'inverse';
}

/** "a forward action" / "an inverse action", as refusals word an action of the other direction. */
export function directionAction(direction: Direction): string {
  return `${direction === 'inverse' ? 'an' : 'a'} ${direction} action`;
}
