/** `stepscope taxonomy`: show, export or import the corpus's failure taxonomy. */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseTaxonomyText } from '../../annotate/index.js';
import { UserError } from '../../common/errors.js';
import { currentTaxonomy, updateTaxonomy } from '../../labeling/taxonomy.js';
import { annotatorOption } from '../annotator.js';
import { type Command } from '../command.js';
import { table, withCorpus } from '../open-corpus.js';

export const command: Command = {
  name: 'taxonomy',
  summary: 'Show, export or import the failure taxonomy (groups and labels, versioned)',
  help: `Usage: stepscope taxonomy --db CORPUS [--json]
       stepscope taxonomy --db CORPUS --export FILE
       stepscope taxonomy --db CORPUS --import FILE [--annotator NAME]

Labels come in groups (format, control, data, return, inverse, truth, other); in the
labeling queue keys 1-9 toggle the labels of the open group. A corpus starts with the
default taxonomy of execution-prediction errors (docs/annotation.md).

--import stores FILE (JSON, as --export writes it) as the next version. A label that
annotations use cannot be removed: deprecate it ("deprecated": true) or rename it (a new
id with the old one in "was"); the refusal names each such label, and nothing is stored.

Options:
  --db CORPUS       the corpus file
  --json            one JSON object per label: id, group, key, name, description, deprecated
  --export FILE     write the whole taxonomy (version, name, groups, labels with examples)
  --import FILE     store FILE as the next version
  --annotator NAME  who changed it (default: $STEPSCOPE_ANNOTATOR, else your login name)`,
  options: {
    db: { type: 'string' },
    json: { type: 'boolean' },
    export: { type: 'string' },
    import: { type: 'string' },
    annotator: { type: 'string' },
  },
  run(values) {
    const file = values.import as string | undefined;
    if (file !== undefined) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        throw new UserError(`taxonomy: cannot read ${file}: ${(e as Error).message}`, 'not-found');
      }
      const t = parseTaxonomyText(text, file);
      const author = annotatorOption(values, 'taxonomy');
      return withCorpus(values, 'taxonomy', {}, (corpus) => {
        const r = updateTaxonomy(corpus, t, author, file);
        if (!r.stored) console.log(`taxonomy unchanged (version ${r.taxonomy.version})`);
        else {
          const d = r.diff;
          const parts = [
            ['added', d.added.length],
            ['renamed', d.renamed.length],
            ['deprecated', d.deprecated.length],
            ['removed', d.removed.length],
            ['changed', d.changed.length],
          ];
          console.log(
            `stored taxonomy version ${r.taxonomy.version}: ${
              parts
                .filter(([, n]) => n)
                .map(([k, n]) => `${n} ${k}`)
                .join(', ') || 'names changed'
            }`,
          );
        }
        return 0;
      });
    }
    return withCorpus(values, 'taxonomy', { readonly: true }, (corpus) => {
      const t = currentTaxonomy(corpus);
      if (values.export !== undefined) {
        writeFileSync(values.export as string, JSON.stringify(t, null, 2) + '\n');
        console.log(`wrote taxonomy version ${t.version} (${t.labels.length} labels) to ${values.export}`);
        return 0;
      }
      if (values.json) {
        process.stdout.write(
          t.labels
            .map(
              (l) =>
                JSON.stringify({
                  id: l.id,
                  group: l.group,
                  key: l.key,
                  name: l.name,
                  description: l.description,
                  deprecated: l.deprecated === true,
                }) + '\n',
            )
            .join(''),
        );
        return 0;
      }
      console.log(`${t.name}, version ${t.version}`);
      for (const g of t.groups) {
        const rows = t.labels
          .filter((l) => l.group === g.id)
          .map((l) => [l.key, l.id + (l.deprecated ? ' (deprecated)' : ''), l.description]);
        console.log(`\n${g.name} (${g.id})\n` + table(['key', 'label', 'description'], rows));
      }
      return 0;
    });
  },
};
