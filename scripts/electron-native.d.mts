// Types of scripts/electron-native.mjs for TypeScript callers (its test).

export interface ElectronSqliteOptions {
  /** The repository (its node_modules holds better-sqlite3 and electron). */
  root: string;
  /** Default: node_modules/electron's version. */
  electronVersion?: string;
  /** node-gyp's script; default findNodeGyp(). */
  nodeGyp?: string;
  /** Default ROOT/.stepscope/electron-native, or STEPSCOPE_ELECTRON_NATIVE_DIR. */
  cacheDir?: string;
  /** Called before a build starts, for a notice. */
  onBuild?: (electronVersion: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** The Electron-ABI build's path, or a one-line reason there is none. */
export type ElectronSqlite =
  | { path: string; error?: undefined; electronVersion: string }
  | { error: string; path?: undefined; electronVersion: string | undefined };

/** npm's bundled node-gyp (bin/node-gyp.js), or null. STEPSCOPE_NODE_GYP overrides (tests). */
export declare function findNodeGyp(env?: NodeJS.ProcessEnv): string | null;
/** One short line out of node-gyp's output saying why it failed. */
export declare function failureReason(output: string, status: number | string | null): string;
export declare function ensureElectronSqlite(opts: ElectronSqliteOptions): ElectronSqlite;
