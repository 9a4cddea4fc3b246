/**
 * Ctrl+C for long runs: the first SIGINT (or SIGTERM) aborts the returned signal, so
 * runCompletions stops cleanly and keeps every answer it has; a second SIGINT quits at once
 * (exit code 130), for when the user does not want to wait for the requests in flight.
 */
import type { EventEmitter } from 'node:events';

export interface Interrupt {
  signal: AbortSignal;
  /** Removes the handlers (call when the run is over). */
  dispose(): void;
}

export interface InterruptOptions {
  /** Told on the first signal (to print "stopping…"). */
  onFirst?: () => void;
  /** Stand-ins for tests. Default: process and process.exit. */
  emitter?: EventEmitter;
  exit?: (code: number) => void;
}

export function abortOnInterrupt(o: InterruptOptions = {}): Interrupt {
  const emitter = o.emitter ?? process;
  const exit = o.exit ?? ((code: number) => process.exit(code));
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) return exit(130);
    controller.abort();
    o.onFirst?.();
  };
  emitter.on('SIGINT', onSignal);
  emitter.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose() {
      emitter.off('SIGINT', onSignal);
      emitter.off('SIGTERM', onSignal);
    },
  };
}
