/**
 * Saved (sampled) trajectories of a trace, read through src/trajectories/.
 */
import type { Corpus } from '../store/corpus.js';
import type { Api } from './contract.js';
import { ApiError } from './result.js';

export function trajectoryApi(_corpus: Corpus): Pick<Api, 'listTrajectories' | 'getTrajectory'> {
  return {
    listTrajectories() {
      return { total: 0, rows: [] };
    },
    getTrajectory(p) {
      throw new ApiError(`no trajectory with id ${p.id}`);
    },
  };
}
