// What the predictions benchmarks share: a numeric command-line option, and the completions a
// model might write for a target (right, locals off by one value, another event, cut short).

export const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};

/** The four kinds of completion, by index: 0 right, 1 a local wrong, 2 another event, 3 cut short. */
export const variants = (target) => [
  target,
  target.replace(/"([^"]*)"\}/, '"$1 "}'),
  target.replace(/^<\|[a-z_]+\|>/, '<|line_sep|>'),
  target.slice(0, Math.floor(target.length / 2)),
];

/** Per ten samples: six right, two with a local wrong, one another event, one cut short. */
export const MIX = [0, 0, 0, 0, 0, 0, 1, 1, 2, 3];

/** A predictions file's lines: `samples` completions for each item of the set, drawn by MIX. */
export function predictionLines(corpus, setId, samples) {
  const lines = [];
  for (const it of corpus.iterateItems(setId)) {
    const v = variants(it.target);
    for (let k = 0; k < samples; k++) lines.push(JSON.stringify({ id: it.id, completion: v[MIX[k % 10]] }));
  }
  return lines;
}
