/**
 * The counterfactual domain's handlers (contract: ../contract/counterfactuals.ts). Recording runs
 * the Python recorder (src/recorder/counterfactual.ts) and writes the corpus, so it is a write
 * method, served by the host's one writable connection.
 */
import { UserError } from '../../common/errors.js';
import { CounterfactualError, recordCounterfactual } from '../../recorder/counterfactual.js';
import { warmRecorder } from '../../recorder/warm.js';
import type { Corpus, ReadCorpus } from '../../store/corpus.js';
import type { Api } from '../../contract/index.js';

export function counterfactualReadHandlers(corpus: ReadCorpus): Pick<Api, 'getCounterfactual'> {
  return {
    getCounterfactual(p) {
      if (!corpus.getTrace(p.traceId)) throw new UserError(`no trace with id ${p.traceId}`, 'not-found');
      const l = corpus.counterfactualOf(p.traceId);
      return l
        ? { trace: l.trace, origin: l.origin, seq: l.seq, set: l.set, first_difference: l.first_difference }
        : null;
    },
  };
}

export function counterfactualWriteHandlers(
  corpus: Corpus,
): Pick<Api, 'recordCounterfactual' | 'prepareCounterfactual'> {
  return {
    prepareCounterfactual(p) {
      const t = corpus.getTrace(p.traceId);
      if (!t) throw new UserError(`no trace with id ${p.traceId}`, 'not-found');
      warmRecorder().prestart(t.hashseed); // in the background: the call answers at once
      return null;
    },
    async recordCounterfactual(p) {
      try {
        // The warm recorder (src/recorder/warm.ts) lives as long as this worker: a fork per request.
        return await recordCounterfactual(corpus, { trace: p.traceId, seq: p.seq, set: p.set }, { warm: true });
      } catch (e) {
        if (!(e instanceof CounterfactualError) || e.kind === 'failed') throw e;
        // The request (or a program that runs differently each time) is at fault: the person can act on it.
        throw new UserError(`${e.message}; nothing was stored`, e.kind === 'not-found' ? 'not-found' : 'bad-input');
      }
    },
  };
}
