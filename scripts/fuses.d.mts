// Types of scripts/fuses.mjs for TypeScript callers (its test).
import type { FuseV1Config } from '@electron/fuses';

/** The fuses the packaged app is given, as @electron/fuses takes them. */
export declare const FUSES: FuseV1Config;
/** Checks the path, flips the fuses, reads them back: one line per fuse set; throws with one line. */
export declare function applyFuses(path: string): Promise<string[]>;
