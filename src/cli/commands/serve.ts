/** `stepscope serve`: the explorer in a browser, over one corpus. */
import { readFileSync } from 'node:fs';
import { int } from '../../contract/validate.js';
import { UserError } from '../../common/errors.js';
import { ModelError } from '../../model/index.js';
import { askGate, configureServers, describeServers } from '../../model/servers.js';
import { ServeError, startServer } from '../../server/listen.js';
import { CliError, intOption, requireString, usage, type Command } from '../command.js';

export const command: Command = {
  name: 'serve',
  summary: 'Serve the explorer (web mode) over a corpus',
  help: [
    'Usage: stepscope serve --db CORPUS [--port P] [--host H] [--token-file FILE | --token T] [--cache-mb N]',
    '                       [--model-server [NAME=]URL ...] [--model-key-env [NAME=]VAR ...]',
    '',
    'Serves the explorer UI and its API (POST /api/<method>) over HTTP and prints the URL.',
    '',
    '  --db CORPUS   corpus file to explore (must exist)',
    '  --port P      port to listen on (default 7420; 0 picks a free one)',
    '  --host H      address to bind (default 127.0.0.1). Any non-loopback host',
    '                requires a token, and every API call must then carry it',
    '  --token-file FILE',
    '                the shared secret (8 characters or more): the first line of FILE.',
    '                The printed URL carries it in its #fragment',
    '  --token T     the same secret on the command line, where other users of this',
    '                machine can read it (`ps`): prefer --token-file or STEPSCOPE_TOKEN',
    '  --ui DIR      folder of the built renderer (default: out/renderer of this install)',
    '  --cache-mb N  memory for the traces held open for walking, in MiB (default 1024;',
    '                a 1,000,000-event trace of short values takes about 430). A trace',
    '                that needs more is refused with its size',
    '  --model-server [NAME=]URL',
    '                a model server "Ask the model" may use (repeat for more). The page gives',
    '                its URL (an API client may give NAME); no other address is ever asked',
    '  --model-key-env [NAME=]VAR',
    "                the environment variable holding that server's API key (NAME= when there",
    '                are several servers); it must be set. A server without one gets',
    '                STEPSCOPE_API_KEY when that is set. The page cannot name another variable',
    '',
    'The API runs in worker threads, each with its own read-only connection to the corpus',
    '(the annotation methods alone write, through one writable connection): a big trace',
    'loading never holds up another request. An older corpus is upgraded once,',
    'before serving. Limits: a request body of 8 MiB, 20,000 actions per walk, 64 MiB per',
    'answer; each refusal says the limit and how to get more.',
    '',
    'Environment:',
    '  STEPSCOPE_TOKEN  the shared secret, when neither --token nor --token-file is given',
  ].join('\n'),
  options: {
    db: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    token: { type: 'string' },
    'token-file': { type: 'string' },
    ui: { type: 'string' },
    'cache-mb': { type: 'string' },
    'model-server': { type: 'string', multiple: true },
    'model-key-env': { type: 'string', multiple: true },
  },
  async run(values) {
    const db = requireString(values, 'db', 'serve');
    const port = intOption(values, 'port', 'serve', 7420, int(0, 65535));
    const token = tokenOf(values);
    const cacheMb = intOption(values, 'cache-mb', 'serve', 1024, int(16, 1024 * 1024));
    let servers;
    try {
      servers = configureServers(
        (values['model-server'] as string[] | undefined) ?? [],
        (values['model-key-env'] as string[] | undefined) ?? [],
      );
    } catch (e) {
      if (e instanceof ModelError) throw usage(`serve: ${e.message}`);
      throw e;
    }
    let running;
    try {
      running = await startServer({
        db,
        port,
        host: values.host as string | undefined,
        token,
        uiDir: values.ui as string | undefined,
        cacheBytes: cacheMb * 2 ** 20,
        vetAsk: askGate(servers),
      });
    } catch (e) {
      if (e instanceof ServeError) throw new CliError(`serve: ${e.message}`, 2, e.code);
      if (e instanceof UserError) throw new CliError(`serve: ${e.message}`, 1, e.code);
      throw e;
    }
    if (!running.uiBuilt) console.error('stepscope: the UI is not built (run `npm run build`); serving the API only.');
    console.log(`Stepscope explorer on ${db}: ${running.openUrl}`);
    for (const line of describeServers(servers)) console.log(`Ask the model: ${line}`);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await running.close();
    return 0;
  },
};

/** The shared secret from --token, --token-file or STEPSCOPE_TOKEN (one of them at most), checked. */
function tokenOf(values: Record<string, unknown>): string | undefined {
  const given = values.token as string | undefined;
  const file = values['token-file'] as string | undefined;
  if (given !== undefined && file !== undefined) throw usage('serve: give --token or --token-file, not both');
  let token: string | undefined;
  let from: string;
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw usage(
        `serve: cannot read --token-file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      );
    }
    token = text.split(/\r?\n/)[0];
    from = `the first line of ${file}`;
  } else if (given !== undefined) {
    token = given;
    from = '--token';
  } else {
    token = process.env.STEPSCOPE_TOKEN || undefined;
    from = 'STEPSCOPE_TOKEN';
  }
  if (token !== undefined && token.length < 8) throw usage(`serve: the token (${from}) must be at least 8 characters`);
  return token;
}
