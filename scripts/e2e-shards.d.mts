// Types of scripts/e2e-shards.mjs (for the tests that import it).
export declare const SECONDS: Record<string, number>;
export declare const DEFAULT_SECONDS: number;
export declare function specFiles(dir: string): string[];
export declare function shardFiles(files: string[], n: number): string[][];
export declare function fileFilters(files: string[]): string[];
