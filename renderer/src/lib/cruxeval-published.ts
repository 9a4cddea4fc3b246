/**
 * CRUXEval pass@1 as its authors published it (percent, 800 tasks, no chain of thought), shown
 * by the dashboard next to a run's own pass@1. docs/dashboard.md carries the same table.
 *
 * Source: the CRUXEval leaderboard's result files, crux-eval.github.io, `evaluation_results/`
 * at commit bbca8150320397859dbb3c359fbb6a885b1d9a3f (MIT, © 2023 CRUXEval Team), the field
 * `pass_at_1` of `<model>_temp<T>_{input,output}.json`; CodeLlama-7B at temperature 0.2 is
 * also in the paper's released samples (Gu et al., "CRUXEval: A Benchmark for Code
 * Reasoning, Understanding and Execution", arXiv:2401.03065, facebookresearch/cruxeval).
 * GPT-4's input figure was computed under random hash seeds; under PYTHONHASHSEED=0, as
 * Stepscope scores, one task's verdicts flip and it is 69.6875 (docs/dashboard.md).
 */
export interface PublishedFigure {
  model: string;
  temperature: number;
  input: number;
  output: number;
}

export const CRUXEVAL_PUBLISHED: readonly PublishedFigure[] = [
  { model: 'CodeLlama-7B', temperature: 0.2, input: 35.95, output: 34.2125 },
  { model: 'CodeLlama-7B', temperature: 0.8, input: 28.35, output: 30.95 },
  { model: 'DeepSeek-Coder-6.7B base', temperature: 0.2, input: 41.8625, output: 43.4625 },
  { model: 'GPT-4 (0613)', temperature: 0.2, input: 69.8125, output: 68.7 },
  { model: 'Phi-2', temperature: 0.2, input: 31.6125, output: 33.525 },
];

/** Which published column a set's task compares with (none for the breakpoint variant, a different prompt). */
export function publishedColumn(task: string): 'input' | 'output' | null {
  return task === 'cruxeval-input' ? 'input' : task === 'cruxeval-output' ? 'output' : null;
}
