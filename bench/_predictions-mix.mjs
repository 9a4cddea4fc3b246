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
