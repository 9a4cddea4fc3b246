/**
 * The app's place in the browser history (docs/explorer.md, "Back and Forward"): the address
 * follows what is open (lib/deeplink.ts), each navigation a new history entry and each step
 * within a trace a rewrite of the current one (lib/history.ts says which is which). Back and
 * Forward (the browser's buttons, Alt+← / Alt+→ in both modes) restore an entry through
 * `restoreLink` (state/links.ts). One navigation writes one entry: what changes while it is
 * still opening (a trace loading, an item being opened, a link being applied) rewrites the
 * entry it made.
 */
import { formatLink, parseLink, type DeepLink } from '../lib/deeplink.js';
import { historyMove } from '../lib/history.js';
import type { AppState } from '../lib/context.js';
import { linkOf, restoreLink } from './links.js';

export class AppHistory {
  /** The link of the history entry the user is on, as last written. */
  #entry: DeepLink | null = null;
  #burst = false;
  #restoring = 0;

  constructor(private readonly app: AppState) {}

  /** Whether a navigation is still landing (its later changes belong to its entry). */
  #busy(): boolean {
    return this.app.explorer.loading || this.app.overlay.opening !== null || this.app.nav.applying > 0;
  }

  /** Writes the address for what is open now (App calls it whenever linkOf changes, once the first link is in). */
  write(link: DeepLink = linkOf(this.app)): void {
    const q = formatLink(link);
    const url = location.pathname + q + location.hash;
    const inBurst = this.#burst && this.#busy();
    if (this.#entry === null || this.#restoring > 0 || inBurst || historyMove(this.#entry, link) === 'replace') {
      if (q !== location.search) history.replaceState(history.state, '', url);
      if (!inBurst) this.#burst = false;
    } else {
      history.pushState({ stepscope: true }, '', url);
      this.#burst = true;
    }
    this.#entry = link;
  }

  /** The address to restore next, while a restore is running (Back pressed again before it landed). */
  #pending: string | null = null;

  /**
   * Back or Forward landed on an entry: open what its address says. Restores run one at a time;
   * entries passed over while one runs are skipped, the last one is opened.
   */
  async restore(search: string): Promise<void> {
    this.#pending = search;
    if (this.#restoring > 0) return;
    this.#restoring++;
    try {
      while (this.#pending !== null) {
        const { link, problems } = parseLink(this.#pending);
        this.#pending = null;
        const more = await restoreLink(this.app, link);
        this.app.nav.problems = [...problems, ...more];
      }
    } finally {
      this.#restoring--;
    }
    this.#burst = false;
    this.write();
  }

  /** Listens to Back and Forward; returns the listener's removal. */
  listen(): () => void {
    const onpop = () => void this.restore(location.search);
    window.addEventListener('popstate', onpop);
    return () => window.removeEventListener('popstate', onpop);
  }
}
