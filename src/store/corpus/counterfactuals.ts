/** Counterfactual links (queries/counterfactuals.ts); recording one: src/recorder/counterfactual.ts. */
import {
  counterfactualOf,
  counterfactualsFrom,
  linkCounterfactual,
  type CounterfactualLink,
} from '../queries/counterfactuals.js';
import type { CorpusClass } from './base.js';

export function CounterfactualReads<B extends CorpusClass>(Base: B) {
  return class CounterfactualReads extends Base {
    /** The link of a counterfactual trace to its origin; undefined for a plain trace. */
    counterfactualOf(trace: number): CounterfactualLink | undefined {
      return this.guard(() => counterfactualOf(this.conn, trace));
    }

    /** The counterfactuals recorded from `origin`. */
    counterfactualsFrom(origin: number): CounterfactualLink[] {
      return this.guard(() => counterfactualsFrom(this.conn, origin));
    }
  };
}

export function CounterfactualWrites<B extends CorpusClass>(Base: B) {
  return class CounterfactualWrites extends Base {
    linkCounterfactual(link: CounterfactualLink): void {
      this.assertWritable();
      this.guard(() => linkCounterfactual(this.conn, link));
    }
  };
}
