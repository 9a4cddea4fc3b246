/**
 * Which of the app's views is open (the view bar; `view=` in a link), and what the last link
 * followed could not open (shown above the view, one sentence each).
 */
import type { View } from '../lib/deeplink.js';

export type { View };

export class Nav {
  view = $state<View>('explorer');
  problems = $state.raw<string[]>([]);
  /** Links being applied (state/links.ts): their changes land in one history entry (state/history.svelte.ts). */
  applying = 0;
}
