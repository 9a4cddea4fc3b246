/**
 * Debugger semantics of Stepscope: forward and inverse state trees, the eight debugger
 * actions, trajectories, their serialized text, its parser, and the sampler
 * (docs/semantics.md §3–§7). Pure TypeScript: no Node and no DOM imports, so the renderer
 * can use it as well as the CLI and server.
 *
 * Typical use:
 *   const index = buildTraceIndex(events);          // once per trace, O(events)
 *   const scope = new Scope(index, entrySeq);       // 0 = root, else the seq of a `call`
 *   const t = walk(scope, 'forward', [{ action: 'step_into' }, …]);
 *   const text = serialize(index, t, header.context_forward);
 *   const { prompt, target } = promptTarget(textParts(index, t, ctx), k);
 *
 * Node ids: forward = seq; inverse = 2*seq (plain copy) or 2*seq+1 (inv_line_call copy).
 * Trees: see nav.ts for children / parent / pre-order; Scope.apply for one action.
 */
export * from './types.js';
export { buildTraceIndex, buildTreeIndex, TraceShapeError, type TreeIndex, type TreeColumns } from './tree.js';
export { Scope } from './scope.js';
export * from './nav.js';
export { localsDelta, ELIDED_KEY, type Locals } from './delta.js';
export { showState, renderState, stateText, stateKind, seqOf, hasLocals, type ShownState } from './state.js';
export {
  walk,
  WalkError,
  serialize,
  serializeChunks,
  showStates,
  stateSeqs,
  textParts,
  joinParts,
  promptTarget,
  contextFor,
  type Trajectory,
  type TextParts,
} from './trajectory.js';
export { pyJsonString, pyJsonValue, pyJsonObject } from './json.js';
export * from './tokens.js';
export * from './parse.js';
export * from './actions-text.js';
export * from './sample.js';
export * from './prng.js';
export * from './walk-view.js';
export * from './eval.js';
export { scoreCompletion, applicable, jsonEqual, type Scored, type FieldVerdicts } from './score.js';
