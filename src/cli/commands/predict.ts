/** `stepscope predict`: ask a running OpenAI-compatible server for the completions of a set's items. */
import { recordName } from '../../contract/predictions.js';
import { int } from '../../contract/validate.js';
import { UserError } from '../../common/errors.js';
import {
  abortOnInterrupt,
  DEFAULT_API_KEY_ENV,
  DEFAULT_CONCURRENCY,
  DEFAULTS,
  MAX_TIMEOUT_MS,
  ModelError,
  type ModelSettings,
} from '../../model/index.js';
import { predict } from '../../predictions/predict.js';
import { checkedOption, CliError, intOption, requireString, usage, type Command } from '../command.js';
import { withCorpus } from '../open-corpus.js';
import { ProgressBar } from '../progress.js';
import { runChecks } from '../run-checks.js';

/** Node's timers count milliseconds in 32 bits: the longest --timeout, in whole seconds. */
const MAX_TIMEOUT_S = Math.floor(MAX_TIMEOUT_MS / 1000);
/** The largest --max-response-mb: an answer is read into memory (and a JS string is at most ~512 MiB). */
const MAX_RESPONSE_MB = 256;

const HELP = `Usage: stepscope predict --db CORPUS --set NAME --endpoint URL --model NAME [--label LABEL]
                         [--samples K] [--temperature T] [--top-p P] [--max-tokens N] [--seed S]
                         [--concurrency C] [--timeout SECONDS] [--max-response-mb N] [--api-key-env VAR]
                         [--replace]

Sends each item's prompt as is (no chat template) to URL's /v1/completions (vLLM, llama.cpp's
server, Ollama, any OpenAI-compatible server; docs/model-servers.md), stopping at
<|action_sep|> and <|trace_end|>, and stores every answer with its verdicts as soon as it
arrives, in the run labelled LABEL. Failed requests are retried with backoff. Stopped (Ctrl+C,
a crash, a server that went away), it keeps what arrived; run the same command again and only
the items without an answer are asked for. Execution checks run at the end.

The API key is read from an environment variable, never from the command line and never
stored: ${DEFAULT_API_KEY_ENV} when set, or the variable named by --api-key-env.

Options:
  --db CORPUS          the corpus file
  --set NAME           the evaluation set
  --endpoint URL       the server, e.g. http://127.0.0.1:8000 (or …/v1)
  --model NAME         the model name the server serves
  --label LABEL        the run's label (default: the model name)
  --samples K          draws per item: completions asked for each (default 1)
  --temperature T      default ${DEFAULTS.temperature} (greedy, the paper's next-state protocol)
  --top-p P            default ${DEFAULTS.topP}
  --max-tokens N       default ${DEFAULTS.maxTokens}
  --seed S             sent to the server when given
  --concurrency C      requests in flight at most (default ${DEFAULT_CONCURRENCY})
  --timeout SECONDS    per request, until the whole answer has arrived (default ${DEFAULTS.timeoutMs / 1000};
                       at most ${MAX_TIMEOUT_S}, about 24 days)
  --max-response-mb N  the largest answer read from the server, in MiB (default ${DEFAULTS.maxResponseBytes / 2 ** 20}).
                       A longer answer fails its item at once (not retried, nothing of it stored)
  --api-key-env VAR    the environment variable holding the API key
  --replace            delete the run labelled LABEL and start over`;

export const command: Command = {
  name: 'predict',
  summary: "Ask a model server (OpenAI-compatible) for an evaluation set's completions, resumably",
  help: HELP,
  options: {
    ...Object.fromEntries(
      [
        'db',
        'set',
        'endpoint',
        'model',
        'label',
        'samples',
        'temperature',
        'top-p',
        'max-tokens',
        'seed',
        'concurrency',
        'timeout',
        'max-response-mb',
        'api-key-env',
      ].map((k) => [k, { type: 'string' as const }]),
    ),
    replace: { type: 'boolean' },
  },
  run(values) {
    const set = checkedOption(values, 'set', 'predict', recordName) ?? requireString(values, 'set', 'predict');
    const label = checkedOption(values, 'label', 'predict', recordName);
    const num = (k: string) => {
      if (values[k] === undefined) return undefined;
      const x = Number(values[k]);
      if (!Number.isFinite(x)) throw usage(`predict: --${k} expects a number, got '${values[k]}'`);
      return x;
    };
    const timeout = num('timeout');
    if (timeout !== undefined && !(timeout > 0 && timeout <= MAX_TIMEOUT_S))
      throw usage(
        `predict: --timeout is in seconds, more than 0 and at most ${MAX_TIMEOUT_S} (about 24 days), got '${values.timeout}'`,
      );
    const maxMb = num('max-response-mb');
    if (maxMb !== undefined && !(maxMb > 0 && maxMb <= MAX_RESPONSE_MB))
      throw usage(
        `predict: --max-response-mb is in MiB, more than 0 and at most ${MAX_RESPONSE_MB}, got '${values['max-response-mb']}'`,
      );
    const settings: ModelSettings = {
      endpoint: requireString(values, 'endpoint', 'predict'),
      model: requireString(values, 'model', 'predict'),
      temperature: num('temperature'),
      topP: num('top-p'),
      maxTokens:
        values['max-tokens'] === undefined ? undefined : intOption(values, 'max-tokens', 'predict', undefined, int(1)),
      seed: values.seed === undefined ? undefined : intOption(values, 'seed', 'predict'),
      // At least 1 ms: 0.0001 s is a timeout, not "none".
      timeoutMs: timeout === undefined ? undefined : Math.max(1, Math.round(timeout * 1000)),
      maxResponseBytes: maxMb === undefined ? undefined : Math.round(maxMb * 2 ** 20),
      apiKeyEnv: values['api-key-env'] as string | undefined,
    };
    const samples = intOption(values, 'samples', 'predict', 1, int(1));
    const concurrency = intOption(values, 'concurrency', 'predict', DEFAULT_CONCURRENCY, int(1));
    return withCorpus(values, 'predict', {}, async (corpus) => {
      const interrupt = abortOnInterrupt({
        onFirst: () => console.error('\nstopping: waiting for the requests in flight (Ctrl+C again to quit now)'),
      });
      let bar: ProgressBar | undefined;
      let r;
      try {
        r = await predict(corpus, {
          set,
          label,
          settings,
          samples,
          concurrency,
          replace: values.replace === true,
          signal: interrupt.signal,
          onStart: (todo, answered) => {
            if (answered) console.error(`resuming: ${answered} items already answered, ${todo} to ask for`);
            if (process.stderr.isTTY && todo > 0) bar = new ProgressBar('predict', todo, (n) => `${n}/${todo} items`);
          },
          onProgress: (p) =>
            bar?.update(
              p.done,
              `${p.perSecond.toFixed(1)}/s${p.retries ? `, ${p.retries} retries` : ''}${p.failed ? `, ${p.failed} failed` : ''}`,
            ),
          onFailure: (item, e) => {
            bar?.clear();
            console.error(`item ${item.id}: ${e.message}`);
          },
        });
      } catch (e) {
        if (e instanceof UserError) throw new CliError(`predict: ${e.message}`, 1, e.code);
        throw e;
      } finally {
        bar?.clear();
        interrupt.dispose();
      }
      const s = r.summary;
      console.log(
        `run ${JSON.stringify(r.run.label)} of ${set}: ${s.answered} items answered now (${r.resumed} before), ${s.failed} failed` +
          `${s.truncated ? `, ${s.truncated} draws cut at --max-tokens` : ''}; ${r.run.items} of ${corpus.getEvalSet(set)!.items} items have answers`,
      );
      const code = await runChecks(corpus, r.run.id);
      if (s.outcome === 'stopped')
        throw new CliError(
          `predict: stopped: ${(s.error as ModelError).message}. Run the same command again to go on.`,
          1,
          'unavailable',
        );
      if (s.outcome === 'aborted') {
        console.error('stopped: run the same command again to ask for the rest');
        return 130;
      }
      if (s.unanswered) {
        console.error(`${s.unanswered} items have no answer yet: run the same command again to ask for them`);
        return 1;
      }
      return code;
    });
  },
};
