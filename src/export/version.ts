import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
/** Stepscope's version (package.json), written into every export's card and manifest. */
export const version: string = (require('../../package.json') as { version: string }).version;
