/**
 * Debugger key bindings (as in common IDEs): F11 step into, F10 step over, Shift+F11 step
 * out (step_return), F5 continue (to the next breakpoint set, else to the exit); the inverse
 * actions add Alt: Alt+F11, Alt+F10, Alt+Shift+F11 (inv_step_call). Alt+Left / Alt+Right move
 * back and forward in history. They work wherever the focus is except where text is typed.
 */
export type KeyAction = string | 'back' | 'forward';

export const KEY_HELP: Record<string, string> = {
  step_into: 'F11',
  step_over: 'F10',
  step_return: 'Shift+F11',
  continue: 'F5',
  inv_step_into: 'Alt+F11',
  inv_step_over: 'Alt+F10',
  inv_step_call: 'Alt+Shift+F11',
  back: 'Alt+←',
  forward: 'Alt+→',
};

export function keyToAction(e: KeyboardEvent): KeyAction | null {
  if (e.ctrlKey || e.metaKey) return null;
  const alt = e.altKey;
  switch (e.key) {
    case 'F11':
      return alt ? (e.shiftKey ? 'inv_step_call' : 'inv_step_into') : e.shiftKey ? 'step_return' : 'step_into';
    case 'F10':
      return e.shiftKey ? null : alt ? 'inv_step_over' : 'step_over';
    case 'F5':
      return alt || e.shiftKey ? null : 'continue';
    case 'ArrowLeft':
      return alt ? 'back' : null;
    case 'ArrowRight':
      return alt ? 'forward' : null;
  }
  return null;
}

const TEXT_INPUTS = new Set(['text', 'search', 'number', 'email', 'url', 'password', 'tel']);

/** True where keys type text (a text input, a textarea, an editable element): debugger keys stay out. */
export function typesText(t: EventTarget | null): boolean {
  if (!(t instanceof HTMLElement)) return false;
  if (t.isContentEditable || t.tagName === 'TEXTAREA') return true;
  return t.tagName === 'INPUT' && TEXT_INPUTS.has((t as HTMLInputElement).type);
}
