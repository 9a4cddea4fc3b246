// Types of scripts/after-pack.mjs for TypeScript callers (its test).

/** The part of electron-builder's afterPack context these helpers read. */
export interface PackedApp {
  appOutDir: string;
  electronPlatformName: string;
  packager: { appInfo: { productFilename: string }; executableName: string };
}

/** The packed app's resources folder and the path fuses.mjs takes (its executable, or the .app bundle). */
export declare function packedPaths(context: PackedApp): { resources: string; executable: string };
/** prebuild-install's arguments for Electron `version` on `platform`/`arch`. */
export declare function prebuildArgs(version: string, platform: string, arch: string): string[];
type Context = PackedApp & { arch: number; packager: { config: { electronVersion?: string } } };
/** The whole step: better-sqlite3 for Electron into the packed app, then the fuses. */
declare function afterPack(context: Context): Promise<void>;
export default afterPack;
