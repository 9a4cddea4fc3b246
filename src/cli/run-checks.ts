/**
 * Runs a run's pending execution checks after import or predict, with a progress bar and
 * Ctrl+C (what was checked is kept; the same command again runs the rest). Returns the exit
 * code: 0, or 130 when stopped.
 */
import { abortOnInterrupt } from '../model/index.js';
import { runPendingChecks } from '../predictions/execute.js';
import type { Corpus } from '../store/corpus.js';
import { ProgressBar } from './progress.js';

export async function runChecks(corpus: Corpus, runId: number): Promise<number> {
  const pending = corpus.pendingChecks(runId).length;
  if (pending === 0) return 0;
  const interrupt = abortOnInterrupt({
    onFirst: () => console.error('\nstopping: waiting for the checks running (Ctrl+C again to quit now)'),
  });
  let bar: ProgressBar | undefined;
  try {
    const r = await runPendingChecks(corpus, runId, {
      signal: interrupt.signal,
      onProgress: (p) => {
        if (!bar && process.stderr.isTTY && p.total)
          bar = new ProgressBar('checks', p.total, (n) => `${n}/${p.total} runs`);
        bar?.update(p.done, `${p.counts.pass} pass`);
      },
    });
    bar?.clear();
    const left = corpus.pendingChecks(runId).length;
    console.error(
      `execution checks: ${r.checked} stored (${r.ran} runs, PYTHONHASHSEED=${corpus.getRunById(runId)!.hashseed})${left ? `; ${left} still pending` : ''}`,
    );
    if (interrupt.signal.aborted) {
      console.error('stopped: run the same command again to check the rest');
      return 130;
    }
    return 0;
  } finally {
    bar?.clear();
    interrupt.dispose();
  }
}
