/**
 * Checking a model at any state (contract: ../contract/ask.ts): the item is cut as an
 * evaluation set would cut it (src/predictions/items.ts), its completions scored with the
 * semantics' exact match. askModel asks the server through src/model/; a failure there (server
 * down, timeout, refused key, not a completions API) is a ModelError, which `dispatch` turns
 * into one line, code `unavailable` (`bad-input` for settings wrong before anything is sent).
 * The handler sends to the endpoint and key variable in its params: in web mode the HTTP server
 * has already bound them to a server `serve`'s user configured (src/model/servers.ts, askGate).
 */
import { UserError } from '../../common/errors.js';
import { complete } from '../../model/index.js';
import { cutItem, Traces } from '../../predictions/items.js';
import { parseAction, scoreCompletion } from '../../semantics/index.js';
import type { ReadCorpus } from '../../store/corpus.js';
import type { Api, Params } from '../../contract/index.js';
import type { CheckedAnswer, StateCheck } from '../../contract/ask.js';

type At = Params<'checkCompletions'>;

export function askHandlers(corpus: ReadCorpus): Pick<Api, 'checkCompletions' | 'askModel'> {
  const traces = new Traces(corpus, 8);

  function check(p: Omit<At, 'completions'>, answers: { text: string; finish: string | null }[]): StateCheck {
    if (!corpus.getTrace(p.traceId)) throw new UserError(`no trace with id ${p.traceId}`, 'not-found');
    const entry = p.entry ?? 0;
    const item = cutItem(traces, p.traceId, p.direction, entry, p.actions.map(parseAction), '');
    const scored = answers.map(({ text, finish }): CheckedAnswer => {
      const s = scoreCompletion(item.truth, text);
      return { completion: text, finish, parsed: s.parsed, parseError: s.parseError, em: s.em };
    });
    return {
      traceId: p.traceId,
      direction: p.direction,
      entry,
      actions: p.actions,
      prompt: item.prompt,
      target: item.target,
      truth: item.truth,
      targetNode: item.targetNode,
      targetSeq: item.targetSeq,
      answers: scored,
    };
  }

  return {
    checkCompletions(p) {
      return check(
        p,
        p.completions.map((text) => ({ text, finish: null })),
      );
    },

    async askModel(p) {
      // The prompt is cut first, so a bad trace or action list fails before the server is asked.
      const cut = check(p, []);
      const c = await complete(
        {
          endpoint: p.endpoint,
          model: p.model,
          apiKeyEnv: p.apiKeyEnv || undefined,
          prompt: cut.prompt,
          samples: p.samples ?? 1,
          temperature: p.temperature,
          maxTokens: p.maxTokens,
          timeoutMs: p.timeoutSeconds === undefined ? undefined : p.timeoutSeconds * 1000,
          // One person waiting at a view: a failing server is reported soon, not after minutes of retries.
          retries: 1,
        },
        { backoff: { baseMs: 200, maxMs: 1000 } },
      );
      return {
        ...check(
          p,
          c.texts.map((text, i) => ({ text, finish: c.finishReasons[i] ?? null })),
        ),
        model: c.model,
      };
    },
  };
}
