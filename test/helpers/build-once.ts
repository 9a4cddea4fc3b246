// Vitest's global set-up: dist/ is brought up to date once, before any test file starts.
// Test files run side by side (two forks or more), and many need the compiled core (the CLI
// tests run it, the API's worker threads load it): each building a stale dist/ on its own ran
// several `tsc` at once, each rewriting every output in place, while another file's workers
// were loading them, so a worker could import a file half written ("does not provide an export
// named …"). Built here, the files' own checks (ensureBuilt) find nothing to build.
import { ensureBuilt } from '../cli/helpers.js';

export default function setup(): void {
  ensureBuilt();
}
