/** The rollouts domain's handler (contract: ../contract/rollouts.ts). */
import { rolloutRuns } from '../../predictions/rollouts.js';
import type { ReadCorpus } from '../../store/corpus.js';
import type { Api } from '../../contract/index.js';

export function rolloutHandlers(corpus: ReadCorpus): Pick<Api, 'getRollouts'> {
  return {
    getRollouts: (p) => rolloutRuns(corpus, { set: p.set, run: p.run, traceId: p.traceId }),
  };
}
