/**
 * How the UI names one of the model's answers to an item: a *draw*, numbered from 1 ("draw 2
 * of 5"), so it does not read as the CRUXEval task id beside it (`sample_475`, an item). The
 * data keeps the field `sample`, numbered from 0 (the API, `--json`, the exports).
 */
export function drawName(sample: number, of?: number): string {
  return of === undefined ? `draw ${sample + 1}` : `draw ${sample + 1} of ${of}`;
}

/** "1 draw", "5 draws". */
export const drawCount = (n: number): string => `${n} draw${n === 1 ? '' : 's'}`;
